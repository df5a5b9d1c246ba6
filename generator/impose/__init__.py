"""Stage 5, impose: place card faces on sheets, fronts and their duplex backs.

Pure geometry, no drawing. Slots are filled row by row from the top-left.

Backs: back page k carries the backs of front page k, each drawn where its front
lands after the sheet is turned over: long-edge duplex mirrors the page left to
right, short-edge duplex top to bottom (asymmetric margins mirror with it). A
printer offset profile shifts every back page by the correction measured with
the calibration sheet.

Back designs: a deck whose backs are `grouped` (the default) puts cards with the
same back on sheets of their own, in order of first appearance, and fills a
short last sheet with blank filler slots (front empty, back printed). Every back
page of a group is then the same page, so the group's backs can be printed from
one single-page file, as many times as the group has sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

import contextlib
import math

from ..layout import DeckFaces, GameFaces
from ..boards.base import split_pages, split_paper, whole_paper
from ..layout.board import BoardFace
from ..layout.pieces import TOKEN_SHAPES, token_outline
from ..primitives import Face, Item, Line, Text, leaves
from ..model import SheetPreset
from ..units import mm, paper_size, to_mm
from ..i18n import _, printing, shown
from . import packing
from .pages import BackGroup, Imposition, Page, Placement, crop_marks

def slot_position(sheet: SheetPreset, index: int) -> tuple[float, float]:
    """Bottom-left corner of slot `index` (row-major from the top-left) on a front page."""
    row, col = divmod(index, sheet.columns)
    w, h = sheet.card
    x = sheet.margin_left + col * (w + sheet.gap[0])
    y_top = sheet.margin_top + row * (h + sheet.gap[1])
    return x, sheet.paper[1] - y_top - h


def back_position(sheet: SheetPreset, x: float, y: float,
                  offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Where the back of a card placed at (x, y) on the front must be drawn; `offset` is the
    printer's correction (x to the right, y down, as the back page is seen)."""
    w, h = sheet.card
    if sheet.duplex == "short-edge":
        bx, by = x, sheet.paper[1] - y - h
    else:
        bx, by = sheet.paper[0] - x - w, y
    return bx + offset[0], by - offset[1]


def backs_off_paper(sheet: SheetPreset, offset: tuple[float, float]) -> float:
    """How far (points) a printer's offset moves the backs of the sheet's cards past the
    paper's edge, at most; 0 when every back stays on the paper."""
    w, h = sheet.card
    most = 0.0
    for index in range(sheet.per_sheet):
        bx, by = back_position(sheet, *slot_position(sheet, index), offset)
        most = max(most, -bx, -by, bx + w - sheet.paper[0], by + h - sheet.paper[1])
    return most


def turn(sheet: SheetPreset, face: Face) -> tuple[int, int]:
    """(front, back) rotation for a face in this sheet's slots.

    A face whose width is the slot's height is turned 90 degrees counter-clockwise.
    Its back is turned so that both sides share the card's "up" after the flip:
    over the long edge (left and right swap) the back turns the other way."""
    if abs(face.width - sheet.card[0]) < 0.1 and abs(face.height - sheet.card[1]) < 0.1:
        return 0, 0
    return 90, (-90 if sheet.duplex == "long-edge" else 90)


def _bleed(sheet: SheetPreset, index: int, face: Face) -> tuple[float, float, float, float]:
    """How far a face's bleed may print past its slot: into half of each gap, and at the
    grid's outer edges up to the crop marks (or the paper's edge)."""
    if not sheet.bleed or not face.bleed:
        return (0.0, 0.0, 0.0, 0.0)
    row, col = divmod(index, sheet.columns)
    right_margin = sheet.paper[0] - sheet.margin_left - sheet.columns * sheet.card[0] \
        - (sheet.columns - 1) * sheet.gap[0]
    bottom_margin = sheet.paper[1] - sheet.margin_top - sheet.rows * sheet.card[1] \
        - (sheet.rows - 1) * sheet.gap[1]
    outer_limit = sheet.crop_marks[1] if sheet.crop_marks else float("inf")

    def side(first: bool, margin: float, gap: float) -> float:  # (never where nothing prints)
        room = min(margin - sheet.unprintable, outer_limit) if first else gap / 2
        return max(0.0, min(face.bleed, room))

    return (side(col == 0, sheet.margin_left, sheet.gap[0]),
            side(row == sheet.rows - 1, bottom_margin, sheet.gap[1]),
            side(col == sheet.columns - 1, right_margin, sheet.gap[0]),
            side(row == 0, sheet.margin_top, sheet.gap[1]))


