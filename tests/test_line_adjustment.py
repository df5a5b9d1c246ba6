"""Line adjustment as JIS X 4051 and JLREQ 3.8 set it, read back from the real PDFs.

A line a little too long keeps its last character by squeezing blanks (追い込み) in JLREQ's
order: the quarter-em spaces between Japanese and Latin letters or digits down to an
eighth, then the quarter ems around middle dots, then the half-em blanks of brackets and
commas; never the half em after a full stop inside a line. Each glyph's place is pdfium's
character origin; its em is its font size times the text matrix's scale along the line
(a card face drawn small in a rulebook is scaled).
"""

from __future__ import annotations

import ctypes
import math

import pypdfium2
import pypdfium2.raw as raw
import pytest

from test_japanese_typesetting import text_card as card
from test_seed_fidelity import _glyph_rows

SIZE = 10.0  # pt: the texts below
FOLLOWERS_SET_SOLID = set("」』）］｝〉》】〕〙〗〟、。，．")  # after 。, JLREQ sets these solid


def glyph_rows(pdf):
    """(page, row): the glyphs of each baseline, left to right, as (x, character, em)."""
    for page, row in _glyph_rows(pdf, scaled=True):
        yield page, [(x, ch, em) for x, ch, em, _ in row]


def mid_line_stops(pdf) -> list[tuple[float, int, str]]:
    """(advance in ems, page, line) of every 。 inside a line: followed on its baseline, at
    less than two and a half of its ems, by a glyph of its size that JLREQ does not set
    solid after it (a closing bracket or another stop)."""
    found = []
    for page, row in glyph_rows(pdf):
        for (x0, c0, em0), (x1, c1, em1) in zip(row, row[1:]):
            if c0 == "。" and c1 not in FOLLOWERS_SET_SOLID and abs(em0 - em1) < 0.01:
                advance = (x1 - x0) / em0
                if advance < 2.5:  # (beyond: another text on the same baseline)
                    found.append((advance, page, "".join(g[1] for g in row)))
    return found


@pytest.mark.parametrize("game", ["odoriko", "dernier-peuple", "vampire-band"])  # (lastdance
# is English: no 。)
def test_no_full_stop_inside_a_line_of_the_shipped_games_is_squeezed(project, cardgen, game):
    """JLREQ 3.1.4 and 3.8.2: the half em after 。 inside a line is never reduced. In the
    faces and the rulebook of each shipped game every mid-line 。 advances 0.95 em or more
    (before this rule about half of them were squeezed, many to half an em)."""
    run = cardgen("build", game)
    assert run.code == 0, run.lines
    out = project / "output" / game
    pdfs = [out / f"{game}-fronts.pdf", out / f"{game}-rulebook.pdf"]
    stops = [s for pdf in pdfs for s in mid_line_stops(pdf)]
    assert len(stops) >= 30  # the games' texts have many
    squeezed = [s for s in stops if s[0] < 0.95]
    assert squeezed == [], squeezed[:5]


def text_card(project, cardgen, text: str, width: float, extra: str = ""):
    """A card with `text` in a box `width` points wide (rounded up to a thousandth), 5 mm
    from the card's left."""
    return card(project, cardgen, text, extra, w=f"{math.ceil(width * 1000) / 1000}pt",
                h="45mm")[0]


def atoms_of(project, text: str):
    from generator.colors import parse_color
    from generator.load import Project
    from generator.pipeline import check
    from generator.textflow.markup import Style, parse
    game = check(Project.find(project), "lastdance").game
    return parse(text, Style(game.fonts["gothic"], False, (0, 0, 0)), {}, {}, game.fonts,
                 parse_color, lambda path: 1.0)


def squeezed_width(project, text: str, step: float = 0.1) -> float:
    """The narrowest box (points) in which the first line of `text` still ends where it ends at
    its natural width, squeezing: found by setting it ever narrower."""
    from generator.textflow.breaking import break_lines
    atoms = atoms_of(project, text)
    natural = break_lines(atoms, SIZE, 1000.0, False)[0]
    full = sum(natural.widths)
    width = full
    while True:
        lines = break_lines(atoms, SIZE, width - step, False)
        if lines is None or len(lines[0].atoms) < len(natural.atoms):
            return width
        width -= step


