"""What `cardgen build` costs before it reads a card: the modules a plain build imports, and
the version look-up compat.check makes at every start (benchmarks/ hold the timings)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from generator import compat

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("distribution", [*compat.TESTED, "PyYAML", "google-re2"])
def test_a_version_read_from_its_folder_is_importlib_metadatas(distribution):
    assert compat.installed_version(distribution) == metadata.version(distribution)


def test_a_version_is_read_from_the_first_folder_that_installs_it(tmp_path, monkeypatch):
    first, second, egg = tmp_path / "first", tmp_path / "second", tmp_path / "egg"
    for folder, names in ((first, ["Some_Lib-2.0.1.dist-info", "other-1.0.dist-info"]),
                          (second, ["some.lib-9.9.dist-info"]),
                          (egg, ["some_lib.egg-info"])):
        for name in names:
            (folder / name).mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "absent"), str(first), str(second)])
    assert compat._versions_by_folder(["some-lib"])["some-lib"] == "2.0.1"
    assert compat._versions_by_folder(["Some.Lib"])["Some.Lib"] == "2.0.1"
    assert compat._versions_by_folder(["missing"])["missing"] is None
    # where a folder's name does not say it plainly, importlib.metadata is asked instead
    monkeypatch.setattr(sys, "path", [str(egg), str(first)])
    assert compat._versions_by_folder(["some-lib"])["some-lib"] is None
    (first / "some_lib-2.1.dist-info").mkdir()
    monkeypatch.setattr(sys, "path", [str(first)])
    assert compat._versions_by_folder(["some-lib"])["some-lib"] is None


def test_a_library_not_installed_is_said(monkeypatch):
    monkeypatch.setitem(compat.TESTED, "no-such-library-here", ("1.0",))
    with pytest.raises(compat.LibraryMismatch, match="cardgen needs no-such-library-here 1.0, "
                                                     "which is not installed"):
        compat.check()


# What a plain build (texts, numbers and `{{ card.field }}` templates, no checks, pictures,
# rulebook or spreadsheets) never uses, and so never imports: each costs milliseconds at
# every start (importlib.metadata 6 ms with what it brings, Jinja2 12 ms, jsonschema, which
# only a card that fails the schema check needs, 25 ms, importlib.resources' readers and
# zipfile 3 ms, Pillow's drawing and FreeType 2 ms, the commands' own modules 1 ms each).
NOT_IN_A_PLAIN_BUILD = ("importlib.metadata", "email", "jinja2", "generator.sandbox_env",
                        "jsonschema", "zipfile", "PIL.ImageDraw", "PIL.ImageFont",
                        "PIL.ImageFilter", "generator.pnp", "generator.write.kit",
                        "generator.scaffold")

_PLAIN_BUILD = """
import sys
from generator.cli import main
code = main(["build", "bench", "--quiet"])
print(code, " ".join(m for m in sys.argv[1:] if m in sys.modules))
"""


def test_a_plain_build_imports_none_of_what_it_does_not_use(tmp_path):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import synthetic
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    project = synthetic.make_project(tmp_path / "plain", 14, True)
    run = subprocess.run([sys.executable, "-c", _PLAIN_BUILD, *NOT_IN_A_PLAIN_BUILD],
                         cwd=project, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert run.returncode == 0, run.stderr
    code, *imported = run.stdout.split()
    assert code == "0" and (project / "output/bench/bench-fronts.pdf").exists(), run.stdout
    assert imported == [], f"a plain build imported {imported}"
