"""Print sheets read back from rasterised pages: slot positions of every preset, backs that
land on their fronts after the duplex flip (both flips, with and without a printer
offset), crop marks, back groups, the print guide, --start-slot, --cards-pdf, calibration.
"""

from __future__ import annotations

import textwrap

import pytest
from PIL import Image as PILImage
from PIL import ImageOps

from pdfcheck import Raster, page_size_mm, reader

# preset: (paper mm, card mm, columns, rows, left, top, gap x, gap y), from the numbers
PRESETS = {
    "a-one-51002": ((210, 297), (91, 55), 2, 5, 14, 11, 0, 0),
    "avery-5371": ((215.9, 279.4), (88.9, 50.8), 2, 5, 19.05, 12.7, 0, 0),
    "avery-c32011": ((210, 297), (85, 54), 2, 5, 15, 13.5, 10, 0),
    "a4-poker-9up": ((210, 297), (63, 88), 3, 3, 10.5, 16.5, 0, 0),
    "letter-poker-9up": ((215.9, 279.4), (63, 88), 3, 3, 13.45, 7.7, 0, 0),
}
INSET = 1.0  # the test layout's black rectangle sits 1 mm inside the card


def expected_slots(preset: str) -> list[tuple[float, float, float, float]]:
    (pw, ph), (w, h), cols, rows, left, top, gx, gy = PRESETS[preset]
    return [(left + c * (w + gx), top + r * (h + gy), left + c * (w + gx) + w,
             top + r * (h + gy) + h)
            for r in range(rows) for c in range(cols)]


def make_deck(project, preset: str, cards: int, sheet: str | None = None, extra: str = "",
              back_fill: str = "black") -> None:
    w, h = PRESETS[preset][1] if preset in PRESETS else (63, 88)
    for side, fill in (("front", "black"), ("back", back_fill)):
        (project / f"layouts/t-{side}.yaml").write_text(textwrap.dedent(f"""
            size: [{w}mm, {h}mm]
            bleed: 0mm
            elements:
              - {{name: mark, type: rect, x: {INSET}mm, y: {INSET}mm, width: 100% - {2 * INSET}mm,
                  height: 100% - {2 * INSET}mm, fill: "{fill}"}}
        """), "utf-8")
    game = project / "cards/sheet"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        f"title: 用紙\ndecks:\n  - id: main\n    cards: cards.yaml\n    sheet: {sheet or preset}\n"
        f"    front: t-front\n    back: t-back\n{extra}", "utf-8")
    (game / "cards.yaml").write_text(
        "cards:\n" + "".join(f"  - {{id: c{i}, side: s{i % 2}}}\n" for i in range(cards)), "utf-8")


def boxes(image, px_per_mm: float) -> list[tuple[float, float, float, float]]:
    """Card rectangles on a page: dark runs of the column and row darkness profiles (thin
    crop marks stay below the threshold), kept where the centre is dark."""
    dark = image.convert("L").point(lambda v: 255 if v < 128 else 0)
    box = PILImage.Resampling.BOX  # each column (row) becomes its average darkness
    cols = list(dark.resize((dark.width, 1), box).tobytes())
    rows = list(dark.resize((1, dark.height), box).tobytes())

    def runs(profile):
        found, start = [], None
        for i, v in enumerate(profile + [0]):
            if v > 40 and start is None:
                start = i
            elif v <= 40 and start is not None:
                found.append((start / px_per_mm, i / px_per_mm))
                start = None
        return found

    pixels = dark.load()
    result = []
    for y0, y1 in runs(rows):
        for x0, x1 in runs(cols):
            cx, cy = int((x0 + x1) / 2 * px_per_mm), int((y0 + y1) / 2 * px_per_mm)
            if pixels[cx, cy]:
                result.append((x0 - INSET, y0 - INSET, x1 + INSET, y1 + INSET))
    return result


def page_boxes(pdf, index: int, flip: str | None = None, dpi: int = 150):
    raster = Raster(pdf, index, dpi)
    image = raster.image
    if flip == "long-edge":
        image = ImageOps.mirror(image)
    elif flip == "short-edge":
        image = ImageOps.flip(image)
    return boxes(image, raster.px_per_mm)


