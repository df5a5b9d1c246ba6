"""The forms a designer may write each kind of value in, each defined once.

Every place that takes a value of one of these kinds asks the one definition here, or in
the module it names: the JSON schemas (as formats, their expected-value wording made from
the same definition), resolve, the element bindings, spreadsheets and generated decks.

| kind | defined in | schema format |
|---|---|---|
| a true/false flag | `flag` here | `flag` |
| copies of a card | `model.MAX_COPIES`, `copies` here | (a range, filled in) |
| a colour | `colors.parse_color` | `color` |
| a length | `units.parse_length` | `length`, and `layout-length` (% and templates) |
| a paper, in any case | `units.PAPER`, `units.paper_name` | `paper`, `rulebook-page` |
| a card size | `units.CARD_SIZES` | (an enum, filled in) |
| a name that becomes a path | `paths.is_name` | `name` |
| a whole number written as text | `whole_number`, `MAX_DIGITS` here | |
| a character in text | `unprintable` here (YAML and spreadsheets), `DRAWN_AS_NOTHING` | |

tests/test_rules.py feeds every accepted form of each through every place that takes it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .colors import COLOR_EXPECTED, parse_color
from .i18n import _
from .model import MAX_COPIES
from .options import KINDS
from .paths import NAME_RULE, is_name
from .problems import spoken
from .units import (CARD_SIZES, PAPER, RULEBOOK_PAGES, UNITS, OutOfRange, paper_name,
                    parse_length, show_length)

# --- true or false -------------------------------------------------------------------------

# The words for true and false, in any case. A spreadsheet cell, a template's result, a
# generated card's value and a YAML value of a key that is a flag all read the same way.
# An empty text (a template that gave nothing) is false.
FLAG_WORDS = {True: ("true", "yes", "1"), False: ("false", "no", "0")}
FLAG_EXPECTED = _("true or false (or {others})", others=", ".join(
    f"{yes}/{no}" for yes, no in list(zip(FLAG_WORDS[True], FLAG_WORDS[False]))[1:]))
_FLAGS = {word: meaning for meaning, words in FLAG_WORDS.items() for word in words}


QUOTED = 40  # characters of a value a message quotes (a longer one is cut, with "...")


def abridged(text: str) -> str:
    """A value as a message quotes it: at most QUOTED characters."""
    return text if len(text) <= QUOTED else text[:QUOTED - 3] + "..."


def flag(value: Any) -> bool:
    """True or false as written: a YAML boolean, 1 or 0, or one of FLAG_WORDS in any case.
    Raises ValueError naming what is accepted."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = "" if value is None else str(value).strip().lower()
    if text in ("", "none"):
        return False
    if isinstance(value, str) and text in _FLAGS:
        return _FLAGS[text]
    raise ValueError(_("'{value}' is not {expected}", value=value, expected=FLAG_EXPECTED))


def is_flag(value: Any) -> bool:
    try:
        flag(value)
    except ValueError:
        return False
    return True


# --- characters in text --------------------------------------------------------------------

# Text a designer writes (a YAML value, a spreadsheet cell) is read by people: on a card,
# in a terminal (diff, the print guide), in a browser. A character that is not text there
# is an error where it is written, whether written raw or as an escape ("\e", "\u202E"):
# - a control character (C0, C1, DEL) but tab and the line ends: it prints nothing and can
#   drive a terminal (ESC clears the screen);
# - a bidirectional embedding, override or isolate: it reorders how the rest reads;
# - a noncharacter (U+FFFE, U+FFFF, U+FDD0 to U+FDEF, ...) or half of a surrogate pair.
# Other format characters (a zero-width space, a joiner, a soft hyphen) are text that
# draws as nothing: the layout breaks at a zero-width space and otherwise leaves them out.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
KEPT_CONTROLS = frozenset("\t\n\r")  # (unprintable: each one of them is taken out)
DRAWN_AS_NOTHING = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u061c")
_CONTROL_NAMES = {0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x0b: "LINE TABULATION",
                  0x0c: "FORM FEED", 0x1b: "ESCAPE", 0x7f: "DELETE"}


