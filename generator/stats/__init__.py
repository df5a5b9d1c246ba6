"""The stats stage: what a game's decks hold, counted, and the odds of a draw.

It branches off after validate, as the rulebook does: `check` evaluates what game.yaml's
`stats:` declares (views, colours, tables, odds), so that `cardgen validate` reports every
problem in it, located; `compute` gives the finished statistics that `cardgen stats`,
the stats PDF, the preview page's Stats view, the rulebook's `odds()` and `cardgen diff`
show.

Everything is weighted by copies. A list field counts each of its items (a card of two
affiliations counts once under each). A TBD value is counted apart, as a draft, never as
a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import jinja2

from ..colors import Color, parse_color
from ..load.schema import suggest
from ..model import TBD, Card, Deck, Game, Question, StatsSpec, plain
from ..problems import Location, Report
from ..sandbox import ENV, SandboxError, in_words, reset_budget
from ..validate.invariants import CheckBroken, PathMissing, context, evaluate, walk
from . import odds

NONE = "(none)"  # the label of copies that do not have the field
MAX_CATEGORIES = 40  # values of one field shown as bars; the rest are summed as "other"
MAX_BARS = 30  # integer values shown one bar each; a wider range is binned
# Colours for values with none of their own: the Okabe-Ito palette, told apart by people
# with any colour vision.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
           "#999999")
DRAFT_COLOR = (0.82, 0.82, 0.82)
_OTHER = object()  # the bar that sums the values beyond MAX_CATEGORIES


@dataclass(frozen=True)
class Distribution:
    """One field of one deck: copies per value (a category, or a number or a bin)."""

    deck: str
    field: str  # "power", "condition.kind"; "" for the deck's cards themselves
    title: str
    numeric: bool
    labels: tuple[str, ...]
    counts: tuple[int, ...]
    colors: tuple[Color | None, ...]
    mean: float | None = None  # numeric fields: over copies with a number
    low: float | None = None
    high: float | None = None
    drafts: int = 0  # copies whose value is TBD (not among the counts)
    declared: bool = False  # a view game.yaml asks for

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True)
class CrossTable:
    """Two fields of one deck: copies per pair of values (rows: the first field)."""

    deck: str
    fields: tuple[str, str]
    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[int, ...], ...]  # [row][column]
    colors: tuple[Color | None, ...]  # per column
    # Where one field is numeric: its mean per value of the other, (value, mean or None).
    means: tuple[tuple[str, float | None], ...] = ()
    mean_of: str = ""  # the numeric field the means are of
    drafts: int = 0  # copies with a TBD in either field (not in the cells)


@dataclass(frozen=True)
class DeckStats:
    id: str
    name: str
    total: int  # copies
    kinds: int  # distinct cards
    color: Color | None
    distributions: tuple[Distribution, ...]
    crosses: tuple[CrossTable, ...]


@dataclass(frozen=True)
class TableStats:
    """A declared table of pools (cards used by player count): each item's total and cards."""

    name: str
    deck: str
    labels: tuple[str, ...]
    totals: tuple[int, ...]
    cards: tuple[tuple[str, tuple[int, ...]], ...]  # (card name, count per item)
    color: Color | None


@dataclass(frozen=True)
class Answer:
    """The exact odds of one question, for one item of its table (or the whole deck)."""

    question: str  # the question's id
    text: str  # the question, in words
    label: str  # the item ("4 players"), or ""
    hand: int
    pool: int
    probability: Fraction
    draft: bool = False  # the pool has cards whose copies are TBD

    @property
    def percent(self) -> str:
        return f"{float(self.probability) * 100:.2f}%"

    def words(self) -> str:
        p = self.probability
        chance = (f"{p.numerator}/{p.denominator} = {self.percent}" if p.denominator != 1
                  else self.percent)
        if 0 < p < 1:
            chance += f", 1 in {float(1 / p):.1f}"
        return chance


@dataclass(frozen=True)
class Stats:
    game: str
    title: str
    decks: tuple[DeckStats, ...]
    tables: tuple[TableStats, ...] = ()
    answers: tuple[Answer, ...] = ()

    def deck(self, deck_id: str) -> DeckStats | None:
        return next((d for d in self.decks if d.id == deck_id), None)


