"""Stage 3, validate: check the resolved game against cardgen's rules and the game's own.

Every check of the resolved game's meaning lives here (resolve only builds the model,
and reports only what stops it being built). Checks, in order: sheets and card sizes,
identity (unique card ids), deck counts, card fields against
the deck's declared schema (`fields`), references, drafts (TBD values), the
board cells and tracks, game's invariants (its checks file) and its Python checks. Every check adds
located problems to one report; none stops at the first problem.
"""

from __future__ import annotations

from ..model import MAX_CARDS, TBD, Game
from ..problems import Report
from .boards import check_boards
from .fields import check_fields
from .invariants import check_invariants
from .python_checks import check_python
from .sheets import check_sheets
from ..i18n import _


def check_identity(game: Game, report: Report) -> None:
    """Card ids are unique within a game, across all its decks."""
    seen: dict[str, object] = {}
    for card in game.cards():
        first = seen.get(card.id)
        if first is not None:
            report.error(
                _("card '{card_id}': duplicate card id (first defined at {first_loc})",
                  card_id=card.id, first_loc=first.loc),
                card.locate("id"), "identity", card=card.id, deck=card.deck, field="id")
        else:
            seen[card.id] = card


def check_drafts(game: Game, report: Report) -> None:
    """A TBD value is a draft: reported as a warning, printed with a DRAFT mark."""
    for key in ("title", "title_en", "version"):
        if getattr(game, key) == TBD:
            report.warning(_("the game's {key} is {TBD} (draft)", key=key, TBD=TBD),
                           game.decks[0].source.locate((key,)) if game.decks else game.loc, "draft")
    for card in game.cards():
        for name in card.drafts():
            report.warning(_("card '{card_id}': {name} is {TBD} (draft)",
                             card_id=card.id, name=name, TBD=TBD), card.locate(name), "draft",
                           card=card.id, deck=card.deck, field=name)
    for table, value in game.data.items():
        for path in _tbd_paths(value, ()):
            where = ".".join(str(p) for p in (table,) + path)
            report.warning(_("data {where} is {TBD} (draft)",
                             where=where, TBD=TBD), game.data_sources[table].locate(path),
                           "draft")


def _tbd_paths(value, path: tuple):
    if value == TBD:
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _tbd_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _tbd_paths(v, path + (i,))


def check_counts(game: Game, report: Report) -> None:
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


CHECKS = (check_sheets, check_identity, check_counts, check_fields, check_boards, check_drafts,
          check_invariants, check_python)


def validate(game: Game, report: Report) -> None:
    for check in CHECKS:
        check(game, report)
