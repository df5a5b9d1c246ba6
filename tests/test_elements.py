"""The element registry (generator/elements) and the `qr` element it was shown with.

A QR code is read back from the printed page: the page is rasterised and a QR decoding
library (zxing-cpp) must read the card's own data from it.
"""

from __future__ import annotations

import pytest
import zxingcpp

from pdfcheck import Raster
from test_layout_engine import SLOT_X, SLOT_Y, build, close, ink


def decode(raster: Raster, x0: float, y0: float, x1: float, y1: float) -> list[str]:
    """The texts of the QR codes inside a part of the page (mm from its top-left)."""
    px = raster.px_per_mm
    crop = raster.image.crop(tuple(int(v * px) for v in (x0, y0, x1, y1)))
    return [r.text for r in zxingcpp.read_barcodes(crop)
            if r.format == zxingcpp.BarcodeFormat.QRCode]


QR_LAYOUT = """
    size: meishi
    elements:
      - {name: back, type: rect, fill: "#202040", bleed: true}
      - {name: link, type: qr, data: "{{ card.url }}", x: 60mm, y: 20mm, width: 25mm, height: 25mm}
"""


def test_a_qr_code_links_each_card_and_scans_from_the_printed_page(project, cardgen):
    cards = ("  - {id: one, url: 'https://example.com/errata/one'}\n"
             "  - {id: two, url: '月に叢雲、花に風 https://example.jp/二'}\n")
    pdf, _ = build(project, cardgen, QR_LAYOUT, cards=cards)
    raster = Raster(pdf, 0, dpi=300)
    # Slot 0 and slot 1 (the A-One sheet's second column starts 91 mm further right).
    assert decode(raster, SLOT_X + 55, SLOT_Y + 15, SLOT_X + 90, SLOT_Y + 50) == \
        ["https://example.com/errata/one"]
    assert decode(raster, SLOT_X + 91 + 55, SLOT_Y + 15, SLOT_X + 91 + 90, SLOT_Y + 50) == \
        ["月に叢雲、花に風 https://example.jp/二"]
    # Square, filling its square box, with its white quiet zone on the dark card: white
    # just inside the box's corners, the card's colour just outside them.
    for x, y, inside in ((60.3, 20.3, True), (84.7, 44.7, True), (59.6, 20.3, False),
                         (85.4, 44.7, False), (60.3, 19.6, False)):
        assert raster.is_white(SLOT_X + x, SLOT_Y + y) == inside, (x, y)
    # The modules: 29 x 29 (version 3) plus 4 on each side is 37 modules in 25 mm, so the
    # code's finder pattern starts 4 modules (2.70 mm) inside the box.
    from generator.elements.qr import encode
    assert len(encode("https://example.com/errata/one", "M")) == 29
    left, top, _, _ = ink(raster, 60.5, 20.5, 84.5, 44.5)
    close((left, top), (60 + 4 * 25 / 37, 20 + 4 * 25 / 37), tol=0.15)


def test_the_code_is_vectors_in_one_path_not_a_picture(project, cardgen):
    from pypdf import PdfReader
    pdf, _ = build(project, cardgen, QR_LAYOUT, cards="  - {id: one, url: 'https://e.com/1'}\n")
    page = PdfReader(pdf).pages[0]
    assert not page.images  # no raster image anywhere on the sheet
    content = page.get_contents().get_data().decode("latin-1")
    assert content.count(" re") > 50 and " f" in content