def unprintable(text: str) -> tuple[int, str] | None:
    """(index, why) of the first character of `text` that is not text (see above), or None."""
    if text.isprintable() or \
            text.replace("\n", "").replace("\r", "").replace("\t", "").isprintable():
        return None  # the usual case (a text of several lines too): nothing to look at
    for i, ch in enumerate(text):
        if ch in KEPT_CONTROLS or ch.isprintable():
            continue
        code, kind = ord(ch), unicodedata.category(ch)
        if kind == "Cc":
            return i, _("a control character, {ch}, which prints nothing and can drive a "
                        "terminal", ch=character(ch))
        if ch in BIDI_CONTROLS:
            return i, _("a bidirectional control, {ch}, which reorders how the text around it "
                        "reads", ch=character(ch))
        if kind == "Cs":
            return i, _("{ch}, half of a surrogate pair, which is not a character",
                        ch=character(ch))
        if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
            return i, _("{ch}, which Unicode keeps as a noncharacter", ch=character(ch))
    return None


def character(ch: str) -> str:
    """A character as people read it in a message: U+001B (ESCAPE), U+00AD (SOFT HYPHEN)."""
    name = unicodedata.name(ch, None) or _CONTROL_NAMES.get(ord(ch))
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def shown_character(ch: str) -> str:
    """U+XXXX, and the character itself when it prints: U+3042 'あ', U+001B (ESCAPE)."""
    return f"U+{ord(ch):04X} '{ch}'" if ch.isprintable() else character(ch)


# --- whole numbers written as text --------------------------------------------------------

# An integer a designer writes is a count, a score, a cost: at most MAX_DIGITS digits. A
# longer one (a YAML value, a spreadsheet cell, a template's result, a table key) is
# not read as a number: where it is written it is an error that says so (Python would
# refuse to read one of more than 4,300 digits, and spend quadratic time below that).
MAX_DIGITS = 30


def whole_number(text: str) -> int | None:
    """The integer `text` writes (an optional sign, then ASCII digits), if it has at most
    MAX_DIGITS digits; None otherwise."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or len(body) > MAX_DIGITS or not body.isascii() or not body.isdigit():
        return None
    return int(text)


def too_many_digits(text: str) -> bool:
    """Whether `text` writes an integer of more than MAX_DIGITS digits."""
    body = text.strip()
    body = body[1:] if body[:1] in "+-" else body
    return len(body) > MAX_DIGITS and body.isascii() and body.isdigit()


TOO_MANY_DIGITS = _("a number of more than {n} digits, which cardgen does not read", n=MAX_DIGITS)


# --- copies --------------------------------------------------------------------------------

COPIES_EXPECTED = _("an integer from 0 to {n}", n=MAX_COPIES)


def is_copies(value: Any) -> bool:
    """A card's copies as it may be written: a whole number from 0 to MAX_COPIES."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COPIES


def copies(value: Any) -> int:
    """Copies written as a number or as text (a generated card's template). Raises
    ValueError naming what is accepted."""
    if isinstance(value, str) and whole_number(value.strip()) is not None:
        value = whole_number(value.strip())
    if not is_copies(value):
        raise ValueError(_("copies must be {expected}, not '{value}'", expected=COPIES_EXPECTED,
                           value=value))
    return value


# --- templates ----------------------------------------------------------------------------

def is_template(value: Any) -> bool:
    """Whether a value a designer wrote is a template (sandbox.py renders it): the one
    definition, for the schemas' layout formats, the element bindings and the sandbox."""
    return isinstance(value, str) and ("{{" in value or "{%" in value)


# --- lengths -------------------------------------------------------------------------------

LENGTH_EXPECTED = _("a length with a unit ({units}), such as 14mm or 0.5in",
                    units=spoken(UNITS, "or"))
LAYOUT_LENGTH_EXPECTED = _("a length with a unit ({units}), such as 5mm, 50% or 100% - 6mm",
                           units=spoken(UNITS + ("%",), "or"))


def _parses(parse: Callable, value: Any) -> bool:
    """True if `parse` takes the value; a value of the right form that is out of range
    raises its OutOfRange, so that the schema's message gives the parser's reason."""
    try:
        parse(value)
    except OutOfRange:
        raise
    except ValueError:
        return False
    return True


