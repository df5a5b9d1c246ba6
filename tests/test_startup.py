"""What `cardgen build` costs before it reads a card: the modules a plain build imports, and
the version look-up compat.check makes at every start (benchmarks/ hold the timings)."""

from __future__ import annotations

import sys
from importlib import metadata

import pytest

from generator import compat


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
