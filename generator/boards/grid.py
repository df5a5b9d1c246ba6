"""grid: columns x rows of cells (A1 is the top-left), `gap` apart; its cells come from
data (`cells:`), or are every square of rows x columns."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Board
from ..primitives import Face, Item, Text
from ..units import mm
from . import base
from .base import INK, BoardFace, CellFace, Entry, cell_items, ground, needs_cells, \
    positive, whole
from ..i18n import N_, _
from ..options import Option, Options

NAME = "grid"
CELLS = True
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys ("cells": entries for the game's data).
EXAMPLE = {"layout": "grid", "cells": [{"column": 1, "row": 1}, {"column": 2, "row": 1},
                                       {"column": 1, "row": 2, "label": "森"}]}
OPTIONS = base.MAP + base.style("#8c8c8c", "0.5pt", "5.5pt") + Options(
    Option("cell", "size", N_("a square's size"), ["25mm", "25mm"], schema={
        "x-expected": N_("a grid cell's [width, height], such as [25mm, 25mm]")}),
    Option("gap", "length", N_("between squares"), "0mm"),
)


@dataclass(frozen=True)
class Spec:
    rows: int = 0  # the map's size where no cells are given
    columns: int = 0
    cell: tuple[float, float] = OPTIONS.value("cell")
    gap: float = OPTIONS.value("gap")


def resolve(layout, entry: Entry) -> Spec:
    return Spec(int(layout.raw("rows", 0)), int(layout.raw("columns", 0)),
                layout.option(OPTIONS["cell"]), layout.option(OPTIONS["gap"]))


def label(spec: Spec, a: int, b: int) -> str:
    """A1: columns as letters, as chess and spreadsheets write them."""
    letters, n = "", a
    while n > 0:
        n, rest = divmod(n - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{b}"


def cell(item: dict, record: dict, spec: Spec, fill) -> dict:
    a, b = whole(item, ("column", "row"))
    return {"key": (a, b), "label": str(item.get("label", label(spec, a, b))),
            "color": fill(record)}


# A map of rows x columns: every cell of it where no cells are given.
every_cell, count = base.every_cell, base.count


def check(board: Board, game, report) -> None:
    needs_cells(board, report)
    positive(board, min(board.spec.cell), "cell", report)
    spec = board.spec
    for cell in board.cells:  # A1 is the top-left; a layout's rows and columns bound the map
        for axis, n, most, what in (("column", cell.key[0], spec.columns, "columns"),
                                    ("row", cell.key[1], spec.rows, "rows")):
            if n < 1:
                report.error(_("board '{board_id}': cell {axis} {n}: a grid counts its {what} "
                               "from 1 (A1 is the top-left)",
                                   board_id=board.id, axis=axis, n=n,
                                   what=what), cell.locate(axis), "board")
            elif most and n > most:
                report.error(_("board '{board_id}': cell {axis} {n} is outside the grid: its "
                               "layout '{board_layout}' has {most} {what}",
                                   board_id=board.id, axis=axis, n=n, board_layout=board.layout,
                                   most=most, what=what), cell.locate(axis),
                             "board")


def drawable(board: Board) -> bool:
    return bool(board.cells) and min(board.spec.cell) > 0


def cell_box(board: Board):
    return board.spec.cell


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    cw, ch = board.spec.cell
    spec = board.spec
    inside = [c for c in board.cells  # one outside the grid is reported by check: not drawn
              if 1 <= c.key[0] <= (spec.columns or c.key[0]) and
              1 <= c.key[1] <= (spec.rows or c.key[1])]
    cols = max((c.key[0] for c in inside), default=1)
    rows = max((c.key[1] for c in inside), default=1)
    m, gap = board.margin, board.spec.gap
    width = 2 * m + cols * cw + (cols - 1) * gap
    height = 2 * m + rows * ch + (rows - 1) * gap
    items: list[Item] = [ground(board, width, height)]
    centres, labels = [], []
    for cell in inside:
        (col, row), label = cell.key, cell.label
        x = m + (col - 1) * (cw + gap)
        top = m + (row - 1) * (ch + gap)
        y = height - top - ch
        corners = ((x, y), (x + cw, y), (x + cw, y + ch), (x, y + ch))
        items += cell_items(board, corners, (x, y, cw, ch), cell, tiles, cell_face, False)
        centres.append((x + cw / 2, y + ch / 2))
        if board.labels:
            size = board.label_size
            items.append(Text(x + mm(1), y + ch - mm(1) - size * 0.8, label, title_font, size,
                              INK))
            labels.append((label, x + cw / 2, y + ch / 2))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0,
                     math.hypot(cw, ch) / 2, tuple(labels))


