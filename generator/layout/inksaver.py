"""Ink saver (`cardgen pnp --ink-saver`): the same faces with their large areas of colour
lightened, for a kit printed at home: a full-bleed background or a back design covers most
of a card, and costs most of the ink. What is small (text, icons, frames, lines) keeps its
colour; pictures keep theirs unless `greyscale` turns them grey (a grey copy of each file,
made once, where it is kept).

A finished-values transform of the layout stage's faces: nothing is laid out again.
"""

from __future__ import annotations

from dataclasses import replace

from ..primitives import Block, Ellipse, Face, Group, Path, Polygon, Rect
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
    def __init__(self, greyscale_image=None):
        self.blocks: dict[int, Block] = {}
        self.faces: dict[int, Face] = {}
        self.grey = greyscale_image

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
        if isinstance(item, (Rect, Ellipse, Polygon, Path)) and item.fill is not None \
                and _area(item) >= limit:
            return replace(item, fill=lighter_color(item.fill))
        if self.grey is not None and type(item).__name__ == "Image":
            return self.grey(item)
        return item


def lighter(faces: GameFaces, greyscale_image=None) -> GameFaces:
    """The game's faces with their large fills lightened (and pictures made grey by
    `greyscale_image(item)`, when given). Faces and blocks shared before stay shared."""
    saver = _Saver(greyscale_image)
    decks = tuple(DeckFaces(d.deck, {k: saver.face(f) for k, f in d.fronts.items()},
                            {k: saver.face(f) for k, f in d.backs.items()}) for d in faces.decks)
    return replace(faces, decks=decks)
