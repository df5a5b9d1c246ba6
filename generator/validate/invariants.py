"""Game invariants: rules declared in a game's checks file, as expressions over its data.

    - name: deal-four-each
      for: data.setup.cards_used.{row}
      assert: row.total == row.players * 4
      message: "{{ row.players }} players: {{ row.total }} cards, not {{ row.players * 4 }}"
      at: row.total

`for` walks the game's data (names joined by dots; `{name}` takes each item of a
list, or each key of a mapping, and binds it to `name`); `when`, `assert` and
`message` are Jinja2 expressions and templates evaluated in Jinja2's immutable
sandbox, so a YAML file can compute but never reach Python internals or change
anything. Every failure is located at the value it is about (`at`, or the item
being checked), so a designer lands on the right line of the right file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

from ..model import Card, Deck, Game, Invariant, SourceMap, plain
from ..values import abridged, is_template
from ..problems import Location, Report
from ..sandbox import SandboxError, env, expression_problem, game_scope, in_words, reset_budget
from ..i18n import N_, _

NAME = "invariants"
NAMES = ()  # a check of the game's checks file reports under its own name
ORDER = 70
DOC = N_("the game's own checks (its checks file, docs/validation.md), each where it points")

_VARIABLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")


# --- locating values of the evaluation context --------------------------------------------

class Locator:
    """Knows where a value of the context was written, and where its children were."""

    def child(self, key: Any) -> "Locator":
        return self

    def loc(self, key: bool = False) -> Location | None:
        return None


@dataclass(frozen=True)
class PathLocator(Locator):
    source: SourceMap
    path: tuple

    def child(self, key: Any) -> Locator:
        return PathLocator(self.source, self.path + (key,))

    def loc(self, key: bool = False) -> Location:
        return self.source.locate(self.path, key)


@dataclass(frozen=True)
class CardsLocator(Locator):
    """A list of cards (by index) or a mapping of cards (by id)."""

    cards: tuple[Card, ...]
    by_id: bool = False

    def child(self, key: Any) -> Locator:
        if self.by_id:
            card = next((c for c in self.cards if c.id == key), None)
        else:
            card = self.cards[key] if isinstance(key, int) and 0 <= key < len(self.cards) else None
        return PathLocator(card.source, card.path) if card else Locator()


@dataclass(frozen=True)
class DecksLocator(Locator):
    decks: tuple[Deck, ...]

    def child(self, key: Any) -> Locator:
        deck = next((d for d in self.decks if d.id == key), None)
        return DeckLocator(deck) if deck else Locator()


@dataclass(frozen=True)
class DeckLocator(Locator):
    deck: Deck

    def child(self, key: Any) -> Locator:
        if key == "cards":
            return CardsLocator(self.deck.cards)
        return PathLocator(self.deck.source, self.deck.path + (key,))

    def loc(self, key: bool = False) -> Location:
        return self.deck.loc


@dataclass(frozen=True)
class DataLocator(Locator):
    sources: Any  # table name -> SourceMap

    def child(self, key: Any) -> Locator:
        source = self.sources.get(key)
        return PathLocator(source, ()) if source else Locator()


def context(game: Game) -> tuple[dict, dict[str, Locator]]:
    """What expressions see, and where each top-level name was written."""
    cards = [c.record() for c in game.cards()]
    values = {
        **game_scope(game),
        "cards": plain(cards),
        "card": {c["id"]: plain(c) for c in cards},
        "decks": {d.id: {"id": d.id, "name": d.name, "total": d.total, "slots": d.slots or d.total,
                         "cards": [plain(c.record()) for c in d.cards]} for d in game.decks},
    }
    locators = {
        "game": PathLocator(game.decks[0].source, ()) if game.decks else Locator(),
        "cards": CardsLocator(game.cards()),
        "card": CardsLocator(game.cards(), by_id=True),
        "decks": DecksLocator(game.decks),
        "data": DataLocator(game.data_sources),
    }
    return values, locators


# --- walking `for:` paths --------------------------------------------------------------------

@dataclass(frozen=True)
class Item:
    value: Any
    locator: Locator
    at_key: bool  # the item is a mapping key: point at the key, not its value
    bindings: dict  # name -> value
    binding_locators: dict  # name -> (Locator, at_key, the value there: a key's own value)


class PathMissing(Exception):
    pass


def walk(path: str, values: dict, locators: dict) -> Iterator[Item]:
    segments = path.split(".")
    root = segments[0]
    yield from _walk(segments[1:], values[root], locators[root], False, {}, {}, path)


def _walk(segments, value, locator, at_key, bindings, blocs, path) -> Iterator[Item]:
    if not segments:
        yield Item(value, locator, at_key, bindings, blocs)
        return
    seg, rest = segments[0], segments[1:]
    var = _VARIABLE.match(seg)
    if var:
        name = var.group(1)
        if isinstance(value, list):
            for i, v in enumerate(value):
                loc = locator.child(i)
                yield from _walk(rest, v, loc, False, {**bindings, name: v},
                                 {**blocs, name: (loc, False, v)}, path)
        elif isinstance(value, dict):
            for k, v in value.items():
                loc = locator.child(k)
                yield from _walk(rest, v, loc, not rest, {**bindings, name: k},
                                 {**blocs, name: (loc, True, v)}, path)
        return  # a single value has nothing to iterate: no items
    optional = seg.endswith("?") and len(seg) > 1  # `key?`: no items when the key is absent
    seg = seg[:-1] if optional else seg
    if isinstance(value, dict) and seg in value:
        yield from _walk(rest, value[seg], locator.child(seg), False, bindings, blocs, path)
    elif optional and (value is None or isinstance(value, dict)):
        return
    elif isinstance(value, list) and seg.isascii() and seg.isdigit() and int(seg) < len(value):
        yield from _walk(rest, value[int(seg)], locator.child(int(seg)), False, bindings, blocs,
                         path)
    else:
        known = f" (there is: {', '.join(map(str, value))})" if isinstance(value, dict) else ""
        raise PathMissing(f"'{path}' has no '{seg}'" + known)


def _at(check: Invariant, item: Item, values: dict, locators: dict) -> Location:
    """Where a failure of `check` on `item` is reported. `at:` starts at a bound name (a
    mapping key's name goes on into its value: `k.count`), at a name of the scope (`data`,
    `cards`, `decks`: a check without `for:` points into the data), or at the item. A path
    that names nothing is the check's own mistake, reported as such (never ignored)."""
    if check.at:
        first, *rest = check.at.split(".")
        if first in item.binding_locators:
            locator, at_key, value = item.binding_locators[first]
            if not rest and at_key:
                return locator.loc(True) or check.locate("assert")
        elif first in locators and first in values:
            locator, at_key, value = locators[first], False, values[first]
        else:
            locator, at_key, rest = item.locator, item.at_key, [first, *rest]
            value = item.value
        for part in rest:
            var = _VARIABLE.match(part)
            key = item.bindings.get(var.group(1)) if var else \
                int(part) if part.isascii() and part.isdigit() else part
            if isinstance(value, dict) and key in value:
                value = value[key]
            elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
                value = value[key]
            else:
                known = f" (there is: {', '.join(map(str, value))})" \
                    if isinstance(value, dict) else ""
                broken = CheckBroken(_("at: '{check_at}' has no '{part}'{known}",
                                       check_at=abridged(check.at), part=abridged(part),
                                       known=known), "at",
                                     CheckBroken.WRITTEN)
                broken.missing = str(part)
                raise broken
            locator, at_key = locator.child(key), False
        return locator.loc(at_key) or check.locate("assert")
    return item.locator.loc(item.at_key) or check.locate("assert")


