"""`cardgen export`: print-shop files read back. PDF boxes and trim marks from pikepdf, colour
operators from the content streams (forms too), the output intent and its ICC profile, PNG
pixel sizes and what lies in the bleed from the images, copies from the manifest."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms

from pdfcheck import fonts

MM = 72 / 25.4
REPO = Path(__file__).resolve().parent.parent
ICC = REPO / "layouts/exports/icc/cardgen-FOGRA39.icc"


def boxes(page) -> dict[str, list[float]]:
    return {name: [float(v) for v in page[f"/{name}"]]
            for name in ("MediaBox", "TrimBox", "BleedBox")}


def operators(pdf: pikepdf.Pdf) -> list[tuple[str, list]]:
    """Every content-stream operator of every page and of the forms they draw."""
    found = []

    def walk(owner, resources, depth=0):
        for operands, op in pikepdf.parse_content_stream(owner):
            found.append((str(op), operands))
            if str(op) == "Do" and resources is not None and depth < 8:
                xobject = resources.get("/XObject", {}).get(str(operands[0]))
                if xobject is not None and xobject.get("/Subtype") == "/Form":
                    walk(xobject, xobject.get("/Resources"), depth + 1)
    for page in pdf.pages:
        walk(page, page.get("/Resources"))
    return found


def segments(pdf: pikepdf.Pdf) -> list[tuple[float, float, float, float]]:
    """Straight lines drawn on the page itself, outside every saved state (the face is drawn
    inside one, moved into place): the trim marks."""
    out, start, depth = [], None, 0
    for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):
        depth += {"q": 1, "Q": -1}.get(str(op), 0)
        if depth:
            continue
        if str(op) == "m":
            start = [float(v) for v in operands]
        elif str(op) == "l" and start is not None:
            end = [float(v) for v in operands]
            out.append((*start, *end))
            start = end
    return out


def deck_totals(cardgen, game: str) -> dict[str, int]:
    run = cardgen("stats", game, "--format", "json")
    return {d["id"]: d["cards"] for d in json.loads(run.out)["decks"]}


@pytest.fixture
def vampire(project, cardgen):
    run = cardgen("export", "vampire-band", "--profile", "jp-print")
    assert run.code == 0, run.lines
    return project / "output/vampire-band/export-jp-print"


def test_jp_print_pdfs_have_bleed_boxes_tombo_outside_the_bleed_and_cmyk_only(vampire, cardgen):
    files = sorted(vampire.glob("*.pdf"))
    manifest = json.loads((vampire / "manifest.json").read_text("utf-8"))
    assert sorted(f.name for f in files) == sorted(r["file"] for r in manifest["files"])
    files = [f for f in files if f.name != "rulebook.pdf"]  # (its own test below)
    # 6 distinct fronts and their backs, one file each: the 8 filler cards that only fill
    # the ROTATION sheet at home (filler: true) are not ordered from a shop
    assert len(files) == 11 and manifest["fillers"] == {"rotation": 8}
    assert not any("blank" in f.name for f in files)
    icc = ICC.read_bytes()
    for path in files:
        pdf = pikepdf.open(path)
        assert len(pdf.pages) == 1
        b = boxes(pdf.pages[0])
        trim_w = (b["TrimBox"][2] - b["TrimBox"][0]) / MM
        trim_h = (b["TrimBox"][3] - b["TrimBox"][1]) / MM
        assert sorted((round(trim_w, 2), round(trim_h, 2))) == [55.0, 91.0], path.name
        bleed = b["BleedBox"]
        # the page the shop sees: trim + 2 x 3 mm bleed, exact to 0.01 mm
        assert abs((bleed[2] - bleed[0]) / MM - (trim_w + 6)) < 0.01
        assert abs((bleed[3] - bleed[1]) / MM - (trim_h + 6)) < 0.01
        for i in range(2):
            assert abs((b["TrimBox"][i] - bleed[i]) / MM - 3) < 0.01
        media = b["MediaBox"]
        assert media[0] <= bleed[0] - 10 * MM and media[2] >= bleed[2] + 10 * MM  # room for marks

        # トンボ: 4 corners x (trim + bleed line) x 2 directions, and a cross per side
        marks = segments(pdf)
        assert len(marks) == 24, path.name
        for x1, y1, x2, y2 in marks:  # none reaches into the bleed box
            inside_x = min(x1, x2) < bleed[2] - 0.01 and max(x1, x2) > bleed[0] + 0.01
            inside_y = min(y1, y2) < bleed[3] - 0.01 and max(y1, y2) > bleed[1] + 0.01
            assert not (inside_x and inside_y), (path.name, (x1, y1, x2, y2))
        trim = b["TrimBox"]
        corner_lines = {round(v, 2) for s in marks for v in (s[0], s[2]) if s[0] == s[2]}
        for x in (trim[0], trim[2], bleed[0], bleed[2]):  # lines on the trim and bleed lines
            assert round(x, 2) in corner_lines

        ops = operators(pdf)
        names = {op for op, _ in ops}
        assert not names & {"rg", "RG", "sc", "scn", "SC", "SCN"}, path.name
        assert names & {"k", "K"}
        registration = [o for op, o in ops if op == "K" and [float(v) for v in o] == [1, 1, 1, 1]]
        assert registration  # the marks are on every plate
        for image in (x for page in pdf.pages for x in page.get_images().values()):
            assert image.ColorSpace != "/DeviceRGB"

        intents = pdf.Root.OutputIntents
        assert len(intents) == 1 and intents[0].S == "/GTS_PDFX"
        profile = intents[0].DestOutputProfile
        assert profile.N == 4 and profile.read_bytes() == icc
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
        assert b"<pdfxid:GTS_PDFXVersion>PDF/X-4" in pdf.Root.Metadata.read_bytes()
    totals = deck_totals(cardgen, "vampire-band")
    for side in ("front", "back"):
        copies: dict[str, int] = {}
        for row in manifest["files"]:
            if row["side"] == side:
                copies[row["deck"]] = copies.get(row["deck"], 0) + row["copies"]
        # what is ordered and the fillers left out (home sheets only) make the whole deck
        assert {d: n + manifest["fillers"].get(d, 0) for d, n in copies.items()} == totals, side
    rows = list(csv.DictReader((vampire / "manifest.csv").open(encoding="utf-8")))
    assert [r["file"] for r in rows] == [r["file"] for r in manifest["files"]]
    assert sum(int(r["copies"]) for r in rows if r["side"] in ("front", "back")) == \
        2 * (sum(totals.values()) - 8)  # no fillers
    back = next(r for r in rows if r["file"] == "characters-back.pdf")
    assert back["cards"].split() == ["akira", "shinya", "yuuhi", "tatiana"]
    assert back["copies"] == "4"


def test_every_font_in_an_export_is_embedded(vampire):
    import pypdf
    seen = 0
    for path in sorted(vampire.glob("*.pdf")):
        found = fonts(pypdf.PdfReader(str(path)).pages[0])
        assert all(found.values()), (path.name, found)
        seen += len(found)
    assert seen


def test_no_pdf_cardgen_writes_references_a_font_it_does_not_embed(exports):
    """Every PDF of every game (sheets, back files, rulebook, booklet, statistics, and the
    print-shop export): each font any page selects, in forms too, is embedded. (A rulebook
    once listed an unembedded Helvetica that its tables selected and never drew.)"""
    import pypdf
    output = exports["lastdance"].parent.parent
    pdfs = sorted(output.rglob("*.pdf"))
    kinds = {p.name.rsplit("-", 1)[-1] for p in pdfs}
    assert {"fronts.pdf", "backs.pdf", "rulebook.pdf", "booklet.pdf", "stats.pdf"} <= kinds
    assert any(p.parent == exports["vampire-band"] for p in pdfs)
    for path in pdfs:
        for n, page in enumerate(pypdf.PdfReader(str(path)).pages, 1):
            found = fonts(page)
            assert all(found.values()), (str(path.relative_to(output)), n, found)


def test_the_same_game_exports_the_same_bytes(project, cardgen, vampire):
    first = {p.name: p.read_bytes() for p in vampire.iterdir()}
    assert cardgen("export", "vampire-band", "--profile", "jp-print").code == 0
    assert {p.name: p.read_bytes() for p in vampire.iterdir()} == first


@pytest.mark.parametrize("profile, pixels", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_png_profiles_give_the_templates_pixel_size_with_the_bleed_printed(
        project, cardgen, profile, pixels):
    run = cardgen("export", "odoriko", "--profile", profile)
    assert run.code == 0, run.lines
    folder = project / f"output/odoriko/export-{profile}"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert manifest["files"]
    for row in manifest["files"]:
        with Image.open(folder / row["file"]) as image:
            assert image.size == pixels and image.mode == "RGB", row["file"]
            assert row["size"] == "poker"
            if row["deck"] == "characters":  # a cream background that runs into the bleed
                assert image.getpixel((2, 2)) != (255, 255, 255), row["file"]
    totals = deck_totals(cardgen, "odoriko")
    fronts: dict[str, int] = {}
    for row in manifest["files"]:
        if row["side"] == "front":
            fronts[row["deck"]] = fronts.get(row["deck"], 0) + row["copies"]
    assert fronts == {deck: n for deck, n in totals.items() if n}


def small_game(project: Path, elements: str, copies: int = 3, name: str = "shop") -> Path:
    (project / f"layouts/{name}-front.yaml").write_text(textwrap.dedent("""
        size: meishi
        elements:
    """) + textwrap.indent(textwrap.dedent(elements), "  "), "utf-8")
    game = project / f"cards/{name}"
    game.mkdir()
    (game / "game.yaml").write_text(textwrap.dedent(f"""
        title: 店
        decks:
          - {{id: cards, cards: cards.yaml, front: {name}-front, backs: duplex}}
    """), "utf-8")
    (game / "cards.yaml").write_text("cards:\n" + "".join(
        f"  - {{id: c{i}, name: カード{i}, copies: {copies}}}\n" for i in range(1, 4)), "utf-8")
    return game


def test_ink_that_stops_at_the_trim_and_text_outside_the_safe_area_are_located_warnings(
        project, cardgen):
    small_game(project, """
        - {name: background, type: rect, fill: "#204080", bleed: false}
        - {name: title, type: text, text: "{{ card.name }}", x: 1mm, y: 1mm, width: 40mm,
           height: 8mm, size: 12pt, color: white}
        - {name: inside, type: text, text: "{{ card.name }}", x: 10mm, y: 20mm, width: 40mm,
           height: 8mm, size: 12pt, color: white}
    """)
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    warnings = [line for line in run.lines if ": warning: " in line]
    bleed = [line for line in warnings if line.endswith("[bleed]")]
    safe = [line for line in warnings if line.endswith("[safe-area]")]
    assert len(bleed) == 1 and len(safe) == 1, warnings
    assert bleed[0].startswith("layouts/shop-front.yaml:5:")
    assert "card 'c1': element 'background'" in bleed[0]
    assert "stops at the trim on the left, bottom, right and top" in bleed[0]
    assert "(and on 2 other cards)" in bleed[0]
    assert safe[0].startswith("layouts/shop-front.yaml:6:")
    assert "text element 'title' comes 1" in safe[0] and "3.0 mm inside it" in safe[0]
    assert cardgen("export", "shop", "--profile", "jp-print", "--strict").code == 1


def test_a_line_past_the_trim_short_of_the_bleed_is_said_at_it_and_one_meeting_it_is_art(
        project, cardgen):
    """Found by the property test: a line turned so that its end runs past the top of the
    trim, short of the bleed's edge, stopped the export with the preflight's 'a cardgen
    bug' and no place; and a thin line from a corner at a slant (a line the cut takes)
    was taken by the preflight for art cut short on the left."""
    small_game(project, """
        - {name: turned, type: line, x2: 0mm, y2: 50%, rotate: 3}
    """)
    small_game(project, """
        - {name: slant, type: line, x: 0mm, y: 0mm, x2: 3mm, y2: 50%}
    """, name="slant")
    slant = cardgen("export", "slant", "--profile", "jp-print")
    assert slant.code == 0 and not [line for line in slant.lines if ": warning: " in line or
                                    ": error: " in line], slant.lines
    small_game(project, """
        - {name: box, type: rect, x: 0mm, y: -1mm, width: 20mm, height: 10mm, fill: "#204080",
           bleed: false}
    """, name="edge")
    small_game(project, """
        - {name: name, type: text, text: "■ Prince", x: 0mm, y: 30mm, width: 60mm,
           height: 16mm, size: 30pt}
    """, name="prince")
    prince = cardgen("export", "prince", "--profile", "jp-print")
    assert prince.code == 0 and [line.split(": ", 1)[1] for line in prince.lines
                                 if ": warning: " in line or ": error: " in line] == [
        "warning: "
        "card 'c1': text element 'name' comes 0.0 mm from the trim on the left; export "
        "profile 'jp-print' keeps what must not be cut (text, pictures, frames) 3.0 mm "
        "inside it, where the cut cannot reach (and on 2 other cards) [safe-area]"], \
        prince.lines
    edge = cardgen("export", "edge", "--profile", "jp-print")  # (the property test's finds)
    assert edge.code == 0, edge.lines
    assert sorted(line.split(": warning: ")[1] for line in edge.lines if ": warning: " in line) == [
        "card 'c1': element 'box' of layout 'edge-front' runs past the trim on the top but "
        "ends short of the bleed's edge, where a cut a little outside the trim shows it "
        "ending; let it run 3.0 mm past the edge, or keep it inside the trim (and on 2 other "
        "cards) [bleed]",
        "card 'c1': element 'box' of layout 'edge-front' stops at the trim on the left; the "
        "bleed would print white there. Let it run 3.0 mm past the edge (`bleed: true`) (and "
        "on 2 other cards) [bleed]"], edge.lines
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    bleed = [line for line in run.lines if line.endswith("[bleed]")]
    assert bleed == [
        "layouts/shop-front.yaml:5:5: warning: card 'c1': element 'turned' of layout "
        "'shop-front' runs past the trim on the top but ends short of the bleed's edge, where "
        "a cut a little outside the trim shows it ending; let it run 3.0 mm past the edge, or "
        "keep it inside the trim (and on 2 other cards) [bleed]"], run.lines
    assert not [line for line in run.lines if "preflight" in line], run.lines


def test_a_rectangle_touching_the_trim_runs_into_the_bleed_and_cmyk_passes_through(
        project, cardgen):
    small_game(project, """
        - {name: background, type: rect, fill: "cmyk(10%, 20%, 30%, 40%)"}
        - {name: band, type: rect, x: 0mm, y: 0mm, width: 20mm, height: 100%, fill: "#d0201b"}
        - {name: title, type: text, text: "{{ card.name }} Black", x: 25mm, y: 20mm,
           width: 50mm, height: 10mm, size: 12pt, color: black}
    """)
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    assert not [line for line in run.lines if "[bleed]" in line or "[safe-area]" in line]
    pdf = pikepdf.open(project / "output/shop/export-jp-print/cards-c1-front.pdf")
    ops = operators(pdf)
    fills = [[round(float(v), 4) for v in o] for op, o in ops if op == "k"]
    assert [0.1, 0.2, 0.3, 0.4] in fills  # written as CMYK: exactly as written
    assert [0.0, 0.0, 0.0, 1.0] in fills  # black text: K100, not rich black
    to_cmyk = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(str(ICC)), "RGB", "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    pixel = Image.new("RGB", (1, 1), (0xd0, 0x20, 0x1b))
    red = ImageCms.applyTransform(pixel, to_cmyk).getpixel((0, 0))
    assert [round(v / 255, 4) for v in red] in fills  # RGB through the ICC profile, once
    # the rectangles reach the bleed box: rasterise and look at the bleed strip
    import pypdfium2
    b = boxes(pdf.pages[0])
    doc = pypdfium2.PdfDocument(str(project / "output/shop/export-jp-print/cards-c1-front.pdf"))
    scale = 100 / 72
    image = doc[0].render(scale=scale).to_pil().convert("RGB")
    height = float(pdf.pages[0].MediaBox[3])
    y = round((height - (b["TrimBox"][1] + b["TrimBox"][3]) / 2) * scale)
    left_bleed = round((b["BleedBox"][0] + 0.5 * MM) * scale)
    right_bleed = round((b["BleedBox"][2] - 0.5 * MM) * scale)
    r, g, bl = image.getpixel((left_bleed, y))
    assert r > 150 and g < 100 and bl < 100  # the red band
    assert image.getpixel((right_bleed, y)) != (255, 255, 255)  # the background


def test_an_image_with_transparency_is_cmyk_and_keeps_its_mask(project, cardgen):
    game = small_game(project, """
        - {name: background, type: rect, fill: "#ffe000", bleed: true}
        - {name: art, type: image, src: dot.png, x: 20mm, y: 10mm, width: 20mm, height: 20mm}
    """)
    dot = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    for x in range(100, 200):
        for y in range(100, 200):
            dot.putpixel((x, y), (0, 90, 200, 255))
    dot.save(game / "dot.png")
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    # 300 px on 20 mm: 381 dpi
    assert not [line for line in run.lines if "[image-resolution]" in line]
    pdf = pikepdf.open(project / "output/shop/export-jp-print/cards-c1-front.pdf")
    images = [x for page in pdf.pages for x in page.get_images().values()]
    assert images and all(i.ColorSpace == "/DeviceCMYK" for i in images)
    assert all("/SMask" in i for i in images)  # the transparent corners stay transparent
    manifest = json.loads(
        (project / "output/shop/export-jp-print/manifest.json").read_text("utf-8"))
    row = next(r for r in manifest["files"] if r["file"] == "cards-c1-front.pdf")
    assert row["image_dpi"] == [381]  # read back from the PDF: 300 pixels over 20 mm


def test_a_picture_below_the_profiles_resolution_is_a_located_warning(project, cardgen):
    game = small_game(project, """
        - {name: art, type: image, src: small.png, x: 10mm, y: 10mm, width: 40mm, height: 30mm}
    """)
    Image.new("RGB", (150, 100), (10, 120, 60)).save(game / "small.png")
    run = cardgen("export", "shop", "--profile", "jp-print")
    low = [line for line in run.lines if "[image-resolution]" in line]
    assert len(low) == 1 and low[0].startswith("layouts/shop-front.yaml:5:")
    assert "prints at 95 dpi" in low[0] and "at least 300 dpi" in low[0]


def test_bad_profiles_and_icc_files_are_clear_errors_and_nothing_is_written(project, cardgen):
    small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
    """)
    run = cardgen("export", "shop", "--profile", "jp-prnt")
    assert run.code == 2 and "unknown export profile 'jp-prnt'" in run.err
    assert "did you mean 'jp-print'?" in run.err
    assert not (project / "output/shop").exists()

    assert cardgen("export", "shop", "--profile", "jp-print").code == 0
    folder = project / "output/shop/export-jp-print"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}

    run = cardgen("export", "shop", "--profile", "jp-print", "--icc", "missing.icc")
    assert run.code == 2 and "--icc missing.icc: no such file" in run.err
    run = cardgen("export", "shop", "--profile", "tgc", "--icc", str(ICC))
    assert run.code == 2 and "export profile 'tgc' writes RGB PNG files" in run.err
    rgb = project / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    run = cardgen("export", "shop", "--profile", "jp-print", "--icc", str(rgb))
    assert run.code == 2 and "is an RGB profile; a CMYK export needs a CMYK printer" in run.err
    (project / "layouts/exports/mine.yaml").write_text(
        "format: pdf\nbleed: 3mm\nicc: profiles/shop.icc\n", "utf-8")
    run = cardgen("export", "shop", "--profile", "mine")
    assert run.code == 1
    assert run.lines[0] == ("layouts/exports/mine.yaml:3:6: error: export profile 'mine': the ICC "
                            "profile 'profiles/shop.icc' does not exist (profiles/shop.icc) [path]")
    run = cardgen("export", "shop", "--profile", "tgc")
    assert run.code == 1
    assert any("deck 'cards': its cards are 91 x 55 mm, a size export profile 'tgc' has no "
               "template for" in line and ": warning: " in line and "[export]" in line
               for line in run.lines)  # its only deck: then nothing is left to export
    assert any("export profile 'tgc' can take none of the decks exported (cards): nothing to "
               "export" in line and ": error: " in line for line in run.lines)
    (project / "layouts/exports/huge.yaml").write_text(
        "format: png\nsizes:\n  - {name: big, trim: [63mm, 88mm], pixels: [20000, 20000]}\n",
        "utf-8")
    (project / "layouts/exports/odd.yaml").write_text(
        "format: pdf\nbleed: -3mm\nsafe: 40mm\nicc: layouts/exports/icc/cardgen-FOGRA39.icc\n",
        "utf-8")
    run = cardgen("export", "shop", "--profile", "odd")
    assert run.code == 1 and [line for line in run.lines if ": error: " in line] == [
        "layouts/exports/odd.yaml:2:8: error: export profile 'odd': bleed: must be from 0 mm to "
        "20 mm, not -3 mm [units]",
        "layouts/exports/odd.yaml:3:7: error: export profile 'odd': safe: must be from 0 mm to "
        "30 mm, not 40 mm [units]"]
    run = cardgen("export", "shop", "--profile", "huge")
    assert run.code == 1 and run.lines[0].startswith("layouts/exports/huge.yaml:3:45: error: ")
    assert "20000 x 20000 pixels is more than an image may have (50 megapixels)" in run.lines[0]
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert not (project / "output/shop/export-tgc").exists()


