"""Japanese typesetting beyond line breaking, read back from the PDF: each glyph's origin
(pdfium's character origins) and size, for ruby, tate-chu-yoko, JLREQ punctuation spacing
and names that fit.

Expected positions follow JLREQ: brackets, 、。 and ・ take a one-em frame, half glyph and half
blank (a quarter on each side for ・); neighbouring blanks compress to half an em; an opening
bracket starting a line is half-width. The project's fonts are proportional (BIZ UDP...):
a bracket's own advance is its glyph half, so the blank half is what cardgen adds.
"""

from __future__ import annotations

import ctypes
import json
import re

import pypdfium2
import pypdfium2.raw as raw
import pytest

from test_layout_engine import build

SIZE = 10.0  # pt: the texts below


def glyphs(pdf, page: int = 0) -> list[tuple[str, float, float, float]]:
    """(character, origin x, origin y, font size) of every character pdfium reads."""
    doc = pypdfium2.PdfDocument(str(pdf))
    tp = doc[page].get_textpage()
    out = []
    x, y = ctypes.c_double(), ctypes.c_double()
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            continue  # spaces pdfium infers from gaps
        raw.FPDFText_GetCharOrigin(tp.raw, i, ctypes.byref(x), ctypes.byref(y))
        out.append((ch, x.value, y.value, raw.FPDFText_GetFontSize(tp.raw, i)))
    return out


def at(found, ch: str, nth: int = 0):
    return [g for g in found if g[0] == ch][nth]


def width(ch: str, size: float = SIZE) -> float:
    """The character's own advance in the project's gothic, at `size`."""
    from generator import fonts
    from generator.load import Project
    from generator.pipeline import check
    outcome = check(Project.find(), "lastdance")  # registers the project's fonts
    regular = outcome.game.fonts["gothic"].regular
    return fonts.string_width(ch, fonts.ensure(regular), size)


def em_descent() -> float:
    """The project gothic's descent (negative), per point of size: from a glyph's baseline
    to the foot of its em box."""
    from generator import fonts
    from generator.load import Project
    from generator.pipeline import check
    regular = check(Project.find(), "lastdance").game.fonts["gothic"].regular
    ascent, descent = fonts.ascent_descent(fonts.ensure(regular), 1000)
    return descent / (ascent - descent)


def text_card(project, cardgen, text: str, extra: str = "", w: str = "80mm", h: str = "40mm",
              expect: int = 0):
    return build(project, cardgen, f"""
        size: meishi
        elements:
          - name: t
            type: text
            text: {json.dumps(text, ensure_ascii=False)}
            x: 5mm
            y: 5mm
            width: {w}
            height: {h}
            size: {SIZE}pt
            {extra}
    """, expect=expect)


def test_compressed_punctuation_pairs_take_half_an_em_between_them(project, cardgen):
    pdf, _ = text_card(project, cardgen, "あ」「い、「う」。え「『お・か")
    g = glyphs(pdf)
    em = SIZE
    close_open = at(g, "「")[1] - at(g, "」")[1]
    assert close_open == pytest.approx(width("」") + em / 2, abs=0.05)  # 」「: 1.5 em, not 2
    assert at(g, "い")[1] - at(g, "」")[1] == pytest.approx(1.5 * em, abs=0.05)
    # 、「: the comma's half-em frame, then half an em of blank to the bracket's glyph (the
    # proportional 、 is 0.6 em wide: a tenth of an em of it is blank already)
    assert at(g, "「", 1)[1] - at(g, "、")[1] == pytest.approx(em, abs=0.05)
    # 」。: the bracket half-width, the stop straight after it
    assert at(g, "。")[1] - at(g, "」", 1)[1] == pytest.approx(width("」"), abs=0.05)
    # 「『: nothing between two opening brackets
    assert at(g, "『")[1] - at(g, "「", 2)[1] == pytest.approx(width("「"), abs=0.05)
    # え「: an opening bracket inside a line has its half em of blank before it
    assert at(g, "「", 2)[1] - at(g, "え")[1] == pytest.approx(width("え") + em / 2, abs=0.05)
    # ・: a quarter em on each side
    assert at(g, "・")[1] - at(g, "お")[1] == pytest.approx(width("お") + em / 4, abs=0.05)
    assert at(g, "か")[1] - at(g, "・")[1] == pytest.approx(width("・") + em / 4, abs=0.05)


