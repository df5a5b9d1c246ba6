"""cardgen in Japanese: the catalogue is complete and in step with the code, and the
language comes from --lang, the locale (LANG) or the game's lang:, English otherwise."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parent.parent
CATALOGUE = REPO / "generator/locale/ja/LC_MESSAGES/cardgen.po"


def marked() -> dict:
    """Every message the code marks for translation (as `make messages` extracts them)."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(REPO), method_map=method_map, options_map=options_map,
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


# The bad-input cases whose Japanese lines still carry English after the Japanese lead, and
# whose: the words a library or the designer wrote, which cardgen passes on as they are.
PASSED_ON = {
    "yaml-syntax-error": "PyYAML's description of the syntax error",
    "rulebook-syntax-error": "Jinja's description of the template's syntax error",
    "pattern-backreference": "RE2's description of the pattern",
    "pattern-lookahead": "RE2's description of the pattern",
    "python-check-raises": "the designer's Python check raised this text",
    "python-check-reports": "the designer's Python check reports this text",
    "odds-smaller-than-any-float": "the designer's question text",
}
_QUOTED = re.compile(r"「[^」]*」|'[^']*'|\"[^\"]*\"|`[^`]*`|\([^()]*\.(?:ya?ml|md|py|csv)\)")
_PROSE = re.compile(r"(?<![\w./-])(?:[a-z]{2,}\s+){2,}[a-z]{2,}(?![\w./-])")


def test_every_problem_of_the_bad_input_cases_reads_as_japanese(project, cardgen):
    """Under --lang ja, every line the 270-odd bad-input cases print (problems, summaries) is
    Japanese but for what it quotes: no English phrase of three words is left outside
    quotes, names and file paths, whatever part of the message (a value's wording, an
    exception's text, a list, the schema's expected words) it came from."""
    import shlex
    import shutil

    from test_bad_input import CASE_NAMES, CASES
    english = []
    for case in CASE_NAMES:
        folder = project / "cards" / case
        shutil.copytree(CASES / case, folder, symlinks=True, ignore=shutil.ignore_patterns(
            "expected.txt", "args.txt", "commands.txt", "exit.txt", "layouts"))
        if (CASES / case / "layouts").is_dir():
            shutil.copytree(CASES / case / "layouts", project / "layouts", dirs_exist_ok=True)
        args = (CASES / case / "args.txt").read_text("utf-8").split() \
            if (CASES / case / "args.txt").is_file() else []
        commands = [shlex.split(line) for line in (CASES / case / "commands.txt").read_text(
            "utf-8").splitlines() if line.strip()] if (CASES / case / "commands.txt").is_file() \
            else [["validate"]]
        for command in commands[:1]:
            run = cardgen("--lang", "ja", *command, *args, case)
            for line in run.lines:
                body = line.split(": ", 2)[-1] if re.search(r": (エラー|警告): ", line) else line
                if case not in PASSED_ON and _PROSE.search(_QUOTED.sub("", body)):
                    english.append(f"{case}: {line}")
        shutil.rmtree(folder)
    assert not english, "\n".join(english[:20])


def test_no_function_both_calls_the_translation_and_binds_its_name():
    """`_` is the translation: a function that also binds `_` (`for _ in ...`, `a, _ = ...`)
    makes it a local name, and its `_("...")` fails at run time."""
    import ast
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            binds, calls = False, False
            todo = list(ast.iter_child_nodes(fn))
            while todo:
                node = todo.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                     ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
                                     ast.GeneratorExp)):
                    continue  # scopes of their own
                if isinstance(node, ast.Name) and node.id == "_" and \
                        isinstance(node.ctx, ast.Store) or \
                        isinstance(node, ast.arg) and node.arg == "_":
                    binds = True
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                        node.func.id in ("_", "_n"):
                    calls = True
                todo += ast.iter_child_nodes(node)
            if binds and calls:
                found.append(f"{path.relative_to(REPO)}: {fn.name}")
    assert not found, found


def test_no_function_of_a_translated_module_binds_the_translation_name():
    """Where a module imports the translation `_`, no function binds `_` in its own scope
    (`for el, _, items in ...`): the next `_("...")` written in that function would fail at
    run time (export/checks.py's check_faces did so, unseen until a message was added)."""
    import ast
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        if not any(isinstance(node, ast.ImportFrom) and any(a.name == "_" and not a.asname
                                                            for a in node.names)
                   for node in tree.body):
            continue
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            todo = list(ast.iter_child_nodes(fn))
            while todo:
                node = todo.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                     ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
                                     ast.GeneratorExp)):
                    continue  # scopes of their own, walked by themselves
                if isinstance(node, ast.Name) and node.id == "_" and \
                        isinstance(node.ctx, ast.Store) or \
                        isinstance(node, ast.arg) and node.arg == "_":
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: {fn.name}")
                todo += ast.iter_child_nodes(node)
    assert not found, found


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
