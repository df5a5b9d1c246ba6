"""Rulebook tables and contents held to JLREQ (issue 59, item 5), read back from the PDFs: a
cell breaks between phrases (文節) or a located warning names the column that cannot hold
one; a short table taller than a page splits instead of running off it; <tcy> in a table
stays across; the vertical contents list has leaders down to its page numbers."""

from __future__ import annotations

from rulebookcheck import page_lines
from test_vertical_rulebook import chars, columns_of, vertical_game
from test_vertical_text import pieces

POEM = "名にし負はば逢坂山のさねかづら"


def test_the_classical_phrases_budoux_cuts_are_mended():
    from generator.textflow.opportunities import phrases
    assert phrases(POEM) == ["名にし", "負はば", "逢坂山の", "さねかづら"]  # not 名に／し負は／ば
    assert phrases("お茶を飲みに行きます") == ["お茶を", "飲みに", "行きます"]  # お stays
    assert phrases("答えるときは答えます") == ["答える", "ときは", "答えます"]


def test_a_cell_breaks_between_phrases_never_inside_one(project, cardgen):
    vertical_game(project, "# 表\n\n| 一 | 二 | 三 | 四 | 五 | 六 |\n|---|---|---|---|---|---|\n| "
                  + " | ".join([POEM] * 6) + " |\n", )
    game = project / "cards/tate/game.yaml"
    game.write_text(game.read_text("utf-8").replace("writing: vertical", "writing: horizontal"),
                    "utf-8")
    run = cardgen("--lang", "en", "build", "tate")
    assert run.code == 0 and not any("table" in line for line in run.lines), run.lines
    lines = [text for _, _, text in page_lines(project / "output/tate/tate-rulebook.pdf")[2]]
    cells = lines[lines.index("一二三四五六") + 1:-1]  # (each line: six cells side by side)
    assert cells == [p * 6 for p in ("名にし", "負はば", "逢坂山の", "さねかづら")], cells


def test_a_column_that_cannot_hold_its_phrase_is_a_located_warning(project, cardgen):
    vertical_game(project, "# 札の一覧\n\n"
                  "| 一 | 二 | 三 | 四 | 五 | 六 | 七 | 八 |\n"
                  "|---|---|---|---|---|---|---|---|\n"
                  "| 名にし負はば逢坂山 | 小倉山峰のもみぢ葉 | 百敷や古き軒端の | 答えるときは | "
                  "三条右大臣 | 貞信公 | 順徳院 | 百人 |\n")
    run = cardgen("--lang", "en", "validate", "tate")
    assert run.code == 0
    (warning,) = [line for line in run.lines if "table" in line]
    assert warning == (
        "cards/tate/rules.md:3:1: warning: rulebook: a table is too wide for the page even at "
        "6.8 pt: columns 2 ('二'), 3 ('三'), 5 ('五') break inside words (shorten its cells, "
        "or split the table) [rulebook]")


def test_a_column_narrower_than_its_phrase_by_the_templates_widths_is_a_located_warning(
        project, cardgen):
    vertical_game(project, "# 表\n\n{{ column_widths(1, 9) }}\n\n| 一 | 二 |\n|---|---|\n"
                  f"| {POEM} | 短い |\n")
    run = cardgen("--lang", "en", "validate", "tate")
    assert run.code == 0
    (warning,) = [line for line in run.lines if "column_widths" in line]
    assert warning == (
        "cards/tate/rules.md:5:1: warning: rulebook: column_widths leaves column 1 ('一') "
        "narrower than its longest word, which breaks inside (widen it) [rulebook]")


def test_a_short_table_taller_than_a_band_splits_between_its_rows(project, cardgen):
    """Five rows (a short table, kept whole where it fits) that together are taller than a
    band of the vertical page: split between rows, every row printed, nothing past the
    page (it was an internal error: platypus gave up)."""
    long = POEM * 8
    rows = "".join(f"| 其{n} | {long} |\n" for n in "一二三四五")
    vertical_game(project, f"# 札\n\n| 番号 | 上の句 |\n|---|---|\n{rows}\n# 次\n\n本文。\n")
    run = cardgen("build", "tate")
    assert run.code == 0, run.lines
    path = project / "output/tate/tate-rulebook.pdf"
    import pypdf
    pages = pypdf.PdfReader(path).pages
    text = "".join(page.extract_text() for page in pages[2:])
    for n in "一二三四五":
        assert f"其\n{n}" in text or f"其{n}" in text, n
    width, height = (float(v) for v in pages[2].mediabox[2:])
    for index in range(2, len(pages)):
        for ch, x, y in chars(path, index):
            assert 0 < x < width and height * 0.04 < y < height, (index, ch, x, y)


def test_tate_chu_yoko_in_a_rulebook_table_stays_across(project, cardgen):
    vertical_game(project, "# 表\n\n| 番号 | 人数 |\n|---|---|\n| 一 | <tcy>100</tcy>人 |\n\n"
                  "本文で<tcy>100</tcy>人。\n")
    assert cardgen("build", "tate").code == 0
    found = [p for p in pieces_of(project / "output/tate/tate-rulebook.pdf", 2) if p[0] == "100"]
    assert len(found) == 2 and not any(turned for _, turned in found)


def pieces_of(path, index: int):
    import pypdf
    writer = pypdf.PdfWriter()
    writer.add_page(pypdf.PdfReader(path).pages[index])
    one = path.with_name("page.pdf")
    writer.write(one)
    return pieces(one)


def test_the_vertical_contents_has_leaders_down_to_each_page_number(project, cardgen):
    vertical_game(project, "# 遊び方\n\n本文。\n\n## 準備の長い長い見出し\n\n本文。\n")
    assert cardgen("build", "tate").code == 0
    contents = chars(project / "output/tate/tate-rulebook.pdf", 1)
    for heading in ("遊び方", "準備の長い長い見出し"):
        column = next(c for c in columns_of(contents) if heading in "".join(ch for ch, *_ in c))
        text = "".join(ch for ch, *_ in column)
        assert text.startswith(heading) and text.endswith("3"), text
        leaders = text[len(heading):-1]
        assert len(leaders) >= 5 and set(leaders) <= {"…", "."}, text  # (pdfium: … as ...)
        ys = [y for *_, y in column]
        assert ys == sorted(ys, reverse=True)  # down the line, in that order