def test_a_face_gone_from_the_game_is_gone_from_the_export(project, cardgen):
    game = small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
        - {name: title, type: text, text: "{{ card.name }}", x: 10mm, y: 20mm, width: 40mm,
           height: 8mm, size: 12pt, color: white}
    """)
    assert cardgen("export", "shop", "--profile", "jp-print").code == 0
    folder = project / "output/shop/export-jp-print"
    assert (folder / "cards-c3-front.pdf").is_file()
    (game / "cards.yaml").write_text("cards:\n  - {id: c1, name: カード1, copies: 2}\n", "utf-8")
    assert cardgen("export", "shop", "--profile", "jp-print").code == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "cards-c1-back.pdf", "cards-c1-front.pdf", "manifest.csv", "manifest.json"]


def test_a_picture_gone_from_the_game_is_gone_from_a_jpeg_export(project, cardgen):
    """What an export removes is known from the formats registry, each format's extension:
    a JPEG profile's faces that are gone leave no .jpg behind (the clean-up knew .pdf, .png,
    .csv and .json only); a file of one's own stays."""
    game = small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
        - {name: title, type: text, text: "{{ card.name }}", x: 10mm, y: 20mm, width: 40mm,
           height: 8mm, size: 12pt, color: white}
    """)
    (project / "layouts/exports/my-pod.yaml").write_text(textwrap.dedent("""
        format: jpeg
        dpi: 300
        sizes:
          - {name: meishi, trim: [91mm, 55mm], pixels: [1146, 720]}
    """), "utf-8")
    assert cardgen("export", "shop", "--profile", "my-pod").code == 0
    folder = project / "output/shop/export-my-pod"
    assert (folder / "cards-c3-front.jpg").is_file()
    (folder / "order-notes.txt").write_text("mine", "utf-8")
    (game / "cards.yaml").write_text("cards:\n  - {id: c1, name: カード1, copies: 2}\n", "utf-8")
    assert cardgen("export", "shop", "--profile", "my-pod").code == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "cards-c1-back.jpg", "cards-c1-front.jpg", "manifest.csv", "manifest.json",
        "order-notes.txt"]


def test_a_game_with_errors_and_a_profile_with_errors_report_both_at_once(project, cardgen):
    game = small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
    """)
    (game / "cards.yaml").write_text("cards:\n  - {id: c1, copies: many}\n", "utf-8")
    (project / "layouts/exports/mine.yaml").write_text(
        "format: pdf\nicc: profiles/shop.icc\n", "utf-8")
    run = cardgen("export", "shop", "--profile", "mine")
    assert run.code == 1
    errors = [line for line in run.lines if ": error: " in line]
    assert any(line.startswith("cards/shop/cards.yaml:2:") for line in errors), errors
    assert any(line.startswith("layouts/exports/mine.yaml:2:6:") for line in errors), errors
    assert not (project / "output/shop").exists()


