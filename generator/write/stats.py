"""<game>-stats.pdf: every deck's statistics as charts and tables, and the odds and dice the
game asks about (`cardgen build --stats`). On the game's paper (its first deck's sheet: A4,
Letter...), portrait, in the game's main font."""

from __future__ import annotations

import io
from functools import partial
from xml.sax.saxutils import escape

from reportlab.lib import colors as rl
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (CondPageBreak, KeepTogether, Paragraph, SimpleDocTemplate, Spacer,
                                Table, TableStyle)

from .. import fonts
from ..i18n import _, _n, printing, shown
from ..draw.charts import drawing
from ..model import Game
from ..reproducible import making_pdf
from ..stats import Stats, pictures
from ..stats.show import answer_line, cross_rows, dice_summary, table_rows
from ..units import mm, paper_size

MARGIN = mm(15)


def _styles(font: str, bold: str) -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=16, leading=22, spaceAfter=4),
        # a heading goes with what follows it: never alone at the foot of a page
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=12, leading=17, spaceBefore=10,
                             spaceAfter=4, keepWithNext=1),
        "h2": ParagraphStyle("h2", fontName=font, fontSize=9.5, leading=13, keepWithNext=1),
        "body": ParagraphStyle("body", fontName=font, fontSize=8.5, leading=12.5),
        "cell": ParagraphStyle("cell", fontName=font, fontSize=7.5, leading=9.5),
    }


def _grid(rows: list[list[str]], font: str, bold: str) -> Table:
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 7.5),
        ("FONT", (0, 0), (-1, 0), bold, 7.5),
        ("FONT", (0, 0), (0, -1), bold, 7.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, rl.Color(0.2, 0.2, 0.22)),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, rl.Color(0.95, 0.95, 0.96)]),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return table


def _nothing(drafts: int) -> str:
    return shown(_n("No values yet: {n} copy is TBD (draft).", "No values yet: {n} copies are "
                    "TBD (draft).", drafts) if drafts else _("No values yet."))


def paper_of(game: Game) -> tuple[float, float]:
    """The paper the game prints on (its first deck's sheet), portrait; A4 without decks."""
    paper = game.decks[0].sheet.paper if game.decks else paper_size("A4")
    return (min(paper), max(paper))


def stats_pdf(game: Game, stats: Stats) -> tuple[bytes, int]:
    """The PDF's bytes and its number of pages, its words in the game's language."""
    with printing(game.lang):
        return _stats_pdf(game, stats)


def _stats_pdf(game: Game, stats: Stats) -> tuple[bytes, int]:
    family = game.main_family
    font, bold = fonts.ensure(family.regular), fonts.ensure(family.bold)
    st = _styles(font, bold)
    page = paper_of(game)
    width = page[0] - 2 * MARGIN
    chart = partial(drawing, font=font, width=width,
                    max_height=page[1] - 2 * MARGIN - mm(24))  # a page's frame, and a heading
    title = game.display_title
    flow: list = [Paragraph(escape(shown(_("Statistics: {title}", title=title))), st["title"]),
                  Paragraph(escape(shown(_(
                      "Every count is of copies, as printed. A card with several values of a "
                      "list field counts under each. TBD values are drafts, counted apart."))),
                            st["body"])]
    for deck in stats.decks:
        flow += [CondPageBreak(mm(60)),
                 Paragraph(escape(shown(_(
                     "{name} ({deck}): {cards}, {kinds}", name=deck.name, deck=deck.id,
                     cards=_n("{n} card", "{n} cards", deck.total),
                     kinds=_n("{n} kind", "{n} kinds", deck.kinds)))), st["h1"])]
        if not deck.distributions and not deck.crosses:
            flow.append(Paragraph(escape(shown(_("No field of this deck has values to count."))),
                                  st["body"]))
        for c in deck.crosses:
            if not any(any(row) for row in c.cells):
                flow += [Paragraph(escape(c.title), st["h2"]),
                         Paragraph(escape(_nothing(c.drafts)), st["body"]), Spacer(1, mm(4))]
                continue
            parts = [chart(pictures.cross_chart(c))]
            if c.rows:
                parts += [Spacer(1, mm(2)), _grid(cross_rows(c), font, bold)]
            flow.append(KeepTogether(parts + [Spacer(1, mm(5))]))
        for d in deck.distributions:
            if not d.total:
                flow += [Paragraph(escape(shown(d.title)), st["h2"]),
                         Paragraph(escape(_nothing(d.drafts)), st["body"]), Spacer(1, mm(4))]
                continue
            flow.append(KeepTogether([chart(pictures.distribution_chart(d, deck)),
                                      Spacer(1, mm(5))]))
    for t in stats.tables:
        if not t.labels:
            flow += [Paragraph(escape(t.name), st["h1"]),
                     Paragraph(escape(shown(_("No items yet."))), st["body"])]
            continue
        rows = table_rows(t)
        flow += [CondPageBreak(mm(60)), Paragraph(escape(t.name), st["h1"]),
                 chart(pictures.table_chart(t)), Spacer(1, mm(3)), _grid(rows, font, bold)]
    groups = pictures.questions(stats)
    if groups:
        flow += [CondPageBreak(mm(60)), Paragraph(escape(shown(_("Draw odds"))), st["h1"]),
                 Paragraph(escape(shown(_("Exact chances, counted over every possible hand (no "
                                          "simulation)."))), st["body"]), Spacer(1, mm(2))]
    top = pictures.odds_top(stats)  # one axis for every question: bars compare across them
    for answers in groups:
        lines = [Paragraph(escape(shown(answer_line(a))), st["cell"]) for a in answers]
        flow.append(KeepTogether([chart(pictures.odds_chart(answers, top)), *lines,
                                  Spacer(1, mm(5))]))
    if stats.dice:
        flow += [CondPageBreak(mm(60)), Paragraph(escape(shown(_("Dice"))), st["h1"]),
                 Paragraph(escape(shown(_("Exact chances of every total, counted over every way "
                                          "the dice can fall."))), st["body"]), Spacer(1, mm(2))]
    for r in stats.dice:
        lines = [Paragraph(escape(shown(dice_summary(r))), st["cell"])]
        lines += [Paragraph(escape(f"{a.label}: {shown(a.words())}"), st["cell"])
                  for a in r.answers]
        flow.append(KeepTogether([chart(pictures.dice_chart(r)), *lines, Spacer(1, mm(5))]))
    out = io.BytesIO()
    pages = []
    footing = stats.game + " · " + shown(_("statistics")) + " · "

    def footer(canvas, doc) -> None:
        canvas.setFont(font, 7)
        canvas.setFillColor(rl.Color(0.4, 0.4, 0.42))
        canvas.drawRightString(page[0] - MARGIN, mm(8), f"{footing}{doc.page}")
        pages.append(doc.page)

    with making_pdf():
        doc = SimpleDocTemplate(out, pagesize=page, leftMargin=MARGIN, rightMargin=MARGIN,
                                topMargin=MARGIN, bottomMargin=MARGIN,
                                title=shown(_("{title}: statistics", title=title)),
                                author="cardgen",
                                invariant=1, initialFontName=font)
        doc.build(flow, onFirstPage=footer, onLaterPages=footer,
                  canvasmaker=partial(Canvas, initialFontName=font))
    return out.getvalue(), len(pages)