# --- evaluating checks -----------------------------------------------------------------------

class CheckBroken(Exception):
    """A check that cannot be carried out. Its kind says why, so that no one has to read
    its message to decide: "written" (the check itself is wrong: a syntax error, a path
    that names nothing), or "evaluating" (evaluating it failed on the values it met, which
    may be values already reported as wrong)."""

    WRITTEN, EVALUATING = "written", "evaluating"

    def __init__(self, message: str, field: str, kind: str = EVALUATING):
        super().__init__(message)
        self.field, self.kind = field, kind
        self.missing = ""  # for a wrong `at:`: the part of its path that names nothing


def _compile(check: Invariant):
    import jinja2  # (a game with checks: Jinja2 compiles them)
    compiled: dict[str, Any] = {}
    if check.at and is_template(check.at):
        raise CheckBroken(_("at is a template ({braces}) where a path is wanted: write it "
                            "without the braces, as row.total or data.rules.hand_size",
                            braces="{{ ... }}"), "at", CheckBroken.WRITTEN)
    for field, text in (("when", check.when), ("assert", check.assertion)):
        if text:
            try:
                compiled[field] = env().compile_expression(text, undefined_to_none=False)
            except jinja2.TemplateSyntaxError as exc:
                raise CheckBroken(_("{name} {why}", name=field, why=expression_problem(text, exc)),
                                  field, CheckBroken.WRITTEN) from None
    if check.message:
        try:
            compiled["message"] = env().from_string(check.message)
        except jinja2.TemplateSyntaxError as exc:
            raise CheckBroken(_("message is not a valid template: {exc_message}",
                                exc_message=exc.message), "message",
                              CheckBroken.WRITTEN) from None
    return compiled