def test_an_opening_bracket_at_the_start_of_a_line_is_half_width(project, cardgen):
    pdf, _ = text_card(project, cardgen, "「かぎ」と\nあ「かぎ」")
    g = glyphs(pdf)
    first, second = at(g, "「"), at(g, "「", 1)
    line_start = at(g, "あ")[1]
    assert first[1] == pytest.approx(line_start, abs=0.05)  # flush with the line's start
    assert second[1] - line_start == pytest.approx(width("あ") + SIZE / 2, abs=0.05)


def test_vertical_text_compresses_punctuation_down_the_column(project, cardgen):
    pdf, _ = text_card(project, cardgen, "あ」「い", "vertical: true", w="20mm", h="45mm")
    g = glyphs(pdf)
    # あ (1 em) + 」 (half) + half an em + 「 (half): い starts 2.5 em below あ
    assert at(g, "あ")[2] - at(g, "い")[2] == pytest.approx(2.5 * SIZE, abs=0.05)


def test_ruby_is_half_size_centred_over_its_base(project, cardgen):
    pdf, _ = text_card(project, cardgen, "これは｜鏑木《かぶらぎ》です")
    g = glyphs(pdf)
    base = [at(g, "鏑"), at(g, "木")]
    ruby = [at(g, ch) for ch in "かぶらぎ"]
    assert all(r[3] == pytest.approx(SIZE / 2, abs=0.01) for r in ruby)
    assert all(b[3] == pytest.approx(SIZE, abs=0.01) for b in base)
    base_mid = (base[0][1] + base[1][1] + width("木")) / 2
    ruby_mid = (ruby[0][1] + ruby[-1][1] + width("ぎ", SIZE / 2)) / 2
    assert ruby_mid == pytest.approx(base_mid, abs=0.05)
    assert ruby[0][2] > base[0][2] + SIZE * 0.8  # above the base's em box
    assert len({round(r[2], 2) for r in ruby}) == 1  # one baseline


def test_long_ruby_overhangs_kana_by_half_a_ruby_character_and_spaces_kanji(project, cardgen):
    pdf, _ = text_card(project, cardgen, "あ｜木《こだちのき》あ\n漢｜木《こだちのき》漢")
    g = glyphs(pdf)
    rsize = SIZE / 2
    # Between kana: the reading (5 half-size characters) overhangs each あ, by at most half
    # a ruby character (JLREQ 3.3.6), and the base is spaced out for the rest.
    left_kana, base = at(g, "あ"), at(g, "木")
    reading = [at(g, ch) for ch in "こだちのき"]
    overhang = (left_kana[1] + width("あ")) - reading[0][1]
    assert 0 < overhang <= rsize / 2 + 0.05
    # Between kanji: no overhang at all; the reading stays between the neighbours.
    kanji, second = at(g, "漢"), at(g, "漢", 1)
    reading2 = [at(g, ch, 1) for ch in "こだちのき"]
    assert reading2[0][1] >= kanji[1] + width("漢") - 0.05
    assert reading2[-1][1] + width("き", rsize) <= second[1] + 0.05
    assert base[1] > left_kana[1]


def test_mono_ruby_sets_a_reading_over_each_character(project, cardgen):
    pdf, _ = text_card(project, cardgen, "｜鏑木《かぶら ぎ》")
    g = glyphs(pdf)
    kabu, gi = at(g, "か"), at(g, "ぎ")
    assert kabu[1] < at(g, "鏑")[1] + width("鏑")  # かぶら over 鏑
    assert gi[1] >= at(g, "木")[1] - 0.05  # ぎ over 木


