"""Ink saver (`cardgen pnp --ink-saver`), for a kit printed at home: a full-bleed background
or a back design covers most of a card, and costs most of the ink.

- A layout can say how it looks in an ink-saver kit (`ink_saver:`, element by element:
  an outline for the background, no full-bleed art): `with_ink_saver` gives the game whose
  decks use those versions, laid out as any game.
- Every other face is lightened (`lighter`): each fill covering a third of the face or more
  takes a pale tint of its colour; icons, frames and lines keep theirs, and so does text,
  unless it would be hard to read on its ground's pale tint (white text on a dark ground
  becomes white on pale): text whose contrast with the lightened ground under it falls
  below WCAG's 4.5:1 takes the ground's own colour, darkened as far as 4.5:1 asks
  (`readable`); what cannot reach it is listed (`_Saver.unreadable`) for a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import math

from .. import fonts
from ..model import Game, LayoutSpec, frozen_mapping
from ..primitives import Block, Ellipse, Face, Group, Image, Path, Polygon, Rect, Text
from . import DeckFaces, GameFaces

LARGE = 0.3  # a fill covering this share of the face or more is lightened
KEEP = 0.18  # what is left of a colour's depth: 0.18 of the way from white
READABLE = 4.5  # WCAG 2's contrast for body text (AA): text on a lightened ground keeps it
FILLS = (Rect, Ellipse, Polygon, Path)


def _rgb(color) -> tuple[float, float, float]:
    """An RGB colour, or a CMYK one as paper shows it (roughly: each ink takes its share)."""
    if len(color) == 4:
        c, m, y, k = color
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return (color[0], color[1], color[2])


def luminance(color) -> float:
    """WCAG 2's relative luminance of an sRGB (or CMYK) colour."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(min(1.0, max(0.0, v))) for v in _rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(text, ground, first):
    """A colour for text on `ground` with at least READABLE contrast: `first` (the ground's
    colour before it was lightened) darkened no more than it must be (toward black, its hue
    kept); None where even black does not reach it."""
    base = _rgb(first)
    for step in range(0, 21):
        k = 1 - step / 20
        candidate = tuple(round(v * k, 4) for v in base)
        if contrast(candidate, ground) >= READABLE:
            return candidate
    return None


def _mapped(group: Group, x: float, y: float) -> tuple[float, float]:
    """A point of a group's items where the group draws it (primitives.Group.draw)."""
    x, y = group.dx + group.sx * x, group.dy + group.sy * y
    if group.flip:
        y = 2 * group.cy - y
    if group.rotate:
        a = math.radians(group.rotate)
        dx, dy = x - group.cx, y - group.cy
        x, y = group.cx + dx * math.cos(a) - dy * math.sin(a), \
            group.cy + dx * math.sin(a) + dy * math.cos(a)
    return x, y


def lighter_color(color):
    if color is None:
        return None
    if len(color) == 4:  # CMYK: less of every ink
        return tuple(v * KEEP for v in color)
    return tuple(1 - (1 - v) * KEEP for v in color)


def _area(item) -> float:
    box = item.bounds() if hasattr(item, "bounds") else None
    return 0.0 if box is None else max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


