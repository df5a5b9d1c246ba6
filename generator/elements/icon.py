"""`icon`: one of the game's icons (fonts/icons: a glyph, a raster picture or an SVG drawn
as vectors), centred in the box; `color` recolours a glyph or an SVG."""

from __future__ import annotations

from .. import fonts, images
from ..primitives import Text
from ..model import TBD
from .base import INK, Bad, Element, image_in, tbd_mark
from ..i18n import N_, _, said
from ..options import Option, Options

NAME = "icon"
CONTENT = True
BLEEDS = False
EXAMPLE = {"icon": "coin"}  # its own keys in a working element (the test matrix's)
UNDEFAULTED = frozenset({"color"})  # a layout's default text colour does not recolour icons
OPTIONS = Options(
    Option("icon", "text", N_("the name of one of the game's icons"), required=True,
           schema={"minLength": 1}),
    Option("color", "layout-color", N_("recolours a glyph or an SVG icon"), defaults=True,
           shown_default=N_("the icon's own")),
)


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    fill, _unused, _unused, _unused = e.paint()
    game = e.game
    name = str(e.raw("icon"))
    if name == TBD:  # an icon not chosen yet: the card says so
        return tbd_mark(e, x, y, w, h)
    icon = game.icons.get(name)
    if icon is None:
        raise Bad("icon", _("unknown icon '{name}' (icons: {value})",
                            name=name, value=', '.join(game.icons) or 'none declared'))
    color = e.color("color")
    if icon.image:
        if color is not None and not images.svg.is_svg(icon.image):
            raise Bad("color", _("recolours a glyph or an SVG icon only; icon '{name}' is {kind}, "
                                 "which keeps its own colours",
                                     name=name, kind=images.kind(icon.image)))
        try:
            return image_in(icon.image, x, y, w, h, "contain", None, color or icon.color)
        except images.ImageProblem as exc:
            raise Bad("icon", said(exc), check="image") from None
    glyph, family = icon.glyph_and_font()
    font = game.fonts[family].regular
    if fonts.missing_glyphs(font, glyph):
        raise Bad("icon", _("icon '{name}': the font '{icon_font}' cannot draw U+{ord:04X}",
                            name=name, icon_font=family, ord=ord(glyph[0])))
    size = min(w, h)
    ascent, descent = fonts.ascent_descent(font, size)
    color = color or icon.color or fill or INK
    return [Text(x + w / 2, y + h / 2 - (ascent + descent) / 2, glyph, font, size, color,
                 anchor="middle")]
