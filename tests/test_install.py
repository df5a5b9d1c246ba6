"""cardgen as a designer gets it (issue 57): the wheel built from this repository, installed
in a fresh virtual environment, run in a folder far from the source. There `cardgen new`
makes a project, which validates, builds, makes a print-and-play kit, goes into git and
reports an edited card with `cardgen diff`; the fronts carry their fonts; nothing is
written outside the project folder (not the source tree, not HOME, not the cache folder).
Once more with a project font and a project sheet preset over the shipped ones. And an
older project (a game as this version writes it, its format set back) is told what to
mend, and `cardgen upgrade` rewrites what it safely can.

The wheel is built and installed offline: `pip wheel --no-build-isolation` with the
setuptools of the test environment, then `pip install --no-deps --no-index` into a venv
that reads the dependencies from the test environment's site-packages (a .pth file)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from pdfcheck import reader

# What the wheel is built from: the repository's top as pyproject.toml and setup.py read it.
SOURCE = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md",
          "generator", "fonts", "layouts", "cards")
UNTRACKED = {".venv", ".git", "output", ".pytest_cache", ".hypothesis", "__pycache__", "build",
             ".mypy_cache", ".ruff_cache"}


def _tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` (but what tools keep beside the source) with its size and
    modification time."""
    found = {}
    for here, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in UNTRACKED and not d.endswith(".egg-info")]
        for name in files:
            st = os.lstat(os.path.join(here, name))
            found[os.path.relpath(os.path.join(here, name), folder)] = (st.st_size,
                                                                        st.st_mtime_ns)
    return found


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The cardgen command of a fresh venv with the wheel installed in it."""
    top = tmp_path_factory.mktemp("wheel")
    source = top / "src"
    source.mkdir()
    for name in SOURCE:  # a copy: building writes build/ and *.egg-info beside the source
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, source / name)
    env = {**os.environ, "HOME": str(top / "home"), "PIP_NO_INDEX": "1",
           "PIP_NO_CACHE_DIR": "1"}
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(top / "dist"), str(source)], check=True, env=env, capture_output=True)
    wheel = next((top / "dist").glob("cardgen-*.whl"))
    venv = top / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # The dependencies, as the test environment has them (no network): its site-packages
    # as a plain path, after the venv's own, so the editable cardgen there is not seen.
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True, env=env, capture_output=True)
    cardgen = venv / "bin" / "cardgen"
    where = subprocess.run([str(python), "-c", "import generator; print(generator.__file__)"],
                           check=True, capture_output=True, text=True, cwd=top).stdout
    assert Path(where).is_relative_to(venv), where  # the installed package, not the source
    return cardgen


class Designer:
    """A designer's machine: an empty HOME and cache folder and temporary folder, and the
    installed cardgen, run in their project's folder."""

    def __init__(self, cardgen: Path, top: Path):
        self.cardgen, self.top = cardgen, top
        self.home, self.tmp = top / "home", top / "tmp"
        self.folder = top / "far" / "away" / "my-game"
        for folder in (self.home, self.tmp, self.folder):
            folder.mkdir(parents=True)
        keep = {k: v for k, v in os.environ.items() if k in ("PATH", "SYSTEMROOT")}
        self.env = {**keep, "HOME": str(self.home), "XDG_CACHE_HOME": str(self.home / ".cache"),
                    "TMPDIR": str(self.tmp), "LANG": "C.UTF-8",
                    "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "d",
                    "GIT_AUTHOR_EMAIL": "d@example.invalid", "GIT_COMMITTER_NAME": "d",
                    "GIT_COMMITTER_EMAIL": "d@example.invalid"}

    def run(self, *args: str, cwd: Path | None = None, code: int = 0) -> str:
        done = subprocess.run([str(self.cardgen), *args], cwd=cwd or self.folder, env=self.env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done.stdout + done.stderr

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.folder, env=self.env, check=True,
                              capture_output=True, text=True).stdout

    def untouched_outside(self) -> None:
        """Nothing was written outside the project: HOME, the cache folder and the
        temporary folder are empty, and the project's folder is the only one beside it."""
        assert not any(self.home.iterdir()), list(self.home.rglob("*"))
        assert not any(self.tmp.iterdir()), list(self.tmp.rglob("*"))
        assert [p.name for p in (self.top / "far" / "away").iterdir()] == ["my-game"]


def _embedded_fonts(pdf: Path) -> dict[str, bool]:
    """Each font of the PDF's pages: whether its file is embedded."""
    fonts = {}
    for page in reader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            inner = descendants[0].get_object() if descendants else font
            descriptor = inner.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            fonts[str(font["/BaseFont"])] = any(k in descriptor for k in
                                                ("/FontFile", "/FontFile2", "/FontFile3"))
    return fonts


