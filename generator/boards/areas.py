"""areas: named spaces placed freely from a data table (`cells:`: an id, x and y from the
board's top-left, w and h or size, shape rect, circle or hex, a label and a colour)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Board
from ..primitives import Ellipse, Face, Group, Item, Polygon, Rect, Text
from ..units import mm, show_size
from .base import INK, OUTLINE, BoardFace, CellFace, CellProblem, Entry, cell_length, ground, \
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
OPTIONS = Options(
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
    w, h = (cell_length(item, "w"), cell_length(item, "h")) if "w" in item or "h" in item else \
        (cell_length(item, "size", "20mm"),) * 2
    return {"key": (name,), "label": str(item.get("label", name)),
            "x": cell_length(item, "x"), "y": cell_length(item, "y"), "w": w, "h": h,
            "shape": str(item.get("shape", "rect")), "color": fill(item)}


def check(board: Board, game, report) -> None:
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
