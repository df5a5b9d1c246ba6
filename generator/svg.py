"""SVG pictures: read in a sandbox, drawn as vectors.

An SVG file of a game folder (an `image`, an icon) is a program of sorts from a stranger: XML
can declare entities that expand a billion times, `<use>` can copy a group of copies, an
`href` can name any file or address. So the file is parsed here first, by lxml with entity
expansion, DTD loading and the network off, and judged whole before anything draws it:
- no entity declarations, no reference outside the file (every `href` is `#id` inside it;
  no `<image>`, no `url()` or `@import` that leaves it), no `<text>` (convert it to paths:
  the font it names is not the game's);
- at most MAX_SVG_BYTES, MAX_SVG_DEPTH levels, MAX_SVG_ELEMENTS elements counting every
  `<use>` as what it copies (a `<use>` that copies itself is refused), MAX_SVG_RULES
  style rules, a size of at most MAX_SVG_UNITS on each side and at least MIN_SVG_UNITS.
Only then svglib (reportlab's own SVG reader) turns the tree into shapes, which become
`primitives.Path`s: lines and cubic curves, their fills and strokes, at most
MAX_SVG_POINTS coordinates. What is wrong is said in words, as the end of a sentence that
names the file (`SvgProblem`); nothing reaches the user in lxml's or svglib's words.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath

from .colors import Color
from .paths import file_version
from .primitives import Group, Path
from .i18n import _

MAX_SVG_BYTES = 5_000_000  # an icon is a few kilobytes; a detailed map a few hundred
MAX_SVG_DEPTH = 64  # levels of nested elements
MAX_SVG_ELEMENTS = 10_000  # elements, each <use> counted as what it copies (svglib: ~0.13 ms each)
MAX_SVG_UNITS = 1_000_000  # width, height and viewBox, in the file's units
MIN_SVG_UNITS = 0.001  # width, height and the viewBox's sides: a smaller one scales the drawing
# past what a PDF number holds (a side of 1e-30 drawn 20 mm wide: points of 1e31)
MAX_SVG_POINTS = 2_000_000  # coordinates of every path, after conversion
MAX_SVG_RULES = 2_000  # rules of its style sheets (svglib matches each against every element)

MAX_COORDINATE = 1e9  # a point of a path, in the file's units after its transforms
SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.I)


class SvgProblem(Exception):
    """Why a file is not an SVG picture cardgen draws, as the end of a sentence."""


@dataclass(frozen=True)
class Vector:
    """An SVG picture's shapes, in its own frame: (0, 0) bottom-left, `width` x `height`."""

    width: float
    height: float
    paths: tuple  # Path, or Group(opacity) of Paths
    colors: frozenset  # the colours it paints with (one: a monochrome picture)


def is_svg(path: str) -> bool:
    return FilePath(path).suffix.lower() in (".svg",)


def load(path: str) -> Vector:
    """The picture of an SVG file, read once per version of the file (SvgProblem if not)."""
    return _load(path, file_version(path))


@lru_cache(maxsize=256)
def _load(path: str, stamp: tuple) -> Vector:
    size = FilePath(path).stat().st_size
    if size > MAX_SVG_BYTES:
        raise SvgProblem(_("is {size:,} bytes; an SVG picture may have at most {MAX_SVG_BYTES:,}",
                           size=size, MAX_SVG_BYTES=MAX_SVG_BYTES))
    data = FilePath(path).read_bytes()
    root = _parse(data)
    _judge(root)
    drawing = _render(root, path)
    paths: list[Path | Group] = []
    colors: set[Color] = set()
    points = [0]
    _convert(drawing, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), paths, colors, points)
    if not paths:
        raise SvgProblem(_("draws nothing (no shape with a fill or a stroke)"))
    return Vector(float(drawing.width), float(drawing.height), tuple(paths), frozenset(colors))


# --- reading the XML --------------------------------------------------------------------

