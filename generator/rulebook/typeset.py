"""Typesetting the rulebook: Markdown (markdown-it-py, read as markdown.py sets it up) to
reportlab platypus flowables.

Paragraphs, headings, list items and table cells are `JText` flowables: they
break lines with the same engine as card text (kinsoku, Latin words whole,
inline bold and colour) and measure before they draw, as platypus's
wrap/split/draw protocol asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from markdown_it.token import Token
from reportlab.platypus import (CondPageBreak, Flowable, ListFlowable, ListItem, PageBreak, Spacer,
                                Table)

from ..colors import parse_color
from ..declared import RULEBOOK
from ..primitives import Face
from ..i18n import _, said
from ..textflow import (Atom, Box, MarkupError, MissingGlyphs, Style, break_lines, font_for,
                       first_baseline, full_width, parse, place_horizontal, typographic, typography)
from ..model import FontFamily, Game
from ..draw import draw_items
from ..fonts import ensure, string_width
from .faces import Faces
from .markdown import CJK, indented, markdown
from .notes import editor_box, is_editor_note, note_box
from .tables import (MIN_ROWS, SHORT_TABLE, KeptTable, column_widths, narrow_columns,
                     ruled_table, table_style)
from .template import BESIDE, FACES, PAGEBREAK, WIDTHS

_MARKER = re.compile(r"<!--\s*(cardgen:[a-z]+)\s*(.*?)\s*-->", re.S)
# A line break inside a Markdown paragraph: a space in English, nothing between two
# Japanese characters (Japanese does not put spaces between words).
_SOFT = "\x00"
_OWN_TAG = re.compile(r"^</?(b|i|color|icon|tcy|wbr)(\s[^<>]*)?/?>$")
_SOFT_BETWEEN_CJK = re.compile(f"([{CJK}])\x00([{CJK}])")


@dataclass(frozen=True)
class Look:
    body: FontFamily
    heading: FontFamily
    size: float
    accent: tuple
    ink: tuple = (0.1, 0.1, 0.12)
    fallbacks: tuple[FontFamily, ...] = ()  # the body's fallback families, in order


class JText(Flowable):
    """A paragraph set like card text: measured in wrap, split between pages by lines."""

    vertical = False  # its lines run across (rulebook/vertical.VText: down)

    def __init__(self, atoms: list[Atom], size: float, line_spacing: float, font: str,
                 align: str = "justify", space_before: float = 0.0, space_after: float = 0.0,
                 lines=None, plain: str = ""):
        super().__init__()
        self.atoms, self.size, self.line_spacing, self.font = atoms, size, line_spacing, font
        self.align = align
        self.spaceBefore, self.spaceAfter = space_before, space_after
        self._lines = lines
        self._part = lines is not None  # a piece of a split paragraph: its lines are its text
        self.plain = plain  # the text without markup, for the table of contents
        self._width = 0.0
        self.hyphenate: str | None = None  # a language to hyphenate in ("en_US"), or none
        self.phrase = False  # break only between Japanese phrases (BudouX) where one fits
        # The fewest lines a split may leave on either page: 2, so that no paragraph leaves
        # a single line alone at the foot or the top of a page (no orphans, no widows).
        self.keep_lines = 2

    @property
    def leading(self) -> float:
        return self.size * self.line_spacing

    def wrap(self, available_width, available_height):
        # A piece of a split paragraph keeps its lines: breaking `atoms` (the whole
        # paragraph) again would give the piece the whole text back, and a table that
        # splits a row would then split it for ever.
        if self._lines is None or (self._width != available_width and not self._part):
            self._lines = break_lines(self.atoms, self.size, available_width, self.vertical,
                                      phrase=self.phrase, hyphenate=self.hyphenate) or []
            self._width = available_width
        self.width, self.height = available_width, len(self._lines) * self.leading
        return self.width, self.height

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        fit = int((available_height + 1e-6) // self.leading)
        fit = min(fit, len(self._lines) - self.keep_lines)  # the tail keeps its lines too
        if fit < max(1, self.keep_lines) or fit >= len(self._lines):
            return []
        piece = self.piece  # a heading's pieces are paragraphs: only a whole one is a heading
        head = piece(self.atoms, self.size, self.line_spacing, self.font, self.align,
                     self.spaceBefore, 0.0, self._lines[:fit], self.plain)
        tail = piece(self.atoms, self.size, self.line_spacing, self.font, self.align,
                     0.0, self.spaceAfter, self._lines[fit:], self.plain)
        head._width = tail._width = available_width
        head.keep_lines = tail.keep_lines = self.keep_lines
        return [head, tail]

    def first_lines(self, width: float, count: int) -> float:
        """The height of its first `count` lines, space before included."""
        self.wrap(width, 1e9)
        return self.spaceBefore + min(count, len(self._lines)) * self.leading

    def draw(self):
        items = place_horizontal(self._lines, self.size, self.leading,
                                 Box(0, 0, self.width, self.height), self.align, "top", self.font)
        draw_items(self.canv, items)


JText.piece = JText
J = TypeVar("J", bound=JText)  # a paragraph's flowable, or a heading's


class Heading(JText):
    def __init__(self, level: int, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.level = level
        self.page_height = 1e9  # the text frame's: a heading taller than this is split

    def split(self, available_width, available_height):
        """A heading moves whole to the next page, unless it is taller than a page: then it
        is set over pages like a paragraph (platypus would give up on the rulebook)."""
        if self.wrap(available_width, 1e9)[1] > self.page_height:
            return super().split(available_width, available_height)
        return []


class KeepWithNext(CondPageBreak):
    """Before a heading: a page break unless the heading, and the start of what follows it
    (two lines of a paragraph, a table's header and two rows, a row of card faces, or the
    next heading and its own start), fit on this page. So no page ends with a heading."""

    def __init__(self, run: list):
        super().__init__(0)
        self.run = run  # the heading, then what follows it up to the first non-heading

    def wrap(self, available_width, available_height):
        self.height = sum(_room(f, available_width) for f in self.run)
        return super().wrap(available_width, available_height)


def _room(flowable, width: float) -> float:
    """The height a flowable's first part needs on the page where it starts."""
    if isinstance(flowable, Heading):
        return flowable.first_lines(width, 10 ** 6) + flowable.spaceAfter
    if isinstance(flowable, JText):  # two lines, or all of a paragraph too short to split
        flowable.wrap(width, 1e9)
        lines = len(flowable._lines)
        return flowable.first_lines(width, lines if lines < 2 * flowable.keep_lines else 2)
    if isinstance(flowable, KeptTable):
        flowable.wrap(width, 1e9)
        heights = flowable._rowHeights
        short = len(heights) - flowable.repeatRows <= SHORT_TABLE
        least = 1 if short else MIN_ROWS  # a short table taller than a page: one row
        keep = len(heights) if short and flowable.keep_short else flowable.repeatRows + least
        return sum(heights[:keep])
    if isinstance(flowable, Faces):  # its first row
        flowable.wrap(width, 1e9)
        return flowable._row_height(flowable._rows[0])
    return 60.0  # a list or a note: its start, about three lines (measured only on a page)


