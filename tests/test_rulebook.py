"""Rulebooks rendered from the game's data, read back from the PDFs."""

from __future__ import annotations

import re

import pypdfium2
import pytest

from pdfcheck import MM, as_written, page_size_mm, reader
from test_validate_lastdance import edit


def texts(pdf) -> list[str]:
    return [p.extract_text() for p in reader(pdf).pages]


def squeeze(text: str) -> str:
    """Text without white space (lines wrap differently from the source), its quotes as the
    source writes them."""
    return as_written("".join(text.split()))


def test_last_dance_rulebook_comes_from_the_data(project, cardgen):
    assert cardgen("build", "lastdance").code == 0
    pdf = project / "output/lastdance/lastdance-rulebook.pdf"
    pages = texts(pdf)
    assert all(abs(a - b) < 0.2 for a, b in zip(page_size_mm(reader(pdf).pages[0]), (148, 210)))
    whole = squeeze("\n".join(pages))
    assert "ラストダンスは私に" in pages[0]  # the cover
    assert "Contents" in pages[1] and "Q&A" in pages[1]  # the table of contents
    for expected in ("32 Game Cards", "4 Blank Cards",
                     "Assertive Young Noble (勝気な貴公子), Duke's Daughter (公爵令嬢) — 5 each",
                     "8 players: all 32 cards",  # as the seed writes it, without a period
                     "Q4: Please tell me which card effects the Priest can prevent."):
        assert squeeze(expected) in whole, expected
    # Page numbers on every page but the cover (drawn first, so extracted first).
    assert [p.split("\n")[0].strip() for p in pages[1:4]] == ["2", "3", "4"]


def test_one_data_change_moves_rulebook_sheets_and_validator_together(project, cardgen):
    cards = project / "cards/lastdance/cards.yaml"
    # Move one copy from the Duke's Daughter to the Foreign Prince: still 32 cards, still valid.
    edit(cards, "    name_en: Foreign Prince\n    copies: 4\n",
         "    name_en: Foreign Prince\n    copies: 5\n")
    edit(cards, "    name_en: Duke's Daughter\n    copies: 5\n",
         "    name_en: Duke's Daughter\n    copies: 4\n")
    assert cardgen("build", "lastdance").code == 0
    out = project / "output/lastdance"
    rulebook = squeeze("\n".join(texts(out / "lastdance-rulebook.pdf")))
    assert squeeze("Foreign Prince (隣国の王子), Assertive Young Noble (勝気な貴公子) "
                   "— 5 each") in rulebook
    assert squeeze("Duke's Daughter (公爵令嬢) — 4") in rulebook
    fronts = as_written("".join(t.replace("\n", "") for t in texts(out / "lastdance-fronts.pdf")))
    assert fronts.count("Foreign Prince") == 5 and fronts.count("Duke's Daughter") == 4
    # Two more copies moved: the 7-player table uses 4 Duke's Daughters, which no longer exist.
    edit(cards, "    name_en: Foreign Prince\n    copies: 5\n",
         "    name_en: Foreign Prince\n    copies: 6\n")
    edit(cards, "    name_en: Duke's Daughter\n    copies: 4\n",
         "    name_en: Duke's Daughter\n    copies: 3\n")
    run = cardgen("build", "lastdance")
    assert run.code == 1
    assert ("cards/lastdance/setup.yaml:66:23: error: 7 players: the table uses "
            "4 × 'dukes-daughter', but the game has only 3 [within-copies]") in run.lines
    # The refused build kept the previous, consistent set of files.
    kept = squeeze("".join(texts(out / "lastdance-rulebook.pdf")))
    assert squeeze("Duke's Daughter (公爵令嬢) — 4") in kept


def make_rulebook(project, pages: int, page: str = "A5") -> None:
    """A game whose rulebook has exactly `pages` pages: cover, contents, and sections."""
    game = project / "cards/book"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: 本\ndecks:\n  - id: main\n    cards: cards.yaml\n"
        f"rulebook:\n  template: rules.md\n  page: {page}\n", "utf-8")
    (game / "cards.yaml").write_text("cards:\n  - {id: one, name: 一}\n", "utf-8")
    sections = [f"# Section {k}\n\nText of section {k}." for k in range(3, pages + 1)]
    (game / "rules.md").write_text("\n\n{{ pagebreak() }}\n\n".join(sections) + "\n", "utf-8")


def side_labels(path, index: int) -> tuple:
    """(left, right) page numbers printed on a booklet side; 1 for the cover (no number).
    Read with pdfium, which follows the pages into the forms that place them."""
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        page = pdf[index]
        width, height = page.get_size()
        text = page.get_textpage()

        def label(x0: float, x1: float):
            number = text.get_text_bounded(x0, 0, x1, 15 * MM).strip()  # the footer
            if number.isdigit():
                return int(number)
            return 1 if "本" in text.get_text_bounded(x0, 0, x1, height) else None

        return label(0, width / 2), label(width / 2, width)
    finally:
        pdf.close()


