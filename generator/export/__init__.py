"""Print-shop export: a game's faces as a print shop asks for them (`cardgen export`).

A branch at the end of the pipeline. The game is laid out again with the export
profile's bleed (layouts/exports/<name>.yaml); every distinct face design (told apart by
its identity, identity.py, as diff and the caches do) becomes one file:

- a PDF format (generator/formats/pdf.py): one page of trim plus bleed, with Japanese trim
  marks (トンボ) around it when `marks: tombo`, TrimBox and BleedBox set, colours converted
  to CMYK (color.py) and the ICC profile embedded as a PDF/X-4 output intent;
- a picture format (png, jpeg: generator/formats): one RGB picture at the exact pixel size
  of the service's template for the card's size, the face's trim scaled onto the
  template's trim, encoded by the format's module.

A manifest (CSV and JSON) lists every file with its side, deck, cards and copies to print.
Each file is read back (preflight.py) before anything is written; the set is written
atomically into output/<game>/export-<profile>/, and files an earlier export left there
that this one does not write are removed.
"""

from __future__ import annotations

import csv
import io
import math
import json
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from ..identity import face_identity
from ..images import shown_dpi
from ..impose import REGISTRATION, Page, single_face
from ..layout import GameFaces
from ..layout.pieces import TOKEN_SHAPES
from ..model import TBD, Deck, ExportProfile, ExportSize, Game, frozen_mapping
from ..primitives import Face, Text, leaves
from ..problems import Location, Report
from ..formats import FORMATS
from ..units import show_size, to_mm
from ..write import BytesFile
from ..write.pdf import PdfFile, render_pdf
from ..write.pdfium import opened
from .bleeding import run_on
from .checks import check_boards, check_faces, check_pictures, ink_message, over_ink
from ..i18n import _


@dataclass(frozen=True)
class Design:
    """One distinct face design and the cards that print it."""

    file: str
    side: str  # "front" or "back"
    deck: str
    cards: tuple[str, ...]
    copies: int
    face: Face
    size: str  # the profile's size it is printed at ("poker"), or the trim size


def with_bleed(game: Game, bleeds: dict[str, float], boards: bool = False) -> Game:
    """The game with every deck's layouts set to the bleed the export asks for; its boards
    too where the profile takes them (`boards`)."""
    decks = []
    for deck in game.decks:
        b = bleeds[deck.id]
        decks.append(replace(deck, front=replace(deck.front, bleed=b),
                             back=replace(deck.back, bleed=b),
                             card_backs=frozen_mapping({k: replace(v, bleed=b) for k, v in
                                                         deck.card_backs.items()})))
    return replace(game, decks=tuple(decks), boards=game.boards if boards else ())


def deck_bleeds(game: Game, profile: ExportProfile, report: Report) -> dict[str, float]:
    """The bleed each deck is laid out with: the profile's, or for a PNG profile the bleed of
    the template that fits the deck's cards (a little more, so that the scaled face still
    fills it). A deck whose card size the profile has no template for is a warning at the
    deck, naming what the profile takes, and is left out (not in the answer)."""
    bleeds: dict[str, float] = {}
    for deck in game.decks:
        if not profile.raster:
            bleeds[deck.id] = profile.bleed
            continue
        template = profile.template_for(deck.piece_size)
        if template is None:
            sizes = "; ".join(f"{s.name} ({show_size(s.trim, 'in')})" for s in profile.sizes)
            report.warning(_("deck '{deck_id}': its cards are {deck_piece_size}, a size export "
                             "profile '{profile_name}' has no template for (it takes {sizes}, "
                             "within {profile_tolerance:g} mm), so it is left out of the "
                             "export; for it, choose another profile, or a print target of "
                             "that size (docs/printing.md)", deck_id=deck.id,
                             deck_piece_size=show_size(deck.piece_size, deck.front.unit),
                             profile_name=profile.name, sizes=sizes,
                             profile_tolerance=to_mm(profile.tolerance)), deck.loc, "export")
            continue
        around = max((p / profile.dpi * 72 - t) / 2 for p, t in zip(template.pixels, template.trim))
        bleeds[deck.id] = around * 1.05 + 1.0
    return bleeds


