"""`line`: a straight line from (x, y) to (x2, y2), in the stroke colour."""

from __future__ import annotations

from ..primitives import Line
from .base import DEFAULT_STROKE_WIDTH, INK, Element

NAME = "line"
CONTENT = False
BLEEDS = False
EXAMPLE = {"x2": "40mm", "y2": "40mm"}  # its own keys in a working element (the test matrix's)
SCHEMA = {"properties": {"x2": {"$ref": "#/$defs/length"}, "y2": {"$ref": "#/$defs/length"}},
          "required": ["x2", "y2"]}


def lay_out(e: Element) -> list:
    W, H = e.layout.size
    e.box()
    _, stroke, width, dash = e.paint()
    x1, y1 = e.length("x", "0mm", W), H - e.length("y", "0mm", H)
    x2, y2 = e.length("x2", "0mm", W), H - e.length("y2", "0mm", H)
    return [Line(x1, y1, x2, y2, stroke or INK, width or DEFAULT_STROKE_WIDTH, dash)]
