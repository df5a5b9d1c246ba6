"""Stage 4, lay out: turn each card's layout into measured, finished primitives.

For every card and each of its faces, the layout's elements are bound to the
card (Jinja2, sandboxed), their lengths resolved (mm, cm, in, pt, % of the card),
their text broken and fitted, and the result is a `Face` of primitives that the
drawing library (`draw`) draws without deciding anything. Every problem (a bad value, text
that does not fit, a character the font lacks, a missing image) is a located
error naming the card, the element and the field; nothing is clipped silently.

Element coordinates are written from the card's top-left corner, y downwards, as
designers measure; primitives use PDF's bottom-left origin.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from .. import fonts
from ..colors import parse_color
from ..model import Card, Deck, ElementSpec, FontFamily, Game, LayoutSpec, plain
from ..problems import Location, Report
from ..units import mm
from .. import sandbox
from . import bindings, images
from .bindings import BindingError
from .board import layout_board
from .primitives import Block, Ellipse, Face, Group, Image, Item, Line, Polygon, Rect, Text
from .text import Box, DoesNotFit, MarkupError, MissingGlyphs, Style, parse, set_text

INK = (0.12, 0.12, 0.14)
# Budgets for values data controls: beyond these a value is a mistake, not a design.
MAX_TEXT_SIZE = 500.0  # pt: a 17 cm letter
MAX_LINE_SPACING = 10.0  # times the text size
MAX_SIDES = 360  # a polygon's sides: more looks like a circle anyway
DRAFT_RED = (0.85, 0.1, 0.1)
GUIDE_TRIM = (0.9, 0.0, 0.0)
GUIDE_BLEED = (0.9, 0.0, 0.9)
GUIDE_SAFE = (0.0, 0.6, 0.2)
GUIDE_BOX = (0.0, 0.55, 0.85)
DEFAULT_STROKE_WIDTH = 0.5


@dataclass(frozen=True)
class DeckFaces:
    deck: Deck
    fronts: Mapping[str, Face]  # card id -> face
    backs: Mapping[str, Face]


@dataclass(frozen=True)
class GameFaces:
    game: Game
    decks: tuple[DeckFaces, ...]
    boards: tuple = ()  # BoardFace for each of the game's boards


class _Bad(Exception):
    """A problem with one element for one card: reported at `where`, or at the element's key."""

    def __init__(self, key: str, message: str, where: Location | None = None,
                 check: str = "layout", named: bool = False):
        super().__init__(message)
        self.key, self.message, self.where, self.check = key, message, where, check
        self.named = named  # the message already names what it is about


# "{{ data.palette.fire }}" or "{{ data.ranks[2].color }}": a value taken from a data table,
# so a bad one is reported where the table says it (once), not at every card that uses it.
_DATA_TEMPLATE = re.compile(r"^\s*\{\{\s*data\.([A-Za-z_]\w*)((?:\.\w+|\[\s*\d+\s*\])*)\s*\}\}\s*$")
# "{{ card.effect }}" or "{{ card.name | default(card.id) }}": a text bound to one card field.
_FIELD_TEMPLATE = re.compile(r"^\s*\{\{\s*card\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|[^{}]*)?\}\}\s*$")


class _Compiled:
    """An element compiled once per build: which of its keys are templates, and every
    value (or group of values) that no template touches, resolved once and reused."""

    __slots__ = ("el", "templated", "static", "values")

    def __init__(self, el: ElementSpec):
        self.el = el
        self.templated = frozenset(k for k, v in el.props.items() if bindings.is_template(v))
        self.static = _static(el)  # the same on every card: laid out once
        self.values: dict = {}


def _plan(layout: LayoutSpec, memo: dict) -> tuple[_Compiled, ...]:
    """The layout's elements, compiled once per build."""
    key = ("plan", id(layout))
    plan = memo.get(key)
    if plan is None:
        plan = memo[key] = tuple(_Compiled(el) for el in layout.elements)
    return plan


