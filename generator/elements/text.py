"""`text`: text from the card, set in the box with line breaking, markup and inline icons.

Text that does not fit is an error, or shrinks down to `min_size` where the element says
`fit: shrink`; it is never clipped. A text bound straight to a card field
(`{{ card.effect }}`) is reported at that field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..colors import parse_color
from ..declared import RULEBOOK
from .. import images
from ..primitives import Block
from ..textflow import (Box, DoesNotFit, MarkupError, MissingGlyphs, Style, full_width, parse,
                        set_text, typographic, typography)
from ..units import show_length
from ..values import out_of_range
from .base import BOX_KEYS, INK, Bad, Element
from ..i18n import N_, _
from ..options import Option, Options

NAME = "text"
CONTENT = True  # kept inside the safe area and a token's shape
BLEEDS = False
EXAMPLE = {"text": "Aa あ"}  # its own keys in a working element (the test matrix's)
MAX_TEXT_SIZE = 500.0  # pt: a 17 cm letter
MAX_LINE_SPACING = 10.0  # times the text size
OPTIONS = Options(
    Option("text", "layout-text", N_("the text, with markup (docs/layouts.md)"), required=True),
    Option("font", "text", N_("a font family of fonts/fonts.yaml"), defaults=True,
           shown_default=N_("the game's main family")),
    Option("size", "layout-length", N_("the text's size"), "9pt", defaults=True),
    Option("min_size", "layout-length", N_("the smallest size fit: shrink may set it at"),
           "6pt", defaults=True),
    Option("bold", "layout-boolean", N_("the family's bold face"), False, defaults=True),
    Option("color", "layout-color", N_("the text's colour"), defaults=True,
           shown_default=N_("ink")),
    Option("align", "choice", N_("how lines sit across the box"),
           choices=("left", "center", "right", "justify"), defaults=True,
           shown_default=N_("left (vertical text: right)")),
    Option("valign", "choice", N_("how the text sits down the box"), "top",
           choices=("top", "middle", "bottom"), defaults=True),
    Option("line_spacing", "layout-number", N_("times the size, from line to line (at most "
                                               "10)"), defaults=True,
           schema={"exclusiveMinimum": 0}, shown_default=N_("1.4 (vertical text: 1.5)")),
    Option("fit", "choice", N_("error: a text that does not fit is an error; shrink: it "
                               "shrinks to min_size"), "error", choices=("error", "shrink"),
           defaults=True),
    Option("vertical", "layout-boolean", N_("set top to bottom, lines right to left (tategaki)"),
           False, defaults=True),
    Option("padding", "layout-length", N_("inside the box, on every side"), "0mm",
           defaults=True),
    Option("wrap", "choice", N_("where lines break: normal; phrase: between phrases; name: "
                                "only at ・, ＝, spaces and <wbr>"), "normal",
           choices=("normal", "phrase", "name"), defaults=True),
    Option("condense", "layout-number", N_("the narrowest the glyphs may be condensed before "
                                           "the size shrinks, 50% to 100%"), defaults=True,
           shown_default=N_("100%")),
    Option("hang", "layout-boolean", N_("、 and 。 may hang past a line's end"), False,
           defaults=True),
    Option("tate_chu_yoko", "layout-integer", N_("digits set across in vertical text, 0 to 3"),
           2, defaults=True),
    Option("grid", "layout-boolean", N_("full-width characters on a character grid, one em "
                                        "each"), False, defaults=True),
    Option("ruby", "choice", N_("how readings sit over their words"), "mono",
           choices=("mono", "jukugo", "group"), defaults=True),
    # the rulebook's key, as a text element's: a template, and a key `defaults:` may give
    replace(RULEBOOK["smart_quotes"], kind="layout-boolean", defaults=True),
)

_TEXT_KEYS = BOX_KEYS | {"font", "size", "fit", "min_size", "vertical", "align", "valign",
                         "line_spacing", "wrap", "padding", "color", "bold", "condense",
                         "hang", "tate_chu_yoko", "grid", "ruby", "smart_quotes"}
# "{{ card.effect }}" or "{{ card.name | default(card.id) }}": a text bound to one card field.
_FIELD_TEMPLATE = re.compile(r"^\s*\{\{\s*card\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|[^{}]*)?\}\}\s*$")


@dataclass(frozen=True)
class _Params:
    """How an element sets its text: everything but the text itself."""

    style: Style
    inner: Box
    size: float
    min_size: float
    spacing: float
    align: str
    valign: str
    vertical: bool
    phrase: bool
    fit: Any
    names: bool = False  # wrap: name: lines break only at ・, ＝, spaces and <wbr>
    hang: bool = False  # 、 and 。 may hang past a line's end
    tcy: int = 2  # digits set across in vertical text (tate-chu-yoko)
    condense: float = 1.0  # the narrowest 長体 allowed before the size shrinks
    grid: bool = False  # full-width characters on a character grid, one em each (ベタ組み)
    quotes: bool = True  # typographer's quotes, apostrophes and ranges (textflow.typography)
    ident: int = 0  # the same for equal settings within a build: a short key for set texts


@dataclass
class Cache:
    """What a build sets once: the same text with the same settings at the same spot is set
    once, and the faces share the finished (immutable) items."""

    settings: dict[tuple, int] = field(default_factory=dict)  # settings -> ident
    set_texts: dict[tuple, list] = field(default_factory=dict)  # (text, ident, x, y) -> [Block]


def _params(e: Element, box) -> _Params:
    p = _measure(e, box)
    key = (p.style, p.inner.w, p.inner.h, p.size, p.min_size, p.spacing, p.align, p.valign,
           p.vertical, p.phrase, p.names, p.hang, p.tcy, p.condense, p.grid, p.quotes)
    settings = e.cache.settings
    ident = settings.setdefault(key, len(settings))
    return replace(p, ident=ident)


def _measure(e: Element, box) -> _Params:
    family = e.family()
    H = e.layout.size[1]
    size = e.option("size", H)
    if not 0 < size <= MAX_TEXT_SIZE:
        raise Bad("size", _("must be more than 0pt and at most {MAX_TEXT_SIZE:g}pt, not {size:g}pt",
                            MAX_TEXT_SIZE=MAX_TEXT_SIZE, size=size))
    fit = e.option("fit")
    min_size = e.option("min_size", H) if fit == "shrink" else size
    if not 0 < min_size:
        raise Bad("min_size", _("must be more than 0pt, not {min_size:g}pt", min_size=min_size))
    vertical = e.option("vertical")
    align = e.raw("align", "right" if vertical else "left")  # (vertical justify: from the right)
    pad = e.option("padding", H)
    condense = _condense(e)
    if vertical and condense < 1:
        raise Bad("condense", _("condenses horizontal text only (this text is vertical)"))
    x, y, w, h = box
    if pad < 0:
        raise Bad("padding", _("must be 0mm or more, not {pad:g}mm", pad=round(pad * MM, 2)))
    if min(w, h) - 2 * pad <= 0:
        raise Bad("padding", _("{pad:g}mm on every side leaves no room for text in the "
                               "{w:.1f} x {h:.1f} mm box", pad=round(pad * MM, 2), w=w * MM,
                               h=h * MM))
    wrap = e.option("wrap")
    return _Params(
        Style(family, e.option("bold"), e.color("color", "ink") or INK, ruby=e.option("ruby")),
        Box(x + pad, y + pad, w - 2 * pad, h - 2 * pad), size, min_size,
        e.number("line_spacing", 1.5 if vertical else 1.4, above=0, high=MAX_LINE_SPACING),
        align, e.option("valign"),
        vertical, wrap == "phrase", fit, wrap == "name", e.option("hang"),
        int(e.number("tate_chu_yoko", 2, low=0, high=3, whole=True)), condense,
        e.option("grid"), e.option("smart_quotes"))


MM = 25.4 / 72  # millimetres in a point


def _condense(e: Element) -> float:
    """`condense: 80%` (or 0.8): the narrowest the glyphs may be condensed, 50% to 100%."""
    value = e.raw("condense", 1.0)
    text = str(value).strip()
    try:
        scale = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise Bad("condense", _("must be a percentage such as 80%, not '{text}'",
                                text=text)) from None
    if not 0.5 <= scale <= 1:
        raise Bad("condense", out_of_range(text, "50%", "100%"))
    return scale


def lay_out(e: Element) -> list:
    box = e.box()
    text = e.raw("text", "")
    text = "" if text is None else str(text)
    p = e.derived("text", _TEXT_KEYS, lambda: _params(e, box))
    inner = p.inner
    key = (text, p.ident, inner.x, inner.y)
    placed = e.cache.set_texts.get(key)
    if placed is None:
        game = e.game
        try:
            atoms = parse(text, p.style, game.colors, game.icons, game.fonts, parse_color,
                          images.aspect)
            if p.quotes and typography.MARKS.search(text):
                atoms = typographic(atoms)
            if typography.FULL_WIDTH.search(text):
                atoms = full_width(atoms)
            base = p.style.family.bold if p.style.bold else p.style.family.regular
            items, _unused = set_text(atoms, inner, p.size, p.min_size, p.spacing, p.align,
                                      p.valign, p.vertical, base, p.phrase, p.names, p.hang,
                                      p.tcy, p.condense, p.grid)
        except (MissingGlyphs, MarkupError, images.ImageProblem, DoesNotFit) as exc:
            raise _problem(e, exc, p) from None
        placed = e.cache.set_texts[key] = [Block(tuple(items))]
    return placed


def _problem(e: Element, exc: MissingGlyphs | MarkupError | images.ImageProblem | DoesNotFit,
             p: _Params) -> Bad:
    """A text bound straight to a card field is reported at that field."""
    card, el, inner = e.card, e.el, p.inner
    bound = _FIELD_TEMPLATE.match(str(el.props.get("text", "")))
    field_name = bound.group(1) if bound else None
    where = card.locate(field_name) if field_name and field_name in card.fields else None
    what = _("{field} (element '{element}')", field=field_name, element=el.name) \
        if where else "text"
    if isinstance(exc, MissingGlyphs):
        return Bad("text", exc.said(what), where, "glyph", named=True)
    if isinstance(exc, MarkupError):
        return Bad("text", _("{what}: {exc}", what=what, exc=exc), where, "markup", named=True)
    if isinstance(exc, images.ImageProblem):
        return Bad("text", _("{what}: {exc}", what=what, exc=exc), where, "image", named=True)
    unit = e.layout.unit  # the unit the layout is written in
    dims = show_length(inner.w, unit).replace(f" {unit}", "") + " x " + show_length(inner.h, unit)
    condensed = _(" condensed to {percent:.0%}", percent=p.condense) if p.condense < 1 else ""
    if exc.too_wide and p.names:
        message = _("{what} does not fit: a part of the name between its break points (・, ＝, "
                    "spaces, <wbr>) is wider than the {dims} box at {size:g} pt{condensed}",
                    what=what, dims=dims, size=exc.size, condensed=condensed)
    elif exc.too_wide:
        message = _("{what} does not fit: a character is wider than the {dims} box at {size:g} pt",
                    what=what, dims=dims, size=exc.size)
    else:
        needed = show_length(exc.needed, unit)
        shrink = "" if p.fit == "shrink" else _(" (fit: shrink with a min_size lets it shrink)")
        if p.vertical:
            message = _("{what} does not fit the {dims} box: it needs {needed} of width at "
                        "{size:g} pt{condensed}{shrink}", what=what, dims=dims, needed=needed,
                        size=exc.size, condensed=condensed, shrink=shrink)
        else:
            message = _("{what} does not fit the {dims} box: it needs {needed} of height at "
                        "{size:g} pt{condensed}{shrink}", what=what, dims=dims, needed=needed,
                        size=exc.size, condensed=condensed, shrink=shrink)
    return Bad("text", message, where, "fit", named=True)