@pytest.mark.parametrize("pages,sides", [
    (4, [(4, 1), (2, 3)]),
    (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
    (10, [(None, 1), (2, None), (10, 3), (4, 9), (8, 5), (6, 7)]),
    (12, [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]),
])
def test_booklet_sides_in_folding_order(project, cardgen, pages, sides):
    make_rulebook(project, pages)
    run = cardgen("build", "book")
    assert run.code == 0, run.lines
    out = project / "output/book"
    assert len(reader(out / "book-rulebook.pdf").pages) == pages
    booklet = reader(out / "book-rulebook-booklet.pdf")
    assert [side_labels(out / "book-rulebook-booklet.pdf", i)
            for i in range(len(booklet.pages))] == sides
    w, h = page_size_mm(booklet.pages[0])
    assert abs(w - 297) < 0.2 and abs(h - 210) < 0.2  # two A5 pages on A4
    prefs = booklet.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge"


def test_b6_and_a4_pages(project, cardgen):
    for page, size, sheet in (("B6", (128, 182), (257, 182)), ("A4", (210, 297), (420, 297))):
        make_rulebook(project, 4, page)
        assert cardgen("build", "book").code == 0
        first = reader(project / "output/book/book-rulebook.pdf").pages[0]
        assert all(abs(a - b) < 0.2 for a, b in zip(page_size_mm(first), size))
        side = reader(project / "output/book/book-rulebook-booklet.pdf").pages[0]
        assert all(abs(a - b) < 0.2 for a, b in zip(page_size_mm(side), sheet))


def test_contents_list_headings_as_written(project, cardgen):
    """A heading with markup characters reads the same in the contents as in the text."""
    make_rulebook(project, 4)
    rules = project / "cards/book/rules.md"
    rules.write_text(rules.read_text("utf-8") + "\n# Q&A: \"rules\"\n\nAnswers.\n", "utf-8")
    assert cardgen("build", "book").code == 0
    contents = reader(project / "output/book/book-rulebook.pdf").pages[1].extract_text()
    assert 'Q&A: "rules"' in contents
    assert "&A;" not in contents


def test_a_rulebook_split_into_files_includes_them_with_the_same_data(project, cardgen):
    make_rulebook(project, 3)
    game = project / "cards/book"
    (game / "rules.md").write_text("# Rules\n\n{% include 'parts/setup.md' %}\n\n"
                                   "{% from 'parts/words.md' import shout %}{{ shout('end') }}\n",
                                   "utf-8")
    (game / "parts").mkdir()
    (game / "parts/setup.md").write_text("## Setup\n\nDeal {{ card['one'].name }} and "
                                         "{{ cards | length }} card.\n", "utf-8")
    (game / "parts/words.md").write_text("{% macro shout(w) %}**{{ w | upper }}**{% endmacro %}\n",
                                         "utf-8")
    run = cardgen("build", "book")
    assert run.code == 0, run.lines
    whole = squeeze("\n".join(texts(project / "output/book/book-rulebook.pdf")))
    assert squeeze("Deal 一 and 1 card.") in whole and "END" in whole
    # An unknown name in an included file is reported at that file's line.
    (game / "parts/setup.md").write_text("## Setup\n\n{{ card_name('nobody') }}\n", "utf-8")
    run = cardgen("validate", "book")
    assert "cards/book/parts/setup.md:3:15: error: rulebook: unknown card 'nobody' [rulebook]" \
        in run.lines, run.lines


def test_last_dance_rulebook_is_the_seed_without_the_transcribers_notes(project, cardgen):
    """Every line of seed 000 is printed (the per-player lists as the setup table), and the
    transcriber's notes are not: they are comments in the template."""
    from conftest import REPO

    seed = REPO.parent / "shared" / "seeds" / "000_043eb192ff78500f.txt"
    if not seed.exists():
        pytest.skip("the seeds are not beside the repository")
    assert cardgen("build", "lastdance").code == 0
    pages = texts(project / "output/lastdance/lastdance-rulebook.pdf")
    body = " ".join(p.split("\n", 1)[1] if "\n" in p else p for p in pages)  # page numbers off
    printed = squeeze(body)
    # English lines may end in a hyphen the typesetter added (ev-/eryone): joined, the text
    # reads as written. A hyphen of the seed's own (turn-action) stays in `printed`.
    unhyphenated = squeeze(re.sub(r"(?<=[a-z])-\s*\n\s*(?=[a-z])", "", body))
    lines = seed.read_text("utf-8").splitlines()
    table = False
    for line in lines[3:]:
        line = line.strip().removeprefix("- ")
        if line == "Cards Used by Player Count":
            table = True  # the lists per player count print as one table (checked below)
        elif line == "Game Flow" or line.startswith("Turn"):
            table = False
        if not line or line == "Table of Contents" \
                or table and line != "Cards Used by Player Count":
            continue
        if line.startswith("Note:"):
            assert squeeze(line) not in printed, line
            continue
        assert squeeze(line) in printed or squeeze(line) in unhyphenated, line
    assert "Note:" not in " ".join(pages)


def test_last_dance_hand_size_is_one_fact(project, cardgen):
    setup = project / "cards/lastdance/setup.yaml"
    edit(setup, "hand_size: 4", "hand_size: 5")
    run = cardgen("validate", "lastdance")
    assert "4 players: the table has 16 cards, but dealing 5 to each player needs 20" in \
        " ".join(run.lines)


# --- set like a book: keeps, read back from every rulebook ------------------------------------

def _tables(project_root, game_id):
    """The rulebook's tables, in order: (header rows, each row's first cell text)."""
    from generator import rulebook
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.rulebook.typeset import JText, KeptTable
    outcome = check(Project.find(project_root), game_id)
    flows, _, _ = rulebook.story(outcome.game, lay_out(outcome), outcome.rulebook_markdown)
    return [(f.repeatRows,
             [row[0].plain if isinstance(row[0], JText) else "" for row in f._cellvalues])
            for f in flows if isinstance(f, KeptTable)]


def _paragraphs(project_root, game_id):
    """The rulebook's headings and paragraphs, in order, as the typesetter set them."""
    from generator import rulebook
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.rulebook.typeset import Heading, JText
    outcome = check(Project.find(project_root), game_id)
    faces = lay_out(outcome)
    flows, look, _ = rulebook.story(outcome.game, faces, outcome.rulebook_markdown)
    return [("heading" if isinstance(f, Heading) else "text", f.plain)
            for f in flows if isinstance(f, JText)], look.size


@pytest.mark.parametrize("game", ["lastdance", "vampire-band", "odoriko", "dernier-peuple"])
def test_rulebooks_keep_headings_with_their_text_and_leave_no_line_alone(project, cardgen, game):
    from rulebookcheck import keep_problems, raw_markup, table_problems
    assert cardgen("build", game).code == 0
    pdf = project / f"output/{game}/{game}-rulebook.pdf"
    paragraphs, size = _paragraphs(project, game)
    assert len(paragraphs) > 10
    found: list = []
    assert keep_problems(pdf, paragraphs, size, found) == []
    # Every heading and paragraph was found on the pages (bar a few set in tables or lists
    # that the reading order interleaves), so the keeps were checked on the real text.
    assert len(found) >= 0.9 * len([p for p in paragraphs if p[1].strip()]), \
        [p for p in paragraphs if p[1] not in found][:5]
    assert raw_markup(pdf) == []
    tables = _tables(project, game)
    problems, found = table_problems(pdf, tables)
    assert problems == [] and (found or not tables), (problems, found, len(tables))


def test_the_keep_checker_sees_a_stranded_heading_and_a_lone_line(project, cardgen, tmp_path):
    """The checks above can fail: a rulebook set with the keeps switched off breaks them."""
    from generator.rulebook import typeset
    from rulebookcheck import keep_problems
    paragraphs, size = _paragraphs(project, "odoriko")
    saved = typeset.keep_headings, typeset.JText.split
    typeset.keep_headings = lambda story: story

    def loose_split(self, width, height):  # any number of lines on either side
        self.keep_lines = 0
        self.wrap(width, height)
        fit = int((height + 1e-6) // self.leading)
        if fit <= 0 or fit >= len(self._lines):
            return []
        head = typeset.JText(self.atoms, self.size, self.line_spacing, self.font, self.align,
                             self.spaceBefore, 0.0, self._lines[:fit], self.plain)
        tail = typeset.JText(self.atoms, self.size, self.line_spacing, self.font, self.align,
                             0.0, self.spaceAfter, self._lines[fit:], self.plain)
        head._width = tail._width = width
        head.keep_lines = tail.keep_lines = 0
        return [head, tail]
    typeset.JText.split = loose_split
    try:
        for n in range(6):  # push the text down a line at a time until something breaks
            text = project / "cards/odoriko/rulebook.md"
            original = text.read_text("utf-8")
            text.write_text("\n\n".join(["余白。"] * n) + "\n\n" + original if n else original,
                            "utf-8")
            assert cardgen("build", "odoriko").code == 0
            found = keep_problems(project / "output/odoriko/odoriko-rulebook.pdf",
                                  _paragraphs(project, "odoriko")[0], size)
            text.write_text(original, "utf-8")
            if found:
                break
        assert found, "the loose setting broke no keep: the checker cannot fail"
    finally:
        typeset.keep_headings, typeset.JText.split = saved


def test_tables_split_with_their_header_and_two_rows_each_side_and_short_ones_never(
        project, cardgen):
    from rulebookcheck import page_lines
    assert cardgen("new", "tables", "--lang", "ja").code == 0
    filler = "\n\n".join(f"段落{n}。" + "本文がここに入ります。" * 6 for n in range(1, 60))
    long_rows = "\n".join(f"| 長{n:02d} | 値{n:02d} |" for n in range(1, 31))
    short_rows = "\n".join(f"| 短{n} | 値 |" for n in range(1, 6))
    (project / "cards/tables/rulebook.md").write_text(
        f"# 表\n\n{filler}\n\n| 名前 | 値 |\n|---|---|\n{long_rows}\n\n{filler}\n\n"
        f"| 名前 | 値 |\n|---|---|\n{short_rows}\n\n{filler}\n", "utf-8")
    for extra in range(0, 12, 3):  # move the tables down the page: some split must happen
        text = project / "cards/tables/rulebook.md"
        if extra:
            text.write_text("余白。\n\n" * 3 + text.read_text("utf-8"), "utf-8")
        assert cardgen("build", "tables").code == 0
        pages = page_lines(project / "output/tables/tables-rulebook.pdf")
        on = {}
        for n, page in enumerate(pages):
            for _, _, line in page:
                for key in ("長", "短"):
                    if line.startswith(key) and line[1:3].isdigit() or line.startswith("短"):
                        on.setdefault(line[0], {}).setdefault(n, []).append(line)
        long_pages = on["長"]
        assert sum(len(v) for v in long_pages.values()) == 30
        assert len(long_pages) >= 2  # 30 rows do not fit one A5 page with the text before it
        assert all(len(rows) >= 2 for rows in long_pages.values()), long_pages
        for n in long_pages:  # the header is repeated on every page the table is on
            assert any(line.startswith("名前値") for _, _, line in pages[n]), n
        assert len(on["短"]) == 1  # 5 rows: never split


def test_emphasis_next_to_japanese_is_set_bold_not_printed_as_asterisks(project, cardgen):
    import pypdf
    from rulebookcheck import raw_markup
    assert cardgen("new", "emph", "--lang", "ja").code == 0
    (project / "cards/emph/rulebook.md").write_text(
        "# 得点\n\n手札が無くなったプレイヤーはボーナスとして**＋30点**を獲得します。"
        "「**かぎ括弧**」の中も、*強調*も。English **bold** stays bold.\n", "utf-8")
    assert cardgen("build", "emph").code == 0
    pdf = project / "output/emph/emph-rulebook.pdf"
    assert raw_markup(pdf) == []
    runs = []
    for page in pypdf.PdfReader(pdf).pages[2:]:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append(
            (text, (font or {}).get("/BaseFont", ""))))
    joined = []  # runs of one font in a row, as one (a justified line draws "30" in two runs,
    for text, font in runs:  # since a number is never spaced out inside)
        if joined and joined[-1][1] == font:
            joined[-1] = (joined[-1][0] + text, font)
        else:
            joined.append((text, font))
    bold = {text.replace("\n", "").strip() for text, font in joined if "Bold" in font}
    assert {"＋30点", "かぎ括弧", "bold"} <= bold, bold
    assert not any("獲得" in text for text, font in runs if "Bold" in font)


@pytest.mark.parametrize("page, page_mm, sheet_mm", [
    ("Letter", (215.9, 279.4), (431.8, 279.4)),  # on Tabloid
    ("Half-letter", (139.7, 215.9), (279.4, 215.9)),  # on Letter
    ("B6", (128, 182), (257, 182)),  # on JIS B5
    ("[100mm, 150mm]", (100, 150), (257, 182)),  # the smallest paper that holds two: B5
])
def test_rulebook_pages_and_their_booklet_sheets(project, cardgen, page, page_mm, sheet_mm):
    assert cardgen("new", "book", "--paper", "letter").code == 0
    game = project / "cards/book/game.yaml"
    game.write_text(re.sub(r"  page: \S+", f"  page: {page}", game.read_text()))
    run = cardgen("build", "book")
    assert run.code == 0, run.lines
    out = project / "output/book"
    for name, size in (("book-rulebook.pdf", page_mm), ("book-rulebook-booklet.pdf", sheet_mm)):
        w, h = page_size_mm(reader(out / name).pages[0])
        assert abs(w - size[0]) < 0.2 and abs(h - size[1]) < 0.2, (name, w, h)
    assert "Rulebook" in reader(out / "book-rulebook.pdf").pages[0].extract_text()


def test_a_booklet_sheet_can_be_chosen(project, cardgen):
    assert cardgen("new", "book", "--paper", "letter").code == 0
    game = project / "cards/book/game.yaml"
    game.write_text(re.sub(r"  page: \S+", "  page: A5\n  booklet: A3", game.read_text()))
    assert cardgen("build", "book").code == 0
    w, h = page_size_mm(reader(project / "output/book/book-rulebook-booklet.pdf").pages[0])
    assert abs(w - 420) < 0.2 and abs(h - 297) < 0.2
    # Letter cannot hold two A5 pages side by side (296 mm of 279.4): an error at the key,
    # where the booklet was built with each page running off its sheet
    game.write_text(game.read_text().replace("  booklet: A3", "  booklet: Letter"))
    run = cardgen("build", "book")
    assert run.code == 1
    assert any("rulebook: booklet: Letter (279.4 x 215.9 mm turned) cannot hold two 148 x 210 "
               "mm pages side by side" in line for line in run.lines), run.lines


def test_english_rulebook_is_justified_between_words_and_hyphenated(project, cardgen):
    import re
    from rulebookcheck import keep_problems, raw_markup
    assert cardgen("new", "eng", "--paper", "letter").code == 0
    prose = ("Each player chooses one card from their hand and places it face down in front of "
             "them. The area where everyone's cards are placed is called the field, and placing "
             "a card there is called putting it out. Afterwards, the characteristically "
             "unpredictable consequences of every announcement are considered simultaneously "
             "by the participants, notwithstanding extraordinary circumstances. ")
    (project / "cards/eng/rulebook.md").write_text(
        "# Overview\n\n" + "\n\n".join([prose * 2] * 12) + "\n", "utf-8")
    game = project / "cards/eng/game.yaml"
    game.write_text(re.sub(r"  page: \S+", "  page: Half-letter", game.read_text()))
    assert cardgen("build", "eng").code == 0
    pdf = project / "output/eng/eng-rulebook.pdf"
    book = reader(pdf)
    streams = "".join(p.get_contents().get_data().decode("latin-1") for p in book.pages[2:])
    assert not [v for v in re.findall(r"([-0-9.]+) Tc", streams) if float(v) != 0]
    text = "\n".join(p.extract_text() for p in book.pages[2:])
    ends = re.findall(r"([A-Za-z]+)-\n", text)
    assert ends, "no line ends with a hyphen"
    assert not re.search(r"-\n[^\n]*-\n[^\n]*-\n", text)  # never three hyphens in a row
    paragraphs, size = _paragraphs(project, "eng")
    assert keep_problems(pdf, paragraphs, size) == [] and raw_markup(pdf) == []


def test_table_columns_follow_their_content_and_never_break_a_word_or_phrase(project, cardgen):
    from rulebookcheck import page_lines
    assert cardgen("new", "tab", "--lang", "ja").code == 0
    words = ["Value", "Copies", "Countess", "花見で一杯", "桐に鳳凰"]
    header = "| Card | " + " | ".join(words) + " |"
    rows = "\n".join(f"| 札{n} | " + " | ".join(["短い"] * len(words)) + " |" for n in range(3))
    (project / "cards/tab/rulebook.md").write_text(
        f"# 表\n\n{header}\n|---|{'---|' * len(words)}\n{rows}\n\n"
        "| 名前 | 説明 |\n|:---|---:|\n| 右 | 右寄せ |\n", "utf-8")
    game = project / "cards/tab/game.yaml"
    game.write_text(game.read_text().replace("  page: A5", "  page: B6"))
    run = cardgen("build", "tab")
    assert run.code == 0 and not any("table" in line for line in run.lines), run.lines
    lines = [text for page in page_lines(project / "output/tab/tab-rulebook.pdf")[2:]
             for _, _, text in page]
    header_line = next(line for line in lines if line.startswith("Card"))
    for word in words:  # each header cell on one line, whole
        assert word in header_line, (word, header_line)


def test_a_table_too_wide_even_with_smaller_text_is_a_located_warning(project, cardgen):
    assert cardgen("new", "wide", "--lang", "en").code == 0
    long = "Incomprehensibilities"
    (project / "cards/wide/rulebook.md").write_text(
        "# Wide\n\n| " + " | ".join([long] * 6) + " |\n|" + "---|" * 6 + "\n| "
        + " | ".join(["x"] * 6) + " |\n", "utf-8")
    run = cardgen("validate", "wide")
    assert run.code == 0
    (warning,) = [line for line in run.lines if "table" in line]
    assert warning.startswith("cards/wide/rulebook.md:3:1: warning: rulebook: a table is too "
                              "wide for the page even at 6.8 pt: columns 1 "
                              "('Incomprehensibilities'), 2 ('Incomprehensibilities'), ")
    assert "6 ('Incomprehensibilities') break inside words" in warning


def test_card_faces_in_a_rulebook_are_real_size_and_the_same_in_every_row(project, cardgen):
    from pdfcheck import Raster
    assert cardgen("new", "faces", "--lang", "ja", "--size", "mini").code == 0  # 44 x 63 mm
    (project / "cards/faces/rulebook.md").write_text(
        "# 札\n\n{{ card_faces(['scout', 'knight', 'oracle']) }}\n\n"
        "{{ card_faces(['scout'], scale=0.5) }}\n", "utf-8")
    assert cardgen("build", "faces").code == 0
    raster = Raster(project / "output/faces/faces-rulebook.pdf", 2, dpi=200)

    def blue_runs(y_mm):  # the cards' frame colour, #2f5d8a, along one row of pixels
        row = [raster.at(x / 10, y_mm) for x in range(0, 1480)]
        runs, start = [], None
        for i, (r, g, b) in enumerate(row + [(255, 255, 255)]):
            blue = b > 110 and r < 90 and g < 120
            if blue and start is None:
                start = i
            elif not blue and start is not None:
                runs.append((i - start) / 10)
                start = None
        return [w for w in runs if w > 1]

    # Rows of the cards' top frame (3 mm of blue across the whole card), top to bottom.
    rows, y = [], 15.0
    while y < 200:
        wide = [w for w in blue_runs(y) if w > 15]
        if wide and (not rows or y - rows[-1][0] > 10):
            rows.append((y, wide))
        y += 0.5
    # A5 column of 120 mm: two 44 mm cards to a row, the third alone below at the same
    # 44 mm, then the one at scale 0.5: 22 mm.
    # (a card's bottom frame shows as a band too)
    assert len(rows[0][1]) == 2 and any(len(ws) == 1 and abs(ws[0] - 44) < 0.6
                                        for _, ws in rows[1:]), rows
    widths = [w for _, ws in rows for w in ws]
    assert all(abs(w - 44) < 0.6 for w in widths[:-1]) and abs(widths[-1] - 22) < 0.6, widths


def test_ragged_right_and_typographers_quotes_on_request(project, cardgen):
    import re
    assert cardgen("new", "rag", "--paper", "letter").code == 0
    prose = "The \"first player\" takes the Princess; it's theirs until the end. " * 12
    (project / "cards/rag/rulebook.md").write_text(f"# Start\n\n{prose}\n", "utf-8")
    game = project / "cards/rag/game.yaml"
    game.write_text(re.sub(r"  page: \S+", "  page: A5\n  align: left\n  smart_quotes: true",
                           game.read_text()))
    assert cardgen("build", "rag").code == 0
    pdf = project / "output/rag/rag-rulebook.pdf"
    text = reader(pdf).pages[2].extract_text()
    assert "\u201cfirst player\u201d" in text and "it\u2019s" in text and '"' not in text
    # Ragged right: one run per line (not a word per run), so no line is spread.
    streams = reader(pdf).pages[2].get_contents().get_data().decode("latin-1")
    assert not re.search(r"-\n", text)  # and no hyphenation
    lines = [line for line in text.split("\n") if "player" in line or "Princess" in line]
    assert len(lines) >= 3
    assert streams.count(" Tj") < 40


def test_column_widths_set_in_the_template(project, cardgen):
    assert cardgen("new", "cw", "--paper", "letter").code == 0
    table = "| Card | Effect |\n|---|---|\n| Scout | Draw |\n| Knight | Discard |\n"
    (project / "cards/cw/rulebook.md").write_text(
        f"# Cards\n\n{{{{ column_widths(3, 1) }}}}\n\n{table}\n\n"
        f"{{{{ column_widths(1, 2, 3) }}}}\n\n{table}\n", "utf-8")
    run = cardgen("build", "cw")
    assert run.code == 0
    assert any("rulebook: column_widths gives 3 widths for a table of 2 columns" in line
               for line in run.lines), run.lines
    import re
    stream = reader(project / "output/cw/cw-rulebook.pdf").pages[2].get_contents().get_data()
    segments = re.findall(r"([-\d.]+) ([-\d.]+) m\s+([-\d.]+) ([-\d.]+) l",
                          stream.decode("latin-1"))
    # The first table's grid is drawn first: its vertical lines, left to right.
    verticals = []
    for x1, y1, x2, y2 in segments:
        if x1 == x2 and float(x1) not in verticals:
            verticals.append(float(x1))
        if len(verticals) == 3:
            break
    left, middle, right = sorted(verticals)
    lines = verticals
    assert abs((middle - left) / (right - left) - 0.75) < 0.02, lines


def test_emphasis_is_italic_in_a_latin_family_and_japanese_falls_back(project, cardgen):
    import pypdf
    assert cardgen("new", "ital", "--paper", "letter").code == 0
    game = project / "cards/ital/game.yaml"
    game.write_text(re.sub(r"  page: \S+", "  page: A5\n  font: latin",
                           re.sub(r"(?m)^  font: .*\n", "", game.read_text())))
    (project / "cards/ital/rulebook.md").write_text(
        "# Play\n\nOn your turn you *must* play one card, the **Princess** (姫) never.\n", "utf-8")
    assert cardgen("build", "ital").code == 0
    runs = []
    for page in pypdf.PdfReader(project / "output/ital/ital-rulebook.pdf").pages[2:]:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append(
            (text.strip(), (font or {}).get("/BaseFont", ""))))
    fonts = {text: font for text, font in runs if text}
    assert "SourceSansPro-It" in fonts["must"], fonts
    assert "SourceSansPro-Bold" in fonts["Princess"] and "BIZUDPGothic" in fonts["姫"], fonts
    assert any("SourceSansPro-Regular" in f for f in fonts.values())
    game.write_text(game.read_text().replace("font: latin", "font: latn"))
    run = cardgen("validate", "ital")
    assert run.code == 1 and any("rulebook: font: unknown font family 'latn'" in line
                                 for line in run.lines), run.lines


