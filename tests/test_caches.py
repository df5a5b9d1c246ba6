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


def test_a_font_file_saved_after_it_was_registered_is_never_measured_under_its_old_name(
        tmp_path):
    """A font's name carries a digest of its file's table directory; the file is read later.
    A designer who saves another font over it in between (`serve`, `watch`) had the new
    file measured under the old name, and its metrics kept under it for every later run
    ('A' 500.0 wide where the registered font has 759.8)."""
    from generator import fonts
    from generator.problems import DataProblems, Location

    font = tmp_path / "fonts/gothic.ttf"
    font.parent.mkdir()
    cache = tmp_path / "output/.cache/fonts"
    shutil.copy(REPO / "fonts/BIZUDPGothic-Regular.ttf", font)
    fonts.keep_metrics_in(cache, write=True)
    try:
        name = fonts.register(font, Location("fonts/fonts.yaml", 3, 14), "gothic")
        shutil.copy(REPO / "fonts/BIZUDGothic-Regular.ttf", font)  # saved before first use
        for use in (lambda: fonts.string_width("A", name, 1000),
                    lambda: fonts.forms(name, "vert"), lambda: fonts.ensure(name)):
            try:
                use()
                raise AssertionError("the new file was read under the old name")
            except DataProblems as problems:
                assert [p.format() for p in problems.report.sorted()] == [
                    "fonts/fonts.yaml:3:14: error: font family 'gothic': gothic.ttf changed "
                    "after it was read (a new version of the font was saved); build again to "
                    "use the new version [font]"]
        assert not list(cache.glob(f"{name}*"))  # nothing kept under the old name
        again = fonts.register(font, Location("fonts/fonts.yaml", 3, 14), "gothic")
        assert again != name  # the next build registers the new file under its own name
        assert fonts.string_width("A", again, 1000) == 500.0
        assert len(fonts.forms(again, "vert")) > 0
        assert sorted(p.name for p in cache.glob("*.json")) == [
            f"{again}.json", f"{again}.vert.json"]
    finally:
        fonts.keep_metrics_in(None)
