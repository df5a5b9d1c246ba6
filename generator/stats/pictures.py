"""The statistics as charts: each distribution, cross-table, pool table and question as a
finished `Chart` for the drawing library (the stats PDF and the preview page draw the same)."""

from __future__ import annotations

from ..colors import parse_color
from ..draw.charts import Chart, Series
from . import DRAFT_COLOR, NONE, PALETTE, Answer, CrossTable, DeckStats, Distribution, Stats, TableStats
from .show import number

_PALETTE = tuple(parse_color(c) for c in PALETTE)


def _note(d: Distribution) -> str:
    parts = []
    if d.numeric and d.mean is not None:
        parts.append(f"mean {number(d.mean)}, {number(d.low)} to {number(d.high)}")
    parts.append(f"{d.total} cop{'ies' if d.total != 1 else 'y'} counted")
    if d.drafts:
        parts.append(f"{d.drafts} TBD (draft)")
    return "; ".join(parts)


def distribution_chart(d: Distribution, deck: DeckStats) -> Chart:
    base = deck.color or _PALETTE[0]
    bars = tuple(DRAFT_COLOR if label == NONE else (color or base)
                 for label, color in zip(d.labels, d.colors))
    return Chart(d.title, d.labels, (Series(d.title, tuple(d.counts), base, bars),),
                 _PALETTE, _note(d))


def cross_chart(c: CrossTable) -> Chart:
    series = tuple(Series(col, tuple(row[j] for row in c.cells), c.colors[j])
                   for j, col in enumerate(c.columns))
    note = []
    if c.means:
        note.append(f"mean {c.mean_of}: " + ", ".join(f"{g} {number(m)}" for g, m in c.means))
    if c.drafts:
        note.append(f"{c.drafts} TBD (draft) not counted")
    return Chart(c.title, c.rows, series, _PALETTE, "; ".join(note))


def table_chart(t: TableStats) -> Chart:
    return Chart("cards per item", t.labels,
                 (Series("cards", tuple(t.totals), t.color or _PALETTE[0]),), _PALETTE)


def odds_chart(answers: list[Answer]) -> Chart:
    """One question's answers, in percent, one bar per item."""
    first = answers[0]
    return Chart(f"{first.question}: {first.text}", tuple(a.label or first.question for a in answers),
                 (Series("%", tuple(round(a.chance * 100, 2) for a in answers),
                         _PALETTE[1]),), _PALETTE, "the exact chance", "%")


def questions(stats: Stats) -> list[list[Answer]]:
    grouped: dict[str, list[Answer]] = {}
    for a in stats.answers:
        grouped.setdefault(a.question, []).append(a)
    return list(grouped.values())
