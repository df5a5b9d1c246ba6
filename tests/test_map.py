"""Route maps (the `map` board shape): the worked example (docs/examples/outbreak) built as a
user builds it and read back from the PDF's operators (every route a line between its places'
centres, the Pacific routes as stubs to the edges) and text (labels in the game's font,
within their width); each problem of places and routes at its line, in its words."""

from __future__ import annotations

import math
import shutil
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
import yaml

from pdfcheck import reader

EXAMPLE = Path(__file__).resolve().parent.parent / "docs/examples/outbreak"
MM = 72 / 25.4  # points per mm


def outbreak(project: Path) -> Path:
    shutil.copytree(EXAMPLE / "game", project / "cards/outbreak")
    shutil.copytree(EXAMPLE / "layouts", project / "layouts", dirs_exist_ok=True)
    return project / "cards/outbreak"


def moved_operators(pdf: Path, page: int = 0):
    """(operator, operands, the transformation in force (q, cm, Q) as a function of a point)
    of each operator a page draws with."""
    document = pikepdf.open(pdf)
    matrices = [(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)]
    for operands, op in pikepdf.parse_content_stream(document.pages[page]):
        name = str(op)
        if name == "q":
            matrices.append(matrices[-1])
        elif name == "Q":
            matrices.pop()
        elif name == "cm":
            a, b, c, d, e, f = map(float, operands)
            A, B, C, D, E, F = matrices[-1]
            matrices[-1] = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                            e * A + f * C + E, e * B + f * D + F)
        else:
            m = matrices[-1]
            yield name, operands, (lambda x, y, m=m: (m[0] * x + m[2] * y + m[4],
                                                     m[1] * x + m[3] * y + m[5]))


def stroked_lines(pdf: Path, page: int = 0) -> list[tuple[tuple[float, float], ...]]:
    """Each straight line a page strokes (m, l, S), as its two ends in points on the page."""
    out, points = [], []
    for name, operands, at in moved_operators(pdf, page):
        if name in ("m", "l"):
            points.append(at(float(operands[0]), float(operands[1])))
        elif name == "S":
            if len(points) == 2:
                out.append(tuple(points))
            points = []
        elif name in ("n", "f", "f*", "B", "b", "s", "re"):
            points = [] if name != "re" else points
    return out


def test_the_example_draws_every_route_as_a_line_between_its_places(project, cardgen):
    game = outbreak(project)
    run = cardgen("build", "outbreak")
    assert run.code == 0, run.lines
    world = yaml.safe_load((game / "world.yaml").read_text("utf-8"))
    layout = yaml.safe_load((EXAMPLE / "layouts/boards/outbreak-world.yaml").read_text("utf-8"))
    width, height = (float(v.removesuffix("mm")) * MM for v in layout["size"])
    at = {c["id"]: (float(c["x"].removesuffix("mm")) * MM,
                    height - float(c["y"].removesuffix("mm")) * MM) for c in world["cities"]}
    assert len(at) >= 15 and len(world["routes"]) >= 40
    pdf = project / "output/outbreak/outbreak-board-world.pdf"
    lines = stroked_lines(pdf)
    # the board's own origin on the page: the one move that puts a route's ends on places
    first = next(r for r in world["routes"] if "wrap" not in r)
    p, q = at[first["from"]], at[first["to"]]
    start = next(s for s, e in lines if math.dist((e[0] - s[0], e[1] - s[1]),
                                                  (q[0] - p[0], q[1] - p[1])) < 0.05)
    dx, dy = start[0] - p[0], start[1] - p[1]
    moved = [((x0 - dx, y0 - dy), (x1 - dx, y1 - dy)) for (x0, y0), (x1, y1) in lines]

    def drawn(p, q) -> bool:
        return any(math.dist(s, p) < 0.05 and math.dist(e, q) < 0.05 or
                   math.dist(s, q) < 0.05 and math.dist(e, p) < 0.05 for s, e in moved)

    for route in world["routes"]:
        p, q = at[route["from"]], at[route["to"]]
        if "wrap" not in route:
            assert drawn(p, q), route
            continue
        # a stub from each place to the edge it leaves by: the left one for `from`
        assert route["wrap"] == "left"
        from_stub = [e for s, e in moved if math.dist(s, p) < 0.05 and abs(e[0]) < 0.05]
        to_stub = [e for s, e in moved if math.dist(s, q) < 0.05 and abs(e[0] - width) < 0.05]
        assert from_stub and to_stub, route
        # the two stubs are one straight line over the edge: at the same height there
        assert from_stub[0][1] == pytest.approx(to_stub[0][1], abs=0.05)
    text = reader(pdf).pages[0].extract_text()
    for city in world["cities"]:
        assert city["label"] in text
    assert "← 東京 Tokyo" in text and "→ San Francisco" in text  # the stubs say where they go
    # each label in the game's font (its main family, bold) at the layout's 8 pt
    for city in world["cities"]:
        assert label_font(pdf, city["label"]) == ("BIZUDPGothic-Bold", 8.0), city


