"""The element types a layout can use: one module per type, found here by itself.

A type's module declares everything about it:
- `NAME`, and `ALIASES` if it has other names (`circle` for `ellipse`);
- `SCHEMA`: its own keys (`properties`, and `required` if any), which the layout
  schema adds to the keys every element has (schemas/element.json);
- `lay_out(e)`: its primitives for one card, from the values `e` (base.Element) parses;
- `Cache`, if it keeps something for a whole build (`text` keeps the texts it has set);
- the primitives of its own, if any, each with `draw(canvas, pen)` and `weight()`
  (`qr`); the common ones (primitives.py) are drawn by `draw`.

Adding a type is adding a module here and its section in docs/layouts.md.
"""

from __future__ import annotations

from types import ModuleType

from ..registry import discover

TYPES: dict[str, ModuleType] = discover(__path__, __name__, {"base", "bindings"})
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


def caches() -> dict[str, object]:
    """A fresh cache for each type that keeps one, for one build."""
    return {name: module.Cache() for name, module in TYPES.items() if hasattr(module, "Cache")}
