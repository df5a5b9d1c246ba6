"""Packed sheets: pieces of several sizes and shapes on one plain-paper sheet, and tokens
nested as their shapes allow.

On a preset that fits any card (`plain: true`), decks of different sizes may share a page:
each deck's pieces fill bands across the page, top to bottom, a deck after the one before
it. Cards and square tokens lie in a grid band (their crop marks around it, so every cut is
straight across its band); hex tiles lie in a honeycomb, touching along shared edges (one
cut serves two tiles); round tokens in a hexagonal packing, each row set in by half a
token, a small gap apart. Bands of cards keep room between them for their marks. The back
of every piece is drawn where its front lands after the sheet is turned, as on any sheet.

Pure geometry, as the rest of impose.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..i18n import Listed, _n
from ..layout.pieces import cut_points, token_outline
from ..model import SheetPreset
from ..primitives import Face, Group, Item
from ..units import mm, show_size
from .pages import Page, Placement, crop_marks

NESTED = ("hex", "circle")
TOKEN_GAP = mm(1.5)  # between round tokens, at least: room to cut each one out


def pieces(kind: str, n: int, size: str) -> str:
    """A packed sheet's pieces of one kind and size, as the print guide says them: "9 cards
    of 63 x 88 mm", "18 round tokens of 25 x 25 mm"."""
    if kind == "circle":
        return _n("{n} round token of {size}", "{n} round tokens of {size}", n, size=size)
    if kind == "hex":
        return _n("{n} hex tile of {size}", "{n} hex tiles of {size}", n, size=size)
    if kind == "square":
        return _n("{n} square token of {size}", "{n} square tokens of {size}", n, size=size)
    return _n("{n} card of {size}", "{n} cards of {size}", n, size=size)

Piece = tuple[str, Face, Face]  # a card to place: its id, its front and its back
Run = tuple[str, str, list[Piece], tuple[float, float]]  # a deck's id, shape, pieces and gap
Placed = tuple[str, str, Face, Face, float, float]  # deck id, card id, faces, x, y on the page


def mixed(a: SheetPreset, b: SheetPreset) -> bool:
    """Two sheets whose pieces may share a page: plain paper that fits any card, the same
    paper, turned over the same way, with the same margin nothing prints in."""
    return a.mixed and b.mixed and a.paper == b.paper and a.duplex == b.duplex and \
        a.unprintable == b.unprintable and a.crop_marks == b.crop_marks


@dataclass(frozen=True)
class _Lattice:
    """How the pieces of a run lie in a band: the x of each spot of an even and an odd row
    (from the band's left), the row pitch, and where a spot's centre lies below its row's
    top (by row and column), how far its printed shape reaches above and below the centre."""

    even: list[float]
    odd: list[float]
    pitch: float
    centre: Callable[[int, int], float]  # (row, col) -> y below the row's top
    half: float

    def xs(self, row: int) -> list[float]:
        return self.even if row % 2 == 0 else self.odd