def label_font(pdf: Path, text: str) -> tuple[str, float]:
    """The font and size a text on the page's first page is set in (its first letter's)."""
    import ctypes

    import pypdfium2.raw as raw
    page = pypdfium2.PdfDocument(str(pdf))[0].get_textpage()
    i = page.get_text_range().index(text)
    name, flags = ctypes.create_string_buffer(256), ctypes.c_int()
    raw.FPDFText_GetFontInfo(page.raw, i, name, 256, ctypes.byref(flags))
    return name.value.decode(), round(raw.FPDFText_GetFontSize(page.raw, i), 2)


def test_labels_are_set_within_their_width_or_shrink_when_told(project, cardgen):
    game = outbreak(project)
    text = (game / "world.yaml").read_text("utf-8").replace(
        "label: Johannesburg", "label: Johannesburg and the Witwatersrand")
    (game / "world.yaml").write_text(text, "utf-8")
    run = cardgen("validate", "outbreak")
    assert run.code == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "Witwatersrand" in row)
    col = text.splitlines()[line - 1].index("Johannesburg and") + 1
    assert f"cards/outbreak/world.yaml:{line}:{col}: error: board 'world': the label " \
           "'Johannesburg and the Witwatersrand' of place 'johannesburg' is 59.9 mm wide at " \
           "8 pt, wider than label_width (30.0 mm); shorten it, or write label_shrink: true " \
           "in the board layout [board]" in run.lines
    board = project / "layouts/boards/outbreak-world.yaml"
    board.write_text(board.read_text("utf-8") + "label_shrink: true\n", "utf-8")
    assert cardgen("build", "outbreak").code == 0
    pdf = pypdfium2.PdfDocument(str(project / "output/outbreak/outbreak-board-world.pdf"))
    page = pdf[0].get_textpage()
    found = page.search("Witwatersrand")
    start = found.get_next()
    assert start is not None
    all_text = page.get_text_range()
    i = all_text.index("Johannesburg and")
    boxes = [page.get_charbox(k) for k in range(i, i + len("Johannesburg and the Witwatersrand"))]
    wide = (max(b[2] for b in boxes) - min(b[0] for b in boxes)) / MM
    assert 25 < wide <= 30.0  # set smaller, to the width it is given


def board_game(folder: Path, board: str, table: str = "") -> None:
    """A game of one card and one board (`board`, its entry as a flow mapping), with the
    data table `table` (<table>.yaml, written beside it) where given."""
    data = f"data:\n  {table}: {table}.yaml\n" if table else ""
    (folder / "game.yaml").write_text(f"title: {folder.name}\ndecks:\n  - {{id: d, cards: "
                                      f"cards.yaml}}\n{data}boards:\n  - {board}\n", "utf-8")
    (folder / "cards.yaml").write_text("cards: [{id: one}]\n", "utf-8")


def bad_map(project: Path, cells: str, routes: str, layout: str = "") -> None:
    folder = project / "cards/bad"
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent("""\
        title: Bad map
        decks:
          - {id: d, cards: cards.yaml}
        boards:
          - id: m
            layout: %s
            cells:
        %s
            routes:
        %s
        """) % (layout or "map", textwrap.indent(textwrap.dedent(cells), "      "),
                textwrap.indent(textwrap.dedent(routes), "      ")), "utf-8")
    (folder / "cards.yaml").write_text("cards: [{id: one}]\n", "utf-8")


