"""The one Jinja2 sandbox that every template and expression in user data runs in.

Layouts, checks, rulebooks and generated decks all evaluate Jinja2 written in YAML
or Markdown files. They share this immutable sandbox: data files can compute,
but cannot reach Python internals or change anything. Compiled templates and
expressions are cached, so a 10,000-card deck compiles each once. The Jinja2 environment
itself (sandbox_env.py) is made at the first template that needs it: a deck whose values
are plain, or only `{{ card.field }}` (render() fills those itself), never imports Jinja2.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from . import syntax
from .values import is_template, whole_number
from .i18n import Message, N_, _, said

if TYPE_CHECKING:
    import jinja2
    import jinja2.sandbox

# Budgets: what one template may do before a located error stops it (no hang, no full memory)
MAX_TEXT = 1_000_000  # characters in a string a template makes, and in its whole output
MAX_STEPS = 1_000_000  # range() items in one render, over all its loops together
MAX_DEPTH = 64  # macros calling macros (a macro that calls itself stops here)
_state = threading.local()


class SandboxError(Exception):
    """A template or expression could not be compiled or evaluated; the message says why."""


def reset_budget(steps: int = MAX_STEPS) -> None:
    """Start a fresh budget: called as each template or expression starts to run."""
    _state.steps = steps
    _state.depth = 0


def _too_long(n: int) -> SandboxError:
    return SandboxError(_("a text of {n:,} characters is more than a template may make "
                          "({MAX_TEXT:,})", n=n, MAX_TEXT=MAX_TEXT))


def _concat(parts) -> str:
    """What Jinja2 joins a template's output with, stopping at MAX_TEXT characters."""
    out, total = [], 0
    for part in parts:
        total += len(part)
        if total > MAX_TEXT:
            raise _too_long(total)
        out.append(part)
    return "".join(out)


def _copies(item) -> int:
    """How many of a card there are (a mapping without `copies` is one; TBD, a draft, none)."""
    copies = item.get("copies", 1) if isinstance(item, Mapping) else 1
    return copies if isinstance(copies, int) and not isinstance(copies, bool) else 0


def _value(item, attribute: str):
    """The card's `attribute`; a card without it, or with a value that is not a number, is
    the template's mistake, said with the card's id (TBD, a draft already warned, is None)."""
    if not isinstance(item, Mapping) or attribute not in item:
        raise SandboxError(_("{named} has no '{attribute}'",
                             named=_named(item), attribute=attribute))
    value = item[attribute]
    if value == "TBD":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SandboxError(_("{named}: {attribute} is {value!r}, not a number",
                             named=_named(item), attribute=attribute, value=value))
    return value


def _named(item) -> str:
    return f"card '{item['id']}'" if isinstance(item, Mapping) and "id" in item else repr(item)


def _cards(items, helper: str):
    """What a counting helper counts: a list of cards (or of mappings); a text, a mapping, a
    number or nothing is the template's mistake, said in words (Python would iterate a
    text's letters or a mapping's keys, or say 'int' object is not iterable)."""
    if isinstance(items, (str, Mapping)) or not hasattr(items, "__iter__"):
        kind = _kind("dict" if isinstance(items, Mapping) else type(items).__name__)
        raise SandboxError(_("{helper} counts a list of cards (cards, or cards | "
                             "selectattr(...)), not {kind}", helper=helper, kind=kind))
    return items


def total(items, attribute: str | None = None):
    """`cards | total`: how many cards, counting copies; `cards | total('pips')`: the sum of
    pips over every copy (pips x copies, card by card)."""
    items = _cards(items, "total")
    if attribute is None:
        return sum(_copies(item) for item in items)
    return sum(_copies(item) * value for item in items
               if (value := _value(item, attribute)) is not None)


def _group(item, by: str):
    """The value of `by` a card is grouped under (a value that is no table key, as text)."""
    if not isinstance(item, Mapping) or by not in item:
        raise SandboxError(_("{named} has no '{by}'", named=_named(item), by=by))
    key = item[by]
    return key if isinstance(key, (str, int, float, bool)) or key is None else str(key)


def count_by(items, attribute: str) -> dict:
    """`cards | count_by('color')`: each value of `color` -> how many cards have it, counting
    copies (in the order values first appear)."""
    out: dict = {}
    for item in _cards(items, "count_by"):
        key = _group(item, attribute)
        out[key] = out.get(key, 0) + _copies(item)
    return out


def total_by(items, attribute: str, by: str) -> dict:
    """`cards | total_by('pips', 'color')`: each value of `color` -> the sum of pips over
    every copy of the cards with it."""
    out: dict = {}
    for item in _cards(items, "total_by"):
        key, value = _group(item, by), _value(item, attribute)
        out[key] = out.get(key, 0) + (_copies(item) * value if value is not None else 0)
    return out