def test_a_line_never_separates_ruby_from_its_base(project, cardgen):
    # 7 em of text in a box 6.3 em wide: without the group the line would break inside 鏑木
    pdf, _ = text_card(project, cardgen, "あいうえお｜鏑木《かぶらぎ》",
                       w=f"{6.3 * SIZE * 0.3528:.2f}mm")
    g = glyphs(pdf)
    assert at(g, "鏑")[2] == pytest.approx(at(g, "木")[2])
    assert at(g, "鏑")[2] < at(g, "お")[2]  # the base moved to the next line whole


def test_aozora_kanji_ruby_and_the_explicit_tag(project, cardgen):
    pdf, _ = text_card(project, cardgen,
                       '漢字《かんじ》と<ruby base="鏑木">かぶらぎ</ruby>と\\《本》')
    text = "".join(ch for ch, *_ in glyphs(pdf))
    assert "漢字" in text and "かんじ" in text and "かぶらぎ" in text
    assert "《本》" in text and "\\" not in text  # \《: the bracket itself, no reading


def test_tate_chu_yoko_sets_two_digits_upright_within_one_em(project, cardgen):
    pdf, _ = text_card(project, cardgen, "第12回<tcy>!?</tcy>は2024年", "vertical: true",
                       w="20mm", h="50mm")
    g = glyphs(pdf)
    one, two = at(g, "1"), at(g, "2")
    assert one[2] == pytest.approx(two[2], abs=0.01)  # across, on one baseline
    squeeze = (two[1] - one[1]) / width("1")  # condensed to fit one em
    assert 0.5 < squeeze < 1
    column_mid = at(g, "第")[1] + width("第") / 2
    assert one[1] >= column_mid - SIZE / 2 - 0.05
    assert two[1] + width("2") * squeeze <= column_mid + SIZE / 2 + 0.05
    dai, kai = at(g, "第"), at(g, "回")
    assert dai[2] - kai[2] == pytest.approx(2 * SIZE, abs=0.05)  # 12 takes one em
    bang, question = at(g, "!"), at(g, "?")
    assert bang[2] == pytest.approx(question[2], abs=0.01)
    digits = [x for x in g if x[0] in "2024" and x[2] < kai[2] - SIZE]
    assert len({round(d[1], 1) for d in digits}) == 1  # 2024: four digits, turned, not across


def test_vertical_quotation_marks_become_double_primes(project, cardgen):
    pdf, _ = text_card(project, cardgen, "“白手袋の”", "vertical: true", w="20mm", h="50mm")
    text = "".join(ch for ch, *_ in glyphs(pdf))
    assert "〝白手袋の〟" in text and "“" not in text


@pytest.mark.parametrize("written", ["”白手袋の”", "“白手袋の“", "\"白手袋の\"", "“白手袋の”"])
def test_vertical_quotation_marks_open_and_close_by_their_place(project, cardgen, written):
    """Seed 001 writes ”白手袋の” (two closing marks): set vertically, a quotation opens with
    〝 and closes with 〟, whichever mark the source used for each."""
    pdf, _ = text_card(project, cardgen, written, "vertical: true", w="20mm", h="50mm")
    text = "".join(ch for ch, *_ in glyphs(pdf))
    assert "〝白手袋の〟" in text and not set("“”\"") & set(text)


def test_a_long_name_breaks_only_at_its_break_points(project, cardgen):
    pdf, _ = text_card(project, cardgen, "ジョン・スミス・ジュニア", "wrap: name", w="30mm",
                       h="12mm")
    g = glyphs(pdf)
    lines = {}
    for ch, x, y, _ in g:
        lines.setdefault(round(y, 1), "")
        lines[round(y, 1)] += ch
    assert all(line.endswith("・") or line == list(lines.values())[-1]
               for line in lines.values()), lines
    # without a break point, a name that needs two lines is a fit error, never split mid-word
    _, run = text_card(project, cardgen, "鏑木レーゲンドルフアキラ", "wrap: name", w="25mm",
                       h="12mm", expect=1)
    assert any(re.search(r"error: card 'one': element 't': text does not fit: a part of the "
                         r"name between its break points .* is wider than the 25\.0 x 12\.0 mm "
                         r"box at 10 pt \[fit\]", line) for line in run.lines), run.lines


