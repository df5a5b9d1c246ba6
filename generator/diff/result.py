"""What a diff found (GameDiff: the cards added, removed and reprinted with their causes,
the rulebook's and boards' changes, the data changes), and how a value and a card are
named in its words; the diff (__init__.py) fills it, report.py and the changelog say it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Card, Game
from .boards import BoardChanges
from .printed import BookChanges
from ..i18n import _

SIDES = ("front", "back")
SIDE_WORDS = {"front": _("front"), "back": _("back")}  # as a diff's words say them
PAGE_WORDS = {"changed": _("content changed"), "added": _("new"),  # how a rulebook page changed
              "reflowed": _("reflowed (their text was there before)"),
              "redrawn": _("redrawn (the same text: a picture, or where the text stands, "
                           "changed)"),
              "moved": _("moved, unchanged"), "removed": _("removed")}
# --visual: a rulebook or board page that prints differently: (title, lines, before PNG or
# None, after PNG or None, where); where: ("rulebook", page) or ("board", id, page)
PageRaster = tuple[str, list[str], bytes | None, bytes | None, tuple]


@dataclass
class Reprint:
    old: Card
    new: Card
    sides: tuple[str, ...]  # the faces whose print changed: "front", "back"
    causes: list[str]  # in words, each cause that could be named
    # the changed values its faces read, as (where, before, after): ("field", "text", ...)
    # or ("data", "rules.three", ...), for the players' changelog
    printed: list[tuple[str, str, Any, Any]] = field(default_factory=list)


@dataclass
class GameDiff:
    added: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    reprinted: list[Reprint] = field(default_factory=list)
    copies: list[tuple[Card, Card]] = field(default_factory=list)  # copies changed, print did not
    unprinted: list[str] = field(default_factory=list)  # changes that print nothing
    data: list[tuple[str, Any, Any]] = field(default_factory=list)  # every data change
    pairs: dict[str, tuple] = field(default_factory=dict)  # card id -> old and new faces
    rasters: dict[tuple, tuple] = field(default_factory=dict)  # (id, side) -> PNGs, --visual
    font: str = ""  # the new version's main font (registered name), for the visual diff
    statistics: list[str] = field(default_factory=list)  # what changed in `cardgen stats`
    rulebook: BookChanges | None = None  # how the rulebook changed (printed.py)
    boards: list[BoardChanges] = field(default_factory=list)  # boards that print differently
    rulebook_pdfs: tuple = ()  # (old, new) rulebook PDFs, for --visual and errata
    game: Game | None = None  # the new version, for the changelog's title and language
    board_faces: tuple = ({}, {})  # board id -> BoardFace, old and new (for --visual)
    # --visual: (title, lines, before PNG or None, after PNG or None, where) of each rulebook
    # page and board page that prints differently; where: ("rulebook", page) or ("board",
    # id, page), the page in the new version
    page_rasters: list[PageRaster] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.reprinted or self.copies
                    or self.unprinted or self.rulebook or self.boards)

    @property
    def prints(self) -> bool:
        """Whether anything printed changed: cards, the rulebook's pages or a board's."""
        return bool(self.added or self.reprinted or self.copies or self.removed or
                    (self.rulebook and self.rulebook.pages) or self.boards)


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING = _Missing()


def _show(value: Any) -> str:
    if value is _MISSING:
        return _("(none)")
    text = repr(value) if not isinstance(value, str) else value.replace("\n", "⏎")
    return text if len(text) <= 60 else text[:57] + "..."


def _name(card: Card) -> str:
    name = card.fields.get("name")
    return f"{name} ({card.id})" if isinstance(name, str) and name and name != card.id else card.id
