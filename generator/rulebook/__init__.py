"""The rulebook: a branch of the pipeline after validate, rendered from the same data.

`check` renders the game's rulebook template (Markdown with Jinja2) and reports
every unknown card id or data field at its line in the template; `validate`
runs it. `build` typesets the rulebook (cover, table of contents, numbered
pages, Japanese text set like the cards) and imposes it as a saddle-stitch
booklet. Both return PDF bytes; the write stage puts them in place.
"""

from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape
from dataclasses import dataclass, replace
from functools import partial
from itertools import groupby

from reportlab.pdfbase.pdfdoc import PDFName
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, Frame, NextPageTemplate, PageBreak,
                                PageTemplate, Spacer)
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.tableofcontents import TableOfContents

from .. import fonts
from ..layout import GameFaces
from ..model import Game, Rulebook
from ..primitives import Face
from ..problems import DataProblems, Location, Report
from ..textflow import font_for
from ..units import mm, show_size, to_mm
from ..reproducible import keywords, making_pdf, pdf_date
from .booklet import booklet_order, impose_booklet
from .template import language_of as _language_of
from .tables import table_style
from .template import render_markdown
from .template import BESIDE, FACES
from .faces import Picture
from .typeset import (_MARKER, PARA_SPACING, TABLE_SIZE, Heading, Look, Typesetter,
                      marker_options, max_columns)
from .vertical import RotatedFrame, VContents, VerticalTypesetter
from ..i18n import _

BODY_SIZE = {"A5": 9.0, "B6": 8.5, "A4": 10.5}  # pt; other pages by their width (body_size)


def _rulebook(game: Game) -> Rulebook:
    """The game's rulebook: what follows is only ever asked of a game that has one
    (check() returns None for one that has none, and the build has no markdown then)."""
    if game.rulebook is None:
        raise ValueError(f"the game {game.id!r} has no rulebook")
    return game.rulebook


def body_size(rulebook: Rulebook) -> float:
    """The body text size for the page: 9 pt on A5, 10.5 pt on A4; from 8.5 to 10.5 pt,
    by the page's width, on any other page (to the half point)."""
    if rulebook.page in BODY_SIZE:
        return BODY_SIZE[rulebook.page]
    width = to_mm(min(rulebook.size))
    return min(10.5, max(8.5, round((8.5 + (width - 128) * 2 / 82) * 2) / 2))
# The words the rulebook adds, in the game's language (Game.lang): nothing is bilingual
# unless the template writes it.
WORDS = {"en": {"rulebook": "Rulebook", "contents": "Contents"},
         "ja": {"rulebook": "ルールブック", "contents": "目次"}}


MAX_PAGES = 1000  # pages of a rulebook: the longest in print run to a few hundred
MARGINS = (mm(14), mm(15), mm(17))  # left and right, top, bottom of every page
LONGEST_VERTICAL_LINE = 45  # characters: a vertical rulebook takes as many 段 as keep to it
COLUMN_GAP = 2.0  # ems of the body text between columns (段間)


@dataclass(frozen=True)
class Pages:
    """Where a rulebook's text goes on a page: its columns (段 in vertical writing, from
    the top), each as (left, bottom, right, top); `measure` is the length of a line and
    `depth` the room lines follow each other in (a column's height, a 段's width)."""

    size: tuple[float, float]
    vertical: bool
    columns: tuple[tuple[float, float, float, float], ...]
    measure: float
    depth: float

    @property
    def whole(self) -> tuple[float, float, float, float]:
        """The text area of the page: all its columns, and the gaps between them."""
        w, h = self.size
        return MARGINS[0], MARGINS[2], w - MARGINS[0], h - MARGINS[1]

    def _frame(self, box, name: str):
        left, bottom, right, top = box
        if self.vertical:
            return RotatedFrame(left, bottom, right, top, id=name)
        return Frame(left, bottom, right - left, top - bottom, id=name, leftPadding=0,
                     rightPadding=0, topPadding=0, bottomPadding=0)

    def frames(self) -> list:
        return [self._frame(c, f"column{n}") for n, c in enumerate(self.columns, 1)]

    def cover_frame(self):
        return self._frame(self.whole, "cover")


