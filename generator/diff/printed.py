"""What changed in the rulebook's pages and booklet sheets between two versions of a game
(`cardgen diff`, errata; the boards' pages are boards.py's).

A page's identity is what it prints, as a face's is (identity.py): a rulebook page is
drawn by the typesetter, not from primitives, so its identity is a digest of the page
rasterised (every glyph, rule and picture it puts on paper, fonts and images included).
Pages are told apart as:

- `changed`: it prints something the old version did not print anywhere;
- `moved`: it prints what a page of the old version printed, at another number;
- `reflowed`: its text was all in the old version, but it falls on the page otherwise
  (a paragraph inserted before it pushed it down);
- `redrawn`: its text is the same page's text in the old version, and it prints otherwise
  (a card's picture changed, or where its text stands: a table's column narrowed);
- `added` and `removed`: the version has more or fewer pages.

Only `changed`, `redrawn` and `added` pages need reprinting; a booklet's sheets that carry one are
the sheets to reprint. The rules as text are compared too, section by section, paragraph
by paragraph, with the changed words marked (Japanese character by character).
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from ..i18n import Joined, Listed, _
from .marks import KEEP, best, joined_lines, plain, shown

PAGE_DPI = 50  # the raster a rulebook page's identity is taken from


@dataclass(frozen=True)
class PageChange:
    how: str  # changed, redrawn, moved, reflowed, added or removed
    page: int | None  # its number in the new version (None: removed)
    was: int | None = None  # its number in the old version, where it had one


@dataclass
class BookChanges:
    """How the rulebook changed: its pages, its text and the data it prints."""

    pages_before: int
    pages_after: int
    pages: list[PageChange] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # section and paragraph changes, in words
    rules: list = field(default_factory=list)  # the same, as RuleChange
    sections: list = field(default_factory=list)  # the new rules' (heading, paragraphs)
    data: list[str] = field(default_factory=list)  # data values only the rulebook prints
    sheets: list[int] = field(default_factory=list)  # booklet sheets to reprint (1-based)

    @property
    def reprint(self) -> list[int]:
        """The pages whose content changed (or are new): the ones to print again."""
        return [c.page for c in self.pages
                if c.how in ("changed", "redrawn", "added") and c.page is not None]

    @property
    def empty(self) -> bool:
        return not (self.pages or self.text or self.data)


# -- pages ----------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def pdf_pages(pdf: bytes) -> list[tuple[str, str]]:
    """(identity, text) of each page of a PDF: the digest of the page rasterised, and its
    text with the spaces and line ends left out (kept for the last two: a server compares
    every save with the same revision's rulebook)."""
    from ..write.pdfium import opened
    out = []
    with opened(pdf) as document:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=PAGE_DPI / 72)
            digest = hashlib.sha256(bytes(bitmap.buffer) + repr(
                (bitmap.width, bitmap.height)).encode()).hexdigest()[:24]
            bitmap.close()  # (pdfium's objects freed inside: its lock held)
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            textpage.close()
            page.close()
            out.append((digest, re.sub(r"\s+", "", text)))
    return out


