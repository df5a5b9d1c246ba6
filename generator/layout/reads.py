"""What a face reads, for `cardgen diff`'s causes: a card's face (or a board cell's) laid out
again while the sandbox records every value its templates take (sandbox.Reads), and the
elements that drew on it."""

from __future__ import annotations

from .. import sandbox
from ..model import Card, Game, LayoutSpec
from ..problems import Report
from . import _cell_card, _deck_scope, _scope, layout_face


def face_reads(game: Game, card: Card, layout: LayoutSpec, game_scope: dict,
               data: sandbox.Reads) -> tuple[sandbox.Reads, set[str]]:
    """What the card's face by `layout` reads, laid out again while the sandbox records:
    its fields, its deck's and the game's values, the data and macros (`game_scope` is
    the game's, its containers mapped in `data`); and the names of the elements that drew
    on it. For `cardgen diff`'s causes: a reprint is said to be caused only by what its
    face read and the elements it drew."""
    deck = next(d for d in game.decks if d.id == card.deck)
    shared = {**game_scope, "deck": _deck_scope(deck)}
    scope = _scope(shared, card)
    reads = sandbox.Reads({"card": scope["card"], "deck": shared["deck"]}, base=data)
    placed: list = []
    with sandbox.recording(reads):
        layout_face(layout, card, game, scope, Report(), placed=placed)
    return reads, {element.name for element, _box, _items in placed}


def cell_reads(board, cell, game: Game, game_scope: dict,
               data: sandbox.Reads) -> sandbox.Reads | None:
    """What a board cell's face reads (as face_reads for a card): its values are `card`."""
    if board.cell_layout is None:
        return None
    card = _cell_card(board, cell)
    scope = _scope({**game_scope, "board": {"id": board.id, "title": board.title}}, card)
    reads = sandbox.Reads({"card": scope["card"]}, base=data)
    with sandbox.recording(reads):
        layout_face(board.cell_layout, card, game, scope, Report(), mark_drafts=False)
    return reads
