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
from pypdf import PdfReader

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


from generator.cli import COMMANDS  # noqa: E402 (the words the usage line says as they are)

# Words a Japanese line may say in Latin letters: names of formats, marks and keys that are
# the same in every language (besides the game's own words, its ids and field names).
_LATIN_WORDS = {"pdf", "png", "svg", "csv", "json", "yaml", "cmyk", "icc", "tbd", "draft",
                "head", "ctrl", "ok", "http", "dpi", "mm", "in", "pt", "pnp", "tts", "git",
                "dice", "jp", "print", "meishi", "poker", "letter", "one", "gothic", "id",
                "cardgen", "python", "legal", "tabloid", "tabletop", "simulator", "avery",
                "fronts", "backs", *COMMANDS}
_CODE = re.compile(r"\{[^{}]*\}|\b[A-Z][A-Z0-9_]+\b|https?://\S+|\S*[/\\]\S*|\S+\.(?:pdf|png|txt|yaml|json|csv|md)\b|"
                   r"(?<!\w)--?[a-z][\w-]*|\[[\w-]+\]|\b\w+:(?![\w/])|\w+(?:[-_]\w+)+")


def english_words(line: str, own: set[str]) -> list[str]:
    """The English words of cardgen's own in a line said in Japanese: its Latin words but
    what it quotes, paths, file names, options, keys, checks and the game's own words."""
    body = _CODE.sub(" ", _QUOTED.sub(" ", line))
    return [w for w in re.findall(r"[A-Za-z]{2,}", body)
            if w.lower() not in _LATIN_WORDS and w not in own]


def test_every_command_speaks_a_lang_ja_games_japanese_under_an_english_locale(
        project, cardgen, monkeypatch):
    """For a game that says `lang: ja`, under an English locale, without --lang: every line
    every command prints (and the print guides they write) is Japanese but for the game's
    own words and what is the same in any language; so it stays while a file of the game
    has a YAML mistake."""
    import threading

    import yaml

    from generator import serve as serving
    from generator import watch as watching
    import shutil
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    for other in (project / "cards").iterdir():  # the one game of the project
        shutil.rmtree(other)
    assert cardgen("new", "demo", "--lang", "ja").code == 0
    folder = project / "cards/demo"
    game = yaml.safe_load((folder / "game.yaml").read_text("utf-8"))
    assert game["lang"] == "ja"
    with (folder / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("stats:\n  dice:\n    - {id: two, name: two dice, dice: 2d6, at_least: [7],"
                " exactly: [7]}\n")
    own = set(re.findall(r"[A-Za-z]{2,}", "".join(
        p.read_text("utf-8") for p in [*folder.iterdir(), *(project / "layouts").glob("demo-*")]
        if p.is_file())))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run(["git", "init", "-q", "."], cwd=project, check=True)
    subprocess.run([*git, "add", "-A"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "v1"], cwd=project, check=True)
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("name: 騎士", "name: 遍歴の騎士"), "utf-8")

    def watch_once(project, games, rebuild, stop, failed=None, saved=None, **_kwargs):
        for game_id in games:
            if saved:
                saved(game_id, [cards] * 5)
            rebuild(game_id)

    def serve_once(project, game, host, port, report=None, **kwargs):
        stop = threading.Event()
        real_serve(project, game, host, 0, stop=stop, **kwargs,
                   report=lambda preview: (report(preview), stop.set()))

    real_serve = serving.serve
    monkeypatch.setattr(watching, "watch", watch_once)
    monkeypatch.setattr(serving, "serve", serve_once)
    said: dict[str, list[str]] = {}
    commands = [["list"], ["validate"], ["validate", "demo"], ["build", "--stats", "demo"],
                ["build", "--png", "--proof", "--tts", "--quiet", "demo"], ["stats", "demo"],
                ["export", "demo", "--profile", "jp-print"], ["pnp", "demo"],
                ["showcase", "demo"], ["diff", "demo"], ["diff", "--visual", "demo"],
                ["diff", "--format", "markdown", "demo"], ["build", "--changed-since", "HEAD",
                                                           "demo"],
                ["watch", "demo"], ["serve", "demo"], ["calibrate"], ["build", "--help"],
                ["build", "--stirct", "demo"], ["stats", "--deck", "nothing", "demo"]]
    for command in commands:
        run = cardgen(*command)
        said[" ".join(command)] = run.lines
    for guide in ("demo-print-guide.txt", "demo-errata-print-guide.txt"):
        said[guide] = (project / "output/demo" / guide).read_text("utf-8").splitlines()
    # the pages cardgen prints its own words on: the visual diff's, the calibration sheet's
    pdfs = [project / "output/demo/demo-changes.pdf", *(project / "output").glob("calibration-*")]
    assert len(pdfs) == 2, pdfs
    for pdf in pdfs:
        said[pdf.name] = [line for page in PdfReader(pdf).pages
                          for line in (page.extract_text() or "").splitlines()]
    cards.write_text(cards.read_text("utf-8") + "  - {id: [broken\n", "utf-8")  # YAML mistake
    for command in (["validate"], ["build", "demo"], ["list"], ["stats", "demo"]):
        said["(a YAML mistake) " + " ".join(command)] = cardgen(*command).lines
    english = [f"{command}: {line}  <- {words}" for command, lines in said.items()
               for line in lines for words in [english_words(line, own)] if words]
    assert not english, "\n".join(english[:40])
    assert all(said.values()), [c for c, lines in said.items() if not lines]