def test_a_line_squeezes_in_jlreqs_order_and_never_after_a_full_stop(project, cardgen):
    """One line holding a Japanese-Latin space, a middle dot, a bracket pair, a comma and a
    full stop, set ever narrower: the Latin space goes to an eighth of an em first, then the
    middle dot's quarters, then the brackets' and comma's halves; the 。 keeps its em to
    the end, and the line stays in its box."""
    text = "あいうA・かき「くけ」こ、さし。たち"
    from generator import fonts
    font = fonts.ensure(atoms_of(project, "う")[0].font)
    natural = squeezed_width(project, text, step=SIZE * 3)  # (a step larger than any room)
    tightest = squeezed_width(project, text)
    em = SIZE

    def advances(width: float) -> dict[str, float]:
        row = next(glyph_rows(text_card(project, cardgen, text, width)))[1]
        assert "".join(g[1] for g in row) == text  # one line still
        last = fonts.string_width(row[-1][1], font, SIZE)
        assert row[-1][0] + last <= row[0][0] + width + 0.01  # in its box
        return {a: (xb - xa) / em for (xa, a, _), (xb, _b, _) in zip(row, row[1:])}

    loose = advances(natural)
    assert loose["う"] == pytest.approx(fonts.string_width("う", font, 1) + 0.25, abs=0.01)
    assert loose["。"] == pytest.approx(1.0, abs=0.01)
    # an eighth of an em less: only the Latin space gave it
    a = advances(natural - 0.125 * em)
    assert a["う"] == pytest.approx(loose["う"] - 0.125, abs=0.01)
    assert a["・"] == pytest.approx(loose["・"], abs=0.01)
    assert a["」"] == pytest.approx(loose["」"], abs=0.01)
    # a quarter more: the middle dot's quarters went next, the brackets' not yet
    b = advances(natural - 0.375 * em)
    assert b["う"] == pytest.approx(loose["う"] - 0.125, abs=0.01)
    assert b["・"] < loose["・"] - 0.1 and b["A"] < loose["A"] - 0.1
    assert b["」"] == pytest.approx(loose["」"], abs=0.01)
    # the tightest: brackets and comma squeezed too, the full stop never
    c = advances(tightest)
    assert c["」"] < loose["」"] - 0.2 and c["、"] < loose["、"] - 0.2
    for squeezed in (a, b, c):
        assert squeezed["。"] == pytest.approx(1.0, abs=0.01)
    assert tightest < natural - 1.0 * em  # more than an em squeezed in all


BRACKETS = ("「『括弧』」の中（「ここ」）、【重要】と言った。「はい」。『本』（上）「下」、"
            "〈注〉《題》［角］と「続く」。「かぎ」『二重』（丸）【隅】、「終わり」。")


def glyph_boxes(pdf) -> list[tuple[str, float, float, float]]:
    """(character, left, right, baseline) of each glyph's ink, as pdfium reads it."""
    doc = pypdfium2.PdfDocument(str(pdf))
    tp = doc[0].get_textpage()
    box = [ctypes.c_double() for _ in range(4)]
    x, y = ctypes.c_double(), ctypes.c_double()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.strip():
            raw.FPDFText_GetCharBox(tp.raw, i, *(ctypes.byref(v) for v in box))
            raw.FPDFText_GetCharOrigin(tp.raw, i, ctypes.byref(x), ctypes.byref(y))
            out.append((ch, box[0].value, box[1].value, y.value))
    return out


@pytest.mark.parametrize("font, grid", [("mincho-fixed", False), ("gothic-fixed", False),
                                        ("mincho-fixed", True), ("mincho", False)])
