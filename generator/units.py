"""Lengths with units, as designers write them: "14mm", "0.5in", "2cm", "12pt"."""

from __future__ import annotations

import re

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}
PAPER = {  # width, height in mm
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "B5": (182.0, 257.0),
    "Letter": (215.9, 279.4),
    "Legal": (215.9, 355.6),
    "Tabloid": (279.4, 431.8),
}
_LENGTH = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*([a-z%]*)\s*$")


def parse_length(value: str | int | float) -> float:
    """A length in points. Raises ValueError with a message a designer can act on."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise ValueError(f"the length {value} needs a unit (mm, cm, in or pt), such as {value}mm")
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"'{value}' is not a length such as 14mm or 0.5in")
    number, unit = match.groups()
    if unit not in POINTS_PER:
        raise ValueError(f"unknown unit '{unit or '(none)'}' in '{value}'; use mm, cm, in or pt")
    return float(number) * POINTS_PER[unit]


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    return points / POINTS_PER["mm"]


def parse_color(hex_color: str) -> tuple[float, float, float]:
    h = hex_color.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]