def _own_font_and_sheet(project: Path) -> None:
    """The project's latin family (the family an English game's texts are set in, since
    `cardgen new` writes defaults: {font: latin}): BIZ UDPGothic under another file name; and
    its own a4-poker-9up preset: four cards a sheet instead of nine."""
    fonts = project / "fonts"
    fonts.mkdir()
    shutil.copy(REPO / "fonts" / "BIZUDPGothic-Regular.ttf", fonts / "OurFace.ttf")
    shutil.copy(REPO / "fonts" / "OFL.txt", fonts / "OFL.txt")
    (fonts / "fonts.yaml").write_text(
        "families:\n  latin:\n    regular: OurFace.ttf\n    bold: OurFace.ttf\n", "utf-8")
    sheets = project / "layouts" / "sheets"
    sheets.mkdir(parents=True)
    preset = yaml.safe_load((REPO / "layouts/sheets/a4-poker-9up.yaml").read_text("utf-8"))
    preset.update(name="Our A4 sheet, 4 poker cards", grid={"columns": 2, "rows": 2},
                  margins={"left": "42mm", "right": "42mm", "top": "60.5mm",
                           "bottom": "60.5mm"})
    (sheets / "a4-poker-9up.yaml").write_text(yaml.safe_dump(preset), "utf-8")


@pytest.mark.parametrize("own", [False, True], ids=["shipped", "project-font-and-sheet"])
def test_the_installed_wheel_works_in_a_folder_of_its_own(installed, tmp_path, own):
    before = _tree(REPO)
    me = Designer(installed, tmp_path)
    said = me.run("new", "mygame", "--lang", "en", "--paper", "A4")
    assert "a4-poker-9up" in said
    project = me.folder
    assert (project / "cardgen.yaml").is_file() and (project / "cards/mygame/game.yaml").is_file()
    assert "/output/" in (project / ".gitignore").read_text("utf-8")
    if own:
        _own_font_and_sheet(project)
    # Found from a folder below the project, as git finds its repository.
    said = me.run("validate", "--verbose", cwd=project / "cards" / "mygame")
    assert "mygame: ok: 0 errors, 1 warning" in said
    if own:
        assert "sheet preset 'a4-poker-9up': the project's layouts/sheets/a4-poker-9up.yaml, " \
            "over cardgen's" in said
        assert "font family 'latin': the project's fonts/fonts.yaml, over cardgen's" in said
    else:
        assert "sheet preset 'a4-poker-9up': cardgen's" in said
    me.run("build", "mygame")
    fronts = project / "output/mygame/mygame-fronts.pdf"
    fonts = _embedded_fonts(fronts)
    assert fonts and all(fonts.values()), fonts
    assert any("SourceSansPro" in name for name in fonts) != own, fonts
    assert any("BIZUDPGothic" in name for name in fonts), fonts
    assert len(reader(fronts).pages) == (2 if own else 1)  # six cards, four or nine a sheet
    me.run("pnp", "mygame")
    assert (project / "output/mygame/pnp/mygame-pnp-a4.pdf").is_file()
    # The designer's own git repository: output/ is left out, an edited card is found.
    me.git("init", "-q")
    me.git("add", "-A")
    me.git("commit", "-q", "-m", "first cards")
    assert not me.git("ls-files", "output")
    cards = project / "cards/mygame/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Draw a card.", "Draw two cards."),
                     "utf-8")
    said = me.run("diff", "mygame")
    assert "card 'scout'" in said and "Draw two cards." in said
    me.run("build", "--changed-since", "HEAD", "mygame")  # the errata set of that change
    assert list((project / "output/mygame").glob("mygame-errata-*.pdf"))
    if not own:  # a shipped export profile, with the shipped ICC profile it names
        me.run("export", "mygame", "--profile", "jp-print")
        assert (project / "output/mygame/export-jp-print/manifest.csv").is_file()
    assert me.git("status", "--porcelain").split() == ["M", "cards/mygame/cards.yaml"]
    me.untouched_outside()
    assert _tree(REPO) == before


def test_an_example_game_is_copied_out_of_the_installed_cardgen(installed, tmp_path):
    me = Designer(installed, tmp_path)
    said = me.run("new", "ld", "--from", "lastdance")
    assert "a copy of the example 'lastdance'" in said
    assert (me.folder / "layouts/lastdance-front.yaml").is_file()
    assert not (me.folder / "layouts/default-front.yaml").exists()  # shipped: not copied
    assert "ld: ok" in me.run("validate", "ld")
    assert "examples: dernier-peuple, lastdance, odoriko, vampire-band" in \
        me.run("new", "x", "--from", "nosuchgame", code=2)
    me.untouched_outside()