def test_places_that_cannot_be_placed_are_errors_at_their_line(project, cardgen):
    bad_map(project, """\
        - {id: a, label: Alpha, x: 20mm, y: 20mm}
        - {id: d, label: Delta, y: 50mm}
        - {id: e, x: 500mm, y: 50mm}
        - {id: f, x: .nan, y: 50mm}
        - {id: g, x: 10%, y: -.inf}
        - {id: h, x: 10mm, y: 10mm, shape: star}
        - {label: Nameless, x: 10mm, y: 10mm}
        """, """\
        - {from: a, to: d, style: wavy}
        - {from: a, wrap: up}
        """)
    run = cardgen("validate", "bad")
    assert run.code == 1
    g = "cards/bad/game.yaml"
    assert run.lines[:-1] == [
        f"{g}:9:9: error: board 'm': cell 2: place 'd': needs x (its centre, from the board's "
        "top-left) [schema]",
        f"{g}:10:20: error: board 'm': cell 3: place 'e': x: 500mm is off the board "
        "(400 x 277 mm) [schema]",
        f"{g}:11:20: error: board 'm': cell 4: place 'f': x: .nan is not a number [schema]",
        f"{g}:12:28: error: board 'm': cell 5: place 'g': y: -.inf is not a number [schema]",
        f"{g}:13:42: error: board 'm': cell 6: place 'h': shape: 'star' is not one of circle, "
        "rect, hex, diamond [schema]",
        f"{g}:14:9: error: board 'm': cell 7: needs an id (the place's name, which routes "
        "use) [schema]",
        f"{g}:17:33: error: board 'm': route 1: style: 'wavy' is not one of solid, dashed, "
        "dotted, double [schema]",
        f"{g}:18:9: error: board 'm': route 2: needs to: the id of a place [schema]",
    ]


def test_routes_are_checked_against_the_places_and_each_other(project, cardgen):
    bad_map(project, """\
        - {id: paris, label: Paris, x: 20mm, y: 20mm}
        - {id: berlin, label: Berlin, x: 120mm, y: 20mm}
        - {id: lyon, label: Lyon, x: 70mm, y: 20mm}
        """, """\
        - {from: paris, to: berlin}
        - {from: paris, to: berln}
        - {from: lyon, to: lyon}
        - {from: berlin, to: paris}
        - {from: berlin, to: paris, wrap: right}
        """)
    run = cardgen("validate", "bad")
    assert run.code == 1
    g = "cards/bad/game.yaml"
    assert run.lines[:-1] == [
        f"{g}:13:9: warning: board 'm': route paris – berlin passes over place 'lyon', which "
        "it does not join; move the place, or give the route a wrap or another end [board]",
        f"{g}:14:27: error: board 'm': route paris – berln: to: 'berln' is not a place of the "
        "map (did you mean 'berlin'?) [reference]",
        f"{g}:15:26: error: board 'm': route lyon – lyon joins a place to itself [board]",
        f"{g}:16:9: error: board 'm': route berlin – paris is given twice (first at "
        f"{g}:13:9); a double route is one route with a list of colours (color: [orange, "
        "black]) [board]",
    ]
    assert run.lines[-1] == "bad: FAILED: 3 errors, 1 warning"


def test_routes_only_on_a_map_and_within_their_budget(project, cardgen):
    bad_map(project, "- {column: 1, row: 1}\n", "- {from: a, to: b}\n", layout="grid")
    run = cardgen("validate", "bad")
    assert "cards/bad/game.yaml:11:7: error: board 'm': a grid has no routes (routes: is for " \
           "map) [reference]" in run.lines
    shutil.rmtree(project / "cards/bad")
    # A million routes, and a million places, in the game's data: each list is read no
    # further than its budget (the line YAML cannot read at the end is never reached), and
    # said at the list, naming the board.
    folder = project / "cards/bad"
    folder.mkdir()
    with open(folder / "world.yaml", "w", encoding="utf-8") as out:
        out.write("places:\n- {id: a, x: 10mm, y: 10mm}\nroutes:\n")
        out.writelines("- {from: a, to: b}\n" for _ in range(1_000_000))
        out.write("broken: [\n")
    board_game(folder, "{id: m, layout: map, cells: data.world.places, routes: "
                       "data.world.routes}", "world")
    run = cardgen("validate", "bad")
    assert run.lines == [
        "cards/bad/world.yaml:4:1: error: board 'm': routes: data.world.routes holds more than "
        "5,000 routes; a board has at most 5,000 [schema]",
        "bad: FAILED: 1 error, 0 warnings (its layouts, checks and rulebook are checked once these "
        "are fixed)"]
    with open(folder / "world.yaml", "w", encoding="utf-8") as out:
        out.write("places:\n")
        out.writelines(f"- {{id: p{n}, x: 10mm, y: 10mm}}\n" for n in range(1_000_000))
        out.write("broken: [\n")
    board_game(folder, "{id: m, layout: map, cells: data.world.places}", "world")
    run = cardgen("validate", "bad")
    assert run.lines == [
        "cards/bad/world.yaml:2:1: error: board 'm': cells: data.world.places holds more than "
        "10,000 cells; a board has at most 10,000 [schema]",
        "bad: FAILED: 1 error, 0 warnings (its layouts, checks and rulebook are checked once these "
        "are fixed)"]


