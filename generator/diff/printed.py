"""What changed in the printed pages that are not card faces: rulebook pages, booklet
sheets and board pages, between two versions of a game (`cardgen diff`, errata).

A page's identity is what it prints, as a face's is (identity.py): a rulebook page is
drawn by the typesetter, not from primitives, so its identity is a digest of the page
rasterised (every glyph, rule and picture it puts on paper, fonts and images included);
a board page is imposed from primitives, so its identity is the digest of what it places
and marks. Pages are told apart as:

- `changed`: it prints something the old version did not print anywhere;
- `moved`: it prints what a page of the old version printed, at another number;
- `reflowed`: its text was all in the old version, but it falls on the page otherwise
  (a paragraph inserted before it pushed it down);
- `added` and `removed`: the version has more or fewer pages.

Only `changed` and `added` pages need reprinting; a booklet's sheets that carry one are
the sheets to reprint. The rules as text are compared too, section by section, paragraph
by paragraph, with the changed words marked (Japanese character by character).
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from ..i18n import Joined, _

PAGE_DPI = 50  # the raster a rulebook page's identity is taken from


@dataclass(frozen=True)
class PageChange:
    how: str  # changed, moved, reflowed, added or removed
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
                if c.how in ("changed", "added") and c.page is not None]

    @property
    def empty(self) -> bool:
        return not (self.pages or self.text or self.data)


@dataclass
class BoardChanges:
    board: str
    pages_before: int
    pages_after: int
    pages: list[int]  # pages of the new version that print differently (1-based)
    causes: list[str]  # why, in words
    cells: list[tuple] = field(default_factory=list)  # (label, key, before, after) changed
    other: list[str] = field(default_factory=list)  # the causes that are not `cells`
    data: set[str] = field(default_factory=set)  # the data paths its cell layout printed


# -- pages ----------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def pdf_pages(pdf: bytes) -> list[tuple[str, str]]:
    """(identity, text) of each page of a PDF: the digest of the page rasterised, and its
    text with the spaces and line ends left out (kept for the last two: a server compares
    every save with the same revision's rulebook)."""
    import pypdfium2
    document = pypdfium2.PdfDocument(pdf)
    out = []
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=PAGE_DPI / 72)
            digest = hashlib.sha256(bytes(bitmap.buffer) + repr(
                (bitmap.width, bitmap.height)).encode()).hexdigest()[:24]
            text = page.get_textpage().get_text_range()
            out.append((digest, re.sub(r"\s+", "", text)))
    finally:
        document.close()
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
            out[-1][1].append(("\n" if table else " ").join(line.strip() for line in block))
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
        matcher = difflib.SequenceMatcher(None, before, paragraphs, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if tag == "replace" and i2 - i1 == j2 - j1:
                out += [RuleChange("~", path, a, b, _page_of(b, pages, start))
                        for a, b in zip(before[i1:i2], paragraphs[j1:j2])]
                continue
            out += [RuleChange("-", path, old=a) for a in before[i1:i2]]
            out += [RuleChange("+", path, new=b, page=_page_of(b, pages, start))
                    for b in paragraphs[j1:j2]]
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
            lines.append(Joined("", ["~ ", name, at, ": ", word_diff(c.old, c.new)]))
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
             change=word_diff(old, new) if len(old) > 20 or len(new) > 20 else
             Joined(" -> ", [old or _("(none)"), new or _("(none)")]))


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= 100 else text[:97] + "..."


def _data_page(value: str, rules: tuple | list, pages: list[tuple[str, str]],
               new_md: str = "") -> int | None:
    """The page a changed data value is printed on: the page of the changed paragraph (or
    table row) that prints it, else of the first paragraph that prints it (never a page
    where its digits only happen to occur, as the contents' page numbers)."""
    for c in rules:
        if c.how not in "~+" or not c.new or value not in c.new:
            continue
        if is_table(c.new):
            rows = [r for r in c.new.split("\n") if value in r and r not in (c.old or "")]
            found = _page_of(" ".join(table_rows(rows[0])[0]), pages, c.page or 1) \
                if rows else None
            return found or c.page
        return c.page or _page_of(c.new, pages)
    for _path, paragraphs in sections(new_md):  # the paragraph that prints it, on its page
        for paragraph in paragraphs:
            if value in paragraph:
                found = _page_of(paragraph, pages)
                if found:
                    return found
    return None


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
            page = _data_page(new_text, rules, pages, new_md)
            where = _("rulebook p. {page}", page=page) if page else _("the rulebook")
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


# -- boards ---------------------------------------------------------------------------------

