"""Reading a built rulebook back: its lines page by page, and the keeps a book must hold.

The PDF's text is read with its positions and sizes (pypdf); the rulebook's paragraphs and
headings, in order, come from the typesetter (generator.rulebook.story), so that each can
be found on the pages where it was set.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pypdf

from pdfcheck import as_written

RAW_MARKUP = ("**", "__", "<b>", "</b>", "{{", "}}", "{%", "%}")


def page_lines(path: Path) -> list[list[tuple[float, float, str]]]:
    """Each page's lines, top to bottom: (y, size, text), the runs of a line joined in the
    order they are drawn (cardgen draws a line's runs left to right; pypdf does not report
    where a run starts within its line)."""
    pages = []
    for page in pypdf.PdfReader(path).pages:
        runs: list[tuple[float, float, float, str]] = []

        def visit(text, cm, tm, font, size):
            if not text.strip():
                return
            a, b, _, _, e, f = tm
            y = e * cm[1] + f * cm[3] + cm[5]
            scale = math.hypot(a, b) * math.hypot(cm[0], cm[1])
            runs.append((round(y, 1), len(runs), size * scale, text))

        page.extract_text(visitor_text=visit)
        lines: dict[float, list] = {}
        for y, x, size, text in runs:
            key = next((k for k in lines if abs(k - y) < 1.0), y)
            lines.setdefault(key, []).append((x, size, text))
        pages.append([(y, max(s for _, s, _ in parts),
                       "".join(t for _, _, t in sorted(parts)).replace("\n", ""))
                      for y, parts in sorted(lines.items(), key=lambda kv: -kv[0])])
    return pages


def _norm(text: str) -> str:
    return as_written(re.sub(r"\s+", "", text))  # (the typesetter's text: as written)


def keep_problems(path: Path, paragraphs: list[tuple[str, str]], body_size: float,
                  found: list | None = None) -> list[str]:
    """What breaks the keeps: a page that ends with a heading, a paragraph that leaves one
    line alone at the foot or the top of a page. `paragraphs`: (kind, text) in order,
    kind "heading" or "text"."""
    pages = page_lines(path)
    lines = [(n, text) for n, page in enumerate(pages) for y, size, text in page
             if not (y < 40 and re.fullmatch(r"\d+", text.strip()))]  # not a page number
    last_on_page = {}
    for index, (n, _) in enumerate(lines):
        last_on_page[n] = index
    problems, cursor = [], 0
    for kind, text in paragraphs:
        want = _norm(text)
        if not want:
            continue
        start = next((i for i in range(cursor, len(lines))
                      if _norm(lines[i][1]) and want.startswith(_norm(lines[i][1]))), None)
        if start is None:
            continue
        got, end = "", start
        while end < len(lines) and want.startswith(got + _norm(lines[end][1])):
            got += _norm(lines[end][1])
            end += 1
            if got == want:
                break
        if got != want:
            continue
        cursor = end
        used = [lines[i][0] for i in range(start, end)]
        if found is not None:
            found.append(text)
        if kind == "heading" and last_on_page.get(used[-1]) == end - 1 and \
                used[-1] < len(pages) - 1:
            problems.append(f"page {used[-1] + 1} ends with the heading '{text}'")
        if kind == "text" and len(set(used)) > 1:
            first, second = used.count(used[0]), len(used) - used.count(used[0])
            if first < 2 or second < 2:
                problems.append(f"'{text[:30]}...' leaves {min(first, second)} line alone "
                                f"across pages {used[0] + 1}-{used[-1] + 1}")
    return problems


def raw_markup(path: Path) -> list[str]:
    text = "\n".join(t for page in page_lines(path) for _, _, t in page)
    return [m for m in RAW_MARKUP if m in text]


def _wrapped_start(line: str, first: str) -> bool:
    """Whether `line` is the first line of a row whose first cell (`first`) wraps: a start of
    that cell, then the row's other cells (numbers, dashes)."""
    row = re.fullmatch(r"(\D{4,}?)([0-9–-]+)", line)
    return bool(row) and first.startswith(row.group(1)) and row.group(1) != first


def table_problems(path: Path, tables: list[tuple[int, list[str]]]) -> tuple[list[str], int]:
    """Tables split leaving fewer than two body rows on a page. `tables`: (header rows, each
    row's first cell text) in order. Returns the problems, and how many tables were found."""
    lines = [(n, _norm(text)) for n, page in enumerate(page_lines(path)) for _, _, text in page]
    problems, found, cursor = [], 0, 0
    for head, firsts in tables:
        body = [_norm(f) for f in firsts[head:]]
        if len(body) < 2 or len(set(body)) < len(body) or not all(body):
            continue  # rows that cannot be told apart by their first cell
        pages, at = [], cursor
        for first in body:
            # A first cell that wraps shows only its start on the row's first line, before
            # the row's other cells ("Baroness11111" for "Baroness (男爵夫人)").
            hit = next((i for i in range(at, len(lines)) if lines[i][1].startswith(first[:12])
                        or _wrapped_start(lines[i][1], first)), None)
            if hit is None:
                break
            pages.append(lines[hit][0])
            at = hit + 1
        if len(pages) != len(body):
            continue
        found += 1
        cursor = at
        for page in sorted(set(pages)):
            if len(set(pages)) > 1 and pages.count(page) < 2:
                problems.append(f"a table leaves {pages.count(page)} row on page {page + 1}")
    return problems, found
