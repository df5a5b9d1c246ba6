"""Patterns (in schemas and in the field declarations of decks) matched in linear time, and
what an integer and a number are, for both schema checks (accepts.py, and jsonschema's:
keywords.py)."""

from __future__ import annotations

import math
from functools import lru_cache

import re2

from ..i18n import _

# Patterns (ours, and those a deck declares for its fields) are matched by RE2, in time
# linear in the text whatever the pattern: no pattern can hang a run (Python's `re`
# backtracks, and `(a+)+$` on a long text takes years). RE2 has no backreferences or
# lookaround; a pattern that uses them is reported as not supported.
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # the reason goes into our message, not to stderr
_RE2_OPTIONS.max_mem = 8 << 20  # a pattern that needs more than 8 MB to compile is refused


class PatternError(ValueError):
    """A pattern RE2 cannot compile; the message says why in words."""


@lru_cache(maxsize=1024)
def pattern(source: str):
    """A compiled pattern, matched in linear time."""
    try:
        return re2.compile(source, _RE2_OPTIONS)
    except re2.error as exc:
        why = exc.args[0].decode("utf-8", "replace") \
            if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        if why.startswith(("invalid perl operator", "invalid escape sequence")):
            why = _("{why} (patterns are RE2 regular expressions: no backreferences or "
                    "lookaround)", why=why)
        raise PatternError(why) from None


def is_integer(checker, value) -> bool:  # 3.0 is not an integer: copies: 3.0 is a mistake
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(checker, value) -> bool:  # .inf and .nan are not numbers a card can use
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
