"""Decks kept in spreadsheets (CSV and XLSX), typed by the deck's schema, located errors."""

from __future__ import annotations

import textwrap

import openpyxl
import pytest

from pdfcheck import reader

GAME = textwrap.dedent("""
    title: 表計算
    decks:
      - id: main
        cards: {cards}
        {extra}
        fields:
          name: {{type: text, required: true}}
          power: {{type: integer, minimum: 1}}
          tags: {{type: list, separator: "|", items: {{type: text, enum: [song, dance]}}}}
          rare: {{type: boolean}}
""")
ROWS = [["id", "name", "copies", "power", "tags", "rare"],
        ["a", "歌姫", "2", "3", "song|dance", "yes"],
        ["b", "踊り子", "", "1", "dance", ""]]


def game(project, cards: str, extra: str = ""):
    folder = project / "cards/sheet"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME.format(cards=cards, extra=extra), "utf-8")
    return folder


def csv_text(rows) -> str:
    return "\r\n".join(",".join(r) for r in rows) + "\r\n"


def loaded_cards(project):
    from generator.load import Project
    from generator.pipeline import check
    outcome = check(Project.find(), "sheet")
    assert not outcome.report.errors, [p.format() for p in outcome.report.errors]
    return {c.id: c for c in outcome.game.cards()}


@pytest.mark.parametrize("encoding,bom",
                         [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("cp932", b"")])
def test_csv_in_utf8_with_or_without_bom_or_shift_jis(project, cardgen, encoding, bom):
    folder = game(project, "cards.csv")
    (folder / "cards.csv").write_bytes(bom + csv_text(ROWS).encode(encoding))
    cards = loaded_cards(project)
    assert cards["a"].fields == {"name": "歌姫", "power": 3, "tags": ["song", "dance"],
                                 "rare": True}
    assert cards["a"].copies == 2 and cards["b"].copies == 1  # an empty cell is no value
    assert "rare" not in cards["b"].fields
    run = cardgen("build", "sheet")
    assert run.code == 0, run.lines
    text = reader(project / "output/sheet/sheet-fronts.pdf").pages[0].extract_text()
    assert text.count("歌姫") == 2 and "踊り子" in text


def test_declared_encoding(project):
    folder = game(project, "cards.csv", "encoding: cp932")
    (folder / "cards.csv").write_bytes(csv_text(ROWS).encode("cp932"))
    assert loaded_cards(project)["b"].fields["name"] == "踊り子"


WESTERN = [["id", "name", "copies", "power", "tags", "rare"],
           ["a", "Café crème", "2", "3", "song", "yes"],
           ["b", "Señorita «Ñandú» ©", "", "1", "dance", ""]]


@pytest.mark.parametrize("encoding,declared", [
    ("cp1252", ""),  # as US Excel saves "CSV (Comma delimited)": found without a declaration
    ("cp1252", "encoding: cp1252"), ("latin-1", "encoding: latin-1"),
    ("mac_roman", "encoding: mac_roman"), ("utf-16", ""), ("utf-16", "encoding: utf-16")])
def test_csv_in_western_encodings_found_or_declared(project, cardgen, encoding, declared):
    folder = game(project, "cards.csv", declared)
    (folder / "cards.csv").write_bytes(csv_text(WESTERN).encode(encoding))
    cards = loaded_cards(project)
    assert cards["a"].fields["name"] == "Café crème"
    assert cards["b"].fields["name"] == "Señorita «Ñandú» ©"
    run = cardgen("build", "sheet")
    assert run.code == 0, run.lines
    text = reader(project / "output/sheet/sheet-fronts.pdf").pages[0].extract_text()
    assert "Café crème" in text and "Señorita «Ñandú» ©" in text


def test_shift_jis_kana_is_not_mistaken_for_cp1252(project):
    folder = game(project, "cards.csv")
    (folder / "cards.csv").write_bytes(csv_text(ROWS).encode("cp932"))
    assert loaded_cards(project)["a"].fields["name"] == "歌姫"  # no kana, but 0x89 is not cp1252


def test_a_byte_the_declared_encoding_cannot_read_is_located_at_its_row_and_column(project,
                                                                                   cardgen):
    folder = game(project, "cards.csv", "encoding: utf-8")
    (folder / "cards.csv").write_bytes(csv_text(WESTERN).encode("cp1252"))
    run = cardgen("validate", "sheet")
    assert run.code == 1
    assert run.lines[0] == (
        "cards/sheet/cards.csv:2:6: error: byte 0xE9 is not utf-8 text, but the deck declares "
        "encoding: utf-8; declare the encoding the file was saved in [encoding]")
    # A byte no encoding found by itself reads (0x81 is unassigned in cp1252, and a lone
    # trailing lead byte is not Shift_JIS): located, with what to do.
    folder = game(project, "cards.csv")
    (folder / "cards.csv").write_bytes(b"id,name\r\nok,fine\r\nbad,x\x81\r\n")
    run = cardgen("validate", "sheet")
    assert run.lines[0].startswith("cards/sheet/cards.csv:3:6: error: byte 0x81 is not cp1252 "
                                   "text, and the file is not UTF-8 or Shift_JIS (cp932) either")


@pytest.mark.parametrize("name", ["base64", "no-such-codec"])
def test_an_encoding_that_is_not_a_text_encoding_is_refused_at_its_key(project, cardgen, name):
    folder = game(project, "cards.csv", f"encoding: {name}")
    (folder / "cards.csv").write_bytes(csv_text(WESTERN).encode("cp1252"))
    run = cardgen("validate", "sheet")
    assert run.code == 1
    assert run.lines[0] == (
        f"cards/sheet/game.yaml:6:15: error: deck 'main': encoding must be a text encoding "
        "Python knows, such as utf-8, cp932, cp1252, latin-1, mac_roman or utf-16, not "
        f"'{name}' [schema]")


