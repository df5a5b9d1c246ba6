"""`cardgen export`: a game laid out again for a print shop's export profile (its bleed, its
decks), checked against it, and written as one file per face with its manifest (export/)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from .. import fonts
from ..load import Project
from ..model import Game
from ..problems import UsageError
from ..write import write_files
from ..i18n import _, shown
from .stages import Outcome, check, cycle_collector_paused, lay_out, output_folder, writing


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
    from .. import export
    from ..load import load_export
    from ..resolve.exports import resolve_export
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
        from .. import rulebook
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