def pages(rulebook: Rulebook) -> Pages:
    """The columns of a rulebook's pages: `columns:` as written; else one across the page,
    and in vertical writing the fewest 段 whose lines hold at most LONGEST_VERTICAL_LINE
    characters of the body text (two on A5, B6 and A4)."""
    vertical = rulebook.vertical
    w, h = rulebook.size
    gap = COLUMN_GAP * body_size(rulebook)
    left, bottom, top = MARGINS[0], MARGINS[2], h - MARGINS[1]
    across, down = w - 2 * MARGINS[0], h - MARGINS[1] - MARGINS[2]
    count = rulebook.columns
    if count is None:
        count = 1
        while vertical and (down - (count - 1) * gap) / count > \
                LONGEST_VERTICAL_LINE * body_size(rulebook):
            count += 1
    if vertical:
        length = (down - (count - 1) * gap) / count
        columns = tuple((left, top - (n + 1) * length - n * gap, left + across,
                         top - n * (length + gap)) for n in range(count))
        return Pages((w, h), True, columns, length, across)
    width = (across - (count - 1) * gap) / count
    columns = tuple((left + n * (width + gap), bottom, left + n * (width + gap) + width, top)
                    for n in range(count))
    return Pages((w, h), False, columns, width, down)


def typesetter(game: Game, look: Look, faces_by_id: dict, lang: str) -> Typesetter:
    """The typesetter of the game's rulebook, for its writing and its pages' columns."""
    where = pages(_rulebook(game))
    if where.vertical:
        return VerticalTypesetter(game, look, faces_by_id, where.measure, where.depth, lang)
    return Typesetter(game, look, faces_by_id, where.measure, where.depth, lang)
_TABLE_HEAD = re.compile(r"^ *\|(.*)\|\s*\n *\|[-:| ]+\|\s*$", re.M)


def check(game: Game, report: Report) -> str | None:
    """Render the template; its problems join the validation report, and so does what
    would not print: a faces marker with an unknown side or card, a table too wide."""
    if game.rulebook is None:
        return None
    mine = Report()
    _check_pages(game, mine)
    markdown = render_markdown(game, mine)
    if markdown is not None:
        _check_markdown(game, markdown, mine)
    if report.tainted and mine.errors:  # it met values whose errors are reported at their cause
        report.skip()
        return None
    report.extend(mine)
    return markdown


SHORTEST_LINE = 10  # characters of the body text a line of a column must hold