def test_a_fixed_pitch_paragraph_full_of_brackets_stays_in_its_box(project, cardgen, font,
                                                                   grid):
    """The fixed-pitch faces hold a bracket's blank in its glyph's own em: a squeezed line
    draws its glyphs where it measured them, so a paragraph full of brackets, in a box
    narrow enough that its lines squeeze, ends every line inside the box and sets no glyph
    over another (before, the squeeze was measured but not drawn: lines ran past the box)."""
    from test_layout_engine import SLOT_X
    mm = 72 / 25.4
    width = 41.5
    pdf = text_card(project, cardgen, BRACKETS, width * mm,
                    f"font: {font}\n            grid: {str(grid).lower()}")
    boxes = glyph_boxes(pdf)
    assert "".join(b[0] for b in boxes) == BRACKETS
    left, right = (SLOT_X + 5) * mm, (SLOT_X + 5 + width) * mm
    rows: dict[float, list] = {}
    for g in boxes:
        assert left - 0.05 <= g[1] and g[2] <= right + 0.05, g  # inside the box
        rows.setdefault(round(g[3], 1), []).append(g)
    assert 4 <= len(rows) <= 9
    for row in rows.values():
        row.sort(key=lambda g: g[1])
        for a, b in zip(row, row[1:]):
            assert a[2] <= b[1] + 0.05, (a, b)  # no glyph's ink over the next's


def justified_rows(project, cardgen, text: str, width: float):
    """The glyph rows of `text` justified in a box `width` points wide, but the last."""
    pdf = text_card(project, cardgen, text, width, "align: justify")
    return [row for _, row in glyph_rows(pdf)][:-1]


def advance_of(project, ch: str) -> float:
    """A character's own advance in ems, in the gothic the texts are set in."""
    from generator import fonts
    atom = atoms_of(project, ch)[0]
    return fonts.string_width(ch, fonts.ensure(atom.font), 1.0)


MIXED_NUMBERS = "山札から3枚引き、Aceの札を2枚とも手札に加えてから、残りを山札に戻してよく混ぜる。"


def test_a_justified_line_widens_its_japanese_latin_spaces_before_its_characters(
        project, cardgen):
    """JLREQ 3.8.3: a justified line grows at its Japanese-Latin spaces first, from a
    quarter em to a half, and only then between its characters: wherever characters are
    spaced out, the Latin spaces beside them are half an em."""
    from generator.textflow.spacing import _AUTOSPACED
    seen = spread = 0
    for width in (95.0, 101.0, 107.0, 113.0):
        for row in justified_rows(project, cardgen, MIXED_NUMBERS, width):
            gaps = {}
            for (xa, a, em), (xb, b, _) in zip(row, row[1:]):
                gaps[(a, b)] = (xb - xa) / em - advance_of(project, a)
            latin = [g for (a, b), g in gaps.items() if _AUTOSPACED.match(a + b)]
            kana = [g for (a, b), g in gaps.items() if not a.isascii() and not b.isascii()
                    and b not in "、。" and a not in "、。"]
            for g in latin:
                seen += 1
                assert 0.125 - 0.01 <= g <= 0.5 + 0.01, (row, g)  # (an eighth: squeezed)
            if kana and max(kana) > 0.01 and latin:  # characters spaced: Latin ones first
                spread += 1
                assert all(g == pytest.approx(0.5, abs=0.01) for g in latin), row
    assert seen >= 4 and spread >= 1


VERSION = "このゲームは、バージョン version 1.05 の規則で遊びます。"


def test_a_line_of_latin_in_japanese_text_opens_no_hole(project, cardgen):
    """A justified line of a Japanese paragraph that holds only `version 1.05` grows its
    word space by half an em at most and then its letters: never a hole of ems between two
    words (it was two ems at this width, five in a wider box)."""
    from generator import fonts
    rows = justified_rows(project, cardgen, VERSION, 80.0)
    line = next(row for row in rows if "".join(g[1] for g in row) == "version1.05")
    n, one = line[6], line[7]  # the n of version, the 1 of 1.05
    font = fonts.ensure(atoms_of(project, "version")[0].font)
    hole = (one[0] - n[0] - fonts.string_width("n ", font, SIZE)) / SIZE
    assert 0.4 < hole <= 0.5 + 0.1  # the word space grew by half an em, and no more
    assert line[-1][0] + fonts.string_width("5", font, SIZE) == pytest.approx(
        line[0][0] + 80.0, abs=0.05)  # and the line is justified, by its letters