# --- fields -------------------------------------------------------------------------------

def _spec(deck: Deck, path: str) -> dict | None:
    """The declaration of a field ("a" or "a.b"), seen through lists to their items."""
    fields = deck.fields or {}
    spec: Any = None
    for part in path.split("."):
        if spec is not None:
            while spec.get("type") == "list" and isinstance(spec.get("items"), dict):
                spec = spec["items"]
            fields = spec.get("fields") or {}
        spec = fields.get(part) if isinstance(fields, dict) else None
        if not isinstance(spec, dict):
            return None
    return spec


def _leaf(spec: dict | None) -> dict | None:
    while spec and spec.get("type") == "list" and isinstance(spec.get("items"), dict):
        spec = spec["items"]
    return spec


def _values(card: Card, path: str) -> list:
    """The card's values of a field: a list gives each item; TBD stays TBD."""
    found: list = [card.fields.get(path.split(".")[0])]
    for part in path.split(".")[1:]:
        nxt = []
        for value in found:
            for v in (value if isinstance(value, list) else [value]):
                nxt.append(v.get(part) if isinstance(v, dict) else (TBD if v == TBD else None))
        found = nxt
    out = []
    for value in found:
        out += value if isinstance(value, list) else [value]
    return out


def _known_fields(deck: Deck) -> list[str]:
    """Every field name a view of the deck may use, mappings reached with dots."""
    if deck.fields:
        out = []

        def visit(fields: dict, prefix: str) -> None:
            for name, spec in fields.items():
                out.append(prefix + name)
                leaf = _leaf(spec) if isinstance(spec, dict) else None
                if leaf and isinstance(leaf.get("fields"), dict):
                    visit(leaf["fields"], prefix + name + ".")
        visit(deck.fields, "")
        return out
    names: dict[str, None] = {}
    for card in deck.cards:
        names.update(dict.fromkeys(card.fields))
    return list(names)


def _is_numeric(deck: Deck, path: str) -> bool:
    leaf = _leaf(_spec(deck, path))
    if leaf is not None:
        return leaf.get("type") in ("integer", "number")
    values = [v for c in deck.cards for v in _values(c, path) if v not in (None, TBD)]
    return bool(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                for v in values)


def _default_fields(deck: Deck) -> list[str]:
    """The fields drawn without any declaration: every enumerated, boolean or numeric one."""
    out = []
    for name in _known_fields(deck):
        leaf = _leaf(_spec(deck, name))
        if leaf is not None:
            if leaf.get("enum") or leaf.get("type") in ("boolean", "integer", "number"):
                out.append(name)
        else:
            values = [v for c in deck.cards for v in _values(c, name) if v not in (None, TBD)]
            if values and (all(isinstance(v, bool) for v in values) or _is_numeric(deck, name)):
                out.append(name)
    return out


def _label(value: Any) -> str:
    if value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _card_name(card: Card) -> str:
    name = card.fields.get("name")
    return str(name) if isinstance(name, str) and name and name != TBD else card.id


# --- colours and names of values ---------------------------------------------------------

