"""map: places joined by routes, a point-to-point map (route games, wargames, Pandemic-likes).

Its places are its cells (`cells:` in game.yaml: a list in the game's data, or the board's
own list): an id, the place's centre `x`, `y` from the board's top-left (a length, or a
percentage of the board's size), and optionally a `label`, `shape` (circle, rect, hex or
diamond), `size`, `color`, `type` (of the board's `types:`, which give the colour, shape
and size where the place does not) and `tile`. Its routes (`routes:`, a list in the same
two ways) join two places each, `from` and `to`, drawn as a line between their centres in
a style of their own (`color`, `width`, `style`: solid, dashed, dotted or double); a route
with `wrap:` (left, right, top or bottom: the edge it leaves `from` by) leaves the board as
a stub labelled with the place it reaches, and comes back on the opposite edge (the Pacific
of a world map). A route with `spaces:` is drawn as that many train spaces between the
places' edges instead of a line, and a route of a list of colours is a double route, its
routes side by side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import fonts
from ..colors import Color
from ..i18n import N_, _
from ..problems import suggest
from ..model import Board, Cell
from ..options import Option, Options
from ..primitives import Ellipse, Face, Group, Item, Line, Path, Polygon, Rect, Text
from ..problems import Location, Report
from ..units import mm, parse_length, show_size
from ..values import abridged
from . import base, spaces
from .spaces import ROUTE, STYLES, WRAPS  # (a route's keys, declared there)
from .base import INK, BoardFace, CellFace, CellProblem, Entry, ground, hexagon

NAME = "map"
CELLS = True
ROUTES = True  # routes: in its entry join its places
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys ("cells": entries for the game's data).
EXAMPLE = {"layout": "map", "cells": [
    {"id": "paris", "label": "Paris", "x": "30%", "y": "40%", "color": "#2d6cb5"},
    {"id": "lyon", "label": "リヨン Lyon", "x": "45%", "y": "75%", "shape": "rect"},
    {"id": "lille", "x": "35%", "y": "12%"}],
    "routes": [{"from": "paris", "to": "lyon", "style": "double"},
               {"from": "paris", "to": "lille", "spaces": 3,
                "color": ["#b03030", "gray"]},  # a double route of train spaces
               {"from": "lyon", "to": "lille", "wrap": "right"}]}
SHAPES = ("circle", "rect", "hex", "diamond")
TITLE_AT = ("top-left", "top", "top-right", "bottom-left", "bottom", "bottom-right", "none")
OPTIONS = base.style("#3a3a3a", "0.35mm", "8pt") + Options(
    Option("size", "size", N_("the board's size (a place's x and y may be a percentage of "
                              "it)"), ["0mm", "0mm"],
           shown_default=N_("what holds every place"), schema={
               "x-expected": N_("the board's [width, height], such as [420mm, 297mm]")}),
    Option("place", "length", N_("a place's size, where neither it nor its type gives one"),
           "9mm", low="1mm", high="200mm"),  # (a place's own size: the same range)
    Option("place_shape", "choice", N_("a place's shape, where neither it nor its type gives "
                                       "one"), "circle", choices=SHAPES),
    Option("route_color", "color", N_("a route's colour, where the route gives none"),
           "#4a4a4a"),
    Option("route_width", "length", N_("a route's width, where the route gives none"),
           "1.2mm", low="0.1mm", high="20mm"),
    Option("route_style", "choice", N_("a route's style, where the route gives none: solid, "
                                       "dashed, dotted or double (two lines)"), "solid",
           choices=STYLES),
    Option("space_width", "length", N_("how thick a route's train spaces are, where the route "
                                       "gives no width"), "5mm", low="1mm", high="30mm"),
    Option("space_gap", "length", N_("the gap between a route's spaces, and between the "
                                     "routes of a double route"), "1.2mm", low="0mm",
           high="10mm"),
    Option("title_at", "choice", N_("where the board prints its title, inside its margin "
                                    "(none: not at all; title: \"\" in game.yaml prints none "
                                    "too)"), "top-left", choices=TITLE_AT,
           shown_default=N_("top-left; none on a board with an art: layout, whose art "
                            "prints the title it wants")),
    base.TITLE_SIZE,
    Option("label_width", "length", N_("the widest a place's label may be"), "32mm",
           low="5mm"),
    Option("label_ground", "color", N_("the patch behind each label, so that routes do not "
                                       "cross it (none: no patch)"), "#ffffff"),
    Option("label_shrink", "flag", N_("a label wider than label_width is set smaller (down to "
                                      "half its size) instead of being an error"), False),
)
# Where a place's name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
THE_MAP = _("the map")
THE_MARGINS = _("the board inside its margins")  # where a map's title is printed
MAX_ROUTES = 5000  # routes of one map: a larger list is a mistake (or hostile)
LISTS = {"routes": (MAX_ROUTES, N_("routes"))}  # its entry's lists (base.LISTS)
LABEL_GAP = mm(1.2)  # between a place and its label
STUB = mm(14)  # how far a wrapping route's stub reaches at most, from its place to the edge


@dataclass(frozen=True)
class Route:
    """A route of the map: two places joined, in a style; located at its entry."""

    ends: tuple[str, str]  # the place ids it joins, from and to
    color: Color | None
    width: float
    style: str  # solid, dashed, dotted or double
    wrap: str  # "" or the edge it leaves `from` by (left, right, top, bottom)
    source: Any  # the file it is written in (SourceMap)
    path: tuple  # its entry there
    spaces: int = 0  # its length in train spaces (0: drawn as a line)
    lane: int = 0  # which of a double route's routes it is (color: [a, b])
    lanes: int = 1  # how many routes its entry draws side by side

    def locate(self, *sub) -> Location:
        return self.source.locate(self.path + sub)


@dataclass(frozen=True)
class Spec:
    size: tuple[float, float] = OPTIONS.value("size")  # the board's own (0: from its places)
    place: float = OPTIONS.value("place")
    place_shape: str = OPTIONS.value("place_shape")
    route_color: Color | None = OPTIONS.value("route_color")
    route_width: float = OPTIONS.value("route_width")
    route_style: str = OPTIONS.value("route_style")
    space_width: float = OPTIONS.value("space_width")
    space_gap: float = OPTIONS.value("space_gap")
    title_at: str = OPTIONS.value("title_at")
    title_size: float = OPTIONS.value("title_size")
    label_width: float = OPTIONS.value("label_width")
    label_shrink: bool = OPTIONS.value("label_shrink")
    label_ground: Color | None = OPTIONS.value("label_ground")
    routes: tuple[Route, ...] = ()


def resolve(layout, entry: Entry) -> Spec | None:
    v = {key: value for key, value in layout.options(OPTIONS, entry.palette).items()
         if key not in base.STYLE_KEYS}  # (the Board's, read by resolve for every shape)
    if "art" in entry.raw and "title_at" not in layout.data:
        v["title_at"] = "none"  # the art is the board's drawing: its title, if it wants one
    spec = Spec(**v)
    if "routes" not in entry.raw:
        return spec
    listed = entry.listed("routes", *LISTS["routes"])
    if listed is None:
        return None
    items, source, where = listed
    routes = []
    for i, item in enumerate(items):
        path = where + (i,)
        try:
            routes += _route(item, spec, entry.palette, source, path)
        except CellProblem as exc:
            entry.report.error(_("board '{board}': route {n}: {problem}", board=entry.raw["id"],
                                 n=i + 1, problem=exc.message),
                               source.locate(path + exc.key), "schema")
    return Spec(**v, routes=tuple(routes))


def _route(item: Any, spec: Spec, palette: dict, source, path: tuple) -> list[Route]:
    """A route's entry read: one Route, or one for each colour of a double route."""
    if not isinstance(item, dict):
        raise CellProblem(_("is not a mapping (from:, to: and its style)"))
    ends = []
    for key in ("from", "to"):
        value = item.get(key)
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value == "":
            raise CellProblem(_("needs {key}: the id of a place", key=key),
                              (key,) if key in item else ())
        ends.append(str(value))
    unknown = sorted(set(item) - set(ROUTE.properties()))
    if unknown:
        keys = [option.key for option in ROUTE]
        raise CellProblem(_("unknown key '{key}' (a route has {keys} and {last})",
                            key=unknown[0], keys=", ".join(keys[:-1]), last=keys[-1]),
                          (unknown[0],))
    colors = spaces.colors(item, spec, palette)
    count = spaces.count(item)
    width = spec.space_width if count else spec.route_width
    if "width" in item:
        width = _length(item["width"], "width")
        low, high = ROUTE.limits("width")
        if not low <= width <= high:
            raise CellProblem(_("width: {value} is not 0.1mm to 20mm", value=item["width"]),
                              ("width",))
    style = item.get("style", spec.route_style)
    if style not in STYLES:
        raise CellProblem(_("style: '{value}' is not one of {choices}", value=style,
                            choices=", ".join(STYLES)), ("style",))
    wrap = item.get("wrap", "")
    if wrap not in WRAPS + ("",):
        raise CellProblem(_("wrap: '{value}' is not one of {choices} (the edge the route "
                            "leaves its first place by)", value=wrap, choices=", ".join(WRAPS)),
                          ("wrap",))
    if wrap and (count or len(colors) > 1):
        raise CellProblem(_("wrap: a route over the board's edge is drawn as a line (give it "
                            "no spaces and one colour)"), ("wrap",))
    return [Route((ends[0], ends[1]), color, width, style, wrap, source, path, count,
                  lane, len(colors)) for lane, color in enumerate(colors)]


