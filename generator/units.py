"""Lengths with units, as designers write them: "14mm", "0.5in", "2cm", "12pt"."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Mapping

from .i18n import _
from .problems import spoken

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}
UNITS = ("mm", "cm", "in", "pt")  # as messages list them
CARD_SIZES = {  # natural width, height in mm
    "meishi": (91.0, 55.0),
    "us-business": (88.9, 50.8),
    "poker": (63.0, 88.0),
    "bridge": (56.0, 87.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
}
# A card, a tile or a token a layout draws: each side more than CARD_MIN and at most
# CARD_MAX (a board is drawn by a board layout, not a card layout).
CARD_MIN, CARD_MAX = 5.0, 500.0  # mm


def card_size_problem(size: tuple[float, float], art: bool = False) -> str | None:
    """Why a card layout cannot have `size` (points), or None. A board's `art:` layout
    is the board's size: a card's largest does not hold it (the board's own limits do:
    its size, and the pages it is split over)."""
    if art:
        if all(mm(CARD_MIN) - SIZE_TOLERANCE <= side for side in size):
            return None
        return _("{size} is not a size a board's art layout can have: each side at least "
                 "{low:g} mm (it is the board's size)", size=show_size(size), low=CARD_MIN)
    if all(mm(CARD_MIN) - SIZE_TOLERANCE <= side <= mm(CARD_MAX) + SIZE_TOLERANCE
           for side in size):
        return None
    return _("{size} is not a size a card can have: each side from {low:g} mm to {high:g} mm "
             "(a board is a board layout)", size=show_size(size), low=CARD_MIN, high=CARD_MAX)


PAPER = {  # width, height in mm
    "A1": (594.0, 841.0),
    "A2": (420.0, 594.0),
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "B4": (257.0, 364.0),  # JIS B4
    "B5": (182.0, 257.0),  # JIS B5
    "B6": (128.0, 182.0),  # JIS B6
    "Letter": (215.9, 279.4),
    "Half-letter": (139.7, 215.9),  # US Letter folded: 5.5 x 8.5 in
    "Legal": (215.9, 355.6),
    "Tabloid": (279.4, 431.8),
}
RULEBOOK_PAGES = ("A5", "B6", "A4", "B5", "Letter", "Half-letter")  # by name (or any size)
# The sheet a saddle-stitched booklet of these pages is printed on: two pages side by side.
BOOKLET_SHEETS = {"A5": "A4", "B6": "B5", "A4": "A3", "B5": "B4", "Letter": "Tabloid",
                  "Half-letter": "Letter"}


US_PAPERS = ("Letter", "Legal", "Tabloid")  # the US sizes (a booklet of them: Half-letter)
# Where the paper is Letter: the United States and Canada (en_US, en_CA, fr_CA, es_US...),
# as the platform's locales say it; A4 everywhere else.
LETTER_TERRITORIES = ("US", "CA")


def locale_paper(environ: Mapping[str, str] | None = None) -> str:
    """The paper of the user's locale, where the platform says it: the territory of the
    locale named by the first of LC_ALL, LC_PAPER and LANG that is set (POSIX's order;
    glibc's LC_PAPER is the paper's own setting): Letter for en_US.UTF-8 or fr_CA, else A4
    (for ja_JP and en_GB, for C and POSIX, and where none is set, as on Windows). Read from
    the names alone, which every system has: no call into the C library, no subprocess."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(name)
        if value:
            territory = value.split(".")[0].split("@")[0].partition("_")[2]
            return "Letter" if territory.upper() in LETTER_TERRITORIES else "A4"
    return "A4"


def paper_name(text: str) -> str | None:
    """The PAPER table's name for a paper written in any case (`letter`, `a4`), or None."""
    return {name.lower(): name for name in PAPER}.get(text.strip().lower())


class OutOfRange(ValueError):
    """A length written as a length should be, but one no card or sheet can have."""


_LENGTH = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*([a-z%]*)\s*$")
_TERMS = re.compile(r"\s+([+-])\s+")  # "100% - 6mm": terms joined by a spaced + or -