class _Saver:
    def __init__(self, greyscale_image=None, lighten: bool = True):
        self.blocks: dict[int, Block] = {}
        self.faces: dict[int, Face] = {}
        self.grey = greyscale_image
        self.lighten = lighten
        self.lightened: dict[int, tuple] = {}  # id(a lightened fill) -> (it, its colour before)
        self.unreadable: list[tuple[str, float]] = []  # text no colour makes readable: contrast

    def readable(self, face: Face) -> Face:
        """The lightened face with its text readable on the lightened grounds under it:
        each text's ground is the last fill drawn before it under its middle."""
        grounds: list[tuple[tuple, tuple, tuple | None]] = []  # (box on the face, fill, before)

        def walk(items: tuple, place) -> tuple:
            out, changed = [], False
            for item in items:
                new = item
                if type(item) is Block:
                    inner = walk(item.items, place)
                    new = item if inner is item.items else Block(inner)
                elif isinstance(item, Group):
                    def inner_place(x, y, group=item):
                        return place(*_mapped(group, x, y))
                    inner = walk(item.items, inner_place)
                    new = item if inner is item.items else replace(item, items=inner)
                elif isinstance(item, FILLS) and item.fill is not None:
                    box = item.bounds()
                    if box is not None:
                        corners = [place(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
                        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                        before = self.lightened.get(id(item))
                        grounds.append(((min(xs), min(ys), max(xs), max(ys)), item.fill,
                                        before[1] if before and before[0] is item else None))
                elif isinstance(item, Text) and item.text.strip():
                    new = self._text(item, place, grounds)
                changed = changed or new is not item
                out.append(new)
            return tuple(out) if changed else items
        items = walk(face.items, lambda x, y: (x, y))
        return face if items is face.items else replace(face, items=items)

    def _text(self, item: Text, place, grounds) -> Text:
        box = item.bounds(fonts)
        if box is None:
            return item
        x, y = place((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        under = next((g for g in reversed(grounds) if g[0][0] <= x <= g[0][2] and
                      g[0][1] <= y <= g[0][3]), None)
        if under is None or under[2] is None or contrast(item.color, under[1]) >= READABLE:
            return item  # not on a lightened ground, or readable on it
        color = readable_on(item.color, under[1], under[2])
        if color is None:
            self.unreadable.append((item.text, contrast(item.color, under[1])))
            return item
        return replace(item, color=color)

    def face(self, face: Face) -> Face:
        found = self.faces.get(id(face))
        if found is None:
            limit = LARGE * face.width * face.height
            found = replace(face, items=tuple(self.item(i, limit) for i in face.items))
            found = self.faces[id(face)] = self.readable(found) if self.lighten else found
        return found

    def item(self, item, limit: float):
        if type(item) is Block:
            found = self.blocks.get(id(item))
            if found is None:
                found = self.blocks[id(item)] = Block(tuple(self.item(i, limit)
                                                            for i in item.items))
            return found
        if isinstance(item, Group):
            scale = item.sx * item.sy
            return replace(item, items=tuple(self.item(i, limit / scale if scale else limit)
                                             for i in item.items))
        if self.lighten and isinstance(item, FILLS) and item.fill is not None and \
                _area(item) >= limit:
            light = replace(item, fill=lighter_color(item.fill))
            self.lightened[id(light)] = (light, item.fill)
            return light
        if self.grey is not None and isinstance(item, Image):
            return self.grey(item)
        return item


def with_ink_saver(game: Game) -> Game:
    """The game with each layout that declares `ink_saver:` replaced by its ink-saver
    version (the same layout, its elements as `ink_saver:` says)."""
    def saving(layout: LayoutSpec) -> LayoutSpec:
        return layout if layout.ink_saver is None else \
            replace(layout, elements=layout.ink_saver)
    return replace(game, decks=tuple(replace(
        d, front=saving(d.front), back=saving(d.back),
        card_backs=frozen_mapping({k: saving(v) for k, v in d.card_backs.items()}))
        for d in game.decks))


def declared(layout: LayoutSpec | None) -> bool:
    return layout is not None and layout.ink_saver is not None


def lighter(faces: GameFaces, greyscale_image=None,
            unreadable: list | None = None) -> GameFaces:
    """The game's faces with their large fills lightened (and pictures made grey by
    `greyscale_image(item)`, when given), their text readable on them, but for the sides
    whose layouts declare their own ink-saver version. Faces and blocks shared before stay
    shared, but for a block whose text changed colour. `unreadable`, when given, is filled
    with (deck id, card id, text, its contrast) for text no colour makes readable."""
    saver = _Saver(greyscale_image)

    def side(deck, faces_of: Mapping[str, Face], layout) -> Mapping[str, Face]:
        if declared(layout) and not deck.card_backs:
            return faces_of
        out = {}
        for k, f in faces_of.items():
            before = len(saver.unreadable)
            out[k] = saver.face(f)
            if unreadable is not None:
                unreadable.extend((deck.id, k, *said) for said in saver.unreadable[before:])
        return out
    decks = tuple(DeckFaces(d.deck, side(d.deck, d.fronts, d.deck.front),
                            side(d.deck, d.backs, d.deck.back)) for d in faces.decks)
    return replace(faces, decks=decks)


def greyed(faces: GameFaces, greyscale_image) -> GameFaces:
    """The game's faces with every picture grey (`greyscale_image(item)`), nothing else
    changed: the ink saver's pictures without its lighter fills."""
    saver = _Saver(greyscale_image, lighten=False)
    decks = tuple(DeckFaces(d.deck, {k: saver.face(f) for k, f in d.fronts.items()},
                            {k: saver.face(f) for k, f in d.backs.items()}) for d in faces.decks)
    return replace(faces, decks=decks)