def _length(value: Any, key: str, percent_of: float | None = None) -> float:
    """A place's or route's length: a finite length, or a percentage of `percent_of`."""
    if isinstance(value, float) and not math.isfinite(value):
        shown = ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
        raise CellProblem(_("{key}: {value} is not a number", key=key, value=shown), (key,))
    try:
        return parse_length(value, percent_of)
    except ValueError as exc:
        raise CellProblem(_("{key}: {exc}", key=key, exc=exc), (key,)) from None


def cell(item: dict, record: dict, spec: Spec, fill) -> dict:
    name = item.get("id")
    if not isinstance(name, str) or not name:
        raise CellProblem(_("needs an id (the place's name, which routes use)"),
                          ("id",) if "id" in item else ())
    try:
        return _place(name, item, record, spec, fill)
    except CellProblem as exc:
        raise CellProblem(_("place '{name}': {problem}", name=name, problem=exc.message),
                          exc.key) from None


def _place(name: str, item: dict, record: dict, spec: Spec, fill) -> dict:
    width, height = spec.size
    at = []
    for key, whole in (("x", width), ("y", height)):
        if key not in item:
            raise CellProblem(_("needs {key} (its centre, from the board's top-left)",
                                key=key))
        value = item[key]
        if isinstance(value, str) and value.strip().endswith("%") and not whole:
            raise CellProblem(_("{key}: {value} is a share of the board's size, which its "
                                "layout does not give (size: in the board layout)",
                                key=key, value=value), (key,))
        at.append(_length(value, key, whole or None))
        if at[-1] < 0 or (whole and at[-1] > whole):
            raise CellProblem(_("{key}: {value} is off the board ({size})",
                                key=key, value=value, size=show_size(spec.size)),
                              (key,))
    size = _length(record["size"], "size") if "size" in record else spec.place
    if not mm(1) <= size <= mm(200):
        raise CellProblem(_("size: {value} is not 1mm to 200mm",
                            value=record.get("size", show_size((size, size)))),
                          ("size",) if "size" in item else ())
    shape = record.get("shape", spec.place_shape)
    if shape not in SHAPES:
        raise CellProblem(_("shape: '{value}' is not one of {choices}", value=shape,
                            choices=", ".join(SHAPES)), ("shape",) if "shape" in item else ())
    label = record.get("label", "")
    return {"key": (name,), "label": "" if label is None else str(label),
            "x": at[0], "y": at[1], "w": size, "h": size, "shape": shape,
            "color": fill(record)}