def test_the_contents_page_is_set_in_the_rulebooks_font_with_its_fallback(project, cardgen):
    """The contents list is set by platypus, which takes no fallback font: it was set in the
    game's main family (BIZ UDPGothic) whatever `rulebook: font:` said. Its entries are now
    in the rulebook's font, a character that font lacks in the family it falls back to, as
    in the text; the word "Contents" too."""
    import pypdf
    assert cardgen("new", "toc", "--lang", "en").code == 0
    game = project / "cards/toc/game.yaml"
    text = game.read_text("utf-8")
    game.write_text(re.sub(r"(?m)^rulebook:\n", "rulebook:\n  font: latin\n", text)
                    if "  font: latin" not in text else text, "utf-8")
    (project / "cards/toc/rulebook.md").write_text(
        "# Setup & Play\n\nShuffle.\n\n## The Princess 姫\n\nKeep her.\n", "utf-8")
    run = cardgen("build", "toc")
    assert run.code == 0, run.lines
    runs: list = []
    pypdf.PdfReader(project / "output/toc/toc-rulebook.pdf").pages[1].extract_text(
        visitor_text=lambda text, cm, tm, font, size: runs.append(
            (text.strip(), (font or {}).get("/BaseFont", ""))))
    fonts = {}
    for text, font in runs:
        for word in text.split():
            fonts.setdefault(word, set()).add(font)
    for word in ("Contents", "Setup", "&", "Play", "The", "Princess"):
        assert all("SourceSansPro" in f for f in fonts[word]), (word, fonts)
    assert all("BIZUDPGothic" in f for f in fonts["姫"]), fonts