def _parse(data: bytes):
    from lxml import etree
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, huge_tree=False, remove_comments=True,
                             remove_pis=True, recover=False)
    try:
        doc = etree.fromstring(data, parser).getroottree()
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None) or (exc.position[0] if exc.position else 0)
        if b"<svg" not in data[:4096] and b"<?xml" not in data[:64]:
            raise SvgProblem(_("is not SVG: it is not XML text (a picture of another kind named "
                               ".svg?)")) from None
        raise SvgProblem(_("is not well-formed XML (line {line})", line=line)) from None
    except ValueError:
        raise SvgProblem(_("is not SVG: it is not XML text")) from None
    dtd = doc.docinfo.internalDTD
    if dtd is not None and (list(dtd.iterentities()) or list(dtd.iterelements())):
        raise SvgProblem(_("declares XML entities or elements in a DOCTYPE; cardgen reads SVG "
                           "without them (they can expand without end): remove the DOCTYPE"))
    root = doc.getroot()
    if root.tag not in (f"{SVG_NS}svg", "svg"):
        shown = root.tag.split("}")[-1] if isinstance(root.tag, str) else "?"
        raise SvgProblem(_("is not SVG (its root element is <{shown}>, not <svg>)", shown=shown))
    return root


def _local(tag) -> str:
    return tag.split("}")[-1] if isinstance(tag, str) else ""


def _judge(root) -> None:
    """Everything the file holds, checked before any of it is drawn."""
    ids, stack, rules = {}, [(root, 1)], 0
    while stack:
        node, depth = stack.pop()
        if depth > MAX_SVG_DEPTH:
            raise SvgProblem(_("nests elements more than {MAX_SVG_DEPTH} deep",
                               MAX_SVG_DEPTH=MAX_SVG_DEPTH))
        if not isinstance(node.tag, str):  # an entity reference left unexpanded
            if type(node).__name__ == "_Entity":
                raise SvgProblem(_("uses an XML entity (&name;), which cardgen does not expand"))
            continue
        name = _local(node.tag)
        if name == "text" or name == "textPath":
            raise SvgProblem(_("holds text (<text>): convert it to paths in the drawing program "
                               "(Inkscape: Path > Object to Path)"))
        if name in ("image", "foreignObject", "script"):
            raise SvgProblem(_("holds an <{name}>: an SVG picture cardgen draws has only shapes "
                               "(give a raster picture as its own PNG or JPEG file)", name=name))
        href = node.get(XLINK_HREF) or node.get("href")
        if href is not None and not href.startswith("#"):
            raise SvgProblem(_("refers to '{href}' outside itself; an SVG picture must hold all "
                               "it draws (references are #id only)", href=href[:80]))
        for value in (node.get("style") or "", node.get("fill") or "", node.get("stroke") or "",
                      node.get("clip-path") or "", node.get("mask") or "",
                      node.text if name == "style" and node.text else ""):
            if "@import" in value:
                raise SvgProblem(_("imports a style sheet (@import); an SVG picture must hold all "
                                   "it draws"))
            for target in _URL.findall(value):
                if not target.startswith("#"):
                    raise SvgProblem(_("refers to '{target}' outside itself (url()); an SVG "
                                       "picture must hold all it draws", target=target[:80]))
        if name == "style" and node.text:
            rules += node.text.count("{")
            if rules > MAX_SVG_RULES:
                raise SvgProblem(_("has more than {MAX_SVG_RULES:,} style rules (<style>); "
                                   "an SVG picture may have at most that many",
                                   MAX_SVG_RULES=MAX_SVG_RULES))
        if node.get("id"):
            ids[node.get("id")] = node
        stack.extend((child, depth + 1) for child in node)
    _size(root)
    _count(root, ids)


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", text)
    return float(m[1]) if m else None


