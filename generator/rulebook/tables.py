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

from reportlab.platypus import Table, TableStyle

from ..textflow import content_widths
from ..i18n import _n

def table_style(look, rules: list) -> TableStyle:
    """A rulebook table's style: `rules`, and its cells in the body's font. (reportlab
    selects a cell's font before it draws the cell, Helvetica unless told: a font the
    rulebook never embeds, which every preflight flags, though nothing is set in it.)"""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), look.body.regular), *rules])


SHORT_TABLE = 5  # body rows: a table this short is never split between pages
MIN_ROWS = 2  # body rows a split leaves on each page


class KeptTable(Table):
    """A table that splits between pages only where both pages keep at least MIN_ROWS body
    rows (the header repeats on the second), and never when it is SHORT_TABLE rows or fewer.
    A row taller than a page still splits inside itself (splitInRow), as it must."""

    keep_short = True  # a short table is never split (one taller than a page is: ruled_table)

    def split(self, available_width, available_height):
        if self.splitInRow:
            return super().split(available_width, available_height)
        self._calc(available_width, available_height)
        heights, head = self._rowHeights, self.repeatRows
        short = len(heights) - head <= SHORT_TABLE
        if short and self.keep_short:
            return []
        least = 1 if short else MIN_ROWS  # (a short table split: its rows are tall)
        fit, used = 0, 0.0
        for height in heights:
            if used + height > available_height + 1e-6:
                break
            used, fit = used + height, fit + 1
        fit = min(fit, len(heights) - least)
        if fit - head < least:
            return []
        return super().split(available_width, sum(heights[:fit]) + 1e-3)


def ruled_table(cells, widths: list[float], header_rows: int, page_height: float,
                look) -> KeptTable:
    """A rulebook table of set cells: ruled in the accent, its header rows shaded and
    repeated on each page. A row taller than a whole page is split inside the row (any other
    row moves whole to the next page); a short table taller than a page splits between its
    rows all the same: kept whole, it would run off every page (platypus gives up)."""
    heights = [max((c.wrap(w - 8, 1e9)[1] for c, w in zip(row, widths)), default=0)
               for row in cells]
    for flows in cells:
        for flow in flows:
            if hasattr(flow, "keep_lines"):  # a paragraph (typeset.JText)
                flow.keep_lines = 1  # a row taller than a page splits wherever it must
    table = KeptTable(cells, colWidths=widths, repeatRows=header_rows,
                      splitInRow=1 if max(heights, default=0) + 4 > page_height else 0)
    table.keep_short = sum(heights) + 4 * len(heights) <= page_height
    light = tuple(1 - (1 - c) * 0.15 for c in look.accent[:3])
    style = [
        ("GRID", (0, 0), (-1, -1), 0.4, look.accent),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    if header_rows:
        style.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), light))
    table.setStyle(table_style(look, style))
    table.spaceAfter = look.size
    return table


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
