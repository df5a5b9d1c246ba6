"""Statistics in words: the lines and table rows each kind of statistic (stats/kinds) is
said with in `cardgen stats`, its JSON, the stats PDF, the preview and `cardgen diff`."""

from __future__ import annotations

from typing import Any

from .results import NONE, Answer, CrossTable, DiceStats, Distribution, TableStats
from ..i18n import Joined, Listed, _, columns, shown
from ..problems import spoken

width = columns  # the columns a terminal gives a text: two for a wide (Japanese) character


def _label(label: str):
    """A value's label as a line says it: the copies without the field are "(none)"."""
    return _("(none)") if label == NONE else label


def _pad(text: str, n: int, right: bool = False) -> str:
    gap = " " * max(0, n - width(text))
    return gap + text if right else text + gap




def _in(line, depth: int = 1) -> str:
    """A line indented under the one above, shown in the language it is shown in."""
    return Joined("", ["  " * depth, line])


def number(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def distribution_line(d: Distribution) -> str:
    if not d.labels:
        parts: str = _("no values yet")
    elif d.numeric:
        parts = _("{counts} (mean {mean}, {low} to {high})",
                  counts=Listed((f"{label} ×{n}" for label, n in zip(d.labels, d.counts) if n),
                                None),
                  mean=number(d.mean), low=number(d.low), high=number(d.high))
    else:
        parts = Listed((Joined(" ", [_label(label), str(n)])
                        for label, n in zip(d.labels, d.counts)), None)
    drafts = _("; {n} TBD (draft)", n=d.drafts) if d.drafts else ""
    return _("{title}: {parts}{drafts}", title=d.title, parts=parts, drafts=drafts)


def cross_lines(c: CrossTable) -> list[str]:
    a, b = c.fields
    head = f"{a} \\ {b}"
    first = max([width(head)] + [width(r) for r in c.rows])
    cols = [max(width(col), 3) for col in c.columns]
    lines: list[str] = [Joined("", [c.title, ":"])]
    lines.append(Joined("", ["  " + _pad(head, first) + "  " +
                             "  ".join(_pad(col, w, True) for col, w in zip(c.columns, cols)) +
                             "  ", _("total")]))
    for row, cells in zip(c.rows, c.cells):
        lines.append("  " + _pad(row, first) + "  " +
                     "  ".join(_pad(str(n), w, True) for n, w in zip(cells, cols)) +
                     f"  {sum(cells):>5}")
    if c.means:
        lines.append(_in(_("mean {field}: {means}", field=c.mean_of, means=Listed(
            (f"{g} {number(m)}" for g, m in c.means), None))))
    if c.drafts:
        lines.append(_in(_("{n} TBD (draft) not counted", n=c.drafts)))
    if not c.rows:
        lines.append(_in(_("no values yet")))
    return lines


def table_lines(t: TableStats) -> list[str]:
    if not t.labels:
        return [_("table {name} (deck {deck}): no items yet", name=t.name, deck=t.deck)]
    lines: list[str] = [_("table {name} (deck {deck}):", name=t.name, deck=t.deck)]
    total = shown(_("total"))  # padded as it is shown
    first = max([width(n) for n, _unused in t.cards] + [width(total)])
    cols = [max(width(label), 3) for label in t.labels]
    lines.append("  " + _pad("", first) + "  " +
                 "  ".join(_pad(label, w, True) for label, w in zip(t.labels, cols)))
    for name, counts in t.cards:
        lines.append("  " + _pad(name, first) + "  " +
                     "  ".join(_pad(str(n) if n else "–", w, True) for n, w in zip(counts, cols)))
    lines.append("  " + _pad(total, first) + "  " +
                 "  ".join(_pad(str(n), w, True) for n, w in zip(t.totals, cols)))
    return lines


def cross_rows(c: CrossTable) -> list[list[str]]:
    """A cross-table as rows of cells, its header first, a total at the end of each row (its
    words in the language of the moment)."""
    return [[f"{c.fields[0]} \\ {c.fields[1]}", *c.columns, shown(_("total"))]] + \
        [[r, *map(str, cells), str(sum(cells))] for r, cells in zip(c.rows, c.cells)]


def table_rows(t: TableStats) -> list[list[str]]:
    """A pool table as rows of cells: the items' labels, each card's counts, the totals."""
    return [["", *t.labels]] + [[name, *(str(n) if n else "–" for n in counts)]
                                for name, counts in t.cards] + [[shown(_("total")),
                                                                 *map(str, t.totals)]]


def answer_line(a: Answer) -> str:
    draft = _(" (draft: copies TBD)") if a.draft else ""
    line = _("a hand of {hand} from {pool}: {chance}{draft}", hand=a.hand, pool=a.pool,
             chance=a.words(), draft=draft)
    return Joined(": ", [a.label, line]) if a.label else line


LISTED_TOTALS = 30  # a roll's totals listed one per line, at most (JSON lists them all)


def dice_summary(r: DiceStats) -> str:
    """A roll in one line: its totals, mean and the totals that come up most."""
    low, high = r.totals[0].value, r.totals[-1].value
    top = r.most_likely
    words = dict(name=r.name, dice=r.dice, low=low, high=high, mean=number(float(r.mean)),
                 chance=top[0].words())
    if len(top) > 1:
        return _("{name} ({dice}): totals {low} to {high}, mean {mean}, most likely {most} "
                 "({chance} each)", most=spoken([t.value for t in top], "and"), **words)
    return _("{name} ({dice}): totals {low} to {high}, mean {mean}, most likely {most} "
             "({chance})", most=top[0].value, **words)


def dice_lines(r: DiceStats) -> list[str]:
    lines: list[str] = [dice_summary(r)]
    if len(r.totals) <= LISTED_TOTALS:
        lines += [_in(Joined(": ", [str(t.value), t.words()])) for t in r.totals]
    else:
        lines.append(_in(_("({n:,} totals: --format json lists each)", n=len(r.totals))))
    lines += [_in(Joined(": ", [a.label, a.words()])) for a in r.answers]
    return lines


def _exact(c) -> dict[str, Any]:
    """A chance in JSON: the fraction (exact) and the decimal."""
    return {"fraction": c.fraction, "numerator": c.probability.numerator,
            "denominator": c.probability.denominator, "probability": c.chance}


def _dist(d: Distribution) -> dict[str, Any]:
    out: dict[str, Any] = {"field": d.field or None, "title": d.title, "numeric": d.numeric,
           "counts": dict(zip(d.labels, d.counts)), "drafts": d.drafts, "declared": d.declared}
    if d.numeric:
        out.update(mean=d.mean, min=d.low, max=d.high)
    return out


def _distribution_change(deck_id: str, b, d) -> list[str]:
    """A field's counts (or a number field's mean) that differ between two versions."""
    if d.numeric:
        if (b.mean != d.mean and None not in (b.mean, d.mean)) or \
                (b.mean is None) != (d.mean is None):
            return [_("deck {deck}: {title}: mean {was} -> {now}", deck=deck_id, title=d.title,
                      was=number(b.mean), now=number(d.mean))]
        return []
    was = dict(zip(b.labels, b.counts))
    now = dict(zip(d.labels, d.counts))
    moved = [f"{label} {was.get(label, 0)} -> {now.get(label, 0)}"
             for label in dict.fromkeys([*d.labels, *b.labels])
             if was.get(label, 0) != now.get(label, 0)]
    return [_("deck {deck}: {title}: {moved}", deck=deck_id, title=d.title,
              moved=", ".join(moved))] if moved else []


def _deck_changes(before, deck) -> list[str]:
    out: list[str] = []
    if before.total != deck.total:
        out.append(_("deck {deck}: {was} -> {now} cards", deck=deck.id, was=before.total,
                     now=deck.total))
    dists = {d.field: d for d in before.distributions}
    for d in deck.distributions:
        b = dists.get(d.field)
        if b is not None and d.field:  # copies per card: the diff lists each card's own
            out += _distribution_change(deck.id, b, d)
    crosses = {c.fields: c for c in before.crosses}
    for c in deck.crosses:
        b = crosses.get(c.fields)
        if b is None or not c.means:
            continue
        was = dict(b.means)
        out += [_("deck {deck}: {field} of {group}: mean {was} -> {now}", deck=deck.id,
                  field=c.mean_of, group=group, was=number(was[group]), now=number(mean))
                for group, mean in c.means
                if group in was and was[group] != mean]
    return out
