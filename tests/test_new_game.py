"""`cardgen new` follows the person who runs it (issue 66): the new game's language is the
run's (--lang, else the locale's, else English), its paper the locale's (LC_PAPER, LC_ALL
or LANG: Letter in the United States and Canada, A4 elsewhere), its cards the language's
first size (poker cards in English, meishi in Japanese), and every option overrides. Each
cell runs `cardgen new` in a process of its own under the cell's environment, reads back
what it wrote (language, comments, sheet, size) and what it said, and builds the game at
once, reading the fronts' page size back from the PDF."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import REPO
from pdfcheck import fonts as page_fonts, reader

LETTER, A4 = (8.5, 11.0), (8.27, 11.69)  # inches, as the fronts PDF's page reads back
LOCALE_VARIABLES = ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_PAPER", "LC_CTYPE")

# The environment, the options -> the game's language, paper, card size (as the layouts
# say it) and sheet preset. Written out by hand: the rule is the code's, these are what a
# designer expects of it.
CELLS = [
    # An American: poker cards on Letter, in English; each option overrides its part only.
    ({"LANG": "en_US.UTF-8"}, [], "en", "Letter", "poker", "letter-poker-9up"),
    ({"LANG": "en_US.UTF-8"}, ["--lang", "ja"], "ja", "Letter", "meishi", "plain-letter"),
    ({"LANG": "en_US.UTF-8"}, ["--paper", "a4"], "en", "A4", "poker", "a4-poker-9up"),
    ({"LANG": "en_US.UTF-8"}, ["--size", "us-business"], "en", "Letter", "us-business",
     "avery-5371"),
    ({"LANG": "en_US.UTF-8"}, ["--lang", "ja", "--paper", "A4", "--size", "poker"], "ja", "A4",
     "poker", "a4-poker-9up"),
    # A British designer: English, on A4.
    ({"LANG": "en_GB.UTF-8"}, [], "en", "A4", "poker", "a4-poker-9up"),
    ({"LANG": "en_GB.UTF-8"}, ["--lang", "ja"], "ja", "A4", "meishi", "a-one-51002"),
    ({"LANG": "en_GB.UTF-8"}, ["--paper", "letter"], "en", "Letter", "poker", "letter-poker-9up"),
    ({"LANG": "en_GB.UTF-8"}, ["--size", "mini"], "en", "A4", "mini", "plain-a4"),
    # A Japanese designer: meishi on A4 (A-One's sheet), in Japanese.
    ({"LANG": "ja_JP.UTF-8"}, [], "ja", "A4", "meishi", "a-one-51002"),
    ({"LANG": "ja_JP.UTF-8"}, ["--lang", "en"], "en", "A4", "poker", "a4-poker-9up"),
    ({"LANG": "ja_JP.UTF-8"}, ["--paper", "Letter"], "ja", "Letter", "meishi", "plain-letter"),
    ({"LANG": "ja_JP.UTF-8"}, ["--size", "poker"], "ja", "A4", "poker", "a4-poker-9up"),
    ({"LANG": "ja_JP.UTF-8"}, ["--lang", "en", "--paper", "letter", "--size", "2.5x3.5in"],
     "en", "Letter", "[2.5in, 3.5in]", "plain-letter"),
    # The C locale says no language and no paper: English on A4 (glibc's C paper).
    ({"LANG": "C"}, [], "en", "A4", "poker", "a4-poker-9up"),
    ({"LC_ALL": "C"}, ["--lang", "ja"], "ja", "A4", "meishi", "a-one-51002"),
    ({"LANG": "C.UTF-8"}, ["--paper", "letter"], "en", "Letter", "poker", "letter-poker-9up"),
    ({"LANG": "C"}, ["--size", "tarot"], "en", "A4", "tarot", "plain-a4"),
    # The locale's parts: LC_ALL over all; LC_PAPER over LANG for the paper alone.
    ({"LANG": "en_US.UTF-8", "LC_ALL": "ja_JP.UTF-8"}, [], "ja", "A4", "meishi", "a-one-51002"),
    ({"LANG": "ja_JP.UTF-8", "LC_ALL": "C"}, [], "en", "A4", "poker", "a4-poker-9up"),
    ({"LANG": "en_GB.UTF-8", "LC_PAPER": "en_US.UTF-8"}, [], "en", "Letter", "poker",
     "letter-poker-9up"),
    ({"LANG": "ja_JP.UTF-8", "LC_PAPER": "en_CA.UTF-8"}, [], "ja", "Letter", "meishi",
     "plain-letter"),
    ({"LANG": "fr_CA.UTF-8"}, [], "en", "Letter", "poker", "letter-poker-9up"),  # no French
    ({}, [], "en", "A4", "poker", "a4-poker-9up"),  # no locale at all (as on Windows)
]


def _id(cell) -> str:
    env, options = cell[0], cell[1]
    said = "+".join(f"{k}={v.split('.')[0]}" for k, v in env.items()) or "no-locale"
    return " ".join([said, *options])


def _run(project, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=project,
                          env={**clean, **env}, capture_output=True, text=True, encoding="utf-8")


@pytest.fixture
def fresh(tmp_path):
    """A copy of the project's layouts and fonts with no game, as a designer starts."""
    root = tmp_path / "proj"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(REPO / "fonts")
    return root


