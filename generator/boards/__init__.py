"""The board shapes a board layout can name: one module per shape, found here by itself.

A shape's module declares everything about it:
- `NAME`, and `SCHEMA`: its own keys in a board layout (`properties`), which the board
  layout schema adds to the keys every board layout has (schemas/board.json);
- `Spec`: a frozen dataclass of its own values, their defaults the model's (Board.spec);
- `resolve(layout, entry)`: its Spec from the board layout (a values.Reader) and the
  board's entry in game.yaml (base.Entry), or None after reporting why not;
- `CELLS`: whether it places cells from data (`cells:`); if so `cell(item, record, spec,
  fill)`, the Cell values of one entry, and, for a map of rows x columns, `every_cell`
  and `count`;
- `EXAMPLE`: a board of the shape as a game gives it (a shipped layout of layouts/boards
  and the entry's keys), with which the combination matrix tries it with everything else;
- `check(board, game, report)`: what validate says about it beyond what every board has;
- `drawable(board)`, `cell_box(board)` (the size of a cell layout; None: no cell layouts),
  and `lay_out(board, tiles, title_font, cell_face)`: its BoardFace.

Adding a shape is adding a module here and its section in docs/layouts.md.
"""

from __future__ import annotations

from types import ModuleType

from ..model import Board
from ..registry import discover

SHAPES: dict[str, ModuleType] = discover(__path__, __name__, {"base"})


def register(module: ModuleType) -> None:
    """Add a shape from elsewhere (a test's own): it joins every shape's list, schema and
    combination at once (the schemas are made again for a new set of shapes)."""
    SHAPES[module.NAME] = module


def unregister(name: str) -> None:
    SHAPES.pop(name, None)


def shape(board: Board) -> ModuleType:
    return SHAPES[board.shape]


def schema_parts() -> dict:
    """The board layout schema's part that depends on the shapes: the `shape` enum, and each
    shape's own keys, applied where `shape` names it."""
    rules = [{"if": {"properties": {"shape": {"const": name}}, "required": ["shape"]},
              "then": module.SCHEMA} for name, module in SHAPES.items()]
    return {"shape": {"enum": list(SHAPES)}, "allOf": rules}


def cell_box(board: Board):
    return shape(board).cell_box(board)


def drawable(board: Board) -> bool:
    """False for a board validate reports as unusable (no cells, a size of nothing): it is
    not drawn, so that its problems are said once, by validate."""
    return shape(board).drawable(board)
