"""Preflight: every export file read back, as a print shop's checker reads it, before the
set is written (pikepdf for PDFs, Pillow for PNGs).

PDF: TrimBox and BleedBox on every page, the bleed box the trim box grown by the profile's
bleed on every side (to 0.01 mm) and inside the page; in a CMYK export no RGB colour
operator in any content stream (forms included) and no RGB picture, and an output intent
with a CMYK profile; every font embedded; every picture's effective resolution, from the
transformation it is drawn with. PNG and JPEG: the format, the template's exact pixel
size, RGB.

What fails here is cardgen's own mistake, never the user's data (that is checked at the
layouts, checks.py); it is reported as an error at the file, and nothing is written.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, TypedDict

from ..model import ExportProfile, ExportSize
from ..problems import Location, Report
from ..units import mm
from ..formats import FORMATS
from ..i18n import _, _n
from .checks import said_sides

if TYPE_CHECKING:
    import pikepdf

BOX_TOLERANCE = mm(0.01)
RGB_OPERATORS = {"rg", "RG"}
WHITE = 250  # a pixel this light in every channel (0..255) prints no ink
STOP_SHARE = 0.02  # of a side's length: art stopping at the trim along more of it is a fault
DEPTH = 2  # pixels further in that art stopping at the trim has ink at too: a line meeting
# the trim at a slant (thinner than this) is a line the cut takes, said at its element if
# it runs past the trim short of the bleed (checks._check_element), not a fill cut short
BLEED_PIXELS = 4.0  # the bleed is read back at a resolution that gives it this many pixels
SIDES = ("left", "bottom", "right", "top")


class Drawn(TypedDict):
    """What a PDF's content streams draw (forms followed)."""

    rgb: set[str]  # RGB colour operators ("rg", "/DeviceRGB cs")
    images: list[tuple[str, float]]  # each picture drawn: its colour space, effective dpi
    fonts: list[pikepdf.Object]  # the fonts of their resources


class Inspected(Drawn):
    """What a preflight looks at in a PDF (inspect_pdf)."""

    pages: list[pikepdf.Page]
    intents: list[tuple[str, int]]  # each output intent's subtype, and its profile's bands
    unembedded: list[str]  # the fonts not embedded, by name
    pdf: pikepdf.Pdf


def _boxes_ok(page, profile: ExportProfile) -> list[str]:
    problems: list[str] = []
    media = [float(v) for v in page.MediaBox]
    trim = [float(v) for v in page.get("/TrimBox", [])] or None
    bleed = [float(v) for v in page.get("/BleedBox", [])] or None
    if trim is None or bleed is None:
        return ["a page has no TrimBox or no BleedBox"]
    grown = [trim[0] - profile.bleed, trim[1] - profile.bleed, trim[2] + profile.bleed,
             trim[3] + profile.bleed]
    if any(abs(a - b) > BOX_TOLERANCE for a, b in zip(grown, bleed)):
        problems.append(_("the BleedBox {bleed} is not the TrimBox {trim} grown by the bleed",
                          bleed=bleed, trim=trim))
    if bleed[0] < media[0] - BOX_TOLERANCE or bleed[1] < media[1] - BOX_TOLERANCE or \
            bleed[2] > media[2] + BOX_TOLERANCE or bleed[3] > media[3] + BOX_TOLERANCE:
        problems.append("the BleedBox reaches outside the page")
    return problems


