"""Ink saver (`cardgen pnp --ink-saver`), for a kit printed at home: a full-bleed background
or a back design covers most of a card, and costs most of the ink.

- A layout can say how it looks in an ink-saver kit (`ink_saver:`, element by element:
  an outline for the background, no full-bleed art): `with_ink_saver` gives the game whose
  decks use those versions, laid out as any game.
- Every other face is lightened (`lighter`): each fill covering a third of the face or more
  takes a pale tint of its colour; text, icons, frames and lines keep theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..model import Game, LayoutSpec, frozen_mapping
from ..primitives import Block, Ellipse, Face, Group, Image, Path, Polygon, Rect
from . import DeckFaces, GameFaces

LARGE = 0.3  # a fill covering this share of the face or more is lightened
KEEP = 0.18  # what is left of a colour's depth: 0.18 of the way from white


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

    def face(self, face: Face) -> Face:
        found = self.faces.get(id(face))
        if found is None:
            limit = LARGE * face.width * face.height
            found = self.faces[id(face)] = replace(face, items=tuple(
                self.item(i, limit) for i in face.items))
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
        if self.lighten and isinstance(item, (Rect, Ellipse, Polygon, Path)) and \
                item.fill is not None and _area(item) >= limit:
            return replace(item, fill=lighter_color(item.fill))
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


def lighter(faces: GameFaces, greyscale_image=None) -> GameFaces:
    """The game's faces with their large fills lightened (and pictures made grey by
    `greyscale_image(item)`, when given), but for the sides whose layouts declare their own
    ink-saver version. Faces and blocks shared before stay shared."""
    saver = _Saver(greyscale_image)

    def side(deck, faces_of: Mapping[str, Face], layout) -> Mapping[str, Face]:
        if declared(layout) and not deck.card_backs:
            return faces_of
        return {k: saver.face(f) for k, f in faces_of.items()}
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
