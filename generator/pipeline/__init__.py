"""The one-way pipeline: load -> resolve -> validate -> lay out -> impose -> write.

Each stage adds its problems to one report; the pipeline stops at the end of the
first stage that reported an error, so the user sees every problem of that
stage at once and nothing is written for a game with errors.

This package runs the stages (stages.py: check and lay out; outputs.py: the files a
build plans; exports.py: `cardgen export`) and, here, builds: every file of every print
target planned, then written whole.
"""

from __future__ import annotations

import time

from pathlib import Path

from .. import fonts
from ..impose import backs_off_paper, impose_game
from ..layout.memo import FaceMemo
from ..load import Project, load_printer, target_names
from ..problems import UsageError
from ..units import to_mm
from ..write import PdfOutput, meeting_paths, write_files
from ..write import ledger
from ..i18n import _, _n, shown
from .exports import export
from .outputs import (errata_game, errata_printed, game_outputs, guides_outputs,
                      preview_outputs, rulebook_outputs, stats_outputs)
from .stages import (BuildOptions, Outcome, check, cycle_collector_paused, lay_out,
                     output_folder, said_once, statistics, validate_targets, writing)

__all__ = ["BuildOptions", "Outcome", "build", "build_targets", "check", "cycle_collector_paused",
           "export", "forget_errata", "lay_out", "output_folder", "said_once", "showcase",
           "statistics", "target_names", "validate_targets", "writing"]


def build(project: Project, game_id: str, options: BuildOptions = BuildOptions(),
          progress=lambda message: None, memo: FaceMemo | None = None) -> Outcome:
    """Check, lay out, impose and write one game (as options.target sees it). Nothing is
    written if any check fails. `progress` hears what is being done, for a terminal;
    `memo` (watch) lays out again only the faces whose inputs changed."""
    return build_targets(project, game_id, [options], progress, memo)[0]


def build_targets(project: Project, game_id: str, options: list[BuildOptions],
                  progress=lambda message: None,
                  memo: FaceMemo | None = None) -> list[Outcome]:
    """Build one game once for each of `options` (its print targets): every file of every
    target is planned before any is written, and two that would get the same path are an
    error naming both (nothing is written then); each target's set is then written whole."""
    fonts.keep_metrics_in(project.output / ".cache" / "fonts", write=True)
    with cycle_collector_paused():
        planned = [_build(project, game_id, o, progress, memo if len(options) == 1 else None)
                   for o in options]
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
        target = game.target if game is not None and game.target else None
        who = _("target '{target}'", target=target) if target else _("the game")
        where = (game.target_loc or game.loc) if game is not None else None
        sets.append((who, outcome.report, where, outputs or (), target))
    if not meeting_paths(sets, project.display):
        return False
    for outcome, _outputs in planned:
        outcome.held = True
    return True


def _backs_on_paper(outcome: Outcome, printer) -> bool:
    """A printer's offset that would move a sheet's backs past the paper's edge (a card's
    back cut off) is an error at the offset, naming the sheet."""
    sheets = {d.sheet.id: d.sheet for d in outcome.checked.decks if d.sheet is not None}
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
           progress, memo: FaceMemo | None = None) -> tuple[Outcome, list | None]:
    """The outcome of checking, laying out and imposing a game, and the files it would
    write (None when it failed)."""
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id, options.target)
    game = outcome.game
    if outcome.failed(options.strict) or game is None:
        lay_out(outcome, keep=False)  # the faces' own problems too: all that validate reports
        return outcome, None
    printer = None
    if options.printer:
        printer = load_printer(project, options.printer, outcome.report)
        if printer is None or not _backs_on_paper(outcome, printer):
            return outcome, None
    first = game.decks[0].sheet if game.decks else None
    if first is not None and not 0 <= options.start_slot < first.per_sheet:
        raise UsageError(_("--start-slot {n}: sheet '{first_id}' has slots 1 to {first_per_sheet}",
                           n=options.start_slot + 1, first_id=first.id,
                           first_per_sheet=first.per_sheet))
    full_game = game
    if options.only is not None:  # an errata set: the changed cards, their backs, a guide
        game = outcome.game = errata_game(game, options.only)
    cards = sum(d.total for d in game.decks)
    progress(shown(_n("{game_id}: laying out {n} card", "{game_id}: laying out {n} cards", cards,
                      game_id=game_id)))
    faces = lay_out(outcome, memo=memo if options.only is None else None)
    if faces is None or outcome.failed(options.strict):
        return outcome, None
    progress(shown(_("{game_id}: drawing sheets", game_id=game_id)))
    imposition = impose_game(faces, options.start_slot, printer.offset if printer else (0.0, 0.0))
    outputs = game_outputs(project, faces, imposition, options, printer,
                           "errata" if options.only is not None else "")
    if options.guides:
        outputs += guides_outputs(project, faces, options, printer,
                                  "errata" if options.only is not None else "")
    if game.rulebook is not None and options.only is None and \
            game.first_target:
        progress(shown(_("{game_id}: typesetting the rulebook", game_id=game_id)))
    outputs += rulebook_outputs(project, outcome, faces) \
        if options.only is None and game.first_target else []
    if options.only is not None and full_game.first_target:
        outputs += errata_printed(project, outcome, full_game, options)
    if options.stats:
        progress(shown(_("{game_id}: drawing statistics", game_id=game_id)))
    outputs += stats_outputs(project, outcome, options)
    if options.png or options.proof or options.tts:
        progress(shown(_("{game_id}: rasterising previews", game_id=game_id)))
    outputs += preview_outputs(project, faces, options, progress)
    return outcome, outputs


def showcase(project: Project, game_id: str, request_for, progress=lambda message: None) -> Outcome:
    """Presentation pictures of chosen cards (write/showcase.py), from the faces a build lays
    out; written whole, or nothing when the game has errors. `request_for(game)` gives what
    to show (a UsageError for cards the game lacks)."""
    from ..write import showcase as pictures  # Pillow's arranging only when pictures are asked
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id)
    request = request_for(outcome.game) if outcome.game is not None else None
    faces = None if outcome.failed(False) else lay_out(outcome)
    if faces is None or request is None:  # (a request is made for every game checked)
        return outcome
    progress(shown(_("{game_id}: drawing the showcase", game_id=game_id)))
    started = time.time()
    outputs = pictures.outputs(faces, request, output_folder(project, game_id),
                               project.output / ".cache" / "png")
    from ..write.png import prune
    prune(project.output / ".cache" / "png", set(), since=started - 1)  # (what it used kept)
    with writing(project, game_id, progress):
        write_files(outputs, project.output)
    outcome.written = [(o.path, 0) for o in outputs]
    return outcome