def test_a_landscape_card_gets_a_landscape_image_and_names_never_meet(project, cardgen):
    game = small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
    """)
    layout = project / "layouts/shop-front.yaml"
    layout.write_text(layout.read_text("utf-8").replace("size: meishi", "size: [3.5in, 2.5in]"),
                      "utf-8")
    (project / "layouts/shop-back.yaml").write_text(
        "size: [3.5in, 2.5in]\nelements:\n  - {name: g, type: rect, fill: \"#{{ '%02x' % "
        "(card.copies * 40) }}2020\"}\n", "utf-8")
    (game / "game.yaml").write_text(textwrap.dedent("""
        title: 店
        decks:
          - {id: cards, cards: cards.yaml, front: shop-front, back: shop-back, backs: duplex,
             sheet: plain-letter}
          - {id: cards-c1, cards: more.yaml, front: shop-front, back: shop-back, backs: duplex,
             sheet: plain-letter}
    """), "utf-8")
    (game / "cards.yaml").write_text("cards:\n  - {id: c1-x, name: 一, copies: 1}\n"
                                     "  - {id: c2, name: 二, copies: 2}\n", "utf-8")
    (game / "more.yaml").write_text("cards:\n  - {id: x, name: 三, copies: 1}\n", "utf-8")
    run = cardgen("export", "shop", "--profile", "tgc")
    assert run.code == 0, run.lines
    folder = project / "output/shop/export-tgc"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    files = [r["file"] for r in manifest["files"]]
    assert len(files) == len(set(files)) == 5
    assert "cards-c1-x-front.png" in files and "cards-c1-x-front-2.png" in files  # they met
    front = next(r for r in manifest["files"] if r["file"] == "cards-c1-x-front.png")
    assert front["cards"] == ["c1-x", "c2"] and front["copies"] == 3  # they print alike
    for name in files:
        with Image.open(folder / name) as image:
            assert image.size == (1125, 825), name  # the poker template, turned


def test_a_jpeg_profile_of_ones_own(project, cardgen):
    small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
        - {name: title, type: text, text: "{{ card.name }}", x: 10mm, y: 20mm, width: 40mm,
           height: 8mm, size: 12pt, color: white}
    """)
    (project / "layouts/exports/my-pod.yaml").write_text(textwrap.dedent("""
        description: my print-on-demand service
        format: jpeg
        dpi: 300
        sizes:
          - {name: meishi, trim: [91mm, 55mm], pixels: [1146, 720]}
    """), "utf-8")
    run = cardgen("export", "shop", "--profile", "my-pod")
    assert run.code == 0, run.lines
    folder = project / "output/shop/export-my-pod"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert [r["file"] for r in manifest["files"]][:1] == ["cards-c1-front.jpg"]
    for row in manifest["files"]:
        with Image.open(folder / row["file"]) as image:
            assert (image.format, image.mode, image.size) == ("JPEG", "RGB", (1146, 720))
            assert round(image.info["dpi"][0]) == 300
            if row["side"] == "front":
                r, g, b = image.getpixel((3, 3))  # the background, in the bleed
                assert abs(r - 0x20) < 8 and abs(g - 0x40) < 8 and abs(b - 0x80) < 8


