"""Finished drawing values: what the layout stage produces and `draw` draws.

All coordinates are points, with the origin at the bottom-left corner of the face's
trim box (y up, as in PDF). Nothing here measures or decides; every value is final.

Every primitive, the common ones here and those an element type brings (elements/qr.py),
answers the same small protocol, and everything that handles faces goes through it:

- `draw(canvas, pen)`: put itself on a reportlab canvas; `pen` is the drawing library's
  state (draw.Pen), which sets colours once for a run and draws text and pictures;
- `bounds(measure)`: the box (x0, y0, x1, y1) it puts ink in, or None; `measure` gives
  the sizes of text (the `fonts` module);
- `CONTENT`: whether it is content a reader must see whole (text, pictures, codes), as
  opposed to decoration: the safe-area and token-shape checks judge content;
- `recolored(conversion)`: the same primitive in another colour space (a CMYK export):
  `conversion.color(color, use, area)` converts a colour for what it paints ("text",
  "line" or "fill", a fill with its area), `conversion.image(item)` a picture;
- `digest(shared)`: bytes that change whenever what it prints changes (identity.py);
- `weight()`: roughly how many bytes of content stream it takes (which blocks pay as forms).

`register` admits a class only when it has them all; `PRIMITIVES` lists what is admitted.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from typing import Protocol

from .colors import Color

PROTOCOL = ("draw", "bounds", "recolored", "digest", "weight")
PRIMITIVES: list[type] = []


class NotAPrimitive(TypeError):
    """A class offered as a primitive that lacks part of the protocol (a cardgen bug)."""


def register(cls: type) -> type:
    """Admit a primitive class: it must have every method of the protocol and CONTENT."""
    missing = [name for name in PROTOCOL if not callable(getattr(cls, name, None))]
    if not isinstance(getattr(cls, "CONTENT", None), bool):
        missing.append("CONTENT")
    if missing:
        raise NotAPrimitive(f"{cls.__name__} lacks {', '.join(missing)} of the primitive "
                            "protocol (primitives.PROTOCOL)")
    if cls not in PRIMITIVES:
        PRIMITIVES.append(cls)
    return cls


class Measure(Protocol):
    """What bounds() needs to know about text (the `fonts` module answers it)."""

    def run_width(self, text: str, font: str, size: float, scale: float = 1.0,
                  char_space: float = 0.0) -> float: ...

    def ascent_descent(self, font: str, size: float) -> tuple[float, float]: ...


class Conversion(Protocol):
    def color(self, color: Color | None, text: bool = False) -> Color | None: ...

    def image(self, item: "Image") -> "Image": ...


def union(a, b):
    """The box that holds boxes a and b (either may be None)."""
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _clipped(a, box):
    if a is None:
        return None
    x, y, w, h = box
    c = (max(a[0], x), max(a[1], y), min(a[2], x + w), min(a[3], y + h))
    return c if c[0] < c[2] and c[1] < c[3] else None


def turned(a, degrees: float, cx: float, cy: float):
    """The bounding box of box `a` turned by `degrees` (counter-clockwise) about (cx, cy)."""
    if a is None or not degrees:
        return a
    t = math.radians(degrees)
    cos, sin = math.cos(t), math.sin(t)
    xs, ys = [], []
    for x, y in ((a[0], a[1]), (a[2], a[1]), (a[0], a[3]), (a[2], a[3])):
        dx, dy = x - cx, y - cy
        xs.append(cx + dx * cos - dy * sin)
        ys.append(cy + dx * sin + dy * cos)
    return (min(xs), min(ys), max(xs), max(ys))


def leaves(items):
    """Every item drawn, inside groups and blocks too."""
    for item in items:
        if isinstance(item, (Group, Block)):
            yield from leaves(item.items)
        else:
            yield item


def extent(items, measure: Measure, content: bool = False):
    """The box (x0, y0, x1, y1) the items put ink in, or None; with `content`, only what
    is content (text, pictures, codes)."""
    found = None
    for item in items:
        if isinstance(item, (Group, Block)):
            found = union(found, item.bounds(measure, content))
        elif not content or item.CONTENT:
            found = union(found, item.bounds(measure))
    return found


def _repr_digest(item, shared) -> bytes:
    return repr(item).encode()


def _painted_box(item):
    if item.fill is None and item.stroke is None:
        return None
    half = item.stroke_width / 2 if item.stroke is not None else 0.0
    return (item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half)


def _repainted(item, conversion):
    box = item.bounds() if item.fill is not None else None
    area = (box[2] - box[0]) * (box[3] - box[1]) if box else 0.0
    return replace(item, fill=conversion.color(item.fill, "fill", area),
                   stroke=conversion.color(item.stroke, "line"))


class _Painted:
    """What a filled and stroked box (a rectangle, an ellipse) answers alike."""

    __slots__ = ()
    CONTENT = False

    def bounds(self, measure=None):
        return _painted_box(self)

    recolored = _repainted
    digest = _repr_digest

    def weight(self) -> int:
        return 40


@register
@dataclass(frozen=True, slots=True)
class Rect(_Painted):
    x: float
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()

    def draw(self, c, pen) -> None:
        stroke, fill = pen.paint(c, self)
        if self.radius:
            c.roundRect(self.x, self.y, self.w, self.h, self.radius, stroke=stroke, fill=fill)
        else:
            c.rect(self.x, self.y, self.w, self.h, stroke=stroke, fill=fill)


@register
@dataclass(frozen=True, slots=True)
class Ellipse(_Painted):
    x: float  # bounding box
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()

    def draw(self, c, pen) -> None:
        stroke, fill = pen.paint(c, self)
        c.ellipse(self.x, self.y, self.x + self.w, self.y + self.h, stroke=stroke, fill=fill)


@register
@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()

    CONTENT = False

    def draw(self, c, pen) -> None:
        stroke, fill = pen.paint(c, self)
        path = c.beginPath()
        path.moveTo(*self.points[0])
        for point in self.points[1:]:
            path.lineTo(*point)
        path.close()
        c.drawPath(path, stroke=stroke, fill=fill)

    def bounds(self, measure=None):
        if self.fill is None and self.stroke is None or not self.points:
            return None
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return (min(xs), min(ys), max(xs), max(ys))

    recolored = _repainted
    digest = _repr_digest

    def weight(self) -> int:
        return 40


@register
@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: Color
    width: float
    dash: tuple[float, ...] = ()

    CONTENT = False

    def draw(self, c, pen) -> None:
        pen.stroke_with(c, self.color, self.width, self.dash)
        c.line(self.x1, self.y1, self.x2, self.y2)

    def bounds(self, measure=None):
        return (min(self.x1, self.x2), min(self.y1, self.y2),
                max(self.x1, self.x2), max(self.y1, self.y2))

    def recolored(self, conversion) -> "Line":
        return replace(self, color=conversion.color(self.color, "line"))

    digest = _repr_digest

    def weight(self) -> int:
        return 40


@register
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

    CONTENT = True

    def draw(self, c, pen) -> None:
        pen.text(c, self)

    def bounds(self, measure):
        if not self.text.strip():
            return None
        width = measure.run_width(self.text, self.font, self.size, self.scale, self.char_space)
        left = self.x - {"start": 0.0, "middle": width / 2, "end": width}[self.anchor]
        ascent, descent = measure.ascent_descent(self.font, self.size)
        return turned((left, self.y + descent, left + width, self.y + ascent),
                      self.rotate, self.x, self.y)

    def recolored(self, conversion) -> "Text":
        return replace(self, color=conversion.color(self.color, "text"))

    digest = _repr_digest

    def weight(self) -> int:
        return 30 + 3 * len(self.text)


@register
@dataclass(frozen=True, slots=True)
class Image:
    path: str  # absolute path of a PNG or JPEG file, checked readable by the layout stage
    x: float
    y: float
    w: float
    h: float
    file_digest: str = ""  # of the file's bytes: the face changes when the picture does
    mask: str = ""  # a grey image of the picture's transparency, when kept apart (CMYK export)

    CONTENT = True

    def draw(self, c, pen) -> None:
        pen.image(c, self)

    def bounds(self, measure=None):
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def recolored(self, conversion) -> "Image":
        return conversion.image(self)

    def digest(self, shared=None) -> bytes:
        # the picture, not where the file lies (another checkout)
        return repr(("image", self.file_digest, self.x, self.y, self.w, self.h)).encode()

    def weight(self) -> int:
        return 40


@register
@dataclass(frozen=True, slots=True)
class Path:
    """A vector outline, as an SVG picture's shapes become: segments of straight lines and
    cubic curves in face coordinates, ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y),
    ("Z",), filled (nonzero or even-odd) and stroked. It is a picture's part: content."""

    ops: tuple[tuple, ...]
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    even_odd: bool = False
    cap: int = 0  # PDF line cap: 0 butt, 1 round, 2 square
    join: int = 0  # PDF line join: 0 miter, 1 round, 2 bevel
    dash: tuple[float, ...] = ()

    CONTENT = True

    def draw(self, c, pen) -> None:
        stroke, fill = pen.paint(c, self)
        if stroke:
            c.setLineCap(self.cap)
            c.setLineJoin(self.join)
        path = c.beginPath()
        for op in self.ops:
            kind = op[0]
            if kind == "M":
                path.moveTo(op[1], op[2])
            elif kind == "L":
                path.lineTo(op[1], op[2])
            elif kind == "C":
                path.curveTo(*op[1:])
            else:
                path.close()
        c.drawPath(path, stroke=stroke, fill=fill, fillMode=0 if self.even_odd else 1)
        if stroke and (self.cap or self.join):  # as every other line expects them
            c.setLineCap(0)
            c.setLineJoin(0)

    def bounds(self, measure=None):
        if self.fill is None and self.stroke is None:
            return None
        xs = [v for op in self.ops for v in op[1::2]]
        ys = [v for op in self.ops for v in op[2::2]]
        if not xs:
            return None
        half = self.stroke_width / 2 if self.stroke is not None else 0.0
        return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)

    recolored = _repainted

    def digest(self, shared: dict | None = None) -> bytes:
        """Its drawing's bytes, hashed once a run where faces share it (`shared`, as for
        Blocks: an SVG picture's paths are the same objects on every face)."""
        if shared is not None:
            found = shared.get(id(self))
            if found is not None:
                return found[1]
        digest = hashlib.sha256(repr(self).encode()).digest()
        if shared is not None:
            shared[id(self)] = (self, digest)
        return digest

    def weight(self) -> int:
        return 20 + 14 * sum(len(op) for op in self.ops)


