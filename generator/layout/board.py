"""Boards: a deck's card faces (tiles), or cells drawn from data, placed by a board layout
of layouts/boards/ and drawn to scale. One function per shape:

- ring: N tiles with their centres on a circle, the first at `start_angle` (degrees
  counter-clockwise from the right; 90 is the top), the next ones clockwise (or
  counter-clockwise); radial tiles turned so that their bottom edge faces the centre.
  Without a radius, the ring is as small as the tiles and the gap between neighbours allow.
- grid: columns x rows of cells (A1 is the top-left), `gap` apart.
- hex: pointy- or flat-topped hexes of `size` (centre to corner), numbered offset (odd-r,
  even-r, odd-q, even-q) or axial, neighbours' centres sqrt(3) x size apart.
- track: numbered spaces around the board's edge (clockwise from the top-left corner),
  along a line, or on a spiral inwards; every 5th space outlined, every 10th filled.
- areas: named spaces placed freely from a data table (x, y, size, shape, label).

A cell shows its type's colour, the face its cell layout draws (clipped to its shape), the
tile placed on it, and its coordinates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..model import Board, Cell
from ..primitives import Ellipse, Face, Group, Item, Polygon, Rect, Text
from ..units import mm

OUTLINE = (0.55, 0.55, 0.55)
INK = (0.2, 0.2, 0.2)
LABEL_SIZE = 5.5  # pt: a cell's coordinates


@dataclass(frozen=True)
class BoardFace:
    board: Board
    face: Face
    centres: tuple[tuple[float, float], ...]  # tile (cell) centres on the face, points, y up
    radius: float
    reach: float = 0.0  # how far a tile reaches from its centre (half its diagonal)
    labels: tuple[tuple[str, float, float], ...] = ()  # (label, x, y up) of cells and spaces


CellFace = Callable[[Cell], "Face | None"]


def ring_radius(board: Board, w: float, h: float) -> float:
    n = len(board.cards)
    if board.radius is not None:
        return board.radius
    if n == 1:
        return 0.0
    half_angle = math.pi / n
    if board.radial:  # neighbours meet first at their inner corners
        return (w + board.gap) / (2 * math.sin(half_angle)) + h / 2
    return (math.hypot(w, h) + board.gap) / (2 * math.sin(half_angle))


def ring_angles(board: Board) -> list[float]:
    """Each tile's angle, degrees counter-clockwise from the right."""
    n = len(board.cards)
    step = 360.0 / n * (-1 if board.clockwise else 1)
    return [board.start_angle + i * step for i in range(n)]


def _ring(board: Board, tiles: dict[str, Face], title_font: str, cell_face: CellFace) -> BoardFace:
    first = tiles[board.cards[0]]
    w, h = first.width, first.height
    radius = ring_radius(board, w, h)
    reach = radius + math.hypot(w, h) / 2
    side = 2 * (reach + board.margin)
    cx = cy = side / 2
    items: list[Item] = [Rect(0, 0, side, side, fill=board.color)]
    centres = []
    for card_id, angle in zip(board.cards, ring_angles(board)):
        face = tiles[card_id]
        x = cx + radius * math.cos(math.radians(angle))
        y = cy + radius * math.sin(math.radians(angle))
        centres.append((x, y))
        turn = angle - 90 if board.radial else 0.0
        tile = face.items + (Rect(0, 0, face.width, face.height, stroke=OUTLINE, stroke_width=0.4),)
        items.append(Group(tile, rotate=turn, cx=x, cy=y, dx=x - face.width / 2,
                           dy=y - face.height / 2, clip=(0, 0, face.width, face.height)))
    items.append(Text(cx, cy - 6, board.title, title_font, 16, INK, anchor="middle"))
    return BoardFace(board, Face(side, side, tuple(items)), tuple(centres), radius,
                     math.hypot(w, h) / 2)


# --- cells: grid, hex, areas ---------------------------------------------------------------

