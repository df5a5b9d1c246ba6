"""The one-way pipeline: load -> resolve -> validate -> lay out -> impose -> write.

Each stage adds its problems to one report; the pipeline stops at the end of the
first stage that reported an error, so the user sees every problem of that
stage at once and nothing is written for a game with errors.
"""

from __future__ import annotations

import contextlib
import gc
import io
from dataclasses import dataclass, field
from pathlib import Path

from . import fonts
from .impose import Imposition, Page, backs_off_paper, impose_board, impose_game, single_face
from .layout import GameFaces, layout_game
from .load import Project, load_game, load_printer, target_names
from .model import Game
from .problems import Report, UsageError
from .resolve import resolve_game
from .units import to_mm
from .validate import validate
from .write import (BytesFile, PdfOutput, TextFile, meeting_paths, one_build_at_a_time,
                    write_files)
from .write import ledger
from .write.guide import print_guide
from .write.pdf import PdfFile
from .i18n import _, _n, shown


@dataclass(frozen=True)
class BuildOptions:
    strict: bool = False  # warnings fail the build
    guides: bool = False  # draw trim, bleed, safe lines and element boxes
    start_slot: int = 0  # the first sheet starts at this slot (a partly used sheet)
    printer: str | None = None  # a printer offset profile from layouts/printers.yaml
    cards_pdf: bool = False  # also write one card per page, with bleed
    png: bool = False  # one PNG per card face
    dpi: int = 300
    proof: bool = False  # proof sheets: every distinct card once, as PNG pages
    # and each card's back beside its front: the command line's `--proof backs`
    proof_backs: bool = field(default=False, metadata={"flag": ("--proof", "backs")})
    tts: bool = False  # a Tabletop Simulator deck
    stats: bool = False  # <game>-stats.pdf: the decks' statistics as charts, and the odds
    # An errata set: only these cards, as (id, copies to print) pairs, and no rulebook or
    # boards; `errata` is what its print guide says changed, in words.
    only: tuple[tuple[str, int], ...] | None = None
    errata: tuple[str, ...] = ()
    # An errata set's rulebook and boards (diff, printed.py): the rulebook's pages whose
    # content changed, the booklet sheets carrying every page that prints differently, and
    # each board's pages that print differently, as (board id, pages), all 1-based.
    rulebook_pages: tuple[int, ...] = ()
    booklet_sheets: tuple[int, ...] = ()
    board_pages: tuple[tuple[str, tuple[int, ...]], ...] = ()
    rulebook_pdf: bytes = b""  # the new rulebook as the diff typeset it (not typeset again)
    # A print target of the game (`targets:` in game.yaml), or None for the game as written.
    target: str | None = None


@dataclass
class Outcome:
    """What happened to one game."""

    game_id: str
    report: Report = field(default_factory=Report)
    game: Game | None = None
    rulebook_markdown: str | None = None  # the rulebook template, rendered
    written: list[tuple[Path, int]] = field(default_factory=list)  # (file, pages; 0 for text)
    removed: list[Path] = field(default_factory=list)  # an earlier build's, not made by this one
    held: bool = False  # not written: another output of the same build takes one of its paths

    def failed(self, strict: bool) -> bool:
        return self.report.failed(strict) or self.game is None


def check(project: Project, game_id: str, target: str | None = None) -> Outcome:
    """Load, resolve and validate one game, as print target `target` sees it."""
    outcome = Outcome(game_id)
    report = outcome.report
    loaded = load_game(project, game_id, report, target)
    if loaded is None or loaded.fatal(report):  # bad values inside cards go on, tainted
        return outcome
    game = resolve_game(loaded, report, project.display(loaded.folder))
    if game is None or loaded.fatal(report):
        return outcome
    validate(game, report)
    if game.stats.declared:  # statistics branch off here: what game.yaml asks of them
        from . import stats
        stats.check(game, report)
    if game.rulebook is not None:  # the rulebook branches off here
        from . import rulebook  # markdown-it and pikepdf: loaded only for games with a rulebook
        outcome.rulebook_markdown = rulebook.check(game, report)
    outcome.game = game
    return outcome