def keep_headings(story: list) -> list:
    """The story with a KeepWithNext before each heading that starts a run of headings."""
    out = []
    for k, flowable in enumerate(story):
        if isinstance(flowable, Heading) and not (k and isinstance(story[k - 1], Heading)):
            run = [flowable]
            for after in story[k + 1:]:
                if isinstance(after, (CondPageBreak, Spacer)) \
                        and not isinstance(after, KeepWithNext):
                    continue
                run.append(after)
                if not isinstance(after, Heading):
                    break
            out.append(KeepWithNext(run))
        out.append(flowable)
    return out


def _text_problem(exc: MissingGlyphs | MarkupError) -> str:
    """What a block of the rulebook that cannot be set says (rulebook: ... at its line)."""
    if isinstance(exc, MissingGlyphs):
        return exc.said(_("the text"))
    return said(exc)


MAX_BLANK_PAGES = 4  # pagebreak()s in a row past a page's end: blank pages
BLANK_PAGES = _("pagebreak(): more than {n} blank pages in a row; a rulebook's page breaks "
                "each end a page that has something on it, or up to {n} blank pages",
                n=MAX_BLANK_PAGES)


def _breaks_at_end(story: list) -> int:
    """How many page breaks end the story, in a row."""
    n = 0
    while n < len(story) and isinstance(story[-1 - n], PageBreak):
        n += 1
    return n