def test_a_too_wide_table_breaks_only_its_widest_columns_and_names_them(project, cardgen):
    from rulebookcheck import page_lines
    """On Half-letter, a table whose columns' longest words cannot all fit: the short words
    ("Knight") stay whole, only the columns that cannot keep their longest word break, and
    the warning names those (it named the widest column while "Knight" broke as Knig / ht)."""
    assert cardgen("new", "wide", "--lang", "en").code == 0
    long = "Incomprehensibilities Counterrevolutionaries"  # each word about 75 pt at 6.8 pt
    (project / "cards/wide/rulebook.md").write_text(
        "# Wide\n\n| Piece | Moves | Notes | Exceptions | Remarks | Costs |\n"
        "|---|---|---|---|---|---|\n"
        f"| Knight | Jumps | {long} | {long} | {long} | {long} |\n"
        f"| Bishop | Slides | {long} | {long} | {long} | {long} |\n", "utf-8")
    game = project / "cards/wide/game.yaml"
    text = game.read_text("utf-8")
    game.write_text(re.sub(r"(?m)^  page: .*$", "  page: Half-letter", text)
                    if re.search(r"(?m)^  page: ", text) else text, "utf-8")
    run = cardgen("build", "wide")
    assert run.code == 0, run.lines
    (warning,) = [line for line in run.lines if "table" in line]
    assert re.search(r"columns 3 \('Notes'\), 4 \('Exceptions'\), 5 \('Remarks'\), 6 "
                     r"\('Costs'\) break inside words", warning), warning
    text = " ".join(line for page in page_lines(project / "output/wide/wide-rulebook.pdf")
                    for _, _, line in page)  # (the cells of a row read as one line)
    for word in ("Knight", "Bishop", "Jumps", "Slides", "Piece", "Moves"):
        assert word in text, (word, text)