def _mirror_bleed(sheet: SheetPreset, bleed: tuple) -> tuple:
    left, bottom, right, top = bleed
    return (left, top, right, bottom) if sheet.duplex == "short-edge" \
        else (right, bottom, left, top)


TOMBO_LENGTH = mm(10)  # each trim mark line, from the bleed edge outwards
TOMBO_ROOM = mm(13)  # paper around the bleed box: the marks and a little more
TOMBO_WIDTH = mm(0.1)  # hairlines, as Japanese shops draw them
REGISTRATION = (1.0, 1.0, 1.0, 1.0)  # on every plate, so every plate can be trimmed


def tombo(x: float, y: float, w: float, h: float, bleed: float,
          color=REGISTRATION) -> tuple[Item, ...]:
    """Japanese trim marks (トンボ) around a trim box at (x, y) of w x h: at each corner
    a double mark, one line on the trim line (内トンボ) and one on the bleed line
    (外トンボ) each way, and a centre mark (センタートンボ, a cross) on each side. Every
    line lies outside the bleed box, so none prints on the card."""
    b, L = bleed, TOMBO_LENGTH
    marks: list[Item] = []

    def line(x1, y1, x2, y2):
        marks.append(Line(x1, y1, x2, y2, color, TOMBO_WIDTH))
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            for d in (0.0, b):  # the trim line, then the bleed line
                line(cx + sx * d, cy + sy * b, cx + sx * d, cy + sy * (b + L))  # up or down
                line(cx + sx * b, cy + sy * d, cx + sx * (b + L), cy + sy * d)  # across
    mx, my, arm = x + w / 2, y + h / 2, L / 2
    for sy, edge in ((-1, y), (1, y + h)):  # bottom and top centre marks
        line(mx, edge + sy * b, mx, edge + sy * (b + L))
        line(mx - arm, edge + sy * (b + L * 0.6), mx + arm, edge + sy * (b + L * 0.6))
    for sx, edge in ((-1, x), (1, x + w)):  # left and right
        line(edge + sx * b, my, edge + sx * (b + L), my)
        line(edge + sx * (b + L * 0.6), my - arm, edge + sx * (b + L * 0.6), my + arm)
    return tuple(marks)


def single_face(face: Face, bleed: float, marks: bool = False, color=REGISTRATION,
                label: str = "") -> tuple[Page, tuple, tuple]:
    """One face on a page of its own for a print shop: the trim box with `bleed` on every
    side, and trim marks around it when `marks`. Returns (page, trim box, bleed box), the
    boxes as (x0, y0, x1, y1) in points."""
    room = bleed + (TOMBO_ROOM if marks else 0.0)
    W, H = face.width, face.height
    page = Page(W + 2 * room, H + 2 * room,
                (Placement(face, room, room, label, 0, (bleed,) * 4),),
                tombo(room, room, W, H, bleed, color) if marks else ())
    trim = (room, room, room + W, room + H)
    return page, trim, (room - bleed, room - bleed, room + W + bleed, room + H + bleed)


def _sheets_of(cards: list, per_sheet: int, start_slot: int) -> list[list]:
    """Cards split into sheets of slots (None: a slot left empty at the start)."""
    slots = [None] * start_slot + list(cards)
    return [slots[i:i + per_sheet] for i in range(0, len(slots), per_sheet)]


@dataclass(frozen=True)
class _Entry:
    """A card to place: its id, and the faces of its front and back."""

    id: str
    front: Face
    back: Face


