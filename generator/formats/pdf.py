"""pdf: one PDF/X-4 page per face (trim plus bleed, trim marks, boxes), colours in CMYK
through the profile's ICC output profile, or in RGB."""

from __future__ import annotations

import hashlib
import io
import re

from ..reproducible import keywords, pdf_date, version_of

NAME = "pdf"
EXTENSION = "pdf"
RASTER = False
DEFAULTS = {"color": "cmyk", "marks": "tombo", "bleed": "3mm"}
SCHEMA: dict = {}
PDFX_VERSION = "PDF/X-4"
FIXED_DATE = "2000-01-01T00:00:00+00:00"  # reportlab's invariant date: the same bytes every time


def _iso(date: str | None) -> str:
    """A document information date (D:20000101000000+00'00') as XMP writes it."""
    found = re.fullmatch(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)([+-])(\d\d)'(\d\d)'?",
                         date or "")
    if found is None:
        return FIXED_DATE
    y, mo, d, h, mi, sec, sign, oh, om = found.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{sec}{sign}{oh}:{om}"


def finish(data: bytes, profile, title: str, icc: bytes | None,
           revision: tuple[str, str] = ("", "")) -> bytes:
    """The PDF/X-4 parts reportlab does not write: the output intent with the ICC profile,
    the PDF/X version in the document information, and XMP metadata that says what the
    document information says (ISO 15930-7 asks both to agree) with the identifiers PDF/X
    requires. Each font subset is tagged by its content (subset_tags)."""
    import pikepdf
    from pikepdf import Dictionary, Name, String
    pdf = pikepdf.open(io.BytesIO(data))
    version, revised = revision  # the game's, carried in the dates and the keywords
    if revised:
        pdf.docinfo[Name.CreationDate] = pdf.docinfo[Name.ModDate] = \
            String(pdf_date(revised))
    if version:
        pdf.docinfo[Name.Keywords] = String(keywords(version))
    subset_tags(pdf)
    if icc is not None and profile.overprint == "black":
        overprint_black(pdf)
    if icc is not None:
        stream = pikepdf.Stream(pdf, icc)
        stream.N = 4
        condition = profile.output_condition or "CMYK"
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(Dictionary(
            Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(condition),
            Info=String(condition), RegistryName=String("http://www.color.org"),
            DestOutputProfile=stream))])
        pdf.docinfo[Name.GTS_PDFXVersion] = String(PDFX_VERSION)
        pdf.docinfo[Name.Trapped] = Name("/False")
        pdf.docinfo[Name.Producer] = String(PRODUCER)  # as the XMP says, not reportlab's
        if str(pdf.docinfo.get(Name.Author, "")) in ("", "anonymous"):  # reportlab's filler
            del pdf.docinfo[Name.Author]
        info = {str(k)[1:]: str(v) for k, v in pdf.docinfo.items()}
        pdf.Root.Metadata = pdf.make_stream(xmp(info, hashlib.sha256(data).hexdigest())
                                            .encode("utf-8"), Type=Name.Metadata, Subtype=Name.XML)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, min_version="1.6")
    return out.getvalue()


# Content operators, by what they paint with: the fill colour, the stroke colour, or both.
FILLS = {"f", "F", "f*", "Tj", "TJ", "'", '"', "sh"}
STROKES = {"S", "s"}
BOTH = {"B", "B*", "b", "b*"}
BLACK = [0.0, 0.0, 0.0, 1.0]  # K100: what overprints


def overprint_black(pdf) -> None:
    """Set overprint where K100 paints (text, lines, the small fills the export makes K100),
    in every page and form: the black plate prints over what is under it instead of
    knocking it out, so a hair of misregistration shows no white. Each painting operator
    gets the overprint state its colours ask for (an ExtGState with op / OP and OPM 1), set
    only where it changes; what paints in any other colour knocks out, as before."""
    from pikepdf import Dictionary, Name, Operator
    states = {}

    def state(fill: bool, stroke: bool):
        key = (fill, stroke)
        if key not in states:
            states[key] = pdf.make_indirect(Dictionary(Type=Name.ExtGState, op=fill, OP=stroke,
                                                       OPM=1))
        return states[key]

    def overprinted(owner, ops: list, resources) -> list:
        stack: list[tuple[bool, bool, tuple[bool, bool] | None]] = []
        fill, stroke = False, False
        current: tuple[bool, bool] | None = None  # None: as the caller left it
        out = []
        for operands, operator in ops:
            op = str(operator)
            if op == "q":
                stack.append((fill, stroke, current))
            elif op == "Q" and stack:
                fill, stroke, current = stack.pop()
            elif op in ("k", "K"):
                black = [float(v) for v in operands] == BLACK
                fill, stroke = (black, stroke) if op == "k" else (fill, black)
            elif op in ("g", "G", "cs", "CS", "sc", "SC", "scn", "SCN"):
                fill, stroke = (False, stroke) if op.islower() else (fill, False)
            if op in FILLS or op in STROKES or op in BOTH:
                wanted = (fill and op not in STROKES, stroke and op not in FILLS)
                if wanted != current and (current is not None or any(wanted)):
                    name = Name(f"/GSop{int(wanted[0])}{int(wanted[1])}")
                    graphics = resources.get("/ExtGState")
                    if graphics is None:
                        resources.ExtGState = graphics = Dictionary()
                    graphics[name] = state(*wanted)
                    out.append(([name], Operator("gs")))
                    current = wanted
            out.append((operands, operator))
        return out

    rewrite_contents(pdf, overprinted)


