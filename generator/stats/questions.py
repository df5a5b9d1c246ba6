"""The questions game.yaml asks (`stats: odds:` and `tables:`): pools per item of a data
table, and exact draw odds, each expression evaluated in the sandbox and its problems
reported where they are written."""

from __future__ import annotations

from typing import Any

import jinja2

from ..load.schema import suggest
from ..model import TBD, Deck, Game, Question, StatsSpec, plain
from ..problems import Location, Report
from ..sandbox import SandboxError, expression_problem, in_words, reset_budget
from ..sandbox_env import ENV
from ..validate.invariants import CheckBroken, PathMissing, context, evaluate, walk
from . import odds
from .counts import _card_name, _known_fields, _say
from .results import Answer, TableStats
from ..i18n import _, said

# Where a name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
THE_GAME = _("the game")
THE_DECK = _("the deck")


def _deck(game: Game, deck_id: str, where: Location, report: Report | None,
          what: str) -> Deck | None:
    deck = next((d for d in game.decks if d.id == deck_id), None)
    if deck is None and report is not None:
        report.error(_("stats: {what} names deck '{deck_id}', which the game does not have "
                       "({suggest})",
                           what=what, deck_id=deck_id,
                           suggest=suggest(deck_id, [d.id for d in game.decks],
                                           THE_GAME)),
                     where, "stats")
    return deck


def _field_ok(deck: Deck, name: str, where: Location, report: Report | None, what: str) -> bool:
    known = _known_fields(deck)
    if name in known:
        return True
    if report is not None:
        report.error(_("stats: {what} names field '{name}', which deck '{deck_id}' does not have "
                       "({suggest})",
                           what=what, name=name, deck_id=deck.id,
                           suggest=suggest(name, known, _("deck '{deck}'", deck=deck.id))),
                     where, "stats")
    return False


MAX_ITEMS = 100  # items a stats table or an odds question answers for, at most


class _Evaluator:
    """Declared expressions evaluated in the checks' scope, problems located in game.yaml."""

    def __init__(self, game: Game, report: Report | None, quiet: bool = False):
        self.game, self.report, self.quiet = game, report, quiet
        self.values, self.locators = context(game)
        self.spec: StatsSpec = game.stats
        self.broken = False
        self.unwritable: set = set()  # paths of expressions that do not compile (said once)

    def error(self, message: str, path: tuple, evaluated: bool = False,
              card: str | None = None) -> None:
        self.broken = True
        _say(self.report, self.quiet, message, self.spec.locate(path), evaluated, card)

    def items(self, for_path: str | None, path: tuple, what: str):
        if not for_path:
            return [{}]
        try:
            found = []
            for item in walk(for_path, self.values, self.locators):
                found.append(item.bindings)
                if len(found) > MAX_ITEMS:
                    self.error(_("{what}: for: '{for_path}' gives more than {MAX_ITEMS} items; a "
                                 "table or an odds question answers for at most {MAX_ITEMS} "
                                 "(each is a column or a line of its page)",
                                     what=what, for_path=for_path,
                                     MAX_ITEMS=MAX_ITEMS), path + ("for",))
                    return []
            return found
        except PathMissing as exc:
            self.error(_("{what}: for: {exc}", what=what, exc=exc), path + ("for",))
            return []

    def expression(self, text: str, scope: dict, path: tuple, what: str, name: str = ""):
        """The expression's value for one item; `name` (the question's, without the item)
        is what a syntax error is said of, once, as it is the same for every item."""
        try:
            compiled = ENV.compile_expression(text, undefined_to_none=False)
        except jinja2.TemplateSyntaxError as exc:
            if path not in self.unwritable:
                self.unwritable.add(path)
                self.error(_("{name} {why}", name=name or what, why=expression_problem(text, exc)),
                           path)
            raise CheckBroken("syntax", "", CheckBroken.WRITTEN) from None
        try:
            return evaluate(compiled, {**self.values, **scope}, what)
        except CheckBroken as exc:
            self.error(said(exc), path, evaluated=True)
            raise

    def label(self, template: str | None, scope: dict, index: int, path: tuple) -> str:
        if not template:
            bound = [v for v in scope.values() if isinstance(v, (str, int))]
            return str(bound[-1]) if bound else f"#{index + 1}"
        try:
            reset_budget()
            return ENV.from_string(template).render({**self.values, **scope}).strip()
        except (jinja2.TemplateError, SandboxError, TypeError, ValueError, ArithmeticError,
                KeyError, AttributeError, IndexError, RecursionError) as exc:
            self.error(_("label cannot be rendered: {in_words}",
                         in_words=in_words(exc)), path, evaluated=True)
            return f"#{index + 1}"

    def pool(self, deck: Deck, counts: str | None, scope: dict, path: tuple,
             what: str) -> dict[str, int] | None:
        """Card id -> copies in the pool: the deck's own copies, or what `counts` gives (a
        mapping of card ids to numbers, or 'all'). Blank cards are never in play."""
        own = {c.id: c.copies for c in deck.cards if not c.blank and not c.filler}
        by_id = {c.id: c for c in deck.cards}
        if not counts:
            return own
        try:
            value = self.expression(counts, scope, path + ("counts",), f"{what}: counts")
        except CheckBroken:
            return None
        value = plain(value)
        if value == "all":
            return own
        if not isinstance(value, dict):
            self.error(_("{what}: counts gives {in_words_value}, not a mapping of card ids to "
                         "numbers (or 'all')",
                             what=what, in_words_value=in_words_value(value)), path + ("counts",),
                             evaluated=True)
            return None
        pool = {}
        for card_id, n in value.items():
            if card_id not in own:
                self.error(_("{what}: counts names '{card_id}', which is not a card of deck "
                             "'{deck_id}' ({suggest})",
                                 what=what, card_id=card_id, deck_id=deck.id,
                                 suggest=suggest(str(card_id), list(own), THE_DECK)),
                           path + ("counts",), evaluated=True)
                return None
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                self.error(_("{what}: counts gives {in_words_value} for '{card_id}', not a number "
                             "of cards",
                                 what=what, in_words_value=in_words_value(n),
                                 card_id=card_id), path + ("counts",), evaluated=True)
                return None
            card = by_id[card_id]
            if n > own[card_id] and card.fields.get("copies") != TBD:  # (TBD: not known yet)
                self.error(_("{what}: counts gives {n:,} for '{card_id}', but deck '{deck_id}' "
                             "has {own} of it",
                                 what=what, n=n, card_id=card_id, deck_id=deck.id,
                                 own=own[card_id]), path + ("counts",), evaluated=True)
                return None
            pool[card_id] = n
        return pool