def _sheets(sheet: SheetPreset, shape: str, entries: list, start_slot: int, offset,
            group_back: Face | None, filler_back: Face) -> tuple[list[Page], list[Page], int]:
    """Front and back pages of entries (_Entry, or "filler") filling sheets row by row; a
    group's sheets are filled to the end (every back page of a group is the same page)."""
    marked = shape not in ("circle", "hex")  # a round or hex token has its cut line
    whole = crop_marks(sheet) if marked else ()
    outline = shape in TOKEN_SHAPES  # a cut line of the token's shape around each one
    fronts, backs, fillers = [], [], 0
    for slots in _sheets_of(entries, sheet.per_sheet, start_slot):
        front, back = [], []
        if group_back is not None:
            slots = slots + ["filler"] * (sheet.per_sheet - len(slots))
        fillers += sum(1 for entry in slots if entry == "filler")
        for index, entry in enumerate(slots):
            if entry is None:
                continue  # a slot already used on a partly used sheet
            x, y = slot_position(sheet, index)
            bx, by = back_position(sheet, x, y, offset)
            back_face = (group_back or filler_back) if entry == "filler" else entry.back
            front_turn, back_turn = turn(sheet, back_face)
            if entry != "filler":
                front.append(Placement(entry.front, x, y, entry.id, front_turn,
                                       _bleed(sheet, index, entry.front)))
            back.append(Placement(back_face, bx, by, entry.id if entry != "filler" else "",
                                  back_turn, _mirror_bleed(sheet, _bleed(sheet, index, back_face))))
        cuts_front = tuple(token_outline(shape, p.x, p.y, *sheet.card) for p in front) \
            if outline else ()
        cuts_back = tuple(token_outline(shape, p.x, p.y, *sheet.card) for p in back) \
            if outline else ()
        # Marks where cards are: a slot printed front or back (a filler is cut too).
        used = frozenset(i for i, entry in enumerate(slots) if entry is not None)
        marks = () if not marked else whole if len(used) == sheet.per_sheet else \
            crop_marks(sheet, used)
        fronts.append(Page(*sheet.paper, tuple(front), marks + cuts_front))
        backs.append(Page(*sheet.paper, tuple(back), cuts_back))
    return fronts, backs, fillers


def _entries(faces: DeckFaces, cards) -> list:
    return [_Entry(c.id, faces.fronts[c.id], faces.backs[c.id]) for c in cards]


def impose_deck(faces: DeckFaces, start_slot: int = 0, offset=(0.0, 0.0),
                grouped: bool = True) -> tuple[list[Page], list[Page], list[BackGroup], int]:
    deck = faces.deck
    sheet = deck.sheet
    instances = list(deck.instances())
    if not instances:
        return [], [], [], 0  # nothing to print (a draft deck: impose_game leaves it out)
    undefined = max(0, (deck.slots or 0) - len(instances))  # slots of the shape not designed yet
    runs: list[tuple[Face | None, list]]  # (the back a group shares, or None; its cards)
    if grouped:
        order: dict[Face, list] = {}
        for card in instances:
            order.setdefault(faces.backs[card.id], []).append(card)
        runs = list(order.items())
        if len(runs) > 1 and start_slot + len(instances) + undefined <= sheet.per_sheet:
            # A deck that fits on one sheet is one group whatever its backs (a ROTATION card
            # and the blank cards beside it): its one back page, as laid out, printed once.
            runs = [(runs[0][0], instances)]
    else:
        runs = [(None, instances)]
    fronts: list[Page] = []
    backs: list[Page] = []
    groups: list[BackGroup] = []
    fillers = 0
    filler_back = faces.backs[instances[0].id]
    for k, (group_back, cards) in enumerate(runs):
        first_sheet = len(fronts)
        entries = _entries(faces, cards)
        if k == len(runs) - 1 and undefined:
            entries += ["filler"] * undefined  # the deck's shape: blank slots, backs printed
        f, b, filled = _sheets(sheet, deck.shape, entries, start_slot if k == 0 else 0,
                               offset, group_back, filler_back)
        fronts += f
        backs += b
        fillers += filled
        if group_back is not None:
            name = deck.id if len(runs) == 1 else f"{deck.id}-{k + 1}"
            groups.append(BackGroup(name, deck.id, tuple(range(first_sheet, len(fronts))),
                                    backs[-1], sum(1 for c in cards if c != "filler")))
    return fronts, backs, groups, fillers