@pytest.mark.parametrize("font, bullet", [("latin", "•"), ("gothic", "•")])
def test_a_list_bullet_sits_on_its_item_first_baseline_in_any_font(project, cardgen, font,
                                                                   bullet):
    """The bullet is drawn by reportlab a font size below the item's top, the item's first
    line by cardgen's own placing: they share a baseline whatever the font's ascent (Source
    Sans' bullet sat 0.17 em low, on the line, and read as a full stop)."""
    import pypdf
    assert cardgen("new", "bul", "--paper", "letter", "--lang", "en").code == 0
    game = project / "cards/bul/game.yaml"
    game.write_text(re.sub(r"  page: \S+", f"  page: A5\n  font: {font}",
                           re.sub(r"(?m)^  font: .*\n", "", game.read_text())))
    (project / "cards/bul/rulebook.md").write_text(
        "# Parts\n\n- Duke x 3\n- Assassin x 3\n", "utf-8")
    assert cardgen("build", "bul").code == 0
    runs: list[tuple[str, float]] = []
    for page in pypdf.PdfReader(project / "output/bul/bul-rulebook.pdf").pages[2:]:
        page.extract_text(visitor_text=lambda text, cm, tm, f, size: runs.append(
            (text.strip(), tm[5] * cm[3] + cm[5])) if text.strip() else None)
    bullets = [y for text, y in runs if text == bullet]
    items = [y for text, y in runs if text.startswith(("Duke", "Assassin"))]
    assert len(bullets) == 2 and len(items) == 2, runs
    for b, line in zip(bullets, items):
        assert abs(b - line) < 0.05, (font, b, line)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_numbered_list_prints_its_numbers_with_the_mark_the_source_wrote(project, cardgen,
                                                                         lang):
    """`1.` prints "1." and `1)` prints "1)", as JLREQ and English books print them (reportlab
    printed the bare number)."""
    assert cardgen("new", "num", "--lang", lang).code == 0
    (project / "cards/num/rulebook.md").write_text(
        "# Turn\n\n1. Draw two cards.\n2. Play one card.\n\n"
        "# Scoring\n\n9) Count the routes.\n10) Add the tickets.\n", "utf-8")
    import pypdf
    assert cardgen("build", "num").code == 0
    runs: list[tuple[str, float, float]] = []
    for page in pypdf.PdfReader(project / "output/num/num-rulebook.pdf").pages[2:]:
        page.extract_text(visitor_text=lambda text, cm, tm, f, size: runs.append(
            (text.strip(), tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5])) if text.strip() else None)
    for number, item in (("1.", "Draw"), ("2.", "Play"), ("9)", "Count"), ("10)", "Add")):
        line = next((x, y) for text, x, y in runs if text.startswith(item))
        marks = [text for text, x, y in runs if abs(y - line[1]) < 0.05 and x < line[0]]
        assert marks == [number], (number, item, runs)