def test_a_bad_cell_in_a_csv_is_located_by_row_and_column(project, cardgen):
    folder = game(project, "cards.csv")
    rows = [r[:] for r in ROWS]
    rows[2][3] = "strong"
    rows[1][4] = "song|poem"
    (folder / "cards.csv").write_text(csv_text(rows), "utf-8")
    run = cardgen("validate", "sheet")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [
        "cards/sheet/cards.csv:2:5: error: card 'a': item 2 of tags must be one of song, dance, "
        "not 'poem' [schema]",
        "cards/sheet/cards.csv:3:4: error: card 'b': power must be an integer, not text "
        "('strong') [schema]",
    ]


def workbook(path, sheets: dict):
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)


def test_two_decks_from_two_sheets_of_one_workbook(project, cardgen):
    folder = game(project, "cards.xlsx", "worksheet: Characters")
    text = (folder / "game.yaml").read_text("utf-8")
    (folder / "game.yaml").write_text(
        text + "  - id: extra\n    cards: cards.xlsx\n    worksheet: Extras\n", "utf-8")
    workbook(folder / "cards.xlsx", {
        "Characters": [["id", "name", "copies", "power", "tags", "rare"],
                       ["a", "歌姫", 2, 3, "song|dance", True],
                       ["b", "踊り子", None, 1.0, "dance", None]],
        "Extras": [["id", "name"], ["x", "予備"]]})
    cards = loaded_cards(project)
    assert cards["a"].fields == {"name": "歌姫", "power": 3, "tags": ["song", "dance"],
                                 "rare": True}
    assert cards["b"].fields["power"] == 1 and isinstance(cards["b"].fields["power"], int)
    assert cards["x"].fields == {"name": "予備"}
    assert cardgen("build", "sheet").code == 0


def test_a_bad_cell_in_a_workbook_is_located_by_sheet_and_cell(project, cardgen):
    folder = game(project, "cards.xlsx", "worksheet: Characters")
    workbook(folder / "cards.xlsx", {"Characters": [
        ["id", "name", "power"], ["a", "歌姫", 3], ["b", "踊り子", "strong"]]})
    run = cardgen("validate", "sheet")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [
        "cards/sheet/cards.xlsx[Characters]!C3: error: card 'b': power must be an integer, not "
        "text ('strong') [schema]"]


def test_a_workbook_cell_reads_its_escapes_as_a_spreadsheet_program_writes_them(project, cardgen):
    """A workbook writes a character XML cannot hold as `_xHHHH_` (a carriage return in a
    Windows line break as `_x000D_`, a `_` that would start one as `_x005F_`): read back,
    a line break is a line break, and text that only looks like an escape stays as typed."""
    folder = game(project, "cards.xlsx", "worksheet: Characters")
    workbook(folder / "cards.xlsx", {"Characters": [
        ["id", "name"], ["a", "歌姫_x000D_\n踊り子"], ["b", "_x005F_x0041_ and _x0041_"]]})
    cards = loaded_cards(project)
    assert cards["a"].fields["name"] == "歌姫\r\n踊り子"
    assert cards["b"].fields["name"] == "_x0041_ and _x0041_"
    assert cardgen("build", "--cards-pdf", "sheet").code == 0
    text = reader(project / "output/sheet/sheet-cards.pdf").pages[0].extract_text()
    assert "歌姫\n踊り子" in text and "_x000D_" not in text


def test_an_unknown_worksheet(project, cardgen):
    folder = game(project, "cards.xlsx", "worksheet: Nope")
    workbook(folder / "cards.xlsx", {"Characters": [["id", "name"], ["a", "歌姫"]]})
    run = cardgen("validate", "sheet")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [
        "cards/sheet/game.yaml:6:16: error: workbook cards/sheet/cards.xlsx has no sheet 'Nope' "
        "(sheets: Characters) [reference]"]


def test_a_computed_field_takes_its_declared_type(project, cardgen):
    """A generated deck's template gives text; a field declared integer, number or boolean
    takes that type from it (pips was refused: "must be an integer, not text ('5')")."""
    from generator.load import Project
    from generator.pipeline import check
    game = project / "cards/dice"
    game.mkdir()
    (game / "game.yaml").write_text(
        "title: Dice\ndecks:\n  - id: faces\n    cards: faces.yaml\n    fields:\n"
        "      pips: {type: integer}\n      half: {type: number}\n      odd: {type: boolean}\n"
        "      name: {type: text}\n", "utf-8")
    (game / "faces.yaml").write_text(
        "generate:\n  each: {number: [1, 2, 3]}\n  id: \"f{{ number }}\"\n  fields:\n"
        "    pips: \"{{ 7 - number }}\"\n    half: \"{{ number / 2 }}\"\n"
        "    odd: \"{{ number is odd }}\"\n    name: \"{{ number * 11 }}\"\n", "utf-8")
    outcome = check(Project.find(project), "dice")
    assert not outcome.report.errors, [str(p) for p in outcome.report.errors]
    fields = [dict(c.fields) for c in outcome.game.decks[0].cards]
    assert fields[1] == {"pips": 5, "half": 1.0, "odd": False, "name": "22"}
    assert cardgen("build", "dice").code == 0
