"""What a build writes, planned from the laid-out faces before anything is written: the
sheets, back files, single cards and boards with their print guide; the rulebook and its
booklet; an errata set's rulebook and board pages; the statistics; PNG previews, proof
sheets and a Tabletop Simulator deck."""

from __future__ import annotations

import io
from dataclasses import replace

from ..impose import Imposition, Page, impose_board, impose_game, single_face
from ..layout import GameFaces
from ..load import Project
from ..model import Game
from ..write import BytesFile, PdfOutput, TextFile
from ..write.guide import print_guide
from ..write.pdf import PdfFile
from ..i18n import _
from .stages import BuildOptions, Outcome, output_folder, statistics


def revised(output, game: Game):
    """A PDF output carrying the game's revision (its version and date); others as given."""
    if not isinstance(output, PdfOutput):
        return output
    return replace(output, document=replace(output.document, version=game.version,
                                            revised=game.revised))


def _single_cards(faces: GameFaces) -> tuple[list[Page], list[tuple]]:
    """One page per card face with its full bleed: each card's front, then its back."""
    pages, boxes = [], []
    for deck_faces in faces.decks:
        for card in deck_faces.deck.instances():
            for face in (deck_faces.fronts[card.id], deck_faces.backs[card.id]):
                page, trim, bleed = single_face(face, face.bleed, label=card.id)
                pages.append(page)
                boxes.append((trim, bleed))
    return pages, boxes


def errata_game(game: Game, only: tuple[tuple[str, int], ...]) -> Game:
    """The game with only the given cards, as many of each as given, each deck on sheets
    of its own, and no boards."""
    copies = dict(only)
    decks = tuple(replace(d, cards=tuple(replace(c, copies=copies[c.id]) for c in d.cards
                                         if c.id in copies), slots=None)
                  for d in game.decks)
    return replace(game, decks=tuple(d for d in decks if d.cards), boards=())


def game_outputs(project: Project, faces: GameFaces, imposition: Imposition,
                 options: BuildOptions, printer, kind: str = "") -> list:
    """The sheets, back files and print guide; `kind` ("errata") prefixes every name."""
    game = faces.game
    folder = output_folder(project, game.id)
    base = game.stem
    stem = f"{base}-{kind}" if kind else base
    font = game.main_family.regular
    duplex = imposition.sheets[0].duplex if imposition.sheets else "long-edge"
    title = game.display_title
    names = {"fronts": f"{stem}-fronts.pdf", "backs": f"{stem}-backs.pdf"}
    if not imposition.fronts:  # nothing to print (every deck a draft, or errata that only
        return [TextFile(folder / f"{stem}-print-guide.txt",  # remove cards): a guide says so
                         print_guide(game, imposition, {}, printer, options.start_slot,
                                     options.errata))]
    outputs: list[PdfOutput | TextFile] = [
        PdfOutput(folder / names["fronts"], PdfFile(imposition.fronts, f"{title}: card fronts",
                                                    "card fronts", font, duplex)),
        PdfOutput(folder / names["backs"], PdfFile(
            imposition.backs, f"{title}: card backs",
            "card backs: back page k is printed on the reverse of front page k", font, duplex)),
    ]
    for group in imposition.groups:
        name = names[f"group:{group.name}"] = f"{stem}-backs-{group.name}.pdf"
        outputs.append(PdfOutput(folder / name, PdfFile(
            (group.back,), f"{title}: card backs, deck '{group.deck}'",
            f"one back page: print it {len(group.sheets)} times", font, duplex)))
    if options.cards_pdf:
        names["cards"] = f"{stem}-cards.pdf"
        pages, boxes = _single_cards(faces)
        outputs.append(PdfOutput(folder / names["cards"], PdfFile(
            tuple(pages), f"{title}: single cards with bleed", "each card's front, then its back",
            font, duplex, tuple(boxes))))
    for board_face in (faces.boards if game.first_target else ()):
        board = board_face.board
        sheets = impose_board(board_face, font, lang=game.lang)
        outputs.append(PdfOutput(folder / f"{game.id}-board-{board.id}.pdf", PdfFile(
            sheets, f"{title}: board {board.name}",
            "board map" + (f", {len(sheets)} pages to assemble" if len(sheets) > 1 else ""),
            font, duplex)))
    outputs.append(TextFile(folder / f"{stem}-print-guide.txt",
                            print_guide(game, imposition, names, printer, options.start_slot,
                                        options.errata)))
    return [revised(o, game) for o in outputs]


def guides_outputs(project: Project, faces: GameFaces, options: BuildOptions, printer,
                   kind: str = "") -> list:
    """`--guides`: the card fronts again, on the same sheets and slots, with the trim, bleed
    and safe lines and each element's box and name drawn on them, as <stem>-fronts-guides.pdf
    beside the fronts. The printable fronts never carry them (a designer could print the
    guides by mistake). Laid out a second time with the guides; its problems were said by the
    first."""
    from ..layout import layout_game
    from ..problems import Report
    game = faces.game
    guided = layout_game(game, Report(), guides=True)
    imposition = impose_game(guided, options.start_slot, printer.offset if printer else (0.0, 0.0))
    if not imposition.fronts:
        return []
    stem = f"{game.stem}-{kind}" if kind else game.stem
    duplex = imposition.sheets[0].duplex if imposition.sheets else "long-edge"
    return [revised(PdfOutput(output_folder(project, game.id) / f"{stem}-fronts-guides.pdf",
                              PdfFile(imposition.fronts, f"{game.display_title}: card fronts "
                                      "with guides", "card fronts with trim, bleed and safe "
                                      "lines and each element's box and name: for checking, "
                                      "not for printing", game.main_family.regular, duplex)),
                    game)]