def test_a_places_type_gives_its_colour_shape_and_size(project, cardgen):
    bad_map(project, """\
        - {id: a, label: Alpha, x: 30mm, y: 30mm, type: port}
        - {id: b, label: Beta, x: 120mm, y: 30mm}
        """, "- {from: a, to: b}\n")
    game = project / "cards/bad/game.yaml"
    text = game.read_text("utf-8").replace("decks:", "data:\n  kinds: kinds.yaml\ndecks:")
    game.write_text(text.replace("    routes:", "    types: data.kinds.types\n    routes:"),
                    "utf-8")
    (project / "cards/bad/kinds.yaml").write_text(
        "types:\n  port: {color: '#ff0000', shape: rect, size: 20mm}\n", "utf-8")
    assert cardgen("build", "bad").code == 0
    fills = filled_paths(project / "output/bad/bad-board-m.pdf")
    red = [box for colour, box in fills if colour == (1.0, 0.0, 0.0)]
    assert [round((x1 - x0) / MM, 1) for x0, _, x1, _ in red] == [20.0]  # its type's size
    assert [round((y1 - y0) / MM, 1) for _, y0, _, y1 in red] == [20.0]
    # the plain place: a circle (curves) of the layout's 9 mm, white
    white = [box for colour, box in fills if colour == (1.0, 1.0, 1.0)
             and round((box[2] - box[0]) / MM, 1) == 9.0]
    assert len(white) == 1


def filled_paths(pdf: Path) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """(fill colour, bounding box in points) of each path a page fills."""
    out, points, colour = [], [], (0.0, 0.0, 0.0)
    for name, operands, at in moved_operators(pdf):
        if name == "rg":
            colour = tuple(float(v) for v in operands)
        elif name in ("m", "l"):
            points.append(at(float(operands[0]), float(operands[1])))
        elif name == "c":
            points += [at(float(operands[i]), float(operands[i + 1])) for i in (0, 2, 4)]
        elif name == "re":
            x, y, w, h = map(float, operands)
            points += [at(x, y), at(x + w, y + h)]
        elif name in ("f", "f*", "B", "B*", "b"):
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            if xs:
                out.append((colour, (min(xs), min(ys), max(xs), max(ys))))
            points = []
        elif name in ("S", "s", "n"):
            points = []
    return out


def test_the_example_board_is_in_the_tts_save_the_png_export_the_kit_and_the_preview(
        project, cardgen):
    """Every output that carries a game's pieces carries its map: a Tabletop Simulator
    custom board (its picture at the board's proportions), a picture of the board's own size
    in a PNG print-shop profile that takes boards, the print-and-play kit's pages, and the
    preview's board pages."""
    import json
    import urllib.request

    from PIL import Image

    from test_serve import served

    outbreak(project)
    assert cardgen("build", "outbreak", "--tts").code == 0
    tts = project / "output/outbreak/tts"
    saved = json.loads((tts / "outbreak-tts.json").read_text("utf-8"))
    boards = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [b["Nickname"] for b in boards] == ["世界地図 / World"]
    picture = Path(boards[0]["CustomImage"]["ImageURL"].removeprefix("file://"))
    with Image.open(picture) as image:
        w, h = image.size
    assert max(w, h) <= 4096 and abs(w / h - 400 / 277) < 0.01
    # a PNG profile that takes boards: the board at the profile's dpi, with its bleed
    mpc = (project / "layouts/exports/mpc.yaml").read_text("utf-8")
    (project / "layouts/exports/mpc-boards.yaml").write_text(mpc + "boards: true\n", "utf-8")
    run = cardgen("export", "outbreak", "--profile", "mpc-boards")
    assert run.code == 0, run.lines
    folder = project / "output/outbreak/export-mpc-boards"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    row = next(f for f in manifest["files"] if f["side"] == "board")
    assert row["file"] == "board-world.png" and row["size"] == "400 x 277 mm"
    with Image.open(folder / "board-world.png") as image:
        w, h = image.size
        assert image.mode == "RGB"
    assert (w, h) == (round(400 / 25.4 * 300), round(277 / 25.4 * 300))  # mpc: no bleed
    # the kit: the board's pages with its labels
    assert cardgen("pnp", "outbreak", "--paper", "A4").code == 0
    kit = next((project / "output/outbreak/pnp").glob("outbreak-pnp-a4*.pdf"))
    text = " ".join(page.extract_text() for page in reader(kit).pages)
    assert "東京 Tokyo" in text and "Johannesburg" in text
    # the preview: the board's pages, served
    with served("outbreak", wait=120) as (url, state):
        board = next(b for b in state["boards"] if b["id"] == "world")
        with urllib.request.urlopen(f"{url}/img/{board['pages'][0]}", timeout=5) as response:
            assert response.read()[:4] == b"\x89PNG"