def _drawn_characters(path) -> dict[str, set[str]]:
    """Every character each font draws in a PDF: its base name (no subset tag) -> characters."""
    import pypdf
    drawn: dict[str, set[str]] = {}
    for page in pypdf.PdfReader(path).pages:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: drawn.setdefault(
            str((font or {}).get("/BaseFont", "")).split("+")[-1], set()).update(
                text.replace("\n", "")))
    return drawn


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_character_cardgen_adds_is_drawn_in_a_font_that_lacks_it(project, cardgen, lang):
    """A rulebook in Latin type (`rulebook: font: latin`, as `cardgen new` writes it) with
    Japanese in it: the paragraph's indent (an ideographic space, U+3000), an ideographic
    space in a heading (and so in the contents) and a Japanese list's mark (・) were drawn in
    Source Sans, which has none of them: a blank box. Each is drawn by the Japanese face the
    text falls back to, so every character of the PDF is one its font has."""
    from fontTools.ttLib import TTFont
    from conftest import REPO
    assert cardgen("new", "tofu", "--lang", lang, "--paper", "letter").code == 0
    game = project / "cards/tofu/game.yaml"
    text = game.read_text("utf-8")
    game.write_text(re.sub(r"(?m)^rulebook:\n", "rulebook:\n  font: latin\n", text)
                    if "  font: latin" not in text else text, "utf-8")
    (project / "cards/tofu/rulebook.md").write_text(
        "# Rules\n\nShuffle the decks.\n\n## 日本語　のルール\n\n"
        "手番のプレイヤーは好きな山札を選び、一番上のカードを引いて問題を読み上げる。\n\n"
        "- 山札\n- 手札\n", "utf-8")
    run = cardgen("build", "tofu")
    assert run.code == 0, run.lines
    drawn = _drawn_characters(project / "output/tofu/tofu-rulebook.pdf")
    for name, chars in drawn.items():
        if not name:
            continue
        cmap = TTFont(REPO / "fonts" / f"{name}.ttf", lazy=True).getBestCmap()
        lacking = sorted(ch for ch in chars if ord(ch) not in cmap)
        assert not lacking, (name, lacking)
    assert "\u3000" in drawn["BIZUDPGothic-Regular"], drawn
    assert "\u3000" not in drawn["SourceSansPro-Regular"], drawn


