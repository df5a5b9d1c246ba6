"""The layout engine, read back from rasterised pages and extracted text.

Each test writes a small layout for one card on the A-One 51002 sheet (slot 0 at
14 mm, 11 mm from the page's top-left), builds it, and measures the result.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from PIL import Image as PILImage

from pdfcheck import Raster, fonts as page_fonts, reader

SLOT_X, SLOT_Y = 14.0, 11.0  # slot 0's top-left corner on the page, mm


def build(project, cardgen, layout: str, cards: str = "  - id: one\n    name: 一\n",
          game_extra: str = "", expect: int = 0, args=()):
    (project / "layouts/test-face.yaml").write_text(textwrap.dedent(layout), "utf-8")
    game = project / "cards/face"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: テスト\ndecks:\n  - id: main\n    cards: cards.yaml\n    front: test-face\n"
        + game_extra, "utf-8")
    (game / "cards.yaml").write_text("cards:\n" + cards, "utf-8")
    run = cardgen("build", *args, "face")
    assert run.code == expect, run.lines
    return project / "output/face/face-fronts.pdf", run


def ink(raster: Raster, x0=0.0, y0=0.0, x1=91.0, y1=55.0, dark=True):
    """Bounding box (mm, card coordinates) of the non-white pixels inside a card area."""
    px = raster.px_per_mm
    box = (int((SLOT_X + x0) * px), int((SLOT_Y + y0) * px), int((SLOT_X + x1) * px),
           int((SLOT_Y + y1) * px))
    crop = raster.image.crop(box).convert("L").point(lambda v: 255 if v < 200 else 0)
    found = crop.getbbox()
    assert found, "nothing drawn there"
    return tuple(v / px + off for v, off in zip(found, (x0, y0, x0, y0)))


def close(actual, expected, tol=0.3):
    assert all(abs(a - e) < tol for a, e in zip(actual, expected)), (actual, expected)


def test_units_mm_cm_in_pt_percent_and_sums(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: rect, x: 10mm, y: 1cm, width: 0.5in, height: 36pt, fill: black}
          - {name: b, type: rect, x: 50%, y: 100% - 15mm, width: 100% - 60mm, height: 10%,
             fill: black}
    """)
    r = Raster(pdf, 0)
    close(ink(r, 0, 0, 45, 30), (10, 10, 10 + 12.7, 10 + 12.7))
    close(ink(r, 40, 30, 91, 55), (45.5, 40, 45.5 + 31, 40 + 5.5))


def test_rect_radius_ellipse_line_polygon(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: r, type: rect, x: 5mm, y: 5mm, width: 20mm, height: 20mm, radius: 5mm,
             fill: black}
          - {name: e, type: circle, x: 30mm, y: 5mm, width: 20mm, height: 20mm, fill: black}
          - {name: l, type: line, x: 55mm, y: 5mm, x2: 85mm, y2: 5mm, stroke: black,
             stroke_width: 1mm}
          - {name: p, type: polygon, sides: 4, x: 55mm, y: 25mm, width: 20mm, height: 20mm,
             fill: black}
    """)
    r = Raster(pdf, 0)
    close(ink(r, 0, 0, 28, 28), (5, 5, 25, 25))
    assert r.is_white(SLOT_X + 5.3, SLOT_Y + 5.3)  # the rounded corner is cut away
    close(ink(r, 28, 0, 52, 28), (30, 5, 50, 25))
    assert r.is_white(SLOT_X + 31, SLOT_Y + 6) and not r.is_white(SLOT_X + 40, SLOT_Y + 15)
    close(ink(r, 53, 0, 91, 10), (55, 4.5, 85, 5.5))
    close(ink(r, 53, 20, 91, 50), (55, 25, 75, 45))  # a diamond touches its box's edges...
    assert r.is_white(SLOT_X + 56, SLOT_Y + 26)  # ...but not its corners


def test_colours_named_hex_cmyk_and_opacity(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: rect, x: 5mm, y: 5mm, width: 10mm, height: 10mm,
             fill: "cmyk(0, 1, 1, 0)"}
          - {name: b, type: rect, x: 20mm, y: 5mm, width: 10mm, height: 10mm, fill: "#0000ff"}
          - {name: c, type: rect, x: 35mm, y: 5mm, width: 10mm, height: 10mm, fill: black,
             opacity: 0.5}
          - {name: d, type: rect, x: 50mm, y: 5mm, width: 10mm, height: 10mm, fill: house}
    """, game_extra="colors:\n  house: \"#00ff00\"\n")
    r = Raster(pdf, 0)
    red, blue, gray, green = (r.at(SLOT_X + x, SLOT_Y + 10) for x in (10, 25, 40, 55))
    assert red[0] > 200 and red[1] < 80 and red[2] < 80
    assert blue == (0, 0, 255)
    assert all(110 < v < 145 for v in gray)
    assert green == (0, 255, 0)


