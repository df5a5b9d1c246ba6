"""Print-and-play pages (`cardgen pnp`): the sheets of a game for any home printer.

- duplex: each sheet's front page then its back page, as the build imposes them, each
  page saying which side it is and how the sheet turns over;
- gutterfold: one page per sheet, fronts on its left half and their backs on the right
  half, mirrored about the fold line down the middle: folded along it and glued, every
  back lies exactly behind its front, whatever the printer (no duplex registration), and
  the crop marks of both halves meet.

Pure geometry, as the rest of impose: pages of placements and marks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..layout import GameFaces
from ..layout.pieces import TOKEN_SHAPES, token_outline
from ..model import SheetPreset
from ..primitives import Item, Line, Text
from ..units import mm
from ..i18n import _, shown
from . import Imposition, Page, Placement, _bleed, _mirror_bleed, crop_marks, turn

LAYOUTS = ("duplex", "gutterfold")
PAPERS = {"A4": "plain-a4", "Letter": "plain-letter"}  # a kit's paper -> its plain preset
FOLD = (0.55, 0.55, 0.55)
FOLD_DASH = (4.0, 3.0)
NOTE = (0.35, 0.35, 0.35)
NOTE_SIZE = 6.5
NOTE_BAND = NOTE_SIZE * 1.25 + mm(0.8)  # a note's line and the room around it
FOLD_ROOM = mm(2)  # from the fold to the cards on either side: their bleed meets at it


@dataclass(frozen=True)
class KitPages:
    """A game's card pages for print-and-play, and the decks whose pieces half a page
    cannot hold (a gutter fold's: said by the caller)."""

    pages: tuple[Page, ...]
    too_big: tuple[str, ...] = ()


def _noted(page: Page, text: str, font: str, unprintable: float) -> Page:
    """The page with a note in the first free band around what it prints (below it, above
    it, or up its left margin, turned), outside what the printer cannot print and clear of
    every mark; without the note where no band holds it (the cover says it all too)."""
    boxes = [b for b in (i.bounds(None) for i in page.marks if not isinstance(i, Text)) if b]
    for p in page.placements:
        w, h = (p.face.height, p.face.width) if p.rotate else (p.face.width, p.face.height)
        boxes.append((p.x - p.bleed[0], p.y - p.bleed[1], p.x + w + p.bleed[2],
                      p.y + h + p.bleed[3]))
    if not boxes:
        return page
    low, high = min(b[1] for b in boxes), max(b[3] for b in boxes)
    left = min(b[0] for b in boxes)
    need, gap = NOTE_SIZE * 1.25, mm(0.8)  # (NOTE_BAND)
    W, H = page.width, page.height
    if low - unprintable >= need + gap:
        note = Text(W / 2, unprintable + gap, text, font, NOTE_SIZE, NOTE, anchor="middle")
    elif H - unprintable - high >= need + gap:
        note = Text(W / 2, H - unprintable - need, text, font, NOTE_SIZE, NOTE, anchor="middle")
    elif left - unprintable >= need + gap:  # up the left margin, read from below
        note = Text(unprintable + need, H / 2, text, font, NOTE_SIZE, NOTE, anchor="middle",
                    rotate=90)
    else:
        return page
    return replace(page, marks=page.marks + (note,))


def duplex_words(duplex: str) -> str:
    """How a duplex sheet is turned, in the words a printer's settings use: "long-edge"
    ("長辺とじ")."""
    return _("long-edge") if duplex == "long-edge" else _("short-edge")


def flip_edge(duplex: str) -> str:
    """The edge a duplex sheet flips on, in words: "long" or "short"."""
    return _("long") if duplex == "long-edge" else _("short")


def duplex(imposition: Imposition, font: str) -> KitPages:
    """Front page, back page, sheet after sheet, each saying what it is and, on the back,
    how the sheet is turned (the edge it flips on)."""
    pages = []
    count = len(imposition.fronts)
    for n, (front, back) in enumerate(zip(imposition.fronts, imposition.backs)):
        sheet = imposition.sheets[n]
        edge = flip_edge(sheet.duplex)
        pages.append(_noted(front, shown(_("sheet {n} of {count}, front: print double-sided, "
                                           "flipped on the {edge} edge", n=n + 1, count=count,
                                           edge=edge)), font, sheet.unprintable))
        pages.append(_noted(back, shown(_("sheet {n} of {count}, back (the {edge} edge flipped)",
                                          n=n + 1, count=count, edge=edge)),
                            font, sheet.unprintable))
    return KitPages(tuple(pages))


def _half(sheet: SheetPreset, paper: tuple[float, float], card: tuple[float, float]):
    """The grid of one half of a gutter-fold page of `paper`: a sheet preset whose paper is
    the whole page and whose grid lies in the left half, FOLD_ROOM from the fold, centred up
    and down; None when not one card fits. No crop marks lie beside the fold (_fold_page):
    the halves are cut together, along the marks of their outer sides."""
    W, H = paper
    marks = sum(sheet.crop_marks) if sheet.crop_marks else 0.0
    edge = sheet.unprintable + marks
    gutter = 2 * FOLD_ROOM
    w, h = card
    gx, gy = sheet.gap
    cols = int((W / 2 - gutter / 2 - edge + gx + 1e-6) // (w + gx))
    rows = int((H - 2 * edge + gy + 1e-6) // (h + gy))
    if cols < 1 or rows < 1:
        return None
    used_w, used_h = cols * w + (cols - 1) * gx, rows * h + (rows - 1) * gy
    return replace(sheet, paper=paper, card=card, columns=cols, rows=rows,
                   margin_left=W / 2 - gutter / 2 - used_w, margin_top=(H - used_h) / 2)


def gutterfold(game_faces: GameFaces, sheets: dict, font: str) -> KitPages:
    """Each deck's cards (decks of one size and shape together) on gutter-fold pages.
    `sheets`: deck id -> the plain sheet preset of the kit's paper fitted to its cards (its
    unprintable margin, marks and gap)."""
    pages: list[Page] = []
    too_big: list[str] = []
    runs: list[list] = []
    for deck_faces in (d for d in game_faces.decks if d.deck.total > 0):
        deck = deck_faces.deck
        if runs and (runs[-1][0].deck.piece_size, runs[-1][0].deck.shape) == \
                (deck.piece_size, deck.shape) and not deck.own_sheet and \
                not runs[-1][0].deck.own_sheet:
            runs[-1].append(deck_faces)
        else:
            runs.append([deck_faces])
    for run in runs:
        first = run[0].deck
        sheet = sheets[first.id]
        W, H = sheet.paper
        # the page either way round, the cards upright or turned a quarter: whichever holds
        # more cards in a half (upright where as many)
        w, h = first.piece_size
        halves = [(p, _half(sheet, p, c)) for c in ((w, h), (h, w)) for p in ((W, H), (H, W))]
        halves = [(p, s) for p, s in halves if s is not None]
        if not halves:
            too_big += [d.deck.id for d in run]  # (said by the caller, at each deck)
            continue
        paper, half = max(halves, key=lambda ps: ps[1].per_sheet)
        entries = [(d.deck.id, c.id, d.fronts[c.id], d.backs[c.id]) for d in run
                   for c in d.deck.instances()]
        for start in range(0, len(entries), half.per_sheet):
            chunk = entries[start:start + half.per_sheet]
            pages.append(_fold_page(half, chunk, first.shape, font, len(pages)))
    return KitPages(tuple(pages), tuple(too_big))


def _fold_page(half: SheetPreset, chunk: list, shape: str, font: str, number: int) -> Page:
    from . import slot_position
    W, H = half.paper
    placements: list[Placement] = []
    cuts: list[Item] = []
    used = frozenset(range(len(chunk)))
    mirror = replace(half, duplex="long-edge")  # the right half: the left mirrored
    for index, (_deck, card_id, front, back) in enumerate(chunk):
        x, y = slot_position(half, index)
        w, h = half.card
        bleed = _bleed(half, index, front)
        turns = turn(mirror, back)  # (a turned back, so that both share the card's up)
        placements.append(Placement(front, x, y, card_id, turns[0], bleed))
        placements.append(Placement(back, W - x - w, y, card_id, turns[1],
                                    _mirror_bleed(mirror, _bleed(half, index, back))))
        if shape in TOKEN_SHAPES:
            cuts += [token_outline(shape, x, y, w, h), token_outline(shape, W - x - w, y, w, h)]
    marks: list[Item] = []
    if shape not in ("circle", "hex"):
        inner = half.margin_left + half.columns * half.card[0] + \
            (half.columns - 1) * half.gap[0] + mm(0.01)  # the grid's side at the fold
        left = [m for m in crop_marks(half, used if len(chunk) < half.per_sheet else None)
                if not (isinstance(m, Line) and min(m.x1, m.x2) > inner)]
        marks += left + [replace(m, x1=W - m.x1, x2=W - m.x2) for m in left]
    low = half.unprintable + mm(1)
    marks.append(Line(W / 2, low + mm(4), W / 2, H - low, FOLD, 0.4, FOLD_DASH))  # (and
    # below its foot, the note)
    page = Page(W, H, tuple(placements), tuple(cuts) + tuple(marks))
    return _noted(page, shown(_("page {n}: fold along the dashed line, fronts out, glue, then "
                                "cut along the marks through both layers", n=number + 1)),
                  font, half.unprintable)
