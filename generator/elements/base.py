"""What every element type is given: its values for one card, parsed and checked.

An element type (one module in this package) lays out one element for one card by
asking an `Element` for its values: `e.length("x", "0mm", W)`, `e.color("fill")`,
`e.number("sides", 6, low=3)`. A value that is no template is the same on every card
and is parsed once per build; a bad value raises `Bad`, which the layout stage reports
at the key's location, naming the card and the element.
"""

from __future__ import annotations

from typing import Any

from ..model import TBD, Card, ElementSpec, FontFamily, Game, LayoutSpec
from ..problems import Location
from ..colors import INKS
from ..units import parse_length, to_mm
from ..primitives import Item
from .. import fonts, images
from . import COMMON, bindings
from .bindings import BindingError
from ..i18n import _, said
from ..values import out_of_range

INK = INKS["card"]
# (the package declares COMMON before it finds the type modules that import this one)
DEFAULT_STROKE_WIDTH = parse_length(COMMON["stroke_width"].default)  # points: a line's

# Keys every element has, whatever its type (the schema's common part: schemas/element.json).
BOX_KEYS = frozenset({"x", "y", "width", "height", "bleed", "stroke", "fit"})


class Bad(Exception):
    """A problem with one element for one card: reported at `where`, or at the element's key."""

    def __init__(self, key: str, message: str, where: Location | None = None,
                 check: str = "layout", named: bool = False):
        super().__init__(message)
        self.key, self.message, self.where, self.check = key, message, where, check
        self.named = named  # the message already names what it is about


def expressions(el: ElementSpec):
    """The element's values that are evaluated per card: templates and its condition."""
    for key, value in el.props.items():
        text = value if isinstance(value, str) else repr(value)
        if key == "when" or bindings.is_template(text):
            yield text


def _repeat_templates(spec: Any) -> frozenset:
    """The keys of a `repeat:` that are templates, as `repeat.over` (elements/repeat.py)."""
    if not isinstance(spec, dict):
        return frozenset()
    return frozenset(f"repeat.{k}" for k, v in spec.items() if bindings.is_template(v) or (
        isinstance(v, list) and any(map(bindings.is_template, v))))


class Compiled:
    """An element compiled once per build: its type's module (`kind`), which of its keys
    are templates, and every value (or group of values) that no template touches, resolved
    once and reused."""

    __slots__ = ("el", "kind", "templated", "static", "values")

    def __init__(self, el: ElementSpec, kind):
        self.el, self.kind = el, kind
        self.templated = frozenset(k for k, v in el.props.items() if bindings.is_template(v)) | \
            _repeat_templates(el.props.get("repeat"))
        self.static = next(expressions(el), None) is None  # the same on every card
        self.values: dict = {}  # (kind, key) or a derived name -> the value