def rulebook_outputs(project: Project, outcome: Outcome, faces: GameFaces) -> list:
    game = outcome.checked
    if game.rulebook is None or outcome.rulebook_markdown is None:
        return []
    from .. import rulebook
    book = rulebook.build(game, faces, outcome.rulebook_markdown)
    folder = output_folder(project, game.id)
    return [BytesFile(folder / f"{game.id}-rulebook.pdf", book.pdf, book.pages),
            BytesFile(folder / f"{game.id}-rulebook-booklet.pdf", book.booklet, book.sides)]


def errata_printed(project: Project, outcome: Outcome, game: Game,
                   options: BuildOptions) -> list:
    """An errata set's rulebook and board pages: the new rulebook (and booklet) whole, the
    rulebook's changed pages as <stem>-errata-rulebook.pdf and the booklet sheets to reprint
    as <stem>-errata-rulebook-booklet.pdf, and each changed board's changed pages as
    <stem>-errata-board-<id>.pdf. The rulebook shows the whole game's faces, and a board its
    whole deck's tiles: the game is laid out whole for them."""
    if not (options.rulebook_pages or options.booklet_sheets or options.board_pages):
        return []
    from ..layout import layout_game
    from ..problems import Report
    book_spec, markdown = game.rulebook, outcome.rulebook_markdown
    changed_book = (options.rulebook_pages or options.booklet_sheets) and \
        book_spec is not None and markdown is not None
    faces = layout_game(game, Report()) \
        if options.board_pages or (changed_book and not options.rulebook_pdf) else None
    folder, stem = output_folder(project, game.id), f"{game.stem}-errata"
    title, font = game.display_title, game.main_family.regular
    out: list = []
    if changed_book and book_spec is not None and markdown is not None:
        from .. import rulebook
        from ..rulebook.booklet import some_pages
        if options.rulebook_pdf:  # as the diff typeset it, from this very version
            import pikepdf
            with pikepdf.open(io.BytesIO(options.rulebook_pdf)) as pdf:
                count = len(pdf.pages)
            book = rulebook.bound(book_spec, options.rulebook_pdf, count)
        else:
            if faces is None:  # (laid out above whenever the book is typeset)
                raise ValueError("errata: a rulebook is typeset from the game's faces")
            book = rulebook.build(game, faces, markdown)
        out += [BytesFile(folder / f"{game.id}-rulebook.pdf", book.pdf, book.pages),
                BytesFile(folder / f"{game.id}-rulebook-booklet.pdf", book.booklet, book.sides)]
        pages = [p - 1 for p in options.rulebook_pages if 0 < p <= book.pages]
        if pages:
            out.append(BytesFile(folder / f"{stem}-rulebook.pdf", some_pages(
                book.pdf, pages, f"{book_spec.title}: errata pages"), len(pages)))
        sides = [i for s in options.booklet_sheets for i in (2 * s - 2, 2 * s - 1)
                 if 0 <= i < book.sides]
        if sides:
            out.append(BytesFile(folder / f"{stem}-rulebook-booklet.pdf", some_pages(
                book.booklet, sides, f"{book_spec.title}: errata booklet sheets",
                duplex=True), len(sides)))
    wanted = dict(options.board_pages)
    for board_face in faces.boards if faces is not None else ():
        asked = wanted.get(board_face.board.id)
        if not asked:
            continue
        every = impose_board(board_face, font, lang=game.lang)
        chosen = tuple(every[p - 1] for p in asked if 0 < p <= len(every))
        out.append(PdfOutput(folder / f"{stem}-board-{board_face.board.id}.pdf", PdfFile(
            chosen, f"{title}: board {board_face.board.name}, errata pages",
            f"pages {', '.join(map(str, asked))} of {len(every)} of the board", font)))
    return [revised(o, game) for o in out]


def stats_outputs(project: Project, outcome: Outcome, options: BuildOptions) -> list:
    """<game>-stats.pdf, when asked for: once per game (print targets count alike)."""
    game = outcome.checked
    if not options.stats or options.only is not None or not game.first_target:
        return []
    from ..write.stats import stats_pdf  # reportlab's charts only when statistics are wanted
    data, pages = stats_pdf(game, statistics(outcome))
    return [BytesFile(output_folder(project, game.id) / f"{game.id}-stats.pdf", data, pages)]


def preview_outputs(project: Project, faces: GameFaces, options: BuildOptions,
                    progress=lambda message: None) -> list:
    """PNG card faces, proof sheets and a Tabletop Simulator deck, when asked for. A target
    of a game with several writes its own (png-<target>/, tts-<target>/, <stem>-proof...)."""
    if not (options.png or options.proof or options.tts):
        return []
    import time
    from ..write import previews  # Pillow and pypdfium2 only when previews are wanted
    from ..write.png import prune
    started = time.time()
    game = faces.game
    folder = output_folder(project, game.id)
    stem = game.stem
    suffix = stem[len(game.id):]  # "" or "-<target>"
    font = game.main_family.regular
    cache = project.output / ".cache" / "png"
    outputs = []
    if options.png:
        outputs += previews.card_pngs(faces, folder, options.dpi, font, cache, f"png{suffix}",
                                      previews.counting(progress,
                                                        _("{game_id}: rasterising card faces",
                                                          game_id=game.id)))
    if options.proof:
        outputs += previews.proof_sheets(faces, folder, font, stem=stem, backs=options.proof_backs)
    if options.tts:
        outputs += previews.tabletop_simulator(faces, folder, font, cache, f"tts{suffix}", stem)
    prune(cache, set(), since=started - 1)  # (every picture this build made or read kept)
    return outputs