def board_page_identities(faces, font: str) -> dict[str, list[str]]:
    """Board id -> the identity of each of its pages, as impose splits it."""
    from ..identity import face_identity, item_digest
    from ..impose import impose_board
    out = {}
    for board_face in faces.boards:
        identities = []
        for page in impose_board(board_face, font):
            h = hashlib.sha256(repr((page.width, page.height)).encode())
            for p in page.placements:
                h.update(face_identity(p.face).encode() + repr((p.x, p.y, p.rotate, p.clip,
                                                                 p.bleed)).encode())
            for item in page.marks:
                h.update(item_digest(item))
            identities.append(h.hexdigest()[:24])
        out[board_face.board.id] = identities
    return out


BOARD_DPI = 72  # the raster two board pages are compared at, when their identities differ


def _same_pixels(old_page, new_page, font: str) -> bool:
    """Whether two board pages put the same pixels on paper: a page places the whole board
    face clipped to its part, so a change elsewhere on the board changes its identity, not
    what it prints."""
    from ..write.png import rasterise
    before, after = rasterise([old_page, new_page], BOARD_DPI, font)
    return before == after


def compare_boards(old_faces, new_faces, font: str, show, reads=None, data_changes=(),
                   reprinted=frozenset()) -> list[BoardChanges]:
    """Each board whose pages print differently (their pixels, not only their identity),
    with its changed pages and why: the cells whose printed values changed, named by
    their printed label, the data its cell layout printed (`data_changes`: path, before,
    after, and whether it is an entry added or removed), the tiles placed on it that were
    reprinted (`reprinted`: card ids), its values. `reads`: the old and new versions'
    `_Read` (diff/__init__.py), for what a cell's layout reads."""
    from ..impose import impose_board
    old_ids = board_page_identities(old_faces, font)
    new_ids = board_page_identities(new_faces, font)
    old_boards = {b.board.id: b for b in old_faces.boards}
    out = []
    for board_face in new_faces.boards:
        board = board_face.board
        before, after = old_ids.get(board.id, []), new_ids[board.id]
        if before == after:
            continue
        pages = [n for n, digest in enumerate(after, 1)
                 if n > len(before) or before[n - 1] != digest]
        old_face = old_boards.get(board.id)
        if old_face is not None and len(before) == len(after):
            old_pages, new_pages = impose_board(old_face, font), impose_board(board_face, font)
            pages = [n for n in pages
                     if not _same_pixels(old_pages[n - 1], new_pages[n - 1], font)]
            if not pages:
                continue
        causes, cells, other = _board_causes(old_face, board_face, show, reads)
        data = _board_printed(old_face, board_face, show, reads, data_changes, reprinted)
        causes += [cause for _path, cause in data]
        other += [cause for _path, cause in data]
        out.append(BoardChanges(board.id, len(before), len(after), pages, causes, cells, other,
                                {path for path, _cause in data if path}))
    for board_id, before in old_ids.items():
        if board_id not in new_ids:
            out.append(BoardChanges(board_id, len(before), 0, [], [_("the board was removed")]))
    return out


# What a board's shape draws of a cell itself, whatever its cell layout reads: its fill
# (its own colour or its type's), its label, the tile placed on it, and where an area or
# a map's place stands, its shape and size.
_DRAWN = ("color", "label", "tile", "type", "x", "y", "w", "h", "shape", "size")


def _board_values(a, b) -> list[tuple[str, object, object]]:
    """The values of a board (its shape's and its own) that changed: (name, before, after)."""
    import dataclasses
    out = []
    if type(a.spec) is type(b.spec) and dataclasses.is_dataclass(a.spec):
        out += [(f.name, getattr(a.spec, f.name), getattr(b.spec, f.name))
                for f in dataclasses.fields(a.spec) if f.name != "routes"
                and getattr(a.spec, f.name) != getattr(b.spec, f.name)]
    elif a.spec != b.spec:
        out.append(("shape", a.spec, b.spec))
    out += [(key, getattr(a, key), getattr(b, key))
            for key in ("margin", "papers", "overlap", "print_margin", "color")
            if getattr(a, key) != getattr(b, key)]
    return out


def _kinds(board) -> dict[str, str]:
    """The kind (options.KINDS) of each value of a board: its shape's options', the
    board's own; a track's `numbers` is its first and last."""
    from ..boards import BOARD, shape
    kinds = {"numbers": "range"}
    for options in (BOARD, getattr(shape(board), "OPTIONS", ())):
        kinds.update({option.key: option.kind for option in options})
    return kinds


def _board_value(kind: str | None, value):
    """A board's value as its layout writes it: a length in mm, a colour in hex, a pair
    as its two values, a range as first–last."""
    from ..units import to_mm
    if kind == "color" and isinstance(value, tuple) and len(value) == 3:
        return "#" + "".join(f"{round(v * 255):02x}" for v in value)
    if kind == "range" and isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}–{value[1]}"
    if kind in ("length", "size") and isinstance(value, (int, float)):
        return f"{round(to_mm(value), 2):g}mm"
    if isinstance(value, tuple):
        return ", ".join(str(_board_value(kind, v)) for v in value)
    return value


