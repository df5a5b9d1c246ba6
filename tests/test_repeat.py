"""`repeat:` (generator/elements/repeat.py): an element drawn once for each item of a list,
read back from the printed PDFs: the pips a card's cost draws are counted and placed by
the page's own operators, a resource row's texts are read off the page, and every problem
is a located error at its key, said once.
"""

from __future__ import annotations

import textwrap

import pikepdf
import pytest
from pypdf import PdfReader

from test_layout_engine import SLOT_X, SLOT_Y, build

MM = 72 / 25.4
PIP = (0.8, 0.2, 0.2)  # the pips' fill, as the PDF writes it


def painted(path, page: int = 0, color=PIP, curved: bool = False) -> list[tuple[float, float]]:
    """The centre (mm from the page's top-left) of every path filled in `color` on a page
    (`curved`: only paths drawn with curves, a circle's), forms included, as the content
    stream's own operators place it (cm, q/Q)."""
    with pikepdf.open(path) as pdf:
        pg = pdf.pages[page]
        height = float(pg.MediaBox[3])
        found: list[tuple[float, float]] = []
        _walk(pg, [1, 0, 0, 1, 0, 0], found, color, height, curved)
        return found


def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F]


def _walk(owner, ctm, found, color, height, curved=False) -> None:
    stack, fill, points, curves = [], None, [], False
    for operands, op in pikepdf.parse_content_stream(owner):
        name = str(op)
        if name == "q":
            stack.append((ctm, fill))
        elif name == "Q":
            ctm, fill = stack.pop()
        elif name == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif name == "rg":
            fill = tuple(round(float(v), 3) for v in operands)
        elif name in ("m", "l", "c", "re"):
            curves = curves or name == "c"
            values = [float(v) for v in operands]
            pairs = list(zip(values[::2], values[1::2])) if name != "re" else \
                [(values[0], values[1]), (values[0] + values[2], values[1] + values[3])]
            a, b, c, d, e, f = ctm
            points += [(a * x + c * y + e, b * x + d * y + f) for x, y in pairs]
        elif name in ("f", "f*", "B", "B*", "b", "b*", "S", "s", "n"):
            if name not in ("n", "S", "s") and fill == tuple(color) and points and \
                    (curves or not curved):
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                found.append((round((min(xs) + max(xs)) / 2 / MM, 2),
                              round((height - (min(ys) + max(ys)) / 2) / MM, 2)))
            points, curves = [], False
        elif name == "Do":
            xobject = owner.Resources.XObject[operands[0]]
            if xobject.get("/Subtype") == "/Form":
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                _walk(xobject, _mul(matrix, ctm), found, color, height, curved)


PIPS = """
    size: meishi
    elements:
      - name: pip
        type: circle
        x: 10mm
        y: 40mm
        width: 4mm
        height: 4mm
        fill: "#cc3333"
        repeat: {over: "{{ card.cost }}", step: [5mm, 0]}
"""


def _on(slot: int, pips) -> list[tuple[float, float]]:
    """The pips inside card slot `slot` of the A-One meishi sheet, in card millimetres."""
    col, row = slot % 2, slot // 2
    x0, y0 = SLOT_X + col * 91, SLOT_Y + row * 55
    return sorted((round(x - x0, 1), round(y - y0, 1)) for x, y in pips
                  if x0 <= x < x0 + 91 and y0 <= y < y0 + 55)


def test_pips_for_a_cost_are_counted_and_placed_by_the_page(project, cardgen):
    cards = ("  - {id: cheap, cost: 1}\n  - {id: dear, cost: 5}\n  - {id: free, cost: 0}\n"
             "  - {id: later, cost: TBD}\n")
    pdf, _ = build(project, cardgen, PIPS, cards=cards)
    pips = painted(pdf)
    assert _on(0, pips) == [(12.0, 42.0)]
    assert _on(1, pips) == [(12.0 + 5 * i, 42.0) for i in range(5)]
    assert _on(2, pips) == [] and _on(3, pips) == []  # none, and none yet (a draft)
    assert len(pips) == 6


