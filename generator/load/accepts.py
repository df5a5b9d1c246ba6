"""A schema compiled into a check that only says yes or no, as jsonschema would.

Most documents are clean: a deck of 10,000 cards passes its schema every build, and
jsonschema (its import, and its walk over every value) costs more than the rest of the
check. `compiled(schema, lookup, formats)` makes, once per schema, a function of closures
that answers whether a value passes: the same keywords with the same meaning as cardgen's
jsonschema validator (schema.py: Draft 2020-12, patterns matched by RE2, an integer that is
not a bool, a number that is finite, cardgen's formats). Only a value it refuses is given
to jsonschema, which finds each problem and says it in words (schema.report_errors): the
messages are jsonschema's, as ever.

It says yes only where it is sure: a keyword it does not know (one our schemas do not use),
a keyword's value of an odd kind, or any exception while checking make it say no, and
jsonschema decides. tests/test_accepts.py checks that the two agree on many values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized
from typing import Any, Callable

from .patterns import PatternError, is_integer, is_number, pattern

Check = Callable[[Any], bool]
# (a schema's $ref, absolute) -> (its contents, their base), or raises LookupError
Lookup = Callable[[str], tuple[Any, str]]
# a format's name -> (its check, the exceptions that say a value is not of it)
Formats = Mapping[str, tuple[Callable[[Any], Any], tuple[type[BaseException], ...]]]

# Draft 2020-12's validation keywords (jsonschema's Draft202012Validator.VALIDATORS): any
# other key of a schema is a note (x-expected, title, $defs) that neither check reads.
KEYWORDS = frozenset((
    "$dynamicRef", "$ref", "additionalProperties", "allOf", "anyOf", "const", "contains",
    "dependentRequired", "dependentSchemas", "enum", "exclusiveMaximum", "exclusiveMinimum",
    "format", "if", "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems",
    "minLength", "minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern",
    "patternProperties", "prefixItems", "properties", "propertyNames", "required", "type",
    "unevaluatedItems", "unevaluatedProperties", "uniqueItems"))


def _is_string(value) -> bool:
    return isinstance(value, str)


def _is_integer(value) -> bool:
    return is_integer(None, value)


def _is_number(value) -> bool:
    return is_number(None, value)


def _is_boolean(value) -> bool:
    return isinstance(value, bool)


def _is_null(value) -> bool:
    return value is None


def _is_array(value) -> bool:
    return isinstance(value, list)


def _is_object(value) -> bool:
    return isinstance(value, dict)


TYPES: dict[str, Check] = {"string": _is_string, "integer": _is_integer, "number": _is_number,
                           "boolean": _is_boolean, "null": _is_null, "array": _is_array,
                           "object": _is_object}


def _yes(value) -> bool:
    return True


def _no(value) -> bool:
    return False


class _Unsure(Exception):
    """A schema this does not compile: jsonschema decides every value."""


def _unbool(element, true=object(), false=object()):
    """True and 1, False and 0 told apart (jsonschema's _utils.unbool)."""
    if element is True:
        return true
    if element is False:
        return false
    return element


def equal(one, two) -> bool:
    """jsonschema's equality (enum, const): True is not 1, in lists and mappings too."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(i, j) for i, j in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(key in two and equal(value, two[key])
                                            for key, value in one.items())
    return bool(_unbool(one) == _unbool(two))


def unique(container) -> bool:
    """No two items equal (jsonschema's _utils.uniq, by the same steps)."""
    try:
        ordered = sorted(_unbool(i) for i in container)
        return not any(equal(i, j) for i, j in zip(ordered, ordered[1:]))
    except (NotImplementedError, TypeError):
        seen: list = []
        for item in container:
            item = _unbool(item)
            if any(equal(i, item) for i in seen):
                return False
            seen.append(item)
    return True


def _number(value) -> Any:
    if not is_number(None, value):
        raise _Unsure
    return value


def _count(value) -> int:
    if not is_integer(None, value):
        raise _Unsure
    return value


class _Compiler:
    def __init__(self, lookup: Lookup, formats: Formats):
        self.lookup = lookup
        self.formats = formats
        self.refs: dict[str, list[Check]] = {}  # a $ref's target -> [its check], once made
        self.evaluated_refs: dict[str, list] = {}

    def check(self, schema: Any, base: str) -> Check:
        if schema is True:
            return _yes
        if schema is False:
            return _no
        if not isinstance(schema, dict):
            raise _Unsure
        unknown = [key for key in schema if key in KEYWORDS and key not in _MAKERS]
        if unknown:
            raise _Unsure  # (a keyword our schemas do not use: jsonschema's alone)
        checks = [made for key, make in _MAKERS.items() if key in schema
                  for made in [make(self, schema[key], schema, base)] if made is not _yes]
        if not checks:
            return _yes
        if len(checks) == 1:
            return checks[0]
        return _all_of(checks)

    def ref(self, target: str, base: str) -> Check:
        """The check of a $ref's target."""
        return self._referred(self.refs, target, base, self.check)

    def _referred(self, made: dict[str, list], ref: str, base: str,
                  make: Callable[[Any, str], Callable]) -> Callable:
        """What `make` makes of a $ref's target, made once (a schema may refer to itself):
        `made` keeps it by its target."""
        target = f"{base}{ref}" if ref.startswith("#") else ref
        cell = made.get(target)
        if cell is None:
            cell = made[target] = []
            try:
                contents, where = self.lookup(target)
            except LookupError:
                raise _Unsure from None
            cell.append(make(contents, where))
        return lambda value: cell[0](value)

    def evaluated(self, schema: Any, base: str) -> Callable[[dict], set]:
        """The keys of a mapping that `schema` evaluates (for unevaluatedProperties), as
        jsonschema's _utils.find_evaluated_property_keys_by_schema finds them."""
        if not isinstance(schema, dict):
            return _nothing
        parts: list[Callable[[dict], Any]] = []
        ref = schema.get("$ref")
        if isinstance(ref, str):
            parts.append(self._referred(self.evaluated_refs, ref, base, self.evaluated))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            parts.append(_named(properties))
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            if schema.get(keyword) is not None:
                parts.append(_passing(self.check(schema[keyword], base)))
        for keyword in ("allOf", "oneOf", "anyOf"):
            for subschema in schema.get(keyword, []):
                parts.append(_where(self.check(subschema, base), self.evaluated(subschema, base)))
        if "if" in schema:
            parts.append(_conditional(
                self.check(schema["if"], base), self.evaluated(schema["if"], base),
                self.evaluated(schema["then"], base) if "then" in schema else _nothing,
                self.evaluated(schema["else"], base) if "else" in schema else _nothing))

        def keys(instance: dict) -> set:
            found: set = set()
            for part in parts:
                found.update(part(instance))
            return found

        return keys


def _nothing(instance: dict) -> set:
    return set()


def _named(properties: dict) -> Callable[[dict], Any]:
    return lambda instance: properties.keys() & instance.keys()


def _passing(sub: Check) -> Callable[[dict], Any]:
    return lambda instance: [key for key, value in instance.items() if sub(value)]


def _where(sub: Check, found: Callable[[dict], set]) -> Callable[[dict], Any]:
    return lambda instance: found(instance) if sub(instance) else ()


def _conditional(condition: Check, when: Callable[[dict], set], then: Callable[[dict], set],
                 other: Callable[[dict], set]) -> Callable[[dict], Any]:
    return lambda instance: when(instance) | then(instance) if condition(instance) \
        else other(instance)


def _all_of(checks: list[Check]) -> Check:
    def every(value) -> bool:
        for one in checks:
            if not one(value):
                return False
        return True

    return every


def _type(compiler: _Compiler, types, schema, base) -> Check:
    names = [types] if isinstance(types, str) else types
    if not isinstance(names, list) or not all(isinstance(n, str) and n in TYPES for n in names):
        raise _Unsure
    if len(names) == 1:
        return TYPES[names[0]]
    found = [TYPES[n] for n in names]
    return lambda value: any(one(value) for one in found)


def _enum(compiler: _Compiler, choices, schema, base) -> Check:
    if not isinstance(choices, (list, tuple)):
        raise _Unsure
    texts = frozenset(c for c in choices if isinstance(c, str))

    def among(value) -> bool:
        if isinstance(value, str):  # (text equals only text)
            return value in texts
        return any(equal(c, value) for c in choices)

    return among


def _const(compiler: _Compiler, want, schema, base) -> Check:
    return lambda value: equal(value, want)


def _size(kind: type[Sized], at_least: bool):
    """minLength and maxLength (`kind` str), minItems and maxItems (list), minProperties
    and maxProperties (dict): each counts only a value of its kind."""
    def make(compiler: _Compiler, n, schema, base) -> Check:
        n = _count(n)
        if at_least:
            return lambda value: not isinstance(value, kind) or len(value) >= n
        return lambda value: not isinstance(value, kind) or len(value) <= n
    return make


def _bound(compare: Callable[[Any, Any], bool]):
    def make(compiler: _Compiler, limit, schema, base) -> Check:
        limit = _number(limit)
        return lambda value: not is_number(None, value) or compare(value, limit)
    return make


def _pattern(compiler: _Compiler, source, schema, base) -> Check:
    if not isinstance(source, str):
        raise _Unsure
    try:
        search = pattern(source).search
    except PatternError:
        raise _Unsure from None
    return lambda value: not isinstance(value, str) or search(value) is not None


def _format(compiler: _Compiler, name, schema, base) -> Check:
    if not isinstance(name, str):
        raise _Unsure
    if name not in compiler.formats:
        return _yes  # (a format cardgen does not assert)
    test, raises = compiler.formats[name]

    def conforms(value) -> bool:
        try:
            return bool(test(value))
        except raises:
            return False

    return conforms


def _unique(compiler: _Compiler, flag, schema, base) -> Check:
    if not flag:
        return _yes
    return lambda value: not isinstance(value, list) or unique(value)


def _required(compiler: _Compiler, keys, schema, base) -> Check:
    if not isinstance(keys, list):
        raise _Unsure
    if len(keys) == 1:
        key = keys[0]
        return lambda value: not isinstance(value, dict) or key in value
    return lambda value: not isinstance(value, dict) or all(k in value for k in keys)


def _properties(compiler: _Compiler, properties, schema, base) -> Check:
    """`properties` and `additionalProperties` together: one look at each key."""
    if not isinstance(properties, dict) or "patternProperties" in schema:
        raise _Unsure  # (patternProperties is not compiled: jsonschema's alone)
    subs = {key: compiler.check(sub, base) for key, sub in properties.items()}
    extra = schema.get("additionalProperties", True)
    # a mapping is a schema for every other key; otherwise, any other key is refused
    # where the value is false (jsonschema: `not aP`)
    other = compiler.check(extra, base) if isinstance(extra, dict) else _yes if extra else _no
    if other is _yes:  # only the keys with a check of their own are looked at
        named = [(key, sub) for key, sub in subs.items() if sub is not _yes]
        if not named:
            return _yes

        def named_keys(value) -> bool:
            if not isinstance(value, dict):
                return True
            for key, sub in named:
                if key in value and not sub(value[key]):
                    return False
            return True

        return named_keys
    get = subs.get

    def every_key(value) -> bool:
        if not isinstance(value, dict):
            return True
        for key, item in value.items():
            if not get(key, other)(item):
                return False
        return True

    return every_key


def _additional(compiler: _Compiler, extra, schema, base) -> Check:
    """`additionalProperties` without `properties` (with them: _properties)."""
    if "properties" in schema:
        return _yes
    return _properties(compiler, {}, schema, base)


def _items(compiler: _Compiler, items, schema, base) -> Check:
    if "prefixItems" in schema:
        raise _Unsure
    sub = compiler.check(items, base)
    if sub is _yes:
        return _yes
    return lambda value: not isinstance(value, list) or all(map(sub, value))


def _property_names(compiler: _Compiler, names, schema, base) -> Check:
    sub = compiler.check(names, base)
    return lambda value: not isinstance(value, dict) or all(map(sub, value))


def _all(compiler: _Compiler, schemas, schema, base) -> Check:
    if not isinstance(schemas, list):
        raise _Unsure
    return _all_of([compiler.check(s, base) for s in schemas])


def _any(compiler: _Compiler, schemas, schema, base) -> Check:
    if not isinstance(schemas, list):
        raise _Unsure
    subs = [compiler.check(s, base) for s in schemas]
    return lambda value: any(sub(value) for sub in subs)


def _one(compiler: _Compiler, schemas, schema, base) -> Check:
    if not isinstance(schemas, list):
        raise _Unsure
    subs = [compiler.check(s, base) for s in schemas]
    return lambda value: sum(1 for sub in subs if sub(value)) == 1


def _not(compiler: _Compiler, other, schema, base) -> Check:
    sub = compiler.check(other, base)
    return lambda value: not sub(value)


def _if(compiler: _Compiler, condition, schema, base) -> Check:
    test = compiler.check(condition, base)
    then = compiler.check(schema["then"], base) if "then" in schema else _yes
    other = compiler.check(schema["else"], base) if "else" in schema else _yes
    return lambda value: then(value) if test(value) else other(value)


def _ref(compiler: _Compiler, target, schema, base) -> Check:
    if not isinstance(target, str):
        raise _Unsure
    return compiler.ref(target, base)


def _unevaluated(compiler: _Compiler, rest, schema, base) -> Check:
    sub = compiler.check(rest, base)
    found = compiler.evaluated(schema, base)

    def evaluated(value) -> bool:
        if not isinstance(value, dict):
            return True
        taken = found(value)
        return all(sub(item) for key, item in value.items() if key not in taken)

    return evaluated


_Maker = Callable[[_Compiler, Any, dict, str], Check]
_MAKERS: dict[str, _Maker] = {
    "type": _type, "enum": _enum, "const": _const,
    "minLength": _size(str, True), "maxLength": _size(str, False),
    "minItems": _size(list, True), "maxItems": _size(list, False),
    "minProperties": _size(dict, True), "maxProperties": _size(dict, False),
    "minimum": _bound(lambda v, n: v >= n), "maximum": _bound(lambda v, n: v <= n),
    "exclusiveMinimum": _bound(lambda v, n: v > n), "exclusiveMaximum": _bound(lambda v, n: v < n),
    "pattern": _pattern, "format": _format, "uniqueItems": _unique, "required": _required,
    "properties": _properties, "additionalProperties": _additional, "items": _items,
    "propertyNames": _property_names, "allOf": _all, "anyOf": _any, "oneOf": _one, "not": _not,
    "if": _if, "$ref": _ref, "unevaluatedProperties": _unevaluated,
}


def compiled(schema: Any, base: str, lookup: Lookup, formats: Formats) -> Check:
    """`schema` (its $refs relative to `base`, found by `lookup`) as a check that says True
    only for a value that jsonschema finds no error in; False where it finds one, and where
    this cannot be sure (jsonschema decides)."""
    try:
        check = _Compiler(lookup, formats).check(schema, base)
    except _Unsure:
        return _no

    def accepts(value) -> bool:
        try:
            return check(value)
        except Exception:  # (jsonschema decides, and raises or says it as it does today)
            return False

    return accepts
