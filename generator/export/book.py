"""The rulebook in a print run (an export profile's `rulebook: single-pages`).

Shops impose booklets themselves: they want the rulebook as single pages in reading order,
each with the profile's bleed and marks around it, in CMYK, the body text on the black
plate alone, and a page count the binding takes (a multiple of 4 for saddle stitching:
blank pages are added at the end, and the manifest says how many). The pages are the
built rulebook's own, placed as forms on pages with the marks (the same page a card face
gets, impose.single_face), and every colour and picture in them converted by the
export's conversion (color.CmykConverter): text as text, strokes as lines, fills as fills.
"""

from __future__ import annotations

import io
import zlib

from ..formats.pdf import rewrite_contents
from ..impose import REGISTRATION, single_face
from ..primitives import Face
from ..write.pdf import PdfFile, render_pdf

BINDING = 4  # saddle stitching: pages come in sheets of four


def rulebook_pdf(pdf: bytes, profile, convert, title: str, font: str,
                 right_bound: bool = False) -> tuple[bytes, dict, tuple]:
    """The built rulebook `pdf` as the print run's file (before formats.pdf.finish), what
    the manifest says of it (pages, blank pages added, page size, the side it is bound
    on), and the most ink it prints with (percent, and what: "a colour", "a picture").
    `right_bound`: a vertical rulebook (縦書き), bound on the right (右綴じ)."""
    import pikepdf
    source = pikepdf.open(io.BytesIO(pdf))
    pages = len(source.pages)
    total = -(-pages // BINDING) * BINDING
    box = [float(v) for v in source.pages[0].mediabox]
    w, h = box[2] - box[0], box[3] - box[1]
    page, trim, bleed = single_face(Face(w, h, ()), profile.bleed, profile.marks == "tombo",
                                    REGISTRATION if profile.color == "cmyk" else (0.0, 0.0, 0.0))
    frames = io.BytesIO()
    render_pdf(PdfFile((page,) * total, title, f"rulebook: {pages} pages and "
                       f"{total - pages} blank, in reading order", font,
                       boxes=((trim, bleed),) * total), frames)
    out = pikepdf.open(io.BytesIO(frames.getvalue()))
    for n in range(pages):  # the page as a form at the trim (named, not pikepdf's random name)
        target = out.pages[n]
        form = out.copy_foreign(source.pages[n].as_form_xobject())
        resources = target.obj.Resources
        if "/XObject" not in resources:
            resources.XObject = pikepdf.Dictionary()
        resources.XObject[pikepdf.Name.RulebookPage] = form
        target.contents_add(out.make_stream(
            f"q 1 0 0 1 {trim[0]:.4f} {trim[1]:.4f} cm /RulebookPage Do Q\n".encode()))
    if right_bound:  # bound on the right (右綴じ): a viewer and a shop's imposition read it
        out.Root.ViewerPreferences = pikepdf.Dictionary(Direction=pikepdf.Name.R2L)
    most = (0.0, "")
    if convert is not None:
        most = to_cmyk(out, convert)
    data = io.BytesIO()
    out.save(data, deterministic_id=True)
    return data.getvalue(), {"pages": total, "blank_pages_added": total - pages,
                             "page_size_mm": [round(w / 72 * 25.4, 1),
                                              round(h / 72 * 25.4, 1)],
                             "binding": "right" if right_bound else "left"}, most


def to_cmyk(pdf, convert) -> tuple[float, str]:
    """Every colour operator of every page and form in CMYK (text inside BT/ET as text,
    strokes as lines, fills as fills), RGB pictures converted to CMYK, and transparency
    groups blended in CMYK. Returns the most ink anything prints with (percent) and what."""
    import pikepdf
    from pikepdf import Name, Operator
    from .color import image_ink, ink
    most_ink, most_what = 0.0, ""

    def seen(amount: float, what: str) -> None:
        nonlocal most_ink, most_what
        if amount > most_ink:
            most_ink, most_what = amount, what

    def converted(owner, ops: list, resources) -> list:
        out, text = [], False
        spaces: dict[str, str | None] = {"fill": None, "stroke": None}  # their colour spaces
        # The RGB fill colour last set and what it was converted for ("text" or "fill"): a
        # colour set before BT paints the text inside it (reportlab sets a page number's
        # colour so), which prints on K alone as text, and what is filled after ET again.
        fill: list = [None, ""]
        saved: list[list] = []
        for operands, operator in ops:
            op = str(operator)
            if op == "q":
                saved.append(list(fill))
            elif op == "Q" and saved:
                fill = saved.pop()
            if op == "BT":
                text = True
            elif op == "ET":
                text = False
            if op in ("cs", "CS"):
                spaces["fill" if op == "cs" else "stroke"] = str(operands[0])
                if str(operands[0]) == "/DeviceRGB":
                    continue  # k or K below sets DeviceCMYK itself
            rgb = None
            if op in ("rg", "RG"):
                rgb = tuple(float(v) for v in operands)
            elif op in ("g", "G"):
                rgb = (float(operands[0]),) * 3
            elif op in ("sc", "scn", "SC", "SCN") and len(operands) == 3 and \
                    spaces["fill" if op.islower() else "stroke"] == "/DeviceRGB":
                rgb = tuple(float(v) for v in operands)
            if rgb is None:
                if op in ("k", "cs", "sc", "scn"):
                    fill = [None, ""]  # a fill colour of another space: left as it is
                out.append((operands, operator))
                if op in ("BT", "ET") and fill[0] is not None:
                    use = "text" if text else "fill"
                    if fill[1] != use and convert.color(fill[0], use) != \
                            convert.color(fill[0], fill[1]):
                        cmyk = convert.color(fill[0], use)
                        seen(ink(cmyk), "a colour")
                        out.append(([round(v, 4) for v in cmyk], Operator("k")))
                    fill[1] = use
                continue
            is_fill = op.islower()
            use = ("text" if text else "fill") if is_fill else "line"
            cmyk = convert.color(rgb, use)
            seen(ink(cmyk), "a colour")
            out.append(([round(v, 4) for v in cmyk], Operator("k" if is_fill else "K")))
            if is_fill:
                fill = [rgb, use]
        if "/Group" in owner and owner.Group.get("/CS") == "/DeviceRGB":
            owner.Group.CS = Name.DeviceCMYK  # transparency blended in CMYK
        return out

    rewrite_contents(pdf, converted)
    for obj in list(pdf.objects):  # the pictures, wherever they are drawn
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" and \
                obj.get("/ColorSpace") == "/DeviceRGB":
            picture = pikepdf.PdfImage(obj).as_pil_image().convert("RGB")
            cmyk = convert.rgb_to_cmyk.apply(picture)
            seen(image_ink(cmyk), "a picture")
            obj.write(zlib.compress(cmyk.tobytes(), 6), filter=Name.FlateDecode)
            obj.ColorSpace = Name.DeviceCMYK
            obj.BitsPerComponent = 8
            for key in ("/DecodeParms", "/Decode"):
                if key in obj:
                    del obj[key]
    return most_ink, most_what