def validate_targets(project: Project, game_id: str, target: str | None = None) -> Outcome:
    """Check and lay out a game as every print target sees it (or only `target`), into one
    report: a problem every target has is said once; one that only some targets have
    (text that fits one card size and not another) names its target."""
    fonts.keep_metrics_in(project.output / ".cache" / "fonts")  # what builds kept: read only
    names = (target,) if target else (target_names(project, game_id) or (None,))
    outcomes = []
    for name in names:
        outcome = check(project, game_id, name)
        lay_out(outcome, keep=False)
        outcomes.append((name, outcome))
    if len(outcomes) == 1:
        return outcomes[0][1]
    merged = Outcome(game_id)
    for mine in said_once([(name, outcome.report) for name, outcome in outcomes]):
        merged.report.extend(mine)
    merged.game = outcomes[0][1].game if all(o.game for _, o in outcomes) else None
    return merged


def said_once(reports: list[tuple[str | None, Report]]) -> list[Report]:
    """The reports of a game's print targets, as they are told: what every target found is
    said once, in the first; the rest names the target that found it (a target that stopped
    early, at a missing layout, found less: the others name theirs)."""
    from dataclasses import replace
    if len(reports) == 1:
        return [reports[0][1]]
    everywhere = set.intersection(*(set(r.problems) for _, r in reports))
    told, out = set(), []
    for name, report in reports:
        mine = Report()
        for p in report.problems:
            if p not in everywhere:
                named = p.message.startswith(("target '", "targets '"))  # names them itself
                mine.problems.append(p if named else replace(p, message=_(
                    "target '{target}': {message}", target=name, message=p.message)))
            elif p not in told:
                told.add(p)
                mine.problems.append(p)
        mine.tainted, mine.skipped = report.tainted, report.skipped
        out.append(mine)
    return out


def lay_out(outcome: Outcome, guides: bool = False, keep: bool = True,
            placements: dict | None = None, partial: bool = False) -> GameFaces | None:
    """Measure every face; render checks (fit, glyphs, images) join the same report.
    Without `keep`, only the problems are wanted: faces are not kept; `placements` receives
    what each element drew (layout_game). With errors, None: nothing is written from them;
    with `partial` (the preview), the faces all the same, what laid out to show."""
    if outcome.game is None:
        return None
    faces = layout_game(outcome.game, outcome.report, guides, placements, keep)
    outcome.report.skipped_note(outcome.game.loc)
    return None if outcome.report.errors and not partial else faces


def statistics(outcome: Outcome, decks: tuple[str, ...] | None = None):
    """The statistics (stats.Stats) of a game that passed its checks (of only `decks`)."""
    from . import stats
    return stats.compute(outcome.game, decks)


