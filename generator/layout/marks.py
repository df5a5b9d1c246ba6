"""What cardgen itself adds to a face: the guides (`--guides`), the DRAFT mark on a card
with a TBD value, and the revision stamp (the game's version and what the face prints)."""

from __future__ import annotations


from .. import fonts
from ..identity import face_identity
from ..model import Game, LayoutSpec
from ..primitives import Face, Item, Rect, Text
from ..units import mm

DRAFT_RED = (0.85, 0.1, 0.1)
GUIDE_TRIM = (0.9, 0.0, 0.0)
GUIDE_BLEED = (0.9, 0.0, 0.9)
GUIDE_SAFE = (0.0, 0.6, 0.2)
GUIDE_BOX = (0.0, 0.55, 0.85)


LABEL_SIZE = 3.5  # pt: a guide's element name
LABEL_STEP = 4.2  # pt: one label line


def guides_of(layout: LayoutSpec, boxes: list[tuple[str, tuple]], label_font: str) -> list[Item]:
    """The trim, bleed and safe lines, and each element's box with its name. A name goes at
    its box's top-left, or the first place that meets no other name (_label_place): on a
    dense card, boxes that share a corner would set their names on top of each other."""
    W, H, b, s = *layout.size, layout.bleed, layout.safe
    items: list[Item] = [
        Rect(-b, -b, W + 2 * b, H + 2 * b, stroke=GUIDE_BLEED, stroke_width=0.3, dash=(2, 2)),
        Rect(0, 0, W, H, stroke=GUIDE_TRIM, stroke_width=0.3),
        Rect(s, s, W - 2 * s, H - 2 * s, stroke=GUIDE_SAFE, stroke_width=0.3, dash=(1, 2)),
    ]
    ascent, descent = fonts.ascent_descent(label_font, LABEL_SIZE)
    taken: list[tuple[float, float, float, float]] = []
    for name, (x, y, w, h) in boxes:
        items.append(Rect(x, y, w, h, stroke=GUIDE_BOX, stroke_width=0.25, dash=(1, 1)))
        width = fonts.string_width(name, label_font, LABEL_SIZE)
        lx, ly = _label_place((x, y, w, h), width, (ascent, descent), (W, H, b), taken)
        taken.append((lx, ly + descent, lx + width, ly + ascent))
        items.append(Text(lx, ly, name, label_font, LABEL_SIZE, GUIDE_BOX))
    return items


def _label_place(box: tuple, width: float, extent: tuple[float, float], face: tuple,
                 taken: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where an element's name goes (its baseline's left end): the first of its box's
    top-left corner, lines further down its left side, its right side, just above and just
    below it, then anywhere on the face from the top, that stays on the face (bleed
    included) and meets no name already placed; the top-left corner if none does."""
    x, y, w, h = box
    W, H, b = face
    ascent, descent = extent
    left, right = x + 0.8, x + w - 0.8 - width
    lines = [y + h - LABEL_STEP - k * LABEL_STEP for k in range(max(1, int(h // LABEL_STEP)))]
    tried = [(left, ly) for ly in lines] + [(right, ly) for ly in lines] + \
        [(left, y + h + 0.8 - descent), (left, y - ascent - 0.8)]
    rows = int((H + 2 * b) // LABEL_STEP)
    tried += [(cx, H + b - LABEL_STEP - r * LABEL_STEP) for r in range(rows)
              for cx in _steps(-b + 0.8, W + b - 0.8 - width, 4.0)]
    for lx, ly in tried:
        x0, y0, x1, y1 = lx, ly + descent, lx + width, ly + ascent
        if x0 < -b or x1 > W + b or y0 < -b or y1 > H + b:
            continue
        if not any(x0 < t[2] and x1 > t[0] and y0 < t[3] and y1 > t[1] for t in taken):
            return lx, ly
    return left, y + h - LABEL_STEP


def _steps(start: float, stop: float, step: float) -> list[float]:
    """start, start + step, ... up to stop (none when stop < start)."""
    return [start + i * step for i in range(int((stop - start) // step) + 1)] \
        if stop >= start else []


def stamp(layout: LayoutSpec, face: Face, game: Game, font: str) -> Item:
    """The revision stamp: the game's version and the identity of what the face prints
    (identity.py) without the stamp, small at the bottom: a card reprinted for any reason
    (its data, a layout, a picture, a font) gets a new stamp, so old and new prints can be
    told apart at the table, and one that prints the same keeps its stamp."""
    label = f"{game.version} {face_identity(face)[:7]}".strip()
    if layout.stamp is not None:  # where the layout puts it: its line's top-left corner
        x, y, size = layout.stamp
        ascent, _ = fonts.ascent_descent(font, size)
        return Text(x, layout.size[1] - y - ascent, label, font, size, (0.45, 0.45, 0.45))
    inset = max(layout.safe, mm(2))
    return Text(inset, inset * 0.45, label, font, 4.0, (0.45, 0.45, 0.45))


def draft_mark(layout: LayoutSpec, font: str) -> list[Item]:
    """A DRAFT label, white on red so it shows on any design, where the layout's `draft:`
    puts it (a place it keeps free of text), else at the safe area's top-left."""
    inset = max(layout.safe, mm(2))
    x, y = layout.draft if layout.draft is not None else (inset, inset)
    size = 5.5
    width = fonts.string_width("DRAFT", font, size) + mm(1.6)
    height = size + mm(1)
    top = layout.size[1] - y
    ascent, descent = fonts.ascent_descent(font, size)
    return [Rect(x, top - height, width, height, fill=DRAFT_RED, radius=mm(0.6)),
            Text(x + width / 2, top - height / 2 - (ascent + descent) / 2, "DRAFT", font,
                 size, (1.0, 1.0, 1.0), anchor="middle")]
