"""Stage 3, validate: check the resolved game against cardgen's rules and the game's own.

Every check adds located problems to the report; none stops at the first one.
"""

from __future__ import annotations

from .model import TBD, Game
from .problems import Report


def check_identity(game: Game, report: Report) -> None:
    """Card ids are unique within a game, across all its decks."""
    seen: dict[str, object] = {}
    for card in game.cards():
        first = seen.get(card.id)
        if first is not None:
            report.error(
                f"card '{card.id}': duplicate card id (first defined at {first.loc})",
                card.locate("id"), "identity")
        else:
            seen[card.id] = card


def check_drafts(game: Game, report: Report) -> None:
    """A TBD value is a draft: reported as a warning, printed with a DRAFT mark."""
    for card in game.cards():
        for name in card.drafts():
            report.warning(f"card '{card.id}': {name} is {TBD} (draft)", card.locate(name), "draft")


def check_counts(game: Game, report: Report) -> None:
    for deck in game.decks:
        if deck.total == 0:
            report.error(f"deck '{deck.id}' has no cards to print", deck.loc, "deck")


CHECKS = (check_identity, check_counts, check_drafts)


def validate(game: Game, report: Report) -> None:
    for check in CHECKS:
        check(game, report)
