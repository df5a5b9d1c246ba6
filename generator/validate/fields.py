"""Card fields checked against the deck's declarations, through JSON Schema.

A deck declares its fields in game.yaml (type, required, enum, range, pattern,
list items); the declaration is translated to a JSON Schema once per deck and
jsonschema checks every card. A TBD value is a draft: it is left out of the
schema check (a required field that is TBD is not missing), and reported as a
warning by the draft check.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..load.patterns import PatternError, pattern
from ..load.schema import NOUNS, make_validator, missing_key, report_errors, unknown_key
from ..model import CARD_KEYS, TBD, Card, Deck, Game
from ..problems import Problem, Report
from ..i18n import N_, _

NAME = "fields"
NAMES = ("schema", "reference")
ORDER = 40
DOC = N_("every card's fields against its deck's declared fields (types, required, choices, "
         "ranges, patterns); a field of type card names a card")

JSON_TYPE = {"text": "string", "integer": "integer", "number": "number", "boolean": "boolean",
             "list": "array", "mapping": "object", "card": "string"}
RENAMED = {"min_items": "minItems", "max_items": "maxItems"}
BUILT_IN = (*CARD_KEYS, "deck")  # keys cardgen itself gives every card


def field_schema(decl: Mapping[str, Any]) -> dict:
    schema: dict[str, Any] = {}
    if "type" in decl:
        schema["type"] = JSON_TYPE[decl["type"]]
    for key in ("enum", "minimum", "maximum", "pattern", "min_items", "max_items"):
        if key in decl:
            schema[RENAMED.get(key, key)] = decl[key]
    if "items" in decl:
        schema["items"] = field_schema(decl["items"])
    if "fields" in decl:  # a mapping with declared keys
        schema["properties"] = {k: field_schema(d) for k, d in decl["fields"].items()}
        schema["required"] = [k for k, d in decl["fields"].items() if d.get("required")]
        schema["additionalProperties"] = False
    return schema


def deck_schema(fields: Mapping[str, Any], blank: bool) -> dict:
    return {
        "type": "object",
        "properties": {**{k: {} for k in BUILT_IN},
                       **{k: field_schema(d) for k, d in fields.items()}},
        "required": [] if blank else [k for k, d in fields.items() if d.get("required")],
        "additionalProperties": False,
    }


def _bad_patterns(deck: Deck, report: Report) -> bool:
    bad = False

    def visit(decl: Mapping[str, Any], path: tuple) -> None:
        nonlocal bad
        if "pattern" in decl:
            try:
                pattern(decl["pattern"])
            except PatternError as exc:
                bad = True
                report.error(_("deck '{deck_id}': the pattern of field '{path}' is not a valid "
                               "regular expression: {exc}",
                                   deck_id=deck.id, path=path[0], exc=exc),
                             deck.source.locate(deck.path + ("fields",) + path + ("pattern",)),
                             "schema")
        if "items" in decl:
            visit(decl["items"], path + ("items",))
        for key, sub in (decl.get("fields") or {}).items():
            visit(sub, path + ("fields", key))

    for name, decl in (deck.fields or {}).items():
        visit(decl, (name,))
    return bad


def _references(card: Card, decl: Mapping[str, Any], value: Any, path: tuple, ids: set[str],
                report: Report) -> None:
    """Values of `card` fields refer to cards that exist."""
    if value == TBD:
        return
    if decl.get("type") == "card" and isinstance(value, str) and value not in ids:
        report.error(_("card '{card_id}': {path} refers to unknown card '{value}'",
                       card_id=card.id, path=path[0], value=value),
                     card.locate(*path), "reference", card=card.id, deck=card.deck,
                     field=str(path[0]))
    elif decl.get("type") == "list" and "items" in decl and isinstance(value, list):
        for i, item in enumerate(value):
            _references(card, decl["items"], item, path + (i,), ids, report)


def run(game: Game, report: Report) -> None:
    ids = {c.id for c in game.cards()}
    for deck in game.decks:
        if deck.fields is None or _bad_patterns(deck, report):
            continue
        validators = {blank: make_validator(deck_schema(deck.fields, blank))
                      for blank in (False, True)}
        found: list[tuple[Card, Problem, tuple]] = []  # (card, problem, _about its error)
        for card in deck.cards:
            drafts = set(card.drafts())
            instance = {k: v for k, v in card.record().items() if v != TBD}

            def is_draft(error, drafts=drafts) -> bool:
                return error.validator == "required" and all(
                    r in drafts or r in error.instance for r in error.validator_value)

            mine = Report()
            errors: list = []  # jsonschema's errors, in the order of the problems
            # (the callbacks run during the call: the loop's card is the one checked)
            if not _drafts_only(card, instance, drafts, validators):
                report_errors(instance, validators[card.blank], mine,
                              lambda p, key: card.locate(*p, key=key),
                              lambda p: "", ignore=is_draft, errors=errors,  # (the card: below)
                              about=lambda p: {"field": str(p[0])} if p else {})
            if mine.problems:
                report.taint(card.id)  # later stages skip what uses its values
            found += [(card, p, _about(e)) for p, e in zip(mine.problems, errors)]
            for name, decl in deck.fields.items():
                if name in card.fields:
                    _references(card, decl, card.fields[name], (name,), ids, report)
        _report_once(deck, found, report)


def _drafts_only(card: Card, instance: dict, drafts: set, validators: dict) -> bool:
    """Whether all that the schema check would find in a card with drafts is required fields
    left out because they are TBD (each an error that is_draft passes over): the rest of it
    passes the schema without its required fields (a blank card's), and every required
    field is there or a draft. Such a card is not given to jsonschema (Checker.accepts)."""
    if card.blank or not drafts:
        return False
    return all(r in drafts or r in instance for r in validators[False].schema["required"]) \
        and validators[True].accepts(instance)


def _about(error) -> tuple:
    """What a schema error of a card is about, as its kind rather than its words: a key
    that is close to a field ("meant", the key, the field), a field missing ("missing", the
    field), or something else ()."""
    if error.validator == "additionalProperties":
        key, hint, _unused = unknown_key(error)
        return ("meant", key, hint) if hint else ()
    if error.validator == "required":
        return ("missing", missing_key(error))
    return ()


def _report_once(deck: Deck, found: list, report: Report) -> None:
    """Report each problem once, at its cause. A problem that many cards share at one place
    (a spreadsheet's header cell: a misspelt column) is reported there once, not per card;
    and a required field that every card misses because its column is misspelt is that
    same problem, not one more per card."""
    by_place: dict[tuple, list] = {}
    fields = {}  # the field a problem at a place is about
    for card, problem, about in found:
        fields[problem.location] = problem.field
        rest = problem.message
        by_place.setdefault((problem.location, rest, problem.level, problem.check, about),
                            []).append(card)
    meant = {(c.id, about[2]) for (*_, about), cards in by_place.items()
             if about[:1] == ("meant",) for c in cards}  # what a misspelt key stands for
    every = [c for c in deck.cards if not c.blank]  # the cards a required field is asked of
    lacking: dict[str, list] = {}  # a required field: the cards that lack it
    for (_location, _rest, _level, _check, about), cards in by_place.items():
        if about[:1] == ("missing",):
            lacking.setdefault(about[1], []).extend(
                c for c in cards if (c.id, about[1]) not in meant)
    for name, cards in lacking.items():  # no card has it: one cause, said once
        if len(cards) > 1 and len({c.id for c in cards}) == len(every):
            report.error(_("deck '{deck}': none of its {n} cards has field '{field}', which "
                           "it requires; give it to each card, or make it not required",
                           deck=deck.id, n=len(every), field=name),
                         deck.source.locate(deck.path + ("fields", name)), "schema",
                         deck=deck.id, field=name)
    for (location, rest, level, check, about), cards in by_place.items():
        if about[:1] == ("missing",):
            cards = [c for c in cards if (c.id, about[1]) not in meant]  # the typo says it
            if not cards or len(lacking[about[1]]) == len(every) > 1:
                continue
        if len(cards) > 1:
            if about[:1] == ("meant",):
                rest = _("column '{column}' is not a field of deck '{deck}' (did you mean "
                         "'{hint}'?)", column=about[1], deck=deck.id, hint=about[2])
            else:
                rest = _("{message} ({n} cards: {ids})", message=rest, n=len(cards),
                         ids=", ".join(c.id for c in cards[:3]) + (", ..." if len(cards) > 3
                                                                   else ""))
            report.add(level, rest, location, check, deck=deck.id, field=fields[location])
        else:
            card = _("{noun} '{name}'", noun=NOUNS["card"], name=cards[0].id)
            report.add(level, _("{where}: {message}", where=card, message=rest), location,
                       check, card=cards[0].id, deck=deck.id, field=fields[location])
