"""The print-and-play PDF (`cardgen pnp`): a cover page saying what is in the kit and how to
print each part, the card sheets, the boards, the rulebook, in one file with a bookmark per
section. The card and board pages are drawn as every PDF is (write/pdf.py); the cover is set
with reportlab's platypus in the game's font; pikepdf joins the parts and writes the
bookmarks, with a document id from the content (the same kit gives the same bytes)."""

from __future__ import annotations

import io
from functools import partial
from dataclasses import dataclass

from .. import fonts
from ..model import TBD, Game
from ..i18n import _, _n, shown
from ..reproducible import keywords, making_pdf, pdf_date
from ..units import mm, show_size
from .pdf import PdfFile, render_pdf

MARGIN = mm(18)
RULER = mm(50)  # the cover's scale bar: a page printed at the wrong scale shows it
RULER_TICK = mm(10)


def kit_title(game: Game) -> str:
    """The game's title as a kit shows it, or a placeholder that says it is not decided."""
    if game.title != TBD:
        return game.display_title
    return shown(_("untitled game ({game_id})", game_id=game.id))


def _ruler(font: str, label: str):
    """The scale bar: a bar exactly RULER long with a tick every RULER_TICK, its label
    beside it."""
    from reportlab.platypus import Flowable

    class Ruler(Flowable):
        def wrap(self, available_width, available_height):
            return available_width, mm(9)

        def draw(self):
            c = self.canv
            c.setFillGray(0)
            c.setStrokeGray(0)
            c.rect(0, mm(3), RULER, mm(1.2), stroke=0, fill=1)
            c.setLineWidth(0.5)
            for k in range(int(RULER // RULER_TICK + 0.5) + 1):
                c.line(k * RULER_TICK, mm(3), k * RULER_TICK, mm(6))
            c.setFont(font, 8)
            c.drawString(RULER + mm(4), mm(3), label)
    return Ruler()


@dataclass(frozen=True)
class Part:
    """A section of the kit: its bookmark, its pages (drawn) or PDF bytes (the rulebook),
    and how to print it, in words."""

    title: str
    pages: tuple = ()
    pdf: bytes = b""
    how: str = ""
    count: int = 0  # its pages, known before it is joined


def components(game: Game, boards: dict[str, int], blanks: bool = False
               ) -> list[tuple[str, str]]:
    """(what, how many) of everything the kit holds, from the data: each deck's cards by
    copies (with `blanks`, its blank cards and undesigned slots apart; fillers never), each
    board, the rulebook."""
    out = []
    for deck in game.decks:
        cards = sum(c.copies for c in deck.cards if not c.filler and not c.blank)
        blank = (sum(c.copies for c in deck.cards if c.blank and not c.filler) +
                 max(0, (deck.slots or 0) - deck.total)) if blanks else 0
        kind = {"circle": _("round tokens"), "hex": _("hex tiles"),
                "square": _("square tokens"), "standee": _("standees")}.get(deck.shape,
                                                                             _("cards"))
        if not cards and not blank:
            continue
        size = show_size(deck.piece_size, "mm")
        out.append((shown(_("{name} ({kind}, {size})", name=deck.name, kind=kind, size=size)),
                    shown(_("{n} and {blank} blank", n=cards, blank=blank)) if blank
                    else f"{cards}"))
    for board in game.boards:
        out.append((shown(_("Board: {name}", name=board.name)),
                    shown(_n("1 ({n} page)", "1 ({n} pages)", boards.get(board.id, 1)))))
    if game.rulebook is not None:
        out.append((shown(_("Rulebook")), "1"))
    return out


@dataclass(frozen=True)
class Cover:
    """What the cover says besides the parts: the pieces the kit leaves out (empty slots,
    fillers, and blank cards unless asked for), whether blank cards are printed."""

    left_out: int = 0
    blanks: bool = False


def cover(game: Game, paper: tuple[float, float], paper_name: str, layout: str,
          listed: list[tuple[str, str]], parts: list[Part], said: Cover = Cover()
          ) -> tuple[bytes, int]:
    """The cover: title, version, the components with their counts, what to print how (on
    one page, or more when the list is long: the page numbers it gives count them) and a
    scale ruler; with the blank pages that follow it (a duplex kit's card sheets start on
    an odd page, so that printing the whole file double-sided puts each back behind its
    front): (its PDF, the blank pages after it)."""
    import pikepdf
    pages = 1
    while True:
        blank = pages % 2 if layout == "duplex" else 0
        data = _cover(game, paper, paper_name, layout, listed, parts, pages + 1, said,
                      blank)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            if len(pdf.pages) == pages:
                return data, blank
            pages = len(pdf.pages)


def _cover(game: Game, paper: tuple[float, float], paper_name: str, layout: str,
           listed: list[tuple[str, str]], parts: list[Part], first: int, said: Cover,
           blank: int) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    from xml.sax.saxutils import escape  # (it imports urllib, http and ssl: only for a kit)
    family = game.main_family
    font, bold = fonts.ensure(family.regular), fonts.ensure(family.bold)
    wrap = "CJK" if game.lang == "ja" else None
    title = ParagraphStyle("t", fontName=bold, fontSize=22, leading=28, spaceAfter=2)
    sub = ParagraphStyle("s", fontName=font, fontSize=10, leading=14, spaceAfter=12,
                         textColor=colors.Color(0.35, 0.35, 0.38))
    head = ParagraphStyle("h", fontName=bold, fontSize=12, leading=16, spaceBefore=10,
                          spaceAfter=4)
    body = ParagraphStyle("b", fontName=font, fontSize=9.5, leading=13.5, wordWrap=wrap)
    version = game.version or shown(_("not given"))
    revision = shown(_("version {version}, of {date}", version=version,
                       date=game.revised[:10])) if game.revised else \
        shown(_("version {version}", version=version))
    flow: list = [Paragraph(escape(kit_title(game)), title),
                  Paragraph(escape(shown(_("Print-and-play kit: {paper}, {layout}",
                                           paper=paper_name, layout=_("gutter fold")
                                           if layout == "gutterfold" else _("duplex")))) +
                            "<br/>" + escape(revision), sub),
                  Paragraph(escape(shown(_("Components"))), head)]
    rows = [[Paragraph(escape(what), body), Paragraph(escape(n), body)] for what, n in listed]
    table = Table(rows, colWidths=[paper[0] - 2 * MARGIN - mm(30), mm(30)], hAlign="LEFT")
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 9.5),
                               ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.Color(0.8, 0.8, 0.8)),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    flow.append(table)
    if said.left_out:
        flow += [Spacer(1, mm(2)), Paragraph(escape(shown(
            _n("{n} piece left out: a filler or an empty slot, not designed yet, that a "
               "shop's sheet would print blank",
               "{n} pieces left out: fillers and empty slots, not designed yet, that a "
               "shop's sheet would print blank", said.left_out) if said.blanks else
            _n("{n} piece left out: a blank card, a filler or an empty slot not designed "
               "yet; make the kit with --blanks to print blank cards to write on",
               "{n} pieces left out: blank cards, fillers and empty slots not designed "
               "yet; make the kit with --blanks to print blank cards to write on",
               said.left_out))), body)]
    flow.append(Paragraph(escape(shown(_("How to print"))), head))
    page = first + blank
    if blank:
        flow.append(Paragraph(escape(shown(_(  # (one page at most: the cover's last back)
            "Page {first} is blank: printing the whole file double-sided, each card sheet's "
            "back then falls behind its front.", first=first))), body))
        flow.append(Spacer(1, mm(1.5)))
    for part in parts:
        span = _("page {page}", page=page) if part.count == 1 else \
            _("pages {first}-{last}", first=page, last=page + part.count - 1)
        flow.append(Paragraph(escape(shown(_("{part}, {span}: {how}", part=part.title, span=span,
                                             how=part.how))), body))
        flow.append(Spacer(1, mm(1.5)))
        page += part.count
    flow.append(Paragraph(escape(shown(_(
        "Print every page at 100% (actual size): turn off the print dialog's Fit to Page. "
        "Nothing is printed within the margin most printers cannot print."))), body))
    flow += [Spacer(1, mm(4)), _ruler(font, shown(_(
        "this bar measures 50 mm printed at 100%: measure it before cutting")))]
    out = io.BytesIO()
    with making_pdf():
        doc = SimpleDocTemplate(out, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN,
                                topMargin=MARGIN, bottomMargin=MARGIN, invariant=1,
                                title=shown(_("{title}: print-and-play",
                                              title=kit_title(game))), author="cardgen",
                                initialFontName=font)
        doc.build(flow, canvasmaker=partial(Canvas, initialFontName=font))
    return out.getvalue()


