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
        return [l for l in (self.out + self.err).splitlines() if l.strip()]


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
