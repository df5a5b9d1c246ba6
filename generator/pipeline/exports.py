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


def _export(project: Project, game_id: str, profile_name: str, icc: Path | None,
            target: str | None, strict: bool, progress,
            decks: tuple[str, ...] | None = None) -> tuple[Outcome, Path | None]:
    from .. import export
    progress(shown(_("{game_id}: checking", game_id=game_id)))
    outcome = check(project, game_id, target)
    report = outcome.report
    profile = _profile(project, profile_name, icc, report)
    if outcome.game is not None and decks is not None:
        outcome.game = _chosen_decks(outcome.game, game_id, decks)
    if profile is None or outcome.failed(strict):
        lay_out(outcome, keep=False)  # the faces' own problems too, as build reports them
        return outcome, None
    bleeds = _bleeds(outcome, profile, profile_name, strict)
    if bleeds is None:
        return outcome, None
    progress(shown(_("{game_id}: laying out for '{profile_name}'", game_id=game_id,
                     profile_name=profile_name)))
    placements: dict = {}
    faces = lay_out(outcome, placements=placements)
    if faces is None:
        return outcome, None
    convert = export.converter(profile, project.output / ".cache" / "cmyk")
    game = outcome.checked
    stopping = export.check_faces(game, placements, profile, bleeds, report, convert)
    export.check_boards(faces.boards, profile, report, convert)
    if outcome.failed(strict):
        return outcome, None
    folder = output_folder(project, game.id) / f"export-{profile_name}{game.stem[len(game.id):]}"
    progress(shown(_("{game_id}: writing and reading back '{profile_name}' files", game_id=game_id,
                     profile_name=profile_name)))
    book = _single_pages(outcome, faces, profile, profile_name, progress)
    outputs = export.export_files(faces, profile, folder, convert, report, project.display,
                                  book, stopping)
    if report.errors or outcome.failed(strict):  # (the rulebook's ink is measured as it is made)
        return outcome, None
    with writing(project, game_id, progress):
        write_files(outputs, project.output)
        _remove_stale(folder, outputs)
    outcome.written = [(o.path, o.pages) for o in outputs]
    return outcome, folder


def _profile(project: Project, profile_name: str, icc: Path | None, report):
    """The export profile (layouts/exports/<name>.yaml) resolved, or None when it has
    problems (reported)."""
    from ..load import load_export
    from ..resolve.exports import resolve_export
    before = len(report.errors)
    doc = load_export(project, profile_name, report)
    if doc is None or len(report.errors) != before:  # the profile's own problems too
        return None
    root = project.root_of(f"layouts/exports/{profile_name}.yaml")  # its icc: is named from it
    return resolve_export(profile_name, doc, root, project.display, report, icc)


def _chosen_decks(game: Game, game_id: str, decks: tuple[str, ...]) -> Game:
    """The game as `--decks` chooses it: a deck the game lacks is a usage error."""
    known = [d.id for d in game.decks]
    unknown = [d for d in decks if d not in known]
    if unknown:
        raise UsageError(_("--decks: {game_id} has no deck '{unknown}' (decks: {join})",
                           game_id=game_id, unknown=unknown[0], join=', '.join(known)))
    return _only_decks(game, decks)


def _bleeds(outcome: Outcome, profile, profile_name: str, strict: bool) -> dict | None:
    """The bleed each deck the profile can take is exported with; the outcome's game is
    then those decks with that bleed. None when the profile can take none (an error; not
    for a profile that takes boards and a game with a board of its own cells, which is
    exported alone) or the game failed its checks."""
    from .. import export
    report = outcome.report
    game = outcome.checked
    bleeds = export.deck_bleeds(game, profile, report)
    boards = profile.boards and any(b.deck is None for b in game.boards)  # boards of their own
    if not (bleeds or boards) or outcome.failed(strict):
        if not (bleeds or boards) and not report.errors:
            report.error(_("export profile '{profile_name}' can take none of the decks exported "
                           "({join}): nothing to export",
                               profile_name=profile_name,
                               join=', '.join((d.id for d in game.decks))),
                         game.loc, "export")
        return None
    if len(bleeds) < len(game.decks):  # the decks it cannot take were said, and go
        game = _only_decks(game, bleeds)
    outcome.game = export.with_bleed(game, bleeds, profile.boards)
    return bleeds


def _single_pages(outcome: Outcome, faces, profile, profile_name: str, progress) -> bytes | None:
    """The rulebook typeset for a profile that exports it as single pages, else None; the
    card faces it draws too small to print are warned of (export.check_pictures)."""
    game, markdown = outcome.checked, outcome.rulebook_markdown
    if not (profile.rulebook == "single-pages" and game.rulebook is not None and
            markdown is not None and game.first_target):
        return None
    progress(shown(_("{game_id}: typesetting the rulebook for '{profile_name}'",
                     game_id=game.id, profile_name=profile_name)))
    from .. import export, rulebook
    book = rulebook.build(game, faces, markdown)
    by_side: dict[str, dict] = {"front": {}, "back": {}}
    for deck in faces.decks:
        by_side["front"].update(deck.fronts)
        by_side["back"].update(deck.backs)
    export.check_pictures(book.pictures, by_side, outcome.report,
                          lambda card: rulebook.template_line(game, card))
    return book.pdf


def _remove_stale(folder: Path, outputs: list) -> None:
    """An earlier export's files that this one did not write (faces that are gone now):
    of the kinds an export writes (export.made_by_an_export), not a file of one's own."""
    from ..export import made_by_an_export
    keep = {o.path.name for o in outputs}
    for stale in folder.iterdir():
        if stale.is_file() and stale.name not in keep and not stale.name.startswith(".") \
                and made_by_an_export(stale):
            with contextlib.suppress(OSError):  # (the new set is written either way)
                stale.unlink()
