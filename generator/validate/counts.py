"""Counts: a deck holds no more cards than its slots, a deck still to design is a draft, and
a game has at most MAX_CARDS cards to print."""

from __future__ import annotations

from ..i18n import N_, _
from ..model import MAX_CARDS, Game
from ..problems import Report

NAME = "counts"
NAMES = ("deck", "draft")
ORDER = 30
DOC = N_("a deck has no more cards than its slots (fewer is a draft), and a game at most "
         "100,000 cards")


def run(game: Game, report: Report) -> None:
    """A deck with no cards yet is a draft: reported, and left out of the print. A game has
    at most MAX_CARDS cards to print."""
    total = sum(d.slots or d.total for d in game.decks)
    if total > MAX_CARDS:
        report.error(_("the game has {total:,} cards to print; a game holds at most {MAX_CARDS:,} "
                       "(split it into several games)",
                           total=total, MAX_CARDS=MAX_CARDS), game.loc, "deck")
    for deck in game.decks:
        if deck.slots is not None:
            if deck.total > deck.slots:
                report.error(_("deck '{deck_id}' has {deck_total} cards, more than its "
                               "{deck_slots} slots", deck_id=deck.id, deck_total=deck.total,
                               deck_slots=deck.slots), deck.source.locate(deck.path + ("slots",)),
                             "deck", deck=deck.id, field="slots")
            elif deck.total < deck.slots:
                report.warning(_("deck '{deck_id}': {deck_total} of its {deck_slots} slots are "
                                 "defined; {n} are still to be designed (draft)",
                                     deck_id=deck.id, deck_total=deck.total, deck_slots=deck.slots,
                                     n=deck.slots - deck.total),
                               deck.source.locate(deck.path + ("slots",)), "draft", deck=deck.id,
                               field="slots")
        elif deck.total == 0 and ("deck", deck.id) not in report.tainted:
            report.warning(_("deck '{deck_id}' has no cards yet (draft)",
                             deck_id=deck.id), deck.loc, "draft", deck=deck.id)
