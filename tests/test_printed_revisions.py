"""A rules revision reaches everything printed (issue 37): the rulebook's pages and text,
the data only the rulebook prints, and the boards' pages are part of `cardgen diff` and of
the errata set `build --changed-since` writes, as card faces are; an edit that prints
nothing gives no changes and the same bytes.

A small game (a deck, a rulebook that prints a points table from data, a grid board drawn
from data) is committed, edited in turn, and read back: diff's text and JSON, and the
errata files' pages.
"""

from __future__ import annotations

import hashlib
import json
import time

import pikepdf
import pytest

from conftest import git, write_game

RULEBOOK = """# Overview

Each player takes turns drawing a card. The first to score wins.

# Scoring

{% for name, kind in data.rules.kinds.items() %}
- {{ name }}: {{ kind.points }} points
{% endfor %}

# Setup

Shuffle the deck and deal {{ data.rules.hand }} cards to each player.
"""


RULES = b"hand: 3\nkinds:\n  kyo: {points: 20}\n  dai: {points: 40}\n"
MAP = ("types:\n  plain: {color: '#ebe5c9'}\n  water: {color: '#9ecbe8'}\ncells:\n" +
       "".join(f"  - {{column: {c}, row: {r}, type: plain}}\n"
               for r in (1, 2) for c in (1, 2, 3))).encode()


@pytest.fixture
def game(project):
    folder = write_game(project, "rev", {
        "title": "Revision", "lang": "en",
        "decks": [{"id": "main", "fields": {"name": {"type": "text"}, "kind": {"type": "text"}}}],
        "data": {"rules": "rules.yaml", "map": "map.yaml"},
        "rulebook": {"template": "rulebook.md", "page": "A5"},
        "boards": [{"id": "map", "layout": "grid", "cells": "data.map.cells",
                    "types": "data.map.types"}],
    }, [{"id": "one", "name": "One", "kind": "kyo"}, {"id": "two", "name": "Two", "kind": "dai"}],
        files={"rulebook.md": RULEBOOK.encode(),
               "rules.yaml": RULES, "map.yaml": MAP})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    return folder


def _diff(cardgen, *args):
    run = cardgen("diff", "rev", *args)
    assert run.code == 0, run.lines
    return run


def _pages(path) -> int:
    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def test_a_paragraph_added_to_the_rulebook_is_its_pages_and_its_sheets(game, project, cardgen):
    rulebook = game / "rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n# FAQ\n\nQ. May I pass?\n\n"
                        "A. No: every turn, you draw.\n", "utf-8")
    run = _diff(cardgen)
    assert "~ rulebook: 3 pages" in run.lines \
        or any(line.startswith("~ rulebook:") for line in run.lines)
    assert any(line.startswith("    + section 'FAQ' (p. ") for line in run.lines), run.lines
    report = json.loads(_diff(cardgen, "--format", "json").out)
    book = (report["games"][0] if "games" in report else report)["rulebook"]
    assert book["reprint"] and all(p["how"] in ("changed", "added", "moved", "reflowed")
                                   for p in book["pages"])
    assert cardgen("build", "rev", "--changed-since", "HEAD").code == 0
    out = project / "output/rev"
    assert _pages(out / "rev-errata-rulebook.pdf") == len(book["reprint"])
    assert _pages(out / "rev-errata-rulebook-booklet.pdf") == 2 * len(book["booklet_sheets"])
    assert _pages(out / "rev-rulebook.pdf") == book["pages_after"]
    guide = (out / "rev-errata-print-guide.txt").read_text("utf-8")
    assert f"rulebook: print page{'s' if len(book['reprint']) > 1 else ''} " in guide
    assert "rulebook booklet: reprint sheet" in guide
    assert not (out / "rev-errata-board-map.pdf").exists()  # the board did not change


def test_a_data_value_only_the_rulebook_prints_is_a_rulebook_change(game, cardgen):
    rules = game / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("kyo: {points: 20}", "kyo: {points: 25}"),
                     "utf-8")
    run = _diff(cardgen)
    assert any(line.startswith("    data rules.kinds.kyo.points: 20 -> 25: rulebook p. ")
               for line in run.lines), run.lines
    assert "changes that print nothing:" not in run.lines
    assert any(line.startswith("    ~ section 'Scoring'")
               and line.endswith('"kyo: ~~20~~ **25** points"')
               for line in run.lines), run.lines