def test_rotation_turns_an_element_about_its_centre(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: bar, type: rect, x: 20mm, y: 25mm, width: 30mm, height: 4mm, fill: black,
             rotate: 90}
    """)
    close(ink(Raster(pdf, 0)), (33, 12, 37, 42))


def test_when_skips_an_element(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: rect, x: 5mm, y: 5mm, width: 10mm, height: 10mm, fill: black,
             when: "card.copies > 1"}
          - {name: b, type: rect, x: 20mm, y: 5mm, width: 10mm, height: 10mm, fill: black,
             when: "card.copies == 1"}
    """)
    r = Raster(pdf, 0)
    assert r.is_white(SLOT_X + 10, SLOT_Y + 10) and not r.is_white(SLOT_X + 25, SLOT_Y + 10)


def test_image_contain_and_cover(project, cardgen):
    art = project / "cards/face/art"
    art.mkdir(parents=True)
    PILImage.new("RGB", (200, 100), (255, 0, 0)).save(art / "red.png")
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: image, src: art/red.png, x: 5mm, y: 5mm, width: 20mm, height: 20mm}
          - {name: b, type: image, src: art/red.png, fit: cover, x: 40mm, y: 5mm, width: 20mm,
             height: 20mm}
    """)
    r = Raster(pdf, 0)
    close(ink(r, 0, 0, 30, 30), (5, 10, 25, 20))  # 2:1 image, contained: 20 x 10 mm, centred
    close(ink(r, 35, 0, 70, 30), (40, 5, 60, 25))  # covered: fills the box, clipped


def test_element_extends_and_layout_extends(project, cardgen):
    (project / "layouts/test-base.yaml").write_text(textwrap.dedent("""
        size: meishi
        elements:
          - {name: box, type: rect, x: 5mm, y: 5mm, width: 10mm, height: 10mm, fill: black}
    """), "utf-8")
    pdf, _ = build(project, cardgen, """
        extends: test-base
        elements:
          - {name: box, x: 20mm}                      # overrides the inherited element in place
          - {name: twin, extends: box, y: 30mm}       # takes box's keys, moves down
    """)
    r = Raster(pdf, 0)
    close(ink(r, 0, 0, 91, 25), (20, 5, 30, 15))
    close(ink(r, 0, 25, 91, 55), (20, 30, 30, 40))


TEXT = """
        size: meishi
        elements:
          - name: body
            type: text
            text: "{{ card.effect }}"
            x: 5mm
            y: 5mm
            width: 40mm
            height: 20mm
            size: 10pt
            line_spacing: 1