def _alike(a, b) -> bool:
    """Two decks that may share sheets: printed on the same sheet with pieces of the same
    kind, or on plain paper that takes any (packing.mixed); neither a standee nor keeping
    sheets of its own (own_sheet:, or a declared shape of slots)."""
    return (a.sheet == b.sheet and a.shape == b.shape or packing.mixed(a.sheet, b.sheet)) \
        and "standee" not in (a.shape, b.shape) and \
        not (a.own_sheet or b.own_sheet or a.slots or b.slots)


def _packs(run: list) -> bool:
    """A run that is packed (packing.py) rather than laid in one grid: decks of several
    sizes or shapes, or tokens that nest (hexes, circles) on paper that takes them."""
    first = run[0].deck
    return first.sheet.mixed and (first.shape in packing.NESTED or any(
        d.deck.sheet != first.sheet or d.deck.shape != first.shape for d in run[1:]))


def impose_packed(run: list, offset: tuple[float, float], reserve: float = 0.0
                  ) -> tuple[list[Page], list[Page], list[str], list[tuple[str, tuple[int, ...]]]]:
    """A run packed on its first deck's paper, each deck's pieces its own sheet's gap apart:
    (fronts, backs, plans, deck pages)."""
    runs = [(d.deck.id, d.deck.shape, [(c.id, d.fronts[c.id], d.backs[c.id])
                                      for c in d.deck.instances()], d.deck.sheet.gap)
            for d in run]
    fronts, backs, plans, pages = packing.pack(runs, run[0].deck.sheet, offset, reserve)
    return fronts, backs, plans, list(pages.items())


def sharing(decks) -> list[list]:
    """The decks (DeckFaces) in order, those next to each other that may share sheets
    together: a run of one deck is imposed on its own."""
    runs: list[list] = []
    for deck_faces in decks:
        if runs and _alike(runs[-1][-1].deck, deck_faces.deck):
            runs[-1].append(deck_faces)
        else:
            runs.append([deck_faces])
    return runs


def impose_shared(run: list, start_slot: int, offset) -> tuple[list[Page], list[Page], int,
                                                               list[tuple[str, tuple[int, ...]]]]:
    """Decks that share sheets: each deck's cards after the last's, each back behind its
    front (the back pages are the sheets' own, not one page per back design), and the pages
    each deck's cards are on."""
    entries, owner = [], []
    for deck_faces in run:
        cards = list(deck_faces.deck.instances())
        entries += _entries(deck_faces, cards)
        owner += [deck_faces.deck.id] * len(cards)
    sheet, shape = run[0].deck.sheet, run[0].deck.shape
    fronts, backs, fillers = _sheets(sheet, shape, entries, start_slot, offset, None,
                                     entries[0].back)
    pages: dict[str, list[int]] = {}
    for n, deck_id in enumerate(owner):
        page = (n + start_slot) // sheet.per_sheet
        if page not in pages.setdefault(deck_id, []):
            pages[deck_id].append(page)
    return fronts, backs, fillers, [(d, tuple(p)) for d, p in pages.items()]


