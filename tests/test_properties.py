"""Property tests: whatever a designer types, cardgen answers with located problems or a
clean result, never a traceback; interrupted builds leave the previous output whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.load import Project
from generator.load.yamlfile import parse_yaml
from generator.pipeline import check, lay_out
from generator.problems import Report

from conftest import REPO

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
keys = st.sampled_from(["id", "name", "name_en", "copies", "blank", "effect", "back", "fields",
                        "x", "TBD", "", "名前"])
records = st.dictionaries(keys, values, max_size=6)


@SETTINGS
@given(st.text(max_size=200))
def test_any_text_parses_or_gives_located_problems(text):
    report = Report()
    doc = parse_yaml(text, "cards/x/cards.yaml", report)
    assert doc is not None or report.errors
    for problem in report.problems:
        assert problem.location.file == "cards/x/cards.yaml" and problem.location.line >= 1


@SETTINGS
@given(values)
def test_any_yaml_document_as_a_deck_file(project, document):
    (project / "cards/lastdance/cards.yaml").write_text(
        yaml.safe_dump(document, allow_unicode=True), "utf-8")
    outcome = check(Project.find(), "lastdance")
    lay_out(outcome)
    assert outcome.game is not None or outcome.report.errors
    assert all(p.location.file for p in outcome.report.problems)


@SETTINGS
@given(st.lists(records, min_size=1, max_size=5))
def test_any_card_records(project, cards):
    (project / "cards/lastdance/cards.yaml").write_text(
        yaml.safe_dump({"cards": cards}, allow_unicode=True), "utf-8")
    outcome = check(Project.find(), "lastdance")
    faces = lay_out(outcome)
    if not outcome.report.errors:
        assert faces is not None
    for problem in outcome.report.problems:
        assert problem.location.line >= 1, problem


def _big_game(root: Path, cards: int) -> None:
    game = root / "cards/big"
    game.mkdir()
    (game / "game.yaml").write_text("title: 大\ndecks:\n  - {id: main, cards: cards.yaml}\n",
                                    "utf-8")
    (game / "cards.yaml").write_text(
        "generate:\n  each:\n    n: [" + ", ".join(map(str, range(cards))) + "]\n"
        "  id: \"c{{ n }}\"\n  fields:\n    name: \"札{{ n }}\"\n    name_en: \"Card {{ n }}\"\n",
        "utf-8")


def test_a_build_killed_while_writing_leaves_the_previous_files(project):
    _big_game(project, 6000)
    out = project / "output/big"
    out.mkdir(parents=True)
    previous = {"big-fronts.pdf": b"previous fronts", "big-backs.pdf": b"previous backs"}
    for name, data in previous.items():
        (out / name).write_bytes(data)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for sig in (signal.SIGTERM, signal.SIGINT):
        for _ in range(5):  # on a loaded machine the signal may land once the set is written:
            proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "big"],
                                    cwd=project, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            deadline = time.monotonic() + 60
            while not any(p.name.endswith(".tmp") for p in out.iterdir()):  # it is writing
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.01)
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
            if proc.returncode == 0:  # too late: the whole new set was written; again
                assert b"interrupted" not in err
                for stale in out.iterdir():
                    stale.unlink()
                for name, data in previous.items():
                    (out / name).write_bytes(data)
                continue
            assert proc.returncode == 130, err
            assert b"interrupted; previous output kept" in err
            assert {p.name: p.read_bytes() for p in out.iterdir()} == previous
            break
        else:
            raise AssertionError("the signal never landed while the build was writing")


def test_same_bytes_from_any_working_folder_or_project_place(project, cardgen, monkeypatch,
                                                             tmp_path):
    import shutil

    assert cardgen("build", "lastdance").code == 0
    first = {p.name: p.read_bytes() for p in (project / "output/lastdance").iterdir()}
    monkeypatch.chdir(project / "cards/lastdance")  # cardgen finds the project above
    assert cardgen("build", "lastdance").code == 0
    assert {p.name: p.read_bytes() for p in (project / "output/lastdance").iterdir()} == first
    elsewhere = tmp_path / "somewhere" / "else"
    shutil.copytree(project, elsewhere, symlinks=True, ignore=shutil.ignore_patterns("output"))
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert cardgen("build", "lastdance").code == 0
    assert {p.name: p.read_bytes() for p in (elsewhere / "output/lastdance").iterdir()} == first