class Element:
    """One element's values for one card, parsed on demand; errors name the key.
    `cache` is the element type's own cache for the build (its module's `Cache`)."""

    def __init__(self, compiled: Compiled, scope: dict, layout: LayoutSpec, game: Game,
                 card: Card, cache: Any):
        self.compiled, self.el, self.scope, self.layout, self.game = (
            compiled, compiled.el, scope, layout, game)
        self.card, self.cache = card, cache

    def raw(self, key: str, default: Any = None) -> Any:
        if key not in self.compiled.templated:
            return self.el.props.get(key, default)
        try:
            return bindings.render(self.el.props[key], self.scope)
        except BindingError as exc:
            raise Bad(key, said(exc)) from None

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
            raise Bad(key, said(exc)) from None

    def color(self, key: str, default: Any = None):
        try:
            return self._parsed("color", key, default,
                                lambda v: bindings.color(v, self.game.colors))
        except BindingError as exc:
            raise Bad(key, said(exc)) from None

    def number(self, key: str, default: Any, low: float | None = None, high: float | None = None,
               above: float | None = None, whole: bool = False) -> float:
        """A finite number, within [low, high] (or more than `above`), whole if asked."""
        try:
            value = self._parsed("number", key, default, bindings.number)
        except BindingError as exc:
            raise Bad(key, said(exc)) from None
        shown = f"{int(value)}" if value == int(value) else f"{value:g}"
        if whole and value != int(value):
            raise Bad(key, _("must be a whole number, not {shown}", shown=shown))
        if above is not None and not value > above:
            raise Bad(key, _("must be more than {above:g}, not {shown}", above=above, shown=shown))
        if (low is not None and value < low) or (high is not None and value > high):
            raise Bad(key, out_of_range(shown, low, high))
        return value

    def option(self, key: str, of: float | None = None) -> Any:
        """The value of `key` as its type (or every element) declares it (options.py): its
        default where none is written, else the value read by its kind's rule, within its
        range; a length's `%` is of `of` (the card's width unless given)."""
        from . import option
        declared = option(self.compiled.kind, key)
        kind, default = declared.kind, declared.default
        if kind == "layout-length":
            return self.length(key, default, self.layout.size[0] if of is None else of)
        if kind == "layout-color":
            return self.color(key, default)
        if kind in ("layout-flag", "layout-boolean"):
            return self.flag(key, bool(default))
        if kind in ("layout-number", "layout-integer"):
            low, high = declared.limits()
            return self.number(key, default, low=low, high=high,
                               whole=kind == "layout-integer")
        return self.raw(key, default)

    def flag(self, key: str, default: bool = False) -> bool:
        try:
            return self._parsed("flag", key, default, bindings.boolean)
        except BindingError as exc:
            raise Bad(key, said(exc)) from None

    def family(self) -> FontFamily:
        name = str(self.raw("font", "gothic"))
        family = self.game.fonts.get(name)
        if family is None:
            raise Bad("font", _("unknown font family '{name}' (families: {join})",
                                name=name, join=', '.join(self.game.fonts)))
        return family

    def box(self) -> tuple[float, float, float, float]:
        """The element's box (x, y, w, h) in PDF coordinates, bleed applied."""
        return self.derived("box", BOX_KEYS, self._measure_box)

    def _measure_box(self) -> tuple[float, float, float, float]:
        layout = self.layout
        W, H = layout.size
        x, y = self.option("x", W), self.option("y", H)
        w, h = self.option("width", W), self.option("height", H)
        for key, side, of, across in (("width", w, W, "wide"), ("height", h, H, "high")):
            if side < -0.01:  # "100% - 21mm" on a card narrower than 21 mm
                raise Bad(key, _("'{raw}' comes to {side:.1f} mm on this {of:g} mm {across} card: "
                                 "a box cannot be less than nothing",
                                     raw=self.raw(key), side=to_mm(side), of=to_mm(of),
                                     across=across))
        bx, by = x, H - y - h
        if self.flag("bleed", self.bleeds_by_default()):
            b, eps = layout.bleed, 0.01
            left, bottom = (bx - b if abs(bx) < eps else bx), (by - b if abs(by) < eps else by)
            right = bx + w + b if abs(bx + w - W) < eps else bx + w
            top = by + h + b if abs(by + h - H) < eps else by + h
            bx, by, w, h = left, bottom, right - left, top - bottom
        return bx, by, w, h

    def bleeds_by_default(self) -> bool:
        """Ink that reaches the trim line runs on into the bleed, or the cut would show a
        white sliver: the element type says when its ink does so without `bleed: true`
        (its module's `bleeds_by_default`; none, if it has none)."""
        decide = getattr(self.compiled.kind, "bleeds_by_default", None)
        return bool(decide(self)) if decide is not None else False

    def paint(self) -> tuple:
        """(fill, stroke, stroke width, dash) of a shape; no stroke has no width."""
        W = self.layout.size[0]
        fill = self.color("fill")
        stroke = self.color("stroke")
        width = self.option("stroke_width", W) if stroke is not None else 0.0
        return fill, stroke, width, self.derived("dash", frozenset({"dash"}), self._dash)

    def _dash(self) -> tuple[float, ...]:
        """The stroke's dash pattern: each length of `dash` (a list, so not one length)."""
        W = self.layout.size[0]
        try:
            return tuple(bindings.length(d, W) for d in self.raw("dash", []) or [])
        except BindingError as exc:
            raise Bad("dash", said(exc)) from None


TBD_GREY = (0.55, 0.55, 0.55)


def tbd_mark(e: "Element", x: float, y: float, w: float, h: float) -> list[Item]:
    """What a picture or an icon not chosen yet (TBD) prints in its box: a dashed grey frame
    with TBD in it, as a TBD text prints TBD, so that the card shows what is missing."""
    from ..primitives import Rect, Text
    font = e.game.main_family.bold
    size = max(3.0, min(h * 0.4, w / 2.2, 14.0))
    ascent, descent = fonts.ascent_descent(font, size)
    return [Rect(x, y, w, h, stroke=TBD_GREY, stroke_width=0.6, dash=(2.0, 1.5)),
            Text(x + w / 2, y + h / 2 - (ascent + descent) / 2, TBD, font, size, TBD_GREY,
                 anchor="middle")]


def image_in(path: str, x: float, y: float, w: float, h: float, fit: str,
             label: str | None = None, color=None) -> list[Item]:
    """A picture file placed in a box: contained, covering it (clipped) or stretched; an
    SVG as vectors, recoloured to `color` where given (images.placed)."""
    return images.placed(path, x, y, w, h, fit, label, color)