def output_folder(project: Project, game_id: str) -> Path:
    return project.output / game_id


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
    from dataclasses import replace
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
    outputs = [
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
        pages = impose_board(board_face, font)
        outputs.append(PdfOutput(folder / f"{game.id}-board-{board.id}.pdf", PdfFile(
            pages, f"{title}: board {board.title}",
            "board map" + (f", {len(pages)} pages to assemble" if len(pages) > 1 else ""),
            font, duplex)))
    outputs.append(TextFile(folder / f"{stem}-print-guide.txt",
                            print_guide(game, imposition, names, printer, options.start_slot,
                                        options.errata)))
    return outputs


def rulebook_outputs(project: Project, outcome: Outcome, faces: GameFaces) -> list:
    game = outcome.game
    if game.rulebook is None or outcome.rulebook_markdown is None:
        return []
    from . import rulebook
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
    from .layout import layout_game
    from .problems import Report
    changed_book = (options.rulebook_pages or options.booklet_sheets) and \
        game.rulebook is not None and outcome.rulebook_markdown is not None
    faces = layout_game(game, Report()) \
        if options.board_pages or (changed_book and not options.rulebook_pdf) else None
    folder, stem = output_folder(project, game.id), f"{game.stem}-errata"
    title, font = game.display_title, game.main_family.regular
    out: list = []
    if changed_book:
        from . import rulebook
        from .rulebook.booklet import some_pages
        if options.rulebook_pdf:  # as the diff typeset it, from this very version
            import pikepdf
            with pikepdf.open(io.BytesIO(options.rulebook_pdf)) as pdf:
                count = len(pdf.pages)
            book = rulebook.bound(game.rulebook, options.rulebook_pdf, count)
        else:
            book = rulebook.build(game, faces, outcome.rulebook_markdown)
        out += [BytesFile(folder / f"{game.id}-rulebook.pdf", book.pdf, book.pages),
                BytesFile(folder / f"{game.id}-rulebook-booklet.pdf", book.booklet, book.sides)]
        pages = [p - 1 for p in options.rulebook_pages if 0 < p <= book.pages]
        if pages:
            out.append(BytesFile(folder / f"{stem}-rulebook.pdf", some_pages(
                book.pdf, pages, f"{game.rulebook.title}: errata pages"), len(pages)))
        sides = [i for s in options.booklet_sheets for i in (2 * s - 2, 2 * s - 1)
                 if 0 <= i < book.sides]
        if sides:
            out.append(BytesFile(folder / f"{stem}-rulebook-booklet.pdf", some_pages(
                book.booklet, sides, f"{game.rulebook.title}: errata booklet sheets",
                duplex=True), len(sides)))
    wanted = dict(options.board_pages)
    for board_face in faces.boards if faces is not None else ():
        pages = wanted.get(board_face.board.id)
        if not pages:
            continue
        every = impose_board(board_face, font)
        chosen = tuple(every[p - 1] for p in pages if 0 < p <= len(every))
        out.append(PdfOutput(folder / f"{stem}-board-{board_face.board.id}.pdf", PdfFile(
            chosen, f"{title}: board {board_face.board.title}, errata pages",
            f"pages {', '.join(map(str, pages))} of {len(every)} of the board", font)))
    return out


def stats_outputs(project: Project, outcome: Outcome, options: BuildOptions) -> list:
    """<game>-stats.pdf, when asked for: once per game (print targets count alike)."""
    game = outcome.game
    if not options.stats or options.only is not None or not game.first_target:
        return []
    from .write.stats import stats_pdf  # reportlab's charts only when statistics are wanted
    data, pages = stats_pdf(game, statistics(outcome))
    return [BytesFile(output_folder(project, game.id) / f"{game.id}-stats.pdf", data, pages)]


def preview_outputs(project: Project, faces: GameFaces, options: BuildOptions,
                    progress=lambda message: None) -> list:
    """PNG card faces, proof sheets and a Tabletop Simulator deck, when asked for. A target
    of a game with several writes its own (png-<target>/, tts-<target>/, <stem>-proof...)."""
    if not (options.png or options.proof or options.tts):
        return []
    from .write import previews  # Pillow and pypdfium2 only when previews are wanted
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
    return outputs


@contextlib.contextmanager
def cycle_collector_paused():
    """A build allocates about a hundred objects per card and keeps most of them to the end;
    reference counting frees the rest. Python's cycle collector would walk all of them again
    and again as they pile up (a quarter of the time of a 10,000-card build, for nothing
    to collect), so it waits until the build is over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build(project: Project, game_id: str, options: BuildOptions = BuildOptions(),
          progress=lambda message: None) -> Outcome:
    """Check, lay out, impose and write one game (as options.target sees it). Nothing is
    written if any check fails. `progress` hears what is being done, for a terminal."""
    return build_targets(project, game_id, [options], progress)[0]


def build_targets(project: Project, game_id: str, options: list[BuildOptions],
                  progress=lambda message: None) -> list[Outcome]:
    """Build one game once for each of `options` (its print targets): every file of every
    target is planned before any is written, and two that would get the same path are an
    error naming both (nothing is written then); each target's set is then written whole."""
    fonts.keep_metrics_in(project.output / ".cache" / "fonts", write=True)
    with cycle_collector_paused():
        planned = [_build(project, game_id, o, progress) for o in options]
        if _collisions(project, planned):
            return [outcome for outcome, _ in planned]
        dropped = _dropped(project, game_id, options)
        for (outcome, outputs), run in zip(planned, options):
            if outputs is None:
                continue
            progress(shown(_n("{game_id}: writing {n} file", "{game_id}: writing {n} files",
                              len(outputs), game_id=game_id)))
            with writing(project, game_id, progress):
                write_files(outputs, project.output)
                outcome.removed = ledger.settle(output_folder(project, game_id),
                                                _ledger_key(run), _owned(run, outputs), dropped)
            outcome.written = [(o.path, len(o.document.pages) if isinstance(o, PdfOutput) else
                                getattr(o, "pages", 0)) for o in outputs]
    return [outcome for outcome, _ in planned]


def _ledger_key(options: BuildOptions) -> str:
    return ledger.key(options.target, options.only is not None)


def _owned(options: BuildOptions, outputs: list) -> list[Path]:
    return ledger.owned([o.path for o in outputs], options.only is not None)


def _dropped(project: Project, game_id: str, options: list[BuildOptions]):
    return ledger.retired(target_names(project, game_id),
                          [(o.target, o.only is not None) for o in options])


def forget_errata(project: Project, game_id: str, target: str | None) -> list[Path]:
    """An errata run that has nothing to reprint: the errata set an earlier run wrote is no
    longer what changed, so it goes (write/ledger.py). Returns the files removed."""
    with writing(project, game_id, lambda message: None):
        return ledger.settle(output_folder(project, game_id), ledger.key(target, True), [])


def _collisions(project: Project, planned: list) -> bool:
    """Whether two outputs of one build would take one path (write.meeting_paths reports
    them); every outcome of the build is held then (outcome.held): nothing is written."""
    sets = []
    for outcome, outputs in planned:
        game = outcome.game
        who = _("target '{target}'", target=game.target) if game is not None and game.target \
            else _("the game")
        where = (game.target_loc or game.loc) if game is not None else None
        sets.append((who, outcome.report, where, outputs or ()))
    if not meeting_paths(sets, project.display):
        return False
    for outcome, _outputs in planned:
        outcome.held = True
    return True


def _backs_on_paper(outcome: Outcome, printer) -> bool:
    """A printer's offset that would move a sheet's backs past the paper's edge (a card's
    back cut off) is an error at the offset, naming the sheet."""
    sheets = {d.sheet.id: d.sheet for d in outcome.game.decks if d.sheet is not None}
    fine = True
    for sheet in sheets.values():
        past = backs_off_paper(sheet, printer.offset)
        if past > 0.01:
            dx, dy = printer.offset
            outcome.report.error(
                _("printer '{printer_name}': offset {dx:g} x {dy:g} mm moves the backs on sheet "
                  "preset '{sheet_id}' {past:.1f} mm past the paper's edge (their cards sit "
                  "too near it for so large a shift): measure the offset again with 'cardgen "
                  "calibrate', or print on a sheet with wider margins",
                      printer_name=printer.name, dx=to_mm(dx), dy=to_mm(dy), sheet_id=sheet.id,
                      past=to_mm(past)),
                printer.where, "units")
            fine = False
    return fine


def _build(project: Project, game_id: str, options: BuildOptions,
           progress) -> tuple[Outcome, list | None]:
    """The outcome of checking, laying out and imposing a game, and the files it would
    write (None when it failed)."""
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id, options.target)
    if outcome.failed(options.strict):
        lay_out(outcome, keep=False)  # the faces' own problems too: all that validate reports
        return outcome, None
    printer = None
    if options.printer:
        printer = load_printer(project, options.printer, outcome.report)
        if printer is None or not _backs_on_paper(outcome, printer):
            return outcome, None
    first = outcome.game.decks[0].sheet if outcome.game.decks else None
    if first is not None and not 0 <= options.start_slot < first.per_sheet:
        raise UsageError(_("--start-slot {n}: sheet '{first_id}' has slots 1 to {first_per_sheet}",
                           n=options.start_slot + 1, first_id=first.id,
                           first_per_sheet=first.per_sheet))
    full_game = outcome.game
    if options.only is not None:  # an errata set: the changed cards, their backs, a guide
        outcome.game = errata_game(outcome.game, options.only)
    cards = sum(d.total for d in outcome.game.decks)
    progress(shown(_n("{game_id}: laying out {n} card", "{game_id}: laying out {n} cards", cards,
                      game_id=game_id)))
    faces = lay_out(outcome, options.guides)
    if faces is None or outcome.failed(options.strict):
        return outcome, None
    progress(shown(_("{game_id}: drawing sheets", game_id=game_id)))
    imposition = impose_game(faces, options.start_slot, printer.offset if printer else (0.0, 0.0))
    outputs = game_outputs(project, faces, imposition, options, printer,
                           "errata" if options.only is not None else "")
    if outcome.game.rulebook is not None and options.only is None and \
            outcome.game.first_target:
        progress(shown(_("{game_id}: typesetting the rulebook", game_id=game_id)))
    outputs += rulebook_outputs(project, outcome, faces) \
        if options.only is None and outcome.game.first_target else []
    if options.only is not None and full_game.first_target:
        outputs += errata_printed(project, outcome, full_game, options)
    if options.stats:
        progress(shown(_("{game_id}: drawing statistics", game_id=game_id)))
    outputs += stats_outputs(project, outcome, options)
    if options.png or options.proof or options.tts:
        progress(shown(_("{game_id}: rasterising previews", game_id=game_id)))
    outputs += preview_outputs(project, faces, options, progress)
    return outcome, outputs


