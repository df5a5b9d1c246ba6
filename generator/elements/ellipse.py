"""`ellipse` (or `circle`): the ellipse that fills the element's box."""

from __future__ import annotations

from ..primitives import Ellipse
from .base import Element
from ..options import Options

NAME = "ellipse"
CONTENT = False
BLEEDS = True  # `bleed: true` runs it on into the bleed where it touches the trim
EXAMPLE = {"fill": "#00ff00"}  # its own keys in a working element (the test matrix's)
ALIASES = ("circle",)  # resolve writes an alias as the type it stands for
OPTIONS = Options()  # the keys every element has, and no more


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    fill, stroke, width, dash = e.paint()
    return [Ellipse(x, y, w, h, fill, stroke, width, dash)]
