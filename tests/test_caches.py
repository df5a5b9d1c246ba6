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
    assert list((project / "output/.cache/fonts").glob("*.face"))  # (fontfaces.py)
    warm = _build(project)
    assert warm == cold
    shutil.rmtree(project / "output")
    assert _build(project) == cold


def test_a_kept_font_face_is_the_face_reportlab_parses_and_a_bad_one_is_parsed_again(
        tmp_path):
    """fontfaces.py keeps a font's parsed tables: read back, each shipped font is the font
    reportlab's parse makes (every value, its type, what is shared); a damaged file, one of
    another version and one that asks for a class are passed over (nothing runs) and the
    font parsed again."""
    import io
    import pickle

    from reportlab.pdfbase.ttfonts import TTFont

    from generator import fontfaces

    def state(font: TTFont) -> tuple[bytes, bytes, dict]:
        face = {k: v for k, v in sorted(vars(font.face).items()) if k != "_pdfScale"}
        rest = {k: v for k, v in sorted(vars(font).items())
                if k not in ("face", "state", "encoding")}
        scale = [font.face._pdfScale(x) for x in (0, 1, 7.5, 2048, 1000)]
        return (pickle.dumps(face), pickle.dumps((rest, scale)),
                {"encoding": (type(font.encoding), vars(font.encoding)),
                 "state": (type(font.state), len(font.state))})

    def source(path: Path) -> io.BytesIO:
        data = io.BytesIO(path.read_bytes())
        data.name = str(path)
        return data
    fonts = sorted((REPO / "fonts").glob("*.ttf"))
    assert len(fonts) >= 8
    for n, path in enumerate(fonts):
        name = f"kept-{n}"
        parsed = fontfaces.load(TTFont, name, source(path), tmp_path, keep=True)
        assert (set(vars(parsed.face)) - set(fontfaces.LEFT_OUT)) == fontfaces.FIELDS
        kept = fontfaces._kept_face(tmp_path / f"{name}.face", source(path))
        assert kept is not None, path.name
        again = fontfaces.load(TTFont, name, source(path), tmp_path, keep=True)
        assert again.face is not parsed.face and state(again) == state(parsed), path.name
    kept_file = tmp_path / "kept-0.face"
    good = kept_file.read_bytes()
    hostile = fontfaces.HEAD + pickle.dumps(print)  # (find_class refuses builtins.print)
    for bad in (good[:len(good) // 2], good.replace(b"font face 1", b"font face 0"),
                hostile, fontfaces.HEAD + pickle.dumps({"unitsPerEm": 1000}), b""):
        kept_file.write_bytes(bad)
        assert fontfaces._kept_face(kept_file, source(fonts[0])) is None
        font = fontfaces.load(TTFont, "kept-0", source(fonts[0]), tmp_path, keep=False)
        assert state(font)[:2] == state(parsed if len(fonts) == 1 else
                                         TTFont("kept-0", source(fonts[0])))[:2]
    assert kept_file.read_bytes() == b""  # (keep=False: nothing written)


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
