"""Boards: a deck's card faces (tiles), or cells drawn from data, placed by a board layout
of layouts/boards/ and drawn to scale, each by its shape's module (generator/boards:
ring, grid, hex, track, areas, map).

A cell shows its type's colour, the face its cell layout draws (clipped to its shape), the
tile placed on it, and its coordinates. Over the ground and under all that: the board
layout's background picture and the face of the board's art layout (with_art).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .. import boards as shapes
from .. import images
from ..boards.base import BoardFace, CellFace
from ..model import Board
from ..primitives import Face, Item


def layout_board(board: Board, tiles: Mapping[str, Face], title_font: str,
                 cell_face: CellFace = lambda cell: None) -> BoardFace | None:
    """The board's face, or None for a board validate reports as unusable (no cells, a size
    of nothing): it is not drawn, so that its problems are said once, by validate."""
    if not shapes.drawable(board):
        return None
    return shapes.shape(board).lay_out(board, tiles, title_font, cell_face)


def with_art(board_face: BoardFace, art: Face | None) -> BoardFace:
    """The board with its background picture and its art (the face of its `art:` layout,
    laid out at the board's size) over its ground and under everything its shape draws."""
    board, face = board_face.board, board_face.face
    if not board.background and art is None:
        return board_face
    under: list[Item] = []
    if board.background:  # (read and checked by resolve: its problems are said there)
        under += images.placed(board.background, 0.0, 0.0, face.width, face.height,
                               board.background_fit)
    if art is not None:
        under += art.items
    items = face.items[:1] + tuple(under) + face.items[1:]  # (the first is the ground)
    return replace(board_face, face=replace(face, items=items))