class _Element:
    """One element's values for one card, parsed on demand; errors name the key."""

    def __init__(self, compiled: _Compiled, scope: dict, layout: LayoutSpec, game: Game,
                 memo: dict):
        self.compiled, self.el, self.scope, self.layout, self.game = (
            compiled, compiled.el, scope, layout, game)
        self.memo = memo  # what a whole build computes once: set texts

    def raw(self, key: str, default: Any = None) -> Any:
        if key not in self.compiled.templated:
            return self.el.props.get(key, default)
        try:
            return bindings.render(self.el.props[key], self.scope)
        except BindingError as exc:
            raise _Bad(key, str(exc)) from None

    def _parsed(self, kind: str, key: str, default: Any, parse):
        """A value that is no template is the same for every card: parse it once per build."""
        if key in self.compiled.templated:
            return parse(self.raw(key, default))
        values = self.compiled.values
        try:
            return values[kind, key]
        except KeyError:
            value = values[kind, key] = parse(self.el.props.get(key, default))
            return value

    def derived(self, name: str, keys: frozenset, compute):
        """What is computed from `keys` alone: once per build when none of them is a template."""
        if not self.compiled.templated.isdisjoint(keys):
            return compute()
        values = self.compiled.values
        try:
            return values[name]
        except KeyError:
            value = values[name] = compute()
            return value

    def length(self, key: str, default: Any, of: float) -> float:
        try:
            return self._parsed(f"length {of}", key, default, lambda v: bindings.length(v, of))
        except BindingError as exc:
            raise _Bad(key, str(exc)) from None

    def color(self, key: str, default: Any = None):
        try:
            return self._parsed("color", key, default,
                                lambda v: bindings.color(v, self.game.colors))
        except BindingError as exc:
            raise _Bad(key, str(exc)) from None

    def number(self, key: str, default: Any, low: float | None = None, high: float | None = None,
               above: float | None = None, whole: bool = False) -> float:
        """A finite number, within [low, high] (or more than `above`), whole if asked."""
        try:
            value = self._parsed("number", key, default, bindings.number)
        except BindingError as exc:
            raise _Bad(key, str(exc)) from None
        shown = f"{int(value)}" if value == int(value) else f"{value:g}"
        if whole and value != int(value):
            raise _Bad(key, f"must be a whole number, not {shown}")
        if above is not None and not value > above:
            raise _Bad(key, f"must be more than {above:g}, not {shown}")
        if low is not None and high is not None and not low <= value <= high:
            raise _Bad(key, f"must be from {low:g} to {high:g}, not {shown}")
        if high is not None and value > high:
            raise _Bad(key, f"must be at most {high:g}, not {shown}")
        if low is not None and value < low:
            raise _Bad(key, f"must be at least {low:g}, not {shown}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        try:
            return self._parsed("flag", key, default, bindings.boolean)
        except BindingError as exc:
            raise _Bad(key, str(exc)) from None

    def family(self) -> FontFamily:
        name = str(self.raw("font", "gothic"))
        family = self.game.fonts.get(name)
        if family is None:
            raise _Bad("font", f"unknown font family '{name}' (families: {', '.join(self.game.fonts)})")
        return family


def _scope(shared: dict, card: Card) -> dict:
    """What a card's templates see: the card, and what its deck and game share."""
    return sandbox.scope({**shared, "card": card.record(), "draft": bool(card.drafts())})


_BOX_KEYS = frozenset({"x", "y", "width", "height", "bleed"})
_TEXT_KEYS = _BOX_KEYS | {"font", "size", "fit", "min_size", "vertical", "align", "valign",
                          "line_spacing", "wrap", "padding", "color", "bold"}


def _box(e: _Element, layout: LayoutSpec) -> tuple[float, float, float, float]:
    """The element's box (x, y, w, h) in PDF coordinates, bleed applied."""
    return e.derived("box", _BOX_KEYS, lambda: _measure_box(e, layout))


def _measure_box(e: _Element, layout: LayoutSpec) -> tuple[float, float, float, float]:
    W, H = layout.size
    x = e.length("x", "0mm", W)
    y = e.length("y", "0mm", H)
    w = e.length("width", "100%", W)
    h = e.length("height", "100%", H)
    bx, by = x, H - y - h
    if e.flag("bleed"):
        b, eps = layout.bleed, 0.01
        left, bottom = (bx - b if abs(bx) < eps else bx), (by - b if abs(by) < eps else by)
        right = bx + w + b if abs(bx + w - W) < eps else bx + w
        top = by + h + b if abs(by + h - H) < eps else by + h
        bx, by, w, h = left, bottom, right - left, top - bottom
    return bx, by, w, h


def _image_in(path: str, x: float, y: float, w: float, h: float, fit: str,
              label: str | None = None) -> list[Item]:
    pw, ph = images.inspect(path, label)
    digest = images.digest(path)
    if fit == "stretch":
        return [Image(path, x, y, w, h, digest)]
    scale = (min if fit == "contain" else max)(w / pw, h / ph)
    iw, ih = pw * scale, ph * scale
    placed = Image(path, x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, digest)
    return [placed] if fit == "contain" else [Group((placed,), clip=(x, y, w, h))]


@dataclass(frozen=True)
class _TextParams:
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
    ident: int = 0  # the same for equal settings within a build: a cheap key for the memo


def _text_params(e: _Element, box) -> _TextParams:
    p = _measure_text_params(e, box)
    key = ("text params", p.style, p.inner.w, p.inner.h, p.size, p.min_size, p.spacing, p.align,
           p.valign, p.vertical, p.phrase)
    ident = e.memo.setdefault(key, len(e.memo))
    return replace(p, ident=ident)


def _measure_text_params(e: _Element, box) -> _TextParams:
    family = e.family()
    H = e.layout.size[1]
    size = e.length("size", "9pt", H)
    if not 0 < size <= MAX_TEXT_SIZE:
        raise _Bad("size", f"must be more than 0pt and at most {MAX_TEXT_SIZE:g}pt, not "
                           f"{size:g}pt")
    fit = e.raw("fit", "error")
    min_size = e.length("min_size", "6pt", H) if fit == "shrink" else size
    if not 0 < min_size:
        raise _Bad("min_size", f"must be more than 0pt, not {min_size:g}pt")
    vertical = e.flag("vertical")
    align = e.raw("align", "right" if vertical else "left")
    if vertical and align == "justify":
        align = "right"
    pad = e.length("padding", "0mm", H)
    x, y, w, h = box
    return _TextParams(
        Style(family, e.flag("bold"), e.color("color", "ink") or INK),
        Box(x + pad, y + pad, w - 2 * pad, h - 2 * pad), size, min_size,
        e.number("line_spacing", 1.5 if vertical else 1.4, above=0, high=MAX_LINE_SPACING),
        align, e.raw("valign", "top"),
        vertical, e.raw("wrap", "normal") == "phrase", fit)


def _text_items(e: _Element, box, card: Card, game: Game) -> list[Item]:
    el = e.el
    text = e.raw("text", "")
    text = "" if text is None else str(text)
    p = e.derived("text", _TEXT_KEYS, lambda: _text_params(e, box))
    inner = p.inner
    # The same text in the same box (a label, a repeated effect) is set once per build:
    # the faces share the finished (immutable) items.
    key = (text, p.ident, inner.x, inner.y)
    placed = e.memo.get(key)
    if placed is None:
        try:
            items = _set(text, p.style, inner, p.size, p.min_size, p.spacing, p.align, p.valign,
                         p.vertical, game, p.phrase)
        except (MissingGlyphs, MarkupError, images.ImageProblem, DoesNotFit) as exc:
            # A text bound straight to a card field is reported at that field.
            field = _FIELD_TEMPLATE.match(str(el.props.get("text", "")))
            where = card.locate(field.group(1)) if field and field.group(1) in card.fields else None
            what = f"{field.group(1)} (element '{el.name}')" if where else "text"
            raise _text_problem(exc, what, where, inner, p.vertical, p.fit) from None
        placed = e.memo[key] = [Block(items)]
    return placed


def _set(text, style, inner, size, min_size, spacing, align, valign, vertical, game,
         phrase=False) -> tuple:
    """The text set in the inner box."""
    atoms = parse(text, style, game.colors, game.icons, game.fonts, parse_color, images.aspect)
    base = style.family.bold if style.bold else style.family.regular
    items, _ = set_text(atoms, inner, size, min_size, spacing, align, valign, vertical, base,
                        phrase)
    return tuple(items)


def _text_problem(exc: Exception, what: str, where, inner: Box, vertical: bool, fit) -> _Bad:
    if isinstance(exc, MissingGlyphs):
        codes = ", ".join(f"U+{ord(c):04X} '{c}'" for c in exc.chars)
        return _Bad("text", f"{what} has characters the font '{exc.family}' cannot draw: {codes}",
                    where, "glyph", named=True)
    if isinstance(exc, MarkupError):
        return _Bad("text", f"{what}: {exc}", where, "markup", named=True)
    if isinstance(exc, images.ImageProblem):
        return _Bad("text", f"{what}: {exc}", where, "image", named=True)
    dims = f"{inner.w / mm(1):.1f} x {inner.h / mm(1):.1f} mm"
    if exc.too_wide:
        message = f"{what} does not fit: a character is wider than the {dims} box at {exc.size:g} pt"
    else:
        direction = "width" if vertical else "height"
        message = (f"{what} does not fit the {dims} box: it needs {exc.needed / mm(1):.1f} mm "
                   f"of {direction} at {exc.size:g} pt")
        if fit != "shrink":
            message += " (fit: shrink with a min_size lets it shrink)"
    return _Bad("text", message, where, "fit", named=True)


def _shape(e: _Element, card: Card, game: Game) -> list[Item]:
    el, layout = e.el, e.layout
    if el.type == "text":
        return _text_items(e, _box(e, layout), card, game)
    W, H = layout.size
    x, y, w, h = _box(e, layout)
    fill = e.color("fill")
    stroke = e.color("stroke")
    sw = e.length("stroke_width", f"{DEFAULT_STROKE_WIDTH}pt", W) if stroke is not None else 0.0
    dash = tuple(e.length("dash", d, W) for d in e.raw("dash", []) or [])
    kind = el.type
    if kind == "rect":
        return [Rect(x, y, w, h, fill, stroke, sw, e.length("radius", "0mm", min(W, H)), dash)]
    if kind == "ellipse":
        return [Ellipse(x, y, w, h, fill, stroke, sw, dash)]
    if kind == "line":
        x1, y1 = e.length("x", "0mm", W), H - e.length("y", "0mm", H)
        x2, y2 = e.length("x2", "0mm", W), H - e.length("y2", "0mm", H)
        return [Line(x1, y1, x2, y2, stroke or INK, sw or DEFAULT_STROKE_WIDTH, dash)]
    if kind == "polygon":
        if "points" in el.props:
            raw = e.raw("points")
            if isinstance(raw, str):  # a template renders text: read the list back, as a literal
                try:
                    raw = ast.literal_eval(raw)
                except (ValueError, SyntaxError):
                    raise _Bad("points", f"'{raw}' is not a list of [x, y] points") from None
            try:
                points = tuple((bindings.length(px, W), H - bindings.length(py, H)) for px, py in raw)
            except (BindingError, TypeError, ValueError) as exc:
                raise _Bad("points", f"points must be [x, y] lengths: {exc}") from None
        else:
            sides = int(e.number("sides", 6, low=3, high=MAX_SIDES, whole=True))
            cx, cy = x + w / 2, y + h / 2
            points = tuple((cx + w / 2 * math.cos(math.pi / 2 + 2 * math.pi * k / sides),
                            cy + h / 2 * math.sin(math.pi / 2 + 2 * math.pi * k / sides))
                           for k in range(sides))
        return [Polygon(points, fill, stroke, sw, dash)]
    if kind == "image":
        src = str(e.raw("src"))
        try:
            path = str(images.find(src, game.root))
            return _image_in(path, x, y, w, h, e.raw("fit", "contain"), src)
        except images.ImageProblem as exc:
            raise _Bad("src", str(exc), check="image") from None
    if kind == "icon":
        name = str(e.raw("icon"))
        icon = game.icons.get(name)
        if icon is None:
            raise _Bad("icon", f"unknown icon '{name}' (icons: {', '.join(game.icons) or 'none declared'})")
        if icon.image:
            try:
                return _image_in(icon.image, x, y, w, h, "contain")
            except images.ImageProblem as exc:
                raise _Bad("icon", str(exc), check="image") from None
        family = game.fonts[icon.font]
        font = family.regular
        if fonts.missing_glyphs(font, icon.glyph):
            raise _Bad("icon", f"icon '{name}': the font '{icon.font}' cannot draw "
                               f"U+{ord(icon.glyph[0]):04X}")
        size = min(w, h)
        ascent, descent = fonts.ascent_descent(font, size)
        color = icon.color or e.color("fill") or INK
        return [Text(x + w / 2, y + h / 2 - (ascent + descent) / 2, icon.glyph, font, size, color,
                     anchor="middle")]
    raise _Bad("type", f"unknown element type '{kind}'")  # the layout schema stops this first


_TURN_KEYS = frozenset({"rotate", "opacity"})


def _turn(e: _Element) -> tuple[float, float]:
    rotate = e.number("rotate", 0, low=-360, high=360)
    opacity = e.number("opacity", 1, low=0, high=1)
    return rotate, opacity


def _element(compiled: _Compiled, layout: LayoutSpec, card: Card, game: Game, scope: dict,
             report: Report, memo: dict) -> tuple[list[Item], tuple | None]:
    el = compiled.el
    e = _Element(compiled, scope, layout, game, memo)
    try:
        if "when" in el.props:
            try:
                if not bindings.condition(el.props["when"], scope):
                    return [], None
            except BindingError as exc:
                raise _Bad("when", str(exc)) from None
        items = _shape(e, card, game)
        box = _box(e, layout)
        rotate, opacity = e.derived("turn", _TURN_KEYS, lambda: _turn(e))
    except _Bad as bad:
        data = _DATA_TEMPLATE.match(str(el.props.get(bad.key, ""))) if bad.where is None else None
        if data and data.group(1) in game.data_sources:  # the bad value is in a data table
            path = tuple(int(p) if p.isdigit() else p for p in re.findall(r"\w+", data.group(2)))
            shown = ".".join(map(str, (data.group(1), *path)))
            report.error(f"data {shown}: {bad.message} (used by layout '{layout.id}', element "
                         f"'{el.name}', {bad.key})",
                         game.data_sources[data.group(1)].locate(path), bad.check)
            return [], None
        if bad.where is not None:  # about a card field: the message names it
            message = bad.message
        elif bad.named:  # the message starts with what it is about ("text does not fit")
            message = f"element '{el.name}': {bad.message}"
        else:
            message = f"element '{el.name}': {bad.key}: {bad.message}"
        report.error(f"card '{card.id}': {message}", bad.where or el.locate(bad.key), bad.check)
        return [], None
    if rotate or opacity < 1:
        x, y, w, h = box
        items = [Group(tuple(items), rotate=-rotate, cx=x + w / 2, cy=y + h / 2, opacity=opacity)]
    return items, box


def _guides(layout: LayoutSpec, boxes: list[tuple[str, tuple]], label_font: str) -> list[Item]:
    W, H, b, s = *layout.size, layout.bleed, layout.safe
    items: list[Item] = [
        Rect(-b, -b, W + 2 * b, H + 2 * b, stroke=GUIDE_BLEED, stroke_width=0.3, dash=(2, 2)),
        Rect(0, 0, W, H, stroke=GUIDE_TRIM, stroke_width=0.3),
        Rect(s, s, W - 2 * s, H - 2 * s, stroke=GUIDE_SAFE, stroke_width=0.3, dash=(1, 2)),
    ]
    for name, (x, y, w, h) in boxes:
        items.append(Rect(x, y, w, h, stroke=GUIDE_BOX, stroke_width=0.25, dash=(1, 1)))
        items.append(Text(x + 0.8, y + h - 4.2, name, label_font, 3.5, GUIDE_BOX))
    return items


def card_hash(card: Card) -> str:
    """A short hash of a card's data: a printed card can be matched to its data."""
    text = json.dumps(card.record(), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:7]


def _stamp(layout: LayoutSpec, card: Card, game: Game, font: str) -> Item:
    """The revision stamp: the game's version and the card's hash, small at the bottom."""
    inset = max(layout.safe, mm(2))
    label = f"{game.version} {card_hash(card)}".strip()
    return Text(inset, inset * 0.45, label, font, 4.0, (0.45, 0.45, 0.45))


def _draft_mark(layout: LayoutSpec, font: str) -> list[Item]:
    """A DRAFT label, white on red so it shows on any design, at the safe area's top-left."""
    inset = max(layout.safe, mm(2))
    size = 5.5
    width = fonts.string_width("DRAFT", font, size) + mm(1.6)
    height = size + mm(1)
    top = layout.size[1] - inset
    ascent, descent = fonts.ascent_descent(font, size)
    return [Rect(inset, top - height, width, height, fill=DRAFT_RED, radius=mm(0.6)),
            Text(inset + width / 2, top - height / 2 - (ascent + descent) / 2, "DRAFT", font,
                 size, (1.0, 1.0, 1.0), anchor="middle")]


def _expressions(el: ElementSpec):
    """The element's values that are evaluated per card: templates and its condition."""
    for key, value in el.props.items():
        text = value if isinstance(value, str) else repr(value)
        if key == "when" or bindings.is_template(text):
            yield text


def _static(el: ElementSpec) -> bool:
    """True if an element draws the same on every card: no template, no condition."""
    return next(_expressions(el), None) is None


def card_independent(layout: LayoutSpec) -> bool:
    """True if no element of the layout depends on the card (a plain card back)."""
    return not any("card" in text or "draft" in text
                   for el in layout.elements for text in _expressions(el))


def layout_face(layout: LayoutSpec, card: Card, game: Game, scope: dict, report: Report,
                guides: bool = False, mark_drafts: bool = True, memo: dict | None = None) -> Face:
    items: list[Item] = []
    boxes: list[tuple[str, tuple]] = []
    memo = {} if memo is None else memo
    for compiled in _plan(layout, memo):
        if compiled.static:  # the same on every card: laid out once per build
            done = compiled.values.get("laid out")
            if done is None:
                element_items, box = _element(compiled, layout, card, game, scope, report, memo)
                done = compiled.values["laid out"] = (
                    [Block(tuple(element_items))] if element_items else [], box)
            element_items, box = done
        else:
            element_items, box = _element(compiled, layout, card, game, scope, report, memo)
        items.extend(element_items)
        if box is not None:
            boxes.append((compiled.el.name, box))
    gothic = game.main_family
    if mark_drafts and card.drafts() and not any(el.name == "draft" for el in layout.elements):
        items.extend(_draft_mark(layout, gothic.bold))
    if mark_drafts and game.stamp:  # fronts only
        items.append(_stamp(layout, card, game, gothic.regular))
    if guides:
        items.extend(_guides(layout, boxes, gothic.regular))
    return Face(layout.size[0], layout.size[1], tuple(items), layout.bleed)


def _warn_backs_per_card(deck, backs: dict, report: Report) -> None:
    """Grouped backs are printed once per group of equal faces (an equal face is an equal
    identity: layout/identity.py). A back that comes out different on every card makes
    as many groups as cards, and as many back files: say so, naming what varies."""
    printed = [c for c in deck.cards if c.copies > 0 and c.id in backs and not c.back]
    if deck.backs != "grouped" or len(printed) < 2:
        return
    if len({backs[c.id] for c in printed}) < len(printed):
        return
    varying = [e for e in deck.back.elements
               if any(bindings.is_template(v) for v in e.props.values())]
    if not varying:
        return
    element = varying[0]
    report.warning(f"deck '{deck.id}': the back layout '{deck.back.id}' comes out different on "
                   f"every card (element '{element.name}' uses the card), so each of the "
                   f"{len(printed)} cards needs a back file of its own; make the element the same "
                   "on every card, or write `backs: duplex` to print each back behind its front",
                   element.loc, "layout")


def layout_game(game: Game, report: Report, guides: bool = False) -> GameFaces:
    if not game.fonts:
        report.error("no font families are defined in fonts/fonts.yaml", game.loc, "font")
        return GameFaces(game, ())
    game_scope = {
        "game": {"id": game.id, "title": game.title, "title_en": game.title_en,
                 "version": game.version},
        "data": plain(game.data),
        "macros": sandbox.macros(game.macros) if game.macros else None,
    }
    decks = []
    memo: dict = {}  # what this build computes once: set texts, parsed values, plain backs
    independent: dict = {}  # id(back layout) -> no element depends on the card
    for deck in game.decks:
        fronts, backs = {}, {}
        shared = {**game_scope, "deck": {"id": deck.id, "name": deck.name, "color": deck.color,
                                         "total": deck.total}}
        for card in deck.cards:
            if card.id in report.tainted:  # its values have errors (reported): no face to draw
                continue
            scope = _scope(shared, card)
            fronts[card.id] = layout_face(deck.front, card, game, scope, report, guides, memo=memo)
            back = deck.card_backs.get(card.back, deck.back) if card.back else deck.back
            plain_back = independent.get(id(back))
            if plain_back is None:
                plain_back = independent[id(back)] = card_independent(back)
            key = ("back", deck.id, id(back))  # a back may use deck.color: per deck
            if plain_back and key in memo:  # a plain back: laid out once
                backs[card.id] = memo[key]
                continue
            backs[card.id] = layout_face(back, card, game, scope, report, guides,
                                         mark_drafts=False, memo=memo)
            if plain_back:
                memo[key] = backs[card.id]
        _warn_backs_per_card(deck, backs, report)
        decks.append(DeckFaces(deck, fronts, backs))
    title_font = game.main_family.bold
    boards = tuple(layout_board(b, next(d.fronts for d in decks if d.deck.id == b.deck), title_font)
                   for b in game.boards)
    return GameFaces(game, tuple(decks), boards)
