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
