"""A rulebook in vertical writing (rulebook: writing: vertical), read back from its PDF:
glyph positions by pdfium (each character's box on the page), the booklet's binding side
and the reading direction a viewer is told."""

from __future__ import annotations

import pypdfium2
import pytest

from pdfcheck import MM, reader

BODY = ("カードを一枚引きます。引いたカードは手札に加えます。手札が五枚を超えたら、一枚を"
        "選んで捨て札にします。山札がなくなったら、捨て札を切り直して新しい山札にします。")


def vertical_game(project, pages_text: str, extra: str = "") -> None:
    game = project / "cards/tate"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: 縦組みの本\nlang: ja\ndecks:\n  - id: main\n    cards: cards.yaml\n"
        f"rulebook:\n  template: rules.md\n  page: A5\n  writing: vertical\n{extra}", "utf-8")
    (game / "cards.yaml").write_text(
        "cards:\n  - {id: one, name: 一番}\n  - {id: two, name: 二番}\n", "utf-8")
    (game / "rules.md").write_text(pages_text, "utf-8")


def chars(path, index: int) -> list[tuple[str, float, float]]:
    """Every character on a page with the centre of its box: (char, x, y) in points."""
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        text = pdf[index].get_textpage()
        out = []
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            if not ch.strip():
                continue
            left, bottom, right, top = text.get_charbox(i)
            out.append((ch, (left + right) / 2, (bottom + top) / 2))
        return out
    finally:
        pdf.close()


def columns_of(found: list, near: float = 4.0) -> list[list[tuple[str, float, float]]]:
    """The characters in vertical lines: from the right (a character within `near` points
    of the line's next to it is in it: punctuation sits in its em's corner), each from the
    top."""
    columns: list[list] = []
    for c in sorted(found, key=lambda c: -c[1]):
        if columns and abs(columns[-1][-1][1] - c[1]) <= near:
            columns[-1].append(c)
        else:
            columns.append([c])
    lines = []
    for column in columns:
        column.sort(key=lambda c: -c[2])  # from the top
        for k in range(len(column) - 1):  # across (tate-chu-yoko: "12" in one em) from the left
            a, b = column[k], column[k + 1]
            if abs(a[2] - b[2]) < 1.5 and b[1] < a[1]:
                column[k], column[k + 1] = b, a
        lines.append(column)
    return lines


def in_columns(found: list) -> list[tuple[str, float, float]]:
    """The characters in vertical reading order."""
    return [c for column in columns_of(found) for c in column]


def find(found: list, needle: str) -> list[tuple[str, float, float]]:
    """The characters of the first run of `needle` on a page, in vertical reading order."""
    found = in_columns(found)
    text = "".join(c for c, _, _ in found)
    at = text.index(needle)
    return found[at:at + len(needle)]


def test_paragraphs_run_down_the_page_in_lines_from_the_right(project, cardgen):
    vertical_game(project, f"# 遊び方\n\n{BODY}\n")
    run = cardgen("build", "tate")
    assert run.code == 0, run.lines
    path = project / "output/tate/tate-rulebook.pdf"
    page = chars(path, 2)  # the cover, the contents, then the text
    first = find(page, "カードを一枚引きます")
    xs, ys = [x for _, x, _ in first], [y for _, _, y in first]
    assert max(xs) - min(xs) < 1.0  # one line: one column of characters
    assert all(b < a for a, b in zip(ys, ys[1:]))  # down the page
    heading = find(page, "遊び方")
    assert heading[0][1] > first[0][1] + 5  # the heading's line is right of the text's
    contents = chars(path, 1)  # 目次: the heading down its line, its page number at the foot
    entry, number = find(contents, "遊び方"), [c for c in contents if c[0] == "3"]
    assert find(contents, "目次") and number
    assert abs(number[0][1] - entry[0][1]) < 3 and number[0][2] < entry[-1][2] - 100
    later = find(page, "山札がなくなったら")
    assert later[0][1] < first[0][1] - 5  # the lines follow each other to the left
    # A justified line runs the line's whole length: every full line ends at one place.
    body = [line for line in columns_of(page) if len(line) > 10]
    assert len(body) >= 3
    ends = [line[-1][2] for line in body[:-1]]  # the paragraph's last line is short
    starts = [line[0][2] for line in body]
    assert max(ends) - min(ends) < 3.0 and max(starts[1:]) - min(starts[1:]) < 3.0
    assert min(starts[1:]) - starts[0] > 5  # the paragraph's first line set in (字下げ)


def test_text_fills_the_first_column_then_the_second_below_it(project, cardgen):
    vertical_game(project, "# 遊び方\n\n" + "\n\n".join([BODY] * 10) + "\n")
    run = cardgen("build", "tate")
    assert run.code == 0, run.lines
    path = project / "output/tate/tate-rulebook.pdf"
    page = chars(path, 2)
    height = reader(path).pages[2].mediabox.height
    top = [y for _, _, y in page if y > height / 2]
    bottom = [y for _, _, y in page if MM * 20 < y < height / 2]
    assert top and bottom  # two 段: the text goes on under the first
    gap_low, gap_high = max(bottom), min(top)
    assert gap_high - gap_low > 4 * MM  # and the 段 have a gap between them


