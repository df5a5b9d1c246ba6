"""Values of layout elements bound to a card through Jinja2, in Jinja2's sandbox.

Element types use these to parse their values. A value written with `{{ ... }}` is a
template over the card (`card.name`, `card.copies`), its deck (`deck.color`), the game
(`game.title`), its data tables (`data.setup`) and the palette (`colors`). `when:` is an
expression.
Templates are compiled once and reused for every card.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from ..i18n import said, _
from ..colors import Color, parse_color
from ..sandbox import SandboxError as BindingError
from ..sandbox import condition, is_template, render  # noqa: F401  (the elements API)
from ..units import parse_length
from ..values import flag


def length(value: Any, percent_of: float) -> float:
    try:
        return parse_length(value, percent_of)
    except ValueError as exc:
        raise BindingError(said(exc)) from None


def color(value: Any, palette: Mapping[str, Color]) -> Color | None:
    if value is None:
        return None
    try:
        return parse_color(value, palette)
    except ValueError as exc:
        raise BindingError(said(exc)) from None


def number(value: Any) -> float:
    """A finite number, written as a number or as text ("inf", "nan" and "1e400" are not)."""
    if isinstance(value, bool):
        raise BindingError(_("'{value}' is not a number", value=value))
    try:
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        raise BindingError(_("'{value}' is not a number", value=value)) from None
    if not math.isfinite(result):
        raise BindingError(_("'{value}' is not a finite number", value=value))
    return result


def boolean(value: Any) -> bool:
    """True or false, by the one rule for flags (values.flag)."""
    try:
        return flag(value)
    except ValueError as exc:
        raise BindingError(said(exc)) from None