def hex_centre(board: Board, a: int, b: int) -> tuple[float, float]:
    """A hex's centre, y down, from its coordinates (column and row, or q and r)."""
    s = board.cell_size[0]
    if board.orientation == "pointy":
        if board.numbering == "axial":
            return math.sqrt(3) * s * (a + b / 2), 1.5 * s * b
        shifted = (b % 2 == 1) if board.numbering != "even-r" else (b % 2 == 0)
        return math.sqrt(3) * s * (a + (0.5 if shifted else 0.0)), 1.5 * s * b
    if board.numbering == "axial":
        return 1.5 * s * a, math.sqrt(3) * s * (b + a / 2)
    shifted = (a % 2 == 1) if board.numbering != "even-q" else (a % 2 == 0)
    return 1.5 * s * a, math.sqrt(3) * s * (b + (0.5 if shifted else 0.0))


def hexagon(cx: float, cy: float, r: float, start: float) -> tuple[tuple[float, float], ...]:
    """A regular hexagon's corners about (cx, cy), `r` from it, the first at `start` degrees
    (counter-clockwise from the right in y-up coordinates, clockwise where y runs down)."""
    return tuple((cx + r * math.cos(math.radians(start + 60 * k)),
                  cy + r * math.sin(math.radians(start + 60 * k))) for k in range(6))


def hex_corners(board: Board, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """The six corners about a centre (y down), starting at the top (pointy) or the right."""
    return hexagon(x, y, board.cell_size[0], -90 if board.orientation == "pointy" else 0)


def _fill(cell: Cell):
    return cell.color


def _cell_items(outline: tuple, box: tuple[float, float, float, float], cell: Cell,
                tiles: dict[str, Face], cell_face: CellFace, polygon: bool) -> list[Item]:
    """A cell's fill, face, tile and outline; `outline` in y-up points, `box` (x, y up, w, h)."""
    x, y, w, h = box
    items: list[Item] = []
    fill = _fill(cell)
    if polygon:
        items.append(Polygon(outline, fill=fill))
    else:
        items.append(Rect(x, y, w, h, fill=fill))
    local = tuple((px - x, py - y) for px, py in outline) if polygon else ()
    face = cell_face(cell)
    if face is not None:
        items.append(Group(face.items, dx=x, dy=y, clip=(0, 0, w, h), clip_shape=local))
    if cell.tile and cell.tile in tiles:
        tile = tiles[cell.tile]
        tx, ty = x + (w - tile.width) / 2, y + (h - tile.height) / 2
        shape = tuple((px - tx, py - ty) for px, py in outline) if polygon else ()
        items.append(Group(tile.items, dx=tx, dy=ty, clip=(0, 0, tile.width, tile.height),
                           clip_shape=shape))
    if polygon:
        items.append(Polygon(outline, stroke=OUTLINE, stroke_width=0.5))
    else:
        items.append(Rect(x, y, w, h, stroke=OUTLINE, stroke_width=0.5))
    return items


def _grid(board: Board, tiles: dict[str, Face], title_font: str, cell_face: CellFace) -> BoardFace:
    cw, ch = board.cell_size
    cols = max(c.key[0] for c in board.cells)
    rows = max(c.key[1] for c in board.cells)
    m, gap = board.margin, board.gap
    width = 2 * m + cols * cw + (cols - 1) * gap
    height = 2 * m + rows * ch + (rows - 1) * gap
    items: list[Item] = [Rect(0, 0, width, height, fill=board.color)]
    centres, labels = [], []
    for cell in board.cells:
        (col, row), label = cell.key, cell.label
        x = m + (col - 1) * (cw + gap)
        top = m + (row - 1) * (ch + gap)
        y = height - top - ch
        corners = ((x, y), (x + cw, y), (x + cw, y + ch), (x, y + ch))
        items += _cell_items(corners, (x, y, cw, ch), cell, tiles, cell_face, False)
        centres.append((x + cw / 2, y + ch / 2))
        if board.labels:
            items.append(Text(x + mm(1), y + ch - mm(1) - LABEL_SIZE * 0.8, label, title_font,
                              LABEL_SIZE, INK))
            labels.append((label, x + cw / 2, y + ch / 2))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0,
                     math.hypot(cw, ch) / 2, tuple(labels))