def _size(root) -> None:
    """The picture's size as its root gives it, the one place it is checked: its width and
    height, each where it is not written its viewBox's (as the picture is drawn), more than
    0; a viewBox of no width or height draws nothing either."""
    width, height = _number(root.get("width")), _number(root.get("height"))
    box = [_number(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if v]
    for v in (width, height, *box):
        if v is not None and (not math.isfinite(v) or abs(v) > MAX_SVG_UNITS):
            raise SvgProblem(_("is {v:g} units in size; an SVG picture may be at most "
                               "{MAX_SVG_UNITS:,} units on a side", v=v,
                               MAX_SVG_UNITS=MAX_SVG_UNITS))
    sides = box[2:4] if len(box) == 4 else [None, None]
    drawn = [side if side is not None else of_box for side, of_box in zip((width, height), sides)]
    given = drawn + [v for v in sides if v is not None]
    if any(v is None or v <= 0 for v in given):
        raise SvgProblem(_("has no size (a width or height of 0 or less)"))
    small = min(v for v in given if v is not None)
    if small < MIN_SVG_UNITS:
        raise SvgProblem(_("is {v:g} units in size; an SVG picture must be at least "
                           "{MIN_SVG_UNITS:g} units on a side", v=small,
                           MIN_SVG_UNITS=MIN_SVG_UNITS))


def _count(root, ids: dict) -> None:
    """The elements drawn, each <use> as the elements it copies, and how deep they nest,
    through copies too; a <use> that copies itself, directly or not, is refused."""
    known: dict = {}  # element -> (weight, height) (lxml gives one proxy per element it keeps)
    busy: set = set()

    def measure(node) -> tuple[int, int]:
        if node in known:
            return known[node]
        if node in busy:
            raise SvgProblem(_("has a <use> that copies itself (directly or through others)"))
        busy.add(node)
        total, height = 1, 0
        inner = [child for child in node if isinstance(child.tag, str)]
        if _local(node.tag) == "use":
            href = node.get(XLINK_HREF) or node.get("href") or ""
            if ids.get(href[1:]) is not None:
                inner.append(ids[href[1:]])
        for child in inner:
            weight, deep = measure(child)
            total, height = total + weight, max(height, deep)
            if total > MAX_SVG_ELEMENTS:
                raise SvgProblem(_("draws more than {MAX_SVG_ELEMENTS:,} elements (each <use> "
                                   "counted as what it copies)", MAX_SVG_ELEMENTS=MAX_SVG_ELEMENTS))
            if height + 1 > MAX_SVG_DEPTH:
                raise SvgProblem(_("nests elements more than {MAX_SVG_DEPTH} deep (each <use> "
                                   "counted as what it copies)", MAX_SVG_DEPTH=MAX_SVG_DEPTH))
        busy.discard(node)
        known[node] = (total, height + 1)
        return known[node]

    measure(root)


# --- drawing it ----------------------------------------------------------------------------

def _render(root, path: str):
    from svglib.svglib import SvgRenderer
    quiet = logging.getLogger("svglib.svglib")
    level, quiet.disabled = quiet.level, True  # its warnings are not the user's words
    try:
        return SvgRenderer(path, external_reference_root=str(FilePath(path).parent)).render(root)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, ZeroDivisionError,
            OverflowError, RecursionError):
        raise SvgProblem(_("cannot be drawn: an attribute or a path is not as SVG "
                           "writes it")) from None
    finally:
        quiet.disabled, quiet.level = False, level


def _times(a, b):
    """The affine matrix a then b (reportlab's 6-tuples: x' = a x + c y + e)."""
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


_K = 0.5522847498  # a quarter circle's control points, as a share of its radius


def _ellipse(cx, cy, rx, ry) -> list:
    kx, ky = rx * _K, ry * _K
    return [("M", cx + rx, cy), ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy), ("Z",)]


def _rect(x, y, w, h, rx, ry) -> list:
    rx, ry = min(rx or ry or 0, w / 2), min(ry or rx or 0, h / 2)
    if not rx or not ry:
        return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]
    kx, ky = rx * (1 - _K), ry * (1 - _K)
    return [("M", x + rx, y), ("L", x + w - rx, y),
            ("C", x + w - kx, y, x + w, y + ky, x + w, y + ry),
            ("L", x + w, y + h - ry),
            ("C", x + w, y + h - ky, x + w - kx, y + h, x + w - rx, y + h),
            ("L", x + rx, y + h), ("C", x + kx, y + h, x, y + h - ky, x, y + h - ry),
            ("L", x, y + ry), ("C", x, y + ky, x + kx, y, x + rx, y), ("Z",)]