@register
@dataclass(frozen=True, slots=True)
class Group:
    """Items drawn together: scaled by (sx, sy) and moved by (dx, dy) (an SVG picture in
    its box), rotated about (cx, cy) (or mirrored top to bottom about it), at an opacity,
    clipped to a box or a polygon given in the items' own coordinates."""

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
    sx: float = 1.0  # the items' scale, before the move (their strokes scale with them)
    sy: float = 1.0

    CONTENT = False  # what it holds may be

    def draw(self, c, pen) -> None:
        c.saveState()
        if self.rotate:
            c.translate(self.cx, self.cy)
            c.rotate(self.rotate)
            c.translate(-self.cx, -self.cy)
        if self.flip:
            c.translate(0, 2 * self.cy)
            c.scale(1, -1)
        if self.dx or self.dy:
            c.translate(self.dx, self.dy)
        if self.sx != 1.0 or self.sy != 1.0:
            c.scale(self.sx, self.sy)
        if self.clip is not None:
            path = c.beginPath()
            path.rect(*self.clip)
            c.clipPath(path, stroke=0, fill=0)
        if self.clip_shape:
            path = c.beginPath()
            path.moveTo(*self.clip_shape[0])
            for point in self.clip_shape[1:]:
                path.lineTo(*point)
            path.close()
            c.clipPath(path, stroke=0, fill=0)
        if self.opacity < 1:
            c.setFillAlpha(self.opacity)
            c.setStrokeAlpha(self.opacity)
        pen.inner(c, self.items)  # what it sets is undone by the restore
        c.restoreState()

    def bounds(self, measure, content: bool = False):
        box = extent(self.items, measure, content)
        if box is not None and self.clip is not None:
            box = _clipped(box, self.clip)
        if box is not None and self.clip_shape:
            xs = [p[0] for p in self.clip_shape]
            ys = [p[1] for p in self.clip_shape]
            box = _clipped(box, (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        if box is None:
            return None
        if self.sx != 1.0 or self.sy != 1.0:
            across = (box[0] * self.sx, box[2] * self.sx)
            down = (box[1] * self.sy, box[3] * self.sy)
            box = (min(across), min(down), max(across), max(down))
        box = (box[0] + self.dx, box[1] + self.dy, box[2] + self.dx, box[3] + self.dy)
        if self.flip:
            box = (box[0], 2 * self.cy - box[3], box[2], 2 * self.cy - box[1])
        return turned(box, self.rotate, self.cx, self.cy)

    def recolored(self, conversion) -> "Group":
        return replace(self, items=tuple(i.recolored(conversion) for i in self.items))

    def digest(self, shared=None) -> bytes:
        inner = b"".join(item_digest(i, shared) for i in self.items)
        shape: tuple = (self.clip_shape, self.flip) if self.clip_shape or self.flip else ()
        if self.sx != 1.0 or self.sy != 1.0:
            shape += (self.sx, self.sy)
        return hashlib.sha256(repr((self.rotate, self.cx, self.cy, self.opacity, self.clip,
                                    self.dx, self.dy) + shape).encode() + inner).digest()

    def weight(self) -> int:
        return sum(i.weight() for i in self.items)


@register
@dataclass(frozen=True, slots=True)
class Block:
    """Items that many faces draw alike: an element no template touches, or a text set once
    and placed at the same spot. The layout stage gives those faces one shared Block
    object; a PDF may then draw it once, as a form that every face reuses."""

    items: tuple["Item", ...]

    CONTENT = False  # what it holds may be

    def draw(self, c, pen) -> None:
        pen.items(c, self.items)

    def bounds(self, measure, content: bool = False):
        return extent(self.items, measure, content)

    def recolored(self, conversion) -> "Block":
        return Block(tuple(i.recolored(conversion) for i in self.items))

    def digest(self, shared: dict | None = None) -> bytes:
        """Faces share blocks: `shared` (id of a Block -> (block, digest)) hashes each once."""
        if shared is not None:
            found = shared.get(id(self))
            if found is not None:
                return found[1]
        digest = hashlib.sha256(b"block" + b"".join(item_digest(i, shared)
                                                    for i in self.items)).digest()
        if shared is not None:
            shared[id(self)] = (self, digest)  # the block is kept alive with its id
        return digest

    def weight(self) -> int:
        return sum(i.weight() for i in self.items)


def item_digest(item, shared: dict | None = None) -> bytes:
    return item.digest(shared)


Item = Rect | Ellipse | Polygon | Line | Text | Image | Path | Group | Block


@dataclass(frozen=True, slots=True)
class Face:
    """One side of one card: its trim size, its bleed, and what is drawn, bottom to top.
    Items may extend into the bleed, up to `bleed` beyond the trim box on every side."""

    width: float
    height: float
    items: tuple[Item, ...]
    bleed: float = 0.0