# --- free art on any board --------------------------------------------------------------------

def art_game(project: Path, art_size: str = "[70mm, 70mm]", background: str = "sea.png") -> None:
    """A grid board of 2 x 2 cells of 25 mm and a margin of 10 mm (70 mm square) with a
    background picture and an art layout: a title and a repeated row of dots."""
    from PIL import Image
    folder = project / "cards/art"
    folder.mkdir()
    Image.new("RGB", (40, 40), (0, 0, 255)).save(folder / "sea.png")
    (project / "layouts/boards/art-grid.yaml").write_text(textwrap.dedent(f"""\
        shape: grid
        cell: [25mm, 25mm]
        rows: 2
        columns: 2
        margin: 10mm
        papers: [A4]
        background: {background}
        """), "utf-8")
    (project / "layouts/art-title.yaml").write_text(textwrap.dedent(f"""\
        size: {art_size}
        elements:
          - {{name: title, type: text, text: "{{{{ board.title }}}}", x: 2mm, y: 1mm,
             width: 60mm, height: 7mm, size: 12pt}}
          - {{name: dot, type: circle, x: 2mm, y: 64mm, width: 4mm, height: 4mm,
             fill: "#ff0000", repeat: {{over: 5, step: [6mm, 0]}}}}
        """), "utf-8")
    board_game(folder, "{id: g, title: 海の盤 Sea board, layout: art-grid, art: art-title}")


def test_any_board_takes_a_background_picture_and_elements_as_a_card_does(project, cardgen):
    art_game(project)
    assert cardgen("build", "art").code == 0
    pdf = project / "output/art/art-board-g.pdf"
    assert "海の盤 Sea board" in reader(pdf).pages[0].extract_text()
    red = [box for colour, box in filled_paths(pdf) if colour == (1.0, 0.0, 0.0)]
    assert len(red) == 5  # the repeated dots, 6 mm apart
    xs = sorted(round((b[0] + b[2]) / 2 / MM, 2) for b in red)
    assert [round(b - a, 2) for a, b in zip(xs, xs[1:])] == [6.0] * 4
    with pikepdf.open(pdf) as document:  # the picture, over the whole board
        page = document.pages[0]
        pictures = [k for k, x in page.Resources.XObject.items() if x.Subtype == "/Image"]
    assert len(pictures) == 1
    from pdfcheck import Raster
    raster = Raster(pdf, 0, dpi=100)  # blue in the board's margin, where no cell is
    data = raster.image.tobytes()
    pixels = (data[i:i + 3] for i in range(0, len(data), 3))
    blue = sum(1 for p in pixels if p == b"\x00\x00\xff") / raster.px_per_mm ** 2
    assert 70 * 70 - 50 * 50 - 300 < blue < 70 * 70 - 50 * 50  # (less the title, the dots)


def test_an_art_layout_of_another_size_and_a_missing_background_are_located(project, cardgen):
    art_game(project, art_size="[60mm, 70mm]", background="nowhere.png")
    run = cardgen("validate", "art")
    assert run.code == 1
    assert "layouts/boards/art-grid.yaml:7:13: error: board layout 'art-grid': background: " \
           "image 'nowhere.png' does not exist [image]" in run.lines, run.lines
    (project / "layouts/boards/art-grid.yaml").write_text(
        (project / "layouts/boards/art-grid.yaml").read_text("utf-8").replace(
            "nowhere.png", "sea.png"), "utf-8")
    run = cardgen("validate", "art")
    assert "layouts/art-title.yaml:1:1: error: board 'g': the art layout 'art-title' is " \
           "60 x 70 mm, but the board is 70 x 70 mm; make the layout's size the board's " \
           "[board]" in run.lines, run.lines


# --- the look of every board's cells and labels ------------------------------------------------

def areas_game(project: Path, layout: str = "") -> None:
    folder = project / "cards/regions"
    folder.mkdir()
    (project / "layouts/boards/regions.yaml").write_text(
        "shape: areas\nsize: [120mm, 80mm]\nmargin: 5mm\npapers: [A4]\n" + layout, "utf-8")
    (folder / "map.yaml").write_text(textwrap.dedent("""\
        types:
          lake: {color: "#0000ff", shape: circle, size: 30mm}
        cells:
          - {id: north, label: North wood, x: 5mm, y: 5mm, w: 50mm, h: 20mm}
          - {id: lake, x: 70mm, y: 10mm, type: lake}
        """), "utf-8")
    board_game(folder, "{id: r, layout: regions, cells: data.map.cells, types: data.map.types}",
               "map")


