"""Values of layout elements bound to a card through Jinja2, in Jinja2's sandbox.

A value written with `{{ ... }}` is a template over the card (`card.name`,
`card.copies`), its deck (`deck.color`), the game (`game.title`), its data
tables (`data.setup`) and the palette (`colors`). `when:` is an expression.
Templates are compiled once and reused for every card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..colors import Color, parse_color
from ..units import parse_length

ENV = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                                    keep_trailing_newline=False)


class BindingError(Exception):
    """A value could not be evaluated or parsed; the message says why."""


@lru_cache(maxsize=4096)
def _template(source: str) -> jinja2.Template:
    try:
        return ENV.from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise BindingError(f"template syntax: {exc.message}") from None


@lru_cache(maxsize=1024)
def _expression(source: str):
    try:
        return ENV.compile_expression(source, undefined_to_none=False)
    except jinja2.TemplateSyntaxError as exc:
        raise BindingError(f"expression syntax: {exc.message}") from None


def _run(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except jinja2.exceptions.SecurityError as exc:
        raise BindingError(f"not allowed: {exc}") from None
    except (jinja2.UndefinedError, jinja2.TemplateError, TypeError, ValueError, ArithmeticError,
            KeyError, AttributeError, IndexError) as exc:
        raise BindingError(str(exc)) from None


def is_template(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def render(value: Any, scope: Mapping[str, Any]) -> Any:
    """A value with its templates filled in (values without templates pass through)."""
    if is_template(value):
        return _run(_template(value).render, scope)
    return value


def condition(source: str, scope: Mapping[str, Any]) -> bool:
    return bool(_run(_expression(source), **scope))


def length(value: Any, percent_of: float) -> float:
    try:
        return parse_length(value, percent_of)
    except ValueError as exc:
        raise BindingError(str(exc)) from None


def color(value: Any, palette: Mapping[str, Color]) -> Color | None:
    if value is None:
        return None
    try:
        return parse_color(value, palette)
    except ValueError as exc:
        raise BindingError(str(exc)) from None


def number(value: Any) -> float:
    if isinstance(value, bool):
        raise BindingError(f"{value!r} is not a number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise BindingError(f"'{value}' is not a number") from None


def boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0", "", "none"):
        return False
    raise BindingError(f"'{value}' is not true or false")
