"""Merging a layout with the layouts it extends, and elements with the elements they extend.

A layout inherits its parent's size, orientation, bleed, safe margin and
elements. An element of the child with the name of an inherited element
overrides that element's keys in place; a new name is added on top. An element
may also extend another element by name (`extends:`), taking its keys as
defaults. Missing parents and cycles are errors that name the whole chain.

`defaults:` (a layout's, merged down the chain, over the game's) gives each element the
keys it does not set and its type takes: `defaults: {font: latin, color: "#222"}` sets
the font and colour of every text, not a rectangle's.
"""

from __future__ import annotations

from typing import Any

from .. import elements as element_types
from .. import sandbox
from ..elements import repeat
from ..load import schema
from ..load.yamlfile import Document
from ..model import DEFAULT_BLEED, DEFAULT_SAFE, ElementSpec, LayoutSpec, frozen_mapping
from ..problems import Location, Report
from ..units import CARD_SIZES, card_size_problem, mm, parse_length, written_unit
from ..i18n import _

# Where a name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
THE_LAYOUT = _("the layout")



class _Element:
    """An element as the chain of layouts builds it up, one layer per layout."""

    def __init__(self, name: str, loc: Location):
        self.name = name
        self.loc = loc
        self.layers: list[tuple[dict, dict]] = []  # (props, locs), the root ancestor's first
        self.defaulted: frozenset = frozenset()  # keys from `defaults:`

    def update(self, props: dict, locs: dict) -> None:
        self.layers.append((props, locs))

    def _merged(self, layers) -> tuple[dict, dict]:
        props: dict[str, Any] = {}
        locs: dict[str, Location] = {}
        for layer_props, layer_locs in layers:
            props.update(layer_props)
            locs.update(layer_locs)
        return props, locs

    def split(self) -> tuple[tuple[dict, dict], tuple[dict, dict]]:
        """(inherited, own): `own` starts at the layer that declared `extends`, whose keys
        win over the extended element's, which win over keys inherited before it."""
        start = max((i for i, (p, _) in enumerate(self.layers) if "extends" in p), default=0)
        return self._merged(self.layers[:start]), self._merged(self.layers[start:])

    @property
    def props(self) -> dict:
        return self._merged(self.layers)[0]

    @property
    def locs(self) -> dict:
        return self._merged(self.layers)[1]


def _size(doc: Document, layout: str, report: Report,
          art: bool = False) -> tuple[float, float] | None:
    value = doc.data["size"]
    if isinstance(value, str):
        w, h = CARD_SIZES[value]
        return mm(w), mm(h)
    try:
        size = parse_length(value[0]), parse_length(value[1])
    except ValueError as exc:
        report.error(_("layout '{layout}': size: {exc}",
                       layout=layout, exc=exc), doc.locate(("size",)), "units")
        return None
    problem = card_size_problem(size, art)
    if problem:  # (a print target's size, written in game.yaml, is said once for its layouts)
        own = doc.file.startswith("layouts")
        report.error(_("layout '{layout}': size: {problem}", layout=layout, problem=problem)
                     if own else _("size: {problem}", problem=problem),
                     doc.locate(("size",)), "units")
        return None
    return size


def _merge_extends(layout: str, elements: dict[str, _Element], report: Report) -> bool:
    """Apply element-level `extends`, parents first. Returns False on a broken chain."""
    done: dict[str, tuple[dict, dict]] = {}
    cycles: set[frozenset] = set()
    ok = True

    def resolved(name: str, trail: list[str]) -> tuple[dict, dict] | None:
        nonlocal ok
        if name in done:
            return done[name]
        element = elements[name]
        (inherited, inherited_locs), (own, own_locs) = element.split()
        parent = own.get("extends")
        if parent is None:
            done[name] = (element.props, element.locs)
            return done[name]
        if parent in trail + [name]:
            members = trail[trail.index(parent):] + [name] if parent in trail else [name]
            if frozenset(members) not in cycles:  # one report per cycle
                cycles.add(frozenset(members))
                cycle = " -> ".join(members + [parent])
                report.error(_("layout '{layout}': element '{name}' extends a cycle: {cycle}",
                               layout=layout, name=name, cycle=cycle),
                             own_locs["extends"], "extends")
            ok = False
            return None
        if parent not in elements:
            report.error(_("layout '{layout}': element '{name}' extends '{parent}', which is not "
                           "an element of this layout or the layouts it extends (elements: "
                           "{join})",
                               layout=layout, name=name, parent=parent,
                               join=', '.join(elements)), own_locs["extends"], "extends")
            ok = False
            return None
        base = resolved(parent, trail + [name])
        if base is None:
            return None
        props = {**inherited, **{k: v for k, v in base[0].items() if k != "extends"}, **own}
        locs = {**inherited_locs, **base[1], **own_locs}
        done[name] = (props, locs)
        return done[name]

    for name in list(elements):
        result = resolved(name, [])
        if result is not None:
            props = {k: v for k, v in result[0].items() if k not in ("extends", "below")}
            if "below" in elements[name].props:
                props["below"] = elements[name].props["below"]
            elements[name].layers = [(props, dict(result[1]))]
    return ok


