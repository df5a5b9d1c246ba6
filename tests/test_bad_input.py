"""The bad-input catalogue: one folder per case under tests/bad_input/.

Each folder is a small game (game.yaml and its files) and `expected.txt`, the exact
problem lines (errors and warnings) cardgen must print for it; `args.txt`, if present,
holds options to pass (such as --trust). A `layouts/` folder
in a case holds layout files that are added to the project's `layouts/`. Every case must exit 1, print those lines,
and leave the previous output of the game untouched.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

CASES = Path(__file__).parent / "bad_input"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def test_the_catalogue_is_not_empty_and_the_readme_counts_it():
    assert len(CASE_NAMES) >= 50
    readme = (Path(__file__).parent.parent / "README.md").read_text("utf-8")
    assert f"holds {len(CASE_NAMES)} bad-input cases" in " ".join(readme.split())


@pytest.mark.parametrize("case", CASE_NAMES)
def test_bad_input_gives_located_errors_and_keeps_previous_output(case, project, cardgen):
    shutil.copytree(CASES / case, project / "cards" / case, symlinks=True,  # links stay links
                    ignore=shutil.ignore_patterns("expected.txt", "args.txt", "layouts"))
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
    for command in ("validate", "build"):
        run = cardgen(command, *args, case)
        assert run.code == 1, (command, run.lines)
        problems = [line for line in run.lines if re.search(r": (error|warning): ", line)]
        assert problems == expected, command

    assert {p.name: p.read_bytes() for p in out.iterdir()} == previous