@lru_cache(maxsize=8192)
def parse_length(value: str | int | float, percent_of: float | None = None) -> float:
    """A length in points; `%` is allowed where `percent_of` (in points) is given.
    Raises ValueError with a message a designer can act on."""
    if isinstance(value, bool):
        raise ValueError(_("{value!r} is not a length", value=value))
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise ValueError(_("the length {value} needs a unit ({units}), such as {value}mm",
                            value=value, units=spoken(UNITS)))
    parts = _TERMS.split(str(value).strip())
    if len(parts) > 1:
        total = _one(parts[0], percent_of)
        for sign, term in zip(parts[1::2], parts[2::2]):
            total += _one(term, percent_of) * (1 if sign == "+" else -1)
        return total
    return _one(str(value), percent_of)


def _one(value: str, percent_of: float | None) -> float:
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(_("'{value}' is not a length such as 14mm or 0.5in", value=value))
    number, unit = match.groups()
    if len(number) > 12:  # 999999999999 mm is already 1,000 km: a length that long is a typo
        raise OutOfRange(_("'{value}' is not a length a card or sheet can have", value=value))
    if unit == "%" and percent_of is not None:
        return float(number) / 100.0 * percent_of
    if unit not in POINTS_PER:
        units = spoken(UNITS + (("%",) if percent_of is not None else ()))
        if not unit:
            raise ValueError(_("'{value}' has no unit; use {units}", value=value, units=units))
        raise ValueError(_("unknown unit '{unit}' in '{value}'; use {units}", unit=unit,
                           value=value, units=units))
    return float(number) * POINTS_PER[unit]


# The resolution of a picture where none is asked for: `--dpi`, a build's PNGs, an export
# profile's `dpi` and `min_image_dpi`.
DEFAULT_DPI = 300


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    return points / POINTS_PER["mm"]


_UNIT_WORD = re.compile(r"[0-9.]\s*(mm|cm|in)\b")


def written_unit(values, default: str = "mm") -> str:
    """The unit a designer wrote a layout or preset in, for the lengths cardgen shows them:
    "in" where the lengths written in `values` (strings, lists, mappings) are in inches
    and none in mm or cm; `default` where none says."""
    seen: set[str] = set()

    def walk(value):
        if isinstance(value, str):
            seen.update(_UNIT_WORD.findall(value))
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(values)
    if "in" in seen and not seen & {"mm", "cm"}:
        return "in"
    return "mm" if seen & {"mm", "cm"} else default


def show_length(points: float, unit: str = "mm", measured: bool = True) -> str:
    """A length for a message, in the designer's unit: measured, "12.3 mm" or "0.48 in";
    as written (`measured=False`), "-2 mm" or "0.125 in"."""
    if unit == "in":
        return f"{points / 72:.2f} in" if measured else f"{round(points / 72, 4):g} in"
    return f"{to_mm(points):.1f} mm" if measured else f"{to_mm(points):g} mm"


def show_size(size: tuple[float, float], unit: str = "mm") -> str:
    """A size for a message: "91 x 55 mm", "3.5 x 2 in"."""
    if unit == "in":
        return f"{round(size[0] / 72, 3):g} x {round(size[1] / 72, 3):g} in"
    return f"{to_mm(size[0]):g} x {to_mm(size[1]):g} mm"


def paper_size(name: str | tuple[float, float]) -> tuple[float, float]:
    """A paper of the PAPER table, written in any case, (width, height) in points, portrait;
    or a paper given as its size (a board's [width, height] paper), as it is."""
    if not isinstance(name, str):
        return name[0], name[1]
    width, height = PAPER[paper_name(name) or name]
    return mm(width), mm(height)


PAPER_SIDES = (50.0, 2000.0)  # mm: the range of each side of a paper given as its size


def show_paper(paper: str | tuple[float, float]) -> str:
    """A paper as a message says it: its name, or its size ("600 x 400 mm")."""
    return paper if isinstance(paper, str) else show_size(paper)


SIZE_TOLERANCE = mm(0.05)  # two sizes this close (in points) are the same size


def same_size(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < SIZE_TOLERANCE and abs(a[1] - b[1]) < SIZE_TOLERANCE
