"""`image`: a picture file from the game folder (PNG, JPEG, or SVG drawn as vectors),
contained, covering or stretched; an SVG recoloured with `color`."""

from __future__ import annotations

from .. import images
from ..model import TBD
from .base import Bad, Element, image_in, tbd_mark
from ..i18n import N_, _, said
from ..options import Option, Options

NAME = "image"
CONTENT = True
BLEEDS = True
EXAMPLE = {"src": "art.png"}  # its own keys in a working element (the test matrix's)
UNDEFAULTED = frozenset({"color"})  # a layout's default text colour does not recolour pictures


def bleeds_by_default(e: Element) -> bool:
    """A picture that covers or stretches over its box runs on into the bleed; a contained
    one would change its size."""
    return e.raw("fit", "contain") in ("cover", "stretch")
OPTIONS = Options(
    Option("src", "text", N_("the picture file, in the game's images folder"), required=True,
           schema={"minLength": 1}),
    Option("fit", "choice", N_("contain: the whole picture in the box; cover: the box filled, "
                               "clipped; stretch: both"), "contain",
           choices=("contain", "cover", "stretch"), defaults=True),
    Option("color", "layout-color", N_("recolours an SVG picture"), defaults=True,
           shown_default=N_("the picture's own")),
)


def recolor(e: Element, path: str, shown: str):
    """The colour `color:` gives an SVG picture; an error on a raster, whose colours are its
    own (a photo has no single colour to change)."""
    color = e.color("color")
    if color is not None and not images.svg.is_svg(path):
        raise Bad("color", _("recolours an SVG picture only; '{shown}' is {kind}, which keeps its "
                             "own colours (leave out color:, or use an SVG)",
                                 shown=shown, kind=images.kind(path)))
    return color


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    e.paint()
    src = str(e.raw("src"))
    if src == TBD:  # a picture not drawn yet: the card says so
        return tbd_mark(e, x, y, w, h)
    try:
        path = str(images.find(src, e.game.root))
        return image_in(path, x, y, w, h, e.option("fit"), src, recolor(e, path, src))
    except images.ImageProblem as exc:
        raise Bad("src", said(exc), check="image") from None