def test_areas_take_their_types_print_no_id_and_keep_the_outline_style(project, cardgen):
    areas_game(project, "outline: none\nfont: latin\nlabel_size: 10pt\n")
    assert cardgen("build", "regions").code == 0
    pdf = project / "output/regions/regions-board-r.pdf"
    text = reader(pdf).pages[0].extract_text()
    assert "North wood" in text and "lake" not in text  # no label: nothing, not its id
    assert label_font(pdf, "North wood") == ("SourceSansPro-Bold", 10.0)  # the layout's
    blue = [box for colour, box in filled_paths(pdf) if colour == (0.0, 0.0, 1.0)]
    assert [round((b[2] - b[0]) / MM, 1) for b in blue] == [30.0]  # the type's size
    assert not [n for n, _o, _a in moved_operators(pdf) if n == "S"]  # outline: none


def test_an_areas_label_wider_than_its_area_and_an_unknown_font_are_located(project, cardgen):
    areas_game(project, "font: latn\n")
    run = cardgen("validate", "regions")
    assert "layouts/boards/regions.yaml:5:7: error: board 'r': font: 'latn' is not a font " \
           "family of the game (did you mean 'latin'?) [reference]" in run.lines, run.lines
    (project / "layouts/boards/regions.yaml").write_text(
        "shape: areas\nsize: [120mm, 80mm]\nlabel_size: 30pt\n", "utf-8")
    run = cardgen("validate", "regions")
    assert "cards/regions/map.yaml:4:24: error: board 'r': the label 'North wood' of area " \
           "'north' is 69.9 mm wide at 30 pt, wider than the area (50.0 mm); shorten it, or " \
           "set a smaller label_size in the board layout [board]" in run.lines, run.lines


def test_a_changed_route_is_named_in_diff_by_its_places_labels(project, cardgen):
    from conftest import git
    game = outbreak(project)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    world = game / "world.yaml"
    text = world.read_text("utf-8")
    text = text.replace('{from: paris, to: berlin, style: double, color: "#7a2e4a"}',
                        '{from: paris, to: berlin, style: dashed, color: "#7a2e4a"}')
    text = text.replace("  - {from: cairo, to: johannesburg}\n", "")
    world.write_text(text, "utf-8")
    run = cardgen("diff", "outbreak")
    assert run.code == 0, run.lines
    lines = run.out.splitlines()
    assert "~ board 'world': page 1 of 1 prints differently" in lines, lines
    assert "    route Paris – Berlin style: double -> dashed" in lines, lines
    assert "    route Cairo – Johannesburg removed" in lines, lines


def test_a_board_split_for_tts_is_set_out_edge_to_edge_at_its_printed_size(project, cardgen):
    """A board larger than TTS loads (4096 pixels a side at 150 dpi: about 690 mm) is cut
    into pieces of even sizes, each scaled to its printed size by the one model of a
    Custom_Board's size (depth TTS_BOARD_UNIT x scale, width that x its picture's aspect)
    and placed so that each piece's edges are its neighbours' edges."""
    import json

    from PIL import Image

    from generator.write.previews import TTS_BOARD_DPI, TTS_BOARD_UNIT

    folder = project / "cards/big"
    folder.mkdir()
    (project / "layouts/boards/big.yaml").write_text(
        "shape: map\nsize: [1000mm, 700mm]\nmargin: 0mm\n", "utf-8")
    board_game(folder, "{id: w, title: Big, layout: big, cells: [{id: a, x: 10%, y: 10%}, "
                       "{id: b, x: 90%, y: 90%}], routes: [{from: a, to: b}]}")
    assert cardgen("build", "big", "--tts").code == 0
    tts = project / "output/big/tts"
    saved = json.loads((tts / "big-tts.json").read_text("utf-8"))
    pieces = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [p["Nickname"] for p in pieces] == [
        f"Big (row {r}, column {c} of 2 x 2)" for r in (1, 2) for c in (1, 2)]
    boxes = []
    for piece in pieces:
        with Image.open(piece["CustomImage"]["ImageURL"].removeprefix("file://")) as image:
            w, h = image.size
        assert max(w, h) <= 4096
        t = piece["Transform"]
        assert t["scaleX"] == t["scaleZ"]
        depth = TTS_BOARD_UNIT * t["scaleZ"]  # the model: its size on the table
        width = depth * w / h
        assert abs(depth - h / TTS_BOARD_DPI) < 0.01  # its printed size, in inches
        boxes.append((t["posX"] - width / 2, t["posX"] + width / 2,
                      t["posZ"] - depth / 2, t["posZ"] + depth / 2))
    (l1, r1, b1, t1), (l2, r2, b2, t2), (l3, r3, b3, t3), (l4, r4, b4, t4) = boxes
    for left, right in ((r1, l2), (r3, l4)):  # side by side: one's right edge, the other's left
        assert abs(left - right) < 0.01
    for below, above in ((b1, t3), (b2, t4)):  # row 2 nearer the player (z down)
        assert abs(below - above) < 0.01
    assert abs((r2 - l1) - 1000 / 25.4) < 0.02 and abs((t1 - b3) - 700 / 25.4) < 0.02


