"""Vertical text (縦書き) read back from the PDF: the font's own vertical forms (GSUB `vert`)
drawn upright, and Latin or number runs turned sideways as one piece or set across
(tate-chu-yoko), never mixed, the kana beside them upright (issue 59, item 3)."""

from __future__ import annotations

import ctypes

import pypdf
import pypdfium2
import pypdfium2.raw as raw
import pytest

from test_japanese_typesetting import SIZE, glyphs, text_card, width
from test_layout_engine import build

TURNED = (0.0, -1.0, 1.0, 0.0)  # a quarter turn clockwise: the glyphs' baseline runs down


def pieces(pdf) -> list[tuple[str, bool]]:
    """(text, turned) of each run of text the PDF shows, in order: one text operator each,
    turned when it is drawn under a quarter-turn matrix."""
    found: list[tuple[str, bool]] = []

    def seen(text, cm, tm, _font, _size):
        if text.strip():
            found.append((text.strip(), tuple(round(v, 3) for v in cm[:4]) == TURNED))
    pypdf.PdfReader(str(pdf)).pages[0].extract_text(visitor_text=seen)
    return found


def turned(found, text: str) -> bool:
    """Whether `text` is shown as one piece, and turned; fails where it is cut up."""
    matches = [t for piece, t in found if piece == text]
    assert matches, f"{text!r} is not one piece: {found}"
    return matches[0]


def boxes(pdf) -> dict[str, tuple[float, float, float, float]]:
    """Each character's ink box (left, right, bottom, top), the first of each, by pdfium."""
    doc = pypdfium2.PdfDocument(str(pdf))
    tp = doc[0].get_textpage()
    out = {}
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.strip() and ch not in out:
            raw.FPDFText_GetCharBox(tp.raw, i, ctypes.byref(left), ctypes.byref(right),
                                    ctypes.byref(bottom), ctypes.byref(top))
            out[ch] = (left.value, right.value, bottom.value, top.value)
    return out


def vertical(project, cardgen, text: str, h: str = "80mm"):
    return text_card(project, cardgen, text, "vertical: true", w="25mm", h=h)[0]


def test_numbers_and_latin_turn_sideways_as_one_piece_and_the_kana_beside_them_stay_upright(
        project, cardgen):
    found = pieces(vertical(project, cardgen, "第27.1版は3,000円、No.1の1.0と12回"))
    for run in ("27.1", "3,000", "No.1", "1.0"):
        assert turned(found, run), run  # one piece, with its . and , turned with it
    assert not turned(found, "12")  # two digits alone: across, upright (tate-chu-yoko)
    for kana in "版は円、のと回":
        assert not turned(found, kana), kana
    assert len(found) == 13  # nothing else: no digit, stop or comma on its own


def test_kana_and_the_comma_after_latin_letters_stay_upright(project, cardgen):
    found = pieces(vertical(project, cardgen, "ABCの、DEFです"))
    assert turned(found, "ABC") and turned(found, "DEF")
    assert not any(t for piece, t in found if piece in "の、です")


def test_word_spaces_in_sideways_latin_take_the_latin_fonts_width(project, cardgen):
    pdf = vertical(project, cardgen, "曲はLast Danceです")
    assert turned(pieces(pdf), "Last Dance")
    g = glyphs(pdf)
    down = [y for ch, _x, y, _s in g if ch in "LD"]
    assert down[0] - down[1] == pytest.approx(width("Last "), abs=0.05)  # not a whole em


def test_an_explicit_tate_chu_yoko_run_stays_whole_across(project, cardgen):
    found = pieces(vertical(project, cardgen, "あいうえお<tcy>100</tcy>人", h="18mm"))
    assert not turned(found, "100")  # one piece, across, though the column is short


