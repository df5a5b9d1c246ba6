"""The board shapes a board layout can name: one module per shape, found here by itself.

A shape's module declares everything about it:
- `NAME`, and `OPTIONS`: its own keys in a board layout, each declared once (options.py),
  which the board layout schema adds to the keys every board layout has (`BOARD` here, and
  schemas/board.json), and the docs' tables list (a `SCHEMA` of words beyond them, if any);
- `Spec`: a frozen dataclass of its own values, their defaults its OPTIONS' (Board.spec);
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

from ..i18n import N_
from ..model import Board
from ..options import Option, Options, schema_of
from ..registry import discover

SHAPES: dict[str, ModuleType] = discover(__path__, __name__, {"base", "spaces"})

# The keys every board layout has besides `shape` (schemas/board.json), declared once; the
# model's Board holds their defaults (tests/test_options.py checks that they agree).
BOARD = Options(
    Option("description", "text", N_("what the layout is for, for people"), ""),
    Option("margin", "length", N_("around the shape, on the board"), "10mm", low="0mm"),
    Option("papers", "papers", N_("the first paper that holds the whole board is used; if none "
                                  "does, it is split over pages of the last one"),
           ["A3", "A4"]),
    Option("overlap", "length", N_("how far the pages of a split board overlap (at most half "
                                   "the printable part of a page)"), "10mm", low="0mm"),
    Option("print_margin", "length", N_("kept free at the paper's edge (leaving at least 40 mm "
                                        "of it to print on)"), "6mm", low="0mm"),
    Option("color", "color", N_("the board's ground"), "#f4efe4"),
    Option("font", "name", N_("the font family of the board's labels (bold)"),
           shown_default=N_("the game's main family")),
    Option("background", "file", N_("a picture (PNG, JPEG or SVG, in the game's folder) over "
                                    "the ground, under everything else"),
           shown_default=N_("none")),
    Option("background_fit", "choice", N_("cover: the board filled, the picture clipped; "
                                          "contain: the whole picture; stretch: both"),
           "cover", choices=("cover", "contain", "stretch")),
)


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
              "then": schema_of(module)} for name, module in SHAPES.items()]
    return {"shape": {"enum": list(SHAPES)}, "allOf": rules}


def lists() -> dict[str, tuple[int, str]]:
    """The lists a board's entry takes, of every shape (base.LISTS and each shape's own
    LISTS): its key -> (the most items, what they are)."""
    from .base import LISTS

    found: dict[str, tuple[int, str]] = dict(LISTS)
    for module in SHAPES.values():
        for key, (most, what) in getattr(module, "LISTS", {}).items():
            found[key] = min(found.get(key, (most, what)), (most, what), key=lambda x: x[0])
    return found


def cell_box(board: Board):
    return shape(board).cell_box(board)


def drawable(board: Board) -> bool:
    """False for a board validate reports as unusable (no cells, a size of nothing): it is
    not drawn, so that its problems are said once, by validate."""
    return shape(board).drawable(board)
