"""Check a located document against a JSON Schema and say what is wrong in words.

A document is checked first by the schema compiled into a check that says only yes or no
(accepts.py); only one it refuses is given to jsonschema (imported then), which finds the
problems; this module turns each one into a sentence that names the card or deck, the key,
and what was expected, at the value's location.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..i18n import _, said
from ..problems import Location, Report
from ..problems import suggest as suggest  # (where its callers have found it)
from ..units import OutOfRange
from ..values import abridged, out_of_range
from ..values import FORMATS as SCHEMA_FORMATS
from .accepts import Formats, compiled
from .schemafiles import _SCHEMA_NAMES as _SCHEMA_NAMES  # (where tests have found them)
from .schemafiles import DeclaredTwice as DeclaredTwice
from .schemafiles import _inline, _plugins, _registry_for, _schemas_for, lookup
from .schemafiles import element_keys as element_keys
from .yamlfile import Document

if TYPE_CHECKING:  # (jsonschema is imported where a document is refused: Checker.full)
    import jsonschema

# Given a key path, a short phrase naming what it is about ("card 'priest'"), or "".
Context = Callable[[tuple], str]


def _is_text_codec(value) -> bool:
    from .spreadsheet import text_codec
    return not isinstance(value, str) or text_codec(value) is not None


# The formats cardgen's schemas assert, each the one definition of its kind of value
# (values.FORMATS): `name` is the one rule for names that become paths. Each: (its check,
# the exceptions that say a value is not of it), for both checks (Checker).
FORMATS: Formats = {**{name: (format_.check, (OutOfRange,))
                       for name, format_ in SCHEMA_FORMATS.items()},
                    "text-encoding": (_is_text_codec, ())}
NAME_EXPECTED = SCHEMA_FORMATS["name"].expected


@lru_cache(maxsize=1)
def _jsonschema_validator() -> Any:
    """cardgen's jsonschema validator class, and its format checker (FORMATS)."""
    import jsonschema

    from .patterns import is_integer, is_number
    from .keywords import pattern_keyword, required_keyword
    checker = jsonschema.FormatChecker(formats=())
    for name, (check_, raises) in FORMATS.items():
        checker.checks(name, raises=raises)(check_)
    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"pattern": pattern_keyword, "required": required_keyword},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
            {"integer": is_integer, "number": is_number})), checker


class Checker:
    """A schema's two checks: `accepts`, compiled (accepts.py), which says only whether a
    value passes, and jsonschema's (`full`, made where a value does not), which says what
    is wrong (`iter_errors`)."""

    def __init__(self, schema: Any, plugins: tuple) -> None:
        self.schema = schema
        self.plugins = plugins
        schemas = _schemas_for(plugins)
        self.accepts = compiled(schema, "", lambda target: lookup(target, schemas), FORMATS)

    @cached_property
    def full(self) -> jsonschema.Validator:
        """jsonschema's validator of the schema (imported and made on first use)."""
        validator, format_checker = _jsonschema_validator()
        return validator(self.schema, registry=_registry_for(self.plugins),
                         format_checker=format_checker)

    def iter_errors(self, instance: Any) -> Iterator[jsonschema.ValidationError]:
        return self.full.iter_errors(instance)


def validator_for(name: str) -> Checker:
    return _validator_for(name, _plugins())


@lru_cache(maxsize=64)
def _validator_for(name: str, plugins: tuple) -> Checker:
    schemas = _schemas_for(plugins)
    return Checker(_inline(schemas[f"cardgen:{name}"], f"cardgen:{name}", schemas), plugins)


def make_validator(schema: dict) -> Checker:
    """A validator for a schema written in user data (deck field declarations)."""
    return Checker(schema, _plugins())


_TYPE_WORDS = {
    "string": _("text"),
    "integer": _("an integer"),
    "number": _("a number"),
    "boolean": _("true or false"),
    "array": _("a list"),
    "object": _("a mapping of keys to values"),
    "null": _("empty"),
}


NOUNS = {"card": _("card"), "deck": _("deck"), "element": _("element"), "check": _("check")}


def item_context(list_key: str, id_key: str, noun: str):
    """A Context for documents holding a list of named items: a path into item 3 of
    `cards` reads "card 'priest'" (or "card 4" while the item has no usable name)."""

    def context(path: tuple, data) -> str:
        if len(path) >= 2 and path[0] == list_key and isinstance(path[1], int):
            try:
                name = data[list_key][path[1]].get(id_key)
            except (AttributeError, IndexError, TypeError, KeyError):
                name = None
            noun_word = NOUNS.get(noun, noun)
            return _("{noun} '{name}'", noun=noun_word, name=name) if isinstance(name, str) \
                else _("{noun} {n}", noun=noun_word, n=path[1] + 1)
        return ""

    return context