def _hex(board: Board, tiles: dict[str, Face], title_font: str, cell_face: CellFace) -> BoardFace:
    s = board.cell_size[0]
    bw, bh = board.cell_box()
    raw = [(hex_centre(board, *cell.key), cell.label, cell) for cell in board.cells]
    min_x = min(c[0][0] for c in raw) - bw / 2
    min_y = min(c[0][1] for c in raw) - bh / 2
    max_x = max(c[0][0] for c in raw) + bw / 2
    max_y = max(c[0][1] for c in raw) + bh / 2
    m = board.margin
    width, height = max_x - min_x + 2 * m, max_y - min_y + 2 * m
    items: list[Item] = [Rect(0, 0, width, height, fill=board.color)]
    centres, labels = [], []
    for (cx, cy), label, cell in raw:
        x, y_down = cx - min_x + m, cy - min_y + m
        y = height - y_down  # y up
        outline = tuple((px, height - py) for px, py in hex_corners(board, x, y_down))
        box = (x - bw / 2, y - bh / 2, bw, bh)
        items += _cell_items(outline, box, cell, tiles, cell_face, True)
        centres.append((x, y))
        if board.labels:
            items.append(Text(x, y + s * 0.62, label, title_font, LABEL_SIZE, INK,
                              anchor="middle"))
            labels.append((label, x, y))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, s,
                     tuple(labels))


def _areas(board: Board, tiles: dict[str, Face], title_font: str, cell_face: CellFace) -> BoardFace:
    m = board.margin
    width = board.size[0] or max(c.x + c.w for c in board.cells) + 2 * m
    height = board.size[1] or max(c.y + c.h for c in board.cells) + 2 * m
    items: list[Item] = [Rect(0, 0, width, height, fill=board.color)]
    centres, labels = [], []
    for cell in board.cells:
        x, y = cell.x, height - cell.y - cell.h
        cx, cy = x + cell.w / 2, y + cell.h / 2
        fill = _fill(cell)
        if cell.shape == "circle":
            items += [Ellipse(x, y, cell.w, cell.h, fill=fill),
                      Ellipse(x, y, cell.w, cell.h, stroke=OUTLINE, stroke_width=0.6)]
        elif cell.shape == "hex":
            pts = hexagon(cx, cy, min(cell.w / math.sqrt(3), cell.h / 2), 90)
            items += [Polygon(pts, fill=fill), Polygon(pts, stroke=OUTLINE, stroke_width=0.6)]
        else:
            items += [Rect(x, y, cell.w, cell.h, fill=fill, radius=mm(1.5)),
                      Rect(x, y, cell.w, cell.h, stroke=OUTLINE, stroke_width=0.6, radius=mm(1.5))]
        if cell.tile and cell.tile in tiles:
            tile = tiles[cell.tile]
            items.append(Group(tile.items, dx=cx - tile.width / 2, dy=cy - tile.height / 2,
                               clip=(0, 0, tile.width, tile.height)))
        items.append(Text(cx, cy - 3, cell.label, title_font, 8, INK, anchor="middle"))
        centres.append((cx, cy))
        labels.append((cell.label, cx, cy))
    reach = max((math.hypot(c.w, c.h) / 2 for c in board.cells), default=0.0)
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, reach,
                     tuple(labels))


# --- tracks --------------------------------------------------------------------------------