def test_a_place_off_the_board_hides_none_of_the_other_errors(project, cardgen):
    """A bad value never hides the rest: the place off the board is left out of the map,
    the routes to it are skipped (and said to be), and every other problem is still found."""
    bad_map(project, """\
        - {id: a, label: Alpha, x: 900mm, y: 20mm}
        - {id: b, label: Bravo, x: 120mm, y: 20mm}
        - {id: c, label: Charlie and the Chocolate Factory, x: 70mm, y: 120mm}
        """, """\
        - {from: a, to: b}
        - {from: b, to: cc}
        - {from: b, to: c}
        - {from: c, to: b}
        """)
    run = cardgen("validate", "bad")
    assert run.code == 1
    g = "cards/bad/game.yaml"
    assert run.lines == [
        f"{g}:8:34: error: board 'm': cell 1: place 'a': x: 900mm is off the board "
        "(400 x 277 mm) [schema]",
        f"{g}:10:24: error: board 'm': the label 'Charlie and the Chocolate Factory' of place "
        "'c' is 54.9 mm wide at 8 pt, wider than label_width (32.0 mm); shorten it, or write "
        "label_shrink: true in the board layout [board]",
        f"{g}:14:23: error: board 'm': route b – cc: to: 'cc' is not a place of the map (did "
        "you mean 'c'?) [reference]",
        f"{g}:16:9: error: board 'm': route c – b is given twice (first at {g}:15:9); a double "
        "route is one route with a list of colours (color: [orange, black]) [board]",
        f"{g}:1:1: warning: skipped 1 of the game's checks (or its rulebook) that use values "
        "with the errors above; fix those first [skipped]",
        "bad: FAILED: 4 errors, 1 warning",
    ]


def test_a_label_too_wide_even_shrunk_says_so(project, cardgen):
    (project / "layouts/boards/shrink.yaml").write_text(
        "shape: map\nsize: [400mm, 277mm]\nlabel_width: 20mm\nlabel_shrink: true\n", "utf-8")
    bad_map(project, """\
        - {id: c, label: Charlie and the Chocolate Factory, x: 70mm, y: 120mm}
        - {id: d, label: Delta Dawn, x: 170mm, y: 120mm}
        """, "- {from: c, to: d}\n", layout="shrink")
    run = cardgen("validate", "bad")
    assert run.lines == [
        "cards/bad/game.yaml:8:24: error: board 'm': the label 'Charlie and the Chocolate "
        "Factory' of place 'c' is 27.5 mm wide even at 4 pt (half its size, the smallest "
        "label_shrink sets it at), wider than label_width (20.0 mm); shorten it, or widen "
        "label_width in the board layout [board]",
        "bad: FAILED: 1 error, 0 warnings"]


def test_a_problem_of_a_boards_art_names_the_board(project, cardgen):
    """An element of a board's art layout that cannot be drawn is said at the element,
    naming the board's art (not the card the art is laid out as)."""
    art_game(project)
    art = project / "layouts/art-title.yaml"
    art.write_text(art.read_text("utf-8").replace("width: 60mm, height: 7mm",
                                                  "width: 8mm, height: 7mm"), "utf-8")
    run = cardgen("validate", "art")
    assert run.code == 1
    assert run.lines == [
        "layouts/art-title.yaml:3:37: error: board 'g' art: element 'title': text does not fit "
        "the 8.0 x 7.0 mm box: it needs 41.5 mm of height at 12 pt (fit: shrink with a "
        "min_size lets it shrink) [fit]", "art: FAILED: 1 error, 0 warnings"]


