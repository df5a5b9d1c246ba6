"""`cardgen pnp GAME`: one print-and-play PDF per paper, the kit a designer hands out.

For each paper (A4 and Letter unless told), the game's pieces are imposed again on that
paper's plain preset (layouts/sheets/plain-<paper>.yaml, fitted to each deck's cards, decks
of one size sharing sheets), as duplex pages (front, back, sheet after sheet) or gutter-fold
pages; the boards are tiled on that paper; the rulebook is appended; a cover lists the
components and says how to print each part. Checked as a build is: a game with errors writes
nothing. Written as output/<game>/pnp/<game>-pnp-<paper>[-gutterfold][-ink-saver].pdf;
the kits an earlier run wrote there and this one does not are removed (KITS).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import pipeline
from .impose import impose_board, impose_game, kit
from .layout import DeckFaces, GameFaces
from .model import Deck
from .load import Project, load_sheet
from .pipeline import Outcome
from .resolve.sheets import resolve_sheet
from .units import mm, paper_size, show_size, to_mm
from .values import abridged
from .write import BytesFile, write_files
from .write import ledger
from .i18n import _, _n, printing, shown

PAPERS = kit.PAPERS  # the paper -> its plain preset (impose/kit.py, which the command line reads)
# What pnp/'s ledger (write/ledger.py) records a run's kits under: a kit an earlier run made
# and this one does not (an ink-saver kit, another paper, a gutter-fold) is removed, so no
# kit of older data is handed out by mistake; nothing else in the folder is ever touched.
KITS = "pnp:"


@dataclass(frozen=True)
class Request:
    papers: tuple[str, ...] = tuple(PAPERS)
    layout: str = kit.LAYOUTS[0]  # duplex, or gutterfold
    ink_saver: bool = False
    greyscale: bool = False  # pictures in grey (with the ink saver, or on their own)
    blanks: bool = False  # blank cards and undesigned slots printed, for writing on


def kit_deck(deck: Deck, blanks: bool) -> Deck:
    """A deck as a kit prints it: the cards that exist (drafts included), without the fillers
    that only fill a shop's sheet nor, unless `blanks`, its blank cards and the slots of its
    declared shape no card fills; sharing the kit's paper with the other decks (a home
    printer's sheet is any deck's), each back page behind its own front page (a shop's back
    files, grouped by design, would fill a sheet with spare backs)."""
    cards = tuple(c for c in deck.cards if not c.filler and (blanks or not c.blank))
    fillers = sum(c.copies for c in deck.cards if c.filler)
    slots = max(0, deck.slots - fillers) or None if blanks and deck.slots else None
    return replace(deck, cards=cards, slots=slots, own_sheet=False, backs="duplex")


def left_out(decks, blanks: bool) -> int:
    """How many pieces a kit leaves out (kit_deck()): fillers, and unless `blanks` the blank
    cards and undesigned slots."""
    out = 0
    for deck in decks:
        kept = kit_deck(deck, blanks)
        out += deck.total - kept.total
        if not blanks:
            out += max(0, (deck.slots or 0) - deck.total)
    return out


def _on_paper(project: Project, faces: GameFaces, paper: str, report,
              blanks: bool = False) -> tuple[GameFaces, dict]:
    """The game's decks as a kit prints them (kit_deck()) on the paper's plain preset, fitted
    to each deck's pieces."""
    preset = PAPERS[paper]
    decks, fitted = [], {}
    doc = load_sheet(project, preset, report, faces.game.loc) if faces.decks else None
    for deck_faces in faces.decks:
        deck = deck_faces.deck
        sheet = None if doc is None else resolve_sheet(preset, doc, report, deck.piece_size,
                                                       _own_gap(deck),
                                                       lambda path, deck=deck: deck.loc)
        if sheet is None:
            continue
        fitted[deck.id] = sheet
        decks.append(DeckFaces(replace(kit_deck(deck, blanks), sheet=sheet), deck_faces.fronts,
                               deck_faces.backs))
    return replace(faces, decks=tuple(decks)), fitted


def _own_gap(deck: Deck) -> dict:
    """The gap a deck printed on plain paper chose (`sheet: {preset: plain-a4, gap: ...}`),
    kept on the kit's paper: its tokens as far apart as in its build, room to cut each out.
    A pre-cut sheet's gap is its stock's, not the deck's: the kit's paper has none."""
    if deck.sheet is None or deck.sheet.precut:
        return {}
    return {"gap": [f"{round(to_mm(g), 4):g}mm" for g in deck.sheet.gap]}


