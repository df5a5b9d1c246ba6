"""tables: the pool tables game.yaml's `stats: tables:` declares: how many cards of a deck
each item (a player count, a scenario) takes, by the items' labels."""

from __future__ import annotations

from typing import Any

from ...declared import STATISTICS
from ...i18n import _, shown
from ..pictures import table_chart
from ..questions import _table
from ..results import TableStats
from ..show import table_lines, table_rows
from .base import Run

NAME = "tables"
ORDER = 20
FIELD = "tables"
KEY = "tables"
OPTIONS = STATISTICS[NAME]  # the keys of `stats:` it reads (declared.py)
EXAMPLE = {"tables": [{"name": "Pools", "deck": "deck0", "for": "data.pools.{row}",
                       "label": "{{ row.players }} players", "counts": "row.cards"}]}
EXAMPLE_DATA = {"pools": [{"players": 2, "cards": {"one": 2, "two": 1}}]}


def compute(run: Run) -> tuple[TableStats, ...]:
    return tuple(t for t in (_table(run.game, t, run.ev) for t in run.game.stats.tables
                             if run.wanted(t.deck)) if t is not None)


def words(part: tuple[TableStats, ...]) -> list:
    return [line for t in part for line in table_lines(t)]


def as_json(part: tuple[TableStats, ...]) -> list[dict[str, Any]]:
    return [{"name": t.name, "deck": t.deck, "totals": dict(zip(t.labels, t.totals)),
             "cards": {name: dict(zip(t.labels, counts)) for name, counts in t.cards}}
            for t in part]


def changes(old: tuple[TableStats, ...], new: tuple[TableStats, ...]) -> list:
    tables, out = {t.name: t for t in old}, []
    for t in new:
        b = tables.get(t.name)
        if b is None:
            continue
        was = dict(zip(b.labels, b.totals))
        moved = [f"{label} {was[label]} -> {n}" for label, n in zip(t.labels, t.totals)
                 if label in was and was[label] != n]
        if moved:
            out.append(_("table {name}: {moved} cards", name=t.name, moved=", ".join(moved)))
    return out


def blocks(part: tuple[TableStats, ...], stats, chart) -> list[dict]:
    out: list[dict] = []
    for t in part:
        out.append({"kind": "heading", "text": t.name, "deck": t.deck})
        if not t.labels:
            out.append({"kind": "text", "text": shown(_("no items yet"))})
            continue
        out.append(chart(table_chart(t)))
        head, *rows = table_rows(t)
        out.append({"kind": "table", "head": head, "rows": rows})
    return out