def compare_pages(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> list[PageChange]:
    """How each page of `new` stands to `old` (see the module's words); unchanged pages are
    left out."""
    changes = []
    old_index = {digest: n for n, (digest, _) in reversed(list(enumerate(old, 1)))}
    everything = "".join(text for _, text in old)
    for n, (digest, text) in enumerate(new, 1):
        if n <= len(old) and old[n - 1][0] == digest:
            continue
        was = old_index.get(digest)
        if was is not None:
            changes.append(PageChange("moved", n, was))
        elif n > len(old):
            changes.append(PageChange("added", n))
        elif text == old[n - 1][1]:  # its text as it was: a picture, or where text stands
            changes.append(PageChange("redrawn", n, n))
        elif text and text in everything:
            changes.append(PageChange("reflowed", n, n))
        else:
            changes.append(PageChange("changed", n, n))
    changes += [PageChange("removed", None, n) for n in range(len(new) + 1, len(old) + 1)]
    return changes


def booklet_sheets(pages: list[int], total_pages: int) -> list[int]:
    """The booklet sheets (1-based) that carry any of `pages` (1-based), by the
    saddle-stitch order of rulebook/booklet.py: sheet s carries pages 2s+1, 2s+2 and the
    two facing them from the end."""
    total = -(-total_pages // 4) * 4
    sheets = set()
    for p in pages:
        i = p - 1
        sheets.add(min(i, total - 1 - i) // 2 + 1)
    return sorted(sheets)


# -- the rules as text ----------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ROW = re.compile(r"^\s*\|")
PATH_SEP = " › "  # between the headings of a section's path
ALIGN_BUDGET = 40_000  # section pairs whose texts are compared for similarity, at most
SIMILAR = 0.5  # how alike two sections' texts are to be the same section changed
PAIR_WINDOW = 3  # how far ahead a changed paragraph's old self is looked for, each side

Path = tuple[str, ...]


def sections(markdown: str) -> list[tuple[Path, list[str]]]:
    """(path, its paragraphs) of each section in order: its path is its heading after the
    headings it is under (`("Setup", "Two players")`); text before the first heading is
    under `()`. A paragraph is one line, a table its rows, one a line."""
    out: list[tuple[Path, list[str]]] = [((), [])]
    block: list[str] = []
    outline: list[tuple[int, str]] = []

    def flush() -> None:
        if block:
            table = all(_ROW.match(line) for line in block)
            lines = [line.strip() for line in block]
            out[-1][1].append("\n".join(lines) if table else joined_lines(lines))
            block.clear()
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)  # cardgen's markers (card faces)
    for line in markdown.splitlines():
        heading = _HEADING.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            outline = [h for h in outline if h[0] < level] + [(level, heading.group(2))]
            out.append((tuple(h for _, h in outline), []))
        elif not line.strip():
            flush()
        else:
            block.append(line)
    flush()
    return [s for s in out if s[0] or s[1]]


def is_table(paragraph: str | None) -> bool:
    return bool(paragraph) and all(_ROW.match(r) for r in (paragraph or "").split("\n"))


def table_rows(paragraph: str) -> list[list[str]]:
    """A Markdown table's rows as their cells' text, the line under the header left out."""
    rows = []
    for line in paragraph.split("\n"):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if cells and all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


@dataclass(frozen=True)
class CellChange:
    """A table's change: a row added or removed (`column` None), or one of its cells."""

    how: str  # "+", "-" or "~"
    row: str  # the row's first cell
    column: str | None = None  # the cell's column (its header)
    old: str | None = None  # the cell's text, or the row's cells joined
    new: str | None = None


def table_changes(old: str, new: str) -> list[CellChange]:
    """The rows and cells that changed between two versions of a table: rows are told by
    their first cell (by their place where that repeats), cells by their column."""
    a, b = table_rows(old), table_rows(new)
    header = b[0] if b else []
    out = []
    if a[:1] != b[:1]:
        out.append(CellChange("~", "", None, " | ".join(a[0] if a else []), " | ".join(header)))

    def keyed(rows: list[list[str]]) -> dict[str, list[str]]:
        keys = [r[0] if r else "" for r in rows]
        return {(k if keys.count(k) == 1 else f"{k} #{n}"): r
                for n, (k, r) in enumerate(zip(keys, rows), 1)}
    before, after = keyed(a[1:]), keyed(b[1:])
    for key, row in after.items():
        was = before.get(key)
        if was is None:
            out.append(CellChange("+", key, new=" · ".join(row)))
            continue
        for n in range(max(len(row), len(was))):
            x, y = (was[n] if n < len(was) else ""), (row[n] if n < len(row) else "")
            if x != y:
                column = header[n] if n < len(header) else str(n + 1)
                out.append(CellChange("~", key, column, x, y))
    out += [CellChange("-", key, old=" · ".join(row)) for key, row in before.items()
            if key not in after]
    return out


def _needle(text: str) -> str:
    text = re.sub(r"(^|\s)(?:[-*+]|\d+[.)])\s+", " ", text)  # list marks print as bullets
    return re.sub(r"\s+|[#*_`>|]", "", text)[:24]


_MARKS = str.maketrans("", "", "•・")  # a list's bullets, as the rulebook prints them


def _page_of(text: str, pages: list[tuple[str, str]], start: int = 1) -> int | None:
    """The first page (1-based) from `start` on that prints `text` (its first words), if
    one does (else the first page before `start` that does)."""
    if is_table(text):
        text = " ".join(table_rows(text)[0])
    needle = _needle(text).translate(_MARKS)
    if not needle:
        return None
    found = [n for n, (_, page) in enumerate(pages, 1) if needle in page.translate(_MARKS)]
    return next((n for n in found if n >= start), found[0] if found else None)


@dataclass(frozen=True)
class RuleChange:
    """One change of the rules as text: a section added or removed (`old` and `new` None),
    moved or renamed (`how` ">", `was` its old path), or one of its paragraphs added,
    removed or changed; `page` where it now is."""

    how: str  # "+", "-", "~" or ">"
    path: Path  # the section's path (`()`: the text before the first heading)
    old: str | None = None  # the paragraph before
    new: str | None = None  # and after
    page: int | None = None
    was: Path | None = None  # a moved section's path before
    before: Path | None = None  # the section a moved one is now before (None: the last)

    @property
    def heading(self) -> str:
        return PATH_SEP.join(self.path)


def _similarity(a: list[str], b: list[str]) -> float:
    x, y = "\n".join(a), "\n".join(b)
    matcher = difflib.SequenceMatcher(None, x, y, autojunk=False)
    return matcher.ratio() if matcher.real_quick_ratio() >= SIMILAR and \
        matcher.quick_ratio() >= SIMILAR else 0.0


def align(old: list[tuple[Path, list[str]]],
          new: list[tuple[Path, list[str]]]) -> tuple[dict[int, int], list[int], list[int]]:
    """The new version's sections paired with the old one's, as a diff pairs lines: the
    sections unchanged in their place first, then by their path and text: the same text
    under the same heading (moved), the same path (changed), the most alike text under the
    same heading, or the same text under another heading (renamed). New index -> old
    index for the changed, moved and renamed ones; the new sections left unpaired (added)
    and the old ones (removed)."""
    keys = [(p, tuple(t)) for p, t in old], [(p, tuple(t)) for p, t in new]
    gone: list[int] = []
    come: list[int] = []
    ops = difflib.SequenceMatcher(None, keys[0], keys[1], autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag != "equal":
            gone += range(i1, i2)
            come += range(j1, j2)
    pairs: dict[int, int] = {}

    def pair(test) -> None:
        for j in come:
            if j in pairs:
                continue
            free = [i for i in gone if i not in pairs.values()]
            i = test(j, free)
            if i is not None:
                pairs[j] = i
    same = lambda i, j: old[i][0][-1:] == new[j][0][-1:]  # noqa: E731 (the same heading)
    pair(lambda j, free: next((i for i in free if same(i, j) and old[i][1] == new[j][1]), None))
    pair(lambda j, free: next((i for i in free if old[i][0] == new[j][0]), None))
    if len(gone) * len(come) <= ALIGN_BUDGET:
        def likest(j: int, free: list[int]) -> int | None:
            scored = [(_similarity(old[i][1], new[j][1]), -i) for i in free if same(i, j)]
            best = max(scored, default=(0.0, 0))
            return -best[1] if best[0] >= SIMILAR else None
        pair(likest)
    pair(lambda j, free: next((i for i in free if new[j][1] and old[i][1] == new[j][1]), None))
    return (pairs, [j for j in come if j not in pairs],
            [i for i in gone if i not in pairs.values()])


def paragraph_changes(old: list[str], new: list[str]) -> list[tuple[str, str | None,
                                                                     str | None]]:
    """A section's paragraphs that changed, aligned as a diff aligns lines: ("~", old,
    new) for one changed, ("-", old, None) removed, ("+", None, new) inserted. Where as
    many were replaced as put in, each is the one in its place changed; otherwise each
    changed one is paired with the likest in the block (a paragraph inserted beside one
    whose word changed is one inserted and one changed, not every one removed and put
    in again)."""
    out: list[tuple[str, str | None, str | None]] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            out += [("~", a, b) for a, b in zip(old[i1:i2], new[j1:j2])]
        else:
            out += _paired(old[i1:i2], new[j1:j2])
    return out


def _paired(old: list[str], new: list[str]) -> list[tuple[str, str | None, str | None]]:
    """A replaced block's paragraphs paired in their order, each old one with the likest
    (at least SIMILAR) of the next few new ones (PAIR_WINDOW on each side, so a block
    costs a few comparisons a paragraph; a block too long for ALIGN_BUDGET is not paired),
    the nearest first, those passed over removed or inserted."""
    out: list[tuple[str, str | None, str | None]] = []
    i = j = 0
    if (len(old) + len(new)) * PAIR_WINDOW ** 2 > ALIGN_BUDGET:  # (data controls it)
        i, j = len(old), len(new)
    while i < len(old) and j < len(new):
        alike = [(-di - dj, score, di, dj) for di in range(min(PAIR_WINDOW, len(old) - i))
                 for dj in range(min(PAIR_WINDOW, len(new) - j))
                 for score in (_similarity([old[i + di]], [new[j + dj]]),) if score >= SIMILAR]
        if not alike:
            out.append(("-", old[i], None))
            i += 1
            continue
        _near, _score, di, dj = max(alike)  # the nearest, then the likest
        out += [("-", a, None) for a in old[i:i + di]] + [("+", None, b) for b in new[j:j + dj]]
        out.append(("~", old[i + di], new[j + dj]))
        i, j = i + di + 1, j + dj + 1
    return out + [("-", a, None) for a in old[i:]] + [("+", None, b) for b in new[j:]]


def rule_changes(old_md: str, new_md: str, pages: list[tuple[str, str]]) -> list[RuleChange]:
    """The rules' changes, each once: sections added, removed and moved, and within a
    section each paragraph added, removed or changed, with the page it is on. Sections are
    paired by `align`, so a heading that repeats under others is not mistaken for another."""
    old, new = sections(old_md), sections(new_md)
    starts: list[int] = []
    for j, (path, paragraphs) in enumerate(new):  # each section's page: after the one before
        # it, found by its first paragraph (a heading with none, as a title over its
        # subsections, by the next paragraph: its heading alone is also in the contents)
        first = next((p[0] for _, p in new[j:] if p), path[-1] if path else "")
        found = _page_of(first, pages, starts[-1] if starts else 1)
        starts.append(found or (starts[-1] if starts else 1))
    pairs, added, removed = align(old, new)
    out = []
    for j, (path, paragraphs) in enumerate(new):
        start = starts[j]
        if j in added:  # found by its first paragraph: its heading is in the contents too
            out.append(RuleChange("+", path, page=start))
            continue
        if j not in pairs:
            continue
        before = old[pairs[j]][1]
        if old[pairs[j]][0] != path or before == paragraphs:
            out.append(RuleChange(">", path, page=start, was=old[pairs[j]][0], before=next(
                (p for p, _ in new[j + 1:] if len(p) <= len(path)), None)))
        for how, a, b in paragraph_changes(before, paragraphs):
            out.append(RuleChange(how, path, a, b, None if b is None else
                                  _page_of(b, pages, start)))
    out += [RuleChange("-", old[i][0]) for i in removed]
    return out


def text_changes(changes: list[RuleChange], word_diff) -> list[str]:
    """The rules' changes in words, for the terminal: the changed words marked, a table's
    changed rows and cells."""
    lines: list[str] = []
    for c in changes:
        name = _("section '{heading}'", heading=c.heading) if c.path else \
            _("the opening text")
        at = _(" (p. {page})", page=c.page) if c.page else ""
        if c.how == ">":
            lines.append(Joined("", ["> ", name, at, ": ", _(
                "moved from '{path}'", path=PATH_SEP.join(c.was or ()) or _("the opening text"))
                if c.was != c.path else _("moved before '{path}'", path=PATH_SEP.join(
                    c.before)) if c.before else _("moved to the end")]))
        elif c.old is None and c.new is None:
            lines.append(Joined("", [c.how, " ", name, at if c.how == "+" else ""]))
        elif c.how == "~" and is_table(c.old) and is_table(c.new):
            lines += [Joined("", ["~ ", name, at, ": ", cell_words(t, word_diff)])
                      for t in table_changes(c.old or "", c.new or "")]
        elif c.how == "~":
            lines.append(Joined("", ["~ ", name, at, ": ", _said(c.old or "", c.new or "",
                                                                 word_diff)]))
        else:
            lines.append(Joined("", [c.how, " ", name, at, ": ",
                                     _short((c.new if c.how == "+" else c.old) or "")]))
    return lines


def cell_words(change: CellChange, word_diff) -> str:
    """A table's change in words: "row '3 players', Cards: 12 -> 13"."""
    if change.how == "+":
        return _("new row: {cells}", cells=change.new)
    if change.how == "-":
        return _("row removed: {cells}", cells=change.old)
    if change.column is None:
        return _("the header: {change}", change=word_diff(change.old or "", change.new or ""))
    old, new = change.old or "", change.new or ""
    return _("row '{row}', {column}: {change}", row=change.row, column=change.column,
             change=_said(old, new, word_diff) if len(old) > 20 or len(new) > 20 else
             Joined(" -> ", [old or _("(none)"), new or _("(none)")]))


def _said(old: str, new: str, word_diff):
    """A changed text with its changed words marked (marks.py), abridged around them; said
    before and after where the marks would not read."""
    change = best(plain(old), plain(new), KEEP)
    return word_diff(old, new) if change is None else _('"{text}"', text=shown(change))


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= 100 else text[:97] + "..."


def _data_pages(value: str, rules: tuple | list, pages: list[tuple[str, str]],
                new_md: str = "") -> list[int]:
    """The pages a changed data value is printed on: the page of each changed paragraph (or
    table row) that prints it, else of the first paragraph that prints it (never a page
    where its digits only happen to occur, as the contents' page numbers)."""
    found: list[int] = []
    for c in rules:
        if c.how not in "~+" or not c.new or value not in c.new:
            continue
        if is_table(c.new):
            rows = [r for r in c.new.split("\n") if value in r and r not in (c.old or "")]
            page = _page_of(" ".join(table_rows(rows[0])[0]), pages, c.page or 1) \
                if rows else None
            page = page or c.page
        else:
            page = c.page or _page_of(c.new, pages)
        if page and page not in found:
            found.append(page)
    if found:
        return sorted(found)
    for _path, paragraphs in sections(new_md):  # the paragraph that prints it, on its page
        for paragraph in paragraphs:
            if value in paragraph:
                page = _page_of(paragraph, pages)
                if page:
                    return [page]
    return []


def printed_data(data_changes: list[tuple[str, object, object]], old_md: str, new_md: str,
                 pages: list[tuple[str, str]], show,
                 rules: tuple | list = ()) -> tuple[list[str], set[str]]:
    """The data changes the rulebook prints (the new value is in its text where the old one
    was): 'data rules.points: 20 -> 25: rulebook p. 3', and the paths they explain."""
    lines: list[str] = []
    explained: set[str] = set()
    for path, a, b in data_changes:
        if not isinstance(b, (str, int, float)) or isinstance(b, bool):
            continue
        new_text, old_text = str(b), str(a)
        if new_text and new_text in new_md and new_md.count(new_text) > old_md.count(new_text):
            on = _data_pages(new_text, rules, pages, new_md)
            where = _("rulebook p. {page}", page=on[0]) if len(on) == 1 else \
                _("rulebook pp. {pages}", pages=Listed(map(str, on), None)) if on else \
                _("the rulebook")
            lines.append(_("data {path}: {change}: {where}", path=path, change=show(a, b),
                           where=where))
            explained.add(path)
        elif old_text and old_md.count(old_text) > new_md.count(old_text):
            lines.append(_("data {path}: {change}: {where}", path=path, change=show(a, b),
                           where=_("the rulebook")))
            explained.add(path)
    return lines, explained


def compare_rulebooks(old_pdf: bytes | None, old_md: str, new_pdf: bytes | None, new_md: str,
                      data_changes: list, word_diff, show) -> tuple[BookChanges | None, set]:
    """The rulebook's changes (None when neither version has one, or nothing changed), and
    the data paths whose changes it prints."""
    if old_pdf is None and new_pdf is None:
        return None, set()
    old = pdf_pages(old_pdf) if old_pdf else []
    new = pdf_pages(new_pdf) if new_pdf else []
    book = BookChanges(len(old), len(new), compare_pages(old, new))
    if not book.pages and old_md == new_md:
        return None, set()
    book.rules = rule_changes(old_md, new_md, new) if old_md != new_md else []
    book.sections = sections(new_md)
    book.text = text_changes(book.rules, word_diff)
    book.data, explained = printed_data(data_changes, old_md, new_md, new, show, book.rules)
    # A sheet is paper: every page that prints differently where it stands (its content
    # changed, or it moved or reflowed) puts its sheet in the reprint; with another number
    # of sheets, every sheet folds differently.
    differs = [c.page for c in book.pages if c.page is not None]
    book.sheets = booklet_sheets(differs, len(new))
    if old and -(-len(old) // 4) != -(-len(new) // 4):
        book.sheets = list(range(1, -(-len(new) // 4) + 1))
    return (book if not book.empty else None), explained