def test_a_grid_a_track_and_the_item_in_every_key(project, cardgen):
    layout = """
        size: meishi
        elements:
          - name: space
            type: rect
            x: 5mm
            y: 5mm
            width: 6mm
            height: 6mm
            stroke: black
            fill: "{{ '#cc3333' if repeat.index == card.at else 'none' }}"
            repeat: {over: 12, columns: 4, step: [7mm, 0], row_step: [0, 8mm]}
          - name: number
            type: text
            text: "{{ n }}"
            x: "{{ 5 + repeat.index0 * 7 }}mm"
            y: 33mm
            width: 6mm
            height: 5mm
            size: 7pt
            align: center
            repeat: {over: [10, 20, 30], as: n}
    """
    pdf, _ = build(project, cardgen, layout, cards="  - {id: one, at: 7}\n")
    # Space 7 is row 1, column 2: 5 + 2 x 7 mm across, 5 + 8 mm down; its centre 3 mm in.
    assert _on(0, painted(pdf)) == [(22.0, 16.0)]
    text = PdfReader(pdf).pages[0].extract_text()
    assert "10" in text and "20" in text and "30" in text


def test_a_resource_row_of_icons_from_a_list_field(project, cardgen):
    layout = """
        size: meishi
        elements:
          - name: makes
            type: icon
            icon: "{{ r }}"
            x: 5mm
            y: 20mm
            width: 6mm
            height: 6mm
            repeat: {over: "{{ card.makes }}", as: r, step: [7mm, 0]}
    """
    icons = "icons:\n  wood: {glyph: 木}\n  ore: {glyph: 鉱}\n  wool: {glyph: 羊}\n"
    pdf, _ = build(project, cardgen, layout, game_extra=icons,
                   cards="  - {id: one, makes: [wood, ore, wool, ore]}\n")
    page = PdfReader(pdf).pages[0]
    shown: list[tuple[str, float]] = []
    page.extract_text(visitor_text=lambda t, cm, tm, *_: shown.append(
        (t.strip(), (cm[4] + tm[4] * cm[0]) / MM)) if t.strip() else None)
    assert [t for t, _ in shown] == ["木", "鉱", "羊", "鉱"]
    lefts = [x for _, x in shown]
    assert all(abs(b - a - 7) < 0.05 for a, b in zip(lefts, lefts[1:])), lefts


def _layout_with(repeat: str, extra: str = "") -> str:
    return textwrap.dedent(f"""\
        size: meishi
        elements:
          - name: pip
            type: circle
            x: 5mm
            y: 40mm
            width: 4mm
            height: 4mm
            fill: "#cc3333"
            repeat: {repeat}
    """) + extra


@pytest.mark.parametrize("repeat, cards, message", [
    ('{over: "{{ card.cost }}"}', "  - {id: one, cost: 100000000000}\n",
     "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: gives "
     "100,000,000,000 items; an element repeats at most 1,000 times on a face"),
    ('{over: "{{ card.cost }}"}', "  - {id: one, cost: -2}\n",
     "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: gives -2: "
     "a number of copies is 0 or more"),
    ('{over: "{{ card.name }}"}', "  - {id: one, name: Ore}\n",
     "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: gives 'Ore', "
     "which is neither a whole number nor a list"),
    ('{over: "{{ card.cots }}"}', "  - {id: one, cost: 2}\n",
     "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: there is no "
     "'cots' (did you mean 'cost'?)"),
    ('{over: "{{ range(10**9) }}"}', "  - {id: one}\n",
     "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: range() of "
     "1,000,000,000 numbers; at most 100,000"),
    ("{over: 5000}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:20: error: layout 'test-face': element 'pip': over must be a "
     "whole number from 0 to 1,000, a list of at most 1,000 items, or a template that gives "
     "one, such as {{ card.cost }}, not 5000"),
    ("{over: 3, as: card}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:27: error: layout 'test-face': element 'pip': repeat.as: 'card' "
     "is a name the templates already have (card, colors, data, deck, draft, editor_note, game, "
     "loop, macros, range, repeat); call the item something else, such as item or pip"),
    ("{over: 3, as: my-pip}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:27: error: layout 'test-face': element 'pip': as must be a name "
     "of letters, digits and _, not 'my-pip'"),
    ("{over: 3, columns: 0}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:32: error: layout 'test-face': element 'pip': columns must be "
     "from 1 to 1000, not 0"),
    ("{over: 3, step: [4mm]}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:29: error: layout 'test-face': element 'pip': step must have "
     "at least 2 items"),
    ("{over: 3, oops: 1}", "  - {id: one}\n",
     "layouts/test-face.yaml:10:29: error: layout 'test-face': element 'pip': unknown key "
     "'oops' (allowed: as, columns, over, row_step, step)"),
    ('{over: "{{ card.cost "}', "  - {id: one}\n",
     "layouts/test-face.yaml:10:20: error: layout 'test-face': element 'pip': repeat.over: "
     "template syntax: it ends before its closing }}"),
    ("{over: 3, step: [\"{{ card.gap }}\", 0]}", "  - {id: one, gap: wide}\n",
     "layouts/test-face.yaml:10:29: error: card 'one': element 'pip': repeat.step: 'wide' is "
     "not a length such as 14mm or 0.5in"),
])
def test_repeat_problems_are_located_once(project, cardgen, repeat, cards, message):
    _, run = build(project, cardgen, _layout_with(repeat), cards=cards, expect=1)
    errors = [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line]
    assert errors == [message]