def _lattice(kind: str, w: float, h: float, width: float, gap: tuple) -> _Lattice:
    if kind == "hex" and h >= w:  # pointy-topped: rows interlock, set in by half a tile
        r = min(w / math.sqrt(3), h / 2)
        hw = r * math.sqrt(3)
        even = [hw / 2 + j * hw for j in range(int(width // hw))]
        odd = [hw + j * hw for j in range(int((width - hw / 2) // hw))]
        return _Lattice(even, odd, 1.5 * r, lambda row, col: r, r)
    if kind == "hex":  # flat-topped: columns interlock, every other one half a tile lower
        r = min(h / math.sqrt(3), w / 2)
        v = r * math.sqrt(3)
        n = int((width - 2 * r) // (1.5 * r)) + 1 if width >= 2 * r else 0
        xs = [r + j * 1.5 * r for j in range(n)]
        return _Lattice(xs, xs, v, lambda row, col: v / 2 + (col % 2) * v / 2, v / 2)
    if kind == "circle":
        d = min(w, h)
        p = d + max(TOKEN_GAP, gap[0])
        even = [d / 2 + j * p for j in range(int((width + p - d) // p))]
        odd = [d / 2 + p / 2 + j * p for j in range(int((width + p - d - p / 2) // p))]
        return _Lattice(even, odd, p * math.sqrt(3) / 2, lambda row, col: d / 2, d / 2)
    xs = [w / 2 + j * (w + gap[0]) for j in range(int((width + gap[0]) // (w + gap[0])))]
    return _Lattice(xs, xs, h + gap[1], lambda row, col: h / 2, h / 2)


def _clip(face: Face, shape: str, grow: float) -> Face:
    """A nested piece's face cut to its shape (and its bleed around a round one): it lies
    in a neighbour's box."""
    points = cut_points(shape, face.width, face.height)
    if grow and shape == "circle":
        cx, cy, r = face.width / 2, face.height / 2, min(face.width, face.height) / 2
        k = (r + grow) / r
        points = tuple((cx + (x - cx) * k, cy + (y - cy) * k) for x, y in points)
    return Face(face.width, face.height, (Group(face.items, clip_shape=points),), face.bleed)


def _edge(sheet: SheetPreset, kind: str, marks: float, gap: tuple[float, float]) -> float:
    """How far from the paper's edge a band of pieces of this kind keeps: outside what the
    printer cannot print, with its crop marks (cards) or its bleed (round tokens, which
    print half their deck's gap around them) outside it too."""
    if kind == "circle":
        return sheet.unprintable + max(TOKEN_GAP, gap[0]) / 2
    return sheet.unprintable + (0.0 if kind in NESTED else marks)


def _capacity(lattice: _Lattice, top: float, limit: float) -> int:
    """How many pieces a band's rows hold from `top` down to `limit`."""
    count, row = 0, 0
    while lattice.pitch > 0:
        n = len(lattice.xs(row))
        if not n or top + max(lattice.centre(row, c) for c in range(n)) + lattice.half > limit:
            break
        count, row, top = count + n, row + 1, top + lattice.pitch
    return count


def _orientation(kind: str, size: tuple[float, float], W: float, edge: float, gap: tuple,
                 top: float, limit: float, left_to_place: int):
    """How a band of pieces of `size` lies from `top` down on the page: ((w, h) of a slot,
    its lattice, the band's left, whether the pieces are turned), the way that holds more
    of the pieces still to place (upright where both hold as many), or None where neither
    holds one. Cards and square tokens may turn a quarter; nested tokens keep their way."""
    ways = [(size, False)]
    if kind not in NESTED and abs(size[0] - size[1]) > 0.1:
        ways.append(((size[1], size[0]), True))
    best, most = None, 0
    for (w, h), turned in ways:
        lattice = _lattice(kind, w, h, W - 2 * edge, gap)
        if not lattice.even:
            continue
        held = min(_capacity(lattice, top, limit), left_to_place)
        if held > most:
            band = max(lattice.even[-1], lattice.odd[-1] if lattice.odd else 0.0) + w / 2
            best, most = ((w, h), lattice, (W - band) / 2, turned), held
    return best


def pack(runs: list[Run], sheet: SheetPreset, offset: tuple[float, float] = (0.0, 0.0),
         reserve: float = 0.0
         ) -> tuple[list[Page], list[Page], list[str], dict[str, tuple[int, ...]]]:
    """Pages of the runs ((deck id, shape, cards as (id, front, back), gap) in order), packed
    as the module says, each deck's pieces its own gap apart (decks of one size and shape
    but different gaps lie in bands of their own), leaving `reserve` free at the foot of
    each page (a print-and-play kit's note). Returns (front pages, back pages, each page's
    plan in words, each deck's page numbers)."""
    W, H = sheet.paper
    marks = sum(sheet.crop_marks) if sheet.crop_marks else 0.0
    out = _Pages(sheet, offset)
    # Decks of one size and shape one after another: one band (kind, pieces, size).
    bands: list[tuple[str, list[tuple[str, str, Face, Face]], tuple[float, float],
                      tuple[float, float]]] = []
    for deck_id, shape, cards, gap in runs:
        if not cards:
            continue
        kind = shape if shape in NESTED or shape == "square" else "card"
        size = (cards[0][1].width, cards[0][1].height)
        if bands and (bands[-1][0], bands[-1][2], bands[-1][3]) == (kind, size, gap):
            bands[-1][1].extend((deck_id, *card) for card in cards)
        else:
            bands.append((kind, [(deck_id, *card) for card in cards], size, gap))
    for kind, pieces, size, gap in bands:
        edge = _edge(sheet, kind, marks, gap)
        limit = H - edge - reserve + 1e-6
        queue, row = list(pieces), 0
        chosen: tuple | None = None
        while queue:
            if row == 0:  # a band starts (on a page, or below another): its orientation
                chosen = _orientation(kind, size, W, edge, gap,
                                      out.below(kind, marks, gap), limit, len(queue))
                if chosen is None:
                    if out.empty():
                        break  # (larger than the paper: validate says so)
                    out.close()
                    continue
            assert chosen is not None
            (w, h), lattice, left, turned = chosen
            top = out.below(kind, marks, gap) if row == 0 else out.y
            xs = lattice.xs(row)
            n = min(len(xs), len(queue))
            bottom = top + max(lattice.centre(row, c) for c in range(n)) + lattice.half
            if bottom > limit:  # the page is full this way: another band, turned, may fit
                out.end_band()
                row = 0
                continue
            placed: list[Placed] = []
            for col in range(n):
                deck_id, card_id, front, back = queue.pop(0)
                cx, cy = left + xs[col], top + lattice.centre(row, col)
                placed.append((deck_id, card_id, front, back, cx - w / 2, H - (cy + h / 2)))
            out.place(kind, placed, w, h, left, top, len(lattice.even), row == 0, turned, size,
                      gap)
            out.y, out.bottom = top + lattice.pitch, bottom
            row += 1
        out.end_band()
    out.close()
    return out.fronts, out.backs, out.plans, {d: tuple(dict.fromkeys(p))
                                              for d, p in out.pages_of.items()}


@dataclass
class _Band:
    """The band of cards open on a page: its cards' size, its left and top, its columns,
    and how many cards it has so far."""

    w: float
    h: float
    left: float
    top: float
    columns: int
    cards: int = 0


class _Pages:
    """The pages filled so far, and the one being filled: its placements, its cut lines,
    the band of cards whose crop marks are not drawn yet, how far down it is used."""

    def __init__(self, sheet: SheetPreset, offset: tuple[float, float]):
        self.sheet, self.offset = sheet, offset
        self.fronts: list[Page] = []
        self.backs: list[Page] = []
        self.plans: list[str] = []
        self.pages_of: dict[str, list[int]] = {}  # deck id -> its pages, a page per piece
        self._reset()

    def _reset(self) -> None:
        self.items: list[tuple[Placement, Placement]] = []  # front and back of each piece
        self.cuts: list[Item] = []
        self.back_cuts: list[Item] = []
        self.marks: list[Item] = []
        self.counts: dict[tuple[str, str], int] = {}  # (kind, size) -> pieces
        self.band: _Band | None = None
        self.previous: str | None = None  # the kind of piece placed last
        self.y = 0.0  # the top of the next row of the band being placed
        self.bottom: float | None = None  # how far down the page is used (None: not at all)

    def empty(self) -> bool:
        return not self.items

    def below(self, kind: str, marks: float, gap: tuple[float, float]) -> float:
        """The top of a new band: under what is on the page, with room between (for the
        marks of a band of cards, or a gap between tokens: the new band's deck's, at least
        TOKEN_GAP)."""
        if self.bottom is None:
            return _edge(self.sheet, kind, marks, gap)
        cards = "card" in (self.previous, kind) or "square" in (self.previous, kind)
        return self.bottom + (2 * marks + mm(1) if cards else max(TOKEN_GAP, gap[1]))

    def place(self, kind: str, placed: list[Placed], w: float, h: float, left: float,
              top: float, columns: int, first: bool, turned: bool = False,
              size: tuple[float, float] | None = None,
              gap: tuple[float, float] = (0.0, 0.0)) -> None:
        """Pieces placed in slots of w x h (their faces a quarter turned when `turned`:
        counter-clockwise, and the backs so that both sides share the card's up after the
        sheet is turned over, as pages.turn does); `size`, the pieces' own; `gap`, their
        deck's (round tokens print half of it around them)."""
        s = self.sheet
        turns = (90, -90 if s.duplex == "long-edge" else 90) if turned else (0, 0)
        W, H = s.paper
        grow = min(max(TOKEN_GAP, gap[0]) / 2, min(p[2].bleed for p in placed)) \
            if kind == "circle" else 0.0
        for deck_id, card_id, front, back, px, py in placed:
            bx, by = (W - px - w, py) if s.duplex != "short-edge" else (px, H - py - h)
            bx, by = bx + self.offset[0], by - self.offset[1]
            if kind in NESTED:
                front, back = _clip(front, kind, grow), _clip(back, kind, grow)
            if kind in NESTED or kind == "square":
                self.cuts.append(token_outline(kind, px, py, w, h))
                self.back_cuts.append(token_outline(kind, bx, by, w, h))
            pad = (grow,) * 4
            self.items.append((Placement(front, px, py, card_id, turns[0], pad),
                               Placement(back, bx, by, card_id, turns[1], pad)))
            self.pages_of.setdefault(deck_id, []).append(len(self.fronts))
        what = (kind, show_size(size or (w, h), s.unit))
        self.counts[what] = self.counts.get(what, 0) + len(placed)
        if kind == "card":
            if first or self.band is None:
                self.end_band()
                self.band = _Band(w, h, left, top, columns)
            self.band.cards += len(placed)
        self.previous = kind

    def end_band(self) -> None:
        """The crop marks of the band of cards just placed: around its rows on this page,
        outside the cards, at every card edge (rows of one band abut: they share cuts)."""
        if self.band is None:
            return
        band, n = self.band, self.band.cards
        rows = -(-n // band.columns)
        grid = replace(self.sheet, card=(band.w, band.h), columns=band.columns, rows=rows,
                       margin_left=band.left, margin_top=band.top)
        self.marks += crop_marks(grid, frozenset(range(n)) if n < band.columns * rows else None)
        self.band = None

    def close(self) -> None:
        self.end_band()
        if self.items:
            W, H = self.sheet.paper
            self.fronts.append(Page(W, H, tuple(f for f, _ in self.items),
                                    tuple(self.marks) + tuple(self.cuts)))
            self.backs.append(Page(W, H, tuple(b for _, b in self.items), tuple(self.back_cuts)))
            self.plans.append(Listed((pieces(kind, n, size)
                                      for (kind, size), n in self.counts.items()), None))
        self._reset()
