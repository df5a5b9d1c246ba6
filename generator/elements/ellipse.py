"""`ellipse` (or `circle`): the ellipse that fills the element's box."""

from __future__ import annotations

from ..primitives import Ellipse
from .base import Element

NAME = "ellipse"
ALIASES = ("circle",)  # resolve writes an alias as the type it stands for
SCHEMA = {"properties": {}}


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    fill, stroke, width, dash = e.paint()
    return [Ellipse(x, y, w, h, fill, stroke, width, dash)]