def test_a_copy_that_fails_says_which_copy_once(project, cardgen):
    label = """\
  - name: label
    type: text
    text: "{{ r.name }}"
    x: 5mm
    y: 10mm
    width: 10mm
    height: 5mm
    size: 7pt
    repeat: {over: "{{ card.makes }}", as: r}
"""
    layout = _layout_with('{over: "{{ card.makes }}", as: r}', label)
    cards = "  - {id: one, makes: [{name: wood}, {nam: ore}, {nam: wool}]}\n"
    _, run = build(project, cardgen, layout, cards=cards, expect=1)
    errors = [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line]
    assert errors == ["layouts/test-face.yaml:13:11: error: card 'one': element 'label': text: "
                      "there is no 'name' (did you mean 'nam'?) (copy 2 of 3, "
                      "r = {'nam': 'ore'})"]


def test_a_value_no_copy_changes_is_said_once_for_every_card_and_copy(project, cardgen):
    """A repeated text written in the layout (no template) with a character its font lacks:
    one error at the layout's text, not one a card naming a copy (the Codenames tester's
    assassin mark on every key card)."""
    mark = """\
  - name: mark
    type: text
    text: "\u2715"
    font: gothic
    x: 5mm
    y: 10mm
    width: 5mm
    height: 5mm
    size: 7pt
    when: "item == 'A'"
    repeat: {over: "{{ card.grid | list }}"}
"""
    layout = _layout_with("{over: 3}", mark)
    cards = "".join(f"  - {{id: k{n}, grid: {grid}}}\n"
                    for n, grid in enumerate(["RAB", "ABR", "BRA", "AAR"]))
    _, run = build(project, cardgen, layout, cards=cards, expect=1)
    errors = [line for line in run.lines if ": error: " in line]
    assert errors == ["layouts/test-face.yaml:13:11: error: card 'k0': element 'mark': text has "
                      "characters the font 'gothic' cannot draw: U+2715 '\u2715' [glyph]"]


def test_validate_finds_what_build_would(project, cardgen):
    build(project, cardgen, _layout_with('{over: "{{ card.cost }}"}'),
          cards="  - {id: one, cost: 5000}\n", expect=1)
    run = cardgen("validate", "face")
    assert run.code == 1
    assert [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line] == [
        "layouts/test-face.yaml:10:20: error: card 'one': element 'pip': repeat.over: gives "
        "5,000 items; an element repeats at most 1,000 times on a face"]


def _section_examples(page: str, heading: str) -> list:
    """The YAML examples of one section of a docs page, each a list of elements."""
    import re
    import yaml
    from conftest import REPO
    text = (REPO / page).read_text("utf-8")
    section = text[text.index(heading):]
    section = section[:section.index("\n## ", 1)]
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]


