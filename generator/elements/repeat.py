"""`repeat:`: an element drawn once for each item of a list (pips for a cost, a row of
resource icons, a track's spaces), each copy moved by a step.

    - name: pip
      type: circle
      x: 4mm
      y: 80mm
      width: 3mm
      height: 3mm
      repeat: {over: "{{ card.cost }}", step: [4mm, 0]}

`over` is a whole number n (the items 1 to n), a list, a mapping (its values, each with
its key), or a template that gives one; a template that is one `{{ ... }}` keeps its
value's type, so `{{ card.resources }}` is the card's list, not its text. The element's
other keys see the item (as `item`, or the name `as:` gives) and `repeat`: its `index`
(1, 2, ...), `index0` (0, 1, ...), `count`, `first`, `last`, `column` and `row` (from 0)
and `key` (a mapping's). Copy i is at `column * step + row * row_step` from where the
element's own keys put it: `step` defaults to the box's width across, `row_step` to its
height down; `columns` wraps the copies into rows (a grid). An element repeats at most
MAX_REPEAT times on one face: more is a located error at `repeat`, found before anything
is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import sandbox
from ..i18n import _, said
from ..model import MAX_REPEAT, TBD
from ..values import abridged, whole_number
from . import bindings
from .base import Bad, Element

# What a template's values see besides the item: names the item may not take.
RESERVED = frozenset({"card", "deck", "game", "data", "macros", "draft", "editor_note",
                      "repeat", "colors", "range", "loop"})
_ONE = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)


@dataclass(frozen=True)
class Plan:
    """The copies of one element for one face: each copy's scope, and how they are placed
    (None: the default, from the first copy's box)."""

    scopes: tuple[dict, ...]
    step: tuple[float, float] | None
    row_step: tuple[float, float] | None
    columns: int | None

    def offset(self, i: int, box: tuple[float, float, float, float]) -> tuple[float, float]:
        """Copy i's offset (across, down, in points) from the first copy, whose box
        (x, y, w, h) gives the default steps."""
        step = self.step or (box[2], 0.0)
        row_step = self.row_step or (0.0, box[3])
        column, row = (i % self.columns, i // self.columns) if self.columns else (i, 0)
        return (column * step[0] + row * row_step[0], column * step[1] + row * row_step[1])


def expression(source: str) -> str | None:
    """The expression of a template that is exactly one `{{ ... }}` (its value keeps its
    type), or None."""
    match = _ONE.match(source)
    if match is None or "{{" in match.group(1) or "}}" in match.group(1):
        return None
    return match.group(1).strip()


def _native(source: str, scope: Mapping[str, Any]) -> Any:
    """The value of a one-expression template, with its type (a list stays a list)."""
    def evaluate() -> Any:
        import jinja2  # (imported already by the expression's compiling)
        value = sandbox.expression(source)(**scope)
        if isinstance(value, jinja2.Undefined):
            str(value)  # (raises its UndefinedError: what is not there, in words)
        return value
    return sandbox.run(evaluate)


def _shown(value: Any) -> str:
    return abridged(repr(value) if not isinstance(value, str) else f"'{value}'")


def items(written: Any, scope: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """The (item, key) pairs `over` gives for this face, within MAX_REPEAT (counted before
    a number's items are made)."""
    value = written
    if isinstance(written, str):
        source = expression(written)
        try:
            value = _native(source, scope) if source is not None else \
                bindings.render(written, scope)
        except bindings.BindingError as exc:
            raise Bad("repeat.over", said(exc)) from None
    if value is None or value == TBD or (isinstance(value, str) and not value.strip()):
        return []  # nothing yet (a draft's TBD is marked on the card)
    if isinstance(value, str) and whole_number(value.strip()) is not None:
        value = whole_number(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, list, tuple, Mapping)):
        raise Bad("repeat.over", _("gives {shown}, which is neither a whole number nor a list",
                                   shown=_shown(value)))
    count = value if isinstance(value, int) else len(value)
    if count < 0:
        raise Bad("repeat.over", _("gives {count}: a number of copies is 0 or more",
                                   count=count))
    if count > MAX_REPEAT:
        raise Bad("repeat.over", _("gives {count:,} items; an element repeats at most "
                                   "{most:,} times on a face", count=count, most=MAX_REPEAT))
    if isinstance(value, int):
        return [(n, None) for n in range(1, value + 1)]
    if isinstance(value, Mapping):
        return [(v, k) for k, v in value.items()]
    return [(v, None) for v in value]


def _offset(e: Element, key: str, scope: Mapping[str, Any]) -> tuple[float, float] | None:
    written = e.el.props["repeat"].get(key)
    if written is None:
        return None
    W, H = e.layout.size
    try:
        return (bindings.length(bindings.render(written[0], scope), W),
                bindings.length(bindings.render(written[1], scope), H))
    except bindings.BindingError as exc:
        raise Bad(f"repeat.{key}", said(exc)) from None


def _columns(e: Element, scope: Mapping[str, Any]) -> int | None:
    written = e.el.props["repeat"].get("columns")
    if written is None:
        return None
    try:
        value = bindings.number(bindings.render(written, scope))
    except bindings.BindingError as exc:
        raise Bad("repeat.columns", said(exc)) from None
    if not value.is_integer() or not 1 <= value <= MAX_REPEAT:
        raise Bad("repeat.columns", _("gives {value:g}: a whole number from 1 to {most:,}",
                                      value=value, most=MAX_REPEAT))
    return int(value)


def plan(e: Element) -> Plan:
    """The copies of the element `e` (its card's scope) on this face."""
    spec = e.el.props["repeat"]
    scope = e.scope
    found = items(spec["over"], scope)
    name = spec.get("as", "item")
    count = len(found)
    columns = _columns(e, scope)
    scopes = []
    for i, (item, key) in enumerate(found):
        column, row = (i % columns, i // columns) if columns else (i, 0)
        child = sandbox.Scope(scope)
        child[name] = item
        child["repeat"] = {"index": i + 1, "index0": i, "count": count, "first": i == 0,
                           "last": i == count - 1, "column": column, "row": row, "key": key}
        scopes.append(child)
    return Plan(tuple(scopes), _offset(e, "step", scope), _offset(e, "row_step", scope), columns)


def which(bad: Bad, scope: Mapping[str, Any], spec: Mapping[str, Any]) -> Bad:
    """`bad`, a copy's problem, saying which copy it is (the first that has it: the element
    stops there, so that one problem is said once)."""
    info = scope["repeat"]
    name = spec.get("as", "item")
    return Bad(bad.key, _("{message} (copy {index} of {count}, {name} = {shown})",
                          message=bad.message, index=info["index"], count=info["count"],
                          name=name, shown=_shown(scope[name])),
               bad.where, bad.check, bad.named)