def _check_pages(game: Game, report: Report) -> None:
    """Columns so many that a line holds fewer than SHORTEST_LINE characters: an error at
    `columns:`, with how many do fit."""
    rulebook = game.rulebook
    if rulebook is None or rulebook.columns is None:
        return
    size = body_size(rulebook)
    where = pages(rulebook)
    if where.measure >= SHORTEST_LINE * size:
        return
    fit = max((n for n in range(1, rulebook.columns) if pages(replace(rulebook, columns=n))
               .measure >= SHORTEST_LINE * size), default=0)
    page = rulebook.page or show_size(rulebook.size)
    report.error(_("rulebook: columns: {n} columns of a {page} page leave lines of {chars} "
                   "characters; a line holds at least {least}: {fit}", n=rulebook.columns,
                   page=page, chars=int(where.measure // size), least=SHORTEST_LINE,
                   fit=_("at most {n} columns fit", n=fit) if fit else
                   _("the page is too small for columns")),
                 rulebook.columns_loc or rulebook.loc,
                 "rulebook")


def template_line(game: Game, needle: str) -> Location:
    """The first line of the template (or a file it includes) that holds `needle`."""
    rulebook = _rulebook(game)
    sources = [(rulebook.file, rulebook.text), *rulebook.includes.values()]
    for file, text in sources:
        for n, line in enumerate(text.splitlines(), 1):
            if needle and needle in line:
                return Location(file, n, line.index(needle) + 1)
    return rulebook.loc


def _check_markdown(game: Game, markdown: str, report: Report) -> None:
    rulebook = _rulebook(game)
    ids = {c.id for c in game.cards()}
    for kind, args in _MARKER.findall(markdown):
        if kind not in (FACES, BESIDE):
            continue
        opts = marker_options(args)
        side = opts.get("side", "front")
        if side not in ("front", "back"):
            report.error(_("rulebook: {kind}: side must be 'front' or 'back', not '{side}'",
                           kind=kind, side=side),
                         template_line(game, f"side={side}"), "rulebook")
        wanted = [x for x in opts.get("ids", opts.get("id", "")).split(",") if x]
        for card in wanted:
            if card not in ids:
                report.error(_("rulebook: {kind}: unknown card '{card}'",
                               kind=kind, card=card), template_line(game, card),
                             "rulebook")
    width = pages(rulebook).measure
    most = max_columns(width, body_size(rulebook) * TABLE_SIZE)
    for match in _TABLE_HEAD.finditer(markdown):
        cells = [c.strip() for c in match.group(1).split("|")]
        if len(cells) > most:
            page = rulebook.page or show_size(rulebook.size)
            along = _("down a line of") if rulebook.vertical else _("across")
            report.error(_("rulebook: a table of {n_cells} columns; at most {most} fit {along} a "
                           "{page} page (split it, or swap its rows and columns)",
                               n_cells=len(cells), most=most, along=along, page=page),
                         template_line(game, match.group(0).splitlines()[0].strip()[:40]),
                         "rulebook")
    if report.errors:
        return
    # Set the text as the build will (without card faces) for what only setting finds: a
    # table too wide for the page even with its text smaller.
    look, lines = _look(game), markdown.splitlines()
    lang = game.declared_lang or _language_of(markdown)
    setter = typesetter(game, look, {"front": {}, "back": {}}, lang)
    _check_cover(game, look, setter, lang, report)
    setter.flowables(markdown)
    def located(line: int, fragment: str = "") -> Location:
        """Where a line of the rendered template (or a fragment of it) is written."""
        found = template_line(game, fragment[:40])
        if fragment and found != _rulebook(game).loc:
            return found
        return template_line(game, lines[line - 1].strip()[:40] if 0 < line <= len(lines) else "")

    for line, fragment, message in setter.errors:
        report.error(_("rulebook: {message}", message=message), located(line, fragment),
                     "rulebook")
    for line, message in setter.warnings:
        report.warning(_("rulebook: {message}", message=message), located(line), "rulebook")


class _TooLong(Exception):
    """The rulebook runs past MAX_PAGES pages: build() says so, located."""


class _Doc(BaseDocTemplate):
    def __init__(self, target, look: Look, where: Pages, title: str,
                 revision: tuple[str, str] = ("", ""), **kwargs):
        super().__init__(target, pagesize=where.size, title=title, author="", creator="cardgen",
                         invariant=1, initialFontName=look.body.regular,
                         **({"keywords": keywords(revision[0])} if revision[0] else {}),
                         **kwargs)
        self.look, self.vertical = look, where.vertical
        self.date = pdf_date(revision[1])  # the game's revision: the document's dates
        body, cover = where.frames(), [where.cover_frame()]
        self.addPageTemplates([
            PageTemplate("cover", cover, onPage=self._cover_page),
            PageTemplate("body", body, onPage=self._numbered_page),
        ])
        self._heading_count = 0

    def beforeDocument(self) -> None:
        self._heading_count = 0  # multiBuild runs several passes: keys must repeat exactly
        self.pictures: list[Picture] = []  # the card faces drawn (typeset.Faces), this pass
        self._outline_level = -1  # the level of the last bookmark, in this pass

    def _cover_page(self, canv, doc):
        canv.setDateFormatter(lambda *_ymdhms: self.date)
        if self.vertical:  # a viewer shows its spreads as the book opens: from the right
            canv.setViewerPreference("Direction", PDFName("R2L"))

    def _numbered_page(self, canv, doc):
        if doc.page > MAX_PAGES:  # (a budget: typesetting stops at once, in every pass)
            raise _TooLong()
        canv.saveState()
        canv.setFont(self.look.body.regular, self.look.size * 0.9)
        canv.setFillColorRGB(*self.look.ink[:3])
        canv.drawCentredString(self.pagesize[0] / 2, mm(8), str(doc.page))
        canv.restoreState()

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading) and flowable.level <= 2:
            self._heading_count += 1
            key = f"h{self._heading_count}"
            # PDF outlines cannot skip a level: a rulebook that starts at ## (or goes from
            # # to ###) nests its entry one level below the last one at most.
            level = min(flowable.level - 1, self._outline_level + 1)
            self._outline_level = level
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(flowable.plain, key, level=level, closed=False)
            # The contents list sets entries as Paragraph markup: "Q&A" must arrive escaped,
            # and a character the body's font lacks in the font it falls back to.
            text = escape(flowable.plain) if self.vertical else toc_markup(flowable.plain,
                                                                           self.look)
            self.notify("TOCEntry", (level, text, self.page, key))