def impose_game(game_faces: GameFaces, start_slot: int = 0,
                offset: tuple[float, float] = (0.0, 0.0), reserve: float = 0.0) -> Imposition:
    """Every deck in order: decks printed alike share sheets (sharing()) where that takes
    fewer sheets, the others each start a fresh sheet; `start_slot` skips the first slots
    of the first sheet (a partly used sheet); `offset` corrects the back pages; `reserve`
    is kept free at the foot of a packed page (a print-and-play kit's note: a grid keeps
    its own margins)."""
    fronts: list[Page] = []
    backs: list[Page] = []
    groups: list[BackGroup] = []
    sheets: list[SheetPreset] = []
    decks: list[tuple[str, tuple[int, ...]]] = []
    plans: list[str] = []
    fillers = 0
    printed = [d for d in game_faces.decks if d.deck.total > 0]  # empty decks are drafts
    for n, run in enumerate(sharing(printed)):
        first = start_slot if n == 0 else 0
        alone = []  # each deck on sheets of its own: (fronts, backs, groups, fillers)
        shared: tuple[list[Page], list[Page], int, list[tuple[str, tuple[int, ...]]]] | None
        for k, deck_faces in enumerate(run):
            alone.append(impose_deck(deck_faces, first if k == 0 else 0, offset,
                                     deck_faces.deck.backs == "grouped"))
        if _packs(run):
            f, b, made, pages = impose_packed(run, offset, reserve)
            shared = (f, b, 0, pages)
        else:
            made = []
            shared = impose_shared(run, first, offset) if len(run) > 1 else None
        if shared is not None and len(shared[0]) < sum(len(a[0]) for a in alone):
            f, b, filled, pages = shared  # fewer sheets: they share (each back behind its card)
            decks += [(d, tuple(p + len(fronts) for p in numbers)) for d, numbers in pages]
            plans += list(made) or [""] * len(f)
            fronts.extend(f)
            backs.extend(b)
            sheets.extend([run[0].deck.sheet] * len(f))
            fillers += filled
            continue
        for deck_faces, (f, b, g, filled) in zip(run, alone):  # (sharing would save nothing:
            shift = len(fronts)  # each keeps its sheets, and a grouped deck its back files)
            groups.extend(BackGroup(x.name, x.deck, tuple(s + shift for s in x.sheets), x.back,
                                    x.cards) for x in g)
            decks.append((deck_faces.deck.id, tuple(range(shift, shift + len(f)))))
            fronts.extend(f)
            backs.extend(b)
            sheets.extend([deck_faces.deck.sheet] * len(f))
            plans += [""] * len(f)
            fillers += filled
    return Imposition(tuple(fronts), tuple(backs), tuple(groups), fillers, tuple(sheets),
                      tuple(decks), tuple(plans))


CROSS_ARM = mm(4)


def _clear_spot(board_face: BoardFace, spot: tuple[float, float], vertical: bool,
                span: tuple[float, float], texts: list) -> tuple[float, float]:
    """The point nearest `spot` along its seam (board coordinates, y down) where an
    alignment cross covers no tile; `spot` itself when there is none."""
    along = spot[1] if vertical else spot[0]
    step = mm(2)
    for k in range(int((span[1] - span[0]) / step) + 1):
        for d in ((k * step,) if k == 0 else (k * step, -k * step)):
            a = along + d
            if not span[0] + CROSS_ARM <= a <= span[1] - CROSS_ARM:
                continue
            point = (spot[0], a) if vertical else (a, spot[1])
            if _clear(board_face, point, texts):
                return point
    return spot


def _clear(board_face: BoardFace, point: tuple[float, float], texts: list) -> bool:
    """True if a cross at `point` (board coordinates, y down) covers no tile and none of
    the `texts` (the boxes of the board's title and numbers, y up: _text_boxes)."""
    clearance = board_face.reach + CROSS_ARM + mm(1)
    height = board_face.face.height
    px, py = point[0], height - point[1]  # y up, as the face's items
    arm = CROSS_ARM + mm(1)
    return all(math.hypot(point[0] - x, point[1] - (height - y)) > clearance
               for x, y in board_face.centres) and \
        not any(x0 - arm <= px <= x1 + arm and y0 - arm <= py <= y1 + arm
                for x0, y0, x1, y1 in texts)


def _text_boxes(face: Face) -> list:
    """The boxes of a face's texts (y up)."""
    from .. import fonts  # (the measure of text: a library, as drawing's)
    boxes = [item.bounds(fonts) for item in leaves(face.items) if isinstance(item, Text)]
    return [b for b in boxes if b is not None]


LABEL_SIZE = 5.0  # a board page's label, in points
LABEL_BAND = mm(2.5)  # a line of its label with room either side (no more: a board's pages
# on a kit's paper are as many as with the 6 mm print margin)