def test_the_catalogue_and_the_japanese_docs_say_each_term_in_one_word():
    """generator/locale/ja/glossary.yaml gives each term one Japanese word: no translation and
    no Japanese page (outside its code) says a word the glossary rules out for it, and a
    translation of a message that says a term marked `says` says the term's word."""
    import yaml
    terms = yaml.safe_load((REPO / "generator/locale/ja/glossary.yaml").read_text("utf-8"))
    terms = terms["terms"]
    with CATALOGUE.open("rb") as f:
        messages = [(" ".join(m.id) if isinstance(m.id, tuple) else m.id,
                     m.string if isinstance(m.string, str) else m.string[0])
                    for m in read_po(f) if m.id]
    found = []
    for english, japanese in messages:
        for term in terms:
            for word in term.get("not", ()):
                if re.search(word, japanese) and not re.search(word, english):
                    found.append(f"{term['en']}: {japanese!r} says {word!r}, not {term['ja']}")
            said = re.search(rf"(?<![\w{{-]){re.escape(term['en'])}(?![\w}}:-])", english)
            if term.get("says") and said and term["ja"] not in japanese:
                found.append(f"{term['en']}: {japanese!r} does not say {term['ja']}")
    code = re.compile(r"^```.*?^```|`[^`]*`", re.S | re.M)
    for page in sorted((REPO / "docs/ja").glob("*.md")):
        prose = code.sub("", page.read_text("utf-8"))
        for term in terms:
            for word in term.get("not", ()):
                for m in re.finditer(word, prose):
                    found.append(f"docs/ja/{page.name}: {term['en']}: "
                                 f"{prose[max(0, m.start() - 20):m.end() + 10]!r}")
    assert not found, "\n".join(found)


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


def test_every_commands_help_is_japanese_and_80_columns_wide_at_most(cardgen, monkeypatch):
    """`cardgen --lang ja COMMAND --help`: argparse's own words too in Japanese, and every
    line, wrapped by display width (a wide character two columns), within 80 columns."""
    from generator.cli import COMMANDS
    from generator.i18n import columns
    monkeypatch.setenv("COLUMNS", "200")  # the help is 80 columns at most on any terminal
    for command in [None, *COMMANDS]:
        run = cardgen("--lang", "ja", *([command] if command else []), "--help")
        assert run.code == 0, command
        assert run.lines[0].startswith("使い方: cardgen"), run.lines[0]
        for english in ("usage:", "options:", "positional arguments:",
                        "show this help message and exit"):
            assert english not in run.out, (command, english)
        wide = [line for line in run.out.splitlines() if columns(line) > 80]
        assert not wide, (command, wide)
        assert "オプション:" in run.lines


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
            assert "報告" in text and "未定稿" in text, text[:400]
            status = browser.find_element("id", "status").text
            assert "エラー 0 件" in status and "未定稿" in status, status
            report = browser.execute_script("return document.getElementById('problems')"
                                            ".textContent")  # (its groups are folded)
            assert "（未定稿）" in report, report[:300]  # a draft's warning, in Japanese
            assert "Search cards" not in browser.page_source.split('id="words"')[0]
    finally:
        stop.set()
        thread.join(10)


def test_a_yaml_mistake_in_a_deck_file_keeps_a_japanese_games_words(project, cardgen,
                                                                    monkeypatch):
    """A deck file that does not load (a YAML mistake) leaves the run in the game's language,
    and the mistake is said in cardgen's words, not the YAML library's English (issue 63)."""
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    folder = project / "cards" / "kowareta"
    folder.mkdir()
    (folder / "game.yaml").write_text("title: 壊れた\nlang: ja\ndecks:\n  - id: main\n"
                                      "    cards: cards.yaml\n", "utf-8")
    (folder / "cards.yaml").write_text("cards:\n  - {id: one, name: 一\n  - id: two\n", "utf-8")
    run = cardgen("validate", "kowareta")
    assert run.code == 1
    assert run.lines == [
        "cards/kowareta/cards.yaml:3:7: エラー: YAML の構文: ',' か閉じる波かっこがありません"
        "（2:5 から始まる波かっこのマッピングの中） [yaml]",
        "kowareta: 失敗: エラー 1 件、警告 0 件（レイアウト、チェック、ルールブックは、これらを"
        "直してから確かめます）"]