def _is_length_text(value: Any) -> bool:
    """A length as text (a number without a unit is the parser's to refuse, at its place)."""
    return not isinstance(value, str) or _parses(parse_length, value)


def _is_layout_length_text(value: Any) -> bool:
    return not isinstance(value, str) or is_template(value) or \
        _parses(lambda v: parse_length(v, 1.0), value)


# --- colours -------------------------------------------------------------------------------

def _is_color_text(value: Any) -> bool:
    """A colour parse_color takes, or a name that the game's palette may define by the one
    name rule of palette entries (paths.is_name: `2p` too); resolve looks it up there and
    reports it where it is written if it does not."""
    if not isinstance(value, str):
        return True
    return _parses(parse_color, value) or is_name(value.strip())


# --- papers --------------------------------------------------------------------------------

def _is_paper_text(value: Any) -> bool:
    return not isinstance(value, str) or paper_name(value) is not None


def _is_rulebook_page_text(value: Any) -> bool:
    return not isinstance(value, str) or paper_name(value) in RULEBOOK_PAGES


# --- the schemas' formats ------------------------------------------------------------------

@dataclass(frozen=True)
class Format:
    # True when the value is of the form (a value of another type: True, the type is the
    # schema's to check); raises OutOfRange for one of the form that is out of range
    check: Callable[[Any], bool]
    expected: str  # what the schema's message says a value must be


FORMATS: dict[str, Format] = {
    "name": Format(lambda v: not isinstance(v, str) or is_name(v),
                   _("an id of {rule}", rule=NAME_RULE)),
    "flag": Format(lambda v: not isinstance(v, (str, int, float)) or is_flag(v), FLAG_EXPECTED),
    "layout-flag": Format(lambda v: not isinstance(v, (str, int, float)) or is_flag(v) or
                          is_template(v), FLAG_EXPECTED),
    "color": Format(_is_color_text, COLOR_EXPECTED),
    "length": Format(_is_length_text, LENGTH_EXPECTED),
    "layout-length": Format(_is_layout_length_text, LAYOUT_LENGTH_EXPECTED),
    "paper": Format(_is_paper_text, _("a paper ({papers})", papers=spoken(PAPER))),
    "rulebook-page": Format(_is_rulebook_page_text,
                            _("a page ({papers})", papers=spoken(RULEBOOK_PAGES))),
}

# The lists and ranges the schemas name (`"x-enum": NAME`, `"x-range": NAME`, and
# `{NAME}` in an `x-expected` text), each kept once: here, from their homes.
ENUMS: dict[str, list] = {"card-sizes": list(CARD_SIZES), "papers": list(PAPER),
                          "rulebook-pages": list(RULEBOOK_PAGES)}
# How many print targets a game may declare: each is a whole build of every deck, so a game
# of thousands would take hours; no print run is made so many ways.
MAX_TARGETS = 16
RANGES: dict[str, tuple[int, int]] = {"copies": (0, MAX_COPIES), "targets": (1, MAX_TARGETS)}
WORDS: dict[str, str] = {**{name: spoken(items) for name, items in ENUMS.items()},
                         **{name: f.expected for name, f in FORMATS.items()},
                         "copies": COPIES_EXPECTED}



# --- a value out of its range ----------------------------------------------------------------

