"""Plain scalars read as YAML 1.2's core schema reads them, not as YAML 1.1 (PyYAML's
default): only true/false are booleans (`no`, `yes`, `on` and `off` stay text: Norway's
code is NO), integers are decimal without leading zeros (`0123` stays text, not octal
83; `1:30` stays text, not 90 in base 60; `0x1f` and `1_000` stay text), and a float
is written with a dot or an exponent (yamlfile.py's converter reads each scalar so)."""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from ..values import whole_number

_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE, _FALSE = ("true", "True", "TRUE"), ("false", "False", "FALSE")
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+")
_SPECIAL = {".inf": math.inf, ".Inf": math.inf, ".INF": math.inf, "+.inf": math.inf,
            "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf,
            ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan}
STR = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()


def resolved(event) -> str:
    """The tag PyYAML's (YAML 1.1) resolver gives a scalar event."""
    if event.tag not in (None, "!"):
        return event.tag
    return _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)


def scalar(event) -> Any:
    """A scalar's value. A plain scalar that YAML 1.1 takes for a number, boolean or null is
    read by YAML 1.2's rules instead (scalar_value); strings, timestamps and anything else
    stay text: a date in a card is words. A quoted scalar, or one tagged !!str, is text."""
    if event.style:
        return event.value
    if event.tag is not None:  # given: !!str, !!int, a tag of the user's, or ! (resolved)
        return event.value if resolved(event) == STR else scalar_value(event.value)
    value = scalar_value(event.value)
    if value.__class__ is float and resolved(event) == STR:
        return event.value  # YAML 1.1 reads 1e5 (no dot, no sign) as text: it stays text
    return value


_MAYBE_NOT_TEXT = frozenset("~nNtTfF+-.0123456789")  # how a null, boolean or number begins
NUMBER_START = frozenset("+-.0123456789")  # how a number begins (_INT, _FLOAT)


def scalar_value(text: str) -> Any:
    """A plain scalar by YAML 1.2's core schema (see _INT and _FLOAT)."""
    if text and text[0] not in _MAYBE_NOT_TEXT:
        return text
    if _NULL.fullmatch(text):
        return None
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    if _INT.fullmatch(text):
        number = whole_number(text)
        return text if number is None else number  # (too long: reported by the converter)
    if _FLOAT.fullmatch(text):
        return float(text)
    return _SPECIAL.get(text, text)


def infinite(event) -> bool:
    """Whether a plain scalar writes a number too large to be finite (1e999): only one that
    begins as a number can (_FLOAT)."""
    return not event.style and event.value[:1] in NUMBER_START and \
        _FLOAT.fullmatch(event.value) is not None and not math.isfinite(float(event.value))