def extent(board: Board) -> tuple[float, float]:
    """The board's size: its layout's, or what holds every place with its margin."""
    spec, m = board.spec, board.margin
    width = spec.size[0] or max((c.x + c.w / 2 for c in board.cells), default=0.0) + m
    height = spec.size[1] or max((c.y + c.h / 2 for c in board.cells), default=0.0) + m
    return width, height


def label_size(text: str, font: str, board: Board) -> float | None:
    """The size a place's label is set at: the board's, or smaller where `label_shrink`
    lets it fit label_width (to half its size at most); None when it does not fit."""
    spec, size = board.spec, board.label_size
    wide = fonts.string_width(text, font, size)
    if wide <= spec.label_width:
        return size
    smaller = size * spec.label_width / wide
    return smaller if spec.label_shrink and smaller >= size / 2 else None


def check(board: Board, game, report: Report) -> None:
    places = {c.key[0]: c for c in board.cells}
    if not places and not board.left_out:
        report.error(_("board '{board_id}': a map's places are its cells: give cells: (a list "
                       "of places, each with an id, x and y)", board_id=board.id), board.loc,
                     "board")
    font = base.board_font(board, game)
    for place in board.cells:
        if place.label and label_size(place.label, font, board) is None:
            wide = fonts.string_width(place.label, font, board.label_size)
            if board.spec.label_shrink:  # too wide even at the smallest the shrink sets
                report.error(_("board '{board_id}': the label '{label}' of place '{name}' is "
                               "{wide:.1f} mm wide even at {size:g} pt (half its size, the "
                               "smallest label_shrink sets it at), wider than label_width "
                               "({most:.1f} mm); shorten it, or widen label_width in the board "
                               "layout", board_id=board.id, label=abridged(place.label),
                               name=place.key[0], wide=wide / 2 / mm(1),
                               size=board.label_size / 2, most=board.spec.label_width / mm(1)),
                             place.locate("label"), "board")
                continue
            report.error(_("board '{board_id}': the label '{label}' of place '{name}' is "
                           "{wide:.1f} mm wide at {size:g} pt, wider than label_width "
                           "({most:.1f} mm); shorten it, or write label_shrink: true in the "
                           "board layout", board_id=board.id, label=abridged(place.label),
                           name=place.key[0], wide=wide / mm(1), size=board.label_size,
                           most=board.spec.label_width / mm(1)),
                         place.locate("label"), "board")
    if places and board.spec.title_at != "none":
        base.check_title(board, game, board.spec.title_size,
                         extent(board)[0] - 2 * (board.margin or mm(5)), THE_MARGINS, report)
    seen: dict[tuple, Route] = {}
    for route in board.spec.routes:
        a, b = route.ends
        if a in board.left_out or b in board.left_out:
            report.skip()  # it joins a place with an error, reported at its cause
            continue
        missing = [(key, end) for key, end in zip(("from", "to"), route.ends)
                   if end not in places]
        for key, end in missing:
            report.error(_("board '{board_id}': route {a} – {b}: {key}: '{end}' is not a place "
                           "of the map ({suggest})", board_id=board.id, a=a, b=b, key=key,
                           end=end, suggest=suggest(end, sorted(places), THE_MAP)),
                         route.locate(key), "reference")
        if missing:
            continue
        if a == b:
            report.error(_("board '{board_id}': route {a} – {b} joins a place to itself",
                           board_id=board.id, a=a, b=b), route.locate("to"), "board")
            continue
        pair = (min(a, b), max(a, b), route.wrap != "")
        first = seen.get(pair)
        if first is not None and first.path != route.path:  # (a double route's own lanes)
            report.error(_("board '{board_id}': route {a} – {b} is given twice (first at "
                           "{first}); a double route is one route with a list of colours "
                           "(color: [orange, black])", board_id=board.id, a=a, b=b,
                           first=first.locate()), route.locate(), "board")
            continue
        if first is None:
            seen[pair] = route
            _fits(board, route, places, report)
    width, height = extent(board)
    _crossings(board, [r for r in seen.values()], places, (width, height), report)


