"""The stats stage: what a game's decks hold, counted, and the odds of a draw.

It branches off after validate, as the rulebook does: `check` evaluates what game.yaml's
`stats:` declares (views, colours, tables, odds), so that `cardgen validate` reports every
problem in it, located; `compute` gives the finished statistics that `cardgen stats`,
the stats PDF, the preview page's Stats view, the rulebook's `odds()` and `cardgen diff`
show.

Everything is weighted by copies. A list field counts each of its items (a card of two
affiliations counts once under each). A TBD value is counted apart, as a draft, never as
a value.
"""

from __future__ import annotations

from typing import Any

from ..model import Game
from ..problems import Report
from .counts import _known_fields, _Values, cross_table, distribution
from .kinds import KINDS, Run, checked, in_order
from .questions import _Evaluator
from .results import (DRAFT_COLOR, NONE, PALETTE, Answer, CrossTable, DeckStats, DiceStats,
                      Distribution, Stats, TableStats)
from ..i18n import _

# One module per part: results.py (what the stage gives), counts.py (a deck's values
# counted), questions.py (the pools and odds game.yaml asks about), odds.py (exact draw
# odds), dice.py (exact dice odds); show.py and pictures.py put results into words and
# charts; kinds/ holds one module per kind of statistic (decks, tables, odds, dice), which
# computes it and says it (kinds/__init__.py).
__all__ = ["DRAFT_COLOR", "NONE", "PALETTE", "Answer", "CrossTable", "DeckStats", "DiceStats",
           "Distribution", "Stats", "TableStats", "as_json", "changes", "check", "compute",
           "cross_table", "distribution", "register", "text", "unregister"]

BUILT_IN = ("decks", "tables", "answers", "dice")  # the kinds Stats has a field of its own for


def register(module) -> None:
    """Add a kind of statistic from elsewhere (a test's own): computed, said and shown with
    the others, in its ORDER."""
    KINDS[module.NAME] = checked(module)


def unregister(name: str) -> None:
    KINDS.pop(name, None)


def _rules_name_fields(game: Game, ev: _Evaluator) -> None:
    """Each `colors:` and `labels:` rule names a field some deck has."""
    for kind, rules in (("colors", game.stats.colors), ("labels", game.stats.labels)):
        for name in rules:
            if not any(name in _known_fields(d) or name in [k.split(".")[-1] for k in
                                                            _known_fields(d)] for d in game.decks):
                ev.error(_("{kind} names field '{name}', which no deck has",
                           kind=kind, name=name), ("stats", kind, name))


def _run(game: Game, report: Report | None, decks: tuple[str, ...] | None = None,
         quiet: bool = False) -> Stats:
    ev = _Evaluator(game, report, quiet)
    _rules_name_fields(game, ev)
    run = Run(game, report, decks, ev, _Values(game, ev.values, report, quiet))
    parts = {kind.FIELD: kind.compute(run) for kind in in_order()}
    more = tuple((field, part) for field, part in parts.items() if field not in BUILT_IN)
    return Stats(game.id, game.title, **{f: parts[f] for f in BUILT_IN if f in parts},
                 more=more)


def text(stats: Stats) -> list[str]:
    """What `cardgen stats` prints: each kind's lines, in order."""
    lines: list = [f"{stats.game}: {stats.title}"]
    for kind in in_order():
        lines += kind.words(stats.part(kind.FIELD))
    return lines


def as_json(stats: Stats) -> dict[str, Any]:
    """`cardgen stats --format json`: each kind's part under its NAME."""
    return {"game": stats.game, **{kind.NAME: kind.as_json(stats.part(kind.FIELD))
                                   for kind in in_order()}}


def changes(old: Stats, new: Stats) -> list[str]:
    """What changed in the statistics between two versions of a game, in words: deck sizes,
    counts of values, means of numbers (also per value of a cross-table: "power of 緑: mean
    2.1 -> 2.4"), the totals of declared tables, every answer of the odds, and each roll of
    dice's mean and answers."""
    return [line for kind in in_order()
            for line in kind.changes(old.part(kind.FIELD), new.part(kind.FIELD))]


def check(game: Game, report: Report) -> None:
    """Report every problem in game.yaml's `stats:` (cardgen validate runs this)."""
    if game.stats.declared:
        _compiles(game, report)
        _run(game, report, quiet=bool(report.errors))


def _compiles(game: Game, report: Report) -> None:
    """Every `colors:` and `labels:` expression compiles, whether or not a chart uses it
    (a field with too many values is not drawn as bars: its rule would never run)."""
    import jinja2
    from ..sandbox import SandboxError, expression_problem
    from ..sandbox_env import ENV
    for kind, rules in (("colors", game.stats.colors), ("labels", game.stats.labels)):
        for rule, expression in rules.items():
            try:
                ENV.compile_expression(expression, undefined_to_none=False)
            except jinja2.TemplateSyntaxError as exc:
                report.error(_("stats: {kind}: {rule}: {expression_problem}",
                               kind=kind, rule=rule,
                               expression_problem=expression_problem(expression, exc)),
                             game.stats.locate(("stats", kind, rule)), "stats")
            except SandboxError as exc:
                report.error(_("stats: {kind}: {rule}: {exc}", kind=kind, rule=rule, exc=exc),
                             game.stats.locate(("stats", kind, rule)), "stats")


def compute(game: Game, decks: tuple[str, ...] | None = None) -> Stats:
    """The statistics of a game that passed `check` (of only `decks`, if given)."""
    return _run(game, None, decks)
