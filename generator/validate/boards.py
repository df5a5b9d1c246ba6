"""What a board's cells and spaces mean: each cell once, naming tiles and types that exist,
drawn by a cell layout of the cell's size; a score track as long as the game's score."""

from __future__ import annotations

from .. import boards as shapes
from ..boards.base import MAX_CELLS
from ..load.schema import suggest
from ..model import Board, Cell, Game
from ..problems import Report
from ..units import SIZE_TOLERANCE, show_size
from ..i18n import N_, _

NAME = "boards"
NAMES = ("board", "reference", "identity")
ORDER = 50
DOC = N_("a board's id is its own; its cells are each given once, at most 10,000, naming "
         "tiles and types that exist, drawn by a cell layout of the cell's size; what its "
         "shape asks of it")

# Where a name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
THE_DECK = _("the deck")
THE_TYPES = _("the types table")



def check_board(game: Game, board: Board, report: Report) -> None:
    deck = next((d for d in game.decks if d.id == board.deck), None)
    cards = {c.id for c in deck.cards} if deck else set()
    shape = shapes.shape(board)
    if board.font is not None and board.font not in game.fonts:
        report.error(_("board '{board_id}': font: '{font}' is not a font family of the game "
                       "({suggest})", board_id=board.id, font=board.font,
                       suggest=suggest(board.font, sorted(game.fonts), "fonts.yaml")),
                     board.font_loc or board.loc, "reference")
        return
    shape.check(board, game, report)  # what its shape asks of it (generator/boards)
    count = len(board.cells) or (shape.count(board.spec) if hasattr(shape, "count") else 0)
    if count > MAX_CELLS:  # (a map too large has no cells)
        report.error(_("board '{board_id}' has {count:,} cells; a board has at most {MAX_CELLS:,}",
                       board_id=board.id, count=count, MAX_CELLS=MAX_CELLS), board.loc, "board")
        return
    seen: dict[tuple, Cell] = {}
    for cell in board.cells:
        first = seen.get(cell.key)
        if first is not None:
            report.error(_("board '{board_id}': cell {cell_label} is given twice (first at "
                           "{first_loc})",
                               board_id=board.id, cell_label=cell.label,
                               first_loc=first.loc), cell.loc, "board")
        else:
            seen[cell.key] = cell
        if cell.tile is not None:
            if deck is None:
                report.error(_("board '{board_id}': cell {cell_label} places tile '{cell_tile}', "
                               "but the board names no deck: (deck: in game.yaml)",
                                   board_id=board.id, cell_label=cell.label, cell_tile=cell.tile),
                             cell.locate("tile"), "reference")
            elif cell.tile not in cards:
                report.error(_("board '{board_id}': cell {cell_label} places tile '{cell_tile}', "
                               "which is not a card of deck '{deck_id}' ({suggest})",
                               board_id=board.id, cell_label=cell.label, cell_tile=cell.tile,
                               deck_id=deck.id,
                               suggest=suggest(cell.tile, sorted(cards), THE_DECK)),
                             cell.locate("tile"), "reference")
        kind = cell.record.get("type")
        if board.types is not None and kind is not None and kind not in board.types:
            report.error(_("board '{board_id}': cell {cell_label} is of type '{kind}', which the "
                           "types table does not have ({suggest})",
                               board_id=board.id, cell_label=cell.label, kind=kind,
                               suggest=suggest(str(kind), list(board.types),
                                               THE_TYPES)),
                         cell.locate("type"), "reference")
    if board.cell_layout is not None:
        box = shape.cell_box(board)
        if box is None:
            report.error(_("board '{board_id}': a cell layout draws grid squares and hexes, not "
                           "{board_shape}",
                               board_id=board.id, board_shape=board.shape), board.loc, "board")
        else:
            size = board.cell_layout.size
            if abs(size[0] - box[0]) > SIZE_TOLERANCE or abs(size[1] - box[1]) > SIZE_TOLERANCE:
                report.error(_("board '{board_id}': the cell layout '{cell_layout_id}' is {size}, "
                               "but a cell is {box}; make the layout's size the cell's",
                               board_id=board.id, cell_layout_id=board.cell_layout.id,
                               size=show_size(size), box=show_size(box)), board.cell_layout.loc,
                             "board")


def run(game: Game, report: Report) -> None:
    seen: dict[str, Board] = {}
    for board in game.boards:
        first = seen.setdefault(board.id, board)
        if first is not board:  # both would be <game>-board-<id>.pdf
            report.error(_("board '{board_id}' is declared twice (first at {first_loc}); a "
                           "board's id names its file: give each board its own",
                               board_id=board.id, first_loc=first.loc), board.loc,
                         "identity")
            continue
        check_board(game, board, report)