HELPERS = {"total": total, "count_by": count_by, "total_by": total_by}  # docs/validation.md


def _other_kind(key):
    """The same key as the other kind: 4 for '4', '4' for 4 (None: no such other)."""
    if isinstance(key, int):
        return str(key)
    text = key.strip()
    return whole_number(text)


def env() -> jinja2.sandbox.ImmutableSandboxedEnvironment:
    """The one Jinja2 environment every template and expression runs in (sandbox_env.py),
    made at the first one."""
    from .sandbox_env import ENV
    return ENV


@lru_cache(maxsize=4096)
def template(source: str) -> jinja2.Template:
    import jinja2
    try:
        return env().from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise SandboxError(_("template syntax: {exc_message}",
                             exc_message=syntax.in_words(source, exc, in_words)[0])) from None


def expression_problem(source: str, exc: jinja2.TemplateSyntaxError) -> str:
    """What to say of an expression that does not compile (after "X "): a template where
    an expression is wanted is told so, with how to write it; else the syntax, in words."""
    if is_template(source):
        return _("is a template ({braces}) where an expression is wanted: write it without the "
                 "braces, as data.setup.hand_size or card.copies > 1", braces="{{ ... }}")
    return _("is not a valid expression: {why}", why=syntax.in_words(source, exc, in_words)[0])


@lru_cache(maxsize=1024)
def expression(source: str):
    import jinja2
    try:
        return env().compile_expression(source, undefined_to_none=False)
    except jinja2.TemplateSyntaxError as exc:
        raise SandboxError(_("expression syntax: {exc_message}",
                             exc_message=syntax.in_words(source, exc, in_words)[0])) from None


_TYPE_NAMES = {"str": N_("text"), "int": N_("a number"), "float": N_("a number"),
               "NoneType": N_("nothing"), "dict": N_("a mapping"), "list": N_("a list"),
               "bool": N_("true or false"), "Undefined": N_("nothing"), "tuple": N_("a list")}


def _kind(name: str):
    return _TYPE_NAMES.get(name, name)


def _unknown_name(kind: str, name: str) -> str:
    """A test (`is even`) or a filter (`| upper`) Jinja does not have, and the one of its
    name that it has, where one is close (a typo)."""
    import difflib
    known = env().tests if kind == "test" else env().filters
    close = difflib.get_close_matches(name, list(known), 1)
    if kind == "test":
        return _("there is no test '{name}' (did you mean '{hint}'?)", name=name,
                 hint=close[0]) if close else _("there is no test '{name}'", name=name)
    return _("there is no filter '{name}' (did you mean '{hint}'?)", name=name,
             hint=close[0]) if close else _("there is no filter '{name}'", name=name)


