"""`polygon`: a closed shape through `points`, or a regular polygon of `sides` filling the box."""

from __future__ import annotations

import ast
import math

from ..primitives import Polygon
from . import bindings
from .base import Bad, Element
from .bindings import BindingError
from ..i18n import N_, _
from ..options import Option, Options

NAME = "polygon"
CONTENT = False
BLEEDS = False  # points stay where they are written (with `sides`, `bleed: true` grows the box)
EXAMPLE = {"sides": 5}  # its own keys in a working element (the test matrix's)
MAX_SIDES = 360  # a polygon's sides: more looks like a circle anyway
OPTIONS = Options(
    Option("points", "points", N_("the corners, in card coordinates"), schema={
        "anyOf": [
            {"type": "array", "minItems": 3,
             "items": {"type": "array", "minItems": 2, "maxItems": 2,
                       "items": {"$ref": "#/$defs/length"}}},
            {"type": "string", "pattern": "\\{\\{"},
        ],
        "x-expected": N_("a list of [x, y] points, or a template that gives one"),
    }),
    Option("sides", "layout-integer", N_("a regular polygon of this many sides (3 to 360), a "
                                         "corner at the top, filling the box"), low=3,
           defaults=True),
)


def regular(sides: int, x: float, y: float, w: float, h: float) -> tuple:
    """A regular polygon of `sides`, a corner at the top, stretched to fill the box: its
    leftmost, rightmost, top and bottom points touch the box's sides (a hexagon is as wide
    as its box, not as a circle in it), so a polygon sized to a token covers it."""
    unit = [(math.cos(math.pi / 2 + 2 * math.pi * k / sides),
             math.sin(math.pi / 2 + 2 * math.pi * k / sides)) for k in range(sides)]
    xs, ys = [u for u, _ in unit], [v for _, v in unit]
    mx, hx = (max(xs) + min(xs)) / 2, (max(xs) - min(xs)) / 2
    my, hy = (max(ys) + min(ys)) / 2, (max(ys) - min(ys)) / 2
    cx, cy = x + w / 2, y + h / 2
    return tuple((cx + w / 2 * (u - mx) / hx, cy + h / 2 * (v - my) / hy) for u, v in unit)


def lay_out(e: Element) -> list:
    W, H = e.layout.size
    x, y, w, h = e.box()
    fill, stroke, width, dash = e.paint()
    if "points" in e.el.props:
        raw = e.raw("points")
        if isinstance(raw, str):  # a template renders text: read the list back, as a literal
            try:
                raw = ast.literal_eval(raw)
            except (ValueError, SyntaxError):
                raise Bad("points", _("'{raw}' is not a list of [x, y] points", raw=raw)) from None
        try:
            points = tuple((bindings.length(px, W), H - bindings.length(py, H)) for px, py in raw)
        except (BindingError, TypeError, ValueError) as exc:
            raise Bad("points", _("points must be [x, y] lengths: {exc}", exc=exc)) from None
    else:
        sides = int(e.number("sides", 6, low=3, high=MAX_SIDES, whole=True))
        points = regular(sides, x, y, w, h)
    return [Polygon(points, fill, stroke, width, dash)]
