"""Tokens and standees: pieces that are not rectangles of card.

- A token deck (`shape: circle`, `square` or `hex`) prints its faces as cards are printed,
  fronts and backs registered for duplex, with a cut line of the token's shape around each
  one (a circle for a circle punch, a hexagon) instead of corner crop marks. What a token
  shows must lie inside its shape: text, images, icons and codes are checked against it.
- A standee deck (`shape: standee`) prints each card as one strip: a base tab, the figure,
  the figure again mirrored about the fold (its back once folded), and a second tab. Cut
  lines are solid, fold lines dashed.
"""

from __future__ import annotations

import math

from .. import elements
from ..model import Card, Deck
from ..primitives import Ellipse, Face, Group, Item, Line, Polygon, Rect
from ..problems import Report
from ..units import mm, to_mm
from ..boards.base import hex_points
from ..i18n import _

TOKEN_SHAPES = ("circle", "square", "hex")
CUT = (0.15, 0.15, 0.15)  # solid: cut here
FOLD = (0.45, 0.45, 0.45)  # dashed: fold here
CUT_WIDTH = 0.4
FOLD_DASH = (3.0, 2.0)
FIT_TOLERANCE = mm(0.2)


# sides of the polygon a round token is cut out along: 0.01 mm off a 40 mm circle
CIRCLE_STEPS = 144


def cut_points(shape: str, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """The token's cut line as a polygon in its face's coordinates (the trim box from 0, 0):
    the hexagon itself, or a circle (an ellipse in a box that is not square) as a polygon
    of CIRCLE_STEPS sides around it, so that what lies outside the cut is left out."""
    if shape == "hex":
        return hex_points(0.0, 0.0, w, h)
    if shape == "circle":
        # the polygon's sides touch the circle from outside: nothing inside it is cut off
        grow = 1 / math.cos(math.pi / CIRCLE_STEPS)
        return tuple((w / 2 + w / 2 * grow * math.cos(2 * math.pi * k / CIRCLE_STEPS),
                      h / 2 + h / 2 * grow * math.sin(2 * math.pi * k / CIRCLE_STEPS))
                     for k in range(CIRCLE_STEPS))
    return ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))


def cut_to_shape(face: Face, shape: str) -> Face:
    """The face as it looks once cut out: for a round or hex token, what lies outside its
    cut line (the bleed around it, the corners of its box) is not drawn. Raster outputs,
    proof sheets and Tabletop Simulator show tokens this way; print sheets keep the bleed."""
    if shape not in ("circle", "hex"):
        return face
    return Face(face.width, face.height,
                (Group(face.items, clip_shape=cut_points(shape, face.width, face.height)),),
                face.bleed)


def token_outline(shape: str, x: float, y: float, w: float, h: float) -> Item:
    """The cut line around a token whose face fills the box (x, y, w, h) on a page."""
    if shape == "circle":
        return Ellipse(x, y, w, h, stroke=CUT, stroke_width=CUT_WIDTH)
    if shape == "hex":
        return Polygon(hex_points(x, y, w, h), stroke=CUT, stroke_width=CUT_WIDTH)
    return Rect(x, y, w, h, stroke=CUT, stroke_width=CUT_WIDTH)


def _inside(shape: str, w: float, h: float, px: float, py: float) -> float:
    """How far (points) the point lies outside the token's shape (0 inside)."""
    if shape == "circle":
        rx, ry = w / 2, h / 2
        dx, dy = (px - rx) / rx, (py - ry) / ry
        d = math.hypot(dx, dy)
        return max(0.0, (d - 1) * min(rx, ry))
    if shape == "hex":
        pts = hex_points(0, 0, w, h)
        worst = 0.0
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            ex, ey = x2 - x1, y2 - y1
            length = math.hypot(ex, ey)
            # outside the edge: to the right of it when the corners run counter-clockwise
            cross = (ex * (py - y1) - ey * (px - x1)) / length
            worst = max(worst, -cross)
        return worst
    return max(0.0, -px, px - w, -py, py - h)


def check_token(deck: Deck, card: Card, face: Face, placed: list, report: Report) -> None:
    """Each text, image, icon or code on a token lies inside its shape."""
    if deck.shape == "square":
        return
    for el, (x, y, w, h), _unused in placed:
        if not elements.content(el.type):  # what a token shows lies inside its shape
            continue
        out = max(_inside(deck.shape, face.width, face.height, px, py)
                  for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)))
        if out > FIT_TOLERANCE:
            what = "circle" if deck.shape == "circle" else "hexagon"
            report.error(_("card '{card_id}': element '{el_name}' reaches {out:.1f} mm outside "
                           "the token's {what}; keep it inside the shape (a box inside a "
                           "{what} leaves its corners free)",
                               card_id=card.id, el_name=el.name, out=to_mm(out),
                               what=what), el.loc, "layout", card=card.id, deck=card.deck)


def standee(front: Face, back: Face, tab: float) -> Face:
    """The strip a standee prints as: tab, figure, mirrored figure, tab, from the bottom."""
    w, h = front.width, front.height
    height = 2 * h + 2 * tab
    fold = tab + h
    items: list[Item] = [
        Rect(0, 0, w, tab, fill=(0.93, 0.93, 0.93)),
        Rect(0, height - tab, w, tab, fill=(0.93, 0.93, 0.93)),
        Group(front.items, dx=0, dy=tab, clip=(0, 0, w, h)),
        # the back, mirrored about the fold: folded, it reads upright from behind
        Group(back.items, dx=0, dy=tab, clip=(0, 0, w, h), cy=fold, flip=True),
    ]
    for y in (tab, fold, height - tab):
        items.append(Line(0, y, w, y, FOLD, 0.4, FOLD_DASH))
    items.append(Rect(0, 0, w, height, stroke=CUT, stroke_width=CUT_WIDTH))
    return Face(w, height, tuple(items))

