"""The element types a layout can use: one module per type, found here by itself.

A type's module declares everything about it:
- `NAME`, and `ALIASES` if it has other names (`circle` for `ellipse`);
- `SCHEMA`: its own keys (`properties`, and `required` if any), which the layout
  schema adds to the keys every element has (schemas/element.json);
- `lay_out(e)`: its primitives for one card, from the values `e` (base.Element) parses;
- `CONTENT`: whether it is content a reader must see whole (text, a picture, a code): the
  export's safe-area check and a token's shape check judge content;
- `BLEEDS`: whether `bleed: true` runs it on into the bleed where it touches the trim
  (what does not bleed, as a polygon that keeps its points, is judged as drawn), and
  `bleeds_by_default(e)` if it bleeds without being asked (a filled rectangle);
- `EXAMPLE`: its own keys in a working element, which the test matrix lays out (it may
  use the picture `art.png` and the icon `coin`, which the matrix's game has);
- `UNDEFAULTED`, if it has keys a layout's `defaults:` never gives it (a picture's
  `color` recolours it: a default text colour is not meant for it);
- `Cache`, if it keeps something for a whole build (`text` keeps the texts it has set);
- the primitives of its own, if any (`qr`), registered with primitives.register, which
  admits only a class that has the whole primitive protocol (primitives.PROTOCOL).

Adding a type is adding a module here and its section in docs/layouts.md.
"""

from __future__ import annotations

from types import ModuleType

from ..registry import discover

REQUIRED = {"NAME": str, "SCHEMA": dict, "CONTENT": bool, "BLEEDS": bool, "EXAMPLE": dict}


class NotAnElementType(TypeError):
    """A module in this package that does not declare what an element type must (a bug)."""


def _checked(types: dict[str, ModuleType]) -> dict[str, ModuleType]:
    for name, module in types.items():
        wrong = [key for key, kind in REQUIRED.items()
                 if not isinstance(getattr(module, key, None), kind)]
        if not callable(getattr(module, "lay_out", None)):
            wrong.append("lay_out")
        if getattr(module, "BLEEDS", False) is False and hasattr(module, "bleeds_by_default"):
            wrong.append("BLEEDS (it has bleeds_by_default)")
        if wrong:
            raise NotAnElementType(f"element type module '{module.__name__}' lacks or "
                                   f"mistypes {', '.join(wrong)} (elements/__init__.py)")
    return types


TYPES: dict[str, ModuleType] = _checked(discover(__path__, __name__, {"base", "bindings"}))
# Every name a layout may write as `type:`, alias included -> the type it stands for.
NAMES: dict[str, str] = {alias: name for name, module in TYPES.items()
                         for alias in (name, *getattr(module, "ALIASES", ()))}


# The keys a layout's or a game's `defaults:` cannot give: what makes each element itself
# (its name, type, place, box and what it shows). Every other key of any type is a style a
# default may set: font, size, color, fill, stroke, align...
OWN_KEYS = frozenset({"name", "description", "type", "extends", "below", "when",
                      "x", "y", "x2", "y2", "width", "height",
                      "text", "src", "icon", "points", "data", "value"})


def keys_of(name: str, common: dict) -> set[str]:
    """Every key an element of type `name` (an alias too) takes: `common`'s (the keys of
    schemas/element.json) and its type's own."""
    return set(common) | set(TYPES[NAMES.get(name, name)].SCHEMA.get("properties", {}))


def default_keys(common: dict) -> list[str]:
    """The keys `defaults:` may give: every key of any type but each element's own."""
    return sorted(set().union(*(keys_of(n, common) for n in TYPES)) - OWN_KEYS)


def with_defaults(props: dict, locs: dict, defaults: tuple[dict, dict], common: dict):
    """An element's keys with the layout's `defaults` (props, locs) for those it does not
    give and its type takes (a text's font, not a rectangle's), and which keys those are."""
    given, where = defaults
    kind = props.get("type", "")
    takes = keys_of(kind, common) if kind in NAMES else set()
    kept: frozenset[str] = getattr(TYPES[NAMES[kind]], "UNDEFAULTED", frozenset()) \
        if kind in NAMES else frozenset()
    extra = {k: v for k, v in given.items() if k not in props and k in takes
             and k not in kept and not _meant_for_another(kind, k, v)}
    return {**extra, **props}, {**{k: where[k] for k in extra}, **locs}, frozenset(extra)


def _choices(name: str, key: str) -> list | None:
    return TYPES[NAMES[name]].SCHEMA.get("properties", {}).get(key, {}).get("enum")


def _meant_for_another(kind: str, key: str, value) -> bool:
    """A default one type reads differently from another (`fit: shrink` is a text's,
    `fit: cover` a picture's) goes only to the types whose choices hold it."""
    own = _choices(kind, key)
    return own is not None and value not in own and \
        any(value in (_choices(name, key) or ()) for name in TYPES)


def schema_parts() -> dict:
    """The layout schema's part that depends on the types: the `type` enum, and each
    type's own keys, applied where `type` names it (an alias takes its type's keys)."""
    rules = []
    for alias, name in NAMES.items():
        own = TYPES[name].SCHEMA
        rules.append({"if": {"properties": {"type": {"const": alias}}, "required": ["type"]},
                      "then": own})
    return {"type": {"enum": list(NAMES)}, "allOf": rules}


def content(name: str) -> bool:
    """Whether elements of type `name` (an alias too) are content (see CONTENT above)."""
    return TYPES[NAMES.get(name, name)].CONTENT


def bleeds(name: str) -> bool:
    """Whether `bleed: true` extends elements of type `name` (see BLEEDS above)."""
    return TYPES[NAMES.get(name, name)].BLEEDS


def caches() -> dict[str, object]:
    """A fresh cache for each type that keeps one, for one build."""
    return {name: module.Cache() for name, module in TYPES.items() if hasattr(module, "Cache")}
