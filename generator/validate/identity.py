"""Identity: card ids are unique in the game, across all its decks (a card's id names its
files, its pictures and its row in every diff)."""

from __future__ import annotations

from ..i18n import N_, _
from ..model import Card, Game
from ..problems import Report

NAME = "identity"
NAMES = ("identity",)
ORDER = 20
DOC = N_("card ids are unique in the game")


def run(game: Game, report: Report) -> None:
    """Card ids are unique within a game, across all its decks."""
    seen: dict[str, Card] = {}
    for card in game.cards():
        first = seen.get(card.id)
        if first is not None:
            report.error(
                _("card '{card_id}': duplicate card id (first defined at {first_loc})",
                  card_id=card.id, first_loc=first.loc),
                card.locate("id"), "identity", card=card.id, deck=card.deck, field="id")
        else:
            seen[card.id] = card