def designs(faces: GameFaces, profile: ExportProfile, extension: str) -> list[Design]:
    """Every distinct face once, fronts then backs, deck by deck, with its cards and copies.
    A face is named after its deck and its first card, or `<deck>-back` for the one back
    that every card of a deck shares."""
    shared: dict = {}
    out: list[Design] = []
    for deck_faces in faces.decks:
        deck = deck_faces.deck
        template = profile.template_for(deck.piece_size) if profile.raster else None
        size = template.name if template else show_size(deck.piece_size, deck.front.unit)
        for side, by_card in (("front", deck_faces.fronts), ("back", deck_faces.backs)):
            groups: dict[str, list] = {}
            for card in deck.cards:
                if card.copies <= 0 or card.id not in by_card or card.filler:
                    continue  # (a filler only fills a home-print sheet: not ordered)
                if deck.shape == "standee" and side == "back":
                    continue  # a standee prints on one side: figure, fold and mirror on one strip
                key = face_identity(by_card[card.id], shared)
                groups.setdefault(key, [by_card[card.id], []])[1].append(card)
            for face, cards in groups.values():
                if deck.shape == "standee":  # its strip: tabs and figures drawn to the trim
                    face = run_on(face, deck.front.bleed)[0]
                one = side == "back" and len(groups) == 1 and len(cards) > 1
                name = f"{deck.id}-back" if one else f"{deck.id}-{cards[0].id}-{side}"
                out.append(Design(f"{name}.{extension}", side, deck.id,
                                  tuple(c.id for c in cards), sum(c.copies for c in cards),
                                  face, size))
    for board_face in faces.boards:  # at its size, with the profile's bleed
        face, board = run_on(board_face.face, profile.bleed)[0], board_face.board
        out.append(Design(f"board-{board.id}.{extension}", "board", board.deck or "",
                          (board.id,), 1, face, show_size((face.width, face.height), "mm")))
    taken: set[str] = set()  # deck "a-b" card "c" and deck "a" card "b-c" would meet
    for i, design in enumerate(out):
        name, n = design.file, 1
        while name in taken:
            n += 1
            name = f"{design.file[:-len(extension) - 1]}-{n}.{extension}"
        taken.add(name)
        if name != design.file:
            out[i] = replace(design, file=name)
    return out


MANIFESTS = ("manifest.csv", "manifest.json")  # beside the faces in every export folder


def made_by_an_export(path: Path) -> bool:
    """Whether a file in an export folder is of a kind an export writes, so that it goes
    when the next export of the folder no longer writes it: a face in any format's
    extension (the profile may have changed its format since), the rulebook, a manifest."""
    kinds = {f".{module.EXTENSION}" for module in FORMATS.values()}
    return path.suffix in kinds | {Path(name).suffix for name in (*MANIFESTS, "rulebook.pdf")}


