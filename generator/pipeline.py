"""The one-way pipeline: load -> resolve -> validate -> lay out -> render -> impose -> write.

Each stage adds its problems to one report; the pipeline stops at the end of the
first stage that reported an error, so the user sees every problem of that
stage at once and nothing is written for a game with errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .impose import Imposition, impose_game
from .layout import GameFaces, layout_game
from .load import Project, load_game
from .model import Game
from .problems import Report
from .resolve import resolve_game
from .validate import validate
from .write import PdfFile, write_files


@dataclass
class Outcome:
    """What happened to one game."""

    game_id: str
    report: Report = field(default_factory=Report)
    game: Game | None = None
    written: list[tuple[Path, int]] = field(default_factory=list)  # (file, pages)

    def failed(self, strict: bool) -> bool:
        return self.report.failed(strict) or self.game is None


def check(project: Project, game_id: str) -> Outcome:
    """Load, resolve and validate one game."""
    outcome = Outcome(game_id)
    report = outcome.report
    loaded = load_game(project, game_id, report)
    if loaded is None or report.errors:
        return outcome
    game = resolve_game(loaded, report, project.display(loaded.folder))
    if game is None or report.errors:
        return outcome
    validate(game, report)
    outcome.game = game
    return outcome


def lay_out(outcome: Outcome, guides: bool = False) -> GameFaces | None:
    """Measure every face; render checks (fit, glyphs, images) join the same report."""
    if outcome.game is None:
        return None
    faces = layout_game(outcome.game, outcome.report, guides)
    return None if outcome.report.errors else faces


def output_folder(project: Project, game_id: str) -> Path:
    return project.output / game_id


def card_files(project: Project, faces: GameFaces, imposition: Imposition) -> list[PdfFile]:
    game = faces.game
    folder = output_folder(project, game.id)
    font = game.fonts["gothic"].regular
    duplex = game.decks[0].sheet.duplex if game.decks else "long-edge"
    title = f"{game.title} ({game.title_en})" if game.title_en else game.title
    return [
        PdfFile(folder / f"{game.id}-fronts.pdf", imposition.fronts, f"{title}: card fronts",
                "card fronts", font, duplex),
        PdfFile(folder / f"{game.id}-backs.pdf", imposition.backs, f"{title}: card backs",
                "card backs: back page k is printed on the reverse of front page k", font, duplex),
    ]


def build(project: Project, game_id: str, strict: bool = False, guides: bool = False) -> Outcome:
    """Check, lay out and write one game. Nothing is written if any check fails."""
    outcome = check(project, game_id)
    if outcome.failed(strict):
        return outcome
    faces = lay_out(outcome, guides)
    if faces is None or outcome.failed(strict):
        return outcome
    imposition = impose_game(faces)
    files = card_files(project, faces, imposition)
    write_files(files)
    outcome.written = [(f.path, len(f.pages)) for f in files]
    return outcome
