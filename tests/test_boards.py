"""Boards beyond rings, tokens and standees, read back from the output: hex centres and split
pages measured on rasters, track numbers and cut lines from the PDF's text and operators.
The worked example (docs/examples/skirmish) is built as a user builds it."""

from __future__ import annotations

import math
import re
import shutil
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2
import pytest

from pdfcheck import Raster, page_size_mm, reader
from test_dernier_peuple import dots

EXAMPLE = Path(__file__).resolve().parent.parent / "docs/examples/skirmish"
PT = 25.4 / 72  # mm per point


def skirmish(project: Path) -> Path:
    shutil.copytree(EXAMPLE / "game", project / "cards/skirmish")
    shutil.copytree(EXAMPLE / "layouts", project / "layouts", dirs_exist_ok=True)
    return project / "cards/skirmish"


def test_the_worked_example_builds_every_piece(project, cardgen):
    skirmish(project)
    run = cardgen("build", "skirmish")
    assert run.code == 0, run.lines
    out = project / "output/skirmish"
    for name in ("skirmish-fronts.pdf", "skirmish-backs.pdf", "skirmish-board-map.pdf",
                 "skirmish-board-score.pdf"):
        assert (out / name).is_file(), name
    text = " ".join(p.extract_text() for p in reader(out / "skirmish-board-map.pdf").pages)
    for label in ("0101", "0605", "森", "水"):  # coordinates and the cells' own layout
        assert label in text


# --- hex maps -------------------------------------------------------------------------------

SIZE = 12.0  # mm, centre to corner


def hex_game(project, orientation: str = "pointy", rows: int = 3, columns: int = 4,
             papers: str = "[A4]") -> None:
    w, h = (math.sqrt(3) * SIZE, 2 * SIZE) if orientation == "pointy" else \
        (2 * SIZE, math.sqrt(3) * SIZE)
    (project / "layouts/boards/test-hex.yaml").write_text(textwrap.dedent(f"""
        shape: hex
        orientation: {orientation}
        size: {SIZE}mm
        coordinates: {"odd-r" if orientation == "pointy" else "odd-q"}
        rows: {rows}
        columns: {columns}
        labels: false
        margin: 6mm
        papers: {papers}
        overlap: 10mm
        print_margin: 6mm
        color: "#ffffff"
    """), "utf-8")
    (project / "layouts/test-hex-dot.yaml").write_text(textwrap.dedent(f"""
        size: [{w:.4f}mm, {h:.4f}mm]
        elements:
          - {{name: dot, type: circle, x: 50% - 1.5mm, y: 50% - 1.5mm, width: 3mm, height: 3mm,
             fill: "#ff0000"}}
    """), "utf-8")
    game = project / "cards/hexes"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(textwrap.dedent("""
        title: 六角
        decks:
          - {id: tiles, cards: tiles.yaml}
        boards:
          - {id: map, layout: test-hex, cell: test-hex-dot}
    """), "utf-8")
    (game / "tiles.yaml").write_text("cards:\n  - id: one\n", "utf-8")


def expected_centres(orientation: str, rows: int, columns: int) -> list[tuple[float, float]]:
    out = []
    for row in range(1, rows + 1):
        for col in range(1, columns + 1):
            if orientation == "pointy":
                out.append((math.sqrt(3) * SIZE * (col + 0.5 * (row % 2)), 1.5 * SIZE * row))
            else:
                out.append((1.5 * SIZE * col, math.sqrt(3) * SIZE * (row + 0.5 * (col % 2))))
    return out


def same_shape(found, want, tol=0.3):
    """The two sets of points match once each is moved to start at its own top-left."""
    assert len(found) == len(want), (len(found), len(want))
    fx, fy = min(x for x, _ in found), min(y for _, y in found)
    wx, wy = min(x for x, _ in want), min(y for _, y in want)
    for x, y in want:
        nearest = min(found, key=lambda p: math.hypot(p[0] - fx - (x - wx), p[1] - fy - (y - wy)))
        assert math.hypot(nearest[0] - fx - (x - wx), nearest[1] - fy - (y - wy)) < tol, (x, y)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_centres_lie_sqrt3_sizes_apart(project, cardgen, orientation):
    hex_game(project, orientation)
    assert cardgen("build", "hexes").code == 0
    pdf = project / "output/hexes/hexes-board-map.pdf"
    found = dots(Raster(pdf, 0, dpi=150))
    for x, y in found:  # every hex has neighbours at sqrt(3) x size, none nearer
        nearest = min(math.hypot(x - a, y - b) for a, b in found if (a, b) != (x, y))
        assert nearest == pytest.approx(math.sqrt(3) * SIZE, abs=0.3)
    same_shape(found, expected_centres(orientation, 3, 4))


