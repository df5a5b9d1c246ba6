"""The statistics as charts: each distribution, cross-table, pool table and question as a
finished `Chart` for the drawing library (and each roll of dice) (the stats PDF and the
preview page draw the same)."""

from __future__ import annotations

from fractions import Fraction

from ..colors import a_color
from ..draw.charts import Chart, Series
from .results import (DRAFT_COLOR, NONE, PALETTE, Answer, CrossTable, DeckStats, DiceStats,
                      Distribution, Stats, TableStats)
from .show import number
from ..i18n import _, _n, shown
from ..problems import spoken

_PALETTE = tuple(a_color(c) for c in PALETTE)


# A chart's words are said as they are drawn, in the language of the moment: the stats PDF
# draws them in the game's (i18n.printing), the preview in the page's.

def _note(d: Distribution) -> str:
    parts = []
    if d.numeric and d.mean is not None:
        parts.append(shown(_("mean {mean}, {low} to {high}", mean=number(d.mean),
                             low=number(d.low), high=number(d.high))))
    parts.append(shown(_n("{n} copy counted", "{n} copies counted", d.total)))
    if d.drafts:
        parts.append(shown(_("{n} TBD (draft)", n=d.drafts)))
    return "; ".join(parts)


def distribution_chart(d: Distribution, deck: DeckStats) -> Chart:
    base = deck.color or _PALETTE[0]
    bars = tuple(DRAFT_COLOR if label == NONE else (color or base)
                 for label, color in zip(d.labels, d.colors))
    return Chart(shown(d.title), d.labels, (Series(shown(d.title), tuple(d.counts), base, bars),),
                 _PALETTE, _note(d))


def cross_chart(c: CrossTable) -> Chart:
    series = tuple(Series(col, tuple(row[j] for row in c.cells), c.colors[j])
                   for j, col in enumerate(c.columns))
    note = []
    if c.means:
        note.append(shown(_("mean {field}: {means}", field=c.mean_of, means=", ".join(
            f"{g} {number(m)}" for g, m in c.means))))
    if c.drafts:
        note.append(shown(_("{n} TBD (draft) not counted", n=c.drafts)))
    return Chart(c.title, c.rows, series, _PALETTE, "; ".join(note))


def table_chart(t: TableStats) -> Chart:
    return Chart(shown(_("cards per item")), t.labels,
                 (Series(shown(_("cards")), tuple(t.totals), t.color or _PALETTE[0]),), _PALETTE)


def odds_chart(answers: list[Answer], top: float | None = None) -> Chart:
    """One question's answers, in percent, one bar per item; `top` (a percentage) is the
    axis's end that every question of the page shares, so that bars compare across them."""
    first = answers[0]
    return Chart(f"{first.question}: {first.text}",
                 tuple(a.label or first.question for a in answers),
                 (Series("%", tuple(round(a.chance * 100, 2) for a in answers),
                         _PALETTE[1]),), _PALETTE, shown(_("the exact chance")), "%", top)


def odds_top(stats: Stats) -> float:
    """The largest chance of any question, in percent: the odds charts' shared axis."""
    return max((round(a.chance * 100, 2) for a in stats.answers), default=0.0)


CHARTED_TOTALS = 60  # a roll's totals drawn one bar each, at most; more are drawn in ranges


def dice_chart(r: DiceStats) -> Chart:
    """A roll's chance of each total, in percent (ranges of totals where there are many)."""
    totals = r.totals
    if len(totals) <= CHARTED_TOTALS:
        labels = tuple(str(t.value) for t in totals)
        values = tuple(t.probability for t in totals)
    else:
        low, high = totals[0].value, totals[-1].value
        width = -(-(high - low + 1) // CHARTED_TOTALS)  # totals per bar, rounded up
        groups: dict[int, Fraction] = {}
        for t in totals:
            start = low + (t.value - low) // width * width
            groups[start] = groups.get(start, Fraction(0)) + t.probability
        labels = tuple(f"{s}–{min(s + width - 1, high)}" for s in groups)
        values = tuple(groups.values())
    most = spoken([t.value for t in r.most_likely], "and")
    return Chart(f"{r.name} ({r.dice})", labels,
                 (Series("%", tuple(round(float(v) * 100, 2) for v in values), _PALETTE[0]),),
                 _PALETTE, shown(_("mean {mean}; most likely {most}", mean=number(float(r.mean)),
                                   most=most)), "%")


def questions(stats: Stats) -> list[list[Answer]]:
    grouped: dict[str, list[Answer]] = {}
    for a in stats.answers:
        grouped.setdefault(a.question, []).append(a)
    return list(grouped.values())