def shown_number(value: Any) -> str:
    """A number as a message shows it: 3, 0.5, 1e+20."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{int(value)}" if value == int(value) and abs(value) < 1e16 else f"{value:g}"


def out_of_range(value: Any, low: Any = None, high: Any = None, why: Any = None):
    """The one wording of a value outside its range, whoever finds it (the schemas, a
    Reader, an element's number): "must be from 3 to 360, not 2", "must be at least 0 mm,
    not -8 mm", "must be at most 10, not 11"; `why` says what the bound is. The values
    come as they are shown (numbers are shown by shown_number); `why` goes with `high`."""
    low, high, value = (shown_number(v) if isinstance(v, (int, float)) else v
                        for v in (low, high, value))
    if why is not None and high is not None:
        high = _("{bound} ({why})", bound=high, why=why)
    if low is not None and high is not None:
        return _("must be from {low} to {high}, not {value}", low=low, high=high, value=value)
    if high is not None:
        return _("must be at most {high}, not {value}", high=high, value=value)
    return _("must be at least {low}, not {value}", low=low, value=value)


# --- reading a mapping the designer wrote ----------------------------------------------------

class Reader:
    """Typed values of one mapping a designer wrote (a board layout, a preset, an entry of
    game.yaml), each parsed by the one rule of its kind. A bad value is reported once, at
    its key, in one wording ("board layout 'ring': gap: 'x' is not a length ..."), and the
    default stands in for it; `ok` says whether every value read was good."""

    def __init__(self, data, locate, what: str, report):
        self.data, self.locate, self.what, self.report = data, locate, what, report
        self.ok = True

    def raw(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def _bad(self, key: str, exc: Exception, check: str) -> None:
        self.report.error(_("{what}: {key}: {exc}", what=self.what, key=key, exc=exc),
                          self.locate((key,)), check)
        self.ok = False

    def length(self, key: str, default: Any, low: float | None = None,
               high: tuple[float, str] | float | None = None) -> Any:
        """A length in points; `default` (in points, or None) where none is written. With
        `low`, it is at least that; with `high` (the limit, or the limit and what it is),
        at most that."""
        if key not in self.data:
            return default
        try:
            value = parse_length(self.data[key])
        except ValueError as exc:
            self._bad(key, exc, "units")
            return default
        limit, why = high if isinstance(high, tuple) else (high, None)
        if (low is not None and value < low) or (limit is not None and value > limit):
            both = why is None and low is not None and limit is not None
            self._bad(key, out_of_range(
                show_length(value, measured=False),
                show_length(low, measured=False) if low is not None and
                (both or value < low) else None,
                show_length(limit, measured=why is not None) if limit is not None and
                (both or value > limit) else None, why), "units")
            return default
        return value

    def number(self, key: str, default: Any, low: float | None = None,
               high: float | None = None) -> Any:
        """A number as the schema took it, within [low, high]."""
        value = self.data.get(key, default)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                (low is not None and value < low) or (high is not None and value > high)):
            self._bad(key, out_of_range(value, low, high), "schema")
            return default
        return value

    def option(self, option, palette: Any = None) -> Any:
        """The value of a declared option (options.Option): its default where none is
        written, else the value read by its kind's one rule."""
        kind, default = option.kind, option.value()
        low, high = option.limits()
        if kind == "length":
            return self.length(option.key, default, low=low, high=high)
        if kind == "size":
            return self.pair(option.key, default)
        if kind == "flag":
            return self.flag(option.key, default)
        if kind == "color":
            return self.color(option.key, default, palette or {})
        if kind in ("integer", "number"):
            return self.number(option.key, default, low, high)
        value, parse = self.raw(option.key, option.default), KINDS[kind].parse
        return parse(value) if parse is not None and value is not None else value

    def options(self, options, palette: Any = None) -> dict:
        """Every declared option's value, by its key."""
        return {o.key: self.option(o, palette) for o in options}

    def pair(self, key: str, default: tuple) -> tuple:
        """A [width, height] pair of lengths; a single length is (it, 0)."""
        value = self.data.get(key)
        if value is None:
            return default
        try:
            return (parse_length(value[0]), parse_length(value[1])) if isinstance(value, list) \
                else (parse_length(value), 0.0)
        except ValueError as exc:
            self._bad(key, exc, "units")
            return default

    def flag(self, key: str, default: bool) -> bool:
        try:
            return flag(self.data.get(key, default))
        except ValueError as exc:
            self._bad(key, exc, "schema")
            return default

    def color(self, key: str, default: Any, palette) -> Any:
        """A colour (palette names looked up); `default` (a finished colour) where none is
        written."""
        if key not in self.data:
            return default
        try:
            return parse_color(self.data[key], palette)
        except ValueError as exc:
            self._bad(key, exc, "color")
            return default


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(key path, value) of `value` and of everything inside it, each before what it holds:
    a mapping's values by key, a list's items by index."""
    yield path, value
    if isinstance(value, dict):
        for k, inner in value.items():
            yield from walk(inner, path + (k,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from walk(inner, path + (i,))