def item_about(list_key: str, id_key: str, noun: str):
    """What a problem at a path into item 3 of `list_key` is about, as data: the item's id
    under `noun` ("card", "deck"; a Problem's field of that name) and the key inside it
    (`field`), as item_context words them; nothing while the item has no usable name."""

    def about(path: tuple, data) -> dict:
        if len(path) >= 2 and path[0] == list_key and isinstance(path[1], int):
            try:
                name = data[list_key][path[1]].get(id_key)
            except (AttributeError, IndexError, TypeError, KeyError):
                name = None
            if isinstance(name, str):
                return {noun: name, "field": str(path[2]) if len(path) > 2 else None}
        return {}

    return about


def type_word(value: Any) -> str:
    if isinstance(value, bool):
        return _TYPE_WORDS["boolean"]
    if isinstance(value, int):
        return _TYPE_WORDS["integer"]
    if isinstance(value, float):
        return _TYPE_WORDS["number"] if math.isfinite(value) else \
            _("infinity") if not math.isnan(value) else _("not a number (NaN)")
    if isinstance(value, str):
        return _TYPE_WORDS["string"]
    if isinstance(value, list):
        return _TYPE_WORDS["array"]
    if isinstance(value, dict):
        return _("a mapping")
    return _TYPE_WORDS["null"] if value is None else type(value).__name__


def _show(value: Any) -> str:
    if isinstance(value, str):
        return _("'{text}'", text=abridged(value))
    if isinstance(value, list):
        return _("a list of {n}", n=len(value)) if value else _("an empty list")
    if isinstance(value, dict):
        return type_word(value)
    if value is None:
        return _("nothing")
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return json.dumps(value)


def _field_name(path: tuple) -> str:
    names = [str(p) for p in path if not isinstance(p, int)]
    if not names:
        return _("the document")
    if isinstance(path[-1], int):
        return _("item {n} of {name}", n=path[-1] + 1, name=names[-1])
    return names[-1]


def _expected(error: jsonschema.ValidationError) -> str | None:
    if error.validator == "format" and error.validator_value in SCHEMA_FORMATS:
        return SCHEMA_FORMATS[error.validator_value].expected
    return error.schema.get("x-expected") if isinstance(error.schema, dict) else None


_EXPECTED_TEXT = re.compile(r'"x-expected":\s*("(?:[^"\\]|\\.)*")')