def _outline(shape) -> tuple[list, bool]:
    """A reportlab shape as path operations in its own coordinates, and whether it is closed
    (a fill applies)."""
    from reportlab.graphics import shapes as rs
    kind = type(shape)
    if isinstance(shape, rs.Path) and getattr(shape, "isClipPath", False):
        raise SvgProblem(_("clips shapes (clip-path), which cardgen does not draw: flatten the "
                           "clipping in the drawing program (Inkscape: Path > Intersection)"))
    if isinstance(shape, rs.Path):
        ops: list[tuple] = []
        pts, at = shape.points, 0
        for op in shape.operators:
            if op == 0:
                ops.append(("M", pts[at], pts[at + 1]))
                at += 2
            elif op == 1:
                ops.append(("L", pts[at], pts[at + 1]))
                at += 2
            elif op == 2:
                ops.append(("C", *pts[at:at + 6]))
                at += 6
            else:
                ops.append(("Z",))
        return ops, True
    if kind is rs.Rect:
        return _rect(shape.x, shape.y, shape.width, shape.height, shape.rx, shape.ry), True
    if kind is rs.Circle:
        return _ellipse(shape.cx, shape.cy, shape.r, shape.r), True
    if kind is rs.Ellipse:
        return _ellipse(shape.cx, shape.cy, shape.rx, shape.ry), True
    if kind in (rs.Polygon, rs.PolyLine):
        p = shape.points
        ops = [("M" if i == 0 else "L", p[i], p[i + 1]) for i in range(0, len(p) - 1, 2)]
        return (ops + [("Z",)], True) if kind is rs.Polygon else (ops, False)
    if kind is rs.Line:
        return [("M", shape.x1, shape.y1), ("L", shape.x2, shape.y2)], False
    what = {"LinearGradientShape": "a gradient", "RadialGradientShape": "a gradient",
            "String": "text", "Image": "a picture"}.get(kind.__name__, "a shape")
    raise SvgProblem(_("paints with {what}, which cardgen does not draw in an SVG picture: give "
                       "it plain fills and strokes", what=what))


def _rgb(color) -> tuple | None:
    if color is None:
        return None
    from reportlab.lib.colors import CMYKColor
    if isinstance(color, CMYKColor):
        return tuple(float(v) for v in (color.cyan, color.magenta, color.yellow, color.black))
    return (float(color.red), float(color.green), float(color.blue))


def _share(value) -> float:
    """An opacity: a number from 0 to 1 (none written: 1)."""
    return 1.0 if not isinstance(value, (int, float)) else min(1.0, max(0.0, float(value)))


def _convert(node, matrix, out: list, colors: set, points: list) -> None:
    from reportlab.graphics import shapes as rs
    if isinstance(node, (rs.Group, rs.Drawing)):
        inner = _times(matrix, tuple(getattr(node, "transform", None) or
                                     (1, 0, 0, 1, 0, 0)))
        for child in node.contents:
            _convert(child, inner, out, colors, points)
        return
    ops, closed = _outline(node)
    props = node.getProperties()  # as the shape would draw (an open path filled: no stroke)
    fill = _rgb(props.get("fillColor")) if closed else None
    stroke = _rgb(props.get("strokeColor"))
    width = float(props.get("strokeWidth") or 0) if stroke is not None else 0.0
    if stroke is not None and width <= 0:
        stroke = None
    if fill is None and stroke is None or not ops:
        return
    a, b, c, d, e, f = matrix
    placed = []
    for op in ops:
        xy = op[1:]
        moved = []
        for i in range(0, len(xy), 2):
            x, y = xy[i], xy[i + 1]
            moved += [a * x + c * y + e, b * x + d * y + f]
        if not all(abs(v) <= MAX_COORDINATE for v in moved):  # (inf and nan are not)
            raise SvgProblem(_("has a coordinate too large to draw (beyond {MAX_COORDINATE:,.0f})",
                               MAX_COORDINATE=MAX_COORDINATE))
        placed.append((op[0], *moved))
        points[0] += len(moved)
    if points[0] > MAX_SVG_POINTS:
        raise SvgProblem(_("has more than {MAX_SVG_POINTS:,} coordinates in its paths",
                           MAX_SVG_POINTS=MAX_SVG_POINTS))
    scale = math.sqrt(abs(a * d - b * c))
    dash = tuple(float(v) * scale for v in (getattr(node, "strokeDashArray", None) or ())
                 if isinstance(v, (int, float)))
    if not all(0 <= v <= MAX_COORDINATE for v in (width * scale, *dash)):  # (inf, nan: not)
        raise SvgProblem(_("has a stroke width or dash too large to draw (beyond "
                           "{MAX_COORDINATE:,.0f}, or not a number)",
                           MAX_COORDINATE=MAX_COORDINATE))
    path = Path(tuple(placed), fill, stroke, width * scale,
                getattr(node, "fillMode", 1) == 0, int(getattr(node, "strokeLineCap", 0) or 0),
                int(getattr(node, "strokeLineJoin", 0) or 0), dash)
    colors.update(c for c in (fill, stroke) if c is not None)
    opacity = min(_share(getattr(node, "fillOpacity", None)) if fill else 1.0,
                  _share(getattr(node, "strokeOpacity", None)) if stroke else 1.0)
    if opacity <= 0:
        return
    out.append(Group((path,), opacity=opacity) if opacity < 1 else path)