def _fits(board: Board, route: Route, places: Mapping[str, Cell], report: Report) -> None:
    """A route's spaces must fit between its places' edges, each at least spaces.MIN_SPACE long."""
    if not route.spaces:
        return
    start, end = spaces.between(route, places, board.spec)
    room = math.hypot(end[0] - start[0], end[1] - start[1])
    if spaces.space_length(room, route.spaces, board.spec.space_gap) < spaces.MIN_SPACE:
        a, b = route.ends
        report.error(_("board '{board_id}': route {a} – {b}: {n} spaces do not fit in the "
                       "{room:.1f} mm between its places (each would be under {least:g} mm); "
                       "move the places apart, or give fewer spaces", board_id=board.id,
                       a=a, b=b, n=route.spaces, room=max(room, 0.0) / mm(1),
                       least=spaces.MIN_SPACE / mm(1)), route.locate("spaces"), "board")


def _segments(route: Route, places: Mapping[str, Cell], size: tuple[float, float]):
    """The straight pieces a route is drawn as, in y-down board coordinates: one line
    between its places, or a wrapping route's two stubs, each from its place to the edge
    (with the edge's end last)."""
    a, b = places[route.ends[0]], places[route.ends[1]]
    if not route.wrap:
        return [((a.x, a.y), (b.x, b.y))]
    width, height = size
    shift = {"right": (width, 0.0), "left": (-width, 0.0),
             "bottom": (0.0, height), "top": (0.0, -height)}[route.wrap]
    return [_to_edge((a.x, a.y), (b.x + shift[0], b.y + shift[1]), size),
            _to_edge((b.x, b.y), (a.x - shift[0], a.y - shift[1]), size)]


