"""What every board shape is given and gives back, and the drawing parts shapes share.

A shape's `resolve` reads its own keys of the board layout through a `values.Reader` and
the board's entry in game.yaml through an `Entry`; its `lay_out` returns a `BoardFace`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import fonts, sandbox
from ..model import Board, Cell
from ..primitives import Ellipse, Face, Group, Item, Polygon, Rect
from ..problems import Location, Report, spoken
from ..colors import INKS
from ..units import mm, paper_size, parse_length
from ..values import abridged
from ..i18n import N_, _
from ..options import Option, Options

OUTLINE = (0.55, 0.55, 0.55)
INK = INKS["board"]
STYLE_KEYS = ("outline", "outline_width", "label_size")  # a shape's style(): on the Board


def style(outline: str, outline_width: str, label_size: str | None = None) -> Options:
    """The look of a shape's cells (areas, tiles, places) and their labels, declared once
    for every shape that has them; the shapes differ only in their defaults. The values
    are the Board's (outline, outline_width, label_size), read by resolve."""
    return Options(
        Option("outline", "color", N_("the line around each cell, area, tile or place (none: "
                                      "no line)"), outline),
        Option("outline_width", "length", N_("how thick that line is"), outline_width,
               low="0mm", high="5mm"),
        *((Option("label_size", "length", N_("the size of a label: a cell's coordinates, an "
                                             "area's or a place's name, a track space's "
                                             "number (at most: smaller in a smaller space)"),
                  label_size,
                  low="3pt", high="72pt"),) if label_size else ()),
    )


# The size of a board's title, for every shape that prints one (map, ring, track), declared
# once.
TITLE_SIZE = Option("title_size", "length", N_("the size of the board's title"), "16pt",
                    low="6pt", high="96pt")


def check_title(board: Board, game, size: float, room: float, where: str,
                report: Report) -> None:
    """The title a board prints, on one line at `size`, must fit the `room` its shape gives
    it (`where`, in words): a wider one is an error at the board's title, as any text that
    does not fit (it would run over the board's edge or its tiles)."""
    if not board.title:
        return
    wide = fonts.string_width(board.title, board_font(board, game), size)
    if wide > room:
        report.error(_("board '{board_id}': its title '{title}' is {wide:.1f} mm wide at "
                       "{size:g} pt, wider than {where} ({room:.1f} mm); shorten it, or set a "
                       "smaller title_size in the board layout", board_id=board.id,
                       title=abridged(board.title), wide=wide / mm(1), size=size, where=where,
                       room=max(room, 0.0) / mm(1)), board.title_loc or board.loc, "board")


def board_font(board: Board, game) -> str:
    """The registered font a board's labels are set in: its layout's `font:` family (bold),
    or the game's main family's."""
    return (game.fonts.get(board.font) or game.main_family).bold if board.font else \
        game.main_family.bold


@dataclass(frozen=True)
class BoardFace:
    board: Board
    face: Face
    centres: tuple[tuple[float, float], ...]  # tile (cell) centres on the face, points, y up
    radius: float
    reach: float = 0.0  # how far a tile reaches from its centre (half its diagonal)
    labels: tuple[tuple[str, float, float], ...] = ()  # (label, x, y up) of cells and spaces


CellFace = Callable[[Cell], "Face | None"]


def data_path(value: Any) -> list[str]:
    """A path into the game's data as a board's entry names a list (data.map.routes): the
    table's name, then the keys in it; [] for a value that names none."""
    return str(value).split(".")[1:]


class CellProblem(Exception):
    """A cell entry a shape cannot read: reported at the entry (or its `key`)."""

    def __init__(self, message: str, key: tuple = ()):
        super().__init__(message)
        self.message, self.key = message, key