@pytest.mark.parametrize("element, message", [
    ("{name: link, type: qr, data: 'https://example.com/rules/errata/card-17', width: 5mm, "
     "height: 5mm}",
     "element 'link': width: a QR code of 29 x 29 modules needs a box of at least 9.3 mm to print "
     "its modules at 0.25 mm (they would be 0.14 mm); make the box larger, the data shorter or "
     "the level lower"),
    ("{name: link, type: qr, data: '', width: 20mm, height: 20mm}",
     "element 'link': data: is empty: a QR code needs something to encode"),
    ("{name: link, type: qr, data: '{{ card.url }}', level: Q, width: 20mm, height: 20mm}",
     "element 'link': data: is 1,200 characters long; a QR code on a card holds at most 1,000"),
    ("{name: link, type: qr, data: x, level: X}",
     "level must be one of L, M, Q, H, not 'X'"),
    ("{name: link, type: qr, data: x, colour: red}",
     "unknown key 'colour' (not a key of a qr element)"),
])
def test_qr_problems_are_located_errors(project, cardgen, element, message):
    layout = f"size: meishi\nelements:\n  - {element}\n"
    _, run = build(project, cardgen, layout, cards=f"  - {{id: one, url: '{'x' * 1200}'}}\n",
                   expect=1)
    assert any(message in line and "test-face.yaml:3:" in line for line in run.lines), run.lines


def test_every_element_type_is_one_module_that_the_schema_and_docs_know():
    from pathlib import Path
    from generator import elements
    from generator.load.schema import validator_for
    docs = (Path(__file__).parent.parent / "docs/layouts.md").read_text("utf-8")
    schema = validator_for("element").schema
    names = set(schema["properties"]["type"]["enum"])
    assert {"text", "rect", "ellipse", "circle", "line", "polygon", "image", "icon", "qr"} == names
    for name, module in elements.TYPES.items():
        assert callable(module.lay_out) and module.NAME == name
        assert f"### {name}" in docs, f"docs/layouts.md has no section for '{name}'"


@pytest.mark.parametrize("kind", ["rect", "circle", "polygon", "line"])
def test_a_dashed_stroke_is_drawn_dashed(project, cardgen, kind):
    """`dash` is a list of lengths: each is read as a length (a list read as one length was
    an internal error on every shape)."""
    import pikepdf
    from conftest import write_game
    extra = {"x2": "40mm", "y2": "40mm"} if kind == "line" else {}
    write_game(project, "dashes", {"title": "t", "decks": [{"id": "d", "front": "dashed"}]},
               [{"id": "one"}], {"dashed": {"size": "meishi", "elements": [
                   {"name": "s", "type": kind, "x": "5mm", "y": "5mm", "width": "30mm",
                    "height": "30mm", "stroke": "black", "dash": ["2pt", "1pt"], **extra}]}})
    run = cardgen("build", "dashes")
    assert run.code == 0, run.lines
    with pikepdf.open(project / "output/dashes/dashes-fronts.pdf") as pdf:
        ops = [(operands, str(op)) for operands, op in pikepdf.parse_content_stream(pdf.pages[0])]
        dashes = [[float(v) for v in operands[0]] for operands, op in ops if op == "d"]
    assert [2.0, 1.0] in dashes


def test_a_picture_or_icon_not_chosen_yet_prints_a_tbd_mark(project, cardgen):
    """An image src, an icon element's icon or an <icon> in text that is TBD (a draft) prints
    TBD in a dashed frame (in the text: TBD), as a TBD text prints TBD; it was an error."""
    from conftest import write_game
    from pdfcheck import reader
    write_game(project, "tbdart", {"title": "t", "icons": {"star": {"glyph": "★"}},
                                   "decks": [{"id": "d", "front": "art"}]},
               [{"id": "one", "art": "TBD", "mark": "TBD"}],
               {"art": {"size": "meishi", "elements": [
                   {"name": "art", "type": "image", "src": "{{ card.art }}", "x": "5mm",
                    "y": "5mm", "width": "30mm", "height": "30mm"},
                   {"name": "mark", "type": "icon", "icon": "{{ card.mark }}", "x": "40mm",
                    "y": "5mm", "width": "10mm", "height": "10mm"},
                   {"name": "line", "type": "text", "text": "<icon {{ card.mark }}>です",
                    "x": "40mm", "y": "20mm", "width": "40mm", "height": "8mm"}]}})
    run = cardgen("build", "--cards-pdf", "tbdart")
    assert run.code == 0 and not [line for line in run.lines if ": error: " in line], run.lines
    page = reader(project / "output/tbdart/tbdart-cards.pdf").pages[0]
    text = "".join(page.extract_text().split())
    assert text.count("TBD") == 3 and "TBDです" in text