def _to_edge(start, towards, size):
    """The piece of the line from `start` towards `towards` that lies on the board."""
    (x0, y0), (x1, y1) = start, towards
    t = 1.0
    for d, p, limit in ((x1 - x0, x0, size[0]), (y1 - y0, y0, size[1])):
        if d > 0:
            t = min(t, (limit - p) / d)
        elif d < 0:
            t = min(t, -p / d)
    return (x0, y0), (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)


def _crossings(board: Board, routes: list[Route], places: Mapping[str, Cell], size,
               report: Report) -> None:
    """A warning for each route that passes over a place it does not join (the players
    would read it as a stop). Places are sorted into buckets a place wide, so that a map of
    thousands of routes is checked in a moment."""
    step = max((c.w for c in places.values()), default=0.0) or 1.0
    buckets: dict[tuple[int, int], list[Cell]] = {}
    for c in places.values():
        buckets.setdefault((int(c.x // step), int(c.y // step)), []).append(c)
    for route in routes:
        for (x0, y0), (x1, y1) in _segments(route, places, size):
            near: set[int] = set()
            for bx in range(int(min(x0, x1) // step) - 1, int(max(x0, x1) // step) + 2):
                for by in range(int(min(y0, y1) // step) - 1, int(max(y0, y1) // step) + 2):
                    for c in buckets.get((bx, by), ()):
                        if c.key[0] in route.ends or id(c) in near:
                            continue
                        near.add(id(c))
                        if _distance((c.x, c.y), (x0, y0), (x1, y1)) < min(c.w, c.h) / 2:
                            report.warning(_(
                                "board '{board_id}': route {a} – {b} passes over place "
                                "'{name}', which it does not join; move the place, or give "
                                "the route a wrap or another end", board_id=board.id,
                                a=route.ends[0], b=route.ends[1], name=c.key[0]),
                                route.locate(), "board")


def _distance(p, a, b) -> float:
    """From point p to the segment a-b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def drawable(board: Board) -> bool:
    return bool(board.cells) and all(v > 0 for v in extent(board))


def cell_box(board: Board):
    """A place's cell layout is a box of the layout's place size (places of their own size
    draw it scaled)."""
    return (board.spec.place, board.spec.place)


def _route_items(route: Route, places: Mapping[str, Cell], size, height: float,
                 ground_color, board: Board) -> list[Item]:
    out: list[Item] = []
    if route.color is None:  # (color: none: a route the players know but the board hides)
        return out
    if route.spaces:
        return spaces.space_items(route, places, board, height)
    off = spaces.offset(route, board.spec)
    for (x0, y0), (x1, y1) in _segments(route, places, size):
        if off:  # a double route's lane, beside the line between the centres
            length = math.hypot(x1 - x0, y1 - y0) or 1.0
            nx, ny = (y1 - y0) / length * off, -(x1 - x0) / length * off
            x0, y0, x1, y1 = x0 + nx, y0 + ny, x1 + nx, y1 + ny
        a, b = (x0, height - y0), (x1, height - y1)
        w = route.width
        if route.style == "dotted":
            out.append(Path((("M", *a), ("L", *b)), stroke=route.color, stroke_width=w,
                            cap=1, dash=(0.01, w * 2)))
        elif route.style == "double":  # two rails: the route's colour, the ground between
            out.append(Line(*a, *b, route.color, w))
            out.append(Line(*a, *b, ground_color, w / 3))
        else:
            out.append(Line(*a, *b, route.color, w,
                            (w * 3, w * 2) if route.style == "dashed" else ()))
    return out


def _stub_labels(route: Route, places: Mapping[str, Cell], size, height: float, font: str,
                 board: Board) -> list[Item]:
    """A wrapping route's stubs say where they go: the other place's label (or id), at the
    edge, set in the labels' font a little smaller."""
    out: list[Item] = []
    small = board.label_size * 0.8
    stubs = _segments(route, places, size)
    for ((x0, y0), (x1, y1)), other in zip(stubs, (route.ends[1], route.ends[0])):
        place = places[other]
        arrow = "←" if x1 < mm(0.5) else "→" if x1 > size[0] - mm(0.5) else \
            "↑" if y1 < mm(0.5) else "↓"  # the way it leaves the board
        text = f"{arrow} {place.label or other}"
        if fonts.missing_glyphs(font, arrow):
            text = place.label or other
        w = fonts.string_width(text, font, small)
        x = min(max(x1 - w / 2, mm(1.5)), size[0] - w - mm(1.5))

        def line_y(at: float) -> float:  # the stub's height (y down) where the label is
            return y1 if x1 == x0 else y0 + (y1 - y0) * (at - x0) / (x1 - x0)

        ends = (line_y(x), line_y(x + w))
        start = places[route.ends[0] if other == route.ends[1] else route.ends[1]]
        r = max(start.w, start.h) / 2 + mm(0.5)  # the place the stub leaves from

        def clear(baseline: float) -> bool:  # off the board's top, or over its own place
            over = x < x0 + r and x + w > x0 - r and baseline > y0 - r and \
                baseline - small < y0 + r
            return baseline - small >= mm(1) and not over
        # its baseline: just above the stub, else below it, else above its place
        tries = (min(ends) - route.width / 2 - mm(0.8),
                 max(ends) + route.width / 2 + small + mm(0.8), y0 - r - mm(0.3))
        y = next((t for t in tries if clear(t)), tries[0])
        out.append(Text(x, height - min(y, size[1] - mm(1.5)), text, font, small, INK))
    return out


def _place_items(place: Cell, board: Board, height: float) -> list[Item]:
    x, y, w, h = place.x - place.w / 2, height - place.y - place.h / 2, place.w, place.h
    sc, sw = board.outline, board.outline_width
    drawn = sc is not None and sw > 0  # (outline: none draws no line)
    cx, cy = x + w / 2, y + h / 2
    fill: Item
    line: Item
    if place.shape == "circle":
        fill = Ellipse(x, y, w, h, fill=place.color)
        line = Ellipse(x, y, w, h, stroke=sc, stroke_width=sw)
    elif place.shape == "rect":
        r = min(w, h) * 0.12
        fill = Rect(x, y, w, h, fill=place.color, radius=r)
        line = Rect(x, y, w, h, stroke=sc, stroke_width=sw, radius=r)
    else:
        pts = hexagon(cx, cy, min(w / math.sqrt(3), h / 2), 90) if place.shape == "hex" else \
            ((cx, y), (x + w, cy), (cx, y + h), (x, cy))  # a diamond
        fill = Polygon(pts, fill=place.color)
        line = Polygon(pts, stroke=sc, stroke_width=sw)
    return [fill, line] if drawn else [fill]


def _title(board: Board, font: str, width: float, height: float) -> Text:
    """The board's title, inside its margin at the corner or edge the layout names."""
    spec, m = board.spec, board.margin or mm(5)
    size = spec.title_size
    vertical, _sep, horizontal = spec.title_at.partition("-")
    x, anchor = {"left": (m, "start"), "right": (width - m, "end")}.get(
        horizontal, (width / 2, "middle"))
    y = height - m - size * 0.75 if vertical == "top" else m
    return Text(x, y, board.title, font, size, INK, anchor=anchor)


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    spec = board.spec
    width, height = extent(board)
    places = {c.key[0]: c for c in board.cells}
    items: list[Item] = [ground(board, width, height)]
    joined = [r for r in spec.routes  # one validate reports is not drawn
              if all(e in places for e in r.ends) and r.ends[0] != r.ends[1]]
    ground_color = board.color or (1.0, 1.0, 1.0)
    for route in joined:
        items += _route_items(route, places, (width, height), height, ground_color,
                              board)
    centres, labels = [], []
    for place in board.cells:
        items += _place_items(place, board, height)
        cx, cy = place.x, height - place.y
        x, y = cx - place.w / 2, cy - place.h / 2
        face = cell_face(place)
        if face is not None:  # its cell layout, scaled to the place, clipped to its box
            s = place.w / face.width
            items.append(Group(face.items, sx=s, sy=s, dx=x, dy=y,
                               clip=(0, 0, face.width, face.height)))
        if place.tile and place.tile in tiles:
            tile = tiles[place.tile]
            items.append(Group(tile.items, dx=cx - tile.width / 2, dy=cy - tile.height / 2,
                               clip=(0, 0, tile.width, tile.height)))
        size = label_size(place.label, title_font, board) if place.label else None
        if size is not None:  # (a label that does not fit is validate's error: not drawn)
            baseline = y - LABEL_GAP - size * 0.75
            if spec.label_ground is not None:  # a patch of ground, so routes do not cross it
                wide = fonts.string_width(place.label, title_font, size) + size * 0.5
                items.append(Rect(cx - wide / 2, baseline - size * 0.3, wide, size * 1.15,
                                  fill=spec.label_ground, radius=size * 0.3))
            items.append(Text(cx, baseline, place.label, title_font, size, INK,
                              anchor="middle"))
            labels.append((place.label, cx, cy))
        centres.append((cx, cy))
    for route in joined:
        if route.wrap:
            items += _stub_labels(route, places, (width, height), height, title_font, board)
    if board.title and spec.title_at != "none":
        items.append(_title(board, title_font, width, height))
    reach = max((math.hypot(c.w, c.h) / 2 for c in board.cells), default=0.0)
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, reach,
                     tuple(labels))