def _older(project: Path) -> None:
    """The project as an older cardgen wrote it: its format set back, and a sheet preset of
    its own that says min_margin: (renamed unprintable: in 0.2.0)."""
    marker = project / "cardgen.yaml"
    marker.write_text(marker.read_text("utf-8").replace("format: 0.2.0", "format: 0.1.0"),
                      "utf-8")
    sheets = project / "layouts" / "sheets"
    sheets.mkdir(parents=True, exist_ok=True)
    (sheets / "our-sheet.yaml").write_text(
        (REPO / "layouts/sheets/plain-a4.yaml").read_text("utf-8").replace(
            "unprintable:", "min_margin:"), "utf-8")


def test_an_older_project_is_told_what_to_mend_and_upgraded(tmp_path, monkeypatch, cardgen):
    assert "unprintable:" in (REPO / "layouts/sheets/plain-a4.yaml").read_text("utf-8")
    monkeypatch.chdir(tmp_path)
    assert cardgen("new", "lastdance", "--from", "lastdance").code == 0
    _older(tmp_path)
    run = cardgen("validate", "lastdance")
    assert run.code == 0, run.lines
    told = [line for line in run.lines if line.startswith("cardgen.yaml:")]
    assert len(told) == 1, run.lines
    assert "warning: this project is written in format 0.1.0" in told[0]
    assert "a sheet preset's min_margin: is now unprintable: (mend: cardgen upgrade rewrites " \
        "it)" in told[0]
    assert "a polygon with sides: fills its box" in told[0] and "CHANGELOG.md" in told[0]
    shown = cardgen("upgrade")
    assert shown.code == 0
    assert "-min_margin:" in shown.out and "+unprintable:" in shown.out
    assert "-format: 0.1.0" in shown.out and "+format: 0.2.0" in shown.out
    assert "format: 0.1.0" in (tmp_path / "cardgen.yaml").read_text("utf-8")  # only shown
    wrote = cardgen("upgrade", "--write")
    assert "wrote layouts/sheets/our-sheet.yaml" in wrote.out
    assert "format: 0.2.0" in (tmp_path / "cardgen.yaml").read_text("utf-8")
    assert "unprintable:" in (tmp_path / "layouts/sheets/our-sheet.yaml").read_text("utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 0 and not any(line.startswith("cardgen.yaml:") for line in run.lines)
    assert "nothing to rewrite" in cardgen("upgrade").out


def test_a_project_newer_than_cardgen_is_refused_with_what_to_do(tmp_path, monkeypatch,
                                                                 cardgen):
    monkeypatch.chdir(tmp_path)
    assert cardgen("new", "mygame", "--lang", "en").code == 0
    (tmp_path / "cardgen.yaml").write_text("format: 9.0.0\n", "utf-8")
    run = cardgen("validate")
    assert run.code == 1
    assert "cardgen.yaml:1:9: error: this project is written in format 9.0.0, newer than " \
        "this cardgen's" in run.out


def test_the_project_is_found_from_below_and_a_game_named_cards_is_not_one(tmp_path,
                                                                          monkeypatch, cardgen):
    monkeypatch.chdir(tmp_path)
    assert cardgen("new", "cards", "--lang", "en").code == 0  # cards/cards/: a game
    monkeypatch.chdir(tmp_path / "cards" / "cards")
    run = cardgen("list")
    assert run.code == 0 and run.out.startswith("cards: cards"), run.lines


def test_the_format_versions_are_the_changelogs():
    """Each version a change names is a heading of CHANGELOG.md, and the current format is
    the newest heading: the code's list of changes and the story of them agree."""
    import re

    from generator import versions
    headings = re.findall(r"^## (\S+)", (REPO / "CHANGELOG.md").read_text("utf-8"), re.M)
    assert headings[0] == versions.FORMAT
    assert {c.version for c in versions.CHANGES} <= set(headings)
    assert versions.marker("en").endswith(f"format: {versions.FORMAT}\n")


def test_a_project_known_by_its_cards_folder_gets_its_marker_from_upgrade(project, cardgen):
    """A project made before the marker (a folder with cards/) is read in the current
    format; `cardgen upgrade --write` gives it its cardgen.yaml, and nothing else changes."""
    assert not (project / "cardgen.yaml").exists()
    shown = cardgen("upgrade")
    assert shown.code == 0 and "+format: 0.2.0" in shown.out
    assert not (project / "cardgen.yaml").exists()
    assert "wrote cardgen.yaml" in cardgen("upgrade", "--write").out
    assert "nothing to rewrite" in cardgen("upgrade").out
    assert cardgen("validate", "lastdance").code == 0