@dataclass
class Entry:
    """A board's entry in game.yaml (`boards:`), as a shape reads it."""

    raw: dict
    where: Callable[..., Location]  # where(key, ...) -> its location in game.yaml
    data: dict  # the game's data tables, for templates
    report: Report
    palette: dict  # the game's colours, for colours a board layout names
    tables: Mapping[str, Any] = field(default_factory=dict)  # table name -> its Document
    source: Any = None  # game.yaml's SourceMap
    path: tuple = ()  # the entry's path there: ("boards", i)

    def listed(self, key: str, most: int, what: str) -> tuple[list, Any, tuple] | None:
        """The list the entry's `key` gives: its own (written in game.yaml), or one of the
        game's data (a path such as data.map.routes); as (items, the SourceMap they are
        written in, the list's path there). None (reported) when there is no such list, or
        a list of more than `most` items (a budget: said before any is read)."""
        value = self.raw[key]
        if isinstance(value, list):
            return self._budget(key, value, most, what, self.source, self.path + (key,))
        parts = data_path(value)
        table = self.tables.get(parts[0]) if parts else None
        items: Any = table.data if table is not None else None
        for part in parts[1:]:
            items = items.get(part) if isinstance(items, dict) else None
        if table is None or not isinstance(items, list):
            self.report.error(_("board '{name}': {key}: '{raw}' is not a list in the game's "
                                "data{why}", name=self.raw["id"], key=key, raw=value,
                                why="" if table is not None else _(
                                    " (there is no data table '{table}')",
                                    table=parts[0] if parts else value)),
                              self.where(key), "reference")
            return None
        return self._budget(key, items, most, what, table.source, tuple(parts[1:]))

    def _budget(self, key: str, items: list, most: int, what: str, source: Any,
                base: tuple) -> tuple[list, Any, tuple] | None:
        if len(items) > most:
            self.report.error(_("board '{name}': {key}: {n:,} {what}; a board has at most "
                                "{most:,}", name=self.raw["id"], key=key, n=len(items),
                                what=what, most=most), self.where(key), "schema")
            return None
        return items, source, base

    def number(self, key: str, default: Any) -> Any:
        """A whole number, written as one or as a template over the game's data; None
        (reported) when it is neither."""
        value = self.raw.get(key, default)
        if isinstance(value, str):
            try:
                value = sandbox.render(value, {"data": self.data})
                value = int(str(value).strip())
            except (sandbox.SandboxError, ValueError) as exc:
                value = exc if isinstance(exc, sandbox.SandboxError) else 'not a whole number'
                self.report.error(_("board '{raw}': {key}: {value}", raw=self.raw['id'], key=key,
                                    value=value), self.where(key), "reference")
                return None
        return value


def hexagon(cx: float, cy: float, r: float, start: float) -> tuple[tuple[float, float], ...]:
    """A regular hexagon's corners about (cx, cy), `r` from it, the first at `start` degrees
    (counter-clockwise from the right in y-up coordinates, clockwise where y runs down)."""
    return tuple((cx + r * math.cos(math.radians(start + 60 * k)),
                  cy + r * math.sin(math.radians(start + 60 * k))) for k in range(6))


def whole(item: dict, keys: tuple[str, str]) -> tuple[int, int]:
    """A cell's two whole-number coordinates (column and row, or q and r)."""
    missing = [k for k in keys if not isinstance(item.get(k), int) or
               isinstance(item.get(k), bool)]
    if missing:
        raise CellProblem(_("needs whole numbers {join} (its coordinates)",
                            join=spoken(keys, "and")),
                          (missing[0],) if missing[0] in item else ())
    return item[keys[0]], item[keys[1]]


def ground(board: Board, width: float, height: float) -> Rect:
    return Rect(0, 0, width, height, fill=board.color)


