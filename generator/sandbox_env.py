"""The sandbox's Jinja2 environment (sandbox.py), made when the first template or expression
needs it: a build whose data has none (a plain deck of texts and numbers) never imports
Jinja2 (12 ms at every start). What is Jinja2's own lives here; the budgets, the helpers,
the wording of errors and the fast path for `{{ card.field }}` stay in sandbox.py."""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Mapping
from functools import wraps

import jinja2
from jinja2.sandbox import MAX_RANGE, ImmutableSandboxedEnvironment

from .sandbox import (HELPERS, MAX_DEPTH, MAX_STEPS, MAX_TEXT, SandboxError, _concat,
                      _other_kind, _state, _too_long)
from .i18n import _


def _range(*args: int) -> range:
    items = range(*args)
    if len(items) > MAX_RANGE:
        raise SandboxError(_("range() of {n_items:,} numbers; at most {MAX_RANGE:,}",
                             n_items=len(items), MAX_RANGE=MAX_RANGE))
    left = getattr(_state, "steps", MAX_STEPS) - len(items)
    if left < 0:
        raise SandboxError(_("the loops of this template take more than {MAX_STEPS:,} steps",
                             MAX_STEPS=MAX_STEPS))
    _state.steps = left
    return items


def _guarded_filter(fn):
    """A filter whose numeric arguments (widths, counts) and result stay within MAX_TEXT."""
    @wraps(fn)
    def guarded(*args, **kwargs):
        for value in (*args[1:], *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_TEXT:
                raise _too_long(value)
        if fn.__name__ == "do_replace" and len(args) >= 3 and isinstance(args[0], str):
            grow = str(args[0]).count(str(args[1])) * len(str(args[2]))
            if grow > MAX_TEXT:
                raise _too_long(grow)
        result = fn(*args, **kwargs)
        if isinstance(result, str) and len(result) > MAX_TEXT:
            raise _too_long(len(result))
        return result
    return guarded


def _finite_numbers(tree, name=None, filename=None):
    """`tree`, if every number written in it is finite (1e400 is not)."""
    for node in tree.find_all(jinja2.nodes.Const):
        if node.value.__class__ is float and not math.isfinite(node.value):
            raise jinja2.TemplateSyntaxError(
                _("a number too large to be finite (such as 1e400); numbers in cardgen are finite"),
                node.lineno, name, filename)
    return tree


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with budgets: string and list repetition, powers and
    %-formatting are checked before they run, range() counts against MAX_STEPS, calls
    nest at most MAX_DEPTH deep, and output stops at MAX_TEXT characters."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, **options):
        super().__init__(**options)
        self.globals["range"] = _range
        self.filters = {name: _guarded_filter(fn) for name, fn in
                        {**self.filters, **HELPERS}.items()}
        self.concat = _concat

    @staticmethod
    def joined(join, parts: tuple):
        """What `~` joins (Jinja2's own join, `join`), within MAX_TEXT: the `+` of texts."""
        text = join(parts)
        if len(text) > MAX_TEXT:
            raise _too_long(len(text))
        return text

    def _parse(self, source, name, filename):
        """The template's tree; a number in it that is not finite (1e400) is an error where
        it is written (Python reads it as inf, which compiles to a name that is not there)."""
        return _finite_numbers(super()._parse(source, name, filename), name, filename)

    def compile_expression(self, source: str, undefined_to_none: bool = True):
        _finite_numbers(jinja2.parser.Parser(self, source, state="variable").parse_expression())
        return super().compile_expression(source, undefined_to_none)

    def call_binop(self, context, operator_: str, left, right):
        if operator_ == "+":  # a text or list that doubles itself in a loop: 20 GB at 34
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)) \
                    and len(left) + len(right) > MAX_TEXT:
                raise _too_long(len(left) + len(right))
            return operator.add(left, right)
        if operator_ == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and \
                        len(seq) * n > MAX_TEXT:
                    raise _too_long(len(seq) * n)
            return operator.mul(left, right)
        if operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > 1000 and \
                    isinstance(left, (int, float)) and abs(left) > 1:
                raise SandboxError(_("{left} ** {right} is a number too large to compute",
                                     left=left, right=right))
            return operator.pow(left, right)
        if isinstance(left, str) and any(
                len(width) > 6 for width in _WIDTHS.findall(left)):
            raise SandboxError(_("a %-format width of more than 6 digits"))
        return operator.mod(left, right)

    def getattr(self, obj, attribute):
        value = super().getattr(obj, attribute)
        reads = getattr(_state, "reads", None)
        if reads is not None:
            reads.saw(obj, attribute, value)
        return value

    def getitem(self, obj, argument):
        """obj[argument]; a table whose keys are numbers looked up with text (or the other
        way round) says so, rather than only that there is no such key: integer keys stay
        integers (docs/format.md), so data.months[card.month ~ ''] finds no 4."""
        if isinstance(obj, Mapping) and isinstance(argument, (str, int)) and \
                not isinstance(argument, bool) and argument not in obj:
            other = _other_kind(argument)
            if other is not None and other in obj:
                if isinstance(other, int):
                    raise SandboxError(
                        _("there is no '{argument}' (text), but there is {other} (a number): the "
                          "table's keys are numbers, so look it up with a number (card.month, "
                          "not card.month ~ '')", argument=argument, other=other))
                raise SandboxError(
                    _("there is no {argument} (a number), but there is '{other}' (text): the "
                      "table's keys are text, so look it up with text (card.month ~ '')",
                          argument=argument, other=other))
        value = super().getitem(obj, argument)
        reads = getattr(_state, "reads", None)
        if reads is not None:
            reads.saw(obj, argument, value)
        return value

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (as Jinja2 names it)
        depth = getattr(_state, "depth", 0) + 1
        if depth > MAX_DEPTH:
            raise SandboxError(_("calls nest more than {MAX_DEPTH} deep (does a macro call "
                                 "itself?)", MAX_DEPTH=MAX_DEPTH))
        _state.depth = depth
        try:
            return super().call(__context, __obj, *args, **kwargs)
        finally:
            _state.depth = depth - 1


