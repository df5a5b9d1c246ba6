"""Counting a deck: a field's values weighted by copies (categories, or bins of numbers), and
two fields' cross-table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jinja2

from ..colors import Color, parse_color
from ..model import TBD, Card, Deck, Game
from ..problems import Location, Report
from ..sandbox import expression_problem
from ..sandbox_env import ENV
from ..validate.invariants import CheckBroken, evaluate
from .results import CrossTable, Distribution, MAX_BARS, MAX_CATEGORIES, NONE, _OTHER
from ..i18n import _

def _say(report: Report | None, quiet: bool, message: str, where: Location,
         evaluated: bool, card: str | None = None) -> None:
    """Report a problem of the declarations. One met while evaluating them over data that
    had errors before (`quiet`) is most likely those errors again: counted as skipped."""
    if report is None:
        return
    if evaluated and quiet:
        report.skip()
        return
    report.error(_("stats: {message}", message=message), where, "stats", card=card)


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

        def visit(fields: Mapping[str, Any], prefix: str) -> None:
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
        which = _("(for the value '{value}')", value=_label(value))
        try:
            result = evaluate(ENV.compile_expression(expression, undefined_to_none=False),
                              {**self.values, "value": value},
                              _("the colour") if kind == "colors" else _("the label"))
            if kind == "labels":
                return str(result) if result not in (None, "") else None
            return parse_color(str(result), self.game.colors) if result else None
        except jinja2.TemplateSyntaxError as exc:
            self._error(_("{kind}: {rule}: {why}", kind=kind, rule=rule,
                          why=expression_problem(rule, exc)), where)
        except CheckBroken as exc:
            self._error(_("{kind}: {rule}: {exc} {which}", kind=kind, rule=rule, exc=exc,
                          which=which), where, evaluated=True)
        except ValueError as exc:
            self._error(_("{kind}: {rule}: gives {exc} {which}", kind=kind, rule=rule, exc=exc,
                          which=which), where, evaluated=True)
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


def _numeric(deck: Deck, path: str, title: str, present: list, drafts: int,
             declared: bool) -> Distribution:
    """A number field: a histogram, its mean and range."""
    numbers = [(v, n) for v, n in present if isinstance(v, (int, float))
               and not isinstance(v, bool)]
    labels, counts = _histogram(numbers)
    total = sum(n for _, n in numbers)
    mean = sum(v * n for v, n in numbers) / total if total else None
    return Distribution(deck.id, path, title, True, labels, counts, (None,) * len(labels),
                        mean, min((v for v, _ in numbers), default=None),
                        max((v for v, _ in numbers), default=None), drafts, declared)


def _tallied(deck: Deck, path: str, present: list, missing: int) -> list:
    """(value, copies) of each category in order: the first MAX_CATEGORIES - 1, the rest
    summed as other, and the copies without the field last."""
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
    return items


def distribution(deck: Deck, path: str, shown: _Values, title: str = "",
                 declared: bool = False) -> Distribution:
    weighted = [(v, c.copies) for c in deck.cards for v in _values(c, path)]
    drafts = sum(n for v, n in weighted if v == TBD)
    present = [(v, n) for v, n in weighted if v not in (TBD, None)]
    missing = sum(n for v, n in weighted if v is None)
    title = title or path
    if _is_numeric(deck, path):
        return _numeric(deck, path, title, present, drafts, declared)
    items = _tallied(deck, path, present, missing)
    labels = tuple("other" if v is _OTHER else shown.label(path, v) for v, _ in items)
    return Distribution(deck.id, path, title, False, labels, tuple(n for _, n in items),
                        tuple(None if v is None or v is _OTHER else shown.color(path, v)
                              for v, _ in items),
                        drafts=drafts, declared=declared)


FEW_VALUES = 12  # distinct values of a number field, at most, that are each a bar


def _histogram(numbers: list[tuple[float, int]]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """One bar per integer from the least to the greatest (gaps shown as 0); else, for a
    field of few values (points of 10, 20, 25, 30, 40, 50), one bar per value; else ten
    equal bins (too many bars, or numbers of every kind)."""
    if not numbers:
        return (), ()
    low, high = min(v for v, _ in numbers), max(v for v, _ in numbers)
    whole = all(float(v).is_integer() for v, _ in numbers)
    if whole and high - low < MAX_BARS:
        tally = {int(x): 0 for x in range(int(low), int(high) + 1)}
        for v, n in numbers:
            tally[int(v)] += n
        return tuple(str(k) for k in tally), tuple(tally.values())
    values = sorted({v for v, _ in numbers})
    if len(values) <= FEW_VALUES:  # counted per value, not binned into ranges
        per_value = dict.fromkeys(values, 0)
        for v, n in numbers:
            per_value[v] += n
        return tuple(_label(v) for v in per_value), tuple(per_value.values())
    if whole:
        return _whole_bins(numbers, int(low), int(high))
    bins = 10
    width = (high - low) / bins or 1
    counts = [0] * bins
    for v, n in numbers:
        counts[min(int((v - low) / width), bins - 1)] += n
    labels = tuple(f"{_label(round(low + i * width, 2))}–{_label(round(low + (i + 1) * width, 2))}"
                   for i in range(bins))
    return labels, tuple(counts)


def _whole_bins(numbers: list[tuple[float, int]], low: int, high: int
                ) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Integers binned into ranges of whole numbers: ten at most, each a round width (1, 2,
    5, 10, 20, 50...) from a multiple of it, the ends the values' own ("0–9" ... "50–54"),
    not fractional ranges such as "0–5.4" that no card can have a value in."""
    width = next(w for w in (step * 10 ** k for k in range(len(str(high - low)) + 1)
                             for step in (1, 2, 5)) if high // w - low // w + 1 <= 10)
    first = low // width
    counts = [0] * (high // width - first + 1)
    for v, n in numbers:
        counts[int(v) // width - first] += n
    labels = []
    for i in range(len(counts)):
        a, b = max((first + i) * width, low), min((first + i + 1) * width - 1, high)
        labels.append(str(a) if a == b else f"{a}–{b}")
    return tuple(labels), tuple(counts)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _pairs(deck: Deck, a: str, b: str, numeric: list) -> tuple[list, list, list, int]:
    """(the two fields' values, copies) of every card, each field's values, and the copies
    left out as drafts. A number field's values are its numbers: a value of another type is
    its card's error (reported by validate), not a row. The pairs themselves are made only
    for the values a table shows (`_crossed`): a list crossed with itself made every pair of
    its values, a list of 20,000 values 400 million of them (4 GB)."""
    row_values, col_values, cards, drafts = [], [], [], 0
    for card in deck.cards:
        va, vb = _values(card, a), _values(card, b)
        va = [v for v in va if v in (TBD, None) or _is_number(v)] if numeric[0] else va
        vb = [v for v in vb if v in (TBD, None) or _is_number(v)] if numeric[1] else vb
        if TBD in va or TBD in vb:
            drafts += card.copies
            continue
        va, vb = [x for x in va if x is not None], [y for y in vb if y is not None]
        if va and vb:
            cards.append((va, vb, card.copies))
        row_values += va
        col_values += vb
    return cards, row_values, col_values, drafts


def _crossed(cards: list, rows: set, cols: set, keep_rows: bool, keep_cols: bool) -> list:
    """(x, y, copies) of each pair of a card's values that the table shows: a row in `rows`
    (every row, with `keep_rows`: a number's, for its means) and a column in `cols`."""
    pairs = []
    for va, vb, copies in cards:
        xs = va if keep_rows else [x for x in va if x in rows]
        ys = vb if keep_cols else [y for y in vb if y in cols]
        pairs += [(x, y, copies) for x in xs for y in ys]
    return pairs


def _means(pairs: list, paths: tuple[str, str], numeric: list, rows: list, cols: list,
           shown: _Values) -> tuple[tuple, str]:
    """The number field's mean under each value of the other, where one is a number."""
    if numeric[0] == numeric[1]:
        return (), ""
    num, cat = (0, 1) if numeric[0] else (1, 0)
    groups = cols if cat == 1 else rows
    out = []
    for g in groups:
        got = [(x if num == 0 else y, n) for x, y, n in pairs if (y if cat == 1 else x) == g]
        total = sum(n for _, n in got)
        out.append((shown.label(paths[cat], g), sum(v * n for v, n in got) / total
                    if total else None))
    return tuple(out), paths[num]


def cross_table(deck: Deck, paths: tuple[str, str], shown: _Values, title: str = "") -> CrossTable:
    a, b = paths
    numeric = [_is_numeric(deck, p) for p in paths]
    cards, row_values, col_values, drafts = _pairs(deck, a, b, numeric)
    rows = (sorted({x for va, _, _ in cards for x in va}) if numeric[0]
            else _categories(deck, a, row_values))
    cols = (sorted({y for _, vb, _ in cards for y in vb}) if numeric[1]
            else _categories(deck, b, col_values))
    rows, cols = rows[:MAX_CATEGORIES], cols[:MAX_CATEGORIES]
    mixed = numeric[0] != numeric[1]  # a number's mean under each value of the other
    pairs = _crossed(cards, set(rows), set(cols), mixed and numeric[0], mixed and numeric[1])
    cells = [[0] * len(cols) for _ in rows]
    index_r = {v: i for i, v in enumerate(rows)}
    index_c = {v: i for i, v in enumerate(cols)}
    for x, y, n in pairs:
        if x in index_r and y in index_c:
            cells[index_r[x]][index_c[y]] += n
    means, mean_of = _means(pairs, paths, numeric, rows, cols, shown)
    return CrossTable(deck.id, (a, b), title or f"{a} × {b}",
                      tuple(_label(v) if numeric[0] else shown.label(a, v) for v in rows),
                      tuple(_label(v) if numeric[1] else shown.label(b, v) for v in cols),
                      tuple(tuple(r) for r in cells),
                      tuple(None if numeric[1] else shown.color(b, v) for v in cols), means,
                      mean_of,
                      drafts)


def _cards_distribution(deck: Deck) -> Distribution | None:
    """Copies per card, for a deck whose cards come in different numbers."""
    if not deck.cards or len(deck.cards) > MAX_CATEGORIES or \
            len({c.copies for c in deck.cards}) < 2:
        return None
    return Distribution(deck.id, "", _("copies per card"), False,
                        tuple(_card_name(c) for c in deck.cards),
                        tuple(c.copies for c in deck.cards), (None,) * len(deck.cards))


# --- checking what game.yaml declares --------------------------------------------------------
