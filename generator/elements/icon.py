"""`icon`: one of the game's icons (fonts/icons: a glyph or an image), centred in the box."""

from __future__ import annotations

from .. import fonts, images
from ..primitives import Text
from ..model import TBD
from .base import INK, Bad, Element, image_in, tbd_mark

NAME = "icon"
CONTENT = True
BLEEDS = False
EXAMPLE = {"icon": "coin"}  # its own keys in a working element (the test matrix's)
SCHEMA = {"properties": {"icon": {"type": "string", "minLength": 1}}, "required": ["icon"]}


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    fill, _, _, _ = e.paint()
    game = e.game
    name = str(e.raw("icon"))
    if name == TBD:  # an icon not chosen yet: the card says so
        return tbd_mark(e, x, y, w, h)
    icon = game.icons.get(name)
    if icon is None:
        raise Bad("icon", f"unknown icon '{name}' (icons: {', '.join(game.icons) or 'none declared'})")
    if icon.image:
        try:
            return image_in(icon.image, x, y, w, h, "contain")
        except images.ImageProblem as exc:
            raise Bad("icon", str(exc), check="image") from None
    font = game.fonts[icon.font].regular
    if fonts.missing_glyphs(font, icon.glyph):
        raise Bad("icon", f"icon '{name}': the font '{icon.font}' cannot draw "
                          f"U+{ord(icon.glyph[0]):04X}")
    size = min(w, h)
    ascent, descent = fonts.ascent_descent(font, size)
    color = icon.color or fill or INK
    return [Text(x + w / 2, y + h / 2 - (ascent + descent) / 2, icon.glyph, font, size, color,
                 anchor="middle")]