def test_card_faces_of_different_sizes_share_a_row_where_they_fit():
    """card_faces packs each row with the faces' own widths (the Codenames tester's 60 mm
    key card beside a 44 mm agent card, which a grid of the widest face's cells put on rows
    of their own), top-aligned, every row at one scale; a row never splits."""
    from reportlab.lib.units import mm
    from generator.primitives import Face
    from generator.rulebook.faces import Faces
    word, key, agent = Face(68 * mm, 43 * mm, ()), Face(60 * mm, 60 * mm, ()), \
        Face(44 * mm, 63 * mm, ())
    faces = Faces([word, key, agent, agent])
    width, height = faces.wrap(120 * mm, 1e9)
    assert faces._scale == 1.0 and faces._rows == [[0], [1, 2], [3]]
    assert abs(height - (43 + 63 + 63 + 2 * 3) * mm) < 1e-6  # each row as tall as its tallest
    assert abs(faces.rows_width() - (60 + 3 + 44) * mm) < 1e-6
    first, rest = faces.split(120 * mm, (43 + 3 + 63 + 10) * mm)  # two rows fit
    assert len(first.faces) == 3 and len(rest.faces) == 1
    same = Faces([agent] * 3)  # faces of one size: as many to a row as fit, as before
    same.wrap(120 * mm, 1e9)
    assert same._rows == [[0, 1], [2]]