@pytest.mark.parametrize("page, heading", [
    ("docs/layouts.md", "## Repeated elements"), ("docs/ja/layouts.md", "## 要素の繰り返し")])
def test_the_docs_examples_draw_what_they_say(project, cardgen, page, heading):
    import yaml
    examples = _section_examples(page, heading)
    assert len(examples) == 3
    elements = [{"name": "ground", "type": "rect", "stroke": "ink"}]
    for example in examples:
        elements += example
    (project / "layouts/test-face.yaml").write_text(yaml.safe_dump(
        {"size": "poker", "elements": elements}, allow_unicode=True), "utf-8")
    (project / "layouts/test-back.yaml").write_text("size: poker\nelements: []\n", "utf-8")
    game = project / "cards/face"
    game.mkdir()
    (game / "game.yaml").write_text(
        "title: Docs\nicons:\n  wood: {glyph: 木}\n  ore: {glyph: 鉱}\ndecks:\n  - id: main\n"
        "    cards: cards.yaml\n    front: test-face\n    back: test-back\n"
        "    sheet: plain-a4\n", "utf-8")
    (game / "cards.yaml").write_text(
        "cards:\n  - {id: one, cost: 3, makes: [wood, ore, ore], start: 7}\n", "utf-8")
    run = cardgen("build", "face")
    assert run.code == 0, run.lines
    pdf = project / "output/face/face-fronts.pdf"
    gold = painted(pdf, color=(0.788, 0.635, 0.153))  # the palette's gold
    # Three pips in a row 5 mm apart, and the track's seventh space (row 1, column 1).
    assert len(gold) == 4, gold
    text = PdfReader(pdf).pages[0].extract_text()
    assert text.count("鉱") == 2 and "木" in text
    for n in (1, 7, 20):
        assert str(n) in text


def test_a_board_cell_layout_repeats_too(project, cardgen):
    """The worked example's hexes show each terrain's movement cost as pips, from the
    types' own `cost:` (a cell layout is a card layout)."""
    from test_boards import skirmish
    game = skirmish(project)
    (game / "map.yaml").write_text((game / "map.yaml").read_text("utf-8").replace(
        "forest: {color: \"#a9cf94\", name: 森}", "forest: {color: \"#a9cf94\", name: 森, cost: 2}")
        .replace("hill: {color: \"#dcc096\", name: 丘}", "hill: {color: \"#dcc096\", name: 丘, "
                 "cost: 3}"), "utf-8")
    hexes = project / "layouts/skirmish-hex.yaml"
    hexes.write_text(hexes.read_text("utf-8") + textwrap.indent(textwrap.dedent("""\
          - name: cost
            type: circle
            x: 8mm
            y: 24mm
            width: 2mm
            height: 2mm
            fill: "#cc3333"
            repeat: {over: "{{ card.cost | default(0) }}", step: [3mm, 0]}
    """), "  "), "utf-8")
    run = cardgen("build", "skirmish")
    assert run.code == 0, run.lines
    board = project / "output/skirmish/skirmish-board-map.pdf"
    import yaml
    cells = yaml.safe_load((game / "map.yaml").read_text("utf-8"))["cells"]
    costs = {"forest": 2, "hill": 3}
    expected = sum(costs.get(c["type"], 0) for c in cells)
    pips = [p for page in range(len(PdfReader(board).pages)) for p in painted(board, page)]
    assert expected > 10 and len(pips) == expected


def test_over_a_data_table_with_its_keys_and_a_copy_left_out_keeping_its_place(project,
                                                                               cardgen):
    game = project / "cards/face"
    game.mkdir()
    (game / "track.yaml").write_text("spaces: {start: 0, bridge: 2, gate: 5, keep: 9}\n",
                                     "utf-8")
    layout = """
        size: meishi
        elements:
          - name: space
            type: circle
            x: 5mm
            y: 10mm
            width: 4mm
            height: 4mm
            fill: "#cc3333"
            when: "item > 0"
            repeat: {over: "{{ data.track.spaces }}", step: [6mm, 0]}
          - name: label
            type: text
            text: "{{ repeat.key }}={{ item }}"
            x: 5mm
            y: 20mm
            width: 20mm
            height: 5mm
            size: 7pt
            repeat: {over: "{{ data.track.spaces }}", step: [0, 5mm]}
    """
    pdf, _ = build(project, cardgen, layout, game_extra="data:\n  track: track.yaml\n")
    # start (0) is left out; bridge, gate and keep keep their places: 2nd, 3rd, 4th.
    assert _on(0, painted(pdf)) == [(13.0, 12.0), (19.0, 12.0), (25.0, 12.0)]
    text = PdfReader(pdf).pages[0].extract_text()
    for label in ("start=0", "bridge=2", "gate=5", "keep=9"):
        assert label in text


