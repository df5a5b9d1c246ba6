"""The bad-input catalogue: one folder per case under tests/bad_input/.

Each folder is a small game (game.yaml and its files) and `expected.txt`, the exact
problem lines (errors and warnings) cardgen must print for it; `args.txt`, if present,
holds options to pass (such as --trust); `commands.txt`, if present, replaces validate and
build with its own command lines (the case's name is added to each); `exit.txt` gives the
exit code when it is not 1. A case that exits 0 is an input that once crashed or was built
wrongly and now builds as it should: its output is written, not kept. A `layouts/` folder
in a case holds layout files that are added to the project's `layouts/`. Every case must
exit 1, print those lines, and leave the previous output of the game untouched.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

CASES = Path(__file__).parent / "bad_input"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def test_the_catalogue_is_not_empty_and_the_readme_counts_it():
    assert len(CASE_NAMES) >= 150
    readme = (Path(__file__).parent.parent / "README.md").read_text("utf-8")
    assert f"holds {len(CASE_NAMES)} bad-input cases" in " ".join(readme.split())


@pytest.mark.parametrize("case", CASE_NAMES)
def test_bad_input_gives_located_errors_and_keeps_previous_output(case, project, cardgen):
    shutil.copytree(CASES / case, project / "cards" / case, symlinks=True,  # links stay links
                    ignore=shutil.ignore_patterns("expected.txt", "args.txt", "commands.txt",
                                                  "exit.txt", "layouts"))
    if (CASES / case / "layouts").is_dir():
        shutil.copytree(CASES / case / "layouts", project / "layouts", dirs_exist_ok=True)
    out = project / "output" / case
    out.mkdir(parents=True)
    previous = {f"{case}-fronts.pdf": b"previous fronts", f"{case}-backs.pdf": b"previous backs"}
    for name, data in previous.items():
        (out / name).write_bytes(data)

    expected = (CASES / case / "expected.txt").read_text("utf-8").splitlines()
    args = (CASES / case / "args.txt").read_text("utf-8").split() \
        if (CASES / case / "args.txt").is_file() else []
    commands = [shlex.split(line) for line in (CASES / case / "commands.txt").read_text(
        "utf-8").splitlines() if line.strip()] if (CASES / case / "commands.txt").is_file() \
        else [["validate"], ["build"]]
    code = int((CASES / case / "exit.txt").read_text().strip()) \
        if (CASES / case / "exit.txt").is_file() else 1
    for command in commands:
        run = cardgen(*command, *args, case)
        assert run.code == code, (command, run.lines)
        assert "Traceback" not in run.out + run.err and "internal error" not in run.err
        problems = [line for line in run.lines if re.search(r": (error|warning): ", line)]
        assert problems == expected, command

    if code != 0:
        assert {p.name: p.read_bytes() for p in out.iterdir()} == previous
