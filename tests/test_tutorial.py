"""docs/tutorial.md, run as written: every `sh` block's commands in order (with the exit
code the block expects), every `file=` block written where it says, every shown
message checked against what cardgen prints."""

from __future__ import annotations

import re
import shlex

import pytest

from conftest import REPO
from pdfcheck import reader

BLOCK = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```", re.S | re.M)


# Each tutorial, under a locale of its readers, and what its game prints: on the locale's
# paper, in its language (`cardgen new` follows the locale), the oracle and its revised text.
TUTORIALS = [("docs/tutorial.md", "en_US.UTF-8", (8.5, 11.0), "Oracle",
              "Lookatthetopthreecardsofyourdeck"),
             ("docs/ja/tutorial.md", "ja_JP.UTF-8", (8.27, 11.69), "巫女", "山札の上から3枚を見て")]


@pytest.mark.parametrize("tutorial, locale, paper, oracle, revised", TUTORIALS)
def test_the_tutorial_runs_as_written(tmp_path, cardgen, monkeypatch, tutorial, locale, paper,
                                      oracle, revised):
    """The English tutorial and the Japanese one, each under a locale of its language, from
    its install (cardgen as installed is tests/test_install.py's) into an empty folder."""
    monkeypatch.setenv("LANG", locale)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    text = (REPO / tutorial).read_text("utf-8")
    outputs = []
    ran = 0
    for kind, info, body in BLOCK.findall(text):
        options = dict(o.split("=", 1) for o in info.split() if "=" in o)
        if kind == "sh" and "install" in info:  # cardgen installed, an empty folder made
            lines = [shlex.split(line) for line in body.strip().splitlines()]
            assert [args[:2] for args in lines] == [
                ["pipx", "install"], ["mkdir", "mygame-project"], ["cd", "mygame-project"]], lines
            project = tmp_path / "mygame-project"
            project.mkdir()
            monkeypatch.chdir(project)
        elif kind == "sh":
            for line in body.strip().splitlines():
                args = shlex.split(line)
                assert args[0] == "cardgen", line
                run = cardgen(*args[1:])
                assert run.code == int(options.get("expect", 0)), (line, run.lines)
                outputs.extend(run.lines)
                ran += 1
        elif "file" in options:
            (project / options["file"]).write_text(body, "utf-8")
        elif kind == "" and body.strip():
            # A shown message: each of its lines is one cardgen printed.
            for expected in body.strip().splitlines():
                assert expected in outputs, expected
    assert ran >= 6
    assert (project / "cardgen.yaml").is_file() and (project / ".gitignore").is_file()
    out = project / "output/mygame"
    page = reader(out / "mygame-fronts.pdf").pages[0]
    assert tuple(round(float(v) / 72, 2) for v in page.mediabox[2:]) == paper
    fronts = page.extract_text()
    assert fronts.count(oracle) == 2 and "DRAFT" not in fronts  # the revision, printed
    rulebook = "".join(p.extract_text() for p in reader(out / "mygame-rulebook.pdf").pages)
    assert revised in "".join(rulebook.split())
    # Section 6: an English game in inches on Letter, and a refused combination.
    english = project / "output/mydeck"
    page = reader(english / "mydeck-fronts.pdf").pages[0]
    assert [round(float(v) / 72, 2) for v in page.mediabox[2:]] == [8.5, 11.0]  # Letter
    assert "Scout" in page.extract_text() and "斥候" not in page.extract_text()
    book = reader(english / "mydeck-rulebook.pdf")
    assert [round(float(v) / 72, 2) for v in book.pages[0].mediabox[2:]] == [5.5, 8.5]
    booklet = reader(english / "mydeck-rulebook-booklet.pdf").pages[0]
    assert [round(float(v) / 72, 2) for v in booklet.mediabox[2:]] == [11.0, 8.5]
    cover, contents = book.pages[0].extract_text(), book.pages[1].extract_text()
    assert "Rulebook" in cover and "ルールブック" not in cover
    assert "Contents" in contents and "目次" not in contents
    assert not (project / "cards/clash").exists()
    assert not (project / "layouts/clash-front.yaml").exists()