@pytest.mark.parametrize("env, options, lang, paper, size, sheet", CELLS,
                         ids=[_id(c) for c in CELLS])
def test_new_follows_the_locale_and_every_option_overrides(fresh, env, options, lang, paper,
                                                           size, sheet):
    from generator.scaffold import COMMENTS, LANGUAGE_NAMES
    made = _run(fresh, env, "new", "first", *options)
    assert made.returncode == 0, made.stderr
    game_text = (fresh / "cards/first/game.yaml").read_text("utf-8")
    game = yaml.safe_load(game_text)
    assert game["lang"] == lang
    assert game["decks"][0]["sheet"] == sheet
    assert game["rulebook"]["page"] == ("Half-letter" if paper == "Letter" else "A5")
    # An English game sets its cards and its rulebook in Latin type, as docs/layouts.md
    # ("Defaults") and docs/rulebook.md tell an English designer to; a Japanese game its
    # main family.
    assert game.get("defaults") == ({"font": "latin"} if lang == "en" else None)
    assert game["rulebook"].get("font") == ("latin" if lang == "en" else None)
    for key in ("c_title", "c_sheet", "c_rulebook"):  # the comments, in the game's language
        assert COMMENTS[key].shown(lang) in game_text, key
    other = "ja" if lang == "en" else "en"
    assert COMMENTS["c_title"].shown(other) not in game_text
    front = (fresh / "layouts/first-front.yaml").read_text("utf-8")
    assert yaml.safe_load(front)["size"] == (yaml.safe_load(size) if "[" in size else size)
    assert COMMENTS["c_front_layout"].shown(lang).replace("{game}", "first") \
        .replace("{size}", size) in front
    names = {"en": "Scout", "ja": "斥候"}
    assert names[lang] in (fresh / "cards/first/cards.yaml").read_text("utf-8")
    # One line says what was chosen and how to choose otherwise, in the run's language
    # (which is the new game's).
    chosen = [line for line in made.stdout.splitlines() if "--paper" in line]
    assert len(chosen) == 1, made.stdout
    assert LANGUAGE_NAMES[lang].shown(lang) in chosen[0]
    assert f" {paper} " in chosen[0] and sheet in chosen[0] and "--lang" in chosen[0]
    assert ("英語" in chosen[0] or "日本語" in chosen[0]) == (lang == "ja")
    built = _run(fresh, env, "build", "first")
    assert built.returncode == 0, built.stdout + built.stderr
    page = reader(fresh / "output/first/first-fronts.pdf").pages[0]
    assert tuple(round(float(v) / 72, 2) for v in page.mediabox[2:]) == \
        (LETTER if paper == "Letter" else A4)
    assert names[lang] in page.extract_text()
    used = " ".join(page_fonts(page))
    assert ("SourceSansPro" in used) == (lang == "en"), used


