"""decks: what each deck's cards hold, counted (weighted by copies): the views game.yaml's
`stats: views:` declares (one field: a distribution; two: a cross-table), every field that
can be counted without a declaration, and the copies per card where they differ."""

from __future__ import annotations

from typing import Any

from ...declared import STATISTICS
from ...i18n import _, _n, shown
from ..counts import _cards_distribution, _default_fields, cross_table, distribution
from ..pictures import cross_chart, distribution_chart
from ..questions import _deck, _field_ok
from ..results import DeckStats
from ..show import _deck_changes, _dist, _in, cross_lines, cross_rows, distribution_line
from .base import Run

NAME = "decks"
ORDER = 10
FIELD = "decks"
KEY = "views"
OPTIONS = STATISTICS[NAME]  # the keys of `stats:` it reads (declared.py)
EXAMPLE = {"views": [{"deck": "deck0", "fields": ["name"], "title": "Names"}]}


def _declared(run: Run) -> dict[str, list]:
    """The views of each deck whose deck and fields exist (the others said, located)."""
    spec, report = run.game.stats, run.report
    declared: dict[str, list] = {}
    for view in spec.views:
        deck = _deck(run.game, view.deck, spec.locate(view.path + ("deck",)), report, "a view")
        if deck is None:
            continue
        if all([_field_ok(deck, f, spec.locate(view.path + ("fields", j)), report, "a view")
                for j, f in enumerate(view.fields)]):
            declared.setdefault(deck.id, []).append(view)
    return declared


def compute(run: Run) -> tuple[DeckStats, ...]:
    declared, report, out = _declared(run), run.report, []
    for deck in run.game.decks:
        if not run.wanted(deck.id):
            continue
        views = declared.get(deck.id, [])
        if report is not None and any(c.id in report.tainted for c in deck.cards):
            report.skip(len(views))  # its values have errors, reported at their cause:
            views = []  # the views over them wait until those are fixed (one note says so)
        dists, crosses = [], []
        for view in views:
            if len(view.fields) == 1:
                dists.append(distribution(deck, view.fields[0], run.shown, view.title, True))
            else:
                crosses.append(cross_table(deck, view.fields, run.shown, view.title))
        asked = {v.fields[0] for v in views if len(v.fields) == 1}
        dists += [distribution(deck, f, run.shown) for f in _default_fields(deck)
                  if f not in asked]
        copies = _cards_distribution(deck)
        if copies is not None:
            dists.append(copies)
        out.append(DeckStats(deck.id, deck.name, deck.total, len(deck.cards), deck.tint,
                             tuple(dists), tuple(crosses)))
    return tuple(out)


def _counted(deck: DeckStats) -> dict:
    return {"deck": deck.id, "name": deck.name,
            "cards": _n("{n} card", "{n} cards", deck.total),
            "kinds": _n("{n} kind", "{n} kinds", deck.kinds)}


def words(part: tuple[DeckStats, ...]) -> list:
    lines: list = []
    for deck in part:
        lines.append(_("deck {deck} ({name}): {cards}, {kinds}", **_counted(deck)))
        lines += [_in(distribution_line(d)) for d in deck.distributions]
        for c in deck.crosses:
            lines += [_in(line) for line in cross_lines(c)]
    return lines


def as_json(part: tuple[DeckStats, ...]) -> list[dict[str, Any]]:
    return [{"id": d.id, "name": d.name, "cards": d.total, "kinds": d.kinds,
             "distributions": [_dist(x) for x in d.distributions],
             "crosses": [{"fields": list(c.fields), "title": c.title,
                          "cells": {r: dict(zip(c.columns, cells))
                                    for r, cells in zip(c.rows, c.cells)},
                          "means": dict(c.means) if c.means else None,
                          "mean_of": c.mean_of or None, "drafts": c.drafts}
                         for c in d.crosses]} for d in part]


def changes(old: tuple[DeckStats, ...], new: tuple[DeckStats, ...]) -> list:
    before = {d.id: d for d in old}
    return [line for deck in new if deck.id in before
            for line in _deck_changes(before[deck.id], deck)]


def blocks(part: tuple[DeckStats, ...], stats, chart) -> list[dict]:
    out: list[dict] = []
    for deck in part:
        out.append({"kind": "heading", "deck": deck.id,
                    "text": shown(_("{name} ({deck}): {cards}, {kinds}", **_counted(deck)))})
        for c in deck.crosses:
            if not any(any(row) for row in c.cells):
                out.append({"kind": "text", "text": shown(_("{title}: no values yet",
                                                             title=c.title))})
                continue
            out.append(chart(cross_chart(c)))
            head, *rows = cross_rows(c)
            out.append({"kind": "table", "head": head, "rows": rows})
        for d in deck.distributions:
            if d.total:
                out.append(chart(distribution_chart(d, deck)))
            else:
                out.append({"kind": "text", "text": shown(distribution_line(d))})
    return out