def glyph_list(pdf) -> list[tuple[str, float, int, float]]:
    """(character, origin x, its row from the top, em) of each glyph, in reading order."""
    return [(ch, x, k, em) for k, (_, row) in enumerate(glyph_rows(pdf)) for x, ch, em in row]


def ruby_and_base(pdf, reading: str, base: str):
    """The reading's glyphs (half size) and the base's (full size), as glyph_list gives."""
    found = glyph_list(pdf)
    ruby = [g for g in found if g[3] < SIZE * 0.6 and g[0] in reading]
    body = [g for g in found if g[3] > SIZE * 0.9]
    return ruby, body, [g for g in body if g[0] in base]


@pytest.mark.parametrize("start", [False, True])
def test_a_ruby_reaches_half_a_ruby_character_over_kana_and_never_over_a_kanji(
        project, cardgen, start):
    """JLREQ 3.3.6: かぶら (three half-size kana, an em and a half) over 鏑 may reach over
    the kana は before it by half a ruby character at most, and over the kanji 木 after it
    not at all: 鏑 is spaced out for the rest. At the start of a line it reaches over
    nothing before it (it was clamped to the line's start and pushed over 木): in a box
    that ends the first line at は, 鏑 starts the second."""
    from generator.textflow.breaking import break_lines
    head = "いろはにほへとちりぬるをわかよたれそは" if start else "これは"
    text = head + "｜鏑木《かぶら ぎ》です"
    first = break_lines(atoms_of(project, head), SIZE, 1000.0, False)[0]
    pdf = text_card(project, cardgen, text, sum(first.widths) if start else 60 * 72 / 25.4)
    ruby, body, base = ruby_and_base(pdf, "かぶら", "鏑木")
    kabura = sorted(ruby, key=lambda g: g[1])[:3]
    assert "".join(g[0] for g in kabura) == "かぶら"
    kabu, ki = base[0], base[1]
    left = kabura[0][1]
    right = kabura[-1][1] + advance_of(project, "ら") * SIZE / 2
    assert right <= ki[1] + 0.05  # nothing over 木
    line_start = min(g[1] for g in body)  # (the box's left: いろは starts the first line)
    if start:  # 鏑 starts its line: nothing before it either
        assert kabu[2] > body[0][2]  # (on the second line)
        assert left >= line_start - 0.05
    else:  # over は by a quarter em (half a ruby character) at most
        ha = [g for g in body if g[0] == "は"][-1]
        assert ha[1] + advance_of(project, "は") * SIZE - left <= SIZE / 4 + 0.05
    # and the reading stands centred on 鏑
    assert (left + right) / 2 == pytest.approx(kabu[1] + advance_of(project, "鏑") * SIZE / 2,
                                               abs=0.05)


def test_a_group_ruby_longer_than_its_base_spaces_the_base_out(project, cardgen):
    """JLREQ 3.3.6: a group reading longer than its base spaces the base's characters out,
    half as much at its ends as between them (1:2:1), and stays between its neighbours
    (kanji: no overhang)."""
    pdf = text_card(project, cardgen, "漢｜木立《こだちのき》漢", 60 * 72 / 25.4)
    ruby, body, base = ruby_and_base(pdf, "こだちのき", "木立")
    first, second = [g for g in body if g[0] == "漢"]
    ki, tachi = base
    reading = sum(advance_of(project, ch) for ch in "こだちのき") * SIZE / 2
    spread = reading - 2 * SIZE  # what the base is spaced out by
    assert spread > 0.4 * SIZE
    assert tachi[1] - ki[1] == pytest.approx(SIZE + spread / 2, abs=0.05)  # between: half
    assert ki[1] - (first[1] + SIZE) == pytest.approx(spread / 4, abs=0.05)  # ends: a quarter
    xs = sorted(g[1] for g in ruby)
    assert xs[0] >= first[1] + SIZE - 0.05  # not over the kanji before
    assert xs[-1] + advance_of(project, "き") * SIZE / 2 <= second[1] + 0.05  # nor after