def test_a_qr_code_exports_in_cmyk_with_its_modules_on_black_alone(project, cardgen):
    """A QR code is a primitive of its element type's own: the CMYK export converts it
    (it wrote RGB operators into the CMYK file and failed preflight), black on K alone."""
    import pikepdf
    small_game(project, """
        - {name: code, type: qr, data: "https://example.com/{{ card.id }}", x: 50mm, y: 10mm,
           width: 30mm, height: 30mm}
    """)
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    folder = project / "output/shop/export-jp-print"
    fronts = [p for p in folder.glob("*.pdf") if "front" in p.name]
    assert fronts
    for path in fronts:
        with pikepdf.open(path) as pdf:
            ops = [op for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
            ops += [op for xobj in pdf.pages[0].Resources.get("/XObject", {}).values()
                    for _, op in pikepdf.parse_content_stream(xobj)]
        names = {str(op) for op in ops}
        assert not names & {"rg", "RG"}, path.name
        assert "k" in names, path.name  # the modules: K alone (0 0 0 k ... or c m y k)


def test_a_deck_the_profile_cannot_take_is_left_out_with_a_warning_and_decks_choose(project,
                                                                                    cardgen):
    """Le Dernier Peuple's square tiles have no template in a poker-card service's profile:
    the tiles are a located warning naming the deck and what the profile takes, and its
    card decks are exported (with --strict, nothing is); --decks exports only those named."""
    folder = project / "output/dernier-peuple/export-tgc"
    run = cardgen("export", "dernier-peuple", "--profile", "tgc", "--strict")
    assert run.code == 1 and not folder.exists()
    run = cardgen("export", "dernier-peuple", "--profile", "tgc")
    assert run.code == 0, run.lines
    warned = [line for line in run.lines if ": warning: " in line and "[export]" in line]
    assert len(warned) == 1 and "deck 'tiles'" in warned[0] and "it takes poker" in warned[0] \
        and "left out of the export" in warned[0]
    decks = {row["deck"]
             for row in json.loads((folder / "manifest.json").read_text("utf-8"))["files"]}
    assert decks == {"movement", "powers", "aid"}
    run = cardgen("export", "dernier-peuple", "--profile", "tgc", "--decks", "movement,powers")
    assert run.code == 0 and not [line for line in run.lines if "[export]" in line]
    decks = {row["deck"]
             for row in json.loads((folder / "manifest.json").read_text("utf-8"))["files"]}
    assert decks == {"movement", "powers"}
    run = cardgen("export", "dernier-peuple", "--profile", "tgc", "--decks", "moves")
    assert run.code == 2 and run.lines[-1] == (
        "cardgen: error: --decks: dernier-peuple has no deck 'moves' (decks: tiles, movement, "
        "powers, aid)")


GAMES = ("lastdance", "vampire-band", "dernier-peuple", "odoriko")


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """Every game of cards/ built and exported with jp-print, once for the tests that only
    read the files: {game: its export folder} (the built files beside it, in output/<game>)."""
    import os
    import shutil

    from generator.cli import main
    root = tmp_path_factory.mktemp("exports")
    shutil.copytree(REPO / "cards", root / "cards")
    shutil.copytree(REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(REPO / "fonts")
    here, epoch = os.getcwd(), os.environ.pop("SOURCE_DATE_EPOCH", None)
    os.chdir(root)
    try:
        for game in GAMES:
            assert main(["build", "--stats", game]) == 0
            assert main(["export", game, "--profile", "jp-print"]) == 0
    finally:
        os.chdir(here)
        if epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = epoch
    return {game: root / f"output/{game}/export-jp-print" for game in GAMES}


def test_every_exported_pdf_meets_the_pdfx4_requirements_docs_list(exports):
    """Each PDF of the four games' jp-print exports passes tests/pdfx.py, the PDF/X-4
    requirements docs/printing.md lists (no validator is packaged here)."""
    from pdfx import REQUIREMENTS, problems
    docs = (REPO / "docs/printing.md").read_text("utf-8")
    section = docs.split("### PDF/X-4 checks", 1)[1].split("\n### ", 1)[0]
    assert [line[2:].rstrip(".") for line in section.splitlines()
            if line.startswith("- ") and not line.startswith("- **")][:len(REQUIREMENTS)] == \
        list(REQUIREMENTS)
    checked = 0
    for game, folder in exports.items():
        for path in sorted(folder.glob("*.pdf")):
            assert problems(path) == [], (game, path.name, problems(path))
            checked += 1
    assert checked > 20


def test_font_subsets_are_named_by_their_content_across_an_export(exports):
    """A subset's name (XXXXXX+Font) stands for one font program in every file of every
    export: files with different subsets of a font never share a name, and the same
    subset is the same name."""
    import pikepdf
    programs: dict[str, set] = {}
    names: dict[bytes, set] = {}
    for folder in exports.values():
        for path in folder.glob("*.pdf"):
            with pikepdf.open(path) as pdf:
                for font in pdf.objects:
                    if isinstance(font, pikepdf.Dictionary) and font.get("/Type") == "/Font":
                        program = font.FontDescriptor.FontFile2.read_bytes()
                        name = str(font.BaseFont)
                        assert name == str(font.FontDescriptor.FontName)
                        assert name[1:7] in font.ToUnicode.read_bytes().decode("latin-1")
                        programs.setdefault(name, set()).add(program)
                        names.setdefault(program, set()).add(name)
    assert len(programs) > 20
    assert all(len(p) == 1 for p in programs.values()), \
        [n for n, p in programs.items() if len(p) > 1]
    assert all(len(n) == 1 for n in names.values())


GREYS = ["#222222", "#333333", "#444444", "#555555", "#666666", "#888888", "#aaaaaa", "#cccccc"]


def _painted(pdf):
    """Every painting operator of a PDF's pages and forms with the colours and the
    overprint state it paints with: (operator, fill, stroke, op, OP), read back from the
    content streams and their ExtGStates (forms start in the state of the page that draws
    them, as the file has them: drawn once here, each form where the page draws it)."""
    import pikepdf
    out = []

    def walk(owner, resources, state):
        fill, stroke, op, over = state
        stack = []
        for operands, operator in pikepdf.parse_content_stream(owner):
            name = str(operator)
            if name == "q":
                stack.append((fill, stroke, op, over))
            elif name == "Q":
                fill, stroke, op, over = stack.pop()
            elif name == "k":
                fill = tuple(round(float(v), 4) for v in operands)
            elif name == "K":
                stroke = tuple(round(float(v), 4) for v in operands)
            elif name == "gs":
                graphics = resources.ExtGState[operands[0]]
                op, over = bool(graphics.get("/op", op)), bool(graphics.get("/OP", over))
            elif name == "Do":
                form = resources.XObject[operands[0]]
                if form.get("/Subtype") == "/Form":
                    walk(form, form.get("/Resources", resources), (fill, stroke, op, over))
            elif name in ("Tj", "TJ", "f", "f*", "S", "s", "B", "b"):
                out.append((name, fill, stroke, op, over))
    for page in pdf.pages:
        walk(page, page.Resources, (None, None, False, False))
    return out


def _lightness(transform, pixel, mode="CMYK") -> float:
    from PIL import Image as PILImage
    lab = ImageCms.applyTransform(PILImage.new(mode, (1, 1), pixel), transform)
    return lab.getpixel((0, 0))[0] / 255 * 100


def test_greys_black_and_overprint_in_a_cmyk_export(project, cardgen):
    """Grey text is K alone at the lightness the ICC conversion gives it (within 2 L*, as
    littleCMS measures it here, apart from the code under test); black text and lines are
    K100 and overprint; a small black fill is K100, a large one the profile's rich black;
    what paints in colour knocks out."""
    import io

    import pikepdf
    texts = "".join(
        f'        - {{name: t{n}, type: text, text: "灰色 grey", x: 5mm, y: {3 + 5 * n}mm,'
        f' width: 40mm, height: 5mm, size: 9pt, color: "{grey}"}}\n'
        for n, grey in enumerate(GREYS))
    small_game(project, "\n" + texts + """
        - {name: big, type: rect, x: 50mm, y: 5mm, width: 30mm, height: 20mm, fill: "#000000"}
        - {name: small, type: rect, x: 50mm, y: 30mm, width: 5mm, height: 5mm, fill: "#000000"}
        - {name: frame, type: rect, x: 50mm, y: 40mm, width: 30mm, height: 10mm, stroke: "#000000",
           stroke_width: 0.5pt}
        - {name: black, type: text, text: "黒 black", x: 5mm, y: 45mm, width: 40mm, height: 5mm,
           size: 9pt, color: "#000000"}
        - {name: red, type: text, text: "赤 red", x: 58mm, y: 30mm, width: 30mm, height: 5mm,
           size: 9pt, color: "#d0201b"}
    """, copies=1)
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    icc = (project / "layouts/exports/icc/cardgen-FOGRA39.icc").read_bytes()
    printer = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), printer, "RGB", "CMYK",
                                      renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                      flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    to_lab = ImageCms.buildTransform(printer, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    front = next(p for p in (project / "output/shop/export-jp-print").glob("*front*.pdf"))
    with pikepdf.open(front) as pdf:
        painted = _painted(pdf)
    texts = [p for p in painted if p[0] in ("Tj", "TJ")]
    greys = texts[:len(GREYS)]
    k100 = _lightness(to_lab, (0, 0, 0, 255))
    for grey, (_, fill, _, op, _) in zip(GREYS, greys):
        c, m, y, k = fill
        assert c == m == y == 0, (grey, fill)  # K alone
        value = int(grey[1:3], 16)
        converted = ImageCms.applyTransform(
            __import__("PIL.Image", fromlist=["Image"]).new("RGB", (1, 1), (value,) * 3),
            to_cmyk).getpixel((0, 0))
        designed = _lightness(to_lab, converted)
        printed = _lightness(to_lab, (0, 0, 0, round(k * 255)))
        if designed < k100:  # darker than K alone can print: K100
            assert k == 1.0, (grey, fill)
        else:
            assert abs(printed - designed) <= 2, (grey, k, printed, designed)
        assert op is (k == 1.0), (grey, fill, op)  # only solid K overprints
    black, red = texts[len(GREYS)], texts[len(GREYS) + 1]
    assert black[1] == (0, 0, 0, 1) and black[3] is True
    assert red[1] != (0, 0, 0, 1) and red[3] is False
    fills = [p for p in painted if p[0] in ("f", "f*")]
    assert any(p[1] == (0.6, 0.4, 0.4, 1.0) and p[3] is False for p in fills)  # the big one
    assert any(p[1] == (0, 0, 0, 1) and p[3] is True for p in fills)  # the small one
    strokes = [p for p in painted if p[0] in ("S", "s") and p[2] == (0, 0, 0, 1)]
    assert strokes and all(p[4] is True for p in strokes)  # black lines overprint


def test_overprint_none_knocks_out_and_ink_over_the_limit_is_a_located_warning(project, cardgen):
    """`overprint: none` in a profile sets no overprint; a colour or a picture that prints
    with more ink than the profile's max_ink is a warning at its element, measured on what
    the export converts (a near-black blue through the ICC profile; a black picture)."""
    import pikepdf
    from PIL import Image as PILImage
    profile = (project / "layouts/exports/jp-print.yaml").read_text("utf-8")
    (project / "layouts/exports/shop-knockout.yaml").write_text(
        profile.replace("overprint: black", "overprint: none").replace("max_ink: 300",
                                                                        "max_ink: 250"), "utf-8")
    game = small_game(project, """
        - {name: deep, type: rect, x: 5mm, y: 5mm, width: 30mm, height: 20mm, fill: "#000018"}
        - {name: art, type: image, src: "dark.png", x: 40mm, y: 5mm, width: 20mm, height: 20mm}
        - {name: black, type: text, text: "黒", x: 5mm, y: 40mm, width: 20mm, height: 6mm,
           size: 9pt, color: "#000000"}
    """, copies=1)
    PILImage.new("RGB", (300, 300), (0, 0, 0)).save(game / "dark.png")
    run = cardgen("export", "shop", "--profile", "shop-knockout")
    assert run.code == 0, run.lines
    warned = [line for line in run.lines if "[ink]" in line]
    layout = (project / "layouts/shop-front.yaml").read_text("utf-8").splitlines()
    deep = next(n for n, text in enumerate(layout, 1) if "name: deep" in text)
    assert any("element 'deep'" in w and "more than export profile 'shop-knockout' takes "
               "(250 %)" in w and w.startswith(f"layouts/shop-front.yaml:{deep}:")
               for w in warned), warned
    assert any("element 'art'" in w and "its picture" in w for w in warned), warned
    assert not any("element 'black'" in w for w in warned)
    front = next(p for p in (project / "output/shop/export-jp-print").parent.glob(
        "export-shop-knockout/*front*.pdf"))
    with pikepdf.open(front) as pdf:
        assert not any(p[3] or p[4] for p in _painted(pdf))
    # jp-print (300 %) takes the picture's 300-odd % no more than the blue's: both warned
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert any("element 'art'" in w for w in run.lines if "[ink]" in w)


def test_a_rich_black_over_the_ink_limit_or_in_rgb_is_an_error_at_it(project, cardgen):
    profile = (project / "layouts/exports/jp-print.yaml").read_text("utf-8")
    (project / "layouts/exports/heavy.yaml").write_text(
        profile.replace("rich_black: cmyk(60%, 40%, 40%, 100%)",
                        "rich_black: cmyk(100%, 100%, 100%, 100%)"), "utf-8")
    (project / "layouts/exports/rgb-black.yaml").write_text(
        profile.replace("rich_black: cmyk(60%, 40%, 40%, 100%)", 'rich_black: "#000000"'),
        "utf-8")
    line = next(n for n, text in enumerate(profile.splitlines(), 1)
                if text.startswith("rich_black"))
    run = cardgen("export", "lastdance", "--profile", "heavy")
    assert run.code != 0
    assert f"layouts/exports/heavy.yaml:{line}:13: error: export profile 'heavy': rich_black " \
           "cmyk(100%, 100%, 100%, 100%) is 400 % of ink, more than the profile's max_ink of " \
           "300 % [export]" in run.lines, run.lines
    run = cardgen("export", "lastdance", "--profile", "rgb-black")
    assert any(f"layouts/exports/rgb-black.yaml:{line}:13: error: export profile 'rgb-black': "
               "rich_black must be written as cmyk(c, m, y, k)" in x for x in run.lines), run.lines


def test_the_warning_and_the_manifest_say_the_same_resolution(project, cardgen):
    """150 pixels over 19.95 mm is 190.98 dpi: the warning and the manifest (read back from
    the PDF) both say 190, never more than the picture has."""
    game = small_game(project, """
        - {name: art, type: image, src: art.png, x: 10mm, y: 10mm, width: 19.95mm,
           height: 19.95mm}
    """, copies=1)
    Image.new("RGB", (150, 150), (10, 120, 60)).save(game / "art.png")
    run = cardgen("export", "shop", "--profile", "jp-print")
    low = [line for line in run.lines if "[image-resolution]" in line]
    assert len(low) == 1 and "prints at 190 dpi" in low[0], run.lines
    manifest = json.loads(
        (project / "output/shop/export-jp-print/manifest.json").read_text("utf-8"))
    assert {n for f in manifest["files"] for n in f.get("image_dpi", [])} == {190}


def test_a_profile_that_takes_boards_exports_each_board_at_its_size_with_the_bleed(exports):
    """jp-print takes boards (boards: true): Le Dernier Peuple's three boards are files of
    their own, the TrimBox the board's size, the BleedBox 3 mm around it, in CMYK (the
    PDF/X checks cover them with the rest), and the manifest lists them."""
    import pikepdf
    folder = exports["dernier-peuple"]
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    boards = [f for f in manifest["files"] if f["side"] == "board"]
    assert [b["file"] for b in boards] == ["board-3p.pdf", "board-4p.pdf", "board-5p.pdf"]
    for row in boards:
        with pikepdf.open(folder / row["file"]) as pdf:
            trim = [float(v) for v in pdf.pages[0].TrimBox]
            bleed = [float(v) for v in pdf.pages[0].BleedBox]
        w, h = (float(v) for v in row["size"].removesuffix(" mm").split(" x "))
        assert abs((trim[2] - trim[0]) / MM - w) < 0.01 and abs((trim[3] - trim[1]) / MM - h) < 0.01
        assert all(abs(abs(b - t) / MM - 3) < 0.01 for b, t in zip(bleed, trim))
    assert not any(f["side"] == "board" for f in json.loads(
        (exports["lastdance"] / "manifest.json").read_text("utf-8"))["files"])


def test_a_picture_profile_cannot_take_the_rulebook(project, cardgen):
    """(It takes boards: each a picture of the board's own size, tests/test_map.py.)"""
    tgc = project / "layouts/exports/tgc.yaml"
    tgc.write_text(tgc.read_text("utf-8") + "rulebook: single-pages\n", "utf-8")
    run = cardgen("export", "dernier-peuple", "--profile", "tgc")
    assert run.code != 0
    assert any(line.startswith("layouts/exports/tgc.yaml:") and
               "take no rulebook: remove rulebook:" in line for line in run.lines), run.lines


def test_a_profile_that_takes_the_rulebook_exports_it_as_single_pages_for_the_shop(
        exports, project, cardgen):
    """jp-print takes the rulebook (rulebook: single-pages): the built rulebook's pages in
    reading order, each trimmed to its page size with 3 mm of bleed and trim marks around
    it, padded with blank pages to a multiple of 4 (said in the manifest), in CMYK, its
    body text on the black plate alone."""
    import collections

    import pikepdf
    import pypdf
    for game in GAMES:
        folder = exports[game]
        built = len(pypdf.PdfReader(str(folder.parent / f"{game}-rulebook.pdf")).pages)
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        book = manifest["rulebook"]
        assert book["file"] == "rulebook.pdf" and book["pages"] % 4 == 0
        assert book["pages"] - book["blank_pages_added"] == built and book["blank_pages_added"] < 4
        with pikepdf.open(folder / "rulebook.pdf") as pdf:
            assert len(pdf.pages) == book["pages"]
            w, h = book["page_size_mm"]
            for page in pdf.pages:
                trim = [float(v) for v in page.TrimBox]
                bleed = [float(v) for v in page.BleedBox]
                assert abs((trim[2] - trim[0]) / MM - w) < 0.1
                assert abs((trim[3] - trim[1]) / MM - h) < 0.1
                assert all(abs(abs(b - t) / MM - 3) < 0.01 for b, t in zip(bleed, trim))
            texts = collections.Counter(p[1] for p in _painted(pdf) if p[0] in ("Tj", "TJ"))
        body, _ = texts.most_common(1)[0]
        assert body == (0, 0, 0, 1), (game, texts.most_common(3))  # K100, and it overprints
    tgc = project / "layouts/exports/tgc.yaml"
    tgc.write_text(tgc.read_text("utf-8") + "rulebook: single-pages\n", "utf-8")
    run = cardgen("export", "lastdance", "--profile", "tgc")
    assert run.code != 0 and any("take no rulebook: remove rulebook:" in x for x in run.lines)


def test_every_colour_and_picture_of_the_four_games_exports_within_the_ink_limit(exports):
    """Every CMYK colour any page or form of the four games' jp-print files paints with,
    and every CMYK picture (at its darkest area), is within the profile's 300 % of total
    ink; the registration colour of the trim marks (C100 M100 Y100 K100, outside the
    bleed, so that every plate can be trimmed) is the one exception."""
    import pikepdf
    limit = 300
    for game, folder in exports.items():
        for path in sorted(folder.glob("*.pdf")):
            with pikepdf.open(path) as pdf:
                for _, fill, stroke, _, _ in _painted(pdf):
                    for color in (fill, stroke):
                        if color and len(color) == 4 and color != (1, 1, 1, 1):
                            assert sum(color) * 100 <= limit + 0.5, (game, path.name, color)
                for obj in pdf.objects:
                    if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" \
                            and obj.get("/ColorSpace") == "/DeviceCMYK":
                        picture = pikepdf.PdfImage(obj).as_pil_image()
                        picture = picture.reduce(max(1, max(picture.size) // 256))
                        darkest = max(sum(picture.getpixel((x, y))) for x in range(picture.width)
                                      for y in range(picture.height))
                        assert darkest / 255 * 100 <= limit + 0.5, (game, path.name)


def test_boards_and_the_rulebook_over_the_ink_limit_are_located_warnings(project, cardgen):
    """The ink check covers everything a profile takes: a board over max_ink is a warning at
    its entry in game.yaml, the rulebook at its template in game.yaml (measured on the colours
    and pictures as the export converts them), and --strict stops the export on them."""
    profile = project / "layouts/exports/jp-print.yaml"
    profile.write_text(profile.read_text("utf-8").replace("max_ink: 300", "max_ink: 120")
                       .replace("cmyk(60%, 40%, 40%, 100%)", "cmyk(0%, 0%, 0%, 100%)"), "utf-8")
    game = (project / "cards/dernier-peuple/game.yaml").read_text("utf-8").splitlines()
    boards = [n for n, text in enumerate(game, 1) if text.lstrip().startswith("- {id: ")
              and n > next(k for k, t in enumerate(game, 1) if t.startswith("boards:"))][:3]
    book = next(n for n, text in enumerate(game, 1) if text.startswith("  template: "))
    run = cardgen("export", "dernier-peuple", "--profile", "jp-print")
    assert run.code == 0, run.lines
    warned = [line for line in run.lines if line.endswith("[ink]")]
    for n, board in zip(boards, ("3p", "4p", "5p")):
        assert any(w.startswith(f"cards/dernier-peuple/game.yaml:{n}:") and
                   f"board '{board}' prints with " in w and "(120 %)" in w for w in warned), warned
    assert any(w.startswith(f"cards/dernier-peuple/game.yaml:{book}:") and
               "the rulebook prints with " in w for w in warned), run.lines
    strict = cardgen("export", "dernier-peuple", "--profile", "jp-print", "--strict")
    assert strict.code != 0


def test_copies_tbd_count_once_and_the_manifest_says_so(project, cardgen):
    """A card whose copies are TBD prints once, as build prints a draft once; the manifest
    gave that 1 as a count decided, without a word: it names the card under copies_tbd."""
    import csv
    game = small_game(project, """
        - {name: background, type: rect, fill: "#204080"}
    """)
    (game / "cards.yaml").write_text("cards:\n  - {id: c1, name: カード1, copies: TBD}\n"
                                     "  - {id: c2, name: カード2, copies: 2}\n", "utf-8")
    run = cardgen("export", "shop", "--profile", "jp-print")
    assert run.code == 0, run.lines
    assert "cards/shop/cards.yaml:2:34: warning: card 'c1': copies is TBD (draft) [draft]" \
        in run.lines, run.lines
    folder = project / "output/shop/export-jp-print"
    rows = {r["file"]: (r["copies"], r["copies_tbd"])
            for r in csv.DictReader((folder / "manifest.csv").open(encoding="utf-8"))}
    assert rows == {"cards-c1-front.pdf": ("1", "c1"), "cards-c2-front.pdf": ("2", ""),
                    "cards-back.pdf": ("3", "c1")}, rows
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert manifest["copies_tbd"] == {"cards": ["c1"]}
    assert {f["file"]: f["copies_tbd"] for f in manifest["files"]} == {
        "cards-c1-front.pdf": ["c1"], "cards-c2-front.pdf": [], "cards-back.pdf": ["c1"]}
    (game / "cards.yaml").write_text("cards:\n  - {id: c1, name: カード1, copies: 1}\n", "utf-8")
    assert cardgen("export", "shop", "--profile", "jp-print").code == 0
    assert "copies_tbd" not in (folder / "manifest.csv").read_text("utf-8")  # none: as before
    assert "copies_tbd" not in json.loads((folder / "manifest.json").read_text("utf-8"))