def test_the_locale_paper_is_read_from_the_names_alone():
    from generator.units import locale_paper
    assert locale_paper({"LANG": "en_US.UTF-8"}) == "Letter"
    assert locale_paper({"LANG": "fr_CA.UTF-8"}) == locale_paper({"LANG": "es_US"}) == "Letter"
    assert locale_paper({"LANG": "en_CA.ISO-8859-1@euro"}) == "Letter"
    assert locale_paper({"LANG": "en_GB.UTF-8"}) == locale_paper({"LANG": "ja_JP.UTF-8"}) == "A4"
    assert locale_paper({"LANG": "C"}) == locale_paper({"LANG": "POSIX"}) == "A4"
    assert locale_paper({}) == "A4"
    # POSIX's order: LC_ALL, then the paper's own setting, then LANG.
    assert locale_paper({"LANG": "en_GB.UTF-8", "LC_PAPER": "en_US.UTF-8"}) == "Letter"
    assert locale_paper({"LC_ALL": "de_DE.UTF-8", "LC_PAPER": "en_US.UTF-8"}) == "A4"
    assert locale_paper({"LANG": "en_US.UTF-8", "LC_PAPER": ""}) == "Letter"  # empty: unset


def test_new_says_which_project_it_writes_to_and_root_names_the_project_itself(tmp_path):
    """In an empty folder inside a project, `cardgen new` writes into that project (as git
    finds its repository) and says so, since the files it names are the project's; `--root .`
    makes the folder a project of its own; --root names a project, not a place to search
    above (a newcomer's `cardgen --root . new` went into the project above)."""
    env = {"LANG": "en_US.UTF-8"}
    outer = tmp_path / "outer"
    (outer / "cards").mkdir(parents=True)
    inside = outer / "mine"
    inside.mkdir()
    run = _run(inside, env, "new", "first")
    assert run.returncode == 0, run.stderr
    assert f"in the project {outer} " in run.stdout
    assert (outer / "cards/first/game.yaml").is_file() and not (inside / "cards").exists()
    run = _run(inside, env, "--root", ".", "new", "second")
    assert run.returncode == 0, run.stderr
    assert "in the project" not in run.stdout
    assert (inside / "cards/second/game.yaml").is_file() and (inside / "cardgen.yaml").is_file()
    assert not (outer / "cards/second").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = _run(inside, env, "--root", str(elsewhere), "validate")
    assert run.returncode == 2
    assert f"{elsewhere} is not a cardgen project" in run.stderr
    assert _run(inside, env, "--root", str(outer), "validate", "first").returncode == 0


@pytest.mark.parametrize("name, lang", [("ab", "en"), ("pursuit", "en"),
                                        ("trivia-of-the-ages", "en"), ("tora", "ja")])
def test_the_comments_of_a_new_game_yaml_are_in_one_column_whatever_its_name(fresh, name,
                                                                              lang):
    """The comments after game.yaml's values were set at fixed places: `title: pursuit`
    pushed its comment two columns past the others, a short name left it short of them.
    They start in one column now, two spaces after the longest line that has one (a line
    longer than the column's limit, a long name's `front:`, keeps two spaces)."""
    from generator.scaffold import COMMENT_COLUMN_AT_MOST
    made = _run(fresh, {"LANG": "en_US.UTF-8"}, "new", name, "--lang", lang)
    assert made.returncode == 0, made.stderr
    lines = (fresh / f"cards/{name}/game.yaml").read_text("utf-8").splitlines()
    commented = [(line[:line.index("  # ")].rstrip(), line.index("  # ") + 2)
                 for line in lines if "  # " in line and not line.startswith("#")]
    assert len(commented) >= 7, lines
    column = max(len(code) + 2 for code, _ in commented
                 if len(code) + 2 <= COMMENT_COLUMN_AT_MOST)
    for code, at in commented:
        assert at == max(column, len(code) + 2), (code, at, column)
    assert {at for code, at in commented if len(code) + 2 <= column} == {column}
