"""The element types a layout can use: one module per type, found here by itself.

A type's module declares everything about it:
- `NAME`, and `ALIASES` if it has other names (`circle` for `ellipse`);
- `OPTIONS`: its own keys, each declared once (options.py: kind, default, range, words,
  whether it is required and whether `defaults:` may set it), which the layout schema
  adds to the keys every element has (`COMMON` here); the docs' tables, the keys a default
  may set and the values `e.option(key)` reads are made from them (a `SCHEMA` of keys
  no option kind says may stand beside or instead of it);
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

from ..i18n import N_, _
from ..model import MAX_REPEAT
from ..options import Option, Options, options_of, schema_of
from ..registry import NotAPlugin, breaches, discover, refuse

REQUIRED = {"NAME": str, "CONTENT": bool, "BLEEDS": bool, "EXAMPLE": dict}

# The keys of an element's `repeat:` (elements/repeat.py draws the copies).
REPEAT = Options(
    Option("over", "repeat-over", N_("what the element repeats over: a whole number n (the items "
                                     "1 to n), a list, a mapping (its values), or a template "
                                     "that gives one, such as {{ card.cost }} or "
                                     "{{ data.track.spaces }}; TBD or nothing draws no copy"),
           required=True, schema={
               "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_REPEAT},
                         {"type": "array", "maxItems": MAX_REPEAT},
                         {"type": "string", "pattern": "\\{[{%]"}],
               "x-expected": _("a whole number from 0 to {most:,}, a list of at most {most:,} "
                               "items, or a template that gives one, such as {example}",
                               most=MAX_REPEAT, example="{{ card.cost }}")}),
    Option("as", "text", N_("the item's name in the element's templates"), "item", schema={
        "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
        "x-expected": N_("a name of letters, digits and _")}),
    Option("step", "layout-offset", N_("where each copy is from the one before it, [across, "
                                       "down]"),
           shown_default=N_("[the box's width, 0]: side by side")),
    Option("columns", "layout-integer", N_("copies in a row before the next row starts (a "
                                           "grid)"), low=1, high=MAX_REPEAT,
           shown_default=N_("all in one row")),
    Option("row_step", "layout-offset", N_("where each row is from the one before it, [across, "
                                           "down]"),
           shown_default=N_("[0, the box's height]: below")),
)

# The keys every element takes, whatever its type (besides `type`, schemas/element.json).
COMMON = Options(
    Option("name", "name", N_("the element's name, unique in the layout"), required=True),
    Option("extends", "name", N_("the name of another element whose keys this one takes as "
                                 "defaults")),
    Option("x", "layout-length", N_("the left of the element's box"), "0mm"),
    Option("y", "layout-length", N_("the top of the element's box"), "0mm"),
    Option("width", "layout-length", N_("the box's width"), "100%"),
    Option("height", "layout-length", N_("the box's height"), "100%"),
    Option("fill", "layout-color", N_("fill colour, or none"), defaults=True),
    Option("stroke", "layout-color", N_("outline colour, or none"), defaults=True),
    Option("stroke_width", "layout-length", N_("outline width"), "0.5pt", defaults=True),
    Option("dash", "list", N_("dash pattern for the outline, such as [1mm, 0.5mm]"),
           defaults=True, schema={"items": {"$ref": "#/$defs/length"}},
           shown_default=N_("solid")),
    Option("opacity", "layout-number", N_("0 (invisible) to 1"), 1, low=0, high=1,
           defaults=True),
    Option("rotate", "layout-number", N_("degrees clockwise about the box's centre, -360 to "
                                         "360"), 0, defaults=True),
    Option("when", "text", N_("an expression: the element is drawn only for cards where it is "
                              "true"), schema={"minLength": 1}, shown_default=N_("always")),
    Option("bleed", "layout-flag", N_("extend the box by the layout's bleed on every side that "
                                      "touches the trim line"), defaults=True,
           shown_default=N_("true for a rect without stroke and a picture that covers or "
                            "stretches; false otherwise")),
    Option("repeat", "mapping", N_("draw the element once for each item of a list, each copy "
                                   "moved by a step, with the item and its place in the "
                                   "templates of its other keys (below)"),
           schema=REPEAT.mapping(), shown_default=N_("once")),
    Option("description", "text", N_("for people")),
    Option("below", "name", N_("the name of an element this one is drawn just under"),
           shown_default=N_("in list order")),
)


class NotAnElementType(NotAPlugin):
    """A module in this package that does not declare what an element type must (a bug)."""


def _checked(types: dict[str, ModuleType]) -> dict[str, ModuleType]:
    for module in types.values():
        wrong = breaches(module, REQUIRED, ("lay_out",))
        if not isinstance(getattr(module, "OPTIONS", None), Options) and \
                not isinstance(getattr(module, "SCHEMA", None), dict):
            wrong.append("OPTIONS")
        if getattr(module, "BLEEDS", False) is False and hasattr(module, "bleeds_by_default"):
            wrong.append("BLEEDS (it has bleeds_by_default)")
        refuse(module, wrong, "element type", "elements/__init__.py", NotAnElementType)
    return types


TYPES: dict[str, ModuleType] = _checked(discover(__path__, __name__,
                                                 {"base", "bindings", "repeat"}))
# Every name a layout may write as `type:`, alias included -> the type it stands for.
NAMES: dict[str, str] = {alias: name for name, module in TYPES.items()
                         for alias in (name, *getattr(module, "ALIASES", ()))}


def keys_of(name: str, common: dict) -> set[str]:
    """Every key an element of type `name` (an alias too) takes: `common`'s (the keys of
    schemas/element.json and COMMON) and its type's own."""
    return set(common) | set(schema_of(TYPES[NAMES.get(name, name)]).get("properties", {}))


def default_keys(common: dict | None = None) -> list[str]:
    """The keys `defaults:` may give: those declared so, of every element and of each type
    (a style: font, size, color, fill, stroke, align...; not what makes each element itself,
    its name, place, box and what it shows)."""
    return sorted({o.key for group in (COMMON, *map(options_of, TYPES.values()))
                   for o in group if o.defaults})


def option(module: ModuleType, key: str) -> Option:
    """The declaration of `key` for an element of the type of `module`: its own or every
    element's."""
    own = options_of(module)
    return own[key] if key in own else COMMON[key]


def register(module: ModuleType) -> None:
    """Add an element type from elsewhere (a test's own): it joins the schema, the docs'
    tables and every layout at once."""
    _checked({module.NAME: module})
    TYPES[module.NAME] = module
    for alias in (module.NAME, *getattr(module, "ALIASES", ())):
        NAMES[alias] = module.NAME


def unregister(name: str) -> None:
    module = TYPES.pop(name, None)
    for alias in (name, *getattr(module, "ALIASES", ())):
        NAMES.pop(alias, None)


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
    return schema_of(TYPES[NAMES[name]]).get("properties", {}).get(key, {}).get("enum")


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
        own = schema_of(TYPES[name])
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