class _Values:
    """The colour and the shown name of each value of a field: the expressions of
    `stats: colors:` and `stats: labels:` in game.yaml (over `value`), else a game colour of
    the value's name and the value itself (a chart picks from PALETTE what has no colour)."""

    def __init__(self, game: Game, values: dict, report: Report | None, quiet: bool):
        self.game, self.values, self.report, self.quiet = game, values, report, quiet
        self.cache: dict[tuple, Any] = {}
        self.broken: set[tuple[str, str]] = set()  # rules that failed once: said once

    def color(self, field_path: str, value: Any) -> Color | None:
        found = self._rule("colors", field_path, value)
        if found is not None:
            return found
        if isinstance(value, str) and value in self.game.colors:
            return self.game.colors[value]
        return None

    def label(self, field_path: str, value: Any) -> str:
        if value is None:
            return NONE
        found = self._rule("labels", field_path, value)
        return found if found is not None else _label(value)

    def _rule(self, kind: str, field_path: str, value: Any):
        key = (kind, field_path, _label(value))
        if key not in self.cache:
            self.cache[key] = self._evaluate(kind, field_path, value)
        return self.cache[key]

    def _evaluate(self, kind: str, field_path: str, value: Any):
        spec = self.game.stats
        rules = spec.colors if kind == "colors" else spec.labels
        name = field_path.split(".")[-1]
        rule = field_path if field_path in rules else name
        expression = rules.get(rule)
        if not expression or value in (TBD, None) or (kind, rule) in self.broken:
            return None
        where = spec.locate(("stats", kind, rule))
        which = f"(for the value '{_label(value)}')"
        try:
            result = evaluate(ENV.compile_expression(expression, undefined_to_none=False),
                              {**self.values, "value": value},
                              "the colour" if kind == "colors" else "the label")
            if kind == "labels":
                return str(result) if result not in (None, "") else None
            return parse_color(str(result), self.game.colors) if result else None
        except jinja2.TemplateSyntaxError as exc:
            self._error(f"{kind}: {rule}: is not a valid expression: {exc.message}", where)
        except CheckBroken as exc:
            self._error(f"{kind}: {rule}: {exc} {which}", where, evaluated=True)
        except ValueError as exc:
            self._error(f"{kind}: {rule}: gives {exc} {which}", where, evaluated=True)
        self.broken.add((kind, rule))
        return None

    def _error(self, message: str, where: Location, evaluated: bool = False) -> None:
        _say(self.report, self.quiet, message, where, evaluated)


# --- distributions and cross-tables ---------------------------------------------------------

def _categories(deck: Deck, path: str, values: list) -> list:
    """The values in their order: the declared enum's, then others as they come."""
    leaf = _leaf(_spec(deck, path)) or {}
    order: dict = {}
    if leaf.get("type") == "boolean":
        order = {True: None, False: None}
    for v in leaf.get("enum") or ():
        order[v] = None
    for v in values:
        if v not in (TBD, None) and not isinstance(v, (dict, list)):
            order.setdefault(v, None)
    return list(order)


def distribution(deck: Deck, path: str, shown: _Values, title: str = "",
                 declared: bool = False) -> Distribution:
    weighted = [(v, c.copies) for c in deck.cards for v in _values(c, path)]
    drafts = sum(n for v, n in weighted if v == TBD)
    present = [(v, n) for v, n in weighted if v not in (TBD, None)]
    missing = sum(n for v, n in weighted if v is None)
    title = title or path
    if _is_numeric(deck, path):
        numbers = [(v, n) for v, n in present if isinstance(v, (int, float))
                   and not isinstance(v, bool)]
        labels, counts = _histogram(numbers)
        total = sum(n for _, n in numbers)
        mean = sum(v * n for v, n in numbers) / total if total else None
        return Distribution(deck.id, path, title, True, labels, counts, (None,) * len(labels),
                            mean, min((v for v, _ in numbers), default=None),
                            max((v for v, _ in numbers), default=None), drafts, declared)
    order = _categories(deck, path, [v for v, _ in present])
    tally = dict.fromkeys(order, 0)
    for v, n in present:
        if v in tally:
            tally[v] += n
    items = list(tally.items())
    if len(items) > MAX_CATEGORIES:
        rest = sum(n for _, n in items[MAX_CATEGORIES - 1:])
        items = items[:MAX_CATEGORIES - 1] + [(_OTHER, rest)]
    if missing:
        items.append((None, missing))
    labels = tuple("other" if v is _OTHER else shown.label(path, v) for v, _ in items)
    return Distribution(deck.id, path, title, False, labels, tuple(n for _, n in items),
                        tuple(None if v is None or v is _OTHER else shown.color(path, v)
                              for v, _ in items),
                        drafts=drafts, declared=declared)


