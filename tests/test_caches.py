"""A cache never changes an outcome: a build with output/.cache from an earlier build (warm)
writes the same bytes as one without it (cold), each in a fresh process, as a designer runs
them one after another."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


GAMES = sorted(p.parent.name for p in (REPO / "cards").glob("*/game.yaml"))


def _build(project: Path) -> dict[str, str]:
    """Each game built in a process of its own (what one game's build loads does not serve
    another's), and the hash of every file written."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for game in GAMES:
        run = subprocess.run([sys.executable, "-m", "generator", "build", "--quiet", game],
                             cwd=project, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
    out = project / "output"
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def test_a_warm_build_writes_what_a_cold_build_wrote(project):
    """Every game, and an English rulebook in the Latin family (whose contents style names a
    font the kept metrics had measured but not loaded: the second build failed)."""
    game = project / "cards/lastdance/game.yaml"
    text = game.read_text("utf-8")
    assert "\n  page: A5\n" in text
    game.write_text(text.replace("\n  page: A5\n", "\n  page: A5\n  font: latin\n"), "utf-8")
    cold = _build(project)
    assert (project / "output/.cache").is_dir()  # what the next build starts from
    warm = _build(project)
    assert warm == cold
    shutil.rmtree(project / "output")
    assert _build(project) == cold