def evaluate(expr, scope: dict, field: str, fresh: bool = True):
    """The expression's value; `fresh=False` goes on spending the budget the caller reset
    (one budget for a `where:` over every card of a deck, not one per card)."""
    import jinja2  # (imported already: `expr` is its compiled expression)
    if fresh:
        reset_budget()
    try:
        value = expr(**scope)
        if isinstance(value, jinja2.Undefined):  # a bare name that is not there ('A4'):
            str(value)  # said now, as the name it is, not where the value is used
            raise CheckBroken(_("{field} cannot be evaluated: it names nothing defined",
                                field=field), field)
        return value
    except SandboxError as exc:
        raise CheckBroken(_("{field} cannot be evaluated: {exc}",
                            field=field, exc=exc), field) from None
    except RecursionError:
        raise CheckBroken(_("{field} nests too deeply", field=field), field) from None
    except jinja2.exceptions.SecurityError as exc:
        raise CheckBroken(_("{field} is not allowed: {exc}",
                            field=field, exc=in_words(exc)), field) from None
    except (jinja2.UndefinedError, TypeError, ValueError, ArithmeticError, KeyError,
            AttributeError, IndexError) as exc:
        raise CheckBroken(_("{field} cannot be evaluated: {in_words}",
                            field=field, in_words=in_words(exc)), field) from None


def _touches(item: Item, tainted: set) -> bool:
    """True if the item is, or binds, a card whose values have errors."""
    return any(isinstance(v, dict) and v.get("id") in tainted
               for v in (item.value, *item.bindings.values()))


