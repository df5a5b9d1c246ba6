"""Boards: a deck's card faces (tiles), or cells drawn from data, placed by a board layout
of layouts/boards/ and drawn to scale, each by its shape's module (generator/boards:
ring, grid, hex, track, areas).

A cell shows its type's colour, the face its cell layout draws (clipped to its shape), the
tile placed on it, and its coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping
from .. import boards as shapes
from ..boards.base import BoardFace, CellFace
from ..model import Board
from ..primitives import Face


def layout_board(board: Board, tiles: Mapping[str, Face], title_font: str,
                 cell_face: CellFace = lambda cell: None) -> BoardFace | None:
    """The board's face, or None for a board validate reports as unusable (no cells, a size
    of nothing): it is not drawn, so that its problems are said once, by validate."""
    if not shapes.drawable(board):
        return None
    return shapes.shape(board).lay_out(board, tiles, title_font, cell_face)
