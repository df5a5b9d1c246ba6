"""`rect`: a rectangle, with rounded corners if `radius` is given."""

from __future__ import annotations

from ..primitives import Rect
from .base import Element
from ..i18n import N_
from ..options import Option, Options

NAME = "rect"
CONTENT = False
BLEEDS = True  # `bleed: true` runs it on into the bleed where it touches the trim
EXAMPLE = {"fill": "#ff0000"}  # its own keys in a working element (the test matrix's)


def bleeds_by_default(e: Element) -> bool:
    """A filled rectangle without an outline runs on into the bleed unless `bleed: false`
    says otherwise: an outline would move off the card."""
    return e.raw("stroke") in (None, "none")
OPTIONS = Options(
    Option("radius", "layout-length", N_("rounds the corners"), "0mm", defaults=True),
)


def lay_out(e: Element) -> list:
    W, H = e.layout.size
    x, y, w, h = e.box()
    fill, stroke, width, dash = e.paint()
    return [Rect(x, y, w, h, fill, stroke, width, e.option("radius", min(W, H)), dash)]