def _stack(layout: str, elements: dict[str, _Element], report: Report) -> bool:
    """Move each element with `below: NAME` to just under that element (drawn before it)."""
    order = list(elements)
    for name in list(order):
        target = elements[name].props.get("below")
        if target is None:
            continue
        if target not in elements or target == name:
            report.error(_("layout '{layout}': element '{name}' is to be below '{target}', which "
                           "is not another element (elements: {join})",
                               layout=layout, name=name, target=target, join=', '.join(elements)),
                         elements[name].locs["below"], "layout")
            return False
        order.remove(name)
        order.insert(order.index(target), name)
    reordered = {n: elements[n] for n in order}
    elements.clear()
    elements.update(reordered)
    return True


def _templates_compile(layout: str, element: _Element, report: Report) -> bool:
    """Every template and `when:` of the element compiles: a syntax error is reported once,
    here, at its key, not once for every card that would use it."""
    ok = True
    for key, value in _written(element.props):
        if not (key == "when" or sandbox.is_template(value)):
            continue
        one = repeat.expression(value) if key == "repeat.over" else None
        try:
            sandbox.expression(value) if key == "when" else \
                sandbox.expression(one) if one is not None else sandbox.check_template(value)
        except sandbox.SandboxError as exc:
            report.error(_("layout '{layout}': element '{element_name}': {key}: {exc}",
                           layout=layout, element_name=element.name, key=key, exc=exc),
                         element.locs.get(key, element.loc), "layout")
            ok = False
    spec = element.props.get("repeat")
    if isinstance(spec, dict) and spec.get("as") in repeat.RESERVED:
        report.error(_("layout '{layout}': element '{element_name}': repeat.as: '{name}' is a "
                       "name the templates already have ({names}); call the item something "
                       "else, such as item or pip",
                           layout=layout, element_name=element.name, name=spec["as"],
                           names=", ".join(sorted(repeat.RESERVED))),
                     element.locs.get("repeat.as", element.loc), "layout")
        ok = False
    return ok


def _written(props: dict):
    """(key, value) for each value of an element, a `repeat:`'s own as `repeat.over`, and
    each of a list's (a step's lengths) under its list's key."""
    for key, value in props.items():
        if key == "repeat" and isinstance(value, dict):
            for inner, part in value.items():
                for one in part if isinstance(part, list) else [part]:
                    yield f"repeat.{inner}", one
        else:
            yield key, value


def _inner_locs(raw: dict, doc: Document, i: int) -> dict[str, Location]:
    """Where each key of an element's `repeat:` is written, as `repeat.over`."""
    spec = raw.get("repeat")
    if not isinstance(spec, dict):
        return {}
    return {f"repeat.{k}": doc.locate(("elements", i, "repeat", k)) for k in spec}


def _merged(chain: list[tuple[str, Document]], report: Report, art: bool = False):
    """The layout's chain merged, the root ancestor first and each layout over what it
    extends: (size, orientation, bleed, safe, elements by name)."""
    size = orientation = None
    bleed, safe = DEFAULT_BLEED, DEFAULT_SAFE
    elements: dict[str, _Element] = {}
    defaults: tuple[dict, dict] = ({}, {})
    for layout_name, doc in reversed(chain):
        d = doc.data
        if isinstance(d.get("defaults"), dict):  # the nearer layout's win
            defaults = ({**defaults[0], **d["defaults"]},
                        {**defaults[1], **{k: doc.locate(("defaults", k)) for k in d["defaults"]}})
        if "size" in d:
            size = _size(doc, layout_name, report, art)
        orientation = d.get("orientation", orientation)
        for key in ("bleed", "safe"):
            if key in d:
                try:
                    value = parse_length(d[key])
                except ValueError as exc:
                    report.error(_("layout '{layout_name}': {key}: {exc}",
                                   layout_name=layout_name, key=key,
                                   exc=exc), doc.locate((key,)), "units")
                    continue
                bleed, safe = (value, safe) if key == "bleed" else (bleed, value)
        for i, raw in enumerate(d.get("elements") or []):
            element = elements.get(raw["name"])
            if element is None:
                element = elements[raw["name"]] = _Element(raw["name"], doc.locate(("elements", i)))
            element.update({k: v for k, v in raw.items() if k != "name"},
                           {**{k: doc.locate(("elements", i, k)) for k in raw},
                            **_inner_locs(raw, doc, i)})
    return size, orientation, bleed, safe, elements, defaults


def _element_specs(name: str, elements: dict[str, _Element],
                   report: Report) -> list[ElementSpec]:
    """Each merged element checked against its type's schema, its templates compiled."""
    validator = schema.validator_for("element")
    specs = []
    for element in elements.values():
        instance = {"name": element.name, **element.props}
        clean = schema.report_errors(
            instance, validator, report,
            # (used during the call only: the loop's element is the one checked)
            lambda path, key: element.locs.get(".".join(map(str, path[:2])),
                                               element.locs.get(path[0], element.loc))
            if path else element.loc,
            lambda path: "defaults" if path and path[0] in element.defaulted  # (said once)
            else _("layout '{name}': element '{element}'", name=name, element=element.name),
            check_name="layout")
        if clean:
            clean = _templates_compile(name, element, report)
        if clean:
            kind = element_types.NAMES[element.props["type"]]  # an alias is its type
            specs.append(ElementSpec(element.name, kind, frozen_mapping(element.props),
                                     frozen_mapping(element.locs), element.loc, element.defaulted))
    return specs