def test_a_board_cell_changed_is_its_board_page_and_its_cause(game, project, cardgen):
    board_data = game / "map.yaml"
    text = board_data.read_text("utf-8")
    board_data.write_text(text.replace("{column: 2, row: 2, type: plain}",
                                       "{column: 2, row: 2, type: water}"), "utf-8")
    run = _diff(cardgen)
    assert "~ board 'map': page 1 of 1 prints differently" in run.lines, run.lines
    assert "    cell B2 type: plain -> water" in run.lines, run.lines
    assert cardgen("build", "rev", "--changed-since", "HEAD").code == 0
    out = project / "output/rev"
    assert _pages(out / "rev-errata-board-map.pdf") == 1
    guide = (out / "rev-errata-print-guide.txt").read_text("utf-8")
    assert "board 'map': print page 1 of 1 again (cell B2 " in guide
    assert "cell B2 type: plain -> water" in guide
    assert "print nothing" not in guide  # the cells' data is what the board prints
    assert not (out / "rev-errata-rulebook.pdf").exists()  # the rulebook did not change


def test_an_edit_that_prints_nothing_says_so_and_changes_no_byte(game, project, cardgen):
    assert cardgen("build", "rev").code == 0
    out = project / "output/rev"
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.glob("*.pdf")}
    rules = game / "rules.yaml"
    rules.write_text("# the points are the designer's first guess\n" + rules.read_text("utf-8"),
                     "utf-8")
    assert _diff(cardgen).lines == ["rev: no changes"]
    run = cardgen("build", "rev", "--changed-since", "HEAD")
    assert run.lines == ["rev: nothing printed changed since HEAD"], run.lines
    assert cardgen("build", "rev").code == 0
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.glob("*.pdf")} == before


def _revise(game):
    """One playtest's revision: a card renamed, a points value, a FAQ, a space of the map."""
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("name: One\n", "name: One Prime\n")
                     .replace("name: 一\n", "name: 一番\n"), "utf-8")
    rules = game / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("kyo: {points: 20}", "kyo: {points: 25}"),
                     "utf-8")
    board_data = game / "map.yaml"
    board_data.write_text(board_data.read_text("utf-8").replace(
        "{column: 2, row: 2, type: plain}", "{column: 2, row: 2, type: water}"), "utf-8")


def test_the_changelog_for_players_in_english(game, cardgen):
    rulebook = game / "rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n# FAQ\n\nQ. May I pass?\n\n"
                        "A. No: every turn, you draw.\n", "utf-8")
    _revise(game)
    run = cardgen("diff", "rev", "--format", "markdown")
    assert run.code == 0
    assert run.out.splitlines() == [
        "# Revision: changes since HEAD",
        "",
        "## Cards",
        "",
        "- One Prime: name “One” → “One Prime”",
        "",
        "## Rules",
        "",
        "- Scoring: “kyo: ~~20~~ **25** points” (p. 3)",
        "- New section: FAQ (p. 3)",
        "  - “Q. May I pass?”",
        "  - “A. No: every turn, you draw.”",
        "",
        "## Components",
        "",
        "- Board “map”: space B2: type plain → water",
        "",
    ]


def test_the_changelog_for_players_in_japanese(project, cardgen):
    folder = write_game(project, "kai", {
        "title": "改訂", "lang": "ja",
        "decks": [{"id": "main", "fields": {"name": {"type": "text"}, "kind": {"type": "text"}}}],
        "data": {"rules": "rules.yaml", "map": "map.yaml"},
        "rulebook": {"template": "rulebook.md", "page": "A5"},
        "boards": [{"id": "map", "title": "戦場", "layout": "grid", "cells": "data.map.cells",
                    "types": "data.map.types"}],
    }, [{"id": "one", "name": "一", "kind": "kyo"}, {"id": "two", "name": "二", "kind": "dai"}],
        files={"rulebook.md": ("# 得点\n\n{% for name, kind in data.rules.kinds.items() %}\n"
                               "- {{ name }}：{{ kind.points }}点\n{% endfor %}\n\n# 準備\n\n"
                               "山札をよく切り、各プレイヤーに{{ data.rules.hand }}"
                               "枚ずつ配ります。\n"
                               ).encode(),
               "rules.yaml": RULES, "map.yaml": MAP})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    rulebook = folder / "rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8").replace(
        "枚ずつ配ります。", "枚ずつ配ります。残りは場の中央に置きます。"), "utf-8")
    _revise(folder)
    run = cardgen("diff", "kai", "--format", "markdown")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[:5] == ["# 改訂：HEAD からの変更点", "", "## カード", "",
                         "- 一番：name「一」→「一番」"]
    assert lines[5:8] == ["", "## ルール", ""]
    assert lines[8] == "- 得点：「kyo：~~20~~**25**点」（3ページ）"
    assert lines[9].startswith("- 準備：「山札をよく切り、各プレイヤーに3枚ずつ配ります。"
                               "**残りは場の中央に置きます。**」")
    assert lines[10:] == ["", "## コンポーネント", "",
                          "- ボード「戦場」：マスB2：type plain → water", ""]


