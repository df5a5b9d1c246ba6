"""How a rulebook table shares the page's width among its columns.

As a browser lays out a table automatically: each column between its content's minimum
(its widest word or Japanese phrase) and maximum (its widest cell on one line), sharing
the page's width by how much each can grow. Where even the minimums do not fit, the text
gets smaller (to TABLE_MIN of the table size); where they do not fit then either, phrases
wrap at their spaces, and only then do the widest columns break inside words (a Japanese
phrase counts as a word: 名にし負はば breaks nowhere else), which is said, naming them.
"""

from __future__ import annotations

import re

from reportlab.platypus import TableStyle

from ..textflow import content_widths
from ..i18n import _n

def table_style(look, rules: list) -> TableStyle:
    """A rulebook table's style: `rules`, and its cells in the body's font. (reportlab
    selects a cell's font before it draws the cell, Helvetica unless told: a font the
    rulebook never embeds, which every preflight flags, though nothing is set in it.)"""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), look.body.regular), *rules])


TABLE_MIN = 0.8  # a table too wide for the page may set its text this much smaller
TABLE_STEPS = 4  # in this many steps
PAD = 8 + 1  # a cell's left and right padding, and a hair


def column_widths(rows, header_rows: int, cols: int, width: float, size: float, atoms_of,
                  vertical: bool = False):
    """(text size, column widths, a warning or ""): `rows` of cells' markup, the first
    `header_rows` bold; `atoms_of(markup, bold)` parses a cell; `vertical`: measured down
    the column, as a vertical rulebook sets its cells."""
    for step in range(TABLE_STEPS + 1):
        s = size * (1 - (1 - TABLE_MIN) * step / TABLE_STEPS)
        low: list[float] = [PAD] * cols
        high: list[float] = [PAD] * cols
        hard: list[float] = [PAD] * cols
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                atoms = atoms_of(text, r < header_rows)
                lo, hi = content_widths(atoms, s, vertical=vertical)
                low[c], high[c] = max(low[c], lo + PAD), max(high[c], hi + PAD)
                if step == TABLE_STEPS:  # the narrowest it can be: its longest word
                    hard[c] = max(hard[c], content_widths(atoms, s, words=True,
                                                          vertical=vertical)[0] + PAD)
        if sum(low) <= width or step == TABLE_STEPS:
            break
    if sum(high) <= width:
        return s, high, ""
    if sum(low) > width and sum(hard) <= width:
        # Phrases (a Japanese phrase, "4 players") wrap at their spaces; no word breaks.
        grow = [lo - h for lo, h in zip(low, hard)]
        room = width - sum(hard)
        return s, [h + g * room / (sum(grow) or 1) for h, g in zip(hard, grow)], ""
    if sum(low) > width:
        widths = _capped(hard, width)
        breaking = [c for c in range(cols) if widths[c] < hard[c] - 0.01]
        named = _named(rows, breaking)
        return s, widths, _n("a table is too wide for the page even at {s:.1f} pt: column "
                             "{named} breaks inside words (shorten its cells, or split the table)",
                             "a table is too wide for the page even at {s:.1f} pt: columns "
                             "{named} break inside words (shorten its cells, or split the table)",
                             len(breaking), s=s, named=named)
    grow = [h - lo for h, lo in zip(high, low)]
    room = width - sum(low)
    return s, [lo + g * room / (sum(grow) or 1) for lo, g in zip(low, grow)], ""


def narrow_columns(rows, header_rows: int, widths: list[float], size: float, atoms_of,
                   vertical: bool = False) -> str:
    """A warning naming the columns of `widths` (the template's own) narrower than their
    longest word (a Japanese phrase), which then breaks inside; or ""."""
    hard: list[float] = [PAD] * len(widths)
    for r, row in enumerate(rows):
        for c, text in enumerate(row[:len(widths)]):
            atoms = atoms_of(text, r < header_rows)
            hard[c] = max(hard[c], content_widths(atoms, size, words=True,
                                                  vertical=vertical)[0] + PAD)
    breaking = [c for c, w in enumerate(widths) if w < hard[c] - 0.01]
    if not breaking:
        return ""
    return _n("column_widths leaves column {named} narrower than its longest word, which "
              "breaks inside (widen it)",
              "column_widths leaves columns {named} narrower than their longest words, which "
              "break inside (widen them)", len(breaking), named=_named(rows, breaking))


def _named(rows, columns: list[int]) -> str:
    """Columns as a message names them: their numbers and header cells."""
    return ", ".join(f"{c + 1} ('{_cell_text(rows[0][c]) if c < len(rows[0]) else ''}')"
                     for c in columns)


def _capped(low: list[float], width: float) -> list[float]:
    """Column widths that fill `width` when even the columns' minimums do not fit: every
    column keeps its minimum up to one cap, the same for all, so that only the widest
    columns break inside words, and a column of short words ("Knight") stays whole."""
    order = sorted(low)
    left, n = width, len(low)
    for i, w in enumerate(order):  # the columns narrower than the cap keep their minimum
        cap = left / (n - i)
        if w > cap:
            break
        left -= w
    else:
        return list(low)
    return [min(w, cap) for w in low]


def _cell_text(markup: str) -> str:
    """A header cell's words, for a message: its text without markup, shortened."""
    text = " ".join(re.sub(r"<[^>]*>", "", markup).split())
    return text if len(text) <= 24 else text[:23] + "…"