def test_a_boards_art_layout_takes_the_boards_size_not_a_cards(project, cardgen):
    """A map board wider than a card may be (500 mm) has an art layout of its size: the art
    is held to the board's limits, not refused as a card size; one a side too small is
    said in a board's words."""
    (project / "layouts/boards/wide.yaml").write_text(
        "shape: map\nsize: [560mm, 300mm]\npapers: [A3]\n", "utf-8")
    art = project / "layouts/wide-art.yaml"
    art.write_text(textwrap.dedent("""\
        size: [560mm, 300mm]
        elements:
          - {name: title, type: text, text: "{{ board.title }}", x: 20mm, y: 12mm,
             width: 300mm, height: 18mm, size: 28pt}
        """), "utf-8")
    folder = project / "cards/wide"
    folder.mkdir()
    board_game(folder, "{id: w, title: Tokaido, layout: wide, art: wide-art, cells: "
                       "[{id: a, x: 20mm, y: 150mm}, {id: b, x: 540mm, y: 150mm}], "
                       "routes: [{from: a, to: b}]}")
    run = cardgen("validate", "wide")
    assert run.code == 0, run.lines
    art.write_text(art.read_text("utf-8").replace("[560mm, 300mm]", "[560mm, 3mm]"), "utf-8")
    run = cardgen("validate", "wide")
    assert "layouts/wide-art.yaml:1:7: error: layout 'wide-art': size: 560 x 3 mm is not a " \
           "size a board's art layout can have: each side at least 5 mm (it is the board's " \
           "size) [units]" in run.lines, run.lines


@pytest.mark.parametrize("lang, label", [
    ("ja", "ボード「w」 2 ページ中 1 ページ目（1 行 1 列）"),
    ("en", "board 'w' page 1 of 2 (row 1, column 1)")])
def test_a_split_boards_page_labels_are_in_the_games_language(project, cardgen, lang, label):
    """The label on each page of a split board, in a build as in a kit, is in the game's
    language (a build's was English in a Japanese game)."""
    (project / "layouts/boards/wide.yaml").write_text(
        "shape: map\nsize: [560mm, 300mm]\npapers: [A3]\n", "utf-8")
    folder = project / "cards/wide"
    folder.mkdir()
    board_game(folder, "{id: w, title: Tokaido, layout: wide, cells: "
                       "[{id: a, x: 20mm, y: 150mm}, {id: b, x: 540mm, y: 150mm}], "
                       "routes: [{from: a, to: b}]}")
    game = folder / "game.yaml"
    game.write_text(f"lang: {lang}\n" + game.read_text("utf-8"), "utf-8")
    assert cardgen("build", "wide").code == 0
    pages = reader(project / "output/wide/wide-board-w.pdf").pages
    assert len(pages) == 2
    text = pages[0].extract_text()
    assert label in text, text
    assert "cardgen board" not in text


def test_a_map_with_art_prints_its_title_once_where_its_art_does(project, cardgen):
    """A map whose art: layout draws the board's title printed it twice (its own at
    title_at, and the art's): with art, the map prints no title of its own unless its layout
    writes title_at, as the Outbreak example's does."""
    from pdfcheck import reader
    (project / "layouts/boards/ttr.yaml").write_text(
        "shape: map\nsize: [200mm, 140mm]\npapers: [A4]\n", "utf-8")
    (project / "layouts/ttr-art.yaml").write_text(textwrap.dedent("""\
        size: [200mm, 140mm]
        elements:
          - {name: title, type: text, text: "{{ board.title }}", x: 10mm, y: 120mm,
             width: 180mm, height: 14mm, size: 18pt}
        """), "utf-8")
    folder = project / "cards/ttr"
    folder.mkdir()
    for art, printed in (("", 1), (", art: ttr-art", 1)):
        board_game(folder, f"{{id: w, title: Rails North, layout: ttr{art}, cells: "
                           "[{id: a, x: 20mm, y: 70mm}, {id: b, x: 180mm, y: 70mm}]}")
        assert cardgen("build", "ttr").code == 0
        text = reader(project / "output/ttr/ttr-board-w.pdf").pages[0].extract_text()
        assert text.count("Rails North") == printed, (art, text)
    layout = project / "layouts/boards/ttr.yaml"
    layout.write_text(layout.read_text("utf-8") + "title_at: top-right\n", "utf-8")
    assert cardgen("build", "ttr").code == 0
    text = reader(project / "output/ttr/ttr-board-w.pdf").pages[0].extract_text()
    assert text.count("Rails North") == 2, text  # asked for: the art's and the map's
