"""`image`: a PNG or JPEG file from the game folder, contained, covering or stretched."""

from __future__ import annotations

from .. import images
from ..model import TBD
from .base import Bad, Element, image_in, tbd_mark

NAME = "image"
CONTENT = True
BLEEDS = True
EXAMPLE = {"src": "art.png"}  # its own keys in a working element (the test matrix's)


def bleeds_by_default(e: Element) -> bool:
    """A picture that covers or stretches over its box runs on into the bleed; a contained
    one would change its size."""
    return e.raw("fit", "contain") in ("cover", "stretch")
SCHEMA = {"properties": {"src": {"type": "string", "minLength": 1},
                         "fit": {"enum": ["contain", "cover", "stretch"]}},
          "required": ["src"]}


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    e.paint()
    src = str(e.raw("src"))
    if src == TBD:  # a picture not drawn yet: the card says so
        return tbd_mark(e, x, y, w, h)
    try:
        path = str(images.find(src, e.game.root))
        return image_in(path, x, y, w, h, e.raw("fit", "contain"), src)
    except images.ImageProblem as exc:
        raise Bad("src", str(exc), check="image") from None