@pytest.mark.parametrize("digits", ["2", "3"])
def test_the_layouts_rule_sets_digit_runs_across_up_to_its_length(project, cardgen, digits):
    pdf = text_card(project, cardgen, "全100枚と2024年",
                    f"vertical: true\n            tate_chu_yoko: {digits}", w="25mm", h="80mm")[0]
    found = pieces(pdf)
    assert turned(found, "100") == (digits == "2")
    assert turned(found, "2024")  # four digits: turned whole


def test_the_fonts_vertical_forms_are_drawn_upright(project, cardgen):
    """〔〕〖〗 in their vertical forms, 〜 as the font draws it for a column (not the
    horizontal wave turned, which mirrors it), 〝〟 in their vertical shapes: each upright,
    and each the glyph the font's `vert` feature gives (its ink box read back)."""
    pdf = vertical(project, cardgen, "〔注〕〖重〗あ〜い〝鍵〟")
    found = pieces(pdf)
    for mark in "〔〕〖〗〜〝〟":
        assert not turned(found, mark), mark
    box = boxes(pdf)
    w, h = (lambda b: (b[1] - b[0], b[3] - b[2]))(box["〜"])
    assert h > 2 * w  # the wave stands down the column
    for bracket in "〔〕〖〗":
        b = box[bracket]
        assert b[1] - b[0] > 2 * (b[3] - b[2]), bracket  # across the column, not down it
    origins = {ch: y for ch, _x, y, _s in glyphs(pdf)}
    # The vertical 〝 sits low in its em, at the right (the horizontal one high, at the left)
    assert box["〝"][3] < origins["〝"] + 0.4 * SIZE
    assert box["〟"][2] > origins["〟"] + 0.4 * SIZE  # and 〟 high, at the left


def test_text_read_back_from_vertical_forms_is_the_written_text(project, cardgen):
    pdf = vertical(project, cardgen, "〔注〕〜「かぎ」、っ。")
    text = "".join(ch for ch, *_ in glyphs(pdf))
    assert text == "〔注〕〜「かぎ」、っ。"


def test_kept_vertical_forms_give_the_same_bytes(project, cardgen):
    """The forms read from the font are kept beside its metrics: a build that reads them
    from there writes what the build that read the font wrote."""
    from generator import fonts
    fonts.forms.cache_clear()  # as a new run: read from the font
    pdf = vertical(project, cardgen, "〔注〕〜No.1")
    first = pdf.read_bytes()
    kept = list((project / "output/.cache/fonts").glob("*.vert.json"))
    assert kept
    fonts.forms.cache_clear()
    fonts._metrics.cache_clear()
    again = vertical(project, cardgen, "〔注〕〜No.1")
    assert again.read_bytes() == first


HYAKUNIN = """
  - id: aki
    name: "秋の田の　かりほの庵の　苫をあらみ"
    number: "No.1"
    note: "〔天智天皇〕27.1cm、3,000枚〜"
"""


def test_a_hyakunin_isshu_card_sets_its_poem_number_and_note_down_the_card(project, cardgen):
    pdf, _ = build(project, cardgen, """
        size: meishi
        elements:
          - {name: poem, type: text, vertical: true, text: "{{ card.name }}", font: mincho,
             x: 40mm, y: 5mm, width: 30mm, height: 45mm, size: 13pt}
          - {name: number, type: text, vertical: true, text: "{{ card.number }}",
             x: 78mm, y: 5mm, width: 8mm, height: 20mm, size: 9pt}
          - {name: note, type: text, vertical: true, text: "{{ card.note }}",
             x: 10mm, y: 5mm, width: 20mm, height: 45mm, size: 8pt}
    """, cards=HYAKUNIN)
    found = pieces(pdf)
    assert turned(found, "No.1") and turned(found, "27.1cm") and turned(found, "3,000")
    assert not any(t for piece, t in found if piece in "〔〕〜、枚秋")