def manifest(game: Game, profile: ExportProfile, items: list[Design], folder: Path,
             image_dpi: dict[str, list[float]] | None = None,
             rulebook: dict | None = None) -> list[BytesFile]:
    """manifest.csv and manifest.json: what each file is and how many to print of it; the
    JSON also gives, for a PDF, the effective resolution of each picture read back from it
    (`image_dpi`), and for each deck the slots still to be designed, which are not exported.
    A card whose copies are TBD counts once, as build prints a draft once, and is named in
    `copies_tbd` (a column of its own while any is): the manifest does not pass it off as
    a count decided."""
    by_deck = _copies_tbd(game)
    tbd = {card for cards in by_deck.values() for card in cards}
    rows = [{"file": d.file, "side": d.side, "deck": d.deck, "cards": " ".join(d.cards),
             "copies": d.copies, "size": d.size, **_tbd_of(d.cards, tbd, " ".join)}
            for d in items]
    if rulebook:  # one copy of the book: its pages, which the shop binds
        rows.append({"file": rulebook["file"], "side": "rulebook", "deck": "", "cards": "",
                     "copies": 1, "size": show_size(tuple(v * 72 / 25.4 for v in
                                                          rulebook["page_size_mm"]), "mm"),
                     **_tbd_of((), tbd, " ".join)})
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else
                            ["file", "side", "deck", "cards", "copies", "size"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    totals: dict[str, int] = {}  # deck id -> cards printed
    for d in items:
        if d.side == "front":
            totals[d.deck] = totals.get(d.deck, 0) + d.copies
    data = {"game": game.id, "title": game.title, "profile": profile.name,
            "description": profile.description, "format": profile.format,
            "color": profile.color, "output_condition": profile.output_condition or None,
            "files": [{**r, "cards": list(d.cards), **_tbd_of(d.cards, tbd, list),
                       **({"image_dpi": image_dpi[d.file]} if image_dpi and d.file in image_dpi
                          else {})} for r, d in zip(rows, items)] +
                     [{**r, "cards": [], **_tbd_of((), tbd, list)} for r in rows[len(items):]],
            "decks": totals,
            "not_designed": {d.id: d.slots - d.total for d in game.decks
                             if d.slots and d.slots > d.total},
            # cards that only fill a home-print sheet (filler: true): not exported
            "fillers": {d.id: n for d in game.decks
                        if (n := sum(c.copies for c in d.cards if c.filler))},
            # cards whose copies are TBD, each counted once (a draft): not yet decided
            **({"copies_tbd": by_deck} if by_deck else {}),
            # single pages in reading order: the shop imposes the booklet
            **({"rulebook": rulebook} if rulebook else {})}
    return [BytesFile(folder / MANIFESTS[0], text.getvalue().encode("utf-8")),
            BytesFile(folder / MANIFESTS[1],
                      (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))]


def _copies_tbd(game: Game) -> dict[str, list[str]]:
    """The cards whose copies are still TBD (each printed once, a draft), by deck."""
    return {d.id: ids for d in game.decks
            if (ids := [c.id for c in d.cards if c.fields.get("copies") == TBD])}


def _tbd_of(cards, tbd: set[str], shown) -> dict:
    """A manifest row's `copies_tbd`: those of its cards whose copies are TBD (`shown` as the
    CSV or the JSON writes a list), while the game has any; else no such column."""
    return {"copies_tbd": shown(c for c in cards if c in tbd)} if tbd else {}


def pdf_file(design: Design, profile: ExportProfile, title: str, font: str,
             icc: bytes | None, revision: tuple[str, str] = ("", "")) -> bytes:
    """One face as a print-ready PDF: trim marks, boxes, and the output intent."""
    page, trim, bleed = single_face(design.face, profile.bleed, profile.marks == "tombo",
                                    REGISTRATION if profile.color == "cmyk" else (0.0, 0.0, 0.0))
    out = io.BytesIO()
    render_pdf(PdfFile((page,), f"{title}: {design.file}",
                       f"{design.side} of {', '.join(design.cards)}: print {design.copies}",
                       font, boxes=((trim, bleed),)), out)
    return FORMATS[profile.format].finish(out.getvalue(), profile, f"{title}: {design.file}",
                                          icc, revision)


def template(profile: ExportProfile, deck: Deck) -> ExportSize:
    """The template a raster profile prints the deck's faces at. A deck it has none for is
    left out of the export (deck_bleeds says so), so every deck exported has one."""
    found = profile.template_for(deck.piece_size)
    if found is None:
        raise ValueError(f"export profile {profile.name!r} has no template for deck {deck.id!r}")
    return found


def picture_size(profile: ExportProfile, design: Design, decks: dict[str, Deck]) -> ExportSize:
    """The pixel size a raster profile draws a design at: its deck's template, or for a
    board (no service has a template for it) the board's own size at the profile's dpi,
    with its bleed (the profile's) around it."""
    if design.side != "board":
        return template(profile, decks[design.deck])
    face, scale = design.face, profile.dpi / 72
    return ExportSize("board", (face.width, face.height),
                      (round((face.width + 2 * face.bleed) * scale),
                       round((face.height + 2 * face.bleed) * scale)), profile.loc)


def picture_files(items: list[Design], profile: ExportProfile, game: Game,
                  font: str) -> list[bytes]:
    """Each face as an RGB PNG or JPEG of its template's exact pixel size: the face's trim scaled
    (the same scale both ways) onto the template's trim, the bleed around it."""
    decks = {d.id: d for d in game.decks}
    pages: list[Page] = []
    plans = []
    for design in items:
        face = design.face
        size = picture_size(profile, design, decks)
        scale = max(t / f for t, f in zip(size.trim, (face.width, face.height))) * \
            profile.dpi / 72
        pages.append(single_face(face, face.bleed)[0])
        plans.append((scale, size.pixels, face.bleed))
    buffer = io.BytesIO()
    render_pdf(PdfFile(tuple(pages), "export", "export", font), buffer)
    out = []
    with opened(buffer.getvalue()) as document:
        for index, (scale, (pw, ph), bleed) in enumerate(plans):
            image = document[index].render(scale=scale).to_pil().convert("RGB")
            face = items[index].face
            cx, cy = (face.width / 2 + bleed) * scale, (face.height / 2 + bleed) * scale
            left, top = round(cx - pw / 2), round(cy - ph / 2)
            image = image.crop((left, top, left + pw, top + ph))
            out.append(FORMATS[profile.format].encode(image, profile.dpi))
    return out


MAX_EXPORT_PIXELS = 8_000_000_000  # pictures of one export, in all (some minutes of work)


def icc_bytes(profile: ExportProfile) -> bytes | None:
    """The CMYK output profile a CMYK export profile names (resolve_export reports one
    that names none), read; None for an RGB export profile."""
    if profile.color != "cmyk":
        return None
    if profile.icc is None:
        raise ValueError(f"CMYK export profile {profile.name!r} names no ICC profile")
    return Path(profile.icc).read_bytes()


def converter(profile: ExportProfile, cache: Path):
    """The profile's colour conversion (color.CmykConverter), or None for an RGB profile."""
    icc = None if profile.raster else icc_bytes(profile)
    if icc is None:
        return None
    from .color import CmykConverter
    return CmykConverter(icc, profile.black_text, cache, profile.rich_black)


def _drawn_by(design: Design, decks: dict[str, Deck]) -> Location:
    """Where the layout that drew a design is (its first card's, for a back of its own)."""
    deck = decks[design.deck]
    if design.side == "front":
        return deck.front.loc
    card = next((c for c in deck.cards if c.id in design.cards), None)
    return (deck.back_of(card) if card is not None else deck.back).loc


def export_files(faces: GameFaces, profile: ExportProfile, folder: Path, convert,
                 report: Report, display=str, rulebook: bytes | None = None,
                 stopping: Collection[tuple[str, str, str]] = ()) -> list[BytesFile]:
    """Every file of the export, made in memory and read back; none if preflight fails.
    `convert`: the profile's colour conversion (converter), or None; `rulebook`, the built
    rulebook's PDF, for a profile that takes it (book.py); `stopping`, the faces (deck,
    card, side) whose ink stops at the trim, said at their elements (check_faces)."""
    from .preflight import preflight_pdf, preflight_picture
    game = faces.game
    font = game.main_family.regular
    title = game.display_title
    items = designs(faces, profile, profile.extension)
    files: list[BytesFile] = []
    image_dpi: dict[str, list[float]] = {}
    # A round or hex token is cut along its outline, not its square trim: its art (a disc
    # with bleed: true) stops short of the square's bleed by design, and the layout stage
    # has checked it against the outline (pieces.check_token). Not read back as stopping.
    outlined = {d.id for d in game.decks if d.shape in TOKEN_SHAPES}
    decks = {d.id: d for d in game.decks}
    if not profile.raster:
        icc = icc_bytes(profile)
        if convert is not None:
            items = [replace(d, face=convert.face(d.face)) for d in items]
        for design in items:
            data = pdf_file(design, profile, title, font, icc, (game.version, game.revised))
            found = preflight_pdf(data, design.file, profile,
                                  Location(display(folder / design.file)), report,
                                  design.deck in outlined or
                                  any((design.deck, card, design.side) in stopping
                                      for card in design.cards),
                                  _drawn_by(design, decks) if design.side != "board" and
                                  design.deck in decks and any(
                                      type(item) is Text for item in leaves(design.face.items))
                                  else None)  # (a board's art is run on: a stop is a bug)
            image_dpi[design.file] = [shown_dpi(dpi) for _unused, dpi in found["images"]]
            files.append(BytesFile(folder / design.file, data, 1))
    else:
        total = sum(math.prod(picture_size(profile, d, decks).pixels) for d in items)
        if total > MAX_EXPORT_PIXELS:  # each face's size is bounded by the profile: all of them
            report.error(_("export profile '{profile_name}': the game's {n_items:,} distinct "
                           "faces make {n:.1f} gigapixels of pictures; an export makes at "
                           "most {n2:g} gigapixels (export fewer decks, or a smaller size)",
                           profile_name=profile.name, n_items=len(items), n=total / 1000000000.0,
                           n2=MAX_EXPORT_PIXELS / 1000000000.0), profile.loc, "export")
            return []
        for design, data in zip(items, picture_files(items, profile, game, font)):
            preflight_picture(data, design, profile, picture_size(profile, design, decks),
                              Location(display(folder / design.file)), report,
                              design.deck in outlined or
                              any((design.deck, card, design.side) in stopping
                                  for card in design.cards))
            files.append(BytesFile(folder / design.file, data))
    book = None
    if rulebook is not None and not profile.raster:
        from .book import rulebook_pdf
        data, book, (most, what) = rulebook_pdf(rulebook, profile, convert, f"{title}: rulebook",
                                                font, game.rulebook is not None and
                                                game.rulebook.vertical)
        if over_ink(most, profile):
            report.warning(ink_message("the rulebook", most, what, profile, "lighten or "
                                       "desaturate its darkest colour or picture"),
                           game.rulebook.loc if game.rulebook else game.loc, "ink")
        data = FORMATS[profile.format].finish(data, profile, f"{title}: rulebook", icc,
                                              (game.version, game.revised))
        preflight_pdf(data, "rulebook.pdf", profile, Location(display(folder / "rulebook.pdf")),
                      report)  # read back as the faces are
        book = {"file": "rulebook.pdf", **book}
        files.append(BytesFile(folder / "rulebook.pdf", data, book["pages"]))
    return files + manifest(game, profile, items, folder, image_dpi, book)


__all__ = ["MANIFESTS", "check_boards", "check_faces", "check_pictures", "converter",
           "deck_bleeds", "designs", "export_files", "made_by_an_export", "with_bleed"]