_WIDTHS = re.compile(r"%[-+ #0]*(\d+)")


def _finite(value):
    """What a template shows: a number it computes is finite, as every number cardgen reads
    is (1e400 and 1e308 * 10 are infinite in Python, and would print as "inf")."""
    if value.__class__ is float and not math.isfinite(value):
        raise SandboxError(_("it gives {value}, a number that is not finite (from a number too "
                             "large, such as 1e400, or a division of infinities); numbers in "
                             "cardgen are finite", value=value))
    return value


class _Generator(jinja2.compiler.CodeGenerator):
    """Jinja2's code, with each `~` join checked against MAX_TEXT (Sandbox.joined): Jinja2
    compiles it to a join of its own that no sandbox method sees. (Its visit_Concat, with
    the join passed to the check.)"""

    def visit_Concat(self, node, frame) -> None:
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        else:
            join = "markup_join" if frame.eval_ctx.autoescape else "str_join"
        self.write(f"environment.joined({join}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


Sandbox.code_generator_class = _Generator

class _Undefined(jinja2.StrictUndefined):
    """What a template asks of a mapping that lacks it, said with the key meant where the
    mapping has one close to it ('data.gem' where the table is 'gems')."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        said = super()._undefined_message
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint or not isinstance(obj, Mapping) or not isinstance(name, str):
            return said
        import difflib
        close = difflib.get_close_matches(name, [k for k in obj if isinstance(k, str)], 1)
        return f"{said}; did you mean {close[0]!r}" if close else said


ENV = Sandbox(undefined=_Undefined, autoescape=False, keep_trailing_newline=False,
              finalize=_finite)