def extract(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the JSON schemas (babel.cfg, `make messages`): each
    `x-expected` text, at its line, so the catalogue translates what the schemas say a value
    must be. (The texts that Python modules give their schema parts are marked with N_.)"""
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        for match in _EXPECTED_TEXT.finditer(line):
            yield number, None, json.loads(match[1]), []


def missing_key(error) -> str:
    """The key a `required` error is about: jsonschema gives one error for each key missing,
    each with the whole list of keys required (its message names the one: two keys missing
    from one mapping are two problems, not the first twice)."""
    from .keywords import MissingKey
    if isinstance(error, MissingKey):
        return error.key
    inst = error.instance
    missing = [r for r in error.validator_value if isinstance(inst, dict) and r not in inst]
    return (missing or ["?"])[0]


def unknown_key(error) -> tuple[str, str | None, list[str]]:
    """(the key, the allowed key it is closest to or None, the allowed keys) of an
    `additionalProperties` error."""
    inst = error.instance
    allowed = sorted(error.schema.get("properties", {}))
    extra = [k for k in inst if k not in allowed] if isinstance(inst, dict) else []
    key = extra[0] if extra else "?"
    hint = difflib.get_close_matches(key, allowed, n=1)
    return key, hint[0] if hint else None, allowed


def _missing_key(error, path: tuple, expected) -> tuple[str, tuple, bool]:
    return _("missing required key '{key}'", key=missing_key(error)), path, False


def _unknown_key(error, path: tuple, expected) -> tuple[str, tuple, bool]:
    key, hint, allowed = unknown_key(error)
    renamed = (error.schema.get("x-renamed") or {}).get(key)  # a change of the format
    if renamed:
        msg = _("unknown key '{key}': cardgen {version} renamed it to '{new}' (CHANGELOG.md "
                "says how to mend an older game)", key=key, version=renamed["in"],
                new=renamed["to"])
    elif hint:
        msg = _("unknown key '{key}' (did you mean '{hint}'?)", key=key, hint=hint)
    elif allowed:
        msg = _("unknown key '{key}' (allowed: {allowed})", key=key, allowed=", ".join(allowed))
    else:
        msg = _("unknown key '{key}'", key=key)
    return msg, path + (key,), True


def unevaluated_keys(error) -> list[str]:
    """The keys of an `unevaluatedProperties` error's mapping that no part of its schema
    takes: neither its own `properties` nor those of an `allOf` rule whose `if` holds (an
    element type's, a board shape's), in the order jsonschema names them."""
    inst = error.instance if isinstance(error.instance, dict) else {}
    schema = error.schema if isinstance(error.schema, dict) else {}
    taken = set(schema.get("properties", {}))
    for rule in schema.get("allOf", ()):
        condition = rule.get("if", {}).get("properties", {}) if isinstance(rule, dict) else {}
        if condition and all(isinstance(want, dict) and "const" in want and
                             inst.get(key) == want["const"] for key, want in condition.items()):
            taken |= set(rule.get("then", {}).get("properties", {}))
    return sorted((k for k in inst if k not in taken), key=str)


def _unevaluated_key(error, path: tuple, expected) -> tuple[str, tuple, bool]:
    """A key no part of a per-kind schema took: not a key of this element type or shape."""
    inst = error.instance
    found = unevaluated_keys(error)
    key = found[0] if found else "?"
    kind = inst.get("type") if isinstance(inst, dict) else None
    shape = inst.get("shape") if isinstance(inst, dict) else None
    if isinstance(kind, str):
        msg = _("unknown key '{key}' (not a key of a {kind} element)", key=key, kind=kind)
    elif isinstance(shape, str):
        msg = _("unknown key '{key}' (not a key of a {shape} board)", key=key, shape=shape)
    else:
        msg = _("unknown key '{key}'", key=key)
    return msg, path + (key,), True


def _bad_key_name(error, path: tuple, expected) -> tuple[str, tuple, bool]:
    return _("key {key} must be {expected}", key=_show(error.instance),
             expected=expected or _("a valid name")), path, True


# Errors about a mapping's keys: (error, path, expected) -> (message, path, at the key).
_KEY_ERRORS = {"required": _missing_key, "additionalProperties": _unknown_key,
               "unevaluatedProperties": _unevaluated_key, "propertyNames": _bad_key_name}


def _types(error) -> str:
    types = error.validator_value if isinstance(error.validator_value, list) \
        else [error.validator_value]
    wants = [_TYPE_WORDS.get(t, t) for t in types]
    want = wants[0] if len(wants) == 1 else _("{one} or {other}", one=wants[0],
                                                other=wants[1]) if len(wants) == 2 \
        else " or ".join(map(str, wants))
    kind = type_word(error.instance)
    if isinstance(error.instance, (list, dict)):  # its kind is all there is to show
        return _("must be {want}, not {kind}", want=want, kind=kind)
    return _("must be {want}, not {kind} ({value})", want=want, kind=kind,
             value=_show(error.instance))


def _length(error) -> str:
    n = error.validator_value
    return _("must not be empty") if n == 1 else _("must be at least {n} characters long", n=n)


def _items(error) -> str:
    n = error.validator_value
    return _("must not be empty") if n == 1 else _("must have at least {n} items", n=n)


def _repeated(items) -> str:
    seen = []
    for item in items if isinstance(items, list) else ():
        if item in seen:
            return _show(item)
        seen.append(item)
    return _("an item")


def _range(error) -> str:
    """A number out of its range, in the one wording of values.out_of_range, from the
    schema the error names (both its ends where it has both)."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    return out_of_range(_show(error.instance), schema.get("minimum"), schema.get("maximum"))


# What a value must be, by the keyword it failed: error -> the words after its name.
_VALUE_WORDS = {
    "type": _types,
    "enum": lambda e: _("must be one of {choices}, not {value}",
                        choices=", ".join(str(o) for o in e.validator_value),
                        value=_show(e.instance)),
    "const": lambda e: _("must be {want}, not {value}", want=_show(e.validator_value),
                         value=_show(e.instance)),
    "minimum": lambda e: _range(e),
    "maximum": lambda e: _range(e),
    "exclusiveMinimum": lambda e: _("must be more than {low}, not {value}",
                                    low=e.validator_value, value=_show(e.instance)),
    "exclusiveMaximum": lambda e: _("must be less than {high}, not {value}",
                                    high=e.validator_value, value=_show(e.instance)),
    "minLength": _length,
    "maxLength": lambda e: _("must be at most {n} characters long", n=e.validator_value),
    "pattern": lambda e: _("must match the pattern {pattern}, not {value}",
                           pattern=e.validator_value, value=_show(e.instance)),
    "minItems": _items,
    "maxItems": lambda e: _("must have at most {n} items", n=e.validator_value),
    "uniqueItems": lambda e: _("must not repeat an item ({item} is there twice)",
                               item=_repeated(e.instance)),
    "minProperties": lambda e: _("must not be empty"),
    "maxProperties": lambda e: _("must have at most {n} entries, not {found:,}",
                                 n=e.validator_value, found=len(e.instance)),
}
# Keywords whose failure a schema's own `x-expected` words say best.
_SAID_BY_EXPECTED = ("pattern", "format", "type", "oneOf", "anyOf", "enum", "minItems",
                     "maxItems")


def describe(error: jsonschema.ValidationError) -> tuple[str, tuple, bool]:
    """(message, path, point-at-key) for one schema error."""
    path = tuple(error.absolute_path)
    name = _field_name(path)
    v = error.validator
    expected = _expected(error)
    if v in _KEY_ERRORS:
        return _KEY_ERRORS[v](error, path, expected)
    if v == "format" and isinstance(error.cause, OutOfRange):
        return _("{name}: {cause}", name=name, cause=said(error.cause)), path, False
    if expected and v in _SAID_BY_EXPECTED:
        return _("{name} must be {expected}, not {value}", name=name, expected=expected,
                 value=_show(error.instance)), path, False
    if v in _VALUE_WORDS:
        return _("{name} {words}", name=name, words=_VALUE_WORDS[v](error)), path, False
    return _("{name}: {cause}", name=name, cause=error.message), path, False


def _specific(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors that say most. For a oneOf/anyOf, the most specific sub-error says more
    than "is not valid"; and where a branch took the value's shape and found keys inside it
    wrong (a mapping where a mapping may stand), each of those keys' errors, once."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    from jsonschema.exceptions import best_match
    deeper: dict[tuple, list] = {}
    for sub in error.context:
        if len(sub.absolute_path) > len(error.absolute_path):
            deeper.setdefault(tuple(sub.absolute_path), []).append(sub)
    if deeper:
        return [best_match(subs) for _, subs in sorted(
            deeper.items(), key=lambda item: list(map(str, item[0])))]
    # A mapping where a mapping may stand, with a key unknown or missing: that key's error
    # (unknown key 'margins'), not "must be a preset id or a mapping".
    keyed = [sub for sub in error.context if sub.validator in ("additionalProperties", "required")
             and isinstance(sub.instance, dict) and sub.instance is error.instance]
    if keyed:
        return keyed
    if _expected(error):
        return [error]
    return [best_match(error.context)]


Locate = Callable[[tuple, bool], Location]  # (path, at-key) -> location
Ignore = Callable[["jsonschema.ValidationError"], bool]
About = Callable[[tuple], dict]  # path -> what a problem there is about (Problem's card, ...)


def report_errors(instance: Any, validator: Checker, report: Report, locate: Locate,
                  context: Context, check_name: str = "schema", ignore: Ignore | None = None,
                  paths: list | None = None, errors: list | None = None,
                  about: About | None = None, renumbered: Callable | None = None) -> bool:
    """Report every schema error of `instance`; `locate` maps a key path inside it to a
    location; `paths`, if given, receives the path of every error, and `errors` each error
    reported, in the order of the problems (what a problem is about, without reading its
    words); `about` gives, for a path, what the problem is about (`card=`, `field=`: see
    item_about); `renumbered`, the errors as the document has them, where the instance is
    a part of it (reread.Only). Returns True when it is clean."""
    if validator.accepts(instance):  # (the usual case: jsonschema is not asked)
        return True
    found = validator.iter_errors(instance)
    every = sorted(found if renumbered is None else renumbered(found),
                   key=lambda e: list(map(str, e.absolute_path)))
    # A key whose value is wrong is also "unevaluated" by a per-type schema: say it once.
    wrong = {tuple(e.absolute_path) for e in every if e.validator != "unevaluatedProperties"}
    # A value the reader already refused where it is (yamlfile: a character that is not
    # text, a number too large to be finite or of too many digits): its other faults (an
    # id's pattern, the empty value left in its place) follow from it, and are not said again.
    told = {p.location for p in report.errors} if every else set()
    clean = True
    for found in every:
        if found.validator == "unevaluatedProperties" and any(
                tuple(found.absolute_path) + (k,) in wrong for k in (found.instance or {})):
            continue
        for error in _specific(found):
            if ignore is not None and ignore(error):
                continue
            clean = False
            message, path, at_key = describe(error)
            if paths is not None:
                paths.append(tuple(error.absolute_path))
            if errors is not None:
                errors.append(error)
            where, place = context(path), locate(path, at_key)
            if place in told:
                continue
            report.error(_("{where}: {message}", where=where, message=message) if where
                         else message, place, check_name, **(about(path) if about else {}))
    return clean


def check(doc: Document, validator: Checker, report: Report, context: Context,
          paths: list | None = None, about: About | None = None) -> bool:
    """Report every schema error of a whole document (`paths`, `about`: see report_errors)."""
    return report_errors(doc.data, validator, report, lambda p, key: doc.locate(p, key), context,
                         paths=paths, about=about)
