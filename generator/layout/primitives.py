"""Finished drawing values: what the layout stage produces and the render stage draws.

All coordinates are points, with the origin at the bottom-left corner of the face's
trim box. Nothing here measures or decides; every value is final.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Color


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: Color
    width: float


@dataclass(frozen=True)
class Text:
    """One line of text, already measured to fit; (x, y) is the baseline anchor."""

    x: float
    y: float
    text: str
    font: str  # registered reportlab font name
    size: float
    color: Color
    anchor: str = "start"  # start, middle or end of the line sits at x


Item = Rect | Line | Text


@dataclass(frozen=True)
class Face:
    """One side of one card: its trim size and what is drawn on it, bottom to top."""

    width: float
    height: float
    items: tuple[Item, ...]