def resolve_layout(name: str, chain: list[tuple[str, Document]], report: Report,
                   game_defaults: tuple[dict, dict] = ({}, {}),
                   art: bool = False) -> LayoutSpec | None:
    """The layout `name` from its chain (itself first, then what it extends); the game's
    `defaults:` (props, locs) under the layouts' own. `art`: only a board's `art:` uses it
    (its size is the board's, not a card's)."""
    errors = len(report.errors)
    size, orientation, bleed, safe, elements, own = _merged(chain, report, art)
    defaults = ({**game_defaults[0], **own[0]}, {**game_defaults[1], **own[1]})
    if size is None:
        # (a bad size is said where it is)
        if not any("size" in doc.data for _unused, doc in chain):
            report.error(_("layout '{name}' has no size: give size: meishi, poker, ... or [width, "
                           "height] (or extend a layout that has one)", name=name),
                         chain[0][1].locate(()), "layout")
        return None
    if orientation == "portrait" and size[0] > size[1] or \
            orientation == "landscape" and size[0] < size[1]:
        size = (size[1], size[0])
    if not _merge_extends(name, elements, report) or not _stack(name, elements, report):
        return None
    if defaults[0]:
        common = schema.element_keys()
        for element in elements.values():
            props, locs, element.defaulted = element_types.with_defaults(
                element.props, element.locs, defaults, common)
            element.layers = [(props, locs)]
    specs = _element_specs(name, elements, report)
    saver = _ink_saver(name, chain, elements, report)
    if len(report.errors) > errors:
        return None
    written = [[doc.data.get(k) for k in ("size", "bleed", "safe", "elements")]
               for _unused, doc in chain]
    named = next((doc.data["size"] for _unused, doc in chain
                  if isinstance(doc.data.get("size"), str)), "")
    unit = written_unit(written, "in" if named == "us-business" else "mm")
    stamp, stamp_loc = _placed(name, chain, "stamp", (("x", mm(3)), ("y", size[1] - mm(3)),
                                                      ("size", STAMP_SIZE)), report)
    draft, draft_loc = _placed(name, chain, "draft", (("x", max(safe, mm(2))),
                                                      ("y", max(safe, mm(2)))), report)
    if len(report.errors) > errors:
        return None
    return LayoutSpec(name, size, bleed, safe, tuple(specs),
                      tuple(n for n, _unused in chain), chain[0][1].locate(()), unit,
                      stamp, stamp_loc, draft, draft_loc, saver)


def _ink_saver(name: str, chain, elements: dict, report: Report) -> tuple | None:
    """The elements as an ink-saver kit draws them: `ink_saver:` (merged down the chain,
    the nearer layout's keys winning) over each element it names, every element checked
    as any element is; None for a layout that declares none."""
    overrides: dict[str, tuple[dict, dict]] = {}
    for _unused, doc in reversed(chain):
        for element, keys in (doc.data.get("ink_saver") or {}).items():
            props, locs = overrides.get(element, ({}, {}))
            overrides[element] = ({**props, **keys}, {**locs, **{
                k: doc.locate(("ink_saver", element, k)) for k in keys}})
            if element not in elements:
                report.error(_("layout '{name}': ink_saver: names element '{element}', which it "
                               "does not have ({suggest})",
                                   name=name, element=element,
                                   suggest=schema.suggest(element, list(elements),
                                                          THE_LAYOUT)),
                             doc.locate(("ink_saver", element), key=True), "layout")
    if not overrides:
        return None
    variants = {}
    for element_name, element in elements.items():
        variant = _Element(element.name, element.loc)
        variant.layers = [(element.props, element.locs)]
        if element_name in overrides:
            variant.update(*overrides[element_name])
        variant.defaulted = element.defaulted
        variants[element_name] = variant
    return tuple(_element_specs(name, variants, report))


STAMP_SIZE = 4.0  # points: the revision stamp's text, unless the layout says


def _placed(name: str, chain, key: str, defaults: tuple, report: Report):
    """Where the layout puts a mark cardgen adds (`stamp:`, `draft:`; the nearest layout
    of the chain that says): its values in the order of `defaults` ((key, default) pairs)
    and where it is written, or (None, the layout's location)."""
    for _unused, doc in chain:  # this layout first
        raw = doc.data.get(key)
        if raw is None:
            continue
        values = []
        for part, default in defaults:
            try:
                values.append(parse_length(raw[part]) if part in raw else default)
            except ValueError as exc:
                report.error(_("layout '{name}': {key}: {part}: {exc}",
                               name=name, key=key, part=part, exc=exc), doc.locate((key, part)),
                             "units")
                return None, None
        return tuple(values), doc.locate((key,))
    return None, chain[0][1].locate(())