def run_check(check: Invariant, values: dict, locators: dict, report: Report,
              declared: frozenset = frozenset(), cards: Mapping[int, str] = {}) -> None:
    """Run one check over its items. `declared`: the field names the decks declare (an
    `at:` naming one points at an optional field, which may be absent wherever it passes).
    `cards` (_cards_of): an item that is a card, or the data table entry a card was made
    from, is that card's problem (the preview marks the card)."""
    import jinja2  # (a game with checks: Jinja2 runs them)
    add = report.warning if check.level == "warning" else report.error
    tainted = report.tainted
    try:
        compiled = _compile(check)
        if check.for_path:
            try:
                items = list(walk(check.for_path, values, locators))
            except PathMissing as exc:
                raise CheckBroken(_("for: {exc}", exc=exc), "for", CheckBroken.WRITTEN) from None
        else:
            items = [Item(None, Locator(), False, {}, {})]
        broken_at, pointed, said = None, False, False  # a wrong `at:` is the check's mistake
        for item in items:
            if tainted and _touches(item, tainted):
                report.skip()  # its card's values have errors, reported at their cause
                continue
            scope = {**values, **item.bindings, "item": item.value}
            if "when" in compiled and not evaluate(compiled["when"], scope, "when"):
                continue
            try:
                where = _at(check, item, values, locators)
                pointed = True
            except CheckBroken as exc:  # said below if it fails here, or if it names nothing
                broken_at = broken_at or exc  # in any item (an optional key may be there
                where = None  # exactly where the check can fail: `at: m.split`)
            if evaluate(compiled["assert"], scope, "assert"):
                continue
            if tainted and not check.for_path:
                report.skip()  # a check of the whole game fails on values reported above
                continue
            if "message" in compiled:
                try:
                    reset_budget()
                    message = compiled["message"].render(scope)
                except (jinja2.TemplateError, SandboxError, TypeError, ValueError,
                        ArithmeticError, KeyError, AttributeError, IndexError,
                        RecursionError) as exc:
                    raise CheckBroken(_("message cannot be rendered: {in_words}",
                                        in_words=in_words(exc)),
                                      "message") from None
            else:
                message = f"check failed: {check.assertion}"
            if where is None:  # `at:` names nothing here: said, and the item pointed at
                if not said:
                    report.error(_("check '{check_name}': {broken_at}",
                                   check_name=check.name, broken_at=broken_at), check.locate("at"),
                                 check.name)
                    said = True
                where = _at(replace(check, at=None), item, values, locators)
            add(message, where, check.name,  # the designer's words, whatever `at:` says
                card=cards.get(id(item.value)))
        if broken_at is not None and not pointed and not said and \
                broken_at.missing not in declared:  # wrong wherever it looks (not a field a
            report.error(_("check '{check_name}': {broken_at}",
                           check_name=check.name,
                           broken_at=broken_at), check.locate("at"), check.name)
    except CheckBroken as exc:
        if tainted and exc.kind == CheckBroken.EVALUATING:
            report.skip()  # evaluating it met a value with errors: not the check's fault
            return
        report.error(_("check '{check_name}': {exc}",
                       check_name=check.name, exc=exc), check.locate(exc.field), check.name)


def run(game: Game, report: Report) -> None:
    if not game.checks:
        return
    values, locators = context(game)
    declared = frozenset(name for deck in game.decks for name in (deck.fields or {}))
    cards = _cards_of(game, values)
    for check in game.checks:
        run_check(check, values, locators, report, declared, cards)


def _cards_of(game: Game, values: dict) -> dict[int, str]:
    """id() of each value a check may go through that is a card: its record (in `cards`,
    `card`, `decks`), or the data table entry it was made from (`generate: from:`, found
    by the card's place in the table, whatever its id template): -> the card's id."""
    out: dict[int, str] = {}
    for record in [*values["cards"], *values["card"].values(),
                   *(c for d in values["decks"].values() for c in d["cards"])]:
        out[id(record)] = record["id"]
    tables = {id(source): name for name, source in game.data_sources.items()}
    for card in game.cards():
        entry: Any = values["data"].get(tables.get(id(card.source), ""))
        for part in card.path if entry is not None else ():
            ok = isinstance(entry, dict) and part in entry or isinstance(entry, list) and \
                isinstance(part, int) and 0 <= part < len(entry)
            entry = entry[part] if ok else None
            if entry is None:
                break
        if isinstance(entry, (dict, list)):
            out[id(entry)] = card.id
    return out