def hex_points(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """The largest regular hexagon in a box: pointy-topped in a tall box, flat in a wide one."""
    if h >= w:
        return hexagon(x + w / 2, y + h / 2, min(w / math.sqrt(3), h / 2), 90)
    return hexagon(x + w / 2, y + h / 2, min(h / math.sqrt(3), w / 2), 0)


def tile_outline(board: Board, w: float, h: float) -> tuple[Item, ...]:
    """The thin line around a tile of the board's deck (Deck.shape) placed on it, in the
    board's outline style: its cut line, round for a round token, a hexagon for a hex one;
    none where the style says `outline: none`."""
    if board.outline is None or board.outline_width <= 0:
        return ()
    sc, sw = board.outline, board.outline_width
    if board.tile_shape == "circle":
        return (Ellipse(0, 0, w, h, stroke=sc, stroke_width=sw),)
    if board.tile_shape == "hex":
        return (Polygon(hex_points(0, 0, w, h), stroke=sc, stroke_width=sw),)
    return (Rect(0, 0, w, h, stroke=sc, stroke_width=sw),)


def cell_items(board: Board, outline: tuple, box: tuple[float, float, float, float], cell: Cell,
               tiles: Mapping[str, Face], cell_face: CellFace, polygon: bool) -> list[Item]:
    """A cell's fill, face, tile and outline; `outline` in y-up points, `box` (x, y up, w, h)."""
    x, y, w, h = box
    items: list[Item] = []
    fill = cell.color
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
    if board.outline is None or board.outline_width <= 0:  # outline: none
        return items
    if polygon:
        items.append(Polygon(outline, stroke=board.outline, stroke_width=board.outline_width))
    else:
        items.append(Rect(x, y, w, h, stroke=board.outline, stroke_width=board.outline_width))
    return items


MAX_CELLS = 10_000  # cells of one board (a map's places): said before a longer list is read
# The lists a board's entry takes (its key: the most items, what they are): written in the
# entry or in the game's data. A shape adds its own (map: routes); the loader reads each
# such list no further than its budget (boards.lists), and Entry.listed says a longer one.
LISTS = {"cells": (MAX_CELLS, N_("cells"))}

MAX_PAGES = 64  # pages a board is split over, at most: a larger board is a typo, or a wall


def page_grid(board: Board, width: float, height: float, paper: tuple[float, float]):
    """(paper size turned the way it is used, columns, rows) of a board of `width` x
    `height` split over pages of `paper`, each sharing `overlap` with its neighbours: the
    way round that needs fewer pages (portrait on a tie). Impose splits boards by it, and
    the layout stage refuses a board that would take more than MAX_PAGES."""
    m, overlap = board.print_margin, board.overlap

    def grid(w: float, h: float) -> tuple[int, int]:
        step_x, step_y = w - 2 * m - overlap, h - 2 * m - overlap
        return (max(1, math.ceil((width - overlap) / step_x)),
                max(1, math.ceil((height - overlap) / step_y)))

    w, h = min((paper, paper[::-1]), key=lambda size: grid(*size)[0] * grid(*size)[1])
    return (w, h), *grid(w, h)


def whole_paper(board: Board, width: float, height: float) -> tuple[float, float] | None:
    """The first of the board's papers (either way round) that holds it whole inside the
    print margin, as (width, height) used; None when it must be split (split_paper)."""
    m = board.print_margin
    for name in board.papers:
        for w, h in (paper_size(name), paper_size(name)[::-1]):
            if width <= w - 2 * m and height <= h - 2 * m:
                return w, h
    return None


def split_paper(board: Board) -> str | tuple[float, float]:
    """The paper a board too big for all of its papers is split over: the last of them (they
    run from the print shop's to the home printer's: A3 whole, else A4 pages), so that a
    split board prints on the paper a player has."""
    return board.papers[-1]


def split_pages(board: Board, width: float, height: float, paper: tuple[float, float]):
    """The pages a board of `width` x `height` is split over on `paper` (page_grid): the
    paper size as used, then for each page, row by row, (row, column, x0, y0) of its
    printable area's top-left corner on the board (y down) and that area's size (pw, ph).
    The pages share the board evenly: each column of pages is as far from the next, the
    first at the board's left edge and the last at its right (so no page carries a sliver),
    overlapping by at least `overlap`."""
    (w, h), cols, rows = page_grid(board, width, height, paper)
    m = board.print_margin
    pw, ph = w - 2 * m, h - 2 * m
    step_x = (width - pw) / (cols - 1) if cols > 1 else 0.0
    step_y = (height - ph) / (rows - 1) if rows > 1 else 0.0
    return (w, h), cols, rows, [(r, c, c * step_x, r * step_y, pw, ph)
                                for r in range(rows) for c in range(cols)]


def positive(board: Board, value: float, what: str, report: Report) -> None:
    """A shape's size that must be more than nothing (a cell, a hex, a space)."""
    if not value > 0:
        report.error(_("board '{board_id}': its layout '{board_layout}' gives a {what} of 0 mm or "
                       "less; a {board_shape} needs a {what} of more than 0 mm",
                           board_id=board.id, board_layout=board.layout, what=what,
                           board_shape=board.shape), board.loc,
                     "board")


def cell_length(item: dict, key: str, default=None) -> float:
    """A length of a cell entry (an area's x, y, w, h or size), not negative."""
    value = item.get(key, default)
    if value is None:
        raise CellProblem(_("needs {key}", key=key), ())
    try:
        size = parse_length(value)
    except ValueError as exc:
        raise CellProblem(_("{key}: {exc}", key=key, exc=exc), (key,)) from None
    if size < 0:
        raise CellProblem(_("{key}: must not be negative, not {value}",
                            key=key, value=value), (key,))
    return size


# The keys of a map of cells (grid, hex): its size where no cells are given, and whether
# each cell shows its coordinates.
# The keys of a map of rows x columns (grid, hex), declared once (options.py).
MAP = Options(
    Option("rows", "integer", N_("the map's rows, where the board gives no cells"), low=1,
           high=200, shown_default=N_("none: the cells the board gives")),
    Option("columns", "integer", N_("the map's columns, where the board gives no cells"), low=1,
           high=200, shown_default=N_("none: the cells the board gives")),
    Option("labels", "flag", N_("print each cell's coordinates"), True),
)


def every_cell(spec):
    """(column, row) of every cell of a map of spec.rows x spec.columns, row by row."""
    return ((c, r) for r in range(1, spec.rows + 1) for c in range(1, spec.columns + 1))


def count(spec) -> int:
    """The cells of a map of spec.rows x spec.columns."""
    return spec.rows * spec.columns


def needs_cells(board: Board, report: Report) -> bool:
    """A map of cells (grid, hex) has cells, from data or rows x columns."""
    if board.cells:
        return True
    report.error(_("board '{board_id}': a {board_shape} map needs cells: (a list in the game's "
                   "data) or rows and columns in its board layout",
                       board_id=board.id, board_shape=board.shape), board.loc, "board")
    return False