def drawn(pages: tuple, game: Game, duplex: str) -> bytes:
    out = io.BytesIO()
    render_pdf(PdfFile(pages, shown(_("{title}: print-and-play", title=kit_title(game))),
                       "print-and-play",
                       game.main_family.regular, duplex), out)
    return out.getvalue()


def assemble(game: Game, cover_pdf: bytes, parts: list[Part], duplex: str,
             blank: int = 0) -> bytes:
    """The kit's one PDF: the cover and the `blank` pages after it, then each part, with a
    bookmark for each; dated and versioned as the game's revision."""
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
    box = [float(v) for v in kit.pages[0].mediabox]
    for _blank in range(blank):
        kit.add_blank_page(page_size=(box[2] - box[0], box[3] - box[1]))
    for part in parts:
        first = add(part.pdf or drawn(part.pages, game, duplex))
        marks.append((part.title, first))
    with kit.open_outline() as outline:
        outline.root.extend(pikepdf.OutlineItem(title, page) for title, page in marks)
    kit.docinfo["/Title"] = shown(_("{title}: print-and-play", title=kit_title(game)))
    kit.docinfo["/Creator"] = "cardgen"
    kit.docinfo["/CreationDate"] = kit.docinfo["/ModDate"] = pdf_date(game.revised)
    if game.version:
        kit.docinfo["/Keywords"] = keywords(game.version)
    kit.Root.ViewerPreferences = pikepdf.Dictionary(
        PrintScaling=pikepdf.Name("/None"), Duplex=pikepdf.Name(
            "/DuplexFlipShortEdge" if duplex == "short-edge" else "/DuplexFlipLongEdge"))
    out = io.BytesIO()
    kit.save(out, deterministic_id=True)
    for source in sources:
        source.close()
    return out.getvalue()
