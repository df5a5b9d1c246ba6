"""Previews and digital play: card PNGs, proof sheets (PNG and PDF), Tabletop Simulator decks.

All of them are rasterised from the same faces as the print PDFs (write/png.py).
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

from PIL import Image as PILImage

from ..impose import Page, Placement
from ..layout import GameFaces
from ..layout.pieces import cut_to_shape
from ..primitives import Text
from ..i18n import _, shown
from ..units import mm
from . import BytesFile
from .png import faces_to_png, rasterise

CUT_SHAPES = ("circle", "hex")
TTS_COLUMNS, TTS_ROWS = 10, 7  # Tabletop Simulator's largest deck sheet
TTS_CARD_WIDTH = 400  # pixels: ten cards stay within TTS's 4096-pixel sheet width
TTS_MAX_PIXELS = 4096  # a sheet's width and height, at most: what many systems load


def _cut(deck) -> bool:
    """Whether a deck's pieces are shown cut out (round and hex tokens), not as boxes."""
    return deck.shape in CUT_SHAPES


def card_pngs(faces: GameFaces, folder: Path, dpi: int, font: str, cache: Path,
              subfolder: str = "png", counting=lambda done, total: None) -> list[BytesFile]:
    """One PNG per distinct card face: png/<deck>/<card>-front.png and -back.png, with
    bleed; a round or hex token is cut to its shape, transparent outside its cut line.
    `counting(done, total)` hears how many faces of all the decks are drawn."""
    out: list[BytesFile] = []
    total = sum(2 * len(deck.deck.cards) for deck in faces.decks)
    before = 0
    for deck in faces.decks:
        order, faces_list, cut = [], [], _cut(deck.deck)
        for card in deck.deck.cards:
            for side, face in (("front", deck.fronts[card.id]), ("back", deck.backs[card.id])):
                order.append(folder / subfolder / deck.deck.id / f"{card.id}-{side}.png")
                faces_list.append(cut_to_shape(face, deck.deck.shape) if cut else face)
        out += [BytesFile(p, d) for p, d in zip(order, faces_to_png(
            faces_list, dpi, font, cache, transparent=cut,
            counting=lambda done, _, at=before: counting(at + done, total)))]
        before += len(faces_list)
    return out


