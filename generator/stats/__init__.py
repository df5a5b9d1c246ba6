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

from ..model import Game
from ..problems import Report
from .counts import (_cards_distribution, _default_fields, _known_fields, _Values, cross_table,
                     distribution)
from ..validate.invariants import CheckBroken
from . import dice
from .questions import _answers, _deck, _Evaluator, _field_ok, _table
from .results import (DRAFT_COLOR, NONE, PALETTE, Answer, CrossTable, DeckStats, DiceStats,
                      Distribution, Stats, TableStats)
from ..i18n import _

# One module per part: results.py (what the stage gives), counts.py (a deck's values
# counted), questions.py (the pools and odds game.yaml asks about), odds.py (exact draw
# odds), dice.py (exact dice odds); show.py and pictures.py put results into words and charts.
__all__ = ["DRAFT_COLOR", "NONE", "PALETTE", "Answer", "CrossTable", "DeckStats", "DiceStats",
           "Distribution", "Stats", "TableStats", "check", "compute", "cross_table",
           "distribution"]


def _run(game: Game, report: Report | None, decks: tuple[str, ...] | None = None,
         quiet: bool = False) -> Stats:
    ev = _Evaluator(game, report, quiet)
    spec = game.stats
    shown = _Values(game, ev.values, report, quiet)
    for kind, rules in (("colors", spec.colors), ("labels", spec.labels)):  # a rule names a field
        for name in rules:
            if not any(name in _known_fields(d) or name in [k.split(".")[-1] for k in
                                                            _known_fields(d)] for d in game.decks):
                ev.error(_("{kind} names field '{name}', which no deck has",
                           kind=kind, name=name), ("stats", kind, name))
    declared: dict[str, list] = {}
    for view in spec.views:
        deck = _deck(game, view.deck, spec.locate(view.path + ("deck",)), report, "a view")
        if deck is None:
            continue
        if all([_field_ok(deck, f, spec.locate(view.path + ("fields", j)), report, "a view")
                for j, f in enumerate(view.fields)]):
            declared.setdefault(deck.id, []).append(view)
    deck_stats = []
    for deck in game.decks:
        if decks is not None and deck.id not in decks:
            continue
        views = declared.get(deck.id, [])
        if report is not None and any(c.id in report.tainted for c in deck.cards):
            report.skip(len(views))  # its values have errors, reported at their cause:
            views = []  # the views over them wait until those are fixed (one note says so)
        dists, crosses = [], []
        for view in views:
            if len(view.fields) == 1:
                dists.append(distribution(deck, view.fields[0], shown, view.title, True))
            else:
                crosses.append(cross_table(deck, view.fields, shown, view.title))
        asked = {v.fields[0] for v in views if len(v.fields) == 1}
        dists += [distribution(deck, f, shown) for f in _default_fields(deck) if f not in asked]
        copies = _cards_distribution(deck)
        if copies is not None:
            dists.append(copies)
        deck_stats.append(DeckStats(deck.id, deck.name, deck.total, len(deck.cards),
                                    deck.tint,
                                    tuple(dists), tuple(crosses)))
    tables = [t for t in (_table(game, t, ev) for t in spec.tables
                          if decks is None or t.deck in decks) if t is not None]
    answers = [a for q in spec.questions if decks is None or q.deck in decks
               for a in _answers(game, q, ev)]
    taken = {q.id for q in spec.questions}  # odds() in a rulebook finds either by its id
    rolls = []
    for roll in spec.dice if decks is None else ():  # dice belong to no deck
        if roll.id in taken:
            ev.error(_("dice '{roll_name}': '{roll_id}' already names another question or roll; "
                       "give it an id of its own (id:), as odds() and dice() in a rulebook "
                       "find it by",
                           roll_name=roll.name,
                           roll_id=roll.id), roll.path + (("id",) if roll.id != roll.name
                                                         else ("name",)))
            continue
        taken.add(roll.id)
        rolled = _roll(roll, ev)
        if rolled is not None:
            rolls.append(rolled)
    return Stats(game.id, game.title, tuple(deck_stats), tuple(tables), tuple(answers),
                 tuple(rolls))


def _roll(spec, ev: _Evaluator) -> DiceStats | None:
    """A roll's statistics, or None with its problem said at its line in game.yaml."""
    what = f"dice '{spec.name}'"

    def evaluate(text: str, key: str):
        return ev.expression(text, {}, spec.path + (key,), f"{what}: {key}")
    try:
        return dice.roll(spec, evaluate)
    except dice.Unrollable as exc:
        ev.error(_("{what}: {exc}", what=what, exc=exc), spec.path + (exc.key,),
                 evaluated=exc.key == "faces"
                 and isinstance(spec.faces, str))
    except CheckBroken:
        pass  # said where the expression is written
    return None


def check(game: Game, report: Report) -> None:
    """Report every problem in game.yaml's `stats:` (cardgen validate runs this)."""
    if game.stats.declared:
        _compiles(game, report)
        _run(game, report, quiet=bool(report.errors))


def _compiles(game: Game, report: Report) -> None:
    """Every `colors:` and `labels:` expression compiles, whether or not a chart uses it
    (a field with too many values is not drawn as bars: its rule would never run)."""
    import jinja2
    from ..sandbox import ENV, SandboxError, expression_problem
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