def writing(project: Project, game_id: str, progress):
    """The game's output lock (write.one_build_at_a_time), held while a set is written; it
    lies beside the PNG cache, not among the game's files."""
    lock = project.output / ".cache" / f"{game_id}.lock"
    return one_build_at_a_time(lock, lambda: progress(shown(_(
        "{game_id}: waiting for another build of it to finish writing", game_id=game_id))))


def export(project: Project, game_id: str, profile_name: str, icc: Path | None = None,
           target: str | None = None, strict: bool = False,
           progress=lambda message: None,
           decks: tuple[str, ...] | None = None) -> tuple[Outcome, Path | None]:
    """Export one game for a print shop (export/): the files and their manifest, written
    together into output/<game>/export-<profile>[-<target>]/, or nothing if a check fails.
    `decks`: only these (`--decks`); otherwise every deck the profile can take (a deck it
    cannot is a warning, and left out). Returns the outcome and the folder written."""
    fonts.keep_metrics_in(project.output / ".cache" / "fonts", write=True)
    with cycle_collector_paused():
        return _export(project, game_id, profile_name, icc, target, strict, progress, decks)


def _only_decks(game: Game, ids) -> Game:
    """The game as an export of some of its decks sees it: those decks, and the boards of
    cells alone or of their tiles."""
    from dataclasses import replace
    return replace(game, decks=tuple(d for d in game.decks if d.id in ids),
                   boards=tuple(b for b in game.boards if b.deck is None or b.deck in ids))