def centre(box):
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_slots_sit_where_the_preset_says(project, cardgen, preset):
    (pw, ph), _, cols, rows, *_ = PRESETS[preset]
    make_deck(project, preset, cols * rows)
    assert cardgen("build", "sheet").code == 0
    pdf = project / "output/sheet/sheet-fronts.pdf"
    w, h = page_size_mm(reader(pdf).pages[0])
    assert abs(w - pw) < 0.1 and abs(h - ph) < 0.1
    found = sorted(page_boxes(pdf, 0), key=lambda b: (round(b[1]), b[0]))
    expected = expected_slots(preset)
    assert len(found) == len(expected)
    for got, want in zip(found, expected):
        assert all(abs(g - e) < 0.3 for g, e in zip(got, want)), (preset, got, want)


@pytest.mark.parametrize("preset", sorted(PRESETS) + ["plain-a4"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("offset", [None, (1.0, 0.5)])
def test_backs_land_on_their_fronts_after_the_flip(project, cardgen, preset, duplex, offset):
    sheet = f"{{preset: {preset}, duplex: {duplex}}}"
    per_sheet = PRESETS[preset][2] * PRESETS[preset][3] if preset in PRESETS else 9
    # One card short of a full sheet, with duplex backs: an asymmetric page shows any mirror error.
    make_deck(project, preset, per_sheet - 1, sheet, "    backs: duplex\n")
    args = ["build", "sheet"]
    if offset:
        (project / "layouts/printers.yaml").write_text(
            f"printers:\n  test: {{offset: [{offset[0]}mm, {offset[1]}mm]}}\n", "utf-8")
        args += ["--printer", "test"]
    run = cardgen(*args)
    assert run.code == 0, run.lines
    out = project / "output/sheet"
    fronts = [centre(b) for b in page_boxes(out / "sheet-fronts.pdf", 0)]
    backs = [centre(b) for b in page_boxes(out / "sheet-backs.pdf", 0, flip=duplex)]
    assert len(fronts) == len(backs) == per_sheet - 1
    dx, dy = offset or (0.0, 0.0)
    # The offset moves the back page's content right and down as the back is seen; after the
    # flip, long-edge turns its x around, short-edge its y.
    shift = (-dx, dy) if duplex == "long-edge" else (dx, -dy)
    for fx, fy in fronts:
        nearest = min(backs,
                      key=lambda b: (b[0] - fx - shift[0]) ** 2 + (b[1] - fy - shift[1]) ** 2)
        assert abs(nearest[0] - fx - shift[0]) < 0.3 and abs(nearest[1] - fy - shift[1]) < 0.3, \
            (fx, fy, nearest)
    prefs = reader(out / "sheet-backs.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == ("/DuplexFlipLongEdge"
                                if duplex == "long-edge" else "/DuplexFlipShortEdge")


def test_crop_marks_on_plain_paper_only(project, cardgen):
    make_deck(project, "a4-poker-9up", 9)
    assert cardgen("build", "sheet").code == 0
    raster = Raster(project / "output/sheet/sheet-fronts.pdf", 0)
    left, top, right, bottom = raster.ink_bbox_mm()
    # Marks start 2 mm outside the grid and are 3.5 mm long: 5 mm free at the sides.
    assert abs(left - (10.5 - 5.5)) < 0.3 and abs(top - (16.5 - 5.5)) < 0.3
    assert abs(right - (210 - 10.5 + 5.5)) < 0.3 and abs(bottom - (297 - 16.5 + 5.5)) < 0.3
    # A vertical mark above the grid at every card edge x (10.5, 73.5, 136.5, 199.5 mm).
    for x in (10.5, 73.5, 136.5, 199.5):
        assert not raster.is_white(x, 16.5 - 4) or not raster.is_white(x + 0.1, 16.5 - 4), x
    make_deck(project, "a-one-51002", 10)  # pre-cut stock: no marks, ink is the grid
    assert cardgen("build", "sheet").code == 0
    left, top, right, bottom = Raster(project / "output/sheet/sheet-fronts.pdf", 0).ink_bbox_mm()
    assert abs(left - (14 + INSET)) < 0.3 and abs(top - (11 + INSET)) < 0.3


def test_crop_marks_only_where_cards_are(project, cardgen):
    """A sheet with one row of cards (an errata set, the last sheet of a deck) has cut marks
    for that row and its columns, not for the empty rows below it."""
    # two cards, each back behind its front (no blank fillers to cut): the first row's first
    # two columns
    make_deck(project, "a4-poker-9up", 2, extra="    backs: duplex\n")
    assert cardgen("build", "sheet").code == 0
    raster = Raster(project / "output/sheet/sheet-fronts.pdf", 0)
    left, top, right, bottom = raster.ink_bbox_mm()
    assert abs(left - (10.5 - 5.5)) < 0.3 and abs(top - (16.5 - 5.5)) < 0.3
    assert abs(right - (136.5 + 5.5)) < 0.3  # the second column's right edge, and its marks
    assert abs(bottom - (16.5 + 88 + 5.5)) < 0.3  # the first row's bottom edge, and its marks
    # no mark at the grid's foot (297 - 16.5 mm) or beside the third column (199.5 mm)
    assert raster.is_white(73.5, 297 - 16.5 + 4) and raster.is_white(199.5, 16.5 - 4)


def test_plain_paper_fits_any_card_centred(project, cardgen):
    make_deck(project, "a4-poker-9up", 9, sheet="{preset: plain-a3, gap: [3mm, 3mm]}")
    assert cardgen("build", "sheet").code == 0
    pdf = project / "output/sheet/sheet-fronts.pdf"
    w, h = page_size_mm(reader(pdf).pages[0])
    assert abs(w - 297) < 0.1 and abs(h - 420) < 0.1
    found = page_boxes(pdf, 0)
    # A3 with 6 mm kept free at each edge fits 4 x 4 upright poker cards with 3 mm gaps, and
    # 3 x 6 turned a quarter: the slots are turned (18 a sheet); 9 cards given.
    assert len(found) == 9
    grid_w = 3 * 88 + 2 * 3
    assert abs(min(b[0] for b in found) - (297 - grid_w) / 2) < 0.3
    assert all(abs((b[2] - b[0]) - 88) < 0.3 and abs((b[3] - b[1]) - 63) < 0.3 for b in found)


def test_mixed_backs_put_one_back_design_on_each_sheet(project, cardgen):
    # 13 cards alternating two back designs (grey and black): 7 of s0, 6 of s1.
    make_deck(project, "a-one-51002", 13,
              back_fill="{{ 'gray' if card.side == 's0' else 'black' }}")
    run = cardgen("build", "sheet")
    assert run.code == 0, run.lines
    out = project / "output/sheet"
    assert len(reader(out / "sheet-fronts.pdf").pages) == 2
    for name in ("sheet-backs-main-1.pdf", "sheet-backs-main-2.pdf"):
        assert len(reader(out / name).pages) == 1
    # Each back page carries one design on all ten slots (fillers included).
    for page, gray in ((0, True), (1, False)):
        raster = Raster(out / "sheet-backs.pdf", page, dpi=50)
        colours = {raster.at(*centre(slot)) for slot in expected_slots("a-one-51002")}
        assert len(colours) == 1 and (min(colours.pop()) > 60) == gray
    guide = (out / "sheet-print-guide.txt").read_text("utf-8")
    assert "sheet-backs-main-1.pdf: print 1 time, on the reverse of fronts page 1 (7 cards" in guide
    assert "sheet-backs-main-2.pdf: print 1 time, on the reverse of fronts page 2 (6 cards" in guide
    assert "7 empty slots, printed blank (set them aside)" in guide


def test_start_slot_skips_used_slots(project, cardgen):
    make_deck(project, "a-one-51002", 3, extra="    backs: duplex\n")
    assert cardgen("build", "--start-slot", "4", "sheet").code == 0
    found = sorted(page_boxes(project / "output/sheet/sheet-fronts.pdf", 0),
                   key=lambda b: (b[1], b[0]))
    slots = expected_slots("a-one-51002")
    assert [tuple(round(v) for v in b) for b in found] == [tuple(round(v) for v in s)
                                                           for s in slots[3:6]]
    run = cardgen("build", "--start-slot", "11", "sheet")
    assert run.code == 2 and "has slots 1 to 10" in run.err


def test_cards_pdf_has_one_face_per_page_with_bleed(project, cardgen):
    assert cardgen("build", "--cards-pdf", "lastdance").code == 0
    pdf = reader(project / "output/lastdance/lastdance-cards.pdf")
    assert len(pdf.pages) == 2 * 36
    for page in pdf.pages[:4]:
        w, h = page_size_mm(page)
        assert abs(w - (91 + 6)) < 0.1 and abs(h - (55 + 6)) < 0.1  # 3 mm bleed on each side
        trim = [float(v) * 25.4 / 72 for v in page["/TrimBox"]]
        assert all(abs(a - b) < 0.1 for a, b in zip(trim, (3, 3, 94, 58)))
    assert "姫" in pdf.pages[0].extract_text()
    assert "ラストダンスは私に" in pdf.pages[1].extract_text()  # the Princess's back


def test_calibration_sheet(project, cardgen):
    run = cardgen("calibrate", "--paper", "A4")
    assert run.code == 0
    pdf = project / "output/calibration-a4-long-edge.pdf"
    assert len(reader(pdf).pages) == 2
    front = Raster(pdf, 0, dpi=200)
    r, g, b = front.at(105, 148.5 + 5)  # on the red cross's vertical arm
    assert r > 150 and r - g > 60  # a hairline: anti-aliased towards pink
    assert "calibration" in reader(pdf).pages[1].extract_text()


def test_calibration_paper_is_named_in_any_case(project, cardgen):
    run = cardgen("calibrate", "--paper", "letter")
    assert run.code == 0, run.lines
    pdf = project / "output/calibration-letter-long-edge.pdf"
    w, h = page_size_mm(reader(pdf).pages[0])
    assert abs(w - 215.9) < 0.1 and abs(h - 279.4) < 0.1
    run = cardgen("calibrate", "--paper", "quarto")
    assert run.code == 2
    assert "unknown paper 'quarto': a paper (A1, A2, A3, A4, A5, B4, B5, B6, Letter, Half-letter" \
        in run.err


def test_list_counts_in_words(project, cardgen):
    folder = project / "cards/one"
    folder.mkdir()
    (folder / "game.yaml").write_text("title: One\ndecks:\n  - id: main\n    cards: cards.yaml\n")
    (folder / "cards.yaml").write_text("cards:\n  - {id: a}\n")
    run = cardgen("list")
    assert "  main: main: 1 card type, 1 card, sheet a-one-51002" in run.out.splitlines()
    assert any(": 15 card types, " in line for line in run.out.splitlines())


def test_unknown_printer_is_a_usage_error(project, cardgen):
    run = cardgen("build", "--printer", "nope", "lastdance")
    assert run.code == 2 and "unknown printer 'nope' (printers: example)" in run.err


def test_messages_give_lengths_in_inches_where_the_layout_and_sheet_are_written_in_inches(
        project, cardgen):
    folder = project / "cards/inch"
    folder.mkdir()
    (folder / "game.yaml").write_text("title: Inch\ndecks:\n  - id: main\n    cards: cards.yaml\n"
                                      "    front: inch-front\n    back: inch-front\n"
                                      "    sheet: inch-sheet\n")
    (folder / "cards.yaml").write_text(
        'cards:\n'
        '  - {id: a, text: "A rather long text that will never fit into so small a box."}\n')
    (project / "layouts/inch-front.yaml").write_text(
        "size: [2.5in, 3.5in]\nelements:\n  - {name: body, type: text, text: '{{ card.text }}', "
        "x: 0.25in, y: 0.5in, width: 1in, height: 0.2in, size: 9pt}\n")
    (project / "layouts/sheets/inch-sheet.yaml").write_text(
        "name: Inch sheet\npaper: Letter\nstock: plain\ncard: [2.5in, 3.5in]\n"
        "grid: {columns: 4, rows: 3}\nmargins: {left: 0.5in, right: 0.75in, top: 0.25in, "
        "bottom: 0.25in}\nduplex: long-edge\n")
    run = cardgen("validate", "inch")
    errors = [line for line in run.lines if ": error: " in line]
    assert errors == [
        "cards/inch/cards.yaml:2:19: error: card 'a': text (element 'body') does not fit the "
        "1.00 x 0.20 in box: it needs 0.88 in of height at 9 pt (fit: shrink with a min_size "
        "lets it shrink) [fit]",
        "layouts/sheets/inch-sheet.yaml:5:7: error: sheet preset 'inch-sheet': 4 cards and "
        "margins need 10.50 in of paper width, but the paper is 8.50 in [sheet]",
    ]
    # The same in millimetres stays in millimetres; the print guide gives both.
    (project / "layouts/sheets/inch-sheet.yaml").write_text(
        "name: Inch sheet\npaper: Letter\nstock: plain\ncard: [2.5in, 3.5in]\n"
        "grid: {columns: 3, rows: 3}\nmargins: {left: 0.5in, right: 0.5in, top: 0.25in, "
        "bottom: 0.25in}\nduplex: long-edge\n"
        "crop_marks: {length: 0.06in, offset: 0.04in}\nunprintable: 0.15in\n")
    (project / "layouts/inch-front.yaml").write_text(
        "size: [2.5in, 3.5in]\nelements:\n  - {name: body, type: text, text: '{{ card.text }}', "
        "x: 0.25in, y: 0.5in, width: 2in, height: 2in, size: 9pt}\n")
    assert cardgen("build", "inch").code == 0
    guide = (project / "output/inch/inch-print-guide.txt").read_text()
    assert "3 x 3 cards of 2.5 x 3.5 in (63.5 x 88.9 mm) per sheet." in guide
    assert guide.endswith("\n")
    guide = (project / "output/lastdance/lastdance-print-guide.txt")
    assert cardgen("build", "lastdance").code == 0
    assert "cards of 91 x 55 mm (3.583 x 2.165 in) per sheet." in guide.read_text()


TARGETS = """\
targets:
  home:
    description: business cards on Avery 5371, printed at home
    size: us-business
    sheet: avery-5371
  pod:
    description: poker cards for a print-on-demand proof
    size: poker
    sheet: letter-poker-9up
"""


def test_a_game_printed_two_ways_writes_each_target(project, cardgen):
    assert cardgen("new", "two", "--size", "poker", "--paper", "letter").code == 0
    game = project / "cards/two/game.yaml"
    game.write_text(game.read_text() + TARGETS)
    run = cardgen("build", "two")
    assert run.code == 0, run.lines
    out = project / "output/two"
    home, pod = reader(out / "two-home-fronts.pdf"), reader(out / "two-pod-fronts.pdf")
    assert [round(float(v) / 72, 2) for v in home.pages[0].mediabox[2:]] == [8.5, 11.0]
    # Avery 5371: two columns of 3.5 x 2 in from 0.75 in, and the business cards fill them ...
    raster = Raster(out / "two-home-fronts.pdf", 0, dpi=100)
    assert raster.is_white(19.05 - 1, 12.7 + 2) and not raster.is_white(19.05 + 1, 12.7 + 2)
    assert not raster.is_white(19.05 + 2 * 88.9 - 1, 12.7 + 2)
    assert raster.is_white(19.05 + 2 * 88.9 + 1, 12.7 + 2)
    # ... while the same layouts print 63 x 88 mm poker cards for the other target.
    assert "Scout" in pod.pages[0].extract_text() and "Scout" in home.pages[0].extract_text()
    assert "3 x 3 cards of 63 x 88 mm" in (out / "two-pod-print-guide.txt").read_text()
    assert "2 x 5 cards of 3.5 x 2 in" in (out / "two-home-print-guide.txt").read_text()
    assert (out / "two-rulebook.pdf").exists()  # once, with the first target
    assert not (out / "two-fronts.pdf").exists()
    # One target at a time, and a target that does not exist.
    (out / "two-pod-fronts.pdf").unlink()
    assert cardgen("build", "--target", "pod", "two").code == 0
    assert (out / "two-pod-fronts.pdf").exists()
    run = cardgen("build", "--target", "shop", "two")
    assert run.code == 2 and "game 'two' has no target 'shop' (targets: home, pod)" in run.err


def test_a_problem_of_one_target_names_it_and_a_single_target_keeps_the_games_names(
        project, cardgen):
    assert cardgen("new", "two", "--size", "poker", "--paper", "letter").code == 0
    game = project / "cards/two/game.yaml"
    game.write_text(game.read_text() + TARGETS.replace("size: poker", "size: [40mm, 40mm]"))
    run = cardgen("validate", "two")
    assert run.code == 1
    errors = [line for line in run.lines if ": error: " in line]
    assert errors and all("target 'pod': " in line for line in errors), run.lines
    assert any("[draft]" in line and "target '" not in line for line in run.lines)  # said once
    game.write_text(game.read_text().split("targets:")[0] + "targets:\n  home:\n"
                    "    size: us-business\n    sheet: avery-5371\n")
    assert cardgen("build", "two").code == 0
    assert (project / "output/two/two-fronts.pdf").exists()


@pytest.mark.parametrize("even_odd", [True, False])
def test_a_placed_form_writes_what_reportlabs_own_calls_write(even_odd):
    """write/pdf.py writes an upright form's placement in one go; reportlab's own calls
    (saveState, a clipping path, translate, doForm, restoreState) must give the same
    operators, and leave the canvas's drawing state as it was."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.write.pdf import _place_form

    def canvas():
        c = Canvas(io.BytesIO())
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c._fillMode = 0 if even_odd else 1
        return c

    clip, x, y = (10.5, 20.25, 180.123456, 250.0), 12.75, 22.5
    theirs = canvas()
    theirs.saveState()
    path = theirs.beginPath()
    path.rect(*clip)
    theirs.clipPath(path, stroke=0, fill=0)
    theirs.translate(x, y)
    theirs.doForm("face0")
    theirs.restoreState()
    ours = canvas()
    state = {name: ours.__dict__[name] for name in ours.STATE_ATTRIBUTES if name != "_extgstate"}
    _place_form(ours, clip, x, y, "face0")
    assert ours._code == theirs._code
    assert ours._formsinuse == theirs._formsinuse == ["face0"]
    assert {name: ours.__dict__[name] for name in state} == state


@pytest.mark.parametrize("even_odd", [True, False])
def test_a_face_drawn_in_place_is_clipped_and_moved_as_reportlabs_own_calls_do(even_odd):
    """write/pdf.py writes the clip and the move of an upright face drawn in place at once;
    reportlab's calls (a clipping path, translate) must give the same operators and the
    same drawing state (the matrix translate keeps), and what is drawn next the same."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.write.pdf import _clip_and_move

    def canvas():
        c = Canvas(io.BytesIO())
        c.rotate(90)
        c.translate(3.5, -7.25)  # a matrix that is not the identity
        c._fillMode = 0 if even_odd else 1
        c.saveState()
        return c

    clip, x, y = (10.5, 20.25, 180.123456, 250.0), 12.75, 22.5
    theirs = canvas()
    path = theirs.beginPath()
    path.rect(*clip)
    theirs.clipPath(path, stroke=0, fill=0)
    theirs.translate(x, y)
    for ours in (canvas(), canvas()):  # (the second from the placements' strings kept)
        _clip_and_move(ours, clip, x, y)
        assert ours._code == theirs._code
    names = [name for name in ours.STATE_ATTRIBUTES if name != "_extgstate"]
    assert [ours.__dict__[n] for n in names] == [theirs.__dict__[n] for n in names]
    for c in (ours, theirs):  # a move drawn next joins the one written (transform's rule)
        c.translate(1.25, 2.5)
        c.restoreState()
    assert ours._code == theirs._code


def test_faces_are_compared_by_their_values_only_where_their_texts_are_alike():
    """write/pdf._keys hashes objects, and computes the identity of those that hash alike,
    only where their rough keys (_rough: their texts, the kinds of the rest) are alike: the
    keys are the same as hashing every one, and a face with texts of its own is alone
    without its identity computed."""
    from generator.primitives import Block, Face, Rect, Text
    from generator.write.pdf import _keys, _rough

    def face(word: str, x: float = 1.0) -> Face:
        nested = Block((Block((Text(3.0, 4.0, "nested", "F", 8.0, (1.0, 0.0, 0.0)),)),))
        return Face(90.0, 50.0, (Block((Text(x, 2.0, word, "F", 8.0, (0.0, 0.0, 0.0)),
                                        Rect(0.0, 0.0, 1.0, 1.0))), nested))
    faces = [face("a"), face("a"), face("a", 5.0), face("b"), face("c"), face("c", 5.0)]
    identities: list[Face] = []

    def identity(f: Face) -> str:
        identities.append(f)
        return repr(f)

    def rough(f: Face) -> tuple:
        return (f.width, f.height, tuple(_rough(i) for i in f.items))
    keys = _keys(faces + faces[:1], identity, hash, rough)
    every = _keys(faces, repr, hash)
    assert keys == every
    assert keys[id(faces[0])] == keys[id(faces[1])] == ("same", repr(faces[0]))  # alike
    assert [keys[id(f)] for f in faces[2:]] == [id(f) for f in faces[2:]]  # each alone
    assert identities == faces[:2]  # ("a" elsewhere hashes otherwise; "b" is rough-alone)
    assert rough(faces[0]) == rough(faces[2]) != rough(faces[3])


def test_pages_encoded_as_they_are_shown_give_the_bytes_reportlab_would(project, cardgen,
                                                                         monkeypatch):
    """write/pdf.py compresses each page when it is shown, not when the file is saved (a
    document would hold every page's text until then), and gives pages alike resources
    and boxes formatted once (_Once): the files must be those reportlab writes by itself,
    sheets and a print shop's export (its pages have trim and bleed boxes)."""
    import generator.write.pdf

    def made(output: str) -> dict[str, bytes]:
        assert cardgen("build", "lastdance", "--output", output).code == 0
        assert cardgen("export", "vampire-band", "--profile", "jp-print",
                       "--output", f"{output}/export").code == 0
        return {str(p.relative_to(project / output)): p.read_bytes()
                for p in (project / output).rglob("*.pdf")}
    early = made("early")
    monkeypatch.setattr(generator.write.pdf, "_pack_page", lambda c: None)
    monkeypatch.setattr(generator.write.pdf, "_share_formatting", lambda c, shared: None)
    late = made("late")
    assert any(name.startswith("export/") for name in early)
    assert early.keys() == late.keys() and len(early) > 3
    for name in early:
        assert early[name] == late[name], name


def test_runs_drawn_again_from_the_documents_runs_give_the_same_bytes(project, cardgen,
                                                                       monkeypatch):
    """draw._draw_texts reuses what reportlab wrote for a run drawn before in the same
    document (its font subsets only grow), and writes each run's origin as setTextOrigin
    writes it, once a document for each place; with them, with the runs and origins
    starting again every few runs, and with reportlab's own calls for every run, every
    file is the same."""
    import generator.draw
    from generator import fonts
    assert cardgen("build", "dernier-peuple", "--output", "kept").code == 0
    monkeypatch.setattr(generator.draw, "RUNS_KEPT", 3)
    assert cardgen("build", "dernier-peuple", "--output", "few").code == 0

    def by_reportlab(c, texts, pen):  # the same state changes, each by reportlab's call
        t = c.beginText()
        font = space = None
        scale = 1.0
        for item in texts:
            x = item.x
            if (item.font, item.size) != font:
                font = (item.font, item.size)
                t.setFont(fonts.ensure(item.font), item.size)
            if item.anchor != "start":
                width = fonts.run_width(item.text, item.font, item.size, item.scale,
                                        item.char_space)
                x -= width / 2 if item.anchor == "middle" else width
            t.setTextOrigin(x, item.y)
            if item.char_space != (space or 0.0):
                t.setCharSpace(item.char_space)
                space = item.char_space
            if item.scale != scale:
                t.setHorizScale(item.scale * 100)
                scale = item.scale
            pen.fill_with(t, item.color)
            t.textLine(item.text)
        if space:
            t.setCharSpace(0)
        if scale != 1.0:
            t.setHorizScale(100)
        c.drawText(t)
    monkeypatch.setattr(generator.draw, "_draw_texts", by_reportlab)
    assert cardgen("build", "dernier-peuple", "--output", "none").code == 0
    folders = [project / name / "dernier-peuple" for name in ("kept", "few", "none")]
    names = sorted(p.name for p in folders[0].glob("*.pdf"))
    assert len(names) > 3
    for name in names:
        assert len({(folder / name).read_bytes() for folder in folders}) == 1, name