def impose_board(board_face: BoardFace, label_font: str, clear: float | None = None,
                 lang: str | None = None) -> tuple[Page, ...]:
    """The board on the first paper that holds it whole (either way round), centred; or,
    when none does, split over pages of the last paper, each sharing `overlap` with its
    neighbours, with alignment crosses on the shared strips and a label per page. `clear`:
    the margin a print-and-play kit keeps clear at the paper's edge (its printers cannot
    print there): the label lies beyond it (the board's print margin leaves LABEL_BAND for
    it: pnp.py); None, a build's pages, labelled in the middle of the print margin. The
    labels are in `lang`, the game's language (None: the words being printed already)."""
    board, face = board_face.board, board_face.face
    m = board.print_margin
    whole = whole_paper(board, face.width, face.height)
    if whole is not None:
        w, h = whole
        x, y = (w - face.width) / 2, (h - face.height) / 2
        return (Page(w, h, (Placement(face, x, y, board.id),)),)
    # Split on its last paper (split_paper), turned whichever way needs fewer pages (portrait
    # on a tie), the pages sharing the board evenly (split_pages): no page carries a sliver.
    (w, h), cols, rows, split = split_pages(board, face.width, face.height,
                                            paper_size(split_paper(board)))
    pw, ph = w - 2 * m, h - 2 * m  # the printable area of one page
    texts = _text_boxes(face)
    lefts = sorted({x0 for _r, _c, x0, _y, _w, _h in split})
    tops = sorted({y0 for _r, _c, _x, y0, _w, _h in split})
    # each seam: the middle of what two neighbouring pages share
    seams_x = [(a + b + pw) / 2 for a, b in zip(lefts, lefts[1:])]
    seams_y = [(a + b + ph) / 2 for a, b in zip(tops, tops[1:])]  # from the top
    shared = min([pw - (b - a) for a, b in zip(lefts, lefts[1:])] +
                 [ph - (b - a) for a, b in zip(tops, tops[1:])] or [board.overlap])
    pages = []
    for r, c, x0, y0, _w, _h in split:  # x0, y0: the page's top-left on the board, y down
        px, py = m - x0, m - (face.height - y0 - ph)  # where the board's origin goes
        marks: list[Item] = []
        placed: list[tuple[float, float]] = []
        for sx in seams_x + [None]:
            for sy in seams_y + [None]:
                if sx is None and sy is None:
                    continue
                points = ([(sx, sy)] if sx is not None and sy is not None else
                          [_clear_spot(board_face, (sx, y0 + f * ph), vertical=True,
                                       span=(y0, y0 + ph), texts=texts) for f in (0.25, 0.75)]
                          if sx is not None else
                          [_clear_spot(board_face, (x0 + f * pw, sy), vertical=False,
                                       span=(x0, x0 + pw), texts=texts) for f in (0.25, 0.75)])
                for bx, by in points:
                    if any(math.hypot(bx - px_, by - py_) < 3 * CROSS_ARM for px_, py_ in placed):
                        continue  # two spots moved to the same clear place: one cross
                    if sx is not None and sy is not None and \
                            not _clear(board_face, (bx, by), texts):
                        continue  # where the seams cross lies a tile: the other crosses do
                    placed.append((bx, by))
                    if x0 <= bx <= x0 + pw and y0 <= by <= y0 + ph:
                        qx, qy = m + bx - x0, h - m - (by - y0)
                        arm = CROSS_ARM
                        marks += [Line(qx - arm, qy, qx + arm, qy, (0, 0, 0), 0.3),
                                  Line(qx, qy - arm, qx, qy + arm, (0, 0, 0), 0.3)]
        with printing(lang) if lang else contextlib.nullcontext():
            label = shown(_("board '{board}' page {n} of {count} (row {row}, column {column}):"
                            " board from x {x} mm, y {y} mm (top-left); pages overlap by "
                            "{overlap} mm or more", board=board.id, n=r * cols + c + 1,
                            count=rows * cols, row=r + 1, column=c + 1, x=f"{to_mm(x0):.1f}",
                            y=f"{to_mm(y0):.1f}", overlap=f"{to_mm(shared):.0f}"))
        if clear is None:
            marks.append(Text(m, m / 2, label, label_font, LABEL_SIZE, (0.3, 0.3, 0.3)))
        else:
            marks.append(Text(m, clear + mm(0.4) + LABEL_SIZE * 0.25, label, label_font,
                              LABEL_SIZE, (0.3, 0.3, 0.3)))
        pages.append(Page(w, h, (Placement(face, px, py, board.id, clip=(m, m, pw, ph)),),
                          tuple(marks)))
    return tuple(pages)