"""


def test_fit_error_reports_what_the_text_needs(project, cardgen):
    long = "イベントカードの使用の宣言時に宣言する。" * 6
    _, run = build(project, cardgen, TEXT, cards=f"  - id: one\n    effect: {long}\n", expect=1)
    assert run.lines[0] == (
        "cards/face/cards.yaml:3:13: error: card 'one': effect (element 'body') does not fit the "
        "40.0 x 20.0 mm box: it needs 38.8 mm of height at 10 pt (fit: shrink with a min_size "
        "lets it shrink) [fit]")


def test_fit_shrink_sets_the_text_smaller_inside_the_box(project, cardgen):
    long = "イベントカードの使用の宣言時に宣言する。" * 6
    pdf, run = build(project, cardgen,
                     TEXT + "            fit: shrink\n            min_size: 6pt\n",
                     cards=f"  - id: one\n    effect: {long}\n")
    left, top, right, bottom = ink(Raster(pdf, 0))
    assert left >= 5 - 0.3 and right <= 45 + 0.3 and top >= 5 - 0.3 and bottom <= 25 + 0.3
    assert long.replace("\n", "") in reader(pdf).pages[0].extract_text().replace("\n", "")


def test_fit_shrink_shrinks_a_long_word_before_it_splits_it(project, cardgen):
    """'Development' at 14 pt is wider than a 20 mm box: with a declared shrink it is set
    smaller, whole, on one line; it was split as 'Developme / nt' at full size."""
    from test_japanese_typesetting import glyphs
    layout = (TEXT.replace("width: 40mm", "width: 20mm").replace("size: 10pt", "size: 14pt")
              + "            fit: shrink\n            min_size: 6pt\n")
    pdf, run = build(project, cardgen, layout, cards="  - id: one\n    effect: Development\n")
    rows: dict = {}
    sizes = set()
    for ch, _x, y, size in glyphs(pdf):
        rows[round(y, 1)] = rows.get(round(y, 1), "") + ch
        sizes.add(round(size, 1))
    assert list(rows.values()) == ["Development"], rows
    assert max(sizes) < 14


def test_kinsoku_in_the_printed_lines(project, cardgen):
    text = ("「タイミング：イベントカード」「条件：葉8以上を1枚消費」"
            "イベントカードの使用の宣言時に宣言する。そのカードの効果を1回打ち消す。")
    pdf, _ = build(project, cardgen, TEXT.replace("width: 40mm", "width: 31mm")
                   .replace("height: 20mm", "height: 45mm"),
                   cards=f"  - id: one\n    effect: \"{text}\"\n")
    from test_japanese_typesetting import glyphs  # lines by baseline: JLREQ spacing splits runs
    rows: dict = {}
    for ch, _x, y, _size in glyphs(pdf):
        rows[round(y, 1)] = rows.get(round(y, 1), "") + ch
    lines = [rows[y] for y in sorted(rows, reverse=True)]
    assert "".join(lines) == text
    assert len(lines) >= 4
    for line in lines[1:]:
        assert line[0] not in "、。」』）・ーゃゅょっャュョッ？！…：", lines
    for line in lines[:-1]:
        assert line[-1] not in "「『（", lines


def test_inline_icon_is_the_em_box_of_the_text(project, cardgen):
    art = project / "cards/face/art"
    art.mkdir(parents=True)
    PILImage.new("RGB", (100, 100), (255, 0, 0)).save(art / "sword.png")
    pdf, _ = build(project, cardgen, TEXT.replace("size: 10pt", "size: 20pt"),
                   cards="  - id: one\n    effect: 攻撃<icon sword>力\n",
                   game_extra="icons:\n  sword: {image: art/sword.png}\n")
    r = Raster(pdf, 0)
    # Red pixels only: the icon. With line_spacing 1 the first line's em box starts at the
    # box's top (5 mm) and is 20 pt (7.056 mm) tall; the icon must fill exactly that.
    px = r.px_per_mm
    reds = [(x, y) for x in range(int((SLOT_X + 5) * px), int((SLOT_X + 45) * px))
            for y in range(int((SLOT_Y + 4) * px), int((SLOT_Y + 14) * px))
            if r.pixels[x, y][0] > 200 and r.pixels[x, y][1] < 60]
    top = min(y for _, y in reds) / px - SLOT_Y
    bottom = max(y for _, y in reds) / px - SLOT_Y
    assert abs(top - 5) < 0.3 and abs(bottom - (5 + 7.056)) < 0.3


def test_vertical_text_runs_down_right_to_left_with_the_long_vowel_turned(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - name: name
            type: text
            vertical: true
            text: "ダーク"
            x: 30mm
            y: 5mm
            width: 20mm
            height: 45mm
            size: 30pt
            line_spacing: 1
            align: center
    """)
    r = Raster(pdf, 0)
    # ー, the second of three 30 pt (10.6 mm) cells from the top, is a vertical stroke.
    left, top, right, bottom = ink(r, 30, 5 + 10.58 + 0.5, 50, 5 + 2 * 10.58 - 0.5)
    assert bottom - top > 3 * (right - left), (left, top, right, bottom)
    # Extraction puts a space at the turned glyph; the characters are all there, in order.
    text = reader(pdf).pages[0].extract_text().replace("\n", "").replace(" ", "")
    assert text == "ダーク"


