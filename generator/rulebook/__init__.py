"""The rulebook: a branch of the pipeline after validate, rendered from the same data.

`check` renders the game's rulebook template (Markdown with Jinja2) and reports
every unknown card id or data field at its line in the template; `validate`
runs it. `build` typesets the rulebook (cover, table of contents, numbered
pages, Japanese text set like the cards) and imposes it as a saddle-stitch
booklet. Both return PDF bytes; the write stage puts them in place.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape
from dataclasses import dataclass
from functools import partial

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, NextPageTemplate, PageBreak, PageTemplate, Spacer
from reportlab.platypus.tableofcontents import TableOfContents

from .. import fonts
from ..colors import parse_color
from ..layout import GameFaces
from ..model import Game
from ..problems import Report
from ..units import PAPER, RULEBOOK_PAGES, mm
from ..reproducible import no_source_date_epoch
from .booklet import booklet_order, impose_booklet
from .template import render_markdown
from .typeset import Heading, Look, Typesetter, toc_styles

PAGES = {name: PAPER[name] for name in RULEBOOK_PAGES}  # mm, from the one paper table
BODY_SIZE = {"A5": 9.0, "B6": 8.5, "A4": 10.5}
TOC_TITLE = "目次 Contents"


def check(game: Game, report: Report) -> str | None:
    """Render the template; its problems join the validation report."""
    if game.rulebook is None:
        return None
    return render_markdown(game, report)


class _Doc(BaseDocTemplate):
    def __init__(self, target, look: Look, page_size, title: str, **kwargs):
        super().__init__(target, pagesize=page_size, title=title, author="", creator="cardgen",
                         invariant=1, initialFontName=look.body.regular, **kwargs)
        self.look = look
        w, h = page_size
        margin_x, margin_top, margin_bottom = mm(14), mm(15), mm(17)
        frame = Frame(margin_x, margin_bottom, w - 2 * margin_x, h - margin_top - margin_bottom,
                      id="body", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [frame], onPage=self._cover_page),
            PageTemplate("body", [frame], onPage=self._numbered_page),
        ])
        self._heading_count = 0

    def beforeDocument(self):
        self._heading_count = 0  # multiBuild runs several passes: keys must repeat exactly

    def _cover_page(self, canv, doc):
        pass

    def _numbered_page(self, canv, doc):
        canv.saveState()
        canv.setFont(self.look.body.regular, self.look.size * 0.9)
        canv.setFillColorRGB(*self.look.ink[:3])
        canv.drawCentredString(self.pagesize[0] / 2, mm(8), str(doc.page))
        canv.restoreState()

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading) and flowable.level <= 2:
            self._heading_count += 1
            key = f"h{self._heading_count}"
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(flowable.plain, key, level=flowable.level - 1, closed=False)
            # The contents list sets entries as Paragraph markup: "Q&A" must arrive escaped.
            self.notify("TOCEntry", (flowable.level - 1, escape(flowable.plain), self.page, key))


def _look(game: Game) -> Look:
    # Body text in gothic: it has a bold weight for emphasis (BIZ UDPMincho has none).
    body = game.main_family
    heading = body
    accent = parse_color(game.rulebook.accent)
    return Look(body, heading, BODY_SIZE[game.rulebook.page], accent)


@dataclass(frozen=True)
class Book:
    pdf: bytes  # the pages in reading order
    pages: int
    booklet: bytes  # the same pages imposed for saddle stitching
    sides: int  # sheet sides of the booklet


def build(game: Game, faces: GameFaces, markdown: str) -> Book:
    """The rulebook PDF and its booklet imposition."""
    rulebook = game.rulebook
    look = _look(game)
    page = (mm(PAGES[rulebook.page][0]), mm(PAGES[rulebook.page][1]))
    width = page[0] - 2 * mm(14)
    by_id = {"front": {}, "back": {}}
    for deck in faces.decks:
        by_id["front"].update(deck.fronts)
        by_id["back"].update(deck.backs)
    for family in (look.body, look.heading):  # platypus draws with these names directly
        fonts.ensure(family.regular)
        fonts.ensure(family.bold)
    setter = Typesetter(game, look, by_id, width)

    cover = [Spacer(1, page[1] * 0.28),
             setter.text(rulebook.title, look.size * 2.6, look.heading, bold=True,
                         color=look.accent, align="center", spacing=1.3)]
    if game.title_en and rulebook.title == game.title:
        cover.append(setter.text(game.title_en, look.size * 1.3, look.body, align="center",
                                 before=look.size))
    cover.append(Spacer(1, look.size * 2))
    cover.append(setter.text("ルールブック / Rulebook", look.size * 1.1, look.heading,
                             align="center"))
    if game.version:
        cover.append(setter.text(f"version {game.version}", look.size, look.body, align="center"))
    toc = TableOfContents(levelStyles=toc_styles(look), dotsMinLevel=0)
    story = cover + [NextPageTemplate("body"), PageBreak(),
                     setter.text(TOC_TITLE, look.size * 1.5, look.heading, bold=True,
                                 color=look.accent, align="left", after=look.size),
                     toc, PageBreak()]
    story += setter.flowables(markdown)

    out = io.BytesIO()
    with no_source_date_epoch():
        doc = _Doc(out, look, page, rulebook.title)
        doc.multiBuild(story, canvasmaker=partial(Canvas, initialFontName=look.body.regular))
    pdf = out.getvalue()
    sheet = (mm(420), mm(297)) if rulebook.page == "A4" else (mm(297), mm(210))
    return Book(pdf, doc.page, impose_booklet(pdf, sheet, f"{rulebook.title}: booklet"),
                len(booklet_order(doc.page)))