def rewrite_contents(pdf, rewrite) -> None:
    """Rewrite every content stream of a PDF: each page's, and each form's the pages draw
    (forms in forms too), once. `rewrite(owner, operators, resources)` gives the new
    operators; `owner` is the page's dictionary or the form, `resources` its resources."""
    import pikepdf
    from pikepdf import Dictionary

    def resources_of(owner):
        if "/Resources" not in owner:
            owner.Resources = Dictionary()
        return owner.Resources

    def one(content, owner) -> None:
        resources = resources_of(owner)
        data = pikepdf.unparse_content_stream(
            rewrite(owner, list(pikepdf.parse_content_stream(content)), resources))
        if isinstance(content, pikepdf.Page):
            owner.Contents = pdf.make_stream(data)
        else:
            content.write(data)

    seen = set()
    for page in pdf.pages:
        one(page, page.obj)
        forms = list((page.obj.Resources.get("/XObject") or {}).values())
        while forms:
            form = forms.pop()
            if form.objgen in seen or form.get("/Subtype") != "/Form":
                continue
            seen.add(form.objgen)
            one(form, form)
            forms.extend((form.Resources.get("/XObject") or {}).values())


PRODUCER = "cardgen"  # the Producer of the document information and of the XMP


def subset_tags(pdf) -> None:
    """Tag each font subset (the six capitals before '+' in its name) from its content: the
    font program, its widths and its code-to-text map. reportlab tags every document's
    first subset AAAAAA, the second AAAAAB, so files of one export carry the same name for
    different subsets, and a tool that merges or imposes them, caching fonts by name, can
    print wrong characters. Equal subsets keep equal tags (the output stays the same)."""
    import pikepdf
    from pikepdf import Name
    for font in pdf.objects:
        if not isinstance(font, pikepdf.Dictionary) or font.get("/Type") != Name.Font:
            continue
        named = re.fullmatch(r"/[A-Z]{6}\+(.+)", str(font.get("/BaseFont", "")))
        if named is None:
            continue
        base = named.group(1)
        descriptor = font.get("/FontDescriptor")
        digest = hashlib.sha256(base.encode("utf-8"))
        for key in ("/FontFile", "/FontFile2", "/FontFile3"):
            if descriptor is not None and key in descriptor:
                digest.update(descriptor[key].read_bytes())
        digest.update(repr([float(w) for w in font.get("/Widths", [])]).encode())
        cmap = font.get("/ToUnicode")
        if cmap is not None:
            digest.update(cmap.read_bytes())
        tag = "".join(chr(ord("A") + b % 26) for b in digest.digest()[:6])
        old, new = str(font.BaseFont)[1:], f"{tag}+{base}"
        font.BaseFont = Name("/" + new)
        if descriptor is not None:
            descriptor.FontName = Name("/" + new)
        if cmap is not None:  # the map names its font too
            cmap.write(cmap.read_bytes().replace(old.encode(), new.encode()))


def xmp(info: dict[str, str], digest: str) -> str:
    """The XMP packet of a PDF/X-4 file: every entry of its document information (`info`:
    Title, Author, Subject, Keywords, Creator, Producer, Trapped, GTS_PDFXVersion and the
    dates) in its XMP property, and the document and instance identifiers made from
    `digest`, the file's content before its metadata (the same file: the same ids)."""
    import uuid
    from xml.sax.saxutils import escape
    document = uuid.UUID(digest[:32], version=4)
    instance = uuid.UUID(hashlib.sha256(f"instance {digest}".encode()).hexdigest()[:32], version=4)
    alt = lambda text: (f'<rdf:Alt><rdf:li xml:lang="x-default">{escape(text)}</rdf:li>'  # noqa: E731
                        "</rdf:Alt>")
    creator = (f"   <dc:creator><rdf:Seq><rdf:li>{escape(info['Author'])}</rdf:li></rdf:Seq>"
               "</dc:creator>\n" if info.get("Author") else "")
    version = escape(info.get("GTS_PDFXVersion", PDFX_VERSION))
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title>{alt(info.get("Title", ""))}</dc:title>
{creator}   <dc:description>{alt(info.get("Subject", ""))}</dc:description>
   <pdf:Keywords>{escape(info.get("Keywords", ""))}</pdf:Keywords>
   <xmp:CreatorTool>{escape(info.get("Creator", PRODUCER))}</xmp:CreatorTool>
   <xmp:CreateDate>{_iso(info.get("CreationDate"))}</xmp:CreateDate>
   <xmp:ModifyDate>{_iso(info.get("ModDate"))}</xmp:ModifyDate>
   <xmp:MetadataDate>{_iso(info.get("ModDate"))}</xmp:MetadataDate>
   <pdf:Producer>{escape(info.get("Producer", PRODUCER))}</pdf:Producer>
   <pdf:Trapped>{escape(info.get("Trapped", "/False").lstrip("/"))}</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
   <xmpMM:DocumentID>uuid:{document}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{instance}</xmpMM:InstanceID>
   <xmpMM:VersionID>{escape(version_of(info.get("Keywords", "")) or "1")}</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
