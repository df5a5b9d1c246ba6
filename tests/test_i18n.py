"""cardgen in Japanese: the catalogue is complete and in step with the code, and the
language comes from --lang, the locale (LANG) or the game's lang:, English otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parent.parent
CATALOGUE = REPO / "generator/locale/ja/LC_MESSAGES/cardgen.po"


def marked() -> dict:
    """Every message the code marks for translation (as `make messages` extracts them)."""
    found = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(REPO / "generator"), method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "_n": (1, 2)}, comment_tags=()):
        found[message if isinstance(message, str) else tuple(message)] = f"{filename}:{lineno}"
    return found


def test_every_marked_message_is_translated_with_the_same_values():
    from generator.i18n import places
    with CATALOGUE.open("rb") as f:
        catalogue = {m.id: m for m in read_po(f) if m.id}
    for m in list(catalogue.values()):  # a plural's singular is a word of its own too
        if isinstance(m.id, tuple):
            catalogue.setdefault(m.id[0], m)
    code = marked()
    assert len(code) > 300
    untranslated = [(where, msg) for msg, where in code.items()
                    if msg not in catalogue or not (catalogue[msg].string if isinstance(msg, str)
                                                    else catalogue[msg].string[0])
                    or catalogue[msg].fuzzy]
    assert not untranslated, f"run make messages and translate: {untranslated[:5]}"
    for msg in code:
        english = msg if isinstance(msg, str) else msg[0]
        string = catalogue[msg].string
        japanese = string if isinstance(string, str) else string[0]
        want = places(english) | (places(msg[1]) if isinstance(msg, tuple) else set())
        assert places(japanese) == want, (english, japanese)
    stale = [m for m in catalogue if m not in code and not isinstance(m, str) or
             isinstance(m, str) and m not in code and not any(
                 isinstance(c, tuple) and c[0] == m for c in code)]
    assert not stale, f"the catalogue translates what the code no longer says: {stale[:5]}"


def test_the_sample_message_of_the_issue_reads_as_japanese(project, cardgen, monkeypatch):
    game = project / "cards/goita"
    game.mkdir()
    (game / "game.yaml").write_text("title: ごいた\ndecks:\n  - id: koma\n    cards: koma.yaml\n"
                                    "    fields:\n      points: {type: integer}\n", "utf-8")
    (game / "koma.yaml").write_text("cards:\n  - {id: uma, points: 二十}\n", "utf-8")
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    run = cardgen("validate", "goita")
    assert run.code == 1
    assert "cards/goita/koma.yaml:2:23: エラー: カード「uma」: points は整数で書いてください" \
           "（「二十」は文字です） [schema]" in run.lines, run.lines
    assert run.lines[-1] == "goita: 失敗: エラー 1 件、警告 0 件"
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    english = cardgen("validate", "goita")
    assert "cards/goita/koma.yaml:2:23: error: card 'uma': points must be an integer, not " \
           "text ('二十') [schema]" in english.lines, english.lines
    assert cardgen("--lang", "ja", "validate", "goita").lines == run.lines  # --lang decides


def test_a_game_that_says_lang_ja_speaks_japanese_and_its_own_messages_stay(project, cardgen,
                                                                            monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    game_yaml = project / "cards/odoriko/game.yaml"
    game_yaml.write_text("lang: ja\n" + game_yaml.read_text("utf-8"), "utf-8")
    run = cardgen("validate", "odoriko")  # lang: ja
    assert any(": 警告: " in line and "（未定稿）" in line for line in run.lines), run.lines
    assert run.lines[-1].startswith("odoriko: OK: エラー 0 件、警告 ")
    lastdance = cardgen("validate", "lastdance")  # no lang: English without a Japanese locale
    assert lastdance.lines[-1].startswith("lastdance: ok: 0 errors, ")
    assert cardgen("--lang", "en", "validate", "odoriko").lines[-1].startswith("odoriko: ok:")
    # A check's own message is the game's words: printed as written, in any language.
    checks = project / "cards/odoriko/checks.yaml"
    checks.write_text(checks.read_text("utf-8") + "  - name: always\n    assert: \"false\"\n"
                      "    message: \"Written by the designer, kept as written\"\n", "utf-8")
    said = cardgen("validate", "odoriko")
    assert any("Written by the designer, kept as written" in line and "エラー" in line
               for line in said.lines), said.lines


def test_the_locale_is_read_as_gettext_reads_it():
    from generator.i18n import from_environment
    assert from_environment({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert from_environment({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"
    assert from_environment({"LC_MESSAGES": "ja_JP.eucJP"}) == "ja"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) is None
    assert from_environment({}) is None


def test_the_command_speaks_japanese_under_a_japanese_locale_in_a_process_of_its_own(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env["LANG"] = "ja_JP.UTF-8"
    run = subprocess.run([sys.executable, "-m", "generator", "validate", "nothing-here"],
                         cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 2
    assert "ゲーム「nothing-here」はありません" in run.stderr, run.stderr


def test_every_word_the_preview_page_says_is_marked_for_the_catalogue():
    import re
    from generator.serve import PAGE_WORDS
    marked_words = {w.template for w in PAGE_WORDS}
    static = REPO / "generator/serve/static"
    script = (static / "page.js").read_text("utf-8")
    said = set(re.findall(r"\bT\('((?:[^'\\]|\\.)*)'", script))
    for one, many in re.findall(r"\bN\('((?:[^'\\]|\\.)*)', '((?:[^'\\]|\\.)*)'", script):
        said |= {one, many}
    said |= set(re.findall(r"'((?:long|short)-edge)': '([^']*)'", script) and
                [w for _k, w in re.findall(r"'((?:long|short)-edge)': '([^']*)'", script)])
    page = (static / "page.html").read_text("utf-8")
    said |= set(re.findall(r"""\bt\(["']([^"']*)["']""", page))
    assert len(said) > 40
    assert said <= marked_words, sorted(said - marked_words)


def test_the_preview_page_in_japanese_in_headless_chromium(project):
    import threading
    import time
    from browser import chrome
    from generator import i18n
    from generator.load import Project
    from generator.serve import serve
    from test_serve import _built
    address, stop = {}, threading.Event()

    def run():
        with i18n.speaking("ja"):  # cardgen --lang ja serve lastdance (an English game)
            serve(project=Project.find(), game="lastdance", port=0, stop=stop,
                  ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}"))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while "url" not in address or not _built(address["url"]):
            assert time.monotonic() < deadline, "the preview was not built"
            time.sleep(0.1)
        with chrome() as browser:
            browser.get(address["url"] + "/")
            time.sleep(0.5)
            search = browser.find_element("id", "search").get_attribute("placeholder")
            assert search == "カードを検索: id、名前、どの値でも"
            text = browser.find_element("tag name", "body").text
            assert "報告" in text and "下書き" in text, text[:400]
            status = browser.find_element("id", "status").text
            assert "エラー 0 件" in status and "下書き" in status, status
            report = browser.execute_script("return document.getElementById('problems')"
                                            ".textContent")  # (its groups are folded)
            assert "（未定稿）" in report, report[:300]  # a draft's warning, in Japanese
            assert "Search cards" not in browser.page_source.split('id="words"')[0]
    finally:
        stop.set()
        thread.join(10)
