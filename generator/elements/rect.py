"""`rect`: a rectangle, with rounded corners if `radius` is given."""

from __future__ import annotations

from ..primitives import Rect
from .base import Element

NAME = "rect"
SCHEMA = {"properties": {"radius": {"$ref": "#/$defs/length"}}}


def lay_out(e: Element) -> list:
    W, H = e.layout.size
    x, y, w, h = e.box()
    fill, stroke, width, dash = e.paint()
    return [Rect(x, y, w, h, fill, stroke, width, e.length("radius", "0mm", min(W, H)), dash)]
