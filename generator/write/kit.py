"""The print-and-play PDF (`cardgen pnp`): a cover page saying what is in the kit and how to
print each part, the card sheets, the boards, the rulebook, in one file with a bookmark per
section. The card and board pages are drawn as every PDF is (write/pdf.py); the cover is set
with reportlab's platypus in the game's font; pikepdf joins the parts and writes the
bookmarks, with a document id from the content (the same kit gives the same bytes)."""

from __future__ import annotations

import io
from functools import partial
from dataclasses import dataclass
from xml.sax.saxutils import escape

from .. import fonts
from ..model import Game
from ..i18n import _, _n, shown
from ..reproducible import making_pdf
from ..units import mm, show_size
from .pdf import PdfFile, render_pdf

MARGIN = mm(18)


@dataclass(frozen=True)
class Part:
    """A section of the kit: its bookmark, its pages (drawn) or PDF bytes (the rulebook),
    and how to print it, in words."""

    title: str
    pages: tuple = ()
    pdf: bytes = b""
    how: str = ""
    count: int = 0  # its pages, known before it is joined


def components(game: Game, boards: dict[str, int]) -> list[tuple[str, str]]:
    """(what, how many) of everything the kit holds, from the data: each deck's cards by
    copies (blank cards and fillers apart), each board, the rulebook."""
    out = []
    for deck in game.decks:
        if not deck.total:
            continue
        cards = sum(c.copies for c in deck.cards if not c.filler and not c.blank)
        blank = sum(c.copies for c in deck.cards if c.blank and not c.filler)
        kind = {"circle": _("round tokens"), "hex": _("hex tiles"),
                "square": _("square tokens"), "standee": _("standees")}.get(deck.shape,
                                                                             _("cards"))
        size = show_size(deck.piece_size, "mm")
        out.append((shown(_("{name} ({kind}, {size})", name=deck.name, kind=kind, size=size)),
                    shown(_("{n} and {blank} blank", n=cards, blank=blank)) if blank
                    else f"{cards}"))
    for board in game.boards:
        out.append((shown(_("board: {name}", name=board.title or board.id)),
                    shown(_n("1 ({n} page)", "1 ({n} pages)", boards.get(board.id, 1)))))
    if game.rulebook is not None:
        out.append((shown(_("rulebook")), "1"))
    return out


def cover(game: Game, paper: tuple[float, float], paper_name: str, layout: str,
          listed: list[tuple[str, str]], parts: list[Part]) -> bytes:
    """The cover: title, the components with their counts, and what to print how (on one
    page, or more when the list is long: the page numbers it gives count them)."""
    import pikepdf
    pages = 1
    while True:
        data = _cover(game, paper, paper_name, layout, listed, parts, pages + 1)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            if len(pdf.pages) == pages:
                return data
            pages = len(pdf.pages)


def _cover(game: Game, paper: tuple[float, float], paper_name: str, layout: str,
           listed: list[tuple[str, str]], parts: list[Part], first: int) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    family = game.main_family
    font, bold = fonts.ensure(family.regular), fonts.ensure(family.bold)
    wrap = "CJK" if game.lang == "ja" else None
    title = ParagraphStyle("t", fontName=bold, fontSize=22, leading=28, spaceAfter=2)
    sub = ParagraphStyle("s", fontName=font, fontSize=10, leading=14, spaceAfter=12,
                         textColor=colors.Color(0.35, 0.35, 0.38))
    head = ParagraphStyle("h", fontName=bold, fontSize=12, leading=16, spaceBefore=10,
                          spaceAfter=4)
    body = ParagraphStyle("b", fontName=font, fontSize=9.5, leading=13.5, wordWrap=wrap)
    flow: list = [Paragraph(escape(game.display_title), title),
                  Paragraph(escape(shown(_("Print-and-play kit: {paper}, {layout}",
                                           paper=paper_name, layout=_("gutter fold")
                                           if layout == "gutterfold" else _("duplex")))), sub),
                  Paragraph(escape(shown(_("Components"))), head)]
    rows = [[Paragraph(escape(what), body), Paragraph(escape(n), body)] for what, n in listed]
    table = Table(rows, colWidths=[paper[0] - 2 * MARGIN - mm(30), mm(30)], hAlign="LEFT")
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 9.5),
                               ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.Color(0.8, 0.8, 0.8)),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    flow += [table, Paragraph(escape(shown(_("How to print"))), head)]
    page = first
    for part in parts:
        span = _("page {page}", page=page) if part.count == 1 else \
            _("pages {first}-{last}", first=page, last=page + part.count - 1)
        flow.append(Paragraph(escape(shown(_("{part}, {span}: {how}", part=part.title, span=span,
                                             how=part.how))), body))
        flow.append(Spacer(1, mm(1.5)))
        page += part.count
    flow.append(Paragraph(escape(shown(_(
        "Print every page at 100% (actual size): turn off \"fit to page\" in the print "
        "dialog. Nothing is printed within the margin most printers cannot print."))), body))
    out = io.BytesIO()
    with making_pdf():
        doc = SimpleDocTemplate(out, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN,
                                topMargin=MARGIN, bottomMargin=MARGIN, invariant=1,
                                title=shown(_("{title}: print-and-play",
                                              title=game.display_title)), author="cardgen",
                                initialFontName=font)
        doc.build(flow, canvasmaker=partial(Canvas, initialFontName=font))
    return out.getvalue()


def drawn(pages: tuple, game: Game, duplex: str) -> bytes:
    out = io.BytesIO()
    render_pdf(PdfFile(pages, shown(_("{title}: print-and-play", title=game.display_title)),
                       "print-and-play",
                       game.main_family.regular, duplex), out)
    return out.getvalue()


def assemble(game: Game, cover_pdf: bytes, parts: list[Part], duplex: str) -> bytes:
    """The kit's one PDF: the cover, then each part, with a bookmark for each."""
    import pikepdf
    kit = pikepdf.new()
    sources = []
    marks = [(shown(_("Contents and how to print")), 0)]

    def add(data: bytes) -> int:
        source = pikepdf.open(io.BytesIO(data))
        sources.append(source)
        first = len(kit.pages)
        kit.pages.extend(source.pages)
        return first
    add(cover_pdf)
    for part in parts:
        first = add(part.pdf or drawn(part.pages, game, duplex))
        marks.append((part.title, first))
    with kit.open_outline() as outline:
        outline.root.extend(pikepdf.OutlineItem(title, page) for title, page in marks)
    kit.docinfo["/Title"] = shown(_("{title}: print-and-play", title=game.display_title))
    kit.docinfo["/Creator"] = "cardgen"
    kit.Root.ViewerPreferences = pikepdf.Dictionary(
        PrintScaling=pikepdf.Name("/None"), Duplex=pikepdf.Name(
            "/DuplexFlipShortEdge" if duplex == "short-edge" else "/DuplexFlipLongEdge"))
    out = io.BytesIO()
    kit.save(out, deterministic_id=True)
    for source in sources:
        source.close()
    return out.getvalue()