def test_diff_names_the_repeat_key_that_changed_and_the_field_it_repeats_over(project, cardgen):
    """A revision's causes: a changed step is `repeat.step`, a changed cost the field."""
    import yaml
    from test_revision_causes import ROLE, git
    from conftest import write_game
    layout = {**ROLE, "elements": ROLE["elements"] + [
        {"name": "pip", "type": "circle", "x": "4mm", "y": "48mm", "width": "3mm",
         "height": "3mm", "fill": "#cc3333",
         "repeat": {"over": "{{ card.cost }}", "step": ["4mm", 0]}}]}
    folder = write_game(project, "roles", {"title": "Roles", "lang": "en", "decks": [
        {"id": "roles", "front": "role-front"}], "data": {"board": "board.yaml"}},
        [{"id": "scout", "name": "Scout", "text": "Look.", "cost": 2},
         {"id": "guard", "name": "Guard", "text": "Block.", "cost": 1}],
        layouts={"role-front": layout},
        files={"board.yaml": b"roles:\n  scout: {power: 2}\n  guard: {power: 3}\n"})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text("utf-8").replace(
        "cost: 1", "cost: 3"), "utf-8")
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    assert run.out.splitlines()[1:3] == ["~ card 'guard' (roles): reprint front",
                                         "    field cost: 1 -> 3"]
    layout["elements"][-1]["repeat"]["step"] = ["5mm", 0]
    (project / "layouts/role-front.yaml").write_text(yaml.safe_dump(layout), "utf-8")
    run = cardgen("diff", "roles")
    cause = "    layout 'role-front': element 'pip' (repeat.step: ['4mm', 0] -> ['5mm', 0])"
    assert run.out.splitlines()[1:6] == ["~ card 'scout' (roles): reprint front", cause,
                                         "~ card 'guard' (roles): reprint front",
                                         "    field cost: 1 -> 3", cause]


def test_a_data_list_too_long_is_said_at_the_data(project, cardgen):
    game = project / "cards/face"
    game.mkdir()
    (game / "track.yaml").write_text("spaces: [" + ", ".join(["1"] * 1200) + "]\n", "utf-8")
    _, run = build(project, cardgen, _layout_with('{over: "{{ data.track.spaces }}"}'),
                   cards="  - {id: one}\n  - {id: two}\n",
                   game_extra="data:\n  track: track.yaml\n", expect=1)
    assert [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line] == [
        "cards/face/track.yaml:1:9: error: data track.spaces: gives 1,200 items; an element "
        "repeats at most 1,000 times on a face (used by layout 'test-face', element 'pip', "
        "repeat.over)"]


@pytest.mark.parametrize("text, message", [
    ("{{ '{:,}'.format(card.name) }}", "a format with ',' is for numbers, and the value is text"),
    ("{{ '{:d}'.format(card.name) }}", "the format code 'd' does not suit text"),
])
def test_a_format_that_does_not_suit_the_value_is_said_in_cardgens_words(project, cardgen,
                                                                        text, message):
    """(Found by the outbreak game: a population TBD through '{:,}'.format said Python's
    "Cannot specify ',' with 's'.")"""
    layout = f"size: meishi\nelements:\n  - {{name: t, type: text, text: \"{text}\"}}\n"
    _, run = build(project, cardgen, layout, cards="  - {id: one, name: One}\n", expect=1)
    assert [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line] == [
        f"layouts/test-face.yaml:3:33: error: card 'one': element 't': text: {message}"]
