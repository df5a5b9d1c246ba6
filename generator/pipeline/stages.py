"""The stages a run goes through, up to laid-out faces: a game checked (load -> resolve ->
validate, and the rulebook's and statistics' checks that branch off there) and laid out,
each stage adding its problems to one report; what a run asks for (BuildOptions) and what
happened (Outcome); the output folder and its lock."""

from __future__ import annotations

import contextlib
import gc
from dataclasses import dataclass, field
from pathlib import Path

from .. import fonts
from ..layout import GameFaces, layout_game
from ..layout.memo import FaceMemo
from ..load import Project, load_game, target_names
from ..model import Game
from ..problems import Report
from ..units import DEFAULT_DPI
from ..resolve import resolve_game
from ..validate import validate
from ..write import one_build_at_a_time
from ..i18n import _, shown


@dataclass(frozen=True)
class BuildOptions:
    strict: bool = False  # warnings fail the build
    guides: bool = False  # draw trim, bleed, safe lines and element boxes
    start_slot: int = 0  # the first sheet starts at this slot (a partly used sheet)
    printer: str | None = None  # a printer offset profile from layouts/printers.yaml
    cards_pdf: bool = False  # also write one card per page, with bleed
    png: bool = False  # one PNG per card face
    dpi: int = DEFAULT_DPI
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
    stopped: bool = False  # its errors stopped the checks before the layouts, checks, rulebook

    def summary(self) -> str:
        """The report's counts, and, where the errors stopped the checks early, that more
        may be found once they are fixed (what comes after was not looked at)."""
        if not self.stopped:
            return self.report.summary()
        return shown(_("{summary} (its layouts, checks and rulebook are checked once these "
                       "are fixed)", summary=self.report.summary()))

    def failed(self, strict: bool) -> bool:
        return self.report.failed(strict) or self.game is None

    @property
    def checked(self) -> Game:
        """The game, for what runs after its checks passed (and never otherwise)."""
        if self.game is None:
            raise ValueError(f"game '{self.game_id}' has not passed its checks")
        return self.game


def check(project: Project, game_id: str, target: str | None = None) -> Outcome:
    """Load, resolve and validate one game, as print target `target` sees it."""
    outcome = Outcome(game_id)
    report = outcome.report
    loaded = load_game(project, game_id, report, target)
    if loaded is None or loaded.fatal(report):  # bad values inside cards go on, tainted
        outcome.stopped = bool(report.errors)
        return outcome
    game = resolve_game(loaded, report, project.display(loaded.folder))
    if game is None or loaded.fatal(report):
        outcome.stopped = bool(report.errors)
        return outcome
    validate(game, report)
    if game.stats.declared:  # statistics branch off here: what game.yaml asks of them
        from .. import stats
        stats.check(game, report)
    if game.rulebook is not None:  # the rulebook branches off here
        from .. import rulebook  # markdown-it and pikepdf: loaded only for games with a rulebook
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
    merged.stopped = any(o.stopped for _, o in outcomes)
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
                mine.problems.append(p if p.target is not None else replace(  # names it itself
                    p, message=_("target '{target}': {message}", target=name,
                                 message=p.message), target=name))
            elif p not in told:
                told.add(p)
                mine.problems.append(p)
        mine.tainted, mine.skipped = report.tainted, report.skipped
        out.append(mine)
    return out


def lay_out(outcome: Outcome, guides: bool = False, keep: bool = True,
            placements: dict | None = None, partial: bool = False,
            memo: FaceMemo | None = None) -> GameFaces | None:
    """Measure every face; render checks (fit, glyphs, images) join the same report.
    Without `keep`, only the problems are wanted: faces are not kept; `placements` receives
    what each element drew (layout_game). With errors, None: nothing is written from them;
    with `partial` (the preview), the faces all the same, what laid out to show. `memo`
    (serve, watch) reuses the faces of an earlier build whose inputs are unchanged."""
    if outcome.game is None:
        return None
    faces = layout_game(outcome.game, outcome.report, guides, placements, keep, memo)
    outcome.report.skipped_note(outcome.game.loc)
    return None if outcome.report.errors and not partial else faces


def statistics(outcome: Outcome, decks: tuple[str, ...] | None = None):
    """The statistics (stats.Stats) of a game that passed its checks (of only `decks`)."""
    from .. import stats
    return stats.compute(outcome.checked, decks)


def output_folder(project: Project, game_id: str) -> Path:
    return project.output / game_id


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


def writing(project: Project, game_id: str, progress):
    """The game's output lock (write.one_build_at_a_time), held while a set is written; it
    lies beside the PNG cache, not among the game's files."""
    lock = project.output / ".cache" / f"{game_id}.lock"
    return one_build_at_a_time(lock, lambda: progress(shown(_(
        "{game_id}: waiting for another build of it to finish writing", game_id=game_id))))
