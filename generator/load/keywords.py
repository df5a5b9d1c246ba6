"""The keywords cardgen's jsonschema validator checks in its own way (schema.Checker.full):
patterns matched by RE2 (patterns.py), and required keys whose errors say which key."""

from __future__ import annotations

import jsonschema

from ..i18n import _
from .patterns import PatternError, pattern


def pattern_keyword(validator, source, instance, schema):
    """jsonschema's `pattern` keyword, matched by RE2."""
    if not validator.is_type(instance, "string"):
        return
    try:
        matched = pattern(source).search(instance)
    except PatternError as exc:
        yield jsonschema.ValidationError(_("the pattern is not valid: {exc}", exc=exc))
        return
    if matched is None:
        yield jsonschema.ValidationError(_("{instance!r} does not match {source!r}",
                                           instance=instance, source=source))


class MissingKey(jsonschema.ValidationError):
    """A `required` error that carries the key it is about (jsonschema says it only in its
    English message): one for each key missing."""

    key: str = "?"


def required_keyword(validator, required, instance, schema):
    """jsonschema's `required` keyword, each error a MissingKey."""
    if not validator.is_type(instance, "object"):
        return
    for key in required:
        if key not in instance:
            error = MissingKey(f"{key!r} is a required property")
            error.key = key
            yield error