def _look(game: Game) -> Look:
    # Body text in gothic: it has a bold weight for emphasis (BIZ UDPMincho has none).
    rulebook = _rulebook(game)
    body = game.fonts.get(rulebook.font) or game.main_family
    heading = body
    fallbacks = tuple(game.fonts[f] for f in body.fallback if f in game.fonts)
    return Look(body, heading, body_size(rulebook), rulebook.accent, fallbacks=fallbacks)


@dataclass(frozen=True)
class Book:
    pdf: bytes  # the pages in reading order
    pages: int
    booklet: bytes  # the same pages imposed for saddle stitching
    sides: int  # sheet sides of the booklet
    pictures: tuple[Picture, ...] = ()  # the card faces drawn in it, page by page


def story(game: Game, faces: GameFaces, markdown: str) -> tuple[list, Look, tuple]:
    """The rulebook's flowables (cover, contents, the template's text), its look and its
    page size: what build() sets, and what tests compare the PDF with."""
    rulebook = _rulebook(game)
    look = _look(game)
    page = rulebook.size
    by_id: dict[str, dict[str, Face]] = {"front": {}, "back": {}}
    for deck in faces.decks:
        by_id["front"].update(deck.fronts)
        by_id["back"].update(deck.backs)
    for family in (look.body, look.heading):  # platypus draws with these names directly
        fonts.ensure(family.regular)
        fonts.ensure(family.bold)
    lang = game.declared_lang or _language_of(markdown)
    setter = typesetter(game, look, by_id, lang)

    cover = _cover(game, look, setter, lang)
    words = WORDS[lang]
    toc = VContents(setter) if isinstance(setter, VerticalTypesetter) else TableOfContents(
        levelStyles=toc_styles(look), dotsMinLevel=0,
        tableStyle=table_style(look, [  # reportlab's, in the body's font
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    front = cover + [NextPageTemplate("body"), PageBreak(),
                     setter.text(words["contents"], look.size * 1.5, look.heading, bold=True,
                                 color=look.accent, align="left", after=look.size),
                     toc, PageBreak()]
    flows = front + setter.flowables(markdown)
    return flows, look, page


def toc_styles(look: Look) -> list[ParagraphStyle]:
    """The contents' entries, set by platypus in the rulebook's font (`rulebook: font:`);
    platypus takes no fallback font: what the font lacks is marked up (toc_markup)."""
    font = look.body.regular
    # Handed to platypus, which looks the font up itself: loaded now (fonts.ensure), as every
    # name given to reportlab is. A build that measured from kept metrics (output/.cache)
    # had not loaded it, and platypus failed on a second build of an unchanged game.
    return [ParagraphStyle(f"toc{level}", fontName=fonts.ensure(font), fontSize=look.size * 1.05,
                           leading=look.size * PARA_SPACING, leftIndent=level * look.size * 1.5,
                           wordWrap="CJK") for level in range(3)]


def toc_markup(text: str, look: Look) -> str:
    """A contents entry as platypus markup, escaped: in the body's font, each run of
    characters it lacks in the first family it falls back to that has them (as the text
    itself is set: textflow.markup), since platypus looks no further than the font it is
    given."""
    body = look.body.regular

    def font_of(ch: str) -> str:  # (one no font has is reported as the text's are)
        return font_for(look.body, False, ch, look.fallbacks) or body
    return "".join(escape(run) if font == body else
                   f'<font face="{fonts.ensure(font)}">{escape(run)}</font>'
                   for font, run in ((font, "".join(chars))
                                     for font, chars in groupby(text, key=font_of)))


def _cover(game: Game, look: Look, setter: Typesetter, lang: str) -> list:
    """The cover page's flowables: its title (and English title), the word "rulebook" and
    the version, a little above the page's middle."""
    rulebook = _rulebook(game)
    # A little above the middle of the page; in vertical writing, right of the middle.
    cover = [Spacer(1, rulebook.size[0] * 0.3 if rulebook.vertical
                    else rulebook.size[1] * 0.28),
             setter.text(rulebook.title, look.size * 2.6, look.heading, bold=True,
                         color=look.accent, align="center", spacing=1.3)]
    if game.title_en and rulebook.title == game.title:
        cover.append(setter.text(game.title_en, look.size * 1.3, look.body, align="center",
                                 before=look.size))
    cover.append(Spacer(1, look.size * 2))
    cover.append(setter.text(WORDS[lang]["rulebook"], look.size * 1.1, look.heading,
                             align="center"))
    if game.version:
        cover.append(setter.text(f"version {game.version}", look.size, look.body, align="center"))
    return cover


def _check_cover(game: Game, look: Look, setter: Typesetter, lang: str, report: Report) -> None:
    """The cover is one page: a title (or version) so long that it would run on over the
    pages after is an error at the title, with the room there is."""
    rulebook = _rulebook(game)
    left, bottom, right, top = pages(rulebook).whole
    width, room = (top - bottom, right - left) if rulebook.vertical \
        else (right - left, top - bottom)
    needed = sum(f.wrap(width, room)[1] for f in _cover(game, look, setter, lang))
    if needed > room + 0.01:
        report.error(_("rulebook: the cover's title and version take {needed:.0f} mm of a cover "
                       "page that holds {room:.0f} mm (its title is {n_rulebook_title:,} "
                       "characters): shorten the title, or give the rulebook a shorter one of "
                       "its own (rulebook: title:)",
                           needed=to_mm(needed), room=to_mm(room),
                           n_rulebook_title=len(rulebook.title)),
                     rulebook.title_loc or rulebook.loc, "rulebook")


def build(game: Game, faces: GameFaces, markdown: str) -> Book:
    """The rulebook PDF and its booklet imposition."""
    rulebook = _rulebook(game)
    flows, look, page = story(game, faces, markdown)
    out = io.BytesIO()
    with making_pdf():
        doc = _Doc(out, look, pages(rulebook), rulebook.title, (game.version, game.revised))
        try:
            doc.multiBuild(flows, canvasmaker=partial(Canvas, initialFontName=look.body.regular))
        except _TooLong:
            report = Report()
            report.error(_("rulebook: {file} runs past {most:,} pages, the most a rulebook may "
                           "have; make it shorter (a loop that writes a page, or a card face, "
                           "for each of many items?)", file=rulebook.file, most=MAX_PAGES),
                         rulebook.loc, "rulebook")
            raise DataProblems(report) from None
    pdf = out.getvalue()
    return replace(bound(rulebook, pdf, doc.page), pictures=tuple(doc.pictures))


def bound(rulebook: Rulebook, pdf: bytes, pages: int) -> Book:
    """The rulebook's pages and their booklet: bound on the left, or on the right (右綴じ)
    in vertical writing."""
    right = rulebook.vertical
    return Book(pdf, pages, impose_booklet(pdf, rulebook.booklet, f"{rulebook.title}: booklet",
                                           right), len(booklet_order(pages, right)))