def test_the_visual_diff_shows_rulebook_and_board_pages_before_and_after(game, project, cardgen):
    from pdfcheck import reader
    rulebook = game / "rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n# FAQ\n\nQ. May I pass?\n", "utf-8")
    _revise(game)
    assert cardgen("diff", "rev", "--visual").code == 0
    pdf = reader(project / "output/rev/rev-changes.pdf")
    text = " ".join(page.extract_text() for page in pdf.pages)
    assert "one (front)" in text and "rulebook p. 3" in text and "board 'map' p. 1" in text
    images = sum(len(page.images) for page in pdf.pages)
    assert images >= 2 * 3  # before and after of the card, a rulebook page and the board


def test_the_preview_shows_rulebook_and_boards_and_marks_what_changed(game, project):
    """`cardgen serve --changes-since HEAD` in headless Chromium: the rulebook's pages and the
    board are on the page, the ones that print differently are marked, the changes section
    shows them before and after, and the project's fonts load (HTTP 200)."""
    import urllib.request
    from browser import chrome
    from test_serve import served
    rulebook = game / "rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n# FAQ\n\nQ. May I pass?\n", "utf-8")
    _revise(game)
    with served("rev", wait=60, since="HEAD") as (url, state):
        assert state["pages"] and state["boards"][0]["pages"]
        assert state["changed_pages"] and state["boards"][0]["changed"] == \
            state["boards"][0]["pages"]
        with chrome() as browser:
            browser.get(url + "/")
            shown = browser.execute_script(
                "return [document.querySelectorAll('#rulebook img').length,"
                " document.querySelectorAll('#rulebook img.changed').length,"
                " document.querySelectorAll('#boards img').length,"
                " document.querySelectorAll('#boards img.changed').length,"
                " [...document.querySelectorAll('.change figcaption code')]"
                ".map(c => c.textContent)]")
            assert shown[0] == len(state["pages"]) and shown[1] == len(state["changed_pages"])
            assert shown[2] == 1 and shown[3] == 1
            assert "one" in shown[4] and "board 'map' p. 1" in shown[4]
            assert any(c.startswith("rulebook p. ") for c in shown[4])
            # every picture comes (a card's is drawn when the page asks for it: soon after)
            deadline = time.monotonic() + 60
            while not browser.execute_script(
                    "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"):
                assert time.monotonic() < deadline, "a picture never came"
                time.sleep(0.1)
            fonts = browser.execute_script(
                "return performance.getEntriesByType('resource')"
                ".filter(e => e.name.includes('/fonts/')).map(e => e.name)")
        assert fonts  # the page asked for the project's fonts
        for font in fonts:
            with urllib.request.urlopen(font, timeout=5) as response:
                assert response.status == 200


@pytest.mark.parametrize("lang, said", [
    ("en", ["# Notes: changes since HEAD", "", "## Changed, printed nowhere", "",
            "- card 'one' field note: first draft → second draft", ""]),
    ("ja", ["# Notes：HEAD からの変更点", "", "## 変更（どこにも刷られないもの）", "",
            "- カード「one」のフィールド note: first draft → second draft", ""])])
def test_the_changelog_says_what_changed_but_prints_nowhere(project, cardgen, lang, said):
    """Only a field no face prints changed: the players' changelog said "No changes."; it
    says what changed, apart, in the game's language (with a printed change too, it is left
    out: test_revision_causes)."""
    folder = write_game(project, "notes", {
        "title": "Notes", "lang": lang,
        "decks": [{"id": "main", "fields": {"name": {"type": "text"}, "note": {"type": "text"}}}],
    }, [{"id": "one", "name": "One", "note": "first draft"}])
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("first draft", "second draft"), "utf-8")
    run = cardgen("diff", "notes", "--format", "markdown")
    assert run.code == 0
    assert run.out.splitlines() == said