@pytest.mark.parametrize("pages,sides", [
    (4, [(1, 4), (3, 2)]),
    (8, [(1, 8), (7, 2), (3, 6), (5, 4)]),
])
def test_the_booklet_is_bound_on_the_right(project, cardgen, pages, sides):
    sections = [f"# 第{k}章\n\n本文です。" for k in range(3, pages + 1)]
    vertical_game(project, "\n\n{{ pagebreak() }}\n\n".join(sections) + "\n")
    run = cardgen("build", "tate")
    assert run.code == 0, run.lines
    out = project / "output/tate"
    assert len(reader(out / "tate-rulebook.pdf").pages) == pages
    booklet = out / "tate-rulebook-booklet.pdf"

    def label(pdf, index, x0, x1):
        page = pdf[index]
        height = page.get_size()[1]
        text = page.get_textpage()
        number = text.get_text_bounded(x0, 0, x1, 15 * MM).strip()
        if number.isdigit():
            return int(number)
        return 1 if "縦" in text.get_text_bounded(x0, 0, x1, height) else None  # the title

    pdf = pypdfium2.PdfDocument(str(booklet))
    try:
        width = pdf[0].get_size()[0]
        found = [(label(pdf, i, 0, width / 2), label(pdf, i, width / 2, width))
                 for i in range(len(pdf))]
    finally:
        pdf.close()
    assert found == sides  # the cover left of the fold: the book opens from the right
    for path in (out / "tate-rulebook.pdf", booklet):
        prefs = reader(path).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/Direction"] == "/R2L"


def test_tables_lists_and_faces_in_a_vertical_rulebook(project, cardgen):
    vertical_game(project, "# 札\n\n| 札 | 枚数 |\n|---|---:|\n"
                  "| 一番の札 | 12 |\n| 二番の札 | 3 |\n\n"
                  "- 一つ目の項目\n- 二つ目の項目\n\n"
                  "{{ card_faces(['one', 'two']) }}\n")
    run = cardgen("build", "tate")
    assert run.code == 0, run.lines
    path = project / "output/tate/tate-rulebook.pdf"
    page = chars(path, 2)
    # A table set vertically: its header is the rightmost strip, each row a strip to its
    # left, a row's cells one under the other.
    head, row, count = find(page, "枚数"), find(page, "一番の札"), find(page, "12")
    assert head[0][1] > row[0][1] + 3
    assert abs(row[0][1] - count[0][1]) < 3 and count[0][2] < row[-1][2]
    # A list: the marker at the top of the line, the item under it, down the page.
    item = find(page, "一つ目の項目")
    mark = [c for c in page if c[0] == "・" and abs(c[1] - item[0][1]) < 2]
    assert mark and mark[0][2] > item[0][2]
    # The faces are figures, upright: a face's name reads across, left to right (in the
    # table, the same name runs down).
    one = [c for c in page if c[0] == "一"]
    ban = [c for c in page if c[0] == "番"]
    across = [(a, b) for a in one for b in ban if abs(a[2] - b[2]) < 1 and 0 < b[1] - a[1] < 30]
    down = [(a, b) for a in one for b in ban if abs(a[1] - b[1]) < 1 and 0 < a[2] - b[2] < 15]
    assert across and down


def test_columns_as_asked_and_too_many_is_an_error(project, cardgen):
    vertical_game(project, f"# 遊び方\n\n{BODY}\n", "  columns: 1\n")
    assert cardgen("build", "tate").code == 0
    path = project / "output/tate/tate-rulebook.pdf"
    first = find(chars(path, 2), "カードを一枚引きます。引いたカードは手札に")
    assert max(x for _, x, _ in first) - min(x for _, x, _ in first) < 4.0  # one long line
    (project / "cards/tate/game.yaml").write_text(
        (project / "cards/tate/game.yaml").read_text("utf-8")
        .replace("page: A5", "page: [80mm, 110mm]").replace("columns: 1", "columns: 4"),
        "utf-8")
    run = cardgen("validate", "tate")
    assert run.code == 1
    assert any("game.yaml:10:12: エラー: rulebook: columns: " in line and "4 段" in line
               for line in run.lines), run.lines  # (a lang: ja game: said in Japanese)


def test_faces_as_long_as_a_line_split_by_rows_between_the_columns(project, cardgen):
    """Poker cards (88 mm) in a vertical A5 rulebook: each face is made a line long (the
    2 段 of A5 hold 86 mm lines), one a row, the rows going on in the next 段."""
    assert cardgen("new", "tall", "--size", "poker", "--lang", "ja").code == 0
    game = project / "cards/tall/game.yaml"
    text = game.read_text("utf-8")
    game.write_text(text.replace("  page: A5", "  page: A5\n  writing: vertical"), "utf-8")
    run = cardgen("build", "tall")
    assert run.code == 0, run.lines
    assert reader(project / "output/tall/tall-rulebook.pdf").pages


def test_a_numbered_list_in_vertical_writing_keeps_the_mark_the_source_wrote(project, cardgen):
    """`1.` is set "１．" and `1)` "１）" down the line, full-width (the vertical list printed
    "．" whatever the source wrote)."""
    vertical_game(project, "# 手順\n\n1. 二枚引きます。\n\n# 得点\n\n3) 数えます。\n")
    assert cardgen("build", "tate").code == 0
    page = chars(project / "output/tate/tate-rulebook.pdf", 2)
    for mark, item in (("１．", "二枚引きます"), ("３）", "数えます")):
        first = find(page, item)[0]
        line = "".join(c for c, x, y in sorted(page, key=lambda c: -c[2])
                       if abs(x - first[1]) < 6 and y > first[2])  # (．sits right)
        # (pdfium reads the vertical form of "）" back as "(", in body text too)
        assert line in (mark, mark.replace("）", "(")), (mark, line)
