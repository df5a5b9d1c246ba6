"""Shared test helpers: a throw-away copy of the project, the CLI, and PDF readers.

Tests read the real output back (pypdf for pages, text and fonts; pypdfium2 for
pixels) rather than trusting the code that wrote it.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return [line for line in (self.out + self.err).splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def english_locale(monkeypatch):
    """The tests run under an English locale whatever the machine's, so that what cardgen
    says does not depend on who runs them (a test of Japanese sets its own)."""
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LC_PAPER", raising=False)  # (the paper `cardgen new` chooses)


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the project's data (cards, layouts; fonts linked) as the working folder."""
    root = tmp_path / "proj"
    root.mkdir()
    shutil.copytree(REPO / "cards", root / "cards")
    shutil.copytree(REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(REPO / "fonts")
    monkeypatch.chdir(root)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    return root


@pytest.fixture
def cardgen(capsys):
    """Run the cardgen command in-process: cardgen("build", "lastdance") -> Run."""
    from generator.cli import main

    def run(*args: str) -> Run:
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def git(root: Path, *args: str) -> None:
    """`git ARGS` in `root`, with an author for its commits (the revision tests' repositories)."""
    import subprocess
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   cwd=root, check=True, capture_output=True)


def write_game(project: Path, game_id: str, game: dict, cards: list[dict],
               layouts: dict[str, dict] | None = None,
               files: dict[str, bytes] | None = None) -> Path:
    """A small game written into the project as a designer would: cards/<id>/game.yaml (the
    `game` mapping; a deck without `cards` reads cards.yaml), cards/<id>/cards.yaml, each
    layout as layouts/<name>.yaml, and any other file of the game folder (`files`). The
    shared helper of the tests that compose games (the matrix, the property tests)."""
    import yaml
    folder = project / "cards" / game_id
    folder.mkdir(parents=True, exist_ok=True)
    for deck in game.get("decks", []):
        deck.setdefault("cards", "cards.yaml")
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False),
                                      "utf-8")
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}, allow_unicode=True,
                                                      sort_keys=False), "utf-8")
    for name, layout in (layouts or {}).items():
        (project / "layouts" / f"{name}.yaml").write_text(
            yaml.safe_dump(layout, allow_unicode=True, sort_keys=False), "utf-8")
    for name, data in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder
