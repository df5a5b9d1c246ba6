"""Drafts: a value that is TBD is a draft, reported as a warning (and printed with a DRAFT
mark): the game's title and version, a card's fields, a data table's values."""

from __future__ import annotations

from ..i18n import N_, _
from ..model import TBD, Game
from ..problems import Report
from ..values import walk

NAME = "drafts"
NAMES = ("draft",)
ORDER = 60
DOC = N_("values that are TBD: the game's, the cards' and the data tables'")


def run(game: Game, report: Report) -> None:
    """A TBD value is a draft: reported as a warning, printed with a DRAFT mark."""
    for key in ("title", "title_en", "version"):
        if getattr(game, key) == TBD:
            report.warning(_("the game's {key} is {TBD} (draft)", key=key, TBD=TBD),
                           game.decks[0].source.locate((key,)) if game.decks else game.loc, "draft")
    said = set()  # where a card's TBD was said: a card made from a table's entry is there
    for card in game.cards():
        for name in card.drafts():
            said.add(card.locate(name))
            report.warning(_("card '{card_id}': {name} is {TBD} (draft)",
                             card_id=card.id, name=name, TBD=TBD), card.locate(name), "draft",
                           card=card.id, deck=card.deck, field=name)
    for table, value in game.data.items():
        for path in (at for at, v in walk(value) if v == TBD):
            if game.data_sources[table].locate(path) in said:  # (said once, of the card)
                continue
            where = ".".join(str(p) for p in (table,) + path)
            report.warning(_("data {where} is {TBD} (draft)",
                             where=where, TBD=TBD), game.data_sources[table].locate(path),
                           "draft")