def track_centres(board: Board) -> tuple[tuple[float, float], list[tuple[float, float]], float]:
    """(board size, each space's centre y down, the side of a space) of a track."""
    first, last = board.numbers
    n = last - first + 1
    m, space = board.margin, board.space
    if board.path == "line":
        width, height = 2 * m + n * space, 2 * m + space
        return (width, height), [(m + space * (k + 0.5), m + space / 2) for k in range(n)], space
    if board.path == "spiral":  # inwards, clockwise, the first space at the top
        step = space * 1.08
        spacing = space * 1.25  # between turns
        b = spacing / (2 * math.pi)
        inner = space * 1.5
        outer = math.sqrt(2 * b * n * step + inner * inner)
        side = 2 * (outer + space / 2 + m)
        cx = cy = side / 2
        centres, theta = [], 0.0
        for _ in range(n):
            r = max(inner, outer - b * theta)
            centres.append((cx + r * math.sin(theta), cy - r * math.cos(theta)))
            theta += step / r
        return (side, side), centres, space
    # edge: clockwise from the top-left corner, on a rectangle inset by half a space, a space
    # on each corner and the spaces of each side evenly spread (left and right may differ
    # by one, for an odd number)
    width, height = board.size
    if not width or not height:
        width = height = n * space / 4 + space + 2 * m
    inset = m + space / 2
    wi, hi = width - 2 * inset, height - 2 * inset
    if n < 4:
        return (width, height), [(inset + wi * k / max(n - 1, 1), inset) for k in range(n)], space
    a = max(1, round(n / 2 * wi / (wi + hi)))  # intervals along the top (and the bottom)
    b = max(1, (n - 2 * a) // 2)  # along the right
    left = n - 2 * a - b  # along the left: b, or b + 1
    if left < 1:
        a, b = a - 1, b
        left = n - 2 * a - b
    corners = [(inset, inset), (inset + wi, inset), (inset + wi, inset + hi), (inset, inset + hi)]
    centres = []
    for (x0, y0), (x1, y1), count in zip(corners, corners[1:] + corners[:1], (a, b, a, left)):
        centres += [(x0 + (x1 - x0) * k / count, y0 + (y1 - y0) * k / count) for k in range(count)]
    step = min(wi / a, hi / max(b, left))
    return (width, height), centres[:n], min(space, step)


def _track(board: Board, tiles: dict[str, Face], title_font: str, cell_face: CellFace) -> BoardFace:
    (width, height), raw, side = track_centres(board)
    first = board.numbers[0]
    accent = board.accent
    pale = tuple(1 - (1 - v) * 0.25 for v in accent) if len(accent) == 3 else accent
    items: list[Item] = [Rect(0, 0, width, height, fill=board.color)]
    centres, labels = [], []
    every, stronger = (tuple(board.emphasis) + (0, 0))[:2]
    drawn = side * 0.94
    for k, (cx, cy_down) in enumerate(raw):
        number = first + k
        cx, cy = cx, height - cy_down
        strong = bool(stronger) and number % stronger == 0
        marked = bool(every) and number % every == 0
        x, y = cx - drawn / 2, cy - drawn / 2
        if board.path == "spiral":
            items += [Ellipse(x, y, drawn, drawn, fill=pale if strong else (1.0, 1.0, 1.0)),
                      Ellipse(x, y, drawn, drawn, stroke=accent if marked else OUTLINE,
                              stroke_width=1.4 if marked else 0.5)]
        else:
            items += [Rect(x, y, drawn, drawn, fill=pale if strong else (1.0, 1.0, 1.0)),
                      Rect(x, y, drawn, drawn, stroke=accent if marked else OUTLINE,
                           stroke_width=1.4 if marked else 0.5)]
        size = min(12.0, drawn * 0.42)
        items.append(Text(cx, cy - size * 0.35, str(number), title_font, size,
                          accent if marked else INK, anchor="middle"))
        centres.append((cx, cy))
        labels.append((str(number), cx, cy))
    if board.path == "edge":
        items.append(Text(width / 2, height / 2, board.title, title_font, 16, INK,
                          anchor="middle"))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0,
                     side / math.sqrt(2), tuple(labels))


SHAPES = {"ring": _ring, "grid": _grid, "hex": _hex, "track": _track, "areas": _areas}


def drawable(board: Board) -> bool:
    """False for a board validate reports as unusable (no cells, a size of nothing): it is
    not drawn, so that its problems are said once, by validate."""
    if board.shape in ("grid", "hex", "areas") and not board.cells:
        return False
    if board.shape == "grid":
        return min(board.cell_size) > 0
    if board.shape == "hex":
        return board.cell_size[0] > 0
    if board.shape == "track":
        return board.space > 0 and board.numbers[1] >= board.numbers[0]
    if board.shape == "areas":
        return all(c.w > 0 and c.h > 0 for c in board.cells)
    return bool(board.cards)


def layout_board(board: Board, tiles: dict[str, Face], title_font: str,
                 cell_face: CellFace = lambda cell: None) -> BoardFace | None:
    if not drawable(board):
        return None
    return SHAPES[board.shape](board, tiles, title_font, cell_face)