def _multiply(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _walk(content_owner, resources, ctm, found: Drawn, depth: int = 0) -> None:
    """Colour operators, fonts and drawn pictures (with their effective resolution) of a
    page or form, forms followed to a depth of 8."""
    import pikepdf
    if depth > 8:
        return
    stack = []
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    for font in (resources.get("/Font", {}) if resources is not None else {}).values():
        found["fonts"].append(font)
    for instruction in pikepdf.parse_content_stream(content_owner):
        operands, op = instruction.operands, str(instruction.operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop() if stack else ctm
        elif op == "cm":
            ctm = _multiply([float(v) for v in operands], ctm)
        elif op in RGB_OPERATORS:
            found["rgb"].add(op)
        elif op in ("cs", "CS") and str(operands[0]) == "/DeviceRGB":
            found["rgb"].add(f"{operands[0]} {op}")
        elif op == "Do":
            xobject = xobjects.get(str(operands[0]))
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                width = (ctm[0] ** 2 + ctm[1] ** 2) ** 0.5
                height = (ctm[2] ** 2 + ctm[3] ** 2) ** 0.5
                dpi = min(int(xobject.Width) / (width / 72), int(xobject.Height) / (height / 72)) \
                    if width and height else 0.0
                found["images"].append((str(xobject.get("/ColorSpace")), dpi))
            elif xobject.get("/Subtype") == "/Form":
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                _walk(xobject, xobject.get("/Resources"), _multiply(matrix, ctm), found, depth + 1)


def _embedded(font) -> bool:
    descriptor = font.get("/FontDescriptor")
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts") or []
        descriptor = descendants[0].get("/FontDescriptor") if len(descendants) else None
    if font.get("/Subtype") == "/Type3":
        return True
    return descriptor is not None and any(k in descriptor for k in
                                          ("/FontFile", "/FontFile2", "/FontFile3"))


def inspect_pdf(data: bytes) -> Inspected:
    """What a preflight looks at, read from the PDF's bytes: per page its boxes, and for the
    whole file its RGB operators, pictures (colour space, effective dpi), fonts and output
    intents."""
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(data))
    drawn: Drawn = {"rgb": set(), "images": [], "fonts": []}
    for page in pdf.pages:
        _walk(page, page.get("/Resources"), [1, 0, 0, 1, 0, 0], drawn)
    intents: list[pikepdf.Object] = list(pdf.Root.get("/OutputIntents") or [])
    return Inspected(
        rgb=drawn["rgb"], images=drawn["images"], fonts=drawn["fonts"], pages=list(pdf.pages),
        intents=[(str(i.get("/S")), int(i.DestOutputProfile.get("/N", 0))
                  if "/DestOutputProfile" in i else 0) for i in intents],
        unembedded=sorted({str(f.get("/BaseFont")) for f in drawn["fonts"] if not _embedded(f)}),
        pdf=pdf)


def trim_stops(picture, trim: tuple[float, float, float, float],
               bleed: tuple[float, float, float, float]) -> list[str]:
    """The sides (SIDES) where a rendered page's art stops at the trim: just inside the trim
    it has ink, and DEPTH pixels further in too, where the bleed's outer edge beside it is
    white, along more than STOP_SHARE of the side. `picture`: an RGB PIL image; `trim` and
    `bleed`, its boxes in pixels (x0, y0, x1, y1, y down); the bleed at least three pixels
    wide."""
    import math
    inner = (math.floor(trim[0]) + 1, math.ceil(trim[3]) - 2, math.ceil(trim[2]) - 2,
             math.floor(trim[1]) + 1)  # left, bottom, right, top: a line of pixels inside
    outer = (math.ceil(bleed[0]) + 1, math.floor(bleed[3]) - 2, math.floor(bleed[2]) - 2,
             math.ceil(bleed[1]) + 1)
    across = (math.ceil(trim[0]) + 1, math.floor(trim[2]) - 1)  # the sides' lengths, corners
    down = (math.ceil(trim[1]) + 1, math.floor(trim[3]) - 1)  # left out
    grey = picture.convert("RGB")
    stops = []
    for i, side in enumerate(SIDES):
        span = down if i % 2 == 0 else across
        if span[1] <= span[0]:
            continue
        deeper = inner[i] + (DEPTH if i in (0, 3) else -DEPTH)  # (inward: left and top +)
        if i % 2 == 0:  # a column
            lines = [grey.crop((at, span[0], at + 1, span[1]))
                     for at in (inner[i], deeper, outer[i])]
        else:
            lines = [grey.crop((span[0], at, span[1], at + 1))
                     for at in (inner[i], deeper, outer[i])]
        ink, within, beyond = (line.tobytes() for line in lines)
        stopped = sum(1 for p in range(0, len(ink), 3)
                      if min(ink[p:p + 3]) < WHITE and min(within[p:p + 3]) < WHITE and
                      min(beyond[p:p + 3]) >= WHITE)
        if stopped > STOP_SHARE * (span[1] - span[0]):
            stops.append(side)
    return stops


def pages_stopping(data: bytes, found: Inspected) -> list[tuple[int, list[str]]]:
    """The pages (numbered from 1) of a PDF whose art stops at the trim, and where
    (trim_stops): each page rendered (pypdfium2, unsmoothed) at a resolution that gives
    its bleed BLEED_PIXELS pixels or more."""
    from ..write.pdfium import opened
    out = []
    with opened(data) as document:
        for n, page in enumerate(found["pages"]):
            media = [float(v) for v in page.MediaBox]
            trim = [float(v) for v in page.get("/TrimBox", [])]
            bleed = [float(v) for v in page.get("/BleedBox", [])]
            if not trim or not bleed or min(trim[i] - bleed[i] for i in (0, 1)) < 0.5:
                continue  # no bleed to look at (the boxes are checked apart)
            scale = max(1.0, BLEED_PIXELS / min(trim[0] - bleed[0], trim[1] - bleed[1]))

            def pixels(box, scale=scale, media=media):
                return ((box[0] - media[0]) * scale, (media[3] - box[3]) * scale,
                        (box[2] - media[0]) * scale, (media[3] - box[1]) * scale)
            picture = document[n].render(scale=scale, no_smoothtext=True, no_smoothimage=True,
                                         no_smoothpath=True).to_pil()
            stops = trim_stops(picture, pixels(trim), pixels(bleed))
            if stops:
                out.append((n + 1, stops))
    return out


def preflight_pdf(data: bytes, name: str, profile: ExportProfile, where: Location,
                  report: Report, bleed_said: bool = False,
                  glyphs_at: Location | None = None) -> Inspected:
    """A PDF of the export (a face's, a board's, the rulebook's: `name`) read back from its
    bytes; what is wrong with it, an error at it (a cardgen bug). `bleed_said`: the face's
    art stopping at the trim was said at its element (checks.check_faces): not again.
    `glyphs_at`: the face draws text, whose ink the element checks know only by its em box
    (a glyph's own ink, a big ● icon, may end at the trim inside it): art it finds stopping
    at the trim is a warning at this layout, not a bug."""
    found = inspect_pdf(data)
    problems: list[str] = []
    for page in found["pages"]:
        problems += _boxes_ok(page, profile)
    if profile.bleed > 0 and not bleed_said:
        for number, stops in pages_stopping(data, found):
            if glyphs_at is not None:
                report.warning(_("{name}: its art stops at the trim on the {sides}, where the "
                                 "bleed prints white: a glyph drawn to the edge (an icon, a "
                                 "large letter) ends its ink at the trim; let it run past the "
                                 "edge, or keep it inside", name=name, sides=said_sides(stops)),
                               glyphs_at, "bleed")
                continue
            problems.append(_("page {number}: its art stops at the trim on the {sides}, and "
                              "the bleed beyond is white", number=number,
                              sides=said_sides(stops)))
    if profile.color == "cmyk":
        if found["rgb"]:
            problems.append(_("RGB colour operators in a CMYK export: {join}",
                              join=', '.join(sorted(found['rgb']))))
        rgb_images = [cs for cs, _unused in found["images"] if "RGB" in cs]
        if rgb_images:
            problems.append(_n("{n} RGB picture in a CMYK export",
                              "{n} RGB pictures in a CMYK export", len(rgb_images)))
        if not any(s == "/GTS_PDFX" and n == 4 for s, n in found["intents"]):
            problems.append("no PDF/X output intent with a CMYK profile")
    if found["unembedded"]:
        problems.append(_("fonts not embedded: {join}", join=', '.join(found['unembedded'])))
    for problem in problems:
        report.error(_("preflight of {name}: {problem} (a cardgen bug: please report it)",
                       name=name, problem=problem),
                     where, "preflight")
    return found


def preflight_picture(data: bytes, design, profile: ExportProfile, template: ExportSize,
                      where: Location, report: Report, bleed_said: bool = False) -> None:
    """A picture of a raster export read back: its format, RGB, its `template`'s pixel
    size, and art that reaches the template's trim running on to the picture's edge (not
    when `bleed_said` at the face's element); what is wrong with it, an error at it (a
    cardgen bug)."""
    from PIL import Image
    with Image.open(io.BytesIO(data)) as image:
        size, mode, kind = image.size, image.mode, image.format
        trim = [t * profile.dpi / 72 for t in template.trim]
        around = [(s - t) / 2 for s, t in zip(size, trim)]
        stops = trim_stops(image, (around[0], around[1], size[0] - around[0],
                                   size[1] - around[1]), (0, 0, size[0], size[1])) \
            if min(around) >= BLEED_PIXELS and not bleed_said else []
    if stops:
        report.error(_("preflight of {name}: {problem} (a cardgen bug: please report it)",
                       name=design.file, problem=_(
                           "page {number}: its art stops at the trim on the {sides}, and the "
                           "bleed beyond is white", number=1, sides=said_sides(stops))),
                     where, "preflight")
    if kind != FORMATS[profile.format].PIL:
        report.error(_("preflight of {design_file}: the file is {kind}, not {upper} (a cardgen "
                       "bug: please report it)",
                           design_file=design.file, kind=kind,
                           upper=profile.format.upper()), where,
                     "preflight")
    want = template.pixels
    if tuple(size) != tuple(want):
        report.error(_("preflight of {design_file}: {size} x {size2} pixels, not the template's "
                       "{want} x {want2} (a cardgen bug: please report it)",
                           design_file=design.file, size=size[0], size2=size[1], want=want[0],
                           want2=want[1]),
                     where, "preflight")
    if mode != "RGB":
        report.error(_("preflight of {design_file}: the image is {mode}, not RGB (a cardgen bug: "
                       "please report it)",
                           design_file=design.file, mode=mode), where, "preflight")
