"""A PDF/X-4 conformance check written from ISO 15930-7:2010's requirements, for the
tests: no PDF/X validator is packaged for this machine (veraPDF is not in the registries).
docs/printing.md lists what it checks; REQUIREMENTS is that list, and a test keeps the two
the same. `problems(path)` names each requirement a file breaks."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pikepdf

# The requirements checked, in docs/printing.md's words (its "PDF/X-4 checks" list).
REQUIREMENTS = (
    "the file is PDF 1.6 or earlier, not encrypted, and its trailer has an ID",
    "the document information has Title, CreationDate, ModDate, Trapped (True or False) "
    "and GTS_PDFXVersion PDF/X-4",
    "the catalog has XMP metadata that says what the document information says (title, "
    "subject, author, keywords, creator, producer, dates, trapped, PDF/X version)",
    "the XMP has xmpMM:DocumentID, xmpMM:InstanceID, xmpMM:VersionID and "
    "xmpMM:RenditionClass",
    "exactly one GTS_PDFX output intent, with an output condition identifier and an "
    "embedded CMYK printer ICC profile",
    "every page has a MediaBox and a TrimBox (no ArtBox beside it); the BleedBox lies inside "
    "the MediaBox and the TrimBox inside the BleedBox",
    "every font a page uses, in forms too, is embedded",
    "no device RGB colour in page content, forms or images",
    "no transfer functions (TR, TR2) or halftone phases (HTP) in graphics states",
    "no JavaScript, no document or page actions, no PostScript XObjects, no alternate images",
)

NS = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
      "dc": "http://purl.org/dc/elements/1.1/", "xmp": "http://ns.adobe.com/xap/1.0/",
      "xmpMM": "http://ns.adobe.com/xap/1.0/mm/", "pdf": "http://ns.adobe.com/pdf/1.3/",
      "pdfxid": "http://www.npes.org/pdfx/ns/id/"}


def _iso(date: str) -> str:
    found = re.fullmatch(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)([+-])(\d\d)'(\d\d)'?", date)
    if not found:
        return "?" + date
    y, mo, d, h, mi, s, sign, oh, om = found.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{sign}{oh}:{om}"


def _xmp_values(data: bytes) -> dict[str, str]:
    """Each XMP property (prefix:name) -> its text (the x-default or first item of an Alt,
    Seq or Bag); an attribute form counts too."""
    root = ElementTree.fromstring(data.split(b"?>", 1)[1].rsplit(b"<?xpacket", 1)[0])
    out: dict[str, str] = {}
    names = {uri: prefix for prefix, uri in NS.items()}
    for description in root.iter(f"{{{NS['rdf']}}}Description"):
        for key, value in description.attrib.items():
            uri, _, local = key[1:].partition("}")
            if uri in names:
                out[f"{names[uri]}:{local}"] = value
        for prop in description:
            uri, _, local = prop.tag[1:].partition("}")
            if uri not in names:
                continue
            items = list(prop.iter(f"{{{NS['rdf']}}}li"))
            out[f"{names[uri]}:{local}"] = (items[0].text if items else prop.text) or ""
    return out


def _boxes(page, where: str, found: list[str]) -> None:
    def box(name):
        value = page.obj.get(name)
        return [float(v) for v in value] if value is not None else None

    def inside(inner, outer):
        return (inner[0] >= outer[0] - 0.01 and inner[1] >= outer[1] - 0.01
                and inner[2] <= outer[2] + 0.01 and inner[3] <= outer[3] + 0.01)
    media, trim, bleed, art = (box(n) for n in ("/MediaBox", "/TrimBox", "/BleedBox", "/ArtBox"))
    if media is None or trim is None or art is not None:
        found.append(f"{where}: needs a MediaBox and a TrimBox, and no ArtBox beside it")
        return
    if bleed is not None and not inside(bleed, media):
        found.append(f"{where}: the BleedBox goes beyond the MediaBox")
    if not inside(trim, bleed or media):
        found.append(f"{where}: the TrimBox goes beyond the BleedBox")


def _resources(owner, where: str, found: list[str], seen: set) -> None:
    """Fonts, graphics states, images and forms of a page or form, forms within it too."""
    resources = owner.get("/Resources")
    if resources is None:
        return
    for font in (resources.get("/Font") or {}).values():
        target = font.DescendantFonts[0] if "/DescendantFonts" in font else font
        descriptor = target.get("/FontDescriptor")
        if font.get("/Subtype") != "/Type3" and (descriptor is None or not any(
                k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))):
            found.append(f"{where}: font {font.get('/BaseFont')} is not embedded")
    for state in (resources.get("/ExtGState") or {}).values():
        if "/TR" in state or state.get("/TR2", "/Default") != "/Default" or "/HTP" in state:
            found.append(f"{where}: a graphics state has a transfer function or halftone phase")
    for name, xobject in (resources.get("/XObject") or {}).items():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        kind = xobject.get("/Subtype")
        if kind == "/PS" or "/OPI" in xobject:
            found.append(f"{where}: a PostScript or OPI XObject {name}")
        elif kind == "/Image":
            if xobject.get("/ColorSpace") == "/DeviceRGB":
                found.append(f"{where}: image {name} is device RGB")
            if "/Alternates" in xobject:
                found.append(f"{where}: image {name} has alternate images")
        elif kind == "/Form":
            _content(xobject, f"{where}, form {name}", found)
            _resources(xobject, f"{where}, form {name}", found, seen)


def _content(owner, where: str, found: list[str]) -> None:
    for _, operator in pikepdf.parse_content_stream(owner):
        if str(operator) in ("rg", "RG"):
            found.append(f"{where}: device RGB colour ({operator})")
            return


def problems(path: Path) -> list[str]:
    """What `path` breaks of REQUIREMENTS, one line each; [] for a conforming file."""
    found: list[str] = []
    data = Path(path).read_bytes()
    version = re.match(rb"%PDF-(\d)\.(\d)", data)
    if version is None or (int(version[1]), int(version[2])) > (1, 6):
        found.append("the header is not PDF 1.6 or earlier")
    with pikepdf.open(path) as pdf:
        if pdf.is_encrypted:
            found.append("the file is encrypted")
        if "/ID" not in pdf.trailer:
            found.append("the trailer has no ID")
        info = {str(k)[1:]: v for k, v in pdf.docinfo.items()}
        text = {k: str(v) for k, v in info.items()}
        if not text.get("Title"):
            found.append("the document information has no Title")
        if not text.get("GTS_PDFXVersion", "").startswith("PDF/X-4"):
            found.append("GTS_PDFXVersion is not PDF/X-4")
        if text.get("Trapped") not in ("/True", "/False"):
            found.append("Trapped is not True or False")
        for date in ("CreationDate", "ModDate"):
            if date not in text:
                found.append(f"the document information has no {date}")
        metadata = pdf.Root.get("/Metadata")
        if metadata is None:
            found.append("the catalog has no XMP metadata")
        else:
            xmp = _xmp_values(metadata.read_bytes())
            pairs = {"Title": "dc:title", "Subject": "dc:description", "Author": "dc:creator",
                     "Keywords": "pdf:Keywords", "Creator": "xmp:CreatorTool",
                     "Producer": "pdf:Producer", "GTS_PDFXVersion": "pdfxid:GTS_PDFXVersion"}
            for key, prop in pairs.items():
                if text.get(key, "") != xmp.get(prop, ""):
                    found.append(f"Info {key} {text.get(key)!r} and XMP {prop} "
                                 f"{xmp.get(prop)!r} disagree")
            if text.get("Trapped", "").lstrip("/") != xmp.get("pdf:Trapped"):
                found.append("Info Trapped and XMP pdf:Trapped disagree")
            for key, prop in (("CreationDate", "xmp:CreateDate"), ("ModDate", "xmp:ModifyDate")):
                if _iso(text.get(key, "")) != xmp.get(prop):
                    found.append(f"Info {key} and XMP {prop} disagree")
            for prop in ("xmpMM:DocumentID", "xmpMM:InstanceID", "xmpMM:VersionID",
                         "xmpMM:RenditionClass"):
                if not xmp.get(prop):
                    found.append(f"the XMP has no {prop}")
        intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == "/GTS_PDFX"]
        if len(intents) != 1:
            found.append(f"{len(intents)} GTS_PDFX output intents, not one")
        else:
            intent = intents[0]
            profile = intent.get("/DestOutputProfile")
            icc = profile.read_bytes() if profile is not None else b""
            if not str(intent.get("/OutputConditionIdentifier", "")):
                found.append("the output intent has no OutputConditionIdentifier")
            if len(icc) < 128 or icc[12:16] != b"prtr" or icc[16:20] != b"CMYK":
                found.append("the output intent's profile is not an embedded CMYK printer profile")
        if "/OpenAction" in pdf.Root or "/AA" in pdf.Root or \
                "/JavaScript" in pdf.Root.get("/Names", {}):
            found.append("the document has actions or JavaScript")
        seen: set = set()
        for n, page in enumerate(pdf.pages, 1):
            where = f"page {n}"
            _boxes(page, where, found)
            if "/AA" in page.obj:
                found.append(f"{where}: page actions")
            _content(page, where, found)
            _resources(page.obj, where, found, seen)
    return found