def test_a_name_is_condensed_on_one_line_before_it_shrinks(project, cardgen):
    import pikepdf
    name = "鏑木レーゲンドルフアキラ"
    natural = sum(width(ch) for ch in name)
    box_mm = natural * 0.9 * 25.4 / 72
    pdf, _ = text_card(project, cardgen, name, "wrap: name\n            condense: 80%\n"
                       "            fit: shrink\n            min_size: 6pt", w=f"{box_mm:.2f}mm",
                       h="6mm")
    g = glyphs(pdf)
    assert len({round(y, 2) for _, _, y, _ in g}) == 1  # one line
    assert all(s == pytest.approx(SIZE) for *_, s in g)  # at its size: condensed, not shrunk
    spread = g[-1][1] + width(name[-1]) * 0.9 - g[0][1]
    assert spread <= natural * 0.9 + 0.5
    document = pikepdf.open(pdf)
    streams = b"".join(obj.read_bytes() for obj in document.objects
                       if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") != "/Image"
                       and obj.get("/Length1") is None)
    scale = float(re.search(rb"([\d.]+) Tz", streams).group(1))
    assert 80 <= scale <= 90  # 長体: between the declared minimum and what was needed


def test_hanging_stop_goes_past_the_line_end(project, cardgen):
    text = "あいうえおかきくけこさし。す"
    box = width("あ") * 12 * 25.4 / 72 + 0.05
    pdf, _ = text_card(project, cardgen, text, "hang: true", w=f"{box:.2f}mm")
    g = glyphs(pdf)
    assert at(g, "。")[2] == at(g, "し")[2]  # the stop stays on the line, hanging
    assert at(g, "す")[2] < at(g, "し")[2]
    pdf, _ = text_card(project, cardgen, text, "", w=f"{box:.2f}mm")
    g = glyphs(pdf)
    assert at(g, "。")[2] < at(g, "あ")[2]  # without hanging, し and 。 go on together


def test_the_vampire_courts_long_name_fits_its_band_on_one_line(project, cardgen):
    run = cardgen("build", "vampire-band", "-q")
    assert run.code == 0, run.lines
    fronts = project / "output/vampire-band/vampire-band-fronts.pdf"
    name = "鏑木レーゲンドルフアキラ"
    for page in range(len(pypdfium2.PdfDocument(str(fronts)))):
        g = glyphs(fronts, page)
        text = "".join(ch for ch, *_ in g)
        if name in text:
            break
    start = text.index(name)
    chars = g[start:start + len(name)]
    xs, ys = {round(x, 1) for _, x, _, _ in chars}, {round(y, 1) for _, _, y, _ in chars}
    # one line, never 鏑木…フア|キラ (the portrait card lies turned on the landscape sheet)
    assert len(xs) == 1 or len(ys) == 1, (xs, ys)
    along = sorted(ys if len(xs) == 1 else xs)
    scale = (along[-1] - along[0]) / sum(width(ch, 9) for ch in name[:-1])
    assert 0.8 <= scale < 1  # condensed (長体), no further than the layout's 80%
    assert along[-1] - along[0] + width("ラ", 9) * scale <= 32 * 72 / 25.4 + 0.01  # the box
    assert all(size == pytest.approx(9) for *_, size in chars)  # 9 pt: condensed, not shrunk


def test_the_vampire_court_rulebook_sets_the_seeds_reading_as_ruby(project, cardgen):
    run = cardgen("build", "vampire-band", "-q")
    assert run.code == 0
    pdf = project / "output/vampire-band/vampire-band-rulebook.pdf"
    doc = pypdfium2.PdfDocument(str(pdf))
    for page in range(len(doc)):
        g = glyphs(pdf, page)
        text = "".join(ch for ch, *_ in g)
        if "殺りあう" in text:
            break
    else:
        pytest.fail("殺りあう is not in the rulebook")
    kill = g[text.index("殺りあう")]
    ya = [x for x in g if x[0] == "ヤ" and abs(x[1] - kill[1]) < kill[3]]
    assert len(ya) == 1
    assert ya[0][3] == pytest.approx(kill[3] / 2, abs=0.01)
    assert ya[0][2] > kill[2] + kill[3] * 0.8
    assert "（ヤ）" not in text  # the reading is ruby now, not parentheses