def test_a_split_hex_map_reassembles_to_the_same_geometry(project, cardgen):
    hex_game(project, "pointy", rows=5, columns=10, papers="[A5]")
    assert cardgen("build", "hexes").code == 0
    pdf = project / "output/hexes/hexes-board-map.pdf"
    pages = reader(pdf).pages
    assert len(pages) > 1
    found = []
    for i, page in enumerate(pages):
        label = re.search(r"(?:board from x|ボードの x) ([\d.]+) mm[,、] ?y ([\d.]+) mm",
                          page.extract_text())  # (in the game's language)
        x0, y0 = float(label.group(1)), float(label.group(2))
        pw, ph = page_size_mm(page)
        for x, y in dots(Raster(pdf, i, dpi=100), inside=(6, 6, pw - 6, ph - 6)):
            bx, by = x0 + x - 6, y0 + y - 6
            if all(math.hypot(bx - fx, by - fy) > 2 for fx, fy in found):  # overlaps repeat
                found.append((bx, by))
    same_shape(found, expected_centres("pointy", 5, 10), tol=0.5)


# --- tracks ---------------------------------------------------------------------------------

def numbers(pdf: Path) -> dict[int, tuple[float, float]]:
    """Each number printed on a board page, at the middle of its glyphs (mm, y up): digits
    next to each other (less than 2.5 mm apart) make one number."""
    doc = pypdfium2.PdfDocument(str(pdf))
    tp = doc[0].get_textpage()
    runs: list[list] = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.isdigit():
            runs.append([])
            continue
        box = tp.get_charbox(i)
        if runs and runs[-1] and (box[0] - runs[-1][-1][1][2]) * PT < 2.5 and \
                abs(box[1] - runs[-1][-1][1][1]) * PT < 1:
            runs[-1].append((ch, box))
        else:
            runs.append([(ch, box)])
    out = {}
    for run in runs:
        if run:
            x = (run[0][1][0] + run[-1][1][2]) / 2 * PT
            y = (min(b[1] for _, b in run) + max(b[3] for _, b in run)) / 2 * PT
            out[int("".join(ch for ch, _ in run))] = (x, y)
    return out


def test_track_numbers_run_clockwise_around_the_edge(project, cardgen):
    skirmish(project)
    assert cardgen("build", "skirmish").code == 0
    pdf = project / "output/skirmish/skirmish-board-score.pdf"
    found = numbers(pdf)
    assert sorted(found) == list(range(31))
    pw, ph = page_size_mm(reader(pdf).pages[0])
    cx, cy = pw / 2, ph / 2
    angles = [math.degrees(math.atan2(found[n][1] - cy, found[n][0] - cx)) for n in range(31)]
    # clockwise from the top-left corner: the angle (counter-clockwise, y up) only falls
    turned = [(a - angles[0]) % 360 for a in angles]  # clockwise: from 360 down towards 0
    assert turned[0] == 0 and all(b < a for a, b in zip(turned[1:], turned[2:])), turned
    assert all(0 < t < 360 for t in turned[1:])
    # on the edge: every number within a space of the board's border
    xs, ys = [p[0] for p in found.values()], [p[1] for p in found.values()]
    for x, y in found.values():
        assert min(x - min(xs), max(xs) - x, y - min(ys), max(ys) - y) < 1


@pytest.mark.parametrize("path", ["line", "spiral"])
def test_tracks_along_a_line_and_a_spiral_keep_their_order(project, cardgen, path):
    (project / "cards/track").mkdir()
    (project / "cards/track/game.yaml").write_text(textwrap.dedent(f"""
        title: 道
        decks:
          - {{id: tiles, cards: tiles.yaml}}
        boards:
          - {{id: t, layout: track-{path}, first: 1, last: 12}}
    """), "utf-8")
    (project / "cards/track/tiles.yaml").write_text("cards:\n  - id: one\n", "utf-8")
    assert cardgen("build", "track").code == 0
    pdf = project / "output/track/track-board-t.pdf"
    found = numbers(pdf)
    assert sorted(found) == list(range(1, 13))
    if path == "line":
        assert [found[n][0] for n in range(1, 13)] == sorted(found[n][0] for n in range(1, 13))
    else:  # inwards: each space nearer the centre of the spiral than the one before
        cx = sum(p[0] for p in found.values()) / 12
        pw, ph = page_size_mm(reader(pdf).pages[0])
        centre = (pw / 2, ph / 2)
        radii = [math.hypot(found[n][0] - centre[0], found[n][1] - centre[1])
                 for n in range(1, 13)]
        assert all(b < a + 0.01 for a, b in zip(radii, radii[1:])), radii
        assert cx  # (the spiral's spaces are spread around its centre)


