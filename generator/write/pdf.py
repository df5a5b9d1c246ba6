"""Rendering imposed pages into a PDF with reportlab."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from .. import fonts
from ..impose import Page, Placement
from ..layout.primitives import Face, Group
from ..render import draw_face, draw_items
from ..reproducible import no_source_date_epoch


@dataclass(frozen=True)
class PdfFile:
    pages: tuple[Page, ...]
    title: str
    subject: str
    initial_font: str  # a registered Japanese font: reportlab resets to it at every page
    duplex: str = "long-edge"
    boxes: tuple = ()  # per page: (trim box, bleed box) in points, for print-ready single cards


def _uses_transparency(items) -> bool:
    return any(isinstance(i, Group) and (i.opacity < 1 or _uses_transparency(i.items))
               for i in items)


def _place(c: Canvas, placement: Placement, form: str | None) -> None:
    face = placement.face
    turned = placement.rotate in (90, -90)
    slot_w, slot_h = (face.height, face.width) if turned else (face.width, face.height)
    left, bottom, right, top = placement.bleed
    c.saveState()
    clip = c.beginPath()
    if placement.clip is not None:
        clip.rect(*placement.clip)
    else:
        clip.rect(placement.x - left, placement.y - bottom, slot_w + left + right,
                  slot_h + bottom + top)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(placement.x, placement.y)
    if placement.rotate == 90:  # counter-clockwise: the face's bottom edge on the right
        c.translate(face.height, 0)
    elif placement.rotate == -90:
        c.translate(0, face.width)
    if placement.rotate:
        c.rotate(placement.rotate)
    if form is None:
        draw_face(c, face, bleed=True, clip=False)  # the placement's clip above holds it
    else:
        c.doForm(form)
    c.restoreState()


def render_pdf(pdf: PdfFile, target) -> None:
    """Render `pdf` to `target` (a path or binary file object)."""
    with no_source_date_epoch():
        first = pdf.pages[0] if pdf.pages else None
        c = Canvas(target, pagesize=(first.width, first.height) if first else (595, 842),
                   invariant=1, initialFontName=fonts.ensure(pdf.initial_font), pageCompression=1)
        c.setTitle(pdf.title)
        c.setSubject(pdf.subject)
        c.setCreator("cardgen")
        c.setViewerPreference("PrintScaling", "None")
        c.setViewerPreference(
            "Duplex", "DuplexFlipShortEdge" if pdf.duplex == "short-edge" else "DuplexFlipLongEdge")
        # A face placed more than once (copies, one back for many cards) is drawn once, as a
        # form its placements reuse; a face placed once is drawn in place (a form would cost
        # an extra PDF object and nothing would reuse it).
        # Faces are counted by identity: the layout stage shares one object between the
        # placements of a face (hashing a face's items for every placement costs more).
        uses: dict[int, int] = {}
        for page in pdf.pages:
            for placement in page.placements:
                uses[id(placement.face)] = uses.get(id(placement.face), 0) + 1
        forms: dict[int, str] = {}
        for n, page in enumerate(pdf.pages):
            c.setPageSize((page.width, page.height))
            if pdf.boxes:
                trim, bleed = pdf.boxes[n]
                c.setTrimBox(trim)
                c.setBleedBox(bleed)
            for placement in page.placements:
                # Not as a form either: a face with transparency (reportlab leaves a form's
                # ExtGState out of its resources).
                name = None
                if uses[id(placement.face)] > 1 and not _uses_transparency(placement.face.items):
                    name = forms.get(id(placement.face))
                    if name is None:
                        name = forms[id(placement.face)] = f"face{len(forms)}"
                        b = placement.face.bleed
                        c.beginForm(name, -b, -b, placement.face.width + b, placement.face.height + b)
                        draw_face(c, placement.face, bleed=True, clip=False)  # BBox clips a form
                        c.endForm()
                _place(c, placement, name)
            draw_items(c, page.marks)
            c.showPage()
        c.save()
