"""A map's routes (boards/map.py): their keys (ROUTE, declared once), a route's colours and
its count of train spaces as written; where a route's spaces lie, from one place's edge to
the other's, on its lane of a double route; and the spaces drawn."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..colors import Color, parse_color
from ..i18n import N_, _
from ..model import Board, Cell
from ..options import Option, Options
from ..primitives import Item, Polygon
from ..units import mm
from .base import CellProblem

STYLES = ("solid", "dashed", "dotted", "double")  # a route's line
WRAPS = ("left", "right", "top", "bottom")  # the edge a wrapping route leaves by
# The keys of one route (`routes:` in game.yaml), declared once: their words make the docs'
# table (reference.md, "board-map-route"), the unknown-key message and the spaces' range.
ROUTE = Options(
    Option("from", "text", N_("the id of the place it leaves"), required=True),
    Option("to", "text", N_("the id of the place it reaches"), required=True),
    Option("color", "color", N_("its colour; a list of colours ([orange, black]) is a double "
                               "route: one route of each colour, side by side"),
           shown_default=N_("the layout's route_color")),
    Option("width", "length", N_("its line's width, or its spaces' thickness"), low="0.1mm",
           high="20mm", shown_default=N_("the layout's route_width or space_width")),
    Option("style", "choice", N_("its line: solid, dashed, dotted or double (two rails); a "
                                 "route with spaces draws its spaces instead"),
           choices=STYLES, shown_default=N_("the layout's route_style")),
    Option("wrap", "choice", N_("the edge it leaves its from place by, to come back on the "
                                "opposite edge"), choices=WRAPS, shown_default=N_("none")),
    Option("spaces", "integer", N_("its length in train spaces: that many equal spaces "
                                   "between the two places, in its colour"), low=1, high=20,
           shown_default=N_("none: a line")),
)


def colors(item: dict, spec: Any, palette: dict) -> list[Color | None]:
    """A route's colours: the layout's, its own, or a double route's list of two or three."""
    if "color" not in item:
        return [spec.route_color]
    written = item["color"]
    many = isinstance(written, list)
    if many and not 2 <= len(written) <= 3:
        raise CellProblem(_("color: a double route has two or three colours, not {n}",
                            n=len(written)), ("color",))
    out = []
    for i, value in enumerate(written if many else [written]):
        try:
            out.append(parse_color(str(value), palette))
        except ValueError as exc:
            raise CellProblem(_("color: {exc}", exc=exc),
                              ("color", i) if many else ("color",)) from None
    return out


def count(item: dict) -> int:
    if "spaces" not in item:
        return 0
    value = item["spaces"]
    low, high = ROUTE.limits("spaces")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CellProblem(_("spaces: {value} is not a whole number from {low} to {high} (the "
                            "route's length in train spaces)", value=value, low=low,
                            high=high), ("spaces",))
    return value



MIN_SPACE = mm(2)  # the shortest a train space may be drawn


def space_length(room: float, n: int, gap: float) -> float:
    return (room - (n - 1) * gap) / n if room > 0 else 0.0


def offset(route: Any, spec: Any) -> float:
    """How far a double route's lane lies from the line between the places' centres
    (to the left of from -> to; 0 for a single route)."""
    return (route.lane - (route.lanes - 1) / 2) * (route.width + spec.space_gap)


def between(route: Any, places: Mapping[str, Cell], spec: Any):
    """A route's spaces run from one place's edge to the other's (a gap from each), on its
    lane: (start, end) in y-down board coordinates."""
    a, b = places[route.ends[0]], places[route.ends[1]]
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    off = offset(route, spec)
    nx, ny = uy * off, -ux * off  # (perpendicular)

    near = max(abs(off) - route.width / 2, 0.0)  # a space's side nearest the centres' line

    def edge(place: Cell) -> float:  # along the lane, where that side clears the place by a gap
        r = max(place.w, place.h) / 2 + spec.space_gap
        return math.sqrt(max(r * r - near * near, 0.0))
    ra, rb = edge(a), edge(b)
    return ((a.x + nx + ux * ra, a.y + ny + uy * ra),
            (b.x + nx - ux * rb, b.y + ny - uy * rb))


def space_items(route: Any, places: Mapping[str, Cell], board: Board,
                 height: float) -> list[Item]:
    """A route's train spaces: equal rectangles from one place's edge to the other's, in
    the route's colour, outlined as the places are, a gap between them."""
    spec = board.spec
    (x0, y0), (x1, y1) = between(route, places, spec)
    room = math.hypot(x1 - x0, y1 - y0)
    n, gap = route.spaces, spec.space_gap
    long = space_length(room, n, gap)
    if long <= 0:  # (validate's error: not drawn)
        return []
    ux, uy = (x1 - x0) / room, (y1 - y0) / room
    hx, hy = uy * route.width / 2, -ux * route.width / 2  # half its thickness, across
    sc, sw = board.outline, board.outline_width
    drawn = sc is not None and sw > 0
    out: list[Item] = []
    for i in range(n):
        s0 = i * (long + gap)
        ax, ay = x0 + ux * s0, y0 + uy * s0
        bx, by = ax + ux * long, ay + uy * long
        pts = tuple((px, height - py) for px, py in (
            (ax + hx, ay + hy), (bx + hx, by + hy), (bx - hx, by - hy), (ax - hx, ay - hy)))
        out.append(Polygon(pts, fill=route.color, stroke=sc if drawn else None,
                           stroke_width=sw if drawn else 0.0))
    return out
