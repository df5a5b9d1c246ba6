"""English typography on cards and in rulebooks (issue 59, item 6), read back from the PDFs:
typographer's quotes and apostrophes by default (`smart_quotes: false` keeps the text as
written), a range's `~` on the line, full-width letters and digits printed full-width."""

from __future__ import annotations

import pytest

from pdfcheck import reader
from test_japanese_typesetting import SIZE, glyphs, text_card, width
from test_vertical_text import boxes


def printed(pdf) -> str:
    return "".join(ch for ch, *_ in glyphs(pdf))


def test_quotes_and_apostrophes_are_typographers_by_default(project, cardgen):
    pdf, _ = text_card(project, cardgen, "The \"Last Dance\" is it's 'Go.' 1~12 cards")
    text = reader(pdf).pages[0].extract_text()
    assert "\u201cLast Dance\u201d" in text and "it\u2019s" in text and "\u2018Go.\u2019" in text
    assert "1\u201312" in text  # a range: an en dash in English
    assert not set("\"'~") & set(text)


def test_the_apostrophe_in_a_word_takes_the_latin_width_not_a_japanese_half_em(project,
                                                                                cardgen):
    """BIZ UDPGothic's ’ is a half em wide (Japanese punctuation); in "it's" the apostrophe
    is set as the font's own Latin one, so no gap opens before the s."""
    g = glyphs(text_card(project, cardgen, "it's")[0])
    s_at = [x for ch, x, *_ in g if ch == "s"][0]
    t_at = [x for ch, x, *_ in g if ch == "t"][0]
    assert s_at - t_at == pytest.approx(width("t") + width("'"), abs=0.05)
    assert width("\u2019") > 1.5 * width("'")  # (what the test is about: the font's own ’)


def test_straight_quotes_on_request(project, cardgen):
    pdf, _ = text_card(project, cardgen, "The \"Last Dance\" is it's 1~12",
                       "smart_quotes: false")
    text = reader(pdf).pages[0].extract_text()
    assert "\"Last Dance\"" in text and "it's" in text and "1~12" in text


def test_japanese_quotes_and_ranges(project, cardgen):
    text = printed(text_card(project, cardgen, "「\"白手袋の\"」は1~12枚")[0])
    assert text == "「\u201c白手袋の\u201d」は1\u301c12枚"


def test_a_ranges_mark_sits_on_the_line(project, cardgen):
    """ASCII's ~ in the Japanese font sits high, above the digits' middle; the range's 〜 is
    drawn across their middle."""
    found = boxes(text_card(project, cardgen, "1~12枚")[0])
    digit_middle = (found["1"][2] + found["1"][3]) / 2
    mark_bottom, mark_top = found["\u301c"][2:]
    assert mark_bottom < digit_middle < mark_top


def test_full_width_letters_and_digits_print_one_em_each(project, cardgen):
    g = glyphs(text_card(project, cardgen, "２－１０ＡＪＱＫ")[0])
    xs = [x for _ch, x, *_ in g]
    steps = [b - a for a, b in zip(xs, xs[1:])]
    assert steps == pytest.approx([SIZE] * len(steps), abs=0.05), steps
    assert "".join(ch for ch, *_ in g) == "２－１０ＡＪＱＫ"  # the text as written


def test_the_rulebook_sets_english_quotes_by_default(project, cardgen):
    assert cardgen("new", "quotes", "--lang", "en").code == 0
    (project / "cards/quotes/rulebook.md").write_text(
        "# Start\n\nThe \"first player\" takes it; it's 1~12 cards.\n\n"
        "| Card | Count |\n|---|---|\n| \"Ace\" | ＡＪＱＫ |\n", "utf-8")
    assert cardgen("build", "quotes").code == 0
    text = reader(project / "output/quotes/quotes-rulebook.pdf").pages[2].extract_text()
    assert "\u201cfirst player\u201d" in text and "it\u2019s" in text and "1\u201312" in text
    assert "\u201cAce\u201d" in text and "ＡＪＱＫ" in text
    assert not set("\"'~") & set(text)