_WORDINGS = (
    (re.compile(r"'(?:dict|\w+) object' has no attribute '([^']+)'; did you mean '([^']+)'"),
     lambda m: _("there is no '{name}' (did you mean '{hint}'?)", name=m[1], hint=m[2])),
    (re.compile(r"'(?:dict|\w+) object' has no attribute '([^']+)'"),
     lambda m: _("there is no '{name}'", name=m[1])),
    (re.compile(r"'(\w+)' is undefined"), lambda m: _("'{name}' is not defined here", name=m[1])),
    (re.compile(r"'([<>]=?)' not supported between instances of '(\w+)' and '(\w+)'"),
     lambda m: _("cannot compare {left} with {right} ('{op}')", left=_kind(m[2]),
                 right=_kind(m[3]), op=m[1])),
    (re.compile(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'"),
     lambda m: _("cannot use {op} on {left} and {right}", op=m[1].strip(), left=_kind(m[2]),
                 right=_kind(m[3]))),
    (re.compile(r"can only concatenate str \(not \"(\w+)\"\) to str"),
     lambda m: _("cannot join text and {kind} with + (use ~)", kind=_kind(m[1]))),
    (re.compile(r"'?(\w+) object'? has no element (.+)"),
     lambda m: _("{kind} has no item {key}", kind=_kind(m[1]), key=m[2])),
    (re.compile(r"'(\w+)' object is not iterable"),
     lambda m: _("{kind} is not a list: nothing to go through", kind=_kind(m[1]))),
    (re.compile(r"'(\w+)' object is not subscriptable"),
     lambda m: _("{kind} has no items to take with [...]", kind=_kind(m[1]))),
    (re.compile(r"'(\w+)' object is not callable"),
     lambda m: _("{kind} is not something to call with (...)", kind=_kind(m[1]))),
    (re.compile(r"division by zero|integer division or modulo by zero|float division by zero"),
     lambda m: _("division by zero")),
    (re.compile(r"No (test|filter) named '([^']+)'"), lambda m: _unknown_name(m[1], m[2])),
    (re.compile(r"Unknown format code '(.)' for object of type '(\w+)'"),
     lambda m: _("the format code '{code}' does not suit {kind}", code=m[1], kind=_kind(m[2]))),
    (re.compile(r"Cannot specify '([^']+)' with 's'"),
     lambda m: _("a format with '{spec}' is for numbers, and the value is text", spec=m[1])),
    (re.compile(r"access to attribute '([^']+)' of '(\w+)' object is unsafe"),
     lambda m: _("'{name}' of {kind} is closed to templates and expressions", name=m[1],
                 kind=_kind(m[2]))),
)


def in_words(exc: BaseException | str) -> str:
    """What went wrong in a template, in words for a designer rather than Python's (a
    Message where cardgen words it, in the moment's language where it is shown)."""
    said_ = said(exc) if isinstance(exc, BaseException) else exc
    if isinstance(said_, Message):
        return said_
    text = str(said_)
    for pattern, words in _WORDINGS:
        match = pattern.search(text)
        if match:
            return words(match)
    return text


def run(fn, *args, **kwargs):
    """Call compiled Jinja2 with a fresh budget, turning what data can get wrong into
    SandboxError."""
    reset_budget()
    try:
        return fn(*args, **kwargs)
    except SandboxError:
        raise
    except RecursionError:
        raise SandboxError(_("templates nest too deeply")) from None
    except MemoryError:
        raise SandboxError(_("the template needs more memory than there is")) from None
    except Exception as exc:  # (what Jinja2 raises is named once Jinja2 has run)
        import jinja2
        if isinstance(exc, jinja2.exceptions.SecurityError):
            raise SandboxError(_("not allowed: {why}", why=in_words(exc))) from None
        if isinstance(exc, (jinja2.UndefinedError, jinja2.TemplateError, TypeError, ValueError,
                            ArithmeticError, KeyError, AttributeError, IndexError)):
            raise SandboxError(in_words(exc)) from None
        raise


class Scope(dict):
    """Template variables (`scope()` makes one), which the sandbox's globals join at the
    first template rendered in them: a template renders in it without copying the globals
    and variables for every value, and a face whose values hold no template (or only the
    `{{ card.field }}` that render() fills itself) never makes the Jinja2 environment."""

    with_globals = False


def scope(variables: Mapping[str, Any]) -> Scope:
    return Scope(variables)


def _render_in(t: jinja2.Template, variables: Scope) -> str:
    # What Template.render does, minus building a new dict of globals and variables.
    if not variables.with_globals:  # (a variable of the same name hides a global, as in Jinja2)
        for name, value in t.environment.globals.items():
            variables.setdefault(name, value)
        variables.with_globals = True
    return t.environment.concat(t.root_render_func(t.new_context(variables, shared=True)))


_CARD_FIELD = re.compile(r"([^{}\r\n]*)\{\{\s*card\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}"
                         r"([^{}\r\n]*)\Z")
_DICT_NAMES = frozenset(dir(dict))  # card.items is the dict's method to Jinja2, not a field


@lru_cache(maxsize=4096)
def _card_field(source: str) -> tuple[str, ...] | None:
    """(text before, field, text after) of a template that shows one card field between texts
    Jinja2 copies as they are (no brace, which opens a tag, no line end, which it changes)."""
    match = _CARD_FIELD.match(source)
    return match.groups() if match and match.group(2) not in _DICT_NAMES else None


def check_template(source: str) -> None:
    """Raise SandboxError if the template `source` does not compile. One that only shows a
    card field between plain texts (what render() fills itself) always compiles: Jinja2
    is not asked."""
    if _card_field(source) is None:
        template(source)


def render(value: Any, scope: Mapping[str, Any]) -> Any:
    """A value with its templates filled in (values without templates pass through).

    A template that only shows a card's text or whole-number field (`{{ card.name }}`, the
    commonest template there is, or `No.{{ card.n }}`) gives what Jinja2 would without
    running Jinja2; anything else (a missing field, other types, filters) runs in the sandbox."""
    if is_template(value):
        parts = _card_field(value)
        if parts is not None and getattr(_state, "reads", None) is None:
            card = scope.get("card")
            if type(card) is dict:
                before, field, after = parts
                shown = card.get(field)
                if type(shown) is int and -10 ** 18 < shown < 10 ** 18:  # (str() refuses
                    shown = str(shown)  # numbers of more than 4,300 digits: Jinja2 says so)
                if type(shown) is str and len(before) + len(shown) + len(after) <= MAX_TEXT:
                    return before + shown + after if before or after else shown
        t = template(value)
        if isinstance(scope, Scope):
            return run(_render_in, t, scope)
        return run(t.render, scope)
    return value


class Reads:
    """What templates read while it records (`recording`): each value taken from the
    containers it was given, by its path as `diff` names data (`rules.three`,
    `board.track[3].points`: a list's entries by their `id` or `name` where every entry
    has one, else by their place), under the name of its root (`data`, `card`, `deck`,
    `game`, `macros`). A container a template used whole (printed, iterated, its length
    or a method taken) is `whole`: everything under it was read."""

    def __init__(self, roots: Mapping[str, Any], key=None, base: Reads | None = None):
        """`roots` mapped (by `key`, an entry's name in a list, or None); `base`: the
        containers another Reads mapped (a game's data, mapped once for all its cards)."""
        self.paths: dict[int, tuple[str, str]] = {}  # id(container) -> (root, its path)
        self.kept: list = []  # the containers, so that no id is reused while recording
        self.read: set[tuple[str, str]] = set()  # every value taken, container or not
        self.whole: set[tuple[str, str]] = set()
        self.base = base
        self._key: Callable[[Any], str | None] = key or (
            base._key if base else lambda item: None)
        for root, value in roots.items():
            self._map(root, "", value)

    def _place(self, obj: Any) -> tuple[str, str] | None:
        place = self.paths.get(id(obj))
        return place if place is not None or self.base is None else self.base._place(obj)

    def _map(self, root: str, path: str, value: Any) -> None:
        if isinstance(value, Mapping):
            self.paths[id(value)] = (root, path)
            self.kept.append(value)
            for k, v in value.items():
                self._map(root, f"{path}.{k}" if path else str(k), v)
        elif isinstance(value, (list, tuple)):
            self.paths[id(value)] = (root, path)
            self.kept.append(value)
            keys = [self._key(item) for item in value]
            named = bool(value) and all(keys) and len(set(keys)) == len(keys)
            for n, item in enumerate(value):
                self._map(root, f"{path}[{keys[n] if named else n}]", item)
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            self.paths[id(value)] = (root, path)  # a module of macros: what it names is read
            self.kept.append(value)

    def saw(self, obj: Any, key: Any, value: Any) -> None:
        place = self._place(obj)
        if place is None:
            return
        inner = self._place(value)
        if inner is not None:
            self.read.add(inner)
        elif callable(value) and isinstance(obj, (Mapping, list, tuple)):
            self.whole.add(place)  # data.table.items(): the container, whole
        else:
            root, path = place
            child = f"{path}[{key}]" if isinstance(obj, (list, tuple)) else \
                f"{path}.{key}" if path else str(key)
            self.read.add((root, child))

    def under(self, root: str, path: str, added_or_removed: bool = False) -> bool:
        """Whether what was read depends on the value at `path` of `root`: it (or something
        in it) was read, or a container holding it was used whole (or iterated, for an
        entry added or removed)."""
        def inside(inner: str, outer: str) -> bool:
            return outer == "" or inner == outer or inner.startswith((outer + ".", outer + "["))
        if any(r == root and inside(p, path) for r, p in self.read):
            return True
        containers = {(r, p) for r, p in self.read if self._is_container(r, p)}
        whole = self.whole | {c for c in containers if not any(
            r == c[0] and p != c[1] and inside(p, c[1]) for r, p in self.read)}
        if added_or_removed:
            whole |= containers
        return any(r == root and inside(path, p) for r, p in whole)

    def _is_container(self, root: str, path: str) -> bool:
        if self._containers is None:
            self._containers = set(self.paths.values())
        return (root, path) in self._containers or (
            self.base is not None and self.base._is_container(root, path))

    _containers: set[tuple[str, str]] | None = None


class recording:
    """`with recording(reads):` every template rendered in this thread meanwhile notes
    what it reads in `reads` (what a card's face read, for `cardgen diff`'s causes)."""

    def __init__(self, reads: Reads):
        self.reads = reads

    def __enter__(self) -> Reads:
        self.before = getattr(_state, "reads", None)
        _state.reads = self.reads
        return self.reads

    def __exit__(self, *exc) -> None:
        _state.reads = self.before


def condition(source: str, scope: Mapping[str, Any]) -> bool:
    return bool(run(expression(source), **scope))


def macros(source: str, names: Mapping[str, Any] | None = None):
    """A game's macros file (`macros:` in game.yaml), a module every template can call
    ({{ macros.term(t) }}), its macros seeing `names` (`data`, `game`: the very containers
    the templates see, so what a macro reads is what a face read: incremental, diff)."""
    return run(template(source).make_module, dict(names or {}))


def game_scope(game) -> dict[str, Any]:
    """The names every template and expression of a game sees, whatever it is about (a
    card's layout, a check, the rulebook): `game`, `data` and `macros`. Built here only."""
    from .model import EDITOR_NOTE, plain
    names = {
        "game": {"id": game.id, "title": game.title, "title_en": game.title_en,
                 "version": game.version},
        "editor_note": EDITOR_NOTE[game.lang],
        "data": plain(game.data),
    }
    return {**names, "macros": macros(game.macros, names) if game.macros else None}
