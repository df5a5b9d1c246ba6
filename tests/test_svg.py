"""SVG pictures and icons: drawn as vectors (path operators read back from the PDF, no image
XObject), recoloured, inline in text, in a CMYK export (no RGB operator), in the PNG and the
preview's pictures (pixels read back); hostile files are the bad-input catalogue's
(svg-hostile), each a located error."""

from __future__ import annotations

import pikepdf
from PIL import Image

from conftest import write_game
from pdfcheck import Raster

# A sword in the style of game-icons.net: one black path on a transparent 512-unit square.
SWORD = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
         b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
         b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
         b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
         b'<path d="M256 20 L290 330 L360 330 L360 360 L276 360 L276 470 L236 470 L236 360 '
         b'L152 360 L152 330 L222 330 Z" fill="#000"/></svg>\n')
# A badge of two colours: a red disc with a white ring.
BADGE = (b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
         b'<circle cx="50" cy="50" r="45" fill="#cc0000"/>'
         b'<circle cx="50" cy="50" r="20" fill="none" stroke="#ffffff" stroke-width="6"/>'
         b'</svg>')

LAYOUT = {"size": "meishi", "defaults": {"color": "#222222"}, "elements": [
    {"name": "art", "type": "image", "src": "art/badge.svg", "x": "5mm", "y": "5mm",
     "width": "30mm", "height": "30mm"},
    {"name": "sword", "type": "icon", "icon": "sword", "x": "45mm", "y": "5mm",
     "width": "20mm", "height": "20mm", "color": "#336699"},
    {"name": "tinted", "type": "image", "src": "icons/sword.svg", "x": "70mm", "y": "5mm",
     "width": "15mm", "height": "15mm", "color": "{{ card.tint }}"},
    {"name": "line", "type": "text", "text": "<color #008000>Attack <icon sword> twice</color>",
     "x": "5mm", "y": "40mm", "width": "80mm", "height": "10mm", "size": "14pt"},
]}


def _game(project):
    return write_game(
        project, "icons", {"title": "Icons", "lang": "en",
                           "icons": {"sword": {"image": "icons/sword.svg"}},
                           "decks": [{"id": "d", "front": "svg-front"}]},
        [{"id": "one", "tint": "#cc6600"}], {"svg-front": LAYOUT},
        {"icons/sword.svg": SWORD, "art/badge.svg": BADGE})


def _ops(path) -> list[tuple[str, list]]:
    from test_export import operators
    with pikepdf.open(path) as pdf:
        return operators(pdf)


def _fills(ops) -> set[tuple[float, ...]]:
    return {tuple(round(float(v), 3) for v in operands) for op, operands in ops
            if op in ("rg", "k")}


def test_an_svg_is_drawn_as_vectors_recoloured_and_inline(project, cardgen):
    _game(project)
    run = cardgen("build", "icons", "--cards-pdf")
    assert run.code == 0 and not [line for line in run.lines if ": error: " in line], run.lines
    pdf = project / "output/icons/icons-cards.pdf"
    with pikepdf.open(pdf) as doc:  # no picture anywhere: every SVG is paths
        def images(resources, depth=0):
            found = 0
            for xobject in (resources.get("/XObject") or {}).values():
                if xobject.get("/Subtype") == "/Image":
                    found += 1
                elif depth < 8:
                    found += images(xobject.get("/Resources") or {}, depth + 1)
            return found
        assert images(doc.pages[0].Resources) == 0
    ops = _ops(pdf)
    names = [op for op, _ in ops]
    assert names.count("c") >= 8  # the two circles' curves
    assert "f" in names and "S" in names  # filled, and the ring stroked
    fills = _fills(ops)
    assert (0.8, 0.0, 0.0) in fills  # the badge keeps its own red: the layout's default
    # colour is a text's, and recolours no picture
    assert (0.2, 0.4, 0.6) in fills  # the icon element's colour
    assert (0.8, 0.4, 0.0) in fills  # the image's colour, from the card's data
    assert (0.0, 0.502, 0.0) in fills  # the inline sword: one colour, drawn in the text's
    raster = Raster(pdf, 0, dpi=300)
    bleed = 3.0  # the cards PDF has each card with its bleed
    r, g, b = raster.at(bleed + 20, bleed + 10)  # the badge's red, inside its disc
    assert r > 180 and g < 60 and b < 60, (r, g, b)
    r, g, b = raster.at(bleed + 20, bleed + 20)  # at its centre: no ring there, red again
    assert r > 180 and g < 60
    r, g, b = raster.at(bleed + 55, bleed + 15)  # the blade of the blue sword
    assert (r, g, b) != (255, 255, 255) and b > r, (r, g, b)