def _labels(pdf: Path, names: set[str]) -> list[tuple[str, float, float, float]]:
    """The guide labels on the first page: (name, x, y of the baseline, size) in points."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip() in names:
            a, b, c, d, e, f = cm
            x, y = tm[4] * a + tm[5] * c + e, tm[4] * b + tm[5] * d + f
            found.append((text.strip(), x, y, size * tm[3] * d))
    reader(pdf).pages[0].extract_text(visitor_text=visit)
    return found


def test_guides_go_to_their_own_file_and_their_labels_meet_no_other(project, cardgen):
    """`--guides` leaves the printable fronts alone (a designer could print the guides by
    mistake) and writes <stem>-fronts-guides.pdf beside them, said in the output; on a dense
    card, the names of boxes that share a corner are set apart, not on top of each other."""
    names = {"portrait", "frame", "badge", "corner", "tag"}
    pdf, run = build(project, cardgen, """
        size: meishi
        elements:
          - {name: portrait, type: rect, x: 5mm, y: 5mm, width: 10mm, height: 10mm}
          - {name: frame, type: rect, x: 5mm, y: 5mm, width: 30mm, height: 20mm}
          - {name: badge, type: rect, x: 5mm, y: 5mm, width: 12mm, height: 3mm}
          - {name: corner, type: rect, x: 5mm, y: 5mm, width: 40mm, height: 30mm}
          - {name: tag, type: rect, x: 6mm, y: 5.5mm, width: 8mm, height: 8mm}
    """, args=("--guides",))
    assert not names & set(reader(pdf).pages[0].extract_text().split())
    guided = pdf.with_name("face-fronts-guides.pdf")
    assert "wrote output/face/face-fronts-guides.pdf (1 page)" in run.lines
    labels = _labels(guided, names)
    assert {name for name, *_ in labels} == names
    for i, (n1, x1, y1, s1) in enumerate(labels):
        for n2, x2, y2, s2 in labels[i + 1:]:
            # each label's box: its width at about 0.6 em a letter, ascent to descent
            apart_x = x1 + 0.6 * s1 * len(n1) <= x2 or x2 + 0.6 * s2 * len(n2) <= x1
            apart_y = abs(y1 - y2) >= 0.95 * max(s1, s2)
            assert apart_x or apart_y, (n1, x1, y1, n2, x2, y2)
    r = Raster(guided, 0)
    # The trim line: red pixels along the card's top edge, just inside it.
    reds = [r.at(SLOT_X + 45, SLOT_Y + d / 20) for d in range(0, 6)]
    assert any(p[0] > 150 and p[1] < 120 for p in reds), reds
    plain = Raster(pdf, 0)
    assert not any(p[0] > 150 and p[1] < 120 for p in
                   (plain.at(SLOT_X + 45, SLOT_Y + d / 20) for d in range(0, 6)))


def test_missing_glyph_falls_back_to_a_declared_family(project, cardgen):
    from conftest import REPO

    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not dejavu.exists():
        pytest.skip("DejaVu Sans (a font without Japanese) is not installed")
    fonts = project / "fonts"
    fonts.unlink()  # the fixture's link to the repository's fonts/
    fonts.mkdir()
    for f in ("BIZUDPGothic-Regular.ttf", "BIZUDPGothic-Bold.ttf", "BIZUDPMincho-Regular.ttf"):
        shutil.copyfile(REPO / "fonts" / f, fonts / f)  # a link out of fonts/ is refused
    shutil.copyfile(dejavu, fonts / "DejaVuSans.ttf")
    (fonts / "fonts.yaml").write_text(textwrap.dedent("""
        families:
          gothic: {regular: BIZUDPGothic-Regular.ttf, bold: BIZUDPGothic-Bold.ttf}
          mincho: {regular: BIZUDPMincho-Regular.ttf}
          latin: {regular: DejaVuSans.ttf, fallback: [gothic]}
    """), "utf-8")
    pdf, _ = build(project, cardgen,
                   TEXT.replace("size: 10pt", "size: 10pt\n            font: latin"),
                   cards="  - id: one\n    effect: Knight 騎士\n")
    # Extraction breaks the line where the font changes; the text is all there.
    assert "Knight 騎士" in reader(pdf).pages[0].extract_text().replace("\n", "")
    used = set(page_fonts(reader(pdf).pages[0]))
    assert any("DejaVu" in f for f in used) and any("BIZUDPGothic" in f for f in used)


def test_icon_elements_from_the_games_icon_set(project, cardgen):
    art = project / "cards/face/art"
    art.mkdir(parents=True)
    PILImage.new("RGB", (100, 100), (0, 0, 255)).save(art / "shield.png")
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: icon, icon: heart, x: 5mm, y: 5mm, width: 10mm, height: 10mm}
          - {name: b, type: icon, icon: "{{ card.guard }}", x: 30mm, y: 5mm, width: 10mm,
             height: 10mm}
    """, cards="  - id: one\n    guard: shield\n",
        game_extra="icons:\n  heart: {glyph: ♥, color: red}\n  shield: {image: art/shield.png}\n")
    r = Raster(pdf, 0)
    heart = ink(r, 0, 0, 25, 25)
    assert 5 - 0.3 <= heart[0] and heart[2] <= 15 + 0.3
    assert 5 - 0.3 <= heart[1] and heart[3] <= 15 + 0.3
    red = r.at(SLOT_X + (heart[0] + heart[2]) / 2, SLOT_Y + (heart[1] + heart[3]) / 2)
    assert red[0] > 180 and red[1] < 80
    close(ink(r, 25, 0, 50, 25), (30, 5, 40, 15))
    assert r.at(SLOT_X + 35, SLOT_Y + 10) == (0, 0, 255)


