"""docs/revisions.md (and docs/ja/revisions.md) show what cardgen writes for the worked
example, not what someone typed (issue 58): its game is made here, revised as the page
says, and every block of cardgen's output in the page is compared with what the diff, the
errata guide and the players' changelog say now, in English and in Japanese."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import git, write_game
from test_printed_revisions import MAP, RULEBOOK, RULES  # (its game, as docs name it)

DOCS = Path(__file__).resolve().parent.parent / "docs"
@pytest.fixture
def mygame(project):
    """The worked example's game, committed ("playtest 3"), then revised as the page says:
    the Knight renamed, kyo's points 20 -> 25, a FAQ, the map's B2 water."""
    folder = write_game(project, "mygame", {
        "title": "My Game", "lang": "en",
        "decks": [{"id": "main", "fields": {"name": {"type": "text"}, "kind": {"type": "text"}}}],
        "data": {"rules": "rules.yaml", "map": "map.yaml"},
        "rulebook": {"template": "rulebook.md", "page": "A5"},
        "boards": [{"id": "map", "layout": "grid", "cells": "data.map.cells",
                    "types": "data.map.types"}],
    }, [{"id": "knight", "name": "Knight", "kind": "kyo"},
        {"id": "squire", "name": "Squire", "kind": "dai"}],
        files={"rulebook.md": RULEBOOK.encode(), "rules.yaml": RULES,
               "map.yaml": MAP})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "playtest 3")
    for name, old, new in (("cards.yaml", "name: Knight", "name: Knight Errant"),
                           ("rules.yaml", "kyo: {points: 20}", "kyo: {points: 25}"),
                           ("map.yaml", "{column: 2, row: 2, type: plain}",
                            "{column: 2, row: 2, type: water}")):
        text = (folder / name).read_text("utf-8")
        assert old in text
        (folder / name).write_text(text.replace(old, new), "utf-8")
    with (folder / "rulebook.md").open("a", encoding="utf-8") as rulebook:
        rulebook.write("\n# FAQ\n\nQ. May I pass?\n\nA. No: every turn, you draw.\n")
    return folder


def _blocks(page: Path, heading: str) -> list[str]:
    """The fenced blocks of the section of `page` under `heading`, up to the next `## `
    heading outside a block (a changelog block has headings of its own)."""
    lines = page.read_text("utf-8").splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith(heading))
    blocks: list[str] = []
    block: list[str] | None = None
    for line in lines[start + 1:]:
        if line.startswith("```"):
            if block is None:
                block = []
            else:
                blocks.append("".join(block))
                block = None
        elif block is not None:
            block.append(line)
        elif line.startswith("## "):
            break
    return blocks


@pytest.mark.parametrize("lang, page, heading", [
    ("en", DOCS / "revisions.md", "### A worked example"),
    ("ja", DOCS / "ja" / "revisions.md", "### 例: 1 回の改訂")])
def test_the_worked_example_is_what_cardgen_writes(mygame, project, cardgen, lang, page,
                                                   heading):
    commands, diff, guide, changelog = _blocks(page, heading)
    assert "cardgen diff mygame" in commands
    run = cardgen("--lang", lang, "diff", "mygame")
    assert run.code == 0, run.err
    assert diff == run.out
    markdown = cardgen("--lang", lang, "diff", "--format", "markdown", "mygame")
    assert changelog == markdown.out  # (in the game's language, whoever runs it)
    assert cardgen("--lang", lang, "build", "--changed-since", "HEAD", "mygame").code == 0
    written = (project / "output/mygame/mygame-errata-print-guide.txt").read_text("utf-8")
    assert "\n\n" + guide + "\n" in written, written