NUMBERS = "確率は約27.1回に1回、約23.9回に1回。第3ターンに3～5人が最大10枚を引く。"


def test_a_number_stays_with_its_counter_and_the_word_before_it(project, cardgen):
    """In boxes of every width from 15 to 36 mm, wherever the lines break: 回, 枚, 人,
    ターン stay on the line of the number they count, 約, 第 and 最大 on the line of the
    number after them, and a range 3～5 whole."""
    widths = [15 + 3 * k for k in range(8)]
    elements = "".join(f"""
          - {{name: t{k}, type: text, text: "{NUMBERS}", x: {5 + (k % 2) * 90}mm,
             y: {5 + (k // 2) * 60}mm, width: {w}mm, height: 55mm, size: 8pt}}""" for k, w in
                       enumerate(widths))
    pdf, _ = build(project, cardgen, f"""
        size: [185mm, 250mm]
        elements:{elements}
    """, game_extra="    sheet: plain-a4\n    back: test-face\n")
    from pdfcheck import page_size_mm
    from pdfcheck import reader as pdf_reader
    page_w, page_h = page_size_mm(pdf_reader(pdf).pages[0])
    left, top = (page_w - 185) / 2 * 72 / 25.4, (page_h - 250) / 2 * 72 / 25.4  # the card
    found = glyphs(pdf)
    card_top = page_h * 72 / 25.4 - top
    pairs = 0
    for k, w in enumerate(widths):
        x0 = left + (5 + (k % 2) * 90) * 72 / 25.4
        y0 = card_top - (5 + (k // 2) * 60) * 72 / 25.4
        mine = [g for g in found if x0 - 1 <= g[1] <= x0 + w * 72 / 25.4 + 1
                and y0 - 57 * 72 / 25.4 <= g[2] <= y0]
        lines = sorted({round(g[2], 1) for g in mine}, reverse=True)
        text = "".join(g[0] for g in sorted(mine, key=lambda g: (-round(g[2], 1), g[1])))
        assert text == NUMBERS.replace(" ", ""), (w, text)
        line_of = [lines.index(round(g[2], 1))
                   for g in sorted(mine, key=lambda g: (-round(g[2], 1), g[1]))]
        assert len(lines) > 1, w  # the boxes break the text
        for i, ch in enumerate(text):
            if ch in "回枚人タ～" and text[i - 1].isdigit() or ch.isdigit() and \
                    (text[i - 1] in "約第大～"):
                pairs += 1
                assert line_of[i] == line_of[i - 1], (w, text[:i], text[i:])
    assert pairs >= 8 * 9


def test_a_group_ruby_shorter_than_its_base_is_spread_across_it(project, cardgen):
    """宇出津《うしつ》: three ruby characters over three kanji, not bunched over 出: spread
    1:2:1 (JLREQ 3.3.7), the first starting a half-space in from the base's start, the last
    ending a half-space before its end, equal spaces between. In vertical text likewise."""
    pdf, _ = text_card(project, cardgen, "地名は｜宇出津《うしつ》です\\n｜東京特許《とっきょ》")
    g = glyphs(pdf)
    rsize = SIZE / 2
    for base, reading, nth in (("宇出津", "うしつ", 0), ("東京特許", "とっきょ", 0)):
        start = at(g, base[0])[1]
        end = at(g, base[-1])[1] + width(base[-1])
        ruby = [at(g, ch, nth) for ch in reading]
        lefts = [r[1] for r in ruby]
        rights = [r[1] + width(ch, rsize) for r, ch in zip(ruby, reading)]
        gaps = [b - a for a, b in zip(rights, lefts[1:])]
        assert min(gaps) > 0.5 and max(gaps) - min(gaps) < 0.05, gaps  # spread, evenly
        assert lefts[0] - start == pytest.approx(gaps[0] / 2, abs=0.05)  # half at each end
        assert end - rights[-1] == pytest.approx(gaps[0] / 2, abs=0.05)


def test_a_vertical_group_ruby_is_spread_down_its_base(project, cardgen):
    pdf, _ = text_card(project, cardgen, "｜宇出津《うしつ》です", "vertical: true", w="20mm",
                       h="60mm")
    g = glyphs(pdf)
    rsize = SIZE / 2
    top = at(g, "宇")[2] + SIZE * 0.88  # the base's top: its first glyph's em box
    ys = [at(g, ch)[2] for ch in "うしつ"]  # baselines, down the column
    steps = [a - b for a, b in zip(ys, ys[1:])]
    assert min(steps) > rsize + 0.5 and max(steps) - min(steps) < 0.05, steps  # spread
    base = at(g, "宇")[2] - at(g, "津")[2] + SIZE  # the base's length down the column
    assert steps[0] == pytest.approx(rsize + (base - 3 * rsize) / 3, abs=0.1)
    assert top > ys[0]  # below the base's top


def test_grid_sets_every_full_width_character_one_em_apart(project, cardgen):
    """`grid: true` (ベタ組み): kana and kanji one em apart whatever their glyphs, a bracket
    in its em, no compression between neighbouring marks; the fixed-pitch family
    (gothic-fixed) is one em a character of itself."""
    text = "ふりかえって「ように」、いつも"
    pdf, _ = text_card(project, cardgen, f"{text}\\n{text}", "grid: true")
    xs = [c[1] for c in glyphs(pdf)[:len(text)]]
    # each glyph centred in its em: the em boxes (origin less half what the glyph leaves
    # of its em) start one em after another, the brackets' and the comma's ems included
    starts = [(k, x - (SIZE - width(ch)) / 2) for k, (ch, x) in enumerate(zip(text, xs))
              if ch not in "「」、"]
    for (k, s), (m, t) in zip(starts, starts[1:]):
        assert t - s == pytest.approx((m - k) * SIZE, abs=0.05), (text[k], text[m])
    assert len(starts) >= 10
    pdf, _ = text_card(project, cardgen, text, "font: gothic-fixed")
    xs = [c[1] for c in glyphs(pdf)]
    kana = [x for ch, x in zip(text, xs) if ch not in "「」、"]
    assert all(abs((b - a) - SIZE) < 0.05 for a, b in zip(kana[:5], kana[1:6]))


def lines_of(found: list) -> list[list]:
    """Glyphs (as glyphs() reads them) in lines from the top, each from the left."""
    by_y: dict[float, list] = {}
    for g in found:
        by_y.setdefault(round(g[2], 1), []).append(g)
    return [sorted(row, key=lambda g: g[1]) for _, row in sorted(by_y.items(), reverse=True)]


STRESS = ("ふりかえって、「よ）らりるれろっ、」と言った。（かっこ）の中「『二重』」にも、"
          "句読点。、が続く：「ここ」（そこ）、あそこ。おわり")


def test_justified_lines_never_add_space_before_a_closing_bracket_or_after_an_opening(
        project, cardgen):
    """In a justified box of some eight characters: each closing bracket or stop follows its
    neighbour at its natural place, and each character after an opening bracket too; the
    space that fills the line goes between the other characters."""
    size = SIZE
    pdf, _ = text_card(project, cardgen, STRESS, "align: justify", w="30.5mm", h="60mm")
    rows = lines_of(glyphs(pdf))
    checked = 0
    from generator.textflow.markup import CLOSING, OPENING, STOPS
    for row in rows[:-1]:  # the last line of the paragraph is not justified
        text = "".join(g[0] for g in row)
        assert text, row
        for (a, xa, *_), (b, xb, *_) in zip(row, row[1:]):
            if (b in CLOSING or b in STOPS) and a not in CLOSING | OPENING | STOPS:
                checked += 1
                assert xb == pytest.approx(xa + width(a, size), abs=0.05), (text, a, b)
            if a in OPENING and b not in CLOSING | OPENING | STOPS:
                checked += 1
                assert xb == pytest.approx(xa + width(a, size), abs=0.05), (text, a, b)
    assert checked >= 5


SQUEEZE = "あいうえお「よ）らりるれろっ、」かきくけこ、さしすせそ。たちつてと"


def test_a_line_squeezes_its_punctuation_before_it_pushes_a_character_on(project, cardgen):
    """JLREQ's 追い込み: a line too long by less than the blanks of its brackets and stops
    keeps its last character, those blanks squeezed (、 or 」 and what follows it less than
    its em apart), rather than push it to the next line; and it still ends in its box."""
    from generator.colors import parse_color
    from generator.load import Project
    from generator.pipeline import check
    from generator.textflow.breaking import break_lines
    from generator.textflow.markup import Style, parse
    game = check(Project.find(project), "lastdance").game
    atoms = parse(SQUEEZE, Style(game.fonts["gothic"], False, (0, 0, 0)), {}, {}, game.fonts,
                  parse_color, lambda path: 1.0)
    mm = 72 / 25.4
    squeezed = next(tenth / 10 for tenth in range(250, 400)  # a box where a line squeezes
                    if any(line.afters and min(line.afters) < -0.01
                           for line in break_lines(atoms, SIZE, tenth / 10 * mm, False)))
    pdf, _ = text_card(project, cardgen, SQUEEZE, w=f"{squeezed}mm", h="40mm")
    found = glyphs(pdf)
    left = min(g[1] for g in found)
    rows: dict[float, list] = {}
    for g in found:
        rows.setdefault(round(g[2], 1), []).append(g)
    tighter = 0
    for row in rows.values():
        row.sort(key=lambda g: g[1])
        assert row[-1][1] + width(row[-1][0]) <= left + squeezed * mm + 0.1  # inside the box
        tighter += sum(1 for (a, xa, *_), (b, xb, *_) in zip(row, row[1:])
                       if a in "、」" and b not in "、」" and xb - xa < SIZE - 0.3)
    assert tighter >= 1


def test_jukugo_ruby_shares_the_words_length_where_mono_ruby_spaces_it_out(project, cardgen):
    """｜熟語《じゅく ご》: じゅく is longer than 熟, ご shorter than 語. Mono ruby spaces
    熟 out for its reading; jukugo ruby (`ruby: jukugo`) lets じゅく take room over 語, as
    ご leaves it: the base stays set solid, the readings follow each other over the word,
    none overlapping, none outside it. `ruby: group` sets じゅくご as one reading."""
    text = "漢｜熟語《じゅく ご》漢"
    mono = glyphs(text_card(project, cardgen, text)[0])
    assert at(mono, "語")[1] - at(mono, "熟")[1] > width("熟") + 0.5  # 熟 spaced out
    found = glyphs(text_card(project, cardgen, text, "ruby: jukugo")[0])
    start, end = at(found, "熟")[1], at(found, "語")[1] + width("語")
    assert at(found, "語")[1] - start == pytest.approx(width("熟"), abs=0.05)  # set solid
    rsize = SIZE / 2
    reading = [at(found, ch) for ch in "じゅくご"]
    xs = [r[1] for r in reading]
    assert xs == sorted(xs)
    for (ch, x, *_), nxt in zip(reading, reading[1:]):
        assert x + width(ch, rsize) <= nxt[1] + 0.05  # one after another
    assert xs[0] >= start - 0.05 and xs[-1] + width("ご", rsize) <= end + 0.05  # in the word
    assert xs[-1] > at(found, "語")[1] - 0.05  # ご over 語, じゅく over 熟 and into 語
    group = glyphs(text_card(project, cardgen, text, "ruby: group")[0])
    g = [at(group, ch)[1] for ch in "じゅくご"]
    base_mid = (at(group, "熟")[1] + at(group, "語")[1] + width("語")) / 2
    assert (g[0] + g[-1] + width("ご", rsize)) / 2 == pytest.approx(base_mid, abs=0.05)


def test_jukugo_ruby_shares_the_word_in_vertical_text_too(project, cardgen):
    """The same word set 縦書き: with mono ruby 熟 is spaced out down the column for じゅく;
    with jukugo ruby the base stays solid and the readings follow each other down the
    column right of it, じゅく taking room beside 語, ご beside 語, none outside the word."""
    text = "漢｜熟語《じゅく ご》漢"
    mono = glyphs(text_card(project, cardgen, text, "vertical: true", w="20mm", h="40mm")[0])
    assert at(mono, "熟")[2] - at(mono, "語")[2] > SIZE + 0.5  # 熟 spaced out
    found = glyphs(text_card(project, cardgen, text, "vertical: true\n            ruby: jukugo",
                             w="20mm", h="40mm")[0])
    base_x = at(found, "熟")[1]
    assert at(found, "熟")[2] - at(found, "語")[2] == pytest.approx(SIZE, abs=0.05)  # solid
    rsize = SIZE / 2
    drop = em_descent()  # baseline to the em box's foot, per point of size
    reading = [at(found, ch) for ch in "じゅくご"]
    assert all(r[1] > base_x + SIZE * 0.9 for r in reading)  # right of the column
    ys = [r[2] + drop * rsize for r in reading]  # the readings' em feet
    assert ys == sorted(ys, reverse=True)  # down the column, in order
    for a, b in zip(ys, ys[1:]):
        assert a - b >= rsize - 0.05  # one after another, never overlapping
    feet = {ch: at(found, ch)[2] + drop * SIZE for ch in "熟語"}
    assert ys[0] + rsize <= feet["熟"] + SIZE + 0.05 and ys[-1] >= feet["語"] - 0.05  # the word
    assert ys[-1] < feet["語"] + SIZE  # ご beside 語
    assert ys[2] < feet["熟"]  # じゅく runs on beside 語


@pytest.mark.parametrize("game, justified", [("lastdance", False), ("odoriko", True),
                                             ("vampire-band", False), ("dernier-peuple", True)])
def test_no_face_of_the_seed_games_adds_space_before_a_closing_bracket(project, game,
                                                                      justified):
    """Every run of text the four games' faces draw with space added between its
    characters (a justified line's) has none before a closing bracket or a stop, nor after
    an opening one: the space went elsewhere, the run was cut there (the faces' finished
    drawing, which the PDFs draw as it is)."""
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.primitives import Text, leaves
    from generator.textflow.markup import CLOSING, OPENING, STOPS
    faces = lay_out(check(Project.find(project), game))
    spaced = 0
    for deck in faces.decks:
        for face in list(deck.fronts.values()) + list(deck.backs.values()):
            for item in leaves(face.items):
                if not isinstance(item, Text) or item.char_space <= 0.01 or len(item.text) < 2:
                    continue
                spaced += 1
                text = item.text
                assert not any(ch in CLOSING or ch in STOPS for ch in text[1:]), text
                assert not any(ch in OPENING for ch in text[:-1]), text
    assert bool(spaced) == justified  # (lastdance's and vampire-band's justified texts are
    # drafts still, or end their paragraphs in one line: nothing of theirs is stretched)


MIXED = "山札の上から引いた Ace の札を二枚とも手札に加えて、捨て札から King を探して引く。"


def test_a_mixed_line_stretches_its_word_spaces_first_and_never_inside_a_latin_word(
        project, cardgen):
    """JLREQ's order for a justified line with Latin words in Japanese: its word spaces grow
    first (by up to a quarter em each), then the gaps between Japanese characters evenly;
    the letters of a Latin word stay at their natural advances, as English wants."""
    pdf, _ = text_card(project, cardgen, MIXED, "align: justify", w="35mm", h="60mm")
    lines = lines_of(glyphs(pdf))
    checked = grown = 0
    for row in lines[:-1]:
        text = "".join(g[0] for g in row)
        for word in ("Ace", "King"):
            if word in text:
                at_ = text.index(word)
                letters = row[at_:at_ + len(word)]
                for (a, xa, *_), (b, xb, *_) in zip(letters, letters[1:]):
                    checked += 1
                    assert xb - xa == pytest.approx(width(a), abs=0.05), (text, a, b)
                if at_:  # a word space before it, on this line
                    before, first = row[at_ - 1], letters[0]
                    space = first[1] - (before[1] + width(before[0]))
                    grown += 1
                    assert space > width(" ") + 0.05, text  # the word space grew
    assert checked >= 2 and grown >= 1