def _histogram(numbers: list[tuple[float, int]]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """One bar per integer from the least to the greatest (gaps shown as 0), or ten equal
    bins where that would be too many bars or the numbers are not whole."""
    if not numbers:
        return (), ()
    low, high = min(v for v, _ in numbers), max(v for v, _ in numbers)
    whole = all(float(v).is_integer() for v, _ in numbers)
    if whole and high - low < MAX_BARS:
        tally = {int(x): 0 for x in range(int(low), int(high) + 1)}
        for v, n in numbers:
            tally[int(v)] += n
        return tuple(str(k) for k in tally), tuple(tally.values())
    bins = 10
    width = (high - low) / bins or 1
    counts = [0] * bins
    for v, n in numbers:
        counts[min(int((v - low) / width), bins - 1)] += n
    labels = tuple(f"{_label(round(low + i * width, 2))}–{_label(round(low + (i + 1) * width, 2))}"
                   for i in range(bins))
    return labels, tuple(counts)


def cross_table(deck: Deck, paths: tuple[str, str], shown: _Values, title: str = "") -> CrossTable:
    a, b = paths
    numeric = [_is_numeric(deck, p) for p in paths]
    row_values, col_values, pairs, drafts = [], [], [], 0
    for card in deck.cards:
        va, vb = _values(card, a), _values(card, b)
        if TBD in va or TBD in vb:
            drafts += card.copies
            continue
        for x in va:
            for y in vb:
                if x is not None and y is not None:
                    pairs.append((x, y, card.copies))
        row_values += va
        col_values += vb
    rows = (sorted({x for x, _, _ in pairs}) if numeric[0]
            else _categories(deck, a, row_values))
    cols = (sorted({y for _, y, _ in pairs}) if numeric[1]
            else _categories(deck, b, col_values))
    rows, cols = rows[:MAX_CATEGORIES], cols[:MAX_CATEGORIES]
    cells = [[0] * len(cols) for _ in rows]
    index_r = {v: i for i, v in enumerate(rows)}
    index_c = {v: i for i, v in enumerate(cols)}
    for x, y, n in pairs:
        if x in index_r and y in index_c:
            cells[index_r[x]][index_c[y]] += n
    means, mean_of = (), ""
    if numeric[0] != numeric[1]:  # the numeric field's mean under each value of the other
        num, cat = (0, 1) if numeric[0] else (1, 0)
        mean_of = paths[num]
        groups = cols if cat == 1 else rows
        out = []
        for g in groups:
            got = [(x if num == 0 else y, n) for x, y, n in pairs if (y if cat == 1 else x) == g]
            total = sum(n for _, n in got)
            out.append((shown.label(paths[cat], g), sum(v * n for v, n in got) / total
                        if total else None))
        means = tuple(out)
    return CrossTable(deck.id, (a, b), title or f"{a} × {b}",
                      tuple(_label(v) if numeric[0] else shown.label(a, v) for v in rows),
                      tuple(_label(v) if numeric[1] else shown.label(b, v) for v in cols),
                      tuple(tuple(r) for r in cells),
                      tuple(None if numeric[1] else shown.color(b, v) for v in cols), means, mean_of,
                      drafts)


def _cards_distribution(deck: Deck) -> Distribution | None:
    """Copies per card, for a deck whose cards come in different numbers."""
    if not deck.cards or len(deck.cards) > MAX_CATEGORIES or \
            len({c.copies for c in deck.cards}) < 2:
        return None
    return Distribution(deck.id, "", "copies per card", False,
                        tuple(_card_name(c) for c in deck.cards),
                        tuple(c.copies for c in deck.cards), (None,) * len(deck.cards))


# --- checking what game.yaml declares --------------------------------------------------------

def _deck(game: Game, deck_id: str, where: Location, report: Report | None, what: str) -> Deck | None:
    deck = next((d for d in game.decks if d.id == deck_id), None)
    if deck is None and report is not None:
        report.error(f"stats: {what} names deck '{deck_id}', which the game does not have "
                     f"({suggest(deck_id, [d.id for d in game.decks], 'the game')})",
                     where, "stats")
    return deck


def _field_ok(deck: Deck, name: str, where: Location, report: Report | None, what: str) -> bool:
    known = _known_fields(deck)
    if name in known:
        return True
    if report is not None:
        report.error(f"stats: {what} names field '{name}', which deck '{deck.id}' does not "
                     f"have ({suggest(name, known, f'deck {deck.id!r}')})", where, "stats")
    return False


def _say(report: Report | None, quiet: bool, message: str, where: Location,
         evaluated: bool) -> None:
    """Report a problem of the declarations. One met while evaluating them over data that
    had errors before (`quiet`) is most likely those errors again: counted as skipped."""
    if report is None:
        return
    if evaluated and quiet:
        report.skip()
        return
    report.error(f"stats: {message}", where, "stats")


class _Evaluator:
    """Declared expressions evaluated in the checks' scope, problems located in game.yaml."""

    def __init__(self, game: Game, report: Report | None, quiet: bool = False):
        self.game, self.report, self.quiet = game, report, quiet
        self.values, self.locators = context(game)
        self.spec: StatsSpec = game.stats
        self.broken = False

    def error(self, message: str, path: tuple, evaluated: bool = False) -> None:
        self.broken = True
        _say(self.report, self.quiet, message, self.spec.locate(path), evaluated)

    def items(self, for_path: str | None, path: tuple, what: str):
        if not for_path:
            return [{}]
        try:
            return [item.bindings for item in walk(for_path, self.values, self.locators)]
        except PathMissing as exc:
            self.error(f"{what}: for: {exc}", path + ("for",))
            return []

    def expression(self, text: str, scope: dict, path: tuple, what: str):
        try:
            compiled = ENV.compile_expression(text, undefined_to_none=False)
        except jinja2.TemplateSyntaxError as exc:
            self.error(f"{what} is not a valid expression: {exc.message}", path)
            raise CheckBroken("syntax", "", CheckBroken.WRITTEN) from None
        try:
            return evaluate(compiled, {**self.values, **scope}, what)
        except CheckBroken as exc:
            self.error(str(exc), path, evaluated=True)
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
            self.error(f"label cannot be rendered: {in_words(exc)}", path, evaluated=True)
            return f"#{index + 1}"

    def pool(self, deck: Deck, counts: str | None, scope: dict, path: tuple,
             what: str) -> dict[str, int] | None:
        """Card id -> copies in the pool: the deck's own copies, or what `counts` gives (a
        mapping of card ids to numbers, or 'all'). Blank cards are never in play."""
        own = {c.id: c.copies for c in deck.cards if not c.blank}
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
            self.error(f"{what}: counts gives {in_words_value(value)}, not a mapping of card "
                       "ids to numbers (or 'all')", path + ("counts",), evaluated=True)
            return None
        pool = {}
        for card_id, n in value.items():
            if card_id not in own:
                self.error(f"{what}: counts names '{card_id}', which is not a card of deck "
                           f"'{deck.id}' ({suggest(str(card_id), list(own), 'the deck')})",
                           path + ("counts",), evaluated=True)
                return None
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                self.error(f"{what}: counts gives {in_words_value(n)} for '{card_id}', not a "
                           "number of cards", path + ("counts",), evaluated=True)
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


def _answers(game: Game, q: Question, ev: _Evaluator) -> list[Answer]:
    what = f"odds '{q.id}'"
    deck = _deck(game, q.deck, game.stats.locate(q.path + ("deck",)), ev.report, what)
    if deck is None:
        return []
    by_id = {c.id: c for c in deck.cards}
    bad = False
    for r in q.need:
        for j, card_id in enumerate(r.cards):
            if card_id not in by_id:
                ev.error(f"{what}: need names card '{card_id}', which is not in deck "
                         f"'{deck.id}' ({suggest(card_id, list(by_id), 'the deck')})",
                         r.path + ("cards", j))
                bad = True
        if r.at_least is not None and r.at_most is not None and r.at_least > r.at_most:
            ev.error(f"{what}: at_least {r.at_least} is more than at_most {r.at_most}", r.path)
            bad = True
    compiled = []
    for r in q.need:
        if r.where:
            try:
                compiled.append(ENV.compile_expression(r.where, undefined_to_none=False))
            except jinja2.TemplateSyntaxError as exc:
                ev.error(f"{what}: where is not a valid expression: {exc.message}",
                         r.path + ("where",))
                return []
        else:
            compiled.append(None)
    if bad:
        return []
    # Which requirements each card counts for: the same for every item of the table.
    signatures: dict[str, tuple[bool, ...]] = {}
    for card in deck.cards:
        record = plain(card.record())
        sig = []
        for r, expr in zip(q.need, compiled):
            if expr is None:
                sig.append(card.id in r.cards)
                continue
            try:
                sig.append(bool(evaluate(expr, {**ev.values, "card": record}, "where")))
            except CheckBroken as exc:
                ev.error(f"{what}: {exc} (for card '{card.id}')", r.path + ("where",),
                         evaluated=True)
                return []
        signatures[card.id] = tuple(sig)
    needs = tuple(odds.Need(r.at_least, r.at_most) for r in q.need)
    out = []
    for index, scope in enumerate(ev.items(q.for_path, q.path, what)):
        label = ev.label(q.label, scope, index, q.path + ("label",)) if q.for_path else ""
        item = f"{what} ({label})" if label else what
        pool = ev.pool(deck, q.counts, scope, q.path, item)
        if pool is None:
            continue
        try:
            hand = int(q.hand) if q.hand.strip().isdigit() else \
                ev.expression(q.hand, scope, q.path + ("hand",), f"{item}: hand")
        except CheckBroken:
            continue
        size = sum(pool.values())
        if not isinstance(hand, int) or isinstance(hand, bool) or not 0 < hand <= size:
            ev.error(f"{item}: a hand of {in_words_value(hand)} cannot be drawn from a pool of "
                     f"{size} cards", q.path + ("hand",), evaluated=True)
            continue
        classes: dict[tuple[bool, ...], int] = {}
        for card_id, n in pool.items():
            if n:
                classes[signatures[card_id]] = classes.get(signatures[card_id], 0) + n
        try:
            p = odds.probability(classes, hand, needs)
        except odds.TooLarge:
            ev.error(f"{what}: too many ways to count (a hand of {hand} with "
                     f"{len(needs)} requirements); ask a smaller question", q.path + ("need",))
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


def _run(game: Game, report: Report | None, decks: tuple[str, ...] | None = None,
         quiet: bool = False) -> Stats:
    ev = _Evaluator(game, report, quiet)
    spec = game.stats
    shown = _Values(game, ev.values, report, quiet)
    for kind, rules in (("colors", spec.colors), ("labels", spec.labels)):  # a rule names a field
        for name in rules:
            if not any(name in _known_fields(d) or name in [k.split(".")[-1] for k in
                                                            _known_fields(d)] for d in game.decks):
                ev.error(f"{kind} names field '{name}', which no deck has", ("stats", kind, name))
    declared: dict[str, list] = {}
    for view in spec.views:
        deck = _deck(game, view.deck, spec.locate(view.path + ("deck",)), report, "a view")
        if deck is None:
            continue
        if all([_field_ok(deck, f, spec.locate(view.path + ("fields", j)), report, "a view")
                for j, f in enumerate(view.fields)]):
            declared.setdefault(deck.id, []).append(view)
    deck_stats = []
    for deck in game.decks:
        if decks is not None and deck.id not in decks:
            continue
        views = declared.get(deck.id, [])
        dists, crosses = [], []
        for view in views:
            if len(view.fields) == 1:
                dists.append(distribution(deck, view.fields[0], shown, view.title, True))
            else:
                crosses.append(cross_table(deck, view.fields, shown, view.title))
        asked = {v.fields[0] for v in views if len(v.fields) == 1}
        dists += [distribution(deck, f, shown) for f in _default_fields(deck) if f not in asked]
        copies = _cards_distribution(deck)
        if copies is not None:
            dists.append(copies)
        deck_stats.append(DeckStats(deck.id, deck.name, deck.total, len(deck.cards),
                                    deck.tint,
                                    tuple(dists), tuple(crosses)))
    tables = [t for t in (_table(game, t, ev) for t in spec.tables
                          if decks is None or t.deck in decks) if t is not None]
    answers = [a for q in spec.questions if decks is None or q.deck in decks
               for a in _answers(game, q, ev)]
    return Stats(game.id, game.title, tuple(deck_stats), tuple(tables), tuple(answers))


def check(game: Game, report: Report) -> None:
    """Report every problem in game.yaml's `stats:` (cardgen validate runs this)."""
    if game.stats.declared:
        _run(game, report, quiet=bool(report.errors))


def compute(game: Game, decks: tuple[str, ...] | None = None) -> Stats:
    """The statistics of a game that passed `check` (of only `decks`, if given)."""
    return _run(game, None, decks)