def first_glyphs(pdf, starts: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """For each of `starts`, (x of the line it starts, x of the line after it): the first
    glyph of each row of the rulebook, by row (a list's bullet left out)."""
    rows = [(page, row[1:] if row[0][1] in "•・" else row) for page, row in glyph_rows(pdf)]
    found = {}
    for k, (page, row) in enumerate(rows):
        text = "".join(g[1] for g in row)
        for start in starts:
            if text.startswith(start) and start not in found:
                found[start] = (row[0][0], rows[k + 1][1][0][0])
    return found


@pytest.mark.parametrize("game, start", [("vampire-band", "このゲームはコミック"),
                                         ("dernier-peuple", "2番は青")])
def test_a_rulebook_sets_its_japanese_paragraphs_in_by_one_em(project, cardgen, game, start):
    """字下げ (JLREQ 3.1.5): the first line of each Japanese body paragraph (one that starts
    with a number too) starts one em in from the lines after it; `indent: false` in the
    rulebook's entry sets it flush."""
    assert cardgen("build", game).code == 0
    pdf = project / f"output/{game}/{game}-rulebook.pdf"
    em = next(g[2] for _, row in glyph_rows(pdf) for g in row
              if "".join(h[1] for h in row).startswith(start))
    first, second = first_glyphs(pdf, (start,))[start]
    assert first - second == pytest.approx(em, abs=0.05)
    path = project / f"cards/{game}/game.yaml"
    text = path.read_text("utf-8")
    assert "  template: rulebook.md\n" in text
    path.write_text(text.replace("  template: rulebook.md\n",
                                 "  template: rulebook.md\n  indent: false\n"), "utf-8")
    assert cardgen("build", game).code == 0
    first, second = first_glyphs(pdf, (start,))[start]
    assert first == pytest.approx(second, abs=0.05)


def test_an_english_paragraph_a_list_item_and_a_note_are_not_set_in(project, cardgen):
    """Only Japanese body paragraphs are set in: an English paragraph, a list item's text
    and a note's keep their first lines flush with the lines after them."""
    long = "とても長い項目の文で、一行には収まらずに次の行へ続いていくことを確かめる文です。"
    english = ("This paragraph is written in English and is long enough to run on to a second "
               "line of the page, as a reader would expect it to.")
    path = project / "cards/vampire-band/rulebook.md"
    path.write_text(path.read_text("utf-8") + f"\n\n{english}\n\n- リスト{long}\n\n"
                    f"> 注記{long}\n", "utf-8")
    assert cardgen("build", "vampire-band").code == 0
    pdf = project / "output/vampire-band/vampire-band-rulebook.pdf"
    found = first_glyphs(pdf, ("Thisparagraph", "リスト", "注記"))
    assert len(found) == 3
    for start, (first, second) in found.items():
        assert first == pytest.approx(second, abs=0.05), start


def test_a_latin_run_turned_in_a_column_stands_a_quarter_em_from_the_japanese(
        project, cardgen):
    """JLREQ 3.2: down a column, a Latin run turned sideways (1.05) is a quarter em from the
    kana before and after it; a number set across (3, tate-chu-yoko) is set solid (3.2.5)."""
    from test_japanese_typesetting import em_descent, glyphs
    pdf, _ = card(project, cardgen, "バージョン1.05の規則で3枚", "vertical: true",
                  w="20mm", h="70mm")
    found = glyphs(pdf)
    drop = em_descent() * SIZE  # from an upright glyph's baseline to its em box's foot

    def top(ch: str) -> float:  # the top of the character's em box down the column
        g = next(g for g in found if g[0] == ch)
        return g[2] if ch in "1.05" else g[2] + drop + SIZE  # (a turned run: from its top)

    n_foot = top("ン") - SIZE
    assert n_foot - top("1") == pytest.approx(SIZE / 4, abs=0.05)  # ン, a quarter em, 1.05
    from generator import fonts
    font = fonts.ensure(atoms_of(project, "5")[0].font)
    end = top("1") - fonts.string_width("1.05", font, SIZE)
    assert end - top("の") == pytest.approx(SIZE / 4, abs=0.05)  # 1.05, a quarter em, の
    assert top("で") - SIZE - top("3") == pytest.approx(0.0, abs=0.05)  # で3枚: solid
    assert top("3") - SIZE - top("枚") == pytest.approx(0.0, abs=0.05)
