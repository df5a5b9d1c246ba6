"""Route games on the `map` board shape (a small Ticket-to-Ride-like game, tests/games/rails):
routes drawn as train spaces in their colour, double routes of two colours side by side, and
the problems of spaces and double routes at their lines. Read back from the PDF's operators."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pypdfium2

from generator.colors import parse_color

from test_map import bad_map, moved_operators

RAILS = Path(__file__).resolve().parent / "games/rails"
MM = 72 / 25.4  # points per mm


def rails(project: Path) -> Path:
    shutil.copytree(RAILS, project / "cards/rails", ignore=shutil.ignore_patterns("layouts"))
    shutil.copytree(RAILS / "layouts", project / "layouts", dirs_exist_ok=True)
    return project / "cards/rails"


def filled_quads(pdf: Path) -> list[tuple[tuple[float, ...], tuple[tuple[float, float], ...]]]:
    """(fill colour, its four corners in points) of each four-cornered path a page fills."""
    out, points, colour = [], [], (0.0, 0.0, 0.0)
    for name, operands, at in moved_operators(pdf):
        if name == "rg":
            colour = tuple(round(float(v), 3) for v in operands)
        elif name in ("m", "l"):
            points.append(at(float(operands[0]), float(operands[1])))
        elif name in ("f", "f*", "B", "B*", "b", "b*"):
            if len(points) == 4:
                out.append((colour, tuple(points)))
            points = []
        elif name in ("S", "s", "n", "c", "re"):
            points = []
    return out


def rgb(name: str) -> tuple[float, ...]:
    colour = parse_color(name)
    assert colour is not None
    return tuple(round(v, 3) for v in colour)


def centre(quad) -> tuple[float, float]:
    return sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4


def test_routes_are_drawn_as_their_spaces_in_their_colour_between_the_places(
        project, cardgen):
    rails(project)
    run = cardgen("build", "rails")
    assert run.code == 0, run.lines
    quads = filled_quads(project / "output/rails/rails-board-usa.pdf")
    count = {name: sum(1 for c, _ in quads if c == rgb(name))
             for name in ("yellow", "blue", "red", "orange", "black", "gray")}
    # Seattle-Helena 6 yellow, Portland-Helena 6 blue, Helena-Chicago 5 red; the double
    # routes: Chicago-Pittsburgh 3 orange + 3 black, Vancouver-Seattle and Seattle-Portland
    # grey and grey (1 + 1 each), Vancouver-Helena 4 grey
    assert count == {"yellow": 6, "blue": 6, "red": 5, "orange": 3, "black": 3, "gray": 8}
    red = sorted((q for c, q in quads if c == rgb("red")), key=lambda q: centre(q)[0])
    lengths = [math.dist(q[0], q[1]) for q in red]
    assert max(lengths) - min(lengths) < 0.01  # equal spaces
    assert abs(math.dist(red[0][0], red[0][3]) - 5 * MM) < 0.01  # space_width: 5mm thick
    for a, b in zip(red, red[1:]):  # a gap between them, the layout's 1.2 mm
        gap = math.dist(centre(a), centre(b)) - lengths[0]
        assert abs(gap - 1.2 * MM) < 0.05
    # from Helena's edge to Chicago's: the first space starts 4 mm (its radius) + 1.2 mm
    # from Helena's centre (110 mm, 70 mm from the board's top-left, margin 8 mm)
    helena = (110 * MM, None)
    nearest = min(min(p[0] for p in q) for q in red)
    assert nearest > helena[0] + 4 * MM
    # the double route's two lanes run side by side: the same length, 5 + 1.2 mm apart
    orange = sorted((q for c, q in quads if c == rgb("orange")), key=lambda q: centre(q)[0])
    black = sorted((q for c, q in quads if c == rgb("black")), key=lambda q: centre(q)[0])
    for o, k in zip(orange, black):
        assert abs(math.dist(centre(o), centre(k)) - 6.2 * MM) < 0.05
    # and every corner of theirs clears Chicago and Pittsburgh (8 mm places) by the gap: the
    # board (270 x 130 mm) centred on its A3 page, the places at (190, 80) and (240, 70) mm
    left, top = (297 * MM - 270 * MM) / 2, (420 * MM + 130 * MM) / 2
    for x, y in ((190, 80), (240, 70)):
        place = (left + x * MM, top - y * MM)
        nearest = min(math.dist(place, p) for q in orange + black for p in q)
        assert 5.2 * MM - 0.05 < nearest < 6 * MM  # 4 mm + 1.2 mm, the inner corner


PLACES = """\
    - {id: a, label: Alpha, x: 20mm, y: 20mm}
    - {id: b, label: Beta, x: 120mm, y: 20mm}
    - {id: c, label: Gamma, x: 120mm, y: 60mm}
    - {id: d, label: Delta, x: 20mm, y: 60mm}
    """


def test_spaces_and_double_routes_are_checked_at_their_lines(project, cardgen):
    bad_map(project, PLACES, """\
        - {from: a, to: b, spaces: 4, color: [orange, black]}
        - {from: b, to: c, spaces: 21}
        - {from: c, to: d, spaces: 0, width: 4mm}
        - {from: b, to: d, color: [red]}
        - {from: a, to: c, spaces: 2, wrap: left}
        - {from: c, to: a, length: 3}
        """)
    run = cardgen("validate", "bad")
    assert run.code == 1
    g = "cards/bad/game.yaml"
    assert run.lines[:-1] == [
        f"{g}:15:34: error: board 'm': route 2: spaces: 21 is not a whole number from 1 to 20 "
        "(the route's length in train spaces) [schema]",
        f"{g}:16:34: error: board 'm': route 3: spaces: 0 is not a whole number from 1 to 20 "
        "(the route's length in train spaces) [schema]",
        f"{g}:17:33: error: board 'm': route 4: color: a double route has two or three "
        "colours, not 1 [schema]",
        f"{g}:18:43: error: board 'm': route 5: wrap: a route over the board's edge is drawn "
        "as a line (give it no spaces and one colour) [schema]",
        f"{g}:19:34: error: board 'm': route 6: unknown key 'length' (a route has from, to, "
        "color, width, style, wrap and spaces) [schema]",
    ]


def test_spaces_that_do_not_fit_and_a_route_given_twice_are_said_at_their_route(
        project, cardgen):
    bad_map(project, PLACES, """\
        - {from: a, to: b, spaces: 4, color: [orange, black]}
        - {from: d, to: a, spaces: 12}
        - {from: a, to: d, color: gray}
        - {from: b, to: c, spaces: 6, color: [gray, gray]}
        """)
    run = cardgen("validate", "bad")
    assert run.code == 1
    g = "cards/bad/game.yaml"
    assert run.lines[:-1] == [
        f"{g}:15:34: error: board 'm': route d – a: 12 spaces do not fit in the 28.6 mm "
        "between its places (each would be under 2 mm); move the places apart, or give "
        "fewer spaces [board]",
        f"{g}:16:9: error: board 'm': route a – d is given twice (first at {g}:15:9); a "
        "double route is one route with a list of colours (color: [orange, black]) [board]",
    ]


def text_box(pdf: Path, text: str) -> tuple[float, float, float, float] | None:
    """(left, bottom, right, top) in points of a text on the first page, or None."""
    page = pypdfium2.PdfDocument(str(pdf))[0]
    found = page.get_textpage().search(text, match_case=True)
    hit = found.get_next()
    if hit is None:
        return None
    return page.get_textpage().get_charbox(hit[0])[:2] + \
        page.get_textpage().get_charbox(hit[0] + hit[1] - 1)[2:]


def test_a_map_prints_its_title_where_its_layout_says_and_none_when_empty(project, cardgen):
    import json

    game = rails(project)
    assert cardgen("build", "rails").code == 0
    pdf = project / "output/rails/rails-board-usa.pdf"
    box = text_box(pdf, "Rails across America")
    assert box is not None
    page = pypdfium2.PdfDocument(str(pdf))[0]
    # the board (270 x 130 mm) sits centred on its page; the title at its top-left, inside
    # its 8 mm margin, 16 pt
    left = (page.get_width() - 270 * MM) / 2
    top = (page.get_height() + 130 * MM) / 2
    assert abs(box[0] - (left + 8 * MM)) < 1.5
    assert abs(box[1] - (top - 8 * MM - 16 * 0.75)) < 1  # its baseline (no descender)
    layout = project / "layouts/boards/rails.yaml"
    layout.write_text(layout.read_text("utf-8") + "title_at: bottom-right\n", "utf-8")
    assert cardgen("build", "rails").code == 0
    box = text_box(pdf, "Rails across America")
    assert box is not None
    assert abs(box[2] - (left + (270 - 8) * MM)) < 1.5
    assert abs(box[1] - (top - (130 - 8) * MM)) < 1.5
    # title: "" prints none, and the board is still named by its id where a name is shown
    text = (game / "game.yaml").read_text("utf-8")
    (game / "game.yaml").write_text(text.replace("title: Rails across America",
                                                 'title: ""'), "utf-8")
    assert cardgen("build", "rails", "--tts").code == 0
    assert text_box(pdf, "Rails across America") is None
    assert "Rails" not in pypdfium2.PdfDocument(str(pdf))[0].get_textpage().get_text_range()
    saved = json.loads((project / "output/rails/tts/rails-tts.json").read_text("utf-8"))
    boards = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [b["Nickname"] for b in boards] == ["usa"]


def test_a_boards_papers_may_be_sizes_and_a2_as_format_md_says(project, cardgen):
    """docs/format.md: a paper is a name or a [width, height] pair; A2 and A1 are papers."""
    rails(project)
    layout = project / "layouts/boards/rails.yaml"
    written = layout.read_text("utf-8")
    pdf = project / "output/rails/rails-board-usa.pdf"
    for papers, size in (("[[300mm, 160mm], A3]", (300, 160)), ("[A2]", (420, 594)),
                         ("[a1]", (594, 841))):
        layout.write_text(written.replace("papers: [A3, A4]", f"papers: {papers}"), "utf-8")
        run = cardgen("build", "rails")
        assert run.code == 0, run.lines
        page = pypdfium2.PdfDocument(str(pdf))[0]
        assert sorted(round(v / MM) for v in (page.get_width(), page.get_height())) == \
            sorted(size), papers
    layout.write_text(written.replace("papers: [A3, A4]",
                                      "papers: [A3, [1mm, 2mm, 3mm], A7]"), "utf-8")
    run = cardgen("validate", "rails")
    assert run.code == 1
    at = "layouts/boards/rails.yaml"
    papers = "A1, A2, A3, A4, A5, B4, B5, B6, Letter, Half-letter, Legal or Tabloid"
    assert run.lines[:-1] == [
        f"{at}:5:14: error: item 2 of papers must be a paper ({papers}) or a [width, height] "
        "pair of lengths, not a list of 3 [schema]",
        f"{at}:5:31: error: item 3 of papers must be a paper ({papers}), not 'A7' [schema]"]
    layout.write_text(written.replace("papers: [A3, A4]", "papers: [[20mm, 30mm], A3]"),
                      "utf-8")
    run = cardgen("validate", "rails")
    assert run.code == 1
    assert run.lines[:-1] == [
        f"{at}:5:10: error: board layout 'rails': papers: 20 x 30 mm is not a paper's size: "
        "each side from 50 mm to 2000 mm [units]"]


def test_a_paper_given_as_its_size_is_said_as_its_size_in_a_revisions_causes():
    from generator.diff.boards import _board_value
    from generator.units import mm

    assert _board_value("papers", ("A3", (mm(600), mm(400)))) == "A3, 600 x 400 mm"
