"""`image`: a PNG or JPEG file from the game folder, contained, covering or stretched."""

from __future__ import annotations

from .. import images
from .base import Bad, Element, image_in

NAME = "image"
SCHEMA = {"properties": {"src": {"type": "string", "minLength": 1},
                         "fit": {"enum": ["contain", "cover", "stretch"]}},
          "required": ["src"]}


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    e.paint()
    src = str(e.raw("src"))
    try:
        path = str(images.find(src, e.game.root))
        return image_in(path, x, y, w, h, e.raw("fit", "contain"), src)
    except images.ImageProblem as exc:
        raise Bad("src", str(exc), check="image") from None
