"""Finished drawing values: what the layout stage produces and `draw` draws.

All coordinates are points, with the origin at the bottom-left corner of the face's
trim box (y up, as in PDF). Nothing here measures or decides; every value is final.
"""

from __future__ import annotations

from dataclasses import dataclass

from .colors import Color


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Ellipse:
    x: float  # bounding box
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: Color
    width: float
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Text:
    """One run of text in one style, already measured; (x, y) is the baseline anchor."""

    x: float
    y: float
    text: str
    font: str  # registered reportlab font name
    size: float
    color: Color
    anchor: str = "start"  # start, middle or end of the run sits at x
    char_space: float = 0.0  # extra space after each character (justified lines)
    rotate: float = 0.0  # degrees counter-clockwise about (x, y)
    scale: float = 1.0  # horizontal scale of the glyphs (0.8: condensed to 80%, 長体)


@dataclass(frozen=True, slots=True)
class Image:
    path: str  # absolute path of a PNG or JPEG file, checked readable by the layout stage
    x: float
    y: float
    w: float
    h: float
    digest: str = ""  # of the file's bytes: the face changes when the picture does
    mask: str = ""  # a grey image of the picture's transparency, when kept apart (CMYK export)


@dataclass(frozen=True, slots=True)
class Group:
    """Items drawn together: moved by (dx, dy), rotated about (cx, cy) (or mirrored top to
    bottom about it), at an opacity, clipped to a box or a polygon given in the items' own
    coordinates."""

    items: tuple["Item", ...]
    rotate: float = 0.0
    cx: float = 0.0
    cy: float = 0.0
    opacity: float = 1.0
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h
    dx: float = 0.0
    dy: float = 0.0
    clip_shape: tuple[tuple[float, float], ...] = ()  # a polygon to clip to, as `clip`
    flip: bool = False  # mirrored top to bottom about cy (a standee's back)


@dataclass(frozen=True, slots=True)
class Block:
    """Items that many faces draw alike: an element no template touches, or a text set once
    and placed at the same spot. The layout stage gives those faces one shared Block
    object; a PDF may then draw it once, as a form that every face reuses."""

    items: tuple["Item", ...]


Item = Rect | Ellipse | Polygon | Line | Text | Image | Group | Block


@dataclass(frozen=True, slots=True)
class Face:
    """One side of one card: its trim size, its bleed, and what is drawn, bottom to top.
    Items may extend into the bleed, up to `bleed` beyond the trim box on every side."""

    width: float
    height: float
    items: tuple[Item, ...]
    bleed: float = 0.0