def test_a_track_shorter_than_the_games_score_is_an_error(project, cardgen):
    game = skirmish(project)
    text = (game / "game.yaml").read_text("utf-8").replace("last: 30", "last: 25")
    (game / "game.yaml").write_text(text, "utf-8")
    run = cardgen("validate", "skirmish")
    assert run.code == 1
    assert any(re.search(r"game\.yaml:\d+:\d+: error: board 'score': the track runs 0 to 25, "
                         r"but the game's max_score is 30 \[board\]", line) for line in run.lines)


# --- tokens ---------------------------------------------------------------------------------

def stroked_curves(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (mm) of the closed curved paths a page strokes itself: its cut lines."""
    document = pikepdf.open(pdf)
    ops = pikepdf.parse_content_stream(document.pages[page])
    boxes, points, curved = [], [], False
    matrix = [1, 0, 0, 1, 0, 0]
    for operands, op in ops:
        name = str(op)
        if name in ("m", "l"):
            points.append((float(operands[0]), float(operands[1])))
        elif name == "c":
            points += [(float(operands[i]), float(operands[i + 1])) for i in (0, 2, 4)]
            curved = True
        elif name in ("S", "s") and points and curved:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            boxes.append(tuple(v * PT for v in (min(xs), min(ys), max(xs), max(ys))))
            points, curved = [], False
        elif name in ("f", "f*", "B", "B*", "b", "n", "S", "s"):
            points, curved = [], False
        elif name == "cm":
            matrix = operands
    assert matrix is not None
    return boxes


def placements(pdf: Path, page: int) -> list[tuple[float, float]]:
    """Where each face is placed (mm, its form's origin), from the page's cm before Do."""
    document = pikepdf.open(pdf)
    out, last = [], None
    for operands, op in pikepdf.parse_content_stream(document.pages[page]):
        if str(op) == "cm":
            last = (float(operands[4]) * PT, float(operands[5]) * PT)
        elif str(op) == "Do" and last is not None:
            out.append(last)
    return out


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_token_sheets_cut_every_token_and_backs_register(project, cardgen, duplex):
    game = skirmish(project)
    # Every deck with backs turns over the same way (a game's backs are one file printed
    # one way: mixed modes are an error); the standees' backs are blank and do not count.
    text = (game / "game.yaml").read_text("utf-8").replace(
        "    sheet: {preset: plain-a4, gap: [4mm, 4mm]}\n",
        f"    sheet: {{preset: plain-a4, gap: [4mm, 4mm], duplex: {duplex}}}\n")
    (game / "game.yaml").write_text(text, "utf-8")
    assert cardgen("build", "skirmish").code == 0
    fronts = project / "output/skirmish/skirmish-fronts.pdf"
    backs = project / "output/skirmish/skirmish-backs.pdf"
    pw, ph = page_size_mm(reader(fronts).pages[0])
    def token_sized(boxes):  # the cut lines: 24 mm circles (the faces' own rings are 21 mm)
        return [b for b in boxes if b[2] - b[0] == pytest.approx(24, abs=0.05)]

    cuts = token_sized(stroked_curves(fronts, 0))
    assert len(cuts) == 20  # 20 unit tokens on the first sheet, each in its circle
    for x0, y0, x1, y1 in cuts:
        assert x1 - x0 == pytest.approx(24, abs=0.05) and y1 - y0 == pytest.approx(24, abs=0.05)
    back_cuts = token_sized(stroked_curves(backs, 0))
    assert len(back_cuts) == 20
    for x0, y0, x1, y1 in cuts:  # each back lies where its front lands when the sheet turns
        mx, my = ((pw - x1, y0) if duplex == "long-edge" else (x0, ph - y1))
        nearest = min(back_cuts, key=lambda b: math.hypot(b[0] - mx, b[1] - my))
        assert math.hypot(nearest[0] - mx, nearest[1] - my) < 0.3
    # and so do the faces themselves (the unit tokens': the sheet packs other pieces too)
    faces = [(x, y) for x, y in placements(fronts, 0)
             if any(math.hypot(x - x0, y - y0) < 0.05 for x0, y0, _, _ in cuts)]
    assert len(faces) >= 18  # (a face drawn once is drawn in place, not as a form)
    back_faces = placements(backs, 0)
    for x, y in faces:
        mx, my = ((pw - x - 24, y) if duplex == "long-edge" else (x, ph - y - 24))
        assert min(math.hypot(bx - mx, by - my) for bx, by in back_faces) < 0.3


def test_what_a_token_shows_stays_inside_its_circle(project, cardgen):
    skirmish(project)
    layout = project / "layouts/skirmish-unit-front.yaml"
    layout.write_text(layout.read_text("utf-8").replace(
        "x: 6mm, y: 14.5mm, width: 12mm", "x: 1mm, y: 18mm, width: 22mm"), "utf-8")
    run = cardgen("validate", "skirmish")
    assert run.code == 1
    assert any(re.search(r"skirmish-unit-front\.yaml:\d+:\d+: error: card 'red-infantry': "
                         r"element 'name' reaches \d\.\d mm outside the token's circle", line)
               for line in run.lines), run.lines


# --- standees -------------------------------------------------------------------------------

def test_standee_fold_lines_lie_midway_between_the_figure_and_its_mirror(project, cardgen):
    skirmish(project)
    assert cardgen("build", "skirmish").code == 0
    pdf = project / "output/skirmish/skirmish-fronts.pdf"
    raster = Raster(pdf, len(reader(pdf).pages) - 1, dpi=200)  # the standees: the last deck
    image = raster.image
    w, h = image.size
    px = raster.px_per_mm
    pixels = image.load()
    # the heads (#e9c9a8): the figure's and its mirror's, for each of the two standees
    found = []
    for y in range(h):
        for x in range(0, w, 2):
            r, g, b = pixels[x, y][:3]
            if abs(r - 0xe9) < 12 and abs(g - 0xc9) < 12 and abs(b - 0xa8) < 12:
                found.append((x / px, y / px))
    columns: list[list[tuple[float, float]]] = []  # the heads by standee: apart by a gap
    for point in sorted(found):
        if columns and point[0] - columns[-1][-1][0] < 3:
            columns[-1].append(point)
        else:
            columns.append([point])
    columns = [pts for pts in columns if len(pts) > 50]
    assert len(columns) == 2
    # fold lines: rows across the first standee that are grey in part (dashes), not whole
    # (the cut line at its top and bottom edges is solid)
    first = min(columns, key=lambda pts: pts[0][0])
    mid = sum(p[0] for p in first) / len(first)
    x0, x1 = int((mid - 13) * px), int((mid + 13) * px)
    rows = []
    for y in range(h):
        grey = sum(1 for x in range(x0, x1)
                   if max(pixels[x, y][:3]) - min(pixels[x, y][:3]) < 12 and
                   pixels[x, y][0] < 215)
        share = grey / (x1 - x0)
        if 0.3 < share < 0.85:
            rows.append((y / px, share))
    folds = []
    for y, share in rows:
        if folds and y - folds[-1][-1][0] < 0.5:
            folds[-1].append((y, share))
        else:
            folds.append([(y, share)])
    folds = [sum(y * w for y, w in group) / sum(w for _, w in group) for group in folds]
    assert len(folds) == 3, folds  # tab | figure | mirror | tab
    assert folds[1] == pytest.approx((folds[0] + folds[2]) / 2, abs=0.3)
    for pts in columns:
        top = [p for p in pts if p[1] < folds[1]]
        bottom = [p for p in pts if p[1] > folds[1]]
        y_top = sum(p[1] for p in top) / len(top)
        y_bottom = sum(p[1] for p in bottom) / len(bottom)
        assert (y_top + y_bottom) / 2 == pytest.approx(folds[1], abs=0.3)  # mirror images
    assert folds[2] - folds[1] == pytest.approx(50, abs=0.3)  # the 50 mm figure


# --- validation -----------------------------------------------------------------------------

def test_map_cells_are_checked_against_types_tiles_and_each_other(project, cardgen):
    game = skirmish(project)
    data = (game / "map.yaml").read_text("utf-8")
    data = data.replace("  - {column: 2, row: 2, type: hill}", "  - {column: 2, row: 2, type: hil}")
    data = data.replace("  - {column: 6, row: 5, type: plain}",
                        "  - {column: 6, row: 5, type: plain}\n  - {column: 1, row: 1, type: plain}"
                        "\n  - {column: 7, row: 3, type: plain, tile: castle}")
    (game / "map.yaml").write_text(data, "utf-8")
    run = cardgen("validate", "skirmish")
    assert run.code == 1
    problems = [line for line in run.lines if ": error: " in line]
    assert any(re.search(r"map\.yaml:\d+:\d+: error: board 'map': cell 0202 is of type 'hil', "
                         r"which "
                         r"the types table does not have \(did you mean 'hill'\?\) \[reference\]",
                         line) for line in problems), problems
    assert any(re.search(r"map\.yaml:\d+:\d+: error: board 'map': cell 0101 is given twice "
                         r"\(first at cards/skirmish/map\.yaml:9:5\) \[board\]", line)
               for line in problems), problems
    assert any("places tile 'castle', but the board names no deck:" in line for line in problems)
    assert len(problems) == 3


def test_tokens_are_cut_to_shape_in_png_proof_and_tabletop_simulator(project, cardgen):
    """Round and hex tokens are shown cut out wherever they are a picture: their PNGs are
    transparent outside the cut line (the bleed and the box's corners) and opaque inside,
    and Tabletop Simulator gets tiles of their shape, a bag per deck with every copy."""
    import json
    from PIL import Image
    skirmish(project)
    assert cardgen("build", "skirmish", "--png", "--proof", "--tts").code == 0
    out = project / "output/skirmish"
    with Image.open(out / "png/units/red-infantry-front.png") as im:  # 24 mm circle, 3 mm bleed
        assert im.mode == "RGBA"
        w, h = im.size
        cx, cy, r = w / 2, h / 2, w / 2 * 24 / 30
        for dx, dy in ((0, 0), (0.9, 0), (0, -0.9), (0.63, 0.63)):  # inside the circle
            assert im.getpixel((int(cx + dx * r), int(cy + dy * r)))[3] == 255
        for x, y in ((1, 1), (w - 2, h - 2), (int(cx + 0.78 * r), int(cy + 0.78 * r))):
            assert im.getpixel((x, y))[3] == 0, (x, y)  # the corners and the bleed: cut away
    with Image.open(out / "png/objectives/castle-front.png") as im:  # a pointy-topped hex
        assert im.getpixel((2, 2))[3] == 0
        assert im.getpixel((im.width // 2, im.height // 2))[3] == 255
    with Image.open(out / "png/heroes/red-general-front.png") as im:  # a standee: a strip
        assert im.mode == "RGB"
    saved = json.loads((out / "tts/skirmish-tts.json").read_text("utf-8"))
    bags = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "Bag"}
    kinds = {name: {t["CustomImage"]["CustomTile"]["Type"] for t in bag["ContainedObjects"]}
             for name, bag in bags.items()}
    assert sorted(kinds.values(), key=str) == [{1}, {2}], kinds  # hex tiles; round tiles
    units = next(b for b in bags.values() if b["ContainedObjects"][0]["CustomImage"][
        "CustomTile"]["Type"] == 2)
    assert len(units["ContainedObjects"]) == 20  # 6 + 3 + 1 of each colour
    for tile in units["ContainedObjects"]:
        for key in ("ImageURL", "ImageSecondaryURL"):
            path = Path(tile["CustomImage"][key].removeprefix("file://"))
            with Image.open(path) as im:
                assert im.mode == "RGBA" and im.getpixel((1, 1))[3] == 0


def test_a_polygon_of_sides_fills_its_box_and_covers_a_hex_token(project, cardgen):
    """`sides: 6` at 100% on a hex token: the hexagon is as wide as its box (it was
    inscribed in a circle, 0.866 of the width), so nothing inside the token's cut line is
    left white, even without running into the bleed."""
    from PIL import Image
    skirmish(project)
    layout = project / "layouts/skirmish-objective-front.yaml"
    text = layout.read_text("utf-8")
    start, end = text.index("  - {name: ground"), text.index("  - {name: points")
    layout.write_text(text[:start] + '  - {name: ground, type: polygon, sides: 6, '
                      'fill: "#204080", bleed: false}\n' + text[end:], "utf-8")
    assert cardgen("build", "skirmish", "--png").code == 0
    with Image.open(project / "output/skirmish/png/objectives/castle-front.png") as im:
        im = im.convert("RGBA")
        w, h = im.size
        per_mm = (h - w) / (27 - 23.38)  # the face is 23.38 x 27 mm and its bleed
        r = 13.5 * per_mm * 0.97  # inside the cut hexagon (pointy-topped), off its very edge
        cx, cy = w / 2, h / 2
        inside = [(x, y) for x in range(w) for y in range(0, h, 2)
                  if abs(x - cx) <= r * math.sqrt(3) / 2 and
                  abs(y - cy) <= r - abs(x - cx) / math.sqrt(3)]
        assert len(inside) > 1000
        bare = [p for p in inside if im.getpixel(p)[3] < 255 or min(im.getpixel(p)[:3]) > 240]
        assert not bare, bare[:5]


def test_a_track_counts_by_its_step_and_marks_every_fifth_space(project, cardgen):
    """`step: 10` (a game that scores in tens): the spaces are 0, 10, ... 100 in order along
    the line, and every 5th space (0, 50, 100) is outlined in the accent colour; a last
    number the step never reaches is an error at it."""
    (project / "cards/tens").mkdir()
    game = project / "cards/tens/game.yaml"
    game.write_text(textwrap.dedent("""
        title: 十
        decks:
          - {id: tiles, cards: tiles.yaml}
        boards:
          - {id: t, layout: track-line, first: 0, last: 100, step: 10}
    """), "utf-8")
    (project / "cards/tens/tiles.yaml").write_text("cards:\n  - id: one\n", "utf-8")
    assert cardgen("build", "tens").code == 0
    pdf = project / "output/tens/tens-board-t.pdf"
    found = numbers(pdf)
    assert sorted(found) == list(range(0, 101, 10))
    assert [found[n][0] for n in range(0, 101, 10)] == sorted(found[n][0] for n in found)
    raster = Raster(pdf, 0, dpi=200)
    height = page_size_mm(reader(pdf).pages[0])[1]

    def outlined(n):  # a marked space's number is set in the accent colour, as its outline
        x, y = found[n][0], height - found[n][1]
        return any(sum(abs(a - b) for a, b in zip(raster.at(x + dx / 10, y + dy / 10),
                                                   (0x7a, 0x2e, 0x4a))) < 60
                   for dx in range(-15, 16) for dy in range(-10, 11))
    marked = {n for n in found if outlined(n)}
    assert marked == {0, 50, 100}, sorted(marked)
    game.write_text(game.read_text("utf-8").replace("last: 100", "last: 105"), "utf-8")
    run = cardgen("validate", "tens")
    assert run.code == 1 and any(
        "error: board 't': the track counts from 0 by 10, so its last number 105 is never "
        "reached (the last space would be 100)" in line for line in run.lines), run.lines


@pytest.mark.parametrize("shape, share", [("circle", math.pi / 4), ("hex", 3 * math.sqrt(3) / 8),
                                          ("square", 1.0)])
def test_tokens_placed_on_a_ring_keep_their_shape(project, cardgen, shape, share):
    """A ring of round (or hex) tokens shows each tile cut to its shape, its outline round:
    the red its faces are filled with covers a circle's share of each tile's box (π/4),
    not the box (a square token's covers it all)."""
    (project / "layouts/red-token.yaml").write_text(textwrap.dedent("""
        size: [30mm, 30mm]
        elements:
          - {name: ground, type: rect, x: -3mm, y: -3mm, width: 36mm, height: 36mm,
             fill: "#ff0000"}
    """), "utf-8")
    game = project / "cards/coins"
    game.mkdir()
    (game / "game.yaml").write_text(textwrap.dedent(f"""
        title: 硬貨
        decks:
          - {{id: coins, shape: {shape}, front: red-token, back: red-token, cards: coins.yaml,
             sheet: plain-a4}}
        boards:
          - {{id: wheel, layout: ring, deck: coins, cards: [a, b, c, d, e, f]}}
    """), "utf-8")
    (game / "coins.yaml").write_text(
        "cards:\n" + "".join(f"  - id: {c}\n" for c in "abcdef"), "utf-8")
    run = cardgen("build", "coins")
    assert run.code == 0, run.lines
    pdf = pypdfium2.PdfDocument(str(project / "output/coins/coins-board-wheel.pdf"))
    try:
        scale = 100 / 72
        image = pdf[0].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    data = image.tobytes()
    red = sum(1 for k in range(0, len(data), 3)
              if data[k] > 200 and data[k + 1] < 60 and data[k + 2] < 60)
    box = (30 / 25.4 * 100) ** 2  # a tile's box, in pixels at 100 dpi
    assert red / (6 * box) == pytest.approx(share, rel=0.06), red / (6 * box)


def _drawn(pdf: Path) -> tuple[set, set, set]:
    """(font sizes, line widths, stroke colours) a board page's content stream sets."""
    sizes, widths, colours = set(), set(), set()
    document = pikepdf.open(pdf)
    page = document.pages[0]
    forms = [xobject for xobject in (page.Resources.get("/XObject") or {}).values()
             if xobject.get("/Subtype") == "/Form"]  # (a face drawn as a form)
    for operands, op in [item for stream in [page, *forms]
                         for item in pikepdf.parse_content_stream(stream)]:
        name = str(op)
        if name == "Tf":
            sizes.add(round(float(operands[1]), 2))
        elif name == "w":
            widths.add(round(float(operands[0]), 2))
        elif name == "RG":
            colours.add(tuple(round(float(v), 3) for v in operands))
    return sizes, widths, colours


def test_track_spaces_take_the_shapes_style_and_ring_and_track_titles_a_size(project, cardgen):
    """A track's spaces are outlined, and numbered, as its layout's outline, outline_width
    and label_size say (outline: none draws no line; an emphasised space keeps its accent),
    and a track's and a ring's title is set in title_size."""
    layouts = project / "layouts/boards"
    (layouts / "bare.yaml").write_text(
        "shape: track\npath: line\nspace: 18mm\noutline: none\nlabel_size: 9pt\n", "utf-8")
    (layouts / "red.yaml").write_text(
        "shape: track\nspace: 15mm\noutline: '#ff0000'\noutline_width: 1pt\ntitle_size: 30pt\n",
        "utf-8")
    (layouts / "big-ring.yaml").write_text("shape: ring\ntitle_size: 24pt\n", "utf-8")
    (project / "cards/styled").mkdir()
    (project / "cards/styled/game.yaml").write_text(textwrap.dedent("""
        title: Styled
        decks:
          - {id: tiles, cards: tiles.yaml}
        boards:
          - {id: bare, title: Bare, layout: bare, first: 1, last: 12}
          - {id: red, title: Red, layout: red, first: 1, last: 12}
          - {id: ring, title: Ring, layout: big-ring, deck: tiles, cards: [one, two, three]}
    """), "utf-8")
    (project / "cards/styled/tiles.yaml").write_text(
        "cards:\n  - id: one\n  - id: two\n  - id: three\n", "utf-8")
    assert cardgen("build", "styled").code == 0
    out = project / "output/styled"
    sizes, widths, colours = _drawn(out / "styled-board-bare.pdf")
    assert 9.0 in sizes and 12.0 not in sizes  # the numbers at label_size
    assert widths <= {1.4}  # outline: none: only the emphasised spaces' accent
    assert (0.549, 0.549, 0.549) not in colours
    sizes, widths, colours = _drawn(out / "styled-board-red.pdf")
    assert 30.0 in sizes and 16.0 not in sizes  # the title at title_size
    assert 1.0 in widths and (1.0, 0.0, 0.0) in colours
    sizes, _widths, _colours = _drawn(out / "styled-board-ring.pdf")
    assert 24.0 in sizes and 16.0 not in sizes


def test_the_examples_round_tokens_export_for_a_shop(project, cardgen):
    """The worked example's round unit tokens (a disc with bleed: true, cut along its
    outline) export as their square faces: the preflight does not read a disc that stops
    short of the square's bleed as art cut at the trim (it called it 'a cardgen bug' and
    refused the export: the Splendor tester's gem tokens, and this example)."""
    skirmish(project)
    profile = "jp-print"  # (the shipped PDF profile; the picture ones take no token size)
    run = cardgen("export", "skirmish", "--profile", profile)
    assert run.code == 0, run.lines
    assert not any("preflight" in line for line in run.lines), run.lines
    folder = project / "output/skirmish" / f"export-{profile}"
    token = pikepdf.open(folder / "units-red-infantry-front.pdf")
    page = token.pages[0]
    trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
    assert trim[0] - bleed[0] > 5  # (a square face with its bleed round it)