def proof_pages(faces: GameFaces, font: str, backs: bool = False) -> list[tuple[str, list[Page]]]:
    """Per deck, every distinct card once at actual size with its id and copies under it, on
    pages of the paper the deck is printed on (A4, Letter...): (deck id, pages). With
    `backs`, each card's back beside its front (a standee prints on one side: its figure)."""
    out = []
    margin, gap, caption, pair = mm(10), mm(6), mm(6), mm(2)
    for deck in faces.decks:
        cards = list(deck.deck.cards)
        if not cards:
            continue
        sides = 2 if backs and deck.deck.shape != "standee" else 1
        W, H = deck.deck.sheet.paper
        w, h = deck.fronts[cards[0].id].width, deck.fronts[cards[0].id].height
        unit = sides * w + (sides - 1) * pair  # a card's front, and its back beside it
        if unit > W - 2 * margin and h <= W - 2 * margin and unit <= H - 2 * margin:
            W, H = H, W  # a card wider than the page, upright: the page turns (landscape)
        cols = max(1, int((W - 2 * margin + gap) // (unit + gap)))
        rows = max(1, int((H - 2 * margin + gap) // (h + caption + gap)))
        pages = []
        for start in range(0, len(cards), cols * rows):
            placements, marks = [], []
            for i, card in enumerate(cards[start:start + cols * rows]):
                r, c = divmod(i, cols)
                x = margin + c * (unit + gap)
                y = H - margin - (r + 1) * (h + caption) - r * gap + caption
                placements.append(Placement(cut_to_shape(deck.fronts[card.id], deck.deck.shape),
                                            x, y, card.id))
                marks.append(Text(x, y - caption + mm(1.8), f"{card.id} ×{card.copies}", font, 8,
                                  (0.2, 0.2, 0.2)))
                if sides == 2:
                    bx = x + w + pair
                    placements.append(Placement(cut_to_shape(deck.backs[card.id],
                                                             deck.deck.shape), bx, y, card.id))
                    marks.append(Text(bx, y - caption + mm(1.8), "back", font, 8,
                                      (0.45, 0.45, 0.45)))
            pages.append(Page(W, H, tuple(placements), tuple(marks)))
        out.append((deck.deck.id, pages))
    return out


def proof_sheets(faces: GameFaces, folder: Path, font: str, dpi: int = 100,
                 stem: str | None = None, backs: bool = False) -> list:
    """The proof pages as PNG, one per page (<game>-proof-<deck>-<n>.png), and all of them
    as one PDF contact sheet to print (<game>-proof.pdf)."""
    from . import PdfOutput
    from .pdf import PdfFile
    stem = stem or faces.game.id
    out: list = []
    every = []
    for deck_id, pages in proof_pages(faces, font, backs):
        every += pages
        for n, data in enumerate(rasterise(pages, dpi, font), 1):
            out.append(BytesFile(folder / f"{stem}-proof-{deck_id}-{n}.png", data))
    if every:
        out.append(PdfOutput(folder / f"{stem}-proof.pdf",
                             PdfFile(tuple(every), f"{faces.game.title}: proof", "proof sheets",
                                     font)))
    return out


def _sheet(pngs: list[bytes], cell: tuple[int, int], hidden: bytes | None,
           rows: int = TTS_ROWS) -> bytes:
    """Card images in a TTS grid of 10 x `rows`; the last slot holds the hidden-card image."""
    cw, ch = cell
    sheet = PILImage.new("RGB", (cw * TTS_COLUMNS, ch * rows), "white")
    for i, data in enumerate(pngs + ([hidden] if hidden else [])):
        if hidden and i == len(pngs):
            i = TTS_COLUMNS * rows - 1
        with PILImage.open(io.BytesIO(data)) as im:
            sheet.paste(im.convert("RGB").resize(cell),
                        ((i % TTS_COLUMNS) * cw, (i // TTS_COLUMNS) * ch))
    out = io.BytesIO()
    sheet.save(out, "PNG")
    return out.getvalue()


# Tabletop Simulator's card is a poker card (2.5 x 3.5 in) at scale 1: a card of another
# shape is scaled to its own width and height against it, so it keeps its proportions.
TTS_CARD = (2.5 * 72, 3.5 * 72)  # points


def _transform(x: float = 0.0, size: tuple[float, float] = TTS_CARD) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": round(size[0] / TTS_CARD[0], 4), "scaleY": 1.0,
            "scaleZ": round(size[1] / TTS_CARD[1], 4)}


# Tabletop Simulator's custom tile types: a token deck is a bag of two-sided tiles of its shape
TTS_TILES = {"square": 0, "hex": 1, "circle": 2}
TTS_TILE_WIDTH = 400  # pixels across a tile's picture


def _tts_tiles(deck, cards, tts: Path, font: str, cache: Path, n: int):
    """A token deck as TTS custom tiles of its shape (a bag of them, copies included), each
    with its front and back as pictures cut to the shape, transparent outside it."""
    first = deck.fronts[cards[0].id]
    dpi = math.ceil(TTS_TILE_WIDTH / (first.width / 72))
    shape = deck.deck.shape
    faces = [cut_to_shape(side[c.id], shape) for c in cards for side in (deck.fronts, deck.backs)]
    pictures = faces_to_png(faces, dpi, font, cache, bleed=False, transparent=shape in CUT_SHAPES)
    out, contained = [], []
    for i, card in enumerate(cards):
        names = (f"{deck.deck.id}-{card.id}-front.png", f"{deck.deck.id}-{card.id}-back.png")
        out += [BytesFile(tts / names[0], pictures[2 * i]),
                BytesFile(tts / names[1], pictures[2 * i + 1])]
        tile = {"Name": "Custom_Tile", "Nickname": str(card.fields.get("name", card.id)),
                "Description": card.id,
                "Transform": {**_transform(size=(first.width, first.width)), "rotZ": 0.0,
                              # a tile keeps its proportions by its picture: one scale
                              "scaleZ": round(first.width / TTS_CARD[0], 4)},
                "CustomImage": {"ImageURL": (tts / names[0]).resolve().as_uri(),
                                "ImageSecondaryURL": (tts / names[1]).resolve().as_uri(),
                                "CustomTile": {"Type": TTS_TILES[shape], "Thickness": 0.2,
                                               "Stackable": True, "Stretch": True}}}
        contained += [tile] * card.copies
    return out, {"Name": "Bag", "Nickname": deck.deck.name, "Transform": _transform(n * 3.0),
                 "ContainedObjects": contained}


TTS_BOARD_DPI = 150  # a board's picture, where it fits TTS_MAX_PIXELS: sharp seen up close
# How deep (along the table's z) a Custom_Board shows at Transform scale 1, in TTS's units
# (about an inch each, its knowledge base says): its width is that times its picture's
# width over its height, and both grow with the scale; the picture's pixel count does not
# count. TTS documents neither figure; this one is measured from a published mod whose
# boards match their printed sizes (docs/previews.md says so). Pieces of a board are
# scaled and placed by it, so that they meet edge to edge at the board's printed size.
TTS_BOARD_UNIT = 1.318


def board_pieces(width: int, height: int) -> list[tuple[int, int, int, int, int, int]]:
    """The pieces a board's picture of `width` x `height` pixels is cut into for TTS: as
    few as keep each within TTS_MAX_PIXELS a side, of even sizes (within a pixel of each
    other), as (row, column, left, top, right, bottom) in pixels, row by row."""
    cols = math.ceil(width / TTS_MAX_PIXELS)
    rows = math.ceil(height / TTS_MAX_PIXELS)
    xs = [round(c * width / cols) for c in range(cols + 1)]
    ys = [round(r * height / rows) for r in range(rows + 1)]
    return [(r, c, xs[c], ys[r], xs[c + 1], ys[r + 1]) for r in range(rows) for c in range(cols)]


def board_transform(left: int, top: int, right: int, bottom: int, x0: float) -> dict:
    """The Transform of a piece of a board's picture (pixels at TTS_BOARD_DPI, from the
    picture's top-left): scaled so that it shows at its printed size (TTS_BOARD_UNIT), and
    placed so that the pieces meet edge to edge, the board's left edge at `x0` and its top
    edge at z = 0 (z grows towards the far side of the table, rotY 180 turns a board's top
    away from the player)."""
    inch = TTS_BOARD_DPI  # pixels in one of TTS's units
    scale = (bottom - top) / inch / TTS_BOARD_UNIT
    return {"posX": round(x0 + (left + right) / 2 / inch, 4), "posY": 1.0,
            "posZ": round(-(top + bottom) / 2 / inch, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def _tts_boards(faces: GameFaces, tts: Path, font: str, cache: Path, n: int):
    """Each board as Tabletop Simulator custom boards: its picture at TTS_BOARD_DPI, cut into
    pieces of at most TTS_MAX_PIXELS a side where it is larger (TTS loads no larger picture
    well), each piece a Custom_Board named after the board and, when split, its place
    ("row 1, column 2 of 2 x 2"), scaled to the board's printed size and set edge to edge
    (board_transform), the boards beside the decks and each other."""
    out, states = [], []
    x0 = n * 3.0
    for board_face in faces.boards:
        board, face = board_face.board, board_face.face
        picture = faces_to_png([face], TTS_BOARD_DPI, font, cache, bleed=False)[0]
        with PILImage.open(io.BytesIO(picture)) as image:
            whole = image.convert("RGB")
        pieces = board_pieces(whole.width, whole.height)
        rows, cols = pieces[-1][0] + 1, pieces[-1][1] + 1
        for r, c, left, top, right, bottom in pieces:
            split = len(pieces) > 1
            name = f"board-{board.id}" + (f"-{r + 1}-{c + 1}" if split else "") + ".png"
            data = io.BytesIO()
            whole.crop((left, top, right, bottom)).save(data, "PNG")
            out.append(BytesFile(tts / name, data.getvalue()))
            where = f" (row {r + 1}, column {c + 1} of {cols} x {rows})" if split else ""
            states.append({
                "Name": "Custom_Board", "Nickname": board.name + where,
                "Description": board.id,
                "Transform": board_transform(left, top, right, bottom, x0),
                "CustomImage": {"ImageURL": (tts / name).resolve().as_uri(),
                                "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                "WidthScale": 0.0}})
        x0 += whole.width / TTS_BOARD_DPI + 2.0  # the next board beside it, 2 units apart
    return out, states


def tabletop_simulator(faces: GameFaces, folder: Path, font: str, cache: Path,
                       subfolder: str = "tts", stem: str | None = None) -> list[BytesFile]:
    """Deck sheet images, back images and a saved object (<game>-tts.json) that Tabletop
    Simulator imports as one deck per cardgen deck, with every card's name and copies, and
    a custom board for each board (_tts_boards)."""
    from ..identity import face_identity
    out: list[BytesFile] = []
    tts = folder / subfolder
    states = []
    for n, deck in enumerate(faces.decks):
        # filler cards fill a home-print sheet: nobody plays with them on a table
        cards = [c for c in deck.deck.cards if c.copies > 0 and not c.filler]
        if not cards:
            continue
        if deck.deck.shape in TTS_TILES:
            tiles, state = _tts_tiles(deck, cards, tts, font, cache, n)
            out += tiles
            states.append(state)
            continue
        first = deck.fronts[cards[0].id]
        size = (first.width, first.height)
        cell = (TTS_CARD_WIDTH, round(TTS_CARD_WIDTH * first.height / first.width))
        rows = max(1, min(TTS_ROWS, TTS_MAX_PIXELS // cell[1]))  # a sheet within 4096 px
        dpi = math.ceil(TTS_CARD_WIDTH / (first.width / 72))
        fronts = faces_to_png([deck.fronts[c.id] for c in cards], dpi, font, cache, bleed=False)
        unique = len({face_identity(deck.backs[c.id]) for c in cards}) > 1  # backs differ
        backs = faces_to_png([deck.backs[c.id] for c in (cards if unique else cards[:1])], dpi,
                             font, cache, bleed=False)
        per_sheet = TTS_COLUMNS * rows - 1  # the last slot is the hidden card
        back_name = f"{deck.deck.id}-back.png"
        out.append(BytesFile(tts / back_name, backs[0]))
        custom, ids, contained = {}, [], []
        for s, start in enumerate(range(0, len(cards), per_sheet), 1):
            sheet_name = f"{deck.deck.id}-sheet-{s}.png"
            out.append(BytesFile(tts / sheet_name, _sheet(fronts[start:start + per_sheet], cell,
                                                          backs[0], rows)))
            back_url = (tts / back_name).resolve().as_uri()
            if unique:  # each card's own back, in the same grid as the faces
                backs_name = f"{deck.deck.id}-backs-{s}.png"
                out.append(BytesFile(tts / backs_name, _sheet(backs[start:start + per_sheet],
                                                              cell, backs[0], rows)))
                back_url = (tts / backs_name).resolve().as_uri()
            key = n * 100 + s  # TTS: a card's id is its sheet's key x 100 + its slot
            custom[str(key)] = {"FaceURL": (tts / sheet_name).resolve().as_uri(),
                                "BackURL": back_url, "NumWidth": TTS_COLUMNS, "NumHeight": rows,
                                "BackIsHidden": True, "UniqueBack": unique}
            for slot, card in enumerate(cards[start:start + per_sheet]):
                card_id = key * 100 + slot
                name = str(card.fields.get("name", card.id))
                for _copy in range(card.copies):
                    ids.append(card_id)
                    contained.append({"Name": "Card", "Nickname": name, "Description": card.id,
                                      "CardID": card_id, "Transform": _transform(size=size)})
        states.append({"Name": "Deck", "Nickname": deck.deck.name,
                       "Transform": _transform(n * 3.0, size),
                       "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained})
    boards, board_states = _tts_boards(faces, tts, font, cache, len(faces.decks))
    out += boards
    states += board_states
    saved = {"SaveName": faces.game.title, "GameMode": "", "ObjectStates": states}
    out.append(BytesFile(tts / f"{stem or faces.game.id}-tts.json",
                     json.dumps(saved, ensure_ascii=False, indent=2).encode("utf-8")))
    return out


def counting(progress, what: str, every: float = 0.5):
    """A `counting(done, total)` for a long stage: progress hears how far it is and about
    how long is left ("rasterising previews: 1,200 of 20,000, about 40 s left"), at most
    every `every` seconds."""
    import time
    start, said = time.monotonic(), [0.0]

    def count(done: int, total: int) -> None:
        now = time.monotonic()
        if now - said[0] < every and done < total:
            return
        said[0] = now
        left = (now - start) / done * (total - done) if done else 0
        if done < total and now - start > 1:  # (the time left, once it can be told)
            progress(shown(_("{what}: {done:,} of {total:,}, about {left:.0f} s left",
                             what=shown(what), done=done, total=total, left=left)))
        else:
            progress(shown(_("{what}: {done:,} of {total:,}", what=shown(what), done=done,
                             total=total)))
    return count
