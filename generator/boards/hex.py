"""hex: pointy- or flat-topped hexes of `size` (centre to corner), numbered offset (odd-r,
even-r, odd-q, even-q) or axial, neighbours' centres sqrt(3) x size apart; its cells come
from data (`cells:`), or are every hex of rows x columns."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..i18n import N_
from ..options import Option, Options
from ..model import Board
from ..primitives import Face, Item, Text
from . import base
from .base import INK, BoardFace, CellFace, Entry, cell_items, ground, hexagon, \
    needs_cells, positive, whole

NAME = "hex"
CELLS = True
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys (no cells: its rows x columns).
EXAMPLE = {"layout": "hex-flat"}
OPTIONS = base.MAP + base.style("#8c8c8c", "0.5pt", "5.5pt") + Options(
    Option("size", "length", N_("centre to corner: neighbours' centres are sqrt(3) x size "
                                "apart"), "15mm", schema={"x-expected": N_(
                                    "the distance from a hex's centre to a corner, such as "
                                    "15mm")}),
    Option("orientation", "choice", N_("pointy or flat tops"), "pointy",
           choices=("pointy", "flat")),
    Option("coordinates", "choice", N_("how the cells are numbered: which rows (pointy) or "
                                       "columns (flat) shift, or axial (cells give q and r)"),
           choices=("odd-r", "even-r", "odd-q", "even-q", "axial"),
           shown_default=N_("odd-r for pointy hexes, odd-q for flat ones"),
           schema={"x-expected": N_("how a hex map's cells are numbered: odd-r or even-r "
                                    "(pointy), odd-q or even-q (flat), or axial")}),
)


@dataclass(frozen=True)
class Spec:
    rows: int = 0  # the map's size where no cells are given
    columns: int = 0
    size: float = OPTIONS.value("size")  # centre to corner
    orientation: str = OPTIONS.value("orientation")  # pointy or flat tops
    numbering: str = "odd-r"  # odd-r, even-r, odd-q, even-q or axial


def resolve(layout, entry: Entry) -> Spec:
    orientation = layout.option(OPTIONS["orientation"])
    return Spec(int(layout.raw("rows", 0)), int(layout.raw("columns", 0)),
                layout.option(OPTIONS["size"]), orientation,
                layout.raw("coordinates", "odd-r" if orientation == "pointy" else "odd-q"))


def label(spec: Spec, a: int, b: int) -> str:
    """0304 (column, row) on an offset map, 3,-1 axially."""
    return f"{a},{b}" if spec.numbering == "axial" else f"{a:02d}{b:02d}"


def cell(item: dict, record: dict, spec: Spec, fill) -> dict:
    a, b = whole(item, ("q", "r") if spec.numbering == "axial" else ("column", "row"))
    return {"key": (a, b), "label": str(item.get("label", label(spec, a, b))),
            "color": fill(record)}


# A map of rows x columns: every cell of it where no cells are given.
every_cell, count = base.every_cell, base.count


def check(board: Board, game, report) -> None:
    needs_cells(board, report)
    positive(board, board.spec.size, "size", report)


def drawable(board: Board) -> bool:
    return bool(board.cells) and board.spec.size > 0


def cell_box(board: Board):
    s = board.spec.size
    return (math.sqrt(3) * s, 2 * s) if board.spec.orientation == "pointy" else \
        (2 * s, math.sqrt(3) * s)


def hex_centre(spec: Spec, a: int, b: int) -> tuple[float, float]:
    """A hex's centre, y down, from its coordinates (column and row, or q and r)."""
    s = spec.size
    if spec.orientation == "pointy":
        if spec.numbering == "axial":
            return math.sqrt(3) * s * (a + b / 2), 1.5 * s * b
        shifted = (b % 2 == 1) if spec.numbering != "even-r" else (b % 2 == 0)
        return math.sqrt(3) * s * (a + (0.5 if shifted else 0.0)), 1.5 * s * b
    if spec.numbering == "axial":
        return 1.5 * s * a, math.sqrt(3) * s * (b + a / 2)
    shifted = (a % 2 == 1) if spec.numbering != "even-q" else (a % 2 == 0)
    return 1.5 * s * a, math.sqrt(3) * s * (b + (0.5 if shifted else 0.0))


def hex_corners(spec: Spec, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """The six corners about a centre (y down), starting at the top (pointy) or the right."""
    return hexagon(x, y, spec.size, -90 if spec.orientation == "pointy" else 0)


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    spec = board.spec
    s = spec.size
    bw, bh = cell_box(board)
    raw = [(hex_centre(spec, *cell.key), cell.label, cell) for cell in board.cells]
    min_x = min(c[0][0] for c in raw) - bw / 2
    min_y = min(c[0][1] for c in raw) - bh / 2
    max_x = max(c[0][0] for c in raw) + bw / 2
    max_y = max(c[0][1] for c in raw) + bh / 2
    m = board.margin
    width, height = max_x - min_x + 2 * m, max_y - min_y + 2 * m
    items: list[Item] = [ground(board, width, height)]
    centres, labels = [], []
    for (cx, cy), label, cell in raw:
        x, y_down = cx - min_x + m, cy - min_y + m
        y = height - y_down  # y up
        outline = tuple((px, height - py) for px, py in hex_corners(spec, x, y_down))
        box = (x - bw / 2, y - bh / 2, bw, bh)
        items += cell_items(board, outline, box, cell, tiles, cell_face, True)
        centres.append((x, y))
        if board.labels:
            items.append(Text(x, y + s * 0.62, label, title_font, board.label_size, INK,
                              anchor="middle"))
            labels.append((label, x, y))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, s,
                     tuple(labels))