def test_the_cmyk_export_has_no_rgb_and_the_png_shows_the_vectors(project, cardgen):
    _game(project)
    run = cardgen("export", "icons", "--profile", "jp-print")
    assert run.code == 0, run.lines
    folder = project / "output/icons/export-jp-print"
    front = next(folder.glob("*one-front.pdf"))
    ops = _ops(front)
    assert not {op for op, _ in ops} & {"rg", "RG", "sc", "SC", "scn", "SCN"}
    assert [op for op, _ in ops].count("c") >= 8
    assert cardgen("build", "icons", "--png", "--dpi", "150").code == 0
    png = next((project / "output/icons").rglob("*one*front*.png"))
    image = Image.open(png).convert("RGB")
    px = 150 / 25.4
    left = (image.width - 91 * px) / 2  # the picture may carry its bleed
    top = (image.height - 55 * px) / 2
    r, g, b = image.getpixel((int(left + 20 * px), int(top + 10 * px)))
    assert r > 180 and g < 60 and b < 60, (r, g, b)


def test_a_changed_svg_changes_the_face_and_a_second_build_is_the_same(project, cardgen):
    folder = _game(project)
    assert cardgen("build", "icons").code == 0
    fronts = project / "output/icons/icons-fronts.pdf"
    first = fronts.read_bytes()
    assert cardgen("build", "icons").code == 0
    assert fronts.read_bytes() == first  # a warm build: the same bytes
    (folder / "art/badge.svg").write_bytes(BADGE.replace(b"#cc0000", b"#0000cc"))
    assert cardgen("build", "icons").code == 0
    assert fronts.read_bytes() != first
    assert (0.0, 0.0, 0.8) in _fills(_ops(fronts))


def test_the_preview_page_serves_the_card_with_its_vectors(project):
    """`cardgen serve`: the card's picture the page shows has the SVG's colours where the
    layout puts them (the preview rasterises the same PDF drawing)."""
    import io
    import threading
    import time
    import urllib.request

    from generator.load import Project
    from generator.serve import serve
    _game(project)
    address, stop = {}, threading.Event()
    thread = threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game="icons", port=0, stop=stop,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}")))
    thread.start()
    try:
        deadline, data = time.monotonic() + 30, None
        while data is None:
            assert time.monotonic() < deadline, "the preview was not built"
            try:
                with urllib.request.urlopen(address["url"] + "/img/d/one-front.png",
                                            timeout=5) as response:
                    data = response.read()
            except (KeyError, OSError):
                time.sleep(0.2)
        image = Image.open(io.BytesIO(data)).convert("RGB")
        px = image.width / (91 + 6)  # the face with its 3 mm bleed, in pixels a millimetre
        r, g, b = image.getpixel((round((3 + 20) * px), round((3 + 10) * px)))
        assert r > 180 and g < 60 and b < 60, (r, g, b)  # the badge's red disc
    finally:
        stop.set()
        thread.join(10)


def test_a_picture_measured_in_inches_has_a_size_and_one_without_is_said_once(project, cardgen):
    """Its size was checked twice, the second time after drawing, in points, against the
    budget of the file's units: a picture 20,000 in wide (1,440,000 pt, within the budget
    of 1,000,000 units on a side) was said to have no size. It is checked once, at its
    cause, the size its root gives; a picture with no width, height or viewBox is said so."""
    big = (b'<svg xmlns="http://www.w3.org/2000/svg" width="20000in" height="20000in" '
           b'viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#cc0000"/></svg>')
    folder = _game(project)
    (folder / "art/badge.svg").write_bytes(big)
    run = cardgen("build", "icons")
    assert run.code == 0, run.lines
    assert (0.8, 0.0, 0.0) in _fills(_ops(project / "output/icons/icons-fronts.pdf"))  # drawn
    (folder / "art/badge.svg").write_bytes(big.replace(
        b' width="20000in" height="20000in" viewBox="0 0 10 10"', b""))
    run = cardgen("validate", "icons")
    problems = [line for line in run.lines if ": error: " in line]
    assert problems == ["layouts/svg-front.yaml:7:8: error: card 'one': element 'art': src: "
                        "image 'art/badge.svg' has no size (a width or height of 0 or less) "
                        "[image]"], run.lines