def _board_causes(old, new, show, reads=None) -> tuple[list[str], list[tuple], list[str]]:
    """Why a board prints differently, in words; its cells' printed values that changed as
    (label, key, before, after); and the words of the other causes (not those values)."""
    if old is None:
        return [_("a new board")], [], [_("a new board")]
    a, b = old.board, new.board
    causes: list[str] = []
    cells: list[tuple] = []
    other: list[str] = []

    def said(cause: str, value: tuple | None = None) -> None:
        causes.append(cause)
        if value:
            cells.append(value)
        else:
            other.append(cause)
    old_cells = {c.key: c for c in a.cells}
    for cell in b.cells:
        was = old_cells.get(cell.key)
        if was is None:
            said(_("cell {label} added", label=_named(cell)))
            continue
        changed = [k for k in sorted(set(was.record) | set(cell.record), key=str)
                   if was.record.get(k) != cell.record.get(k)]
        if not changed:
            continue
        seen = () if reads is None else (reads[0].cell(a, was), reads[1].cell(b, cell))
        for key in changed:
            if key == "color" and "type" in changed:
                continue  # its type's colour: the type is said
            if key in _DRAWN or any(r is not None and r.under("card", str(key)) for r in seen):
                before, after = was.record.get(key), cell.record.get(key)
                said(_("cell {label} {key}: {change}", label=_named(cell), key=key,
                       change=show(before, after)),
                     (_named(cell), key, before, after))
    kept = {c.key for c in b.cells}
    for k, c in old_cells.items():
        if k not in kept:
            said(_("cell {label} removed", label=_named(c)))
    if a.layout != b.layout or a.shape != b.shape:
        said(_("the board layout '{layout}'", layout=b.layout))
    else:  # each of its values that changed, by name (in the board entry or its layout)
        kinds = _kinds(b)
        for key, before, after in _board_values(a, b):
            said(_("the board's {key}: {change}", key=key, change=show(
                _board_value(kinds.get(key), before), _board_value(kinds.get(key), after))))
    for cause in _route_changes(a, b, show):
        said(cause)
    if a.cards != b.cards:
        said(_("the tiles it places"))
    return causes, cells, other


def _named(cell) -> str:
    """A cell as a change names it: the label it prints, or (an area or place that prints
    none) its id."""
    return cell.label or "/".join(map(str, cell.key))


_ROUTE_KINDS = {"color": "color", "width": "length", "style": None, "wrap": None}


def _route_changes(a, b, show) -> list[str]:
    """A map's routes added, removed or drawn otherwise, each by the names the board
    prints for the places it joins (`Paris – Lyon`; a place without a label by its id);
    where a route is written in its file, and which of its places it names first, are not
    changes."""
    before = {tuple(sorted(r.ends)): r for r in getattr(a.spec, "routes", ())}
    after = {tuple(sorted(r.ends)): r for r in getattr(b.spec, "routes", ())}
    labels = {c.key[0]: c.label or str(c.key[0]) for c in (*a.cells, *b.cells)}

    def named(route) -> str:
        return " – ".join(labels.get(end, end) for end in route.ends)
    out: list[str] = []
    for ends, route in after.items():
        name = named(route)
        was = before.get(ends)
        if was is None:
            out.append(_("route {route} added", route=name))
            continue
        out += [_("route {route} {key}: {change}", route=name, key=key, change=show(
            _board_value(kind, getattr(was, key)), _board_value(kind, getattr(route, key))))
            for key, kind in _ROUTE_KINDS.items() if getattr(was, key) != getattr(route, key)]
    out += [_("route {route} removed", route=named(route))
            for ends, route in before.items() if ends not in after]
    return out


def _board_printed(old, new, show, reads, data_changes, reprinted) -> list[tuple[str, str]]:
    """What else a board prints that changed, as (data path or "", cause): the data values
    its cells' layout read, the tiles placed on it that were reprinted; if nothing is
    found, what its faces draw."""
    out: list[tuple[str, str]] = []
    board = new.board
    if old is not None and reads is not None and data_changes and (
            board.cell_layout is not None or old.board.cell_layout is not None):
        seen = [reads[0].cell(old.board, c) for c in old.board.cells] + \
            [reads[1].cell(board, c) for c in board.cells]
        for path, a, b, grown in data_changes:
            if any(r is not None and r.under("data", path, grown) for r in seen):
                out.append((path, _("data {path}: {change}", path=path, change=show(a, b))))
    out += [("", _("the tile '{card}' it places (its face changed)", card=card))
            for card in dict.fromkeys(board.cards) if card in reprinted]
    return out