def _export(project, game_id, profile_name, icc, target, strict, progress, decks=None):
    from . import export
    from .load import load_export
    from .resolve.exports import resolve_export
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id, target)
    report = outcome.report
    before = len(report.errors)
    doc = load_export(project, profile_name, report)
    profile = None
    if doc is not None and len(report.errors) == before:  # the profile's own problems too
        profile = resolve_export(profile_name, doc, project.root, project.display, report, icc)
    if outcome.game is not None and decks is not None:
        known = [d.id for d in outcome.game.decks]
        unknown = [d for d in decks if d not in known]
        if unknown:
            raise UsageError(_("--decks: {game_id} has no deck '{unknown}' (decks: {join})",
                               game_id=game_id, unknown=unknown[0], join=', '.join(known)))
        outcome.game = _only_decks(outcome.game, decks)
    if profile is None or outcome.failed(strict):
        lay_out(outcome, keep=False)  # the faces' own problems too, as build reports them
        return outcome, None
    bleeds = export.deck_bleeds(outcome.game, profile, report)
    if not bleeds or outcome.failed(strict):
        if not bleeds and not report.errors:
            report.error(_("export profile '{profile_name}' can take none of the decks exported "
                           "({join}): nothing to export",
                               profile_name=profile_name,
                               join=', '.join((d.id for d in outcome.game.decks))),
                         outcome.game.loc, "export")
        return outcome, None
    if len(bleeds) < len(outcome.game.decks):  # the decks it cannot take were said, and go
        outcome.game = _only_decks(outcome.game, bleeds)
    outcome.game = export.with_bleed(outcome.game, bleeds, profile.boards)
    progress(shown(_("{game_id}: laying out for '{profile_name}'", game_id=game_id,
                     profile_name=profile_name)))
    placements: dict = {}
    faces = lay_out(outcome, placements=placements)
    if faces is None:
        return outcome, None
    convert = export.converter(profile, project.output / ".cache" / "cmyk")
    export.check_faces(outcome.game, placements, profile, bleeds, report, convert)
    export.check_boards(faces.boards, profile, report, convert)
    if outcome.failed(strict):
        return outcome, None
    game = outcome.game
    folder = output_folder(project, game.id) / f"export-{profile_name}{game.stem[len(game.id):]}"
    progress(shown(_("{game_id}: writing and reading back '{profile_name}' files", game_id=game_id,
                     profile_name=profile_name)))
    book = None
    if profile.rulebook == "single-pages" and game.rulebook is not None and \
            outcome.rulebook_markdown is not None and game.first_target:
        progress(shown(_("{game_id}: typesetting the rulebook for '{profile_name}'",
                         game_id=game_id, profile_name=profile_name)))
        from . import rulebook
        book = rulebook.build(game, faces, outcome.rulebook_markdown).pdf
    outputs = export.export_files(faces, profile, folder, convert, report, project.display,
                                  book)
    if report.errors or outcome.failed(strict):  # (the rulebook's ink is measured as it is made)
        return outcome, None
    with writing(project, game_id, progress):
        write_files(outputs, project.output)
        keep = {o.path.name for o in outputs}
        for stale in folder.iterdir():  # an earlier export's faces that are gone now
            if stale.is_file() and stale.name not in keep and not stale.name.startswith(".") \
                    and stale.suffix in (".pdf", ".png", ".csv", ".json"):
                with contextlib.suppress(OSError):  # (the new set is written either way)
                    stale.unlink()
    outcome.written = [(o.path, o.pages) for o in outputs]
    return outcome, folder


def showcase(project: Project, game_id: str, request_for, progress=lambda message: None) -> Outcome:
    """Presentation pictures of chosen cards (write/showcase.py), from the faces a build lays
    out; written whole, or nothing when the game has errors. `request_for(game)` gives what
    to show (a UsageError for cards the game lacks)."""
    from .write import showcase as pictures  # Pillow's arranging only when pictures are asked
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id)
    request = request_for(outcome.game) if outcome.game is not None else None
    faces = None if outcome.failed(False) else lay_out(outcome)
    if faces is None:
        return outcome
    progress(shown(_("{game_id}: drawing the showcase", game_id=game_id)))
    outputs = pictures.outputs(faces, request, output_folder(project, game_id),
                               project.output / ".cache" / "png")
    with writing(project, game_id, progress):
        write_files(outputs, project.output)
    outcome.written = [(o.path, 0) for o in outputs]
    return outcome