def kit_imposition(faces: GameFaces):
    """A duplex kit's card sheets (impose.impose_game): with room for each page's note at
    its foot, unless that takes a sheet more; the note then goes where it finds room
    (kit._noted), or the cover says it alone."""
    return min((impose_game(faces, reserve=room) for room in (kit.NOTE_BAND, 0.0)),
               key=lambda imposition: len(imposition.fronts))


def _said_unreadable(game, unreadable: list, report) -> None:
    """A warning at each deck for the text of its cards that no colour makes readable on
    the ink saver's lightened ground (layout.inksaver.readable): once a deck, naming the
    first text and how many others."""
    decks = {d.id: d for d in game.decks}
    by_deck: dict[str, list] = {}
    for deck_id, card_id, text, ratio in unreadable:
        by_deck.setdefault(deck_id, []).append((card_id, text, ratio))
    for deck_id, found in by_deck.items():
        card_id, text, ratio = found[0]
        report.warning(_("deck '{deck_id}': card '{card_id}': in the ink-saver kit, its text "
                         "'{text}' keeps a contrast of {ratio:.1f}:1 with the lightened ground "
                         "under it, and no darker colour reaches 4.5:1{more}; give the layout "
                         "an ink_saver: version (docs/layouts.md)", deck_id=deck_id,
                         card_id=card_id, text=abridged(text), ratio=ratio,
                         more=_n(" (and {n} other text)", " (and {n} other texts)",
                                 len(found) - 1) if len(found) > 1 else ""),
                       decks[deck_id].loc, "ink-saver")


def _grey(project: Project):
    """A picture in grey: a grey copy of its file, made once per content and kept beside the
    PNG cache (written whole or not at all), placed where the picture was."""
    folder = project.output / ".cache" / "grey"

    def grey(item):
        from PIL import Image

        from . import images
        from .paths import write_atomically
        digest = item.file_digest or images.digest(item.path)
        path = folder / f"{digest}.png"
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            with Image.open(item.path) as im:
                copy = im.convert("LA" if "A" in im.getbands() or "transparency" in im.info
                                  else "L")
            write_atomically(path, lambda tmp: copy.save(tmp, "PNG"))
        return replace(item, path=str(path), file_digest=f"{digest}-grey")
    return grey


def _boards(faces: GameFaces, paper: str, font: str, clear: float) -> list:
    """Each board on the paper; its pages' labels outside the margin `clear` (kept clear of
    print at the paper's edge), its art inside them."""
    from .impose import LABEL_BAND
    pages = []
    for board_face in faces.boards:
        board = replace(board_face.board, papers=(paper,),
                        print_margin=max(board_face.board.print_margin, clear + LABEL_BAND))
        pages.append((board, impose_board(replace(board_face, board=board), font, clear)))
    return pages


def _clear(project: Project, paper: str, report, game) -> float:
    """The margin a kit on `paper` keeps clear at the edge: its plain preset's unprintable."""
    doc = load_sheet(project, PAPERS[paper], report, game.loc)
    sheet = None if doc is None else resolve_sheet(PAPERS[paper], doc, report, (mm(63), mm(88)))
    return sheet.unprintable if sheet is not None else 0.0