def test_justified_vertical_text_runs_every_column_but_the_last_down_the_whole_box(
        project, cardgen):
    """`align: justify` on a vertical text: columns from the right, each but a paragraph's
    last ending where the box ends (it was set as `right`: ragged at the foot)."""
    pdf = text_card(project, cardgen,
                    "山札からカードを一枚引き、手札に加えます。手札が五枚を超えたら一枚を"
                    "捨てます。No.1の札は3,000点です。",
                    "vertical: true\n            align: justify", w="40mm", h="30mm")[0]
    doc = pypdfium2.PdfDocument(str(pdf))
    page = doc[0].get_textpage()
    columns: list[list[tuple[float, float]]] = []  # (centre x, ink bottom) by column
    for i in range(page.count_chars()):
        ch = page.get_text_range(i, 1)
        if not ch.strip() or ch in "、。":  # (a stop sits high in its em)
            continue
        left, bottom, right, _top = page.get_charbox(i)
        x = (left + right) / 2
        column = next((c for c in columns if abs(c[0][0] - x) < SIZE * 0.6), None)
        if column is None:
            columns.append(column := [])
        column.append((x, bottom))
    feet = [min(b for _x, b in c) for c in sorted(columns, key=lambda c: -c[0][0])]
    assert len(feet) >= 4
    assert max(feet[:-1]) - min(feet[:-1]) < SIZE / 4, feet  # one foot line (the ink's own)
    assert feet[-1] > feet[0] + SIZE, feet  # the paragraph's last column: its own length


def test_an_apostrophe_stays_inside_its_turned_word(project, cardgen):
    """it's is set it’s (smart_quotes) and turned as one piece with its apostrophe."""
    found = pieces(vertical(project, cardgen, "曲はit's Last Danceです"))
    assert turned(found, "it\u2019s Last Dance")


def test_a_word_space_down_a_column_is_the_fonts_not_an_em(project, cardgen):
    """An ASCII space in vertical text takes the font's space (U+3000 is the em space),
    beside Japanese as inside a Latin run: "Dance で" had a whole em between them."""
    g = glyphs(vertical(project, cardgen, "あ い\u3000う"))
    down = {ch: y for ch, _x, y, _s in g}
    assert down["あ"] - down["い"] == pytest.approx(SIZE + width(" "), abs=0.05)
    assert down["い"] - down["う"] == pytest.approx(2 * SIZE, abs=0.05)


def test_a_copy_of_a_loaded_font_under_another_file_name_draws_as_a_font_of_its_own(tmp_path):
    """A project's gothic.ttf that is the shipped BIZ UDPGothic (one face name, two files)
    is a font of its own once the shipped one is loaded: reportlab would hand it the shipped
    font, whose text map knows nothing of the copy's vertical forms (ー read back as a
    private-use character), and which a font file edited in `watch` would not replace."""
    import shutil

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    from generator import fonts
    from conftest import REPO
    shipped = fonts.ensure(fonts.register(REPO / "fonts/BIZUDPGothic-Regular.ttf"))
    shutil.copy(REPO / "fonts/BIZUDPGothic-Regular.ttf", tmp_path / "gothic.ttf")
    copy = fonts.ensure(fonts.register(tmp_path / "gothic.ttf"))
    assert copy != shipped
    bar = fonts.forms(copy, "vert")["ー"].char  # the vertical ー's stand-in, in the copy
    canvas = Canvas(str(tmp_path / "bar.pdf"))
    canvas.setFont(copy, 12)
    canvas.drawString(72, 72, f"カ{bar}ド")
    canvas.save()
    page = pypdf.PdfReader(str(tmp_path / "bar.pdf")).pages[0]
    assert page.extract_text().strip() == "カード"  # not カ\U000f0106ド
    assert pdfmetrics.getFont(copy).fontName == copy
    assert pdfmetrics.getFont(copy).face is not pdfmetrics.getFont(shipped).face
    # the PDF still names the face as the font does
    assert pdfmetrics.getFont(copy).face.name == pdfmetrics.getFont(shipped).face.name
