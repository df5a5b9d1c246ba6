"""Art that reaches a page's trim runs on into its bleed, as a card face's does.

A card face runs its art on by its elements (`bleed: true`, and a filled rectangle or a
covering picture by default: elements/base.py grows their boxes by the layout's bleed on
every side where they touch the trim). A board is drawn by its shape (generator/boards),
at its trim size, with no bleed of its own: for a print shop's export its ground, the
cells and tiles that reach its edge and their pictures run on here, on the finished
primitives, the same way:

- a filled rectangle, and a picture's box, grow by the bleed on each side where they
  touch the trim (a picture that is cut by its group's clip shows more of itself; one
  drawn whole is stretched by the bleed, 3 mm across a board's width);
- a rectangle with an outline keeps its outline where it is, over its fill run on;
- a shape drawn by its points (a hex cell, an SVG picture's path) with an edge along the
  trim gets a band of its fill from that edge to the bleed's edge under it (the shape
  inside the trim stays as drawn); one that meets the trim at a point or a curve needs
  none (the ground runs on around it);
- a group (a tile, a cell's face) runs on what is inside it, its clip with it;
- an outline alone (a cell's frame line) stays: a line on the trim is cut, not art.

What reaches the trim and cannot run on (text, a turned group, a group clipped to a
shape) is said, side by side (`run_on`'s second answer), and the export reports it
at the board. The export's preflight reads every page back and finds art that stops at
the trim whatever drew it (preflight.trim_stops).
"""

from __future__ import annotations

from dataclasses import replace

from .. import fonts
from ..primitives import Block, Ellipse, Face, Group, Image, Line, Path, Polygon, Rect

EPS = 0.05  # points: closer than this to the trim line is on it
SIDES = ("left", "bottom", "right", "top")


def _touching(bounds, trim) -> list[int]:
    """The sides (indices of SIDES) where `bounds` reaches the trim line and no further out
    than a hair."""
    if bounds is None:
        return []
    x0, y0, x1, y1 = bounds
    return [i for i, at in enumerate((x0 <= trim[0] + EPS, y0 <= trim[1] + EPS,
                                      x1 >= trim[2] - EPS, y1 >= trim[3] - EPS)) if at]


def _grown(box: tuple[float, float, float, float], sides: list[int], trim, bleed_box):
    """A box (x0, y0, x1, y1) with its edges on the trim's `sides` moved out to the bleed."""
    edges = list(box)
    for i in sides:
        if (i < 2 and edges[i] > bleed_box[i]) or (i >= 2 and edges[i] < bleed_box[i]):
            edges[i] = bleed_box[i]
    return edges


def _items(items: tuple, trim, bleed_box, stuck: set[str]) -> tuple:
    out = []
    for item in items:
        sides = _touching(item.bounds(fonts), trim)
        if not sides:
            out.append(item)
            continue
        if type(item) is Rect and not item.radius:
            if item.fill is None:
                out.append(item)  # an outline on the trim: a line the cut takes
                continue
            x0, y0, x1, y1 = _grown((item.x, item.y, item.x + item.w, item.y + item.h), sides,
                                    trim, bleed_box)
            ground = replace(item, x=x0, y=y0, w=x1 - x0, h=y1 - y0)
            if item.stroke is not None and item.stroke_width > 0:
                out += [replace(ground, stroke=None, stroke_width=0.0, dash=()),
                        replace(item, fill=None)]
            else:
                out.append(ground)
        elif type(item) is Image:
            x0, y0, x1, y1 = _grown((item.x, item.y, item.x + item.w, item.y + item.h), sides,
                                    trim, bleed_box)
            out.append(replace(item, x=x0, y=y0, w=x1 - x0, h=y1 - y0))
        elif type(item) is Block:
            out.append(Block(_items(item.items, trim, bleed_box, stuck)))
        elif type(item) is Group and not item.rotate and not item.clip_shape and \
                item.sx > 0 and item.sy > 0:
            out.append(_group(item, trim, bleed_box, stuck))
        elif type(item) in (Polygon, Path) and item.fill is not None:
            strips = [strip for i in sides for strip in _strips(item, i, trim, bleed_box)]
            out += [Polygon(points, fill=item.fill) for points in strips] + [item]
        elif type(item) in (Polygon, Path, Ellipse, Line) or item.bounds(fonts) is None:
            out.append(item)  # an outline, or a shape that meets the trim at a point
        else:
            bounds = item.bounds(fonts)
            stuck.update(SIDES[i] for i in sides  # (not what runs on far enough already)
                         if abs(bounds[i] - bleed_box[i]) > EPS and
                         (bounds[i] > bleed_box[i] if i < 2 else bounds[i] < bleed_box[i]))
            out.append(item)
    return tuple(out)