def pnp(project: Project, game_id: str, request: Request,
        progress=lambda message: None) -> Outcome:
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = pipeline.check(project, game_id)
    faces = None if outcome.failed(False) else pipeline.lay_out(outcome)
    game, report = outcome.game, outcome.report
    if faces is None or game is None:
        return outcome
    font = game.main_family.regular
    book = None
    if game.rulebook is not None and outcome.rulebook_markdown is not None:
        progress(shown(_("{game_id}: typesetting the rulebook", game_id=game_id)))
        from . import rulebook
        book = rulebook.build(game, faces, outcome.rulebook_markdown)
    if request.ink_saver:  # the layouts' own ink-saver versions, the rest lightened
        from .layout.inksaver import lighter, with_ink_saver
        saving = Outcome(game_id, report, with_ink_saver(game))
        faces = pipeline.lay_out(saving)
        if faces is None:
            return outcome
        unreadable: list = []
        faces = lighter(faces, _grey(project) if request.greyscale else None, unreadable)
        _said_unreadable(game, unreadable, report)
    elif request.greyscale:
        from .layout.inksaver import greyed
        faces = greyed(faces, _grey(project))
    outputs = []
    for paper in request.papers:
        progress(shown(_("{game_id}: the {paper} kit", game_id=game_id, paper=paper)))
        on_paper, fitted = _on_paper(project, faces, paper, report, request.blanks)
        if report.errors:
            return outcome
        made = _kit(game, on_paper, fitted, paper, request, book, font, project, report)
        if made is None:
            return outcome
        outputs.append(made)
    folder = pipeline.output_folder(project, game.id) / "pnp"
    with pipeline.writing(project, game_id, progress):
        write_files(outputs, project.output)
        outcome.removed = ledger.settle(folder, KITS, [o.path for o in outputs])
    outcome.written = [(o.path, 0) for o in outputs]
    return outcome


def _kit(game, faces: GameFaces, fitted: dict, paper: str, request: Request, book, font,
         project: Project, report) -> BytesFile | None:
    """The kit, its words (cover, notes, bookmarks) in the game's language whoever makes it."""
    with printing(game.lang):
        return _kit_in(game, faces, fitted, paper, request, book, font, project, report)


def _kit_in(game, faces: GameFaces, fitted: dict, paper: str, request: Request, book, font,
            project: Project, report) -> BytesFile | None:
    from .write import kit as sheets  # (the command line imports this module for its papers)
    duplex = next(iter(fitted.values())).duplex if fitted else "long-edge"
    if request.layout == "gutterfold":
        cards = kit.gutterfold(faces, fitted, font)
        for deck in (d.deck for d in faces.decks if d.deck.id in cards.too_big):
            report.error(_("deck '{deck_id}': its {deck_piece_size} pieces do not fit half a page "
                           "of {paper}, as a gutter-fold kit prints them; make this kit with "
                           "--layout duplex",
                               deck_id=deck.id, deck_piece_size=show_size(deck.piece_size),
                               paper=paper), deck.loc, "pnp")
        if cards.too_big:
            return None
        how = shown(_("print single-sided; fold each page along its dashed line, fronts "
                      "outwards, glue the halves together, then cut along the marks through "
                      "both layers"))
    else:
        cards = kit.duplex(kit_imposition(faces), font)
        how = shown(_("print double-sided, flipped on the {edge} edge (each front page is "
                      "followed by its back page), then cut along the marks",
                      edge=kit.flip_edge(duplex)))
    if any(d.deck.shape in ("circle", "hex") for d in faces.decks):  # (where there are some)
        how += shown(_(" (round and hex pieces along their outline)"))
    parts = [sheets.Part(shown(_("Cards and pieces")), cards.pages, how=how,
                         count=len(cards.pages))]
    boards = _boards(faces, paper, font, _clear(project, paper, report, faces.game))
    for board, pages in boards:
        how = _("print single-sided; trim the pages and join them along the crosses") \
            if len(pages) > 1 else _("print single-sided")
        parts.append(sheets.Part(shown(_("Board: {name}", name=board.name)),
                                 tuple(pages), how=shown(how), count=len(pages)))
    if book is not None:
        parts.append(sheets.Part(shown(_("Rulebook")), pdf=book.pdf, count=book.pages,
                                 how=shown(_("the rules, on 1 page: print it at 100%")
                                           if book.pages == 1 else
                                           _("the rules, on {n} pages: print them at 100%, or "
                                             "two pages to a sheet", n=book.pages))))
    listed = sheets.components(game, {b.id: len(p) for b, p in boards}, request.blanks)
    paper_wh = paper_size(paper)
    said = sheets.Cover(left_out(game.decks, request.blanks), request.blanks)
    cover, blank = sheets.cover(game, paper_wh, paper, request.layout, listed, parts, said)
    data = sheets.assemble(game, cover, parts, duplex, blank)
    name = f"{game.stem}-pnp-{paper.lower()}" + \
        ("-gutterfold" if request.layout == "gutterfold" else "") + \
        ("-ink-saver" if request.ink_saver else "") + ("-grey" if request.greyscale else "") + \
        ".pdf"
    return BytesFile(pipeline.output_folder(project, game.id) / "pnp" / name, data)
