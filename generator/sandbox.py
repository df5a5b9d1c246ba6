"""The one Jinja2 sandbox that every template and expression in user data runs in.

Layouts, checks, rulebooks and generated decks all evaluate Jinja2 written in YAML
or Markdown files. They share this immutable sandbox: data files can compute,
but cannot reach Python internals or change anything. Compiled templates and
expressions are cached, so a 10,000-card deck compiles each once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

ENV = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                                    keep_trailing_newline=False)


class SandboxError(Exception):
    """A template or expression could not be compiled or evaluated; the message says why."""


@lru_cache(maxsize=4096)
def template(source: str) -> jinja2.Template:
    try:
        return ENV.from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise SandboxError(f"template syntax: {exc.message}") from None


@lru_cache(maxsize=1024)
def expression(source: str):
    try:
        return ENV.compile_expression(source, undefined_to_none=False)
    except jinja2.TemplateSyntaxError as exc:
        raise SandboxError(f"expression syntax: {exc.message}") from None


def run(fn, *args, **kwargs):
    """Call compiled Jinja2, turning what data can get wrong into SandboxError."""
    try:
        return fn(*args, **kwargs)
    except jinja2.exceptions.SecurityError as exc:
        raise SandboxError(f"not allowed: {exc}") from None
    except (jinja2.UndefinedError, jinja2.TemplateError, TypeError, ValueError, ArithmeticError,
            KeyError, AttributeError, IndexError) as exc:
        raise SandboxError(str(exc)) from None


def is_template(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


class Scope(dict):
    """Template variables with the sandbox's globals already in them (`scope()` makes one):
    a template renders in it without copying the globals and variables for every value."""


def scope(variables: Mapping[str, Any]) -> Scope:
    return Scope(ENV.globals, **variables)


def _render_in(t: jinja2.Template, variables: Scope) -> str:
    # What Template.render does, minus building a new dict of globals and variables.
    return t.environment.concat(t.root_render_func(t.new_context(variables, shared=True)))


def render(value: Any, scope: Mapping[str, Any]) -> Any:
    """A value with its templates filled in (values without templates pass through)."""
    if is_template(value):
        t = template(value)
        if isinstance(scope, Scope):
            return run(_render_in, t, scope)
        return run(t.render, scope)
    return value


def condition(source: str, scope: Mapping[str, Any]) -> bool:
    return bool(run(expression(source), **scope))


@lru_cache(maxsize=32)
def macros(source: str):
    """A game's macros file (`macros:` in game.yaml), as a module whose macros every
    template and expression of the game can call: {{ macros.term(t) }}."""
    return run(template(source).make_module)