def _strips(item, side: int, trim, bleed_box) -> list[tuple[tuple[float, float], ...]]:
    """The fill of a shape drawn by its points (a polygon, a path's straight lines) run on
    from each of its edges that lies along the trim's `side`: a band from the edge to the
    bleed's edge, so that the shape inside the trim is as drawn. A shape that meets the
    trim at a corner or a curve has no edge there: it runs on as the ground under it."""
    Point = tuple[float, float] | None  # None: a curve between its neighbours
    runs: list[list[Point]]
    if type(item) is Polygon:
        runs = [[*item.points, item.points[0]]]
    else:
        runs = []
        run: list[Point] = []
        for op in item.ops:
            if op[0] == "M":
                if len(run) > 1:
                    runs.append(run)
                run = [(float(op[1]), float(op[2]))]
            elif op[0] in ("L", "C"):
                if op[0] == "C":
                    run.append(None)  # a curve: not an edge along the trim
                run.append((op[-2], op[-1]))
            elif run and run[0] is not None:
                run.append(run[0])
        if len(run) > 1:
            runs.append(run)
    axis, at, out_to = side % 2, trim[side], bleed_box[side]
    bands: list[tuple[tuple[float, float], ...]] = []
    for points in runs:
        for a, b in zip(points, points[1:]):
            if a is None or b is None or abs(a[axis] - at) > EPS or abs(b[axis] - at) > EPS or \
                    abs(a[1 - axis] - b[1 - axis]) <= EPS:
                continue
            if axis == 0:
                bands.append(((at, a[1]), (at, b[1]), (out_to, b[1]), (out_to, a[1])))
            else:
                bands.append(((a[0], at), (b[0], at), (b[0], out_to), (a[0], out_to)))
    return bands


def _group(group: Group, trim, bleed_box, stuck: set[str]) -> Group:
    """A group (moved, scaled or mirrored top to bottom, not turned) run on: the trim and
    bleed in its own coordinates, its clip grown where it lies on the trim."""
    def inner(box):
        if group.flip:  # (mirrored about cy before it is moved: its top is the page's bottom)
            box = (box[0], 2 * group.cy - box[3], box[2], 2 * group.cy - box[1])
        return ((box[0] - group.dx) / group.sx, (box[1] - group.dy) / group.sy,
                (box[2] - group.dx) / group.sx, (box[3] - group.dy) / group.sy)
    trim_in, bleed_in = inner(trim), inner(bleed_box)
    clip = group.clip
    if clip is not None:
        x0, y0, x1, y1 = _grown((clip[0], clip[1], clip[0] + clip[2], clip[1] + clip[3]),
                                _touching((clip[0], clip[1], clip[0] + clip[2],
                                           clip[1] + clip[3]), trim_in), trim_in, bleed_in)
        clip = (x0, y0, x1 - x0, y1 - y0)
    return replace(group, clip=clip, items=_items(group.items, trim_in, bleed_in, stuck))


def run_on(face: Face, bleed: float) -> tuple[Face, tuple[str, ...]]:
    """The face with its art that reaches the trim run on by `bleed` (points) on every side,
    its bleed set; and the sides (SIDES) where something reaches the trim that cannot run on."""
    if bleed <= 0:
        return face, ()
    trim = (0.0, 0.0, face.width, face.height)
    bleed_box = (-bleed, -bleed, face.width + bleed, face.height + bleed)
    stuck: set[str] = set()
    items = _items(face.items, trim, bleed_box, stuck)
    return replace(face, items=items, bleed=bleed), tuple(s for s in SIDES if s in stuck)