def _block_end(tokens: list[Token], i: int) -> int:
    """The token after the block that opens at token i (its closing token at its level)."""
    opening = tokens[i]
    if opening.nesting != 1:
        return i + 1
    for j in range(i + 1, len(tokens)):
        if tokens[j].level == opening.level and tokens[j].nesting == -1:
            return j + 1
    return len(tokens)


HYPHENATION = {"en": "en_US"}  # the rulebook's language -> pyphen's dictionary
BULLETS = {"ja": "・"}  # a list's mark by language, else "•"; an ordered one counts from its start
TABLE_SIZE = 0.95  # table text, times the body size
PARA_SPACING = 1.7  # a paragraph's leading, times its size


def marker_options(args: str) -> dict:
    """The `key=value` options of a cardgen marker comment."""
    return dict(a.split("=", 1) for a in args.split() if "=" in a)


def max_columns(width: float, size: float) -> int:
    """How many table columns fit across `width` with at least two characters of `size`
    (and the cell padding) in each: more would print empty cells."""
    return max(1, int(width // (size * 2 + 9)))


class Typesetter:
    """The template's Markdown as flowables, set across the page (writing: horizontal);
    rulebook/vertical.VerticalTypesetter sets it down the page."""

    Text, Head = JText, Heading  # a paragraph's flowable, and a heading's

    def __init__(self, game: Game, look: Look, faces_by_id: dict, width: float,
                 height: float = 1e9, lang: str = "ja"):
        self.game, self.look, self.faces, self.width = game, look, faces_by_id, width
        self.hyphenate = HYPHENATION.get(lang)
        self.lang = lang
        self.warnings: list[tuple[int, str]] = []  # (line of the rendered template, message)
        # (line, the text from the problem on, message) of text that cannot be set
        self.errors: list[tuple[int, str, str]] = []
        self.lines: list[str] = []  # of the rendered template being set
        self.widths: list[float] | None = None  # column_widths() for the next table
        self.height = height  # of the text frame: a table row taller than this is split
        rulebook = game.rulebook
        self.md = markdown()
        self.smart_quotes = rulebook.smart_quotes if rulebook else RULEBOOK.value("smart_quotes")
        self.align = rulebook.align if rulebook else RULEBOOK.value("align")
        self.indent = rulebook.indent if rulebook else RULEBOOK.value("indent")

    # -- inline -----------------------------------------------------------------------------
    def markup(self, children) -> str:
        out = []
        for t in children or []:
            if t.type == "text" or t.type == "code_inline":
                out.append(t.content)
            elif t.type == "softbreak":
                out.append(_SOFT)
            elif t.type == "hardbreak":
                out.append("\n")
            elif t.type == "strong_open":
                out.append("<b>")
            elif t.type == "strong_close":
                out.append("</b>")
            elif t.type == "em_open":  # italic where the family has one, else the accent
                out.append("<i>" if self.look.body.italic else
                           f"<color {self._hex(self.look.accent)}>")
            elif t.type == "em_close":
                out.append("</i>" if self.look.body.italic else "</color>")
            elif t.type == "html_inline" and _OWN_TAG.match(t.content):
                out.append(t.content)  # cardgen's own markup: <b>, <color ...>, <icon ...>, <tcy>
        return _SOFT_BETWEEN_CJK.sub(r"\1\2", "".join(out)).replace(_SOFT, " ")

    @staticmethod
    def _hex(color) -> str:
        """A colour as the text markup writes it: #rrggbb, or cmyk(c,m,y,k)."""
        if len(color) == 4:
            return "cmyk(" + ",".join(f"{c:g}" for c in color) + ")"
        return "#" + "".join(f"{int(round(c * 255)):02x}" for c in color[:3])

    def text(self, markup: str, size: float, family: FontFamily, bold=False, color=None,
             align="justify", before=0.0, after=0.0, spacing=PARA_SPACING) -> JText:
        return self._set(self.Text, markup, size, family, bold, color, align, before, after,
                         spacing)

    def _set(self, make: Callable[..., J], markup: str, size: float, family: FontFamily,
             bold: bool, color, align: str, before: float, after: float, spacing: float) -> J:
        """`markup` set in a flowable that `make` makes (a paragraph, a heading)."""
        atoms = self._atoms(markup, Style(family, bold, color or self.look.ink))
        font = family.bold if bold else family.regular
        plain = re.sub(r"<[^>]+>", "", markup)
        return make(atoms, size, spacing, font, align, before, after, plain=plain)

    def para(self, markup: str, align=None):
        s = self.look.size
        align = align or self.align
        flow = self.text(markup, s, self.look.body, align=align, after=s * 0.7)
        flow.hyphenate = self.hyphenate if align == "justify" else None  # English, justified
        return flow

    # -- blocks -----------------------------------------------------------------------------
    def flowables(self, markdown: str) -> list:
        self.lines = markdown.splitlines()
        tokens = self.md.parse(markdown)
        story, _end = self._blocks(tokens, 0, None)
        return keep_headings(story)

    def _blocks(self, tokens: list[Token], i: int, stop: str | None) -> tuple[list, int]:
        story: list = []
        while i < len(tokens):
            t = tokens[i]
            if stop and t.type == stop:
                return story, i + 1
            try:
                flows, i = self._block(tokens, i)
            except (MissingGlyphs, MarkupError) as exc:
                # Text the rulebook's fonts cannot draw, or markup that does not close: an
                # error at its line (validate reports it), and the block is left out.
                self.errors.append((*self._source_of(t, exc), _text_problem(exc)))
                flows, i = [], _block_end(tokens, i)
            for flow in flows:
                if isinstance(flow, PageBreak) and _breaks_at_end(story) > MAX_BLANK_PAGES:
                    if not any(e[2] == BLANK_PAGES for e in self.errors):  # (said once)
                        self.errors.append(((t.map or (0, 0))[0] + 1, "pagebreak()", BLANK_PAGES))
                    continue  # (the typesetter would stop at ten empty pages)
                story.append(flow)
        return story, i

    def _source_of(self, block: Token, exc: MissingGlyphs | MarkupError) -> tuple[int, str]:
        """(line, text from the problem on) of the rendered template where a block that cannot
        be set has its problem: the line of a character no font has, else the block's first."""
        first, end = block.map or (0, 0)
        for n in range(first, min(end, len(self.lines))):
            text = self.lines[n]
            at = [text.index(c) for c in getattr(exc, "chars", ()) if c in text]
            if at:
                return n + 1, text[min(at):]
        return first + 1, ""

    def _block(self, tokens: list[Token], i: int) -> tuple[list, int]:
        """The flowables of the block that starts at token i, and the token after it."""
        t = tokens[i]
        if t.type == "heading_open":
            level = int(t.tag[1])
            return self._heading(level, self.markup(tokens[i + 1].children)), i + 3
        if t.type == "paragraph_open":  # a body paragraph (not in a list or a note): 字下げ
            text = self.markup(tokens[i + 1].children)
            return [self.para(indented(text) if self.indent and t.level == 0 else text)], i + 3
        if t.type in ("bullet_list_open", "ordered_list_open"):
            flow, i = self._list(tokens, i)
            return [flow], i
        if t.type == "table_open":
            flow, i = self._table(tokens, i)
            return [flow], i
        if t.type == "blockquote_open":
            editor = is_editor_note(tokens, i)
            inner, i = self._blocks(tokens, i + 1, "blockquote_close")
            return [editor_box(self, inner) if editor else note_box(self, inner)], i
        if t.type == "html_block":
            return list(self._marker(t.content)), i + 1
        if t.type in ("fence", "code_block"):
            return [self.para(t.content.rstrip("\n"), align="left")], i + 1
        if t.type == "hr":
            return [Spacer(1, self.look.size)], i + 1
        return [], i + 1

    def _heading(self, level: int, markup: str) -> list:
        s = self.look.size
        size = {1: s * 1.75, 2: s * 1.35, 3: s * 1.12}.get(level, s)
        h = self._set(partial(self.Head, level), markup, size, self.look.heading, True,
                      self.look.accent if level <= 2 else None, "left",
                      size * (1.0 if level == 1 else 0.8), size * 0.45, 1.35)
        h.page_height = self.height
        return [h]

    def _list(self, tokens, i):
        opening = tokens[i]
        ordered = opening.type == "ordered_list_open"
        close = "ordered_list_close" if ordered else "bullet_list_close"
        items, listed = [], False
        i += 1
        while tokens[i].type != close:
            if tokens[i].type == "list_item_open":
                inner, i = self._blocks(tokens, i + 1, "list_item_close")
                for f in inner:
                    if isinstance(f, JText):
                        f.spaceAfter = self.look.size * 0.25
                items.append(ListItem(inner))
                listed = listed or bool(inner)
            else:
                i += 1
        if not listed:  # nothing to list: reportlab cannot draw an empty list
            return Spacer(1, 0), i + 1
        start = int(opening.attrs.get("start", 1)) if ordered else BULLETS.get(self.lang, "•")
        s, font = self.look.size, self.look.body.regular
        # "1." or "1)" as written (JLREQ, English books), the widest setting the indent
        mark = "%s" + opening.markup if ordered else None
        bullet = font if ordered else font_for(self.look.body, False, start, self.look.fallbacks)
        numbers = range(int(start), int(start) + len(items)) if ordered else range(0)
        widest = max((string_width(f"{n}{opening.markup}", font, s) for n in numbers), default=0.0)
        dedent = max(s * 1.2, widest + s * 0.4)
        flow = ListFlowable(items, bulletType="1" if ordered else "bullet", start=start,
                            bulletFormat=mark, bulletFontSize=s,  # (・ in Latin type: a fallback's)
                            bulletFontName=font if bullet in (None, font) else ensure(bullet),
                            leftIndent=dedent + s * 0.4, bulletDedent=dedent,
                            bulletColor=self.look.accent, spaceAfter=s * 0.6,
                            # reportlab sets the bullet's baseline a font size below the
                            # item's top: moved to the first line's, whatever the font's ascent
                            bulletOffsetY=s - first_baseline(font, s, s * PARA_SPACING))
        return flow, i + 1

    def _table(self, tokens: list[Token], i: int) -> tuple[Flowable, int]:
        rows: list[list[str]] = []
        aligns: list[list[str]] = []
        header_rows = 0
        in_head = False
        lines = tokens[i].map
        first_line = lines[0] + 1 if lines else 0  # in the rendered template
        while tokens[i].type != "table_close":
            t = tokens[i]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                rows.append([])
                aligns.append([])
                header_rows += 1 if in_head else 0
            elif t.type in ("th_open", "td_open"):
                css = str(t.attrs.get("style", ""))  # |:---:| and |---:| in the table
                aligns[-1].append("center" if "center" in css else
                                  "right" if "right" in css else "left")
            elif t.type == "inline":
                rows[-1].append(self.markup(t.children))
            i += 1
        cols = max(len(r) for r in rows)
        s, widths = self._column_widths(rows, header_rows, cols, first_line)
        asked, self.widths = self.widths, None
        if asked is not None:  # the template's shares of the page's width
            if len(asked) != cols:
                self.warnings.append((first_line, f"column_widths gives {len(asked)} widths "
                                                  f"for a table of {cols} columns"))
            else:
                widths = [self.width * w / sum(asked) for w in asked]
                narrow = narrow_columns(rows, header_rows, widths, s, self._cell_atoms,
                                        self.Text.vertical)
                if narrow:
                    self.warnings.append((first_line, narrow))
        cells: list[list[Flowable]] = []
        for r, row in enumerate(rows):
            cells.append([])
            for c, text in enumerate(row):
                cell = self.text(text, s, self.look.body, bold=r < header_rows,
                                 align=aligns[r][c] if c < len(aligns[r]) else "left",
                                 spacing=1.45)
                cell.phrase = True  # Japanese breaks between phrases, English between words
                cells[-1].append(cell)
            cells[-1] += [Spacer(1, 1)] * (cols - len(row))
        table = ruled_table(cells, widths, header_rows, self.height, self.look)
        return table, i + 1

    def _column_widths(self, rows, header_rows: int, cols: int, line: int):
        """(text size, column widths) of a table (tables.column_widths)."""
        size, widths, warning = column_widths(
            rows, header_rows, cols, self.width, self.look.size * TABLE_SIZE, self._cell_atoms,
            self.Text.vertical)
        if warning:
            self.warnings.append((line, warning))
        return size, widths

    def _cell_atoms(self, text: str, bold: bool) -> list[Atom]:
        return self._atoms(text, Style(self.look.body, bold, self.look.ink))

    def _atoms(self, markup: str, style: Style) -> list[Atom]:
        """Markup as the rulebook sets it: parsed, its quotes a typographer's (unless
        smart_quotes: false), its full-width letters full-width."""
        atoms = parse(markup, style, self.game.colors, self.game.icons, self.game.fonts,
                      parse_color, lambda path: 1.0)
        if self.smart_quotes and typography.MARKS.search(markup):
            atoms = typographic(atoms)
        return full_width(atoms) if typography.FULL_WIDTH.search(markup) else atoms

    def _beside(self, card_id: str, field: str, side: str):
        """A card face with one of its fields set beside it (a gallery entry)."""
        face = self.faces[side].get(card_id)
        card = next((c for c in self.game.cards() if c.id == card_id), None)
        text = str(card.fields.get(field, "")) if card else ""
        face_w = self.width * 0.42
        scale = face_w / face.width if face else 1.0
        paragraphs = [self.para(p) for p in text.split("\n") if p.strip()] or [Spacer(1, 1)]
        table = Table([[Faces([face], max_scale=scale, names=(card_id,), side=side) if face
                        else Spacer(1, 1), paragraphs]],
                      colWidths=[face_w + 8, self.width - face_w - 8])
        table.setStyle(table_style(self.look, [("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (0, -1), 8)]))
        table.spaceAfter = self.look.size * 1.2
        return table

    def figure(self, faces: list[Face], scale: float, names: tuple[str, ...] = (),
               side: str = "front") -> Flowable:
        """Card faces in rows, at most at `scale` (the cards' ids, `names`, on `side`)."""
        return Faces(faces, max_scale=scale, names=names, side=side)

    def _marker(self, html: str) -> list:
        flows = []
        for kind, args in _MARKER.findall(html):
            if kind == PAGEBREAK:
                flows.append(PageBreak())
            elif kind == FACES:
                opts = marker_options(args)
                ids = [x for x in opts.get("ids", "").split(",") if x]
                side = self.faces.get(opts.get("side", "front"), {})  # (validate checks sides)
                faces = [side[c] for c in ids if c in side]
                if faces:
                    scale = float(opts.get("scale", 1.0))  # checked by the template
                    flows += [self.figure(faces, scale, tuple(c for c in ids if c in side),
                                          opts.get("side", "front")),
                              Spacer(1, self.look.size)]
            elif kind == WIDTHS:
                self.widths = [float(w) for w in args.split(",") if w]
            elif kind == BESIDE:
                opts = marker_options(args)
                flows.append(self._beside(opts.get("id", ""), opts.get("field", ""),
                                          opts.get("side", "front")))
        return flows
