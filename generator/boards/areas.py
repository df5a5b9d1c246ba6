"""areas: named spaces placed freely from a data table (`cells:`: an id, x and y from the
board's top-left, w and h or size, shape rect, circle or hex, a label and a colour; a
cell's type gives the shape, size and colour the cell does not). An area prints its label,
in the board's font and label size, or nothing (not its id)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Board
from ..primitives import Ellipse, Face, Group, Item, Polygon, Rect, Text
from .. import fonts
from ..units import mm, show_size
from . import base
from .base import INK, BoardFace, CellFace, CellProblem, Entry, cell_length, ground, \
    hexagon
from ..i18n import N_, _
from ..options import Option, Options

NAME = "areas"
CELLS = True
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys ("cells": entries for the game's data).
EXAMPLE = {"layout": "areas", "cells": [
    {"id": "north", "label": "北の森 North", "x": "20mm", "y": "15mm", "w": "80mm", "h": "50mm",
     "shape": "rect", "color": "#a9cf94"},
    {"id": "lake", "label": "Lake", "x": "150mm", "y": "60mm", "size": "40mm", "shape": "circle"}]}
OPTIONS = base.style("#8c8c8c", "0.6pt", "8pt") + Options(
    Option("size", "size", N_("the board's size"), ["0mm", "0mm"],
           shown_default=N_("what holds every area"), schema={
               "x-expected": N_("the board's [width, height], such as [280mm, 190mm]")}),
)


@dataclass(frozen=True)
class Spec:
    size: tuple[float, float] = OPTIONS.value("size")  # the board's own (0: from its areas)


def resolve(layout, entry: Entry) -> Spec:
    return Spec(layout.option(OPTIONS["size"]))


def cell(item: dict, record: dict, spec: Spec, fill) -> dict:
    name = item.get("id", item.get("name"))
    if not isinstance(name, str):
        raise CellProblem(_("needs an id (the area's name)"), ())
    w, h = (cell_length(record, "w"), cell_length(record, "h")) \
        if "w" in record or "h" in record else (cell_length(record, "size", "20mm"),) * 2
    label = record.get("label")
    return {"key": (name,), "label": "" if label is None else str(label),
            "x": cell_length(item, "x"), "y": cell_length(item, "y"), "w": w, "h": h,
            "shape": str(record.get("shape", "rect")), "color": fill(record)}


def check(board: Board, game, report) -> None:
    font = base.board_font(board, game)
    for cell in board.cells:  # a label is set on one line, inside its area
        if cell.label and fonts.string_width(cell.label, font, board.label_size) > cell.w:
            report.error(_("board '{board_id}': the label '{label}' of area '{name}' is "
                           "{wide:.1f} mm wide at {size:g} pt, wider than the area ({most:.1f} "
                           "mm); shorten it, or set a smaller label_size in the board layout",
                           board_id=board.id, label=cell.label, name=cell.key[0],
                           wide=fonts.string_width(cell.label, font, board.label_size) / mm(1),
                           size=board.label_size, most=cell.w / mm(1)),
                         cell.locate("label"), "board")
    if not board.cells:
        report.error(_("board '{board_id}': areas are placed from data: give cells:",
                       board_id=board.id), board.loc,
                     "board")
    for cell in board.cells:
        if not (cell.w > 0 and cell.h > 0):
            report.error(_("board '{board_id}': area '{cell_label}' has no size ({value})",
                           board_id=board.id, cell_label=cell.label,
                           value=show_size((cell.w, cell.h))), cell.loc, "board")


def drawable(board: Board) -> bool:
    return bool(board.cells) and all(c.w > 0 and c.h > 0 for c in board.cells)


def cell_box(board: Board):
    return None


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    m = board.margin
    width = board.spec.size[0] or max(c.x + c.w for c in board.cells) + 2 * m
    height = board.spec.size[1] or max(c.y + c.h for c in board.cells) + 2 * m
    items: list[Item] = [ground(board, width, height)]
    centres, labels = [], []
    for cell in board.cells:
        x, y = cell.x, height - cell.y - cell.h
        cx, cy = x + cell.w / 2, y + cell.h / 2
        fill = cell.color
        sc, sw = board.outline, board.outline_width
        drawn = sc is not None and sw > 0  # (outline: none draws no line)
        if cell.shape == "circle":
            items += [Ellipse(x, y, cell.w, cell.h, fill=fill)] + \
                ([Ellipse(x, y, cell.w, cell.h, stroke=sc, stroke_width=sw)] if drawn else [])
        elif cell.shape == "hex":
            pts = hexagon(cx, cy, min(cell.w / math.sqrt(3), cell.h / 2), 90)
            items += [Polygon(pts, fill=fill)] + \
                ([Polygon(pts, stroke=sc, stroke_width=sw)] if drawn else [])
        else:
            items += [Rect(x, y, cell.w, cell.h, fill=fill, radius=mm(1.5))] + \
                ([Rect(x, y, cell.w, cell.h, stroke=sc, stroke_width=sw, radius=mm(1.5))]
                 if drawn else [])
        if cell.tile and cell.tile in tiles:
            tile = tiles[cell.tile]
            items.append(Group(tile.items, dx=cx - tile.width / 2, dy=cy - tile.height / 2,
                               clip=(0, 0, tile.width, tile.height)))
        if cell.label:
            size = board.label_size
            items.append(Text(cx, cy - size * 0.375, cell.label, title_font, size, INK,
                              anchor="middle"))
            labels.append((cell.label, cx, cy))
        centres.append((cx, cy))
    reach = max((math.hypot(c.w, c.h) / 2 for c in board.cells), default=0.0)
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, reach,
                     tuple(labels))
