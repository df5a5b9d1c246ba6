"""pdf: one PDF/X-4 page per face (trim plus bleed, trim marks, boxes), colours in CMYK
through the profile's ICC output profile, or in RGB."""

from __future__ import annotations

import io

NAME = "pdf"
EXTENSION = "pdf"
RASTER = False
DEFAULTS = {"color": "cmyk", "marks": "tombo", "bleed": "3mm"}
SCHEMA: dict = {}
PDFX_VERSION = "PDF/X-4"
FIXED_DATE = "2000-01-01T00:00:00+00:00"  # reportlab's invariant date: the same bytes every time


def finish(data: bytes, profile, title: str, icc: bytes | None) -> bytes:
    """The PDF/X-4 parts reportlab does not write: the output intent with the ICC profile,
    the PDF/X version in the document information and the XMP metadata."""
    import pikepdf
    from pikepdf import Dictionary, Name, String
    pdf = pikepdf.open(io.BytesIO(data))
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
        pdf.Root.Metadata = pdf.make_stream(_xmp(title).encode("utf-8"),
                                            Type=Name.Metadata, Subtype=Name.XML)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, min_version="1.6")
    return out.getvalue()


def _xmp(title: str) -> str:
    from xml.sax.saxutils import escape
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreatorTool>cardgen</xmp:CreatorTool>
   <xmp:CreateDate>{FIXED_DATE}</xmp:CreateDate>
   <xmp:ModifyDate>{FIXED_DATE}</xmp:ModifyDate>
   <pdf:Producer>cardgen</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