def in_words_value(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return f"'{value}'"
    return f"'{value}'" if not isinstance(value, dict) else "a mapping"


def _requirements(q: Question, deck: Deck, what: str, ev: _Evaluator) -> list | None:
    """Each requirement's `where` compiled (None for one by card ids); None (reported) when
    a requirement names a card the deck lacks, asks for more than it allows, or its `where`
    is no expression."""
    by_id = {c.id: c for c in deck.cards}
    bad = False
    for r in q.need:
        for j, card_id in enumerate(r.cards):
            if card_id not in by_id:
                ev.error(_("{what}: need names card '{card_id}', which is not in deck '{deck_id}' "
                           "({suggest})",
                               what=what, card_id=card_id, deck_id=deck.id,
                               suggest=suggest(card_id, list(by_id), THE_DECK)),
                         r.path + ("cards", j))
                bad = True
        if "exactly" in r.given and len(r.given) > 1:
            others = " and ".join(k for k in r.given if k != "exactly")
            ev.error(_("{what}: exactly says how many on its own; leave out {others}, or exactly",
                       what=what, others=others), r.path + ("exactly",))
            bad = True
        elif r.at_least is not None and r.at_most is not None and r.at_least > r.at_most:
            ev.error(_("{what}: at_least {r_at_least} is more than at_most {r_at_most}",
                       what=what, r_at_least=r.at_least, r_at_most=r.at_most), r.path)
            bad = True
    compiled = []
    for r in q.need:
        if r.where:
            try:
                compiled.append(ENV.compile_expression(r.where, undefined_to_none=False))
            except jinja2.TemplateSyntaxError as exc:
                ev.error(_("{what}: where {expression_problem}",
                           what=what, expression_problem=expression_problem(r.where, exc)),
                         r.path + ("where",))
                return None
        else:
            compiled.append(None)
    return None if bad else compiled


def _signatures(q: Question, deck: Deck, compiled: list, what: str,
                ev: _Evaluator) -> dict | None:
    """Which requirements each card counts for: the same for every item of the table."""
    signatures: dict[str, tuple[bool, ...]] = {}
    reset_budget()  # one budget for the question's `where:` over the whole deck, not per card
    for card in deck.cards:
        record = plain(card.record())
        sig = []
        for r, expr in zip(q.need, compiled):
            if expr is None:
                sig.append(card.id in r.cards)
                continue
            try:
                sig.append(bool(evaluate(expr, {**ev.values, "card": record}, "where",
                                         fresh=False)))
            except CheckBroken as exc:
                ev.error(_("{what}: {exc} (for card '{card_id}')",
                           what=what, exc=exc, card_id=card.id), r.path + ("where",),
                         evaluated=True, card=card.id)
                return None
        signatures[card.id] = tuple(sig)
    return signatures


def _digits(text: str) -> bool:
    """Digits int() reads as a whole number: 0 to 9 only (a superscript ² is a digit to
    str.isdigit, and int() refuses it: an internal error once, where a hand size is read)."""
    return text.isascii() and text.isdigit()


def _hand(q: Question, scope: dict, item: str, size: int, ev: _Evaluator) -> int | None:
    """The hand's size for one item: a whole number from 1 to the pool's size."""
    if q.hand.strip().isdigit() and not _digits(q.hand.strip()):
        ev.error(_("{item}: hand must be a whole number written in the digits 0 to 9, not "
                   "'{hand}'", item=item, hand=q.hand), q.path + ("hand",))
        return None
    try:
        hand = int(q.hand) if _digits(q.hand.strip()) else \
            ev.expression(q.hand, scope, q.path + ("hand",), f"{item}: hand",
                          f"odds '{q.id}': hand")
    except CheckBroken:
        return None
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 < hand <= size:
        ev.error(_("{item}: a hand of {in_words_value} cannot be drawn from a pool of {size} cards",
                   item=item, in_words_value=in_words_value(hand), size=size), q.path + ("hand",),
                   evaluated=True)
        return None
    return hand


def _answers(game: Game, q: Question, ev: _Evaluator) -> list[Answer]:
    what = f"odds '{q.id}'"
    deck = _deck(game, q.deck, game.stats.locate(q.path + ("deck",)), ev.report, what)
    if deck is None:
        return []
    compiled = _requirements(q, deck, what, ev)
    signatures = _signatures(q, deck, compiled, what, ev) if compiled is not None else None
    if signatures is None:
        return []
    by_id = {c.id: c for c in deck.cards}
    needs = tuple(odds.Need(r.at_least, r.at_most) for r in q.need)
    out: list[Answer] = []
    for index, scope in enumerate(ev.items(q.for_path, q.path, what)):
        label = ev.label(q.label, scope, index, q.path + ("label",)) if q.for_path else ""
        item = f"{what} ({label})" if label else what
        pool = ev.pool(deck, q.counts, scope, q.path, item)
        if pool is None:
            continue
        size = sum(pool.values())
        hand = _hand(q, scope, item, size, ev)
        if hand is None:
            continue
        classes: dict[tuple[bool, ...], int] = {}
        for card_id, n in pool.items():
            if n:
                classes[signatures[card_id]] = classes.get(signatures[card_id], 0) + n
        try:
            p = odds.probability(classes, hand, needs)
        except odds.TooLarge as exc:
            ev.error(_("{what}: too many ways to count (a hand of {hand} from {size:,} cards with "
                       "{n_needs} requirements: {exc}); ask a smaller question",
                           what=what, hand=hand, size=size, n_needs=len(needs), exc=exc),
                     q.path + ("need",))
            return out
        draft = any(by_id[c].fields.get("copies") == TBD for c, n in pool.items() if n)
        out.append(Answer(q.id, q.question, label, hand, size, p, draft))
    return out


def _table(game: Game, t, ev: _Evaluator) -> TableStats | None:
    what = f"table '{t.name}'"
    deck = _deck(game, t.deck, game.stats.locate(t.path + ("deck",)), ev.report, what)
    if deck is None:
        return None
    labels, totals, pools = [], [], []
    for index, scope in enumerate(ev.items(t.for_path, t.path, what)):
        label = ev.label(t.label, scope, index, t.path + ("label",))
        pool = ev.pool(deck, t.counts, scope, t.path, f"{what} ({label})")
        if pool is None:
            continue
        labels.append(label)
        totals.append(sum(pool.values()))
        pools.append(pool)
    cards = tuple((_card_name(c), tuple(p.get(c.id, 0) for p in pools)) for c in deck.cards
                  if any(p.get(c.id, 0) for p in pools))
    return TableStats(t.name, deck.id, tuple(labels), tuple(totals), cards,
                      deck.tint)
