"""`line`: a straight line from (x, y) to (x2, y2), in the stroke colour."""

from __future__ import annotations

from ..primitives import Line
from .base import DEFAULT_STROKE_WIDTH, INK, Element
from ..i18n import N_
from ..options import Option, Options

NAME = "line"
CONTENT = False
BLEEDS = False
EXAMPLE = {"x2": "40mm", "y2": "40mm"}  # its own keys in a working element (the test matrix's)
OPTIONS = Options(
    Option("x2", "layout-length", N_("where the line ends, across"), required=True),
    Option("y2", "layout-length", N_("where the line ends, down"), required=True),
)


def lay_out(e: Element) -> list:
    W, H = e.layout.size
    e.box()
    _, stroke, width, dash = e.paint()
    x1, y1 = e.length("x", "0mm", W), H - e.length("y", "0mm", H)
    x2, y2 = e.length("x2", "0mm", W), H - e.length("y2", "0mm", H)
    return [Line(x1, y1, x2, y2, stroke or INK, width or DEFAULT_STROKE_WIDTH, dash)]