def test_phrase_wrap_breaks_only_between_phrases(project, cardgen):
    skill = "我が残せるは傲慢なる王の守護心"
    layout = TEXT.replace("width: 40mm", "width: 30mm").replace("height: 20mm", "height: 30mm")

    def lines(extra: str) -> list[str]:
        pdf, _ = build(project, cardgen, layout + extra,
                       cards=f"  - id: one\n    effect: {skill}\n")
        return [line for line in reader(pdf).pages[0].extract_text().splitlines() if line.strip()]

    normal = lines("")
    phrased = lines("            wrap: phrase\n")
    assert "".join(normal) == "".join(phrased) == skill
    phrases = ["我が", "残せるは", "傲慢なる", "王の", "守護心"]  # BudouX's phrases
    ends = {sum(len(p) for p in phrases[:k]) for k in range(1, len(phrases) + 1)}
    assert all(sum(len(line) for line in phrased[:k]) in ends for k in range(1, len(phrased) + 1))
    assert phrased != normal  # plain kinsoku breaks inside a word here


def test_what_many_cards_share_is_drawn_once_as_a_form(project, cardgen):
    effect = "手札から1枚捨てて、カードを2枚引く。"
    cards = "".join(f"  - {{id: c{n}, name: 名前{n}, effect: {effect}}}\n" for n in range(20))
    pdf, _ = build(project, cardgen, """\
        size: meishi
        elements:
          - {name: label, type: text, text: 効果, x: 5mm, y: 5mm, width: 20mm, height: 6mm,
             size: 10pt}
          - {name: title, type: text, text: "{{ card.name }}", x: 30mm, y: 5mm, width: 50mm,
             height: 6mm, size: 10pt}
          - {name: effect, type: text, text: "{{ card.effect }}", x: 5mm, y: 20mm, width: 80mm,
             height: 20mm, size: 9pt}
        """, cards)
    page = reader(pdf).pages[0]
    forms = [xo.get_object() for xo in page["/Resources"]["/XObject"].values()]
    assert len(forms) == 2  # the label and the effect; each card's own name is drawn in place
    assert all(f["/Subtype"] == "/Form" for f in forms)
    text = page.extract_text()
    assert text.count("効果") == 10 and text.count("名前") == 10
    assert text.replace("\n", "").count(effect) == 10
    raster = Raster(pdf, 0, dpi=150)
    for slot in range(10):  # every card shows the shared text in its own effect box
        dx, dy = (slot % 2) * 91.0, (slot // 2) * 55.0
        x0, y0, x1, y1 = ink(raster, dx + 4, dy + 19, dx + 86, dy + 41)
        close((x0 - dx, y0 - dy), (5.0, 20.0), tol=1.0)


def test_cards_that_print_the_same_share_one_form_whatever_objects_hold_them(project, cardgen):
    """Forms are keyed on what a face prints (identity.py), not on which object the layout
    made: two cards with different ids and the same printed face are one form, placed
    twice; a third card that prints differently is drawn in place."""
    cards = ("  - {id: a1, name: 同じ}\n  - {id: a2, name: 同じ}\n  - {id: b, name: 違う}\n")
    pdf, _ = build(project, cardgen, """\
        size: meishi
        elements:
          - {name: title, type: text, text: "{{ card.name }}", x: 5mm, y: 5mm, width: 50mm,
             height: 8mm, size: 12pt}
          - {name: frame, type: rect, x: 2mm, y: 2mm, width: 100% - 4mm, height: 100% - 4mm,
             stroke: black}
        """, cards)
    page = reader(pdf).pages[0]
    xobjects = page["/Resources"]["/XObject"]
    faces = [name for name in xobjects if xobjects[name].get_object()["/Subtype"] == "/Form"]
    content = page.get_contents().get_data().decode("latin-1")
    used = [name for name in faces if content.count(f"{name} Do") == 2]
    assert len(used) == 1, (faces, content.count(" Do"))  # a1 and a2: one form, drawn twice
    assert page.extract_text().count("同じ") == 2 and page.extract_text().count("違う") == 1
    raster = Raster(pdf, 0, dpi=150)
    for slot in range(3):  # each card's frame is in its own slot
        dx, dy = (slot % 2) * 91.0, (slot // 2) * 55.0
        x0, y0, _, _ = ink(raster, dx + 1, dy + 1, dx + 10, dy + 10)
        close((x0 - dx, y0 - dy), (2.0, 2.0), tol=0.5)


def test_a_game_carries_its_own_font_with_its_licence(project, cardgen):
    from pdfcheck import fonts
    game = project / "cards/face"
    game.mkdir()
    (game / "fonts").mkdir()
    shutil.copy(project / "fonts/BIZUDPMincho-Regular.ttf", game / "fonts/Serif.ttf")
    extra = "fonts:\n  serif:\n    regular: fonts/Serif.ttf\n    fallback: [gothic]\n"
    layout = """\
        size: meishi
        elements:
          - {name: t, type: text, font: serif, text: "{{ card.name }}", x: 5mm, y: 5mm,
             width: 60mm, height: 10mm, size: 12pt}
        """
    pdf, run = build(project, cardgen, layout, game_extra=extra)
    assert "BIZUDPMincho-Regular" in " ".join(fonts(reader(pdf).pages[0]))
    assert "一" in reader(pdf).pages[0].extract_text()
    warning = [line for line in run.lines if ": warning: " in line]
    assert warning == ["cards/face/game.yaml:8:5: warning: font family 'serif': no licence file "
                       "beside 'fonts/Serif.ttf' (OFL.txt, OFL, LICENSE...); a game folder is "
                       "shared, so its fonts must be ones you may share: put the licence beside "
                       "the font, or name it with licence: [font]"]
    shutil.copy(project / "fonts/OFL.txt", game / "fonts/OFL.txt")  # the licence beside it
    _, run = build(project, cardgen, layout, game_extra=extra)
    assert not [line for line in run.lines if ": warning: " in line]
    # A font file outside the game folder is refused, as every file a game names.
    _, run = build(project, cardgen, layout, expect=1,
                   game_extra="fonts:\n  serif:\n"
                              "    regular: ../../fonts/BIZUDPMincho-Regular.ttf\n")
    assert any("font family 'serif': '../../fonts/BIZUDPMincho-Regular.ttf'" in line
               and "[path]" in line for line in run.lines), run.lines


def _fills(path: Path) -> set[tuple]:
    """Every RGB fill colour set in a PDF's pages and forms (rounded to 3 places)."""
    import pikepdf
    found = set()
    with pikepdf.open(path) as pdf:
        streams, seen = [p for p in pdf.pages], set()
        while streams:
            stream = streams.pop()
            for operands, op in pikepdf.parse_content_stream(stream):
                if str(op) == "rg":
                    found.add(tuple(round(float(v), 3) for v in operands))
            resources = stream.get("/Resources") or {}
            for _, xo in (resources.get("/XObject") or {}).items():
                if xo.get("/Subtype") == "/Form" and xo.objgen not in seen:
                    seen.add(xo.objgen)
                    streams.append(xo)
    return found


def test_defaults_give_every_element_the_style_it_does_not_set(project, cardgen):
    """`defaults:` in a layout sets the font and colour of every text element that does not
    set one (an element's own key wins, a rectangle takes no text colour, a picture no
    text's `fit: shrink`); a layout that
    extends it inherits them under its own, and game.yaml's defaults are under both."""
    from conftest import write_game
    import io
    art = io.BytesIO()
    PILImage.new("RGB", (60, 40), "teal").save(art, "PNG")
    base = {"size": "meishi", "defaults": {"font": "latin", "color": "#223344", "fit": "shrink"},
            "elements": [
        {"name": "art", "type": "image", "src": "art.png", "x": "70mm", "y": "30mm",
         "width": "15mm", "height": "15mm"},  # takes no text's fit (shrink)
        {"name": "title", "type": "text", "text": "{{ card.name }}", "x": "5mm", "y": "5mm",
         "width": "60mm", "height": "8mm", "size": "10pt"},
        {"name": "rule", "type": "text", "text": "Draw two cards.", "x": "5mm", "y": "20mm",
         "width": "60mm", "height": "8mm", "size": "8pt", "color": "#aa0000"},
        {"name": "box", "type": "rect", "x": "2mm", "y": "2mm", "width": "87mm", "height": "51mm",
         "stroke": "#000000"}]}
    child = {"extends": "style-base", "defaults": {"color": "#335511"}}
    write_game(project, "styled", {"title": "Styled", "lang": "en",
                                   "defaults": {"font": "mincho", "size": "7pt"},
                                   "decks": [{"id": "base", "front": "style-base"},
                                             {"id": "child", "front": "style-child",
                                              "cards": "child.yaml"}]},
               [{"id": "knight", "name": "Knight"}],
               {"style-base": base, "style-child": child},
               {"child.yaml": b"cards:\n  - {id: squire, name: Squire}\n",
                "art.png": art.getvalue()})
    run = cardgen("build", "styled", "--cards-pdf")
    assert run.code == 0, run.lines
    out = project / "output/styled"
    fronts = reader(out / "styled-fronts.pdf")
    for page in fronts.pages:
        names = set(page_fonts(page))
        assert names and all("SourceSansPro" in n for n in names), names  # latin, not mincho
    fills = _fills(out / "styled-fronts.pdf")
    assert (round(0x22 / 255, 3), 0.2, round(0x44 / 255, 3)) in fills  # the base's default
    assert (round(0x33 / 255, 3), round(0x55 / 255, 3), round(0x11 / 255, 3)) in fills  # child's
    assert (round(0xaa / 255, 3), 0.0, 0.0) in fills  # the rule's own colour wins
    # game.yaml's defaults: under the layouts' (size), and alone where a layout says nothing
    layout = project / "layouts/style-base.yaml"
    layout.write_text(layout.read_text("utf-8").replace("font: latin", "bold: true"), "utf-8")
    run = cardgen("build", "styled")
    assert run.code == 0, run.lines
    names = set(page_fonts(reader(out / "styled-fronts.pdf").pages[0]))
    assert names and all("Mincho" in n for n in names), names


def test_a_when_that_fails_to_evaluate_is_a_located_error(project, cardgen):
    """A `when:` condition that cannot be evaluated is the card's problem, reported at the
    element (it was an internal error once: a local name hid the function that says it)."""
    _, run = build(project, cardgen, """
        size: meishi
        elements:
          - {name: a, type: rect, x: 5mm, y: 5mm, width: 10mm, height: 10mm, fill: black,
             when: "card.copies > 'x'"}
    """, expect=1)
    assert any("test-face.yaml" in line and "element 'a'" in line and "when" in line
               for line in run.lines), run.lines
