"""The problems of a deck's faces said once where many cards share them: one that every card
has in the same words at the same place (a template that fails on each), and a box that most
of the deck's texts do not fit (the layout's mistake, not each card's)."""

from __future__ import annotations

import re

from ..i18n import Listed, Message, N_, _
from ..model import Deck
from ..problems import Report


CARD_PROBLEM = str.__str__(N_("card '{card_id}': {message}"))  # an element's, on one card


def said_once(deck: Deck, laid: Report, report: Report) -> None:
    """The problems of a deck's faces (`laid`) into `report`: one that every card of the
    deck has, at the same place in the same words (a template that fails on each: `{{
    card.nmae }}`), is said once, naming how many cards; so is a box that most of the
    deck's texts do not fit (_box_said_once); the rest as they are."""
    every = {c.id for c in deck.cards if c.id not in report.tainted}
    shared: dict[tuple, set[str]] = {}
    first: dict[tuple, str] = {}  # the words of the first card that has it
    for p in laid.problems:
        if isinstance(p.message, Message) and p.message.template == CARD_PROBLEM and p.card:
            assert p.message.values is not None
            key = _key(p)
            shared.setdefault(key, set()).add(p.card)
            first.setdefault(key, p.message.values["message"])
    once = {key for key, cards in shared.items() if len(every) > 1 and cards == every}
    boxes = _box_said_once(deck, laid, len(every), report)
    for p in laid.problems:
        if p.source in boxes:
            continue  # (said at the element, once)
        if isinstance(p.message, Message) and p.message.template == CARD_PROBLEM and p.card:
            key = _key(p)
            if key in once:
                once.discard(key)
                report.add(p.level, _("all {n} cards of deck '{deck}': {message}",
                                      deck=deck.id, n=len(every), message=first[key]),
                           p.location, p.check, deck=deck.id,
                           cards=tuple(c.id for c in deck.cards if c.id in every))
                continue
            if key in shared and len(every) > 1 and shared[key] == every:
                continue  # (said above, once)
        report.add(p.level, p.message, p.location, p.check, card=p.card, deck=p.deck,
                   field=p.field, target=p.target)
    report.tainted |= laid.tainted
    report.skipped += laid.skipped


# Which copy of a repeated element had the problem (elements/repeat.which): a template that
# fails on every card fails on some copy of each, told apart only by these words.
_COPY = re.compile(r" \(copy \d+ of \d+, .*\)$")


def _key(p) -> tuple:
    """What a card's problem is, card aside: where, how, and its words (the copy aside)."""
    return (p.level, p.location, p.check, _COPY.sub("", str(p.message.values["message"])))


# Problems whose cause may be the layout's box rather than a card's value (Problem.source).
BOX_CHECKS = frozenset({"fit"})
BOX_MOST = 3  # cards, at least, and more than half the deck's: then the box is the cause
CARDS_NAMED = 5  # cards named in a problem said once for many


def _needed(p) -> float:
    """The length a card's text needs (its message's `needed`, in the layout's unit), or 0."""
    inner = p.message.values.get("message") if p.message.values else None
    said_ = getattr(inner, "values", None) or {}
    number = re.match(r"[\d.]+", str(said_.get("needed", "")))
    return float(number[0]) if number else 0.0


def _box_said_once(deck: Deck, laid: Report, total: int, report: Report) -> set:
    """A box that the texts of most of the deck's cards (BOX_MOST and more than half) do not
    fit is the layout's mistake, not each card's: said once, at the element, with the card
    that needs most room (what the box must hold) and how many others, rather than once a
    card at each card's value (3,500 errors for one height). The elements said so."""
    by_element: dict[tuple, list] = {}
    for p in laid.problems:
        if p.source is not None and p.card and isinstance(p.message, Message):
            by_element.setdefault((p.source, p.level, p.check), []).append(p)
    said_at: set = set()
    for (source, level, check), problems in by_element.items():
        cards = list(dict.fromkeys(p.card for p in problems))
        if len(cards) < BOX_MOST or 2 * len(cards) <= total:
            continue
        widest = max(problems, key=_needed)  # (the first of the largest)
        others = [c for c in cards if c != widest.card]
        named: str = Listed(others[:CARDS_NAMED], None)
        if len(others) > CARDS_NAMED:
            named = _("{cards} and {n} more", cards=named, n=len(others) - CARDS_NAMED)
        report.add(level, _("{n} of the {total} cards of deck '{deck}' do not fit this box, said "
                            "here once for them all; the one that needs most room: {message}; "
                            "the others: {cards}", n=len(cards), total=total, deck=deck.id,
                            message=widest.message, cards=named),
                   source, check, deck=deck.id, cards=tuple(cards))
        said_at.add(source)
    return said_at
