"""Prove that a change leaves cardgen's output byte-identical.

    .venv/bin/python benchmarks/identical.py               # this work tree against HEAD
    .venv/bin/python benchmarks/identical.py --rev main~3  # ... against another revision
    .venv/bin/python benchmarks/identical.py --manifest    # print this tree's hashes only

It builds the same things twice, once with the code of REV (checked out in a temporary
git worktree) and once with the code of this work tree, each in a fresh process and each
from the same copy of the project's data (the data of this work tree: a change under
test is a change of code). What is built:

- every game in cards/: `build`, then `build --cards-pdf --stats --png --proof --tts`
  into another folder, then `export --profile` with each shipped export profile;
- the benchmark decks of benchmarks/synthetic.py: 1,400 cards repeated and distinct.

Every file written is hashed; the script lists each file that differs, is missing or is
new, and exits 1 if any does. Output must depend on the project's files only, so the two
trees' output is compared file by file, path by path.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

BENCH_DECKS = (("bench-repeated", 1400, False), ("bench-distinct", 1400, True))
FULL = ("--cards-pdf", "--stats", "--png", "--proof", "--tts")


def _run(code: Path, args: list[str], cwd: Path) -> None:
    """cardgen from the package in `code`, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env,
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"cardgen {' '.join(args)} (code of {code}) exited "
                         f"{run.returncode}:\n{run.stdout}{run.stderr}")


def _profiles(project: Path) -> list[str]:
    return sorted(p.stem for p in (project / "layouts/exports").glob("*.yaml"))


def build_all(code: Path, work: Path) -> dict[str, str]:
    """Build everything with the package in `code`; {relative path: sha256} of what it wrote."""
    project = work / "project"
    for part in ("cards", "layouts", "fonts"):  # a project's data: nothing else is read
        shutil.copytree(REPO / part, project / part, symlinks=True)
    out = work / "out"
    root = ["--root", str(project)]
    _run(code, ["build", *root, "--quiet", "--output", str(out / "plain")], project)
    _run(code, ["build", *root, "--quiet", *FULL, "--output", str(out / "full")], project)
    for profile in _profiles(project):
        _run(code, ["export", *root, "--quiet", "--profile", profile,
                    "--output", str(out / f"export-{profile}")], project)
    for name, size, distinct in BENCH_DECKS:
        bench = work / name
        synthetic.make_project(bench, size, distinct)
        _run(code, ["build", "--root", str(bench), "--quiet", "--output", str(out / name)], bench)
    hashes = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and ".cache" not in path.relative_to(out).parts:
            hashes[str(path.relative_to(out))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def _worktree(rev: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(into), rev],
                   check=True, capture_output=True)
    return into


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default="HEAD", help="the revision to compare with (default HEAD)")
    ap.add_argument("--manifest", action="store_true",
                    help="print this tree's hashes as JSON and compare nothing")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-identical-") as tmp:
        tmp = Path(tmp)
        # Both builds use the same folders: a Tabletop Simulator deck names its sheets by
        # their absolute file URLs, as TTS needs, so it depends on where the output lies.
        mine = build_all(REPO, tmp / "work")
        if args.manifest:
            print(json.dumps(mine, indent=1))
            return 0
        shutil.rmtree(tmp / "work")
        tree = _worktree(args.rev, tmp / "rev")
        try:
            theirs = build_all(tree, tmp / "work")
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                           capture_output=True)
    differ = sorted(p for p in mine.keys() & theirs.keys() if mine[p] != theirs[p])
    missing, new = sorted(theirs.keys() - mine.keys()), sorted(mine.keys() - theirs.keys())
    for label, paths in (("differs", differ), ("missing", missing), ("new", new)):
        for p in paths:
            print(f"{label}: {p}")
    same = len(mine.keys() & theirs.keys()) - len(differ)
    print(f"{same} files byte-identical to {args.rev}, {len(differ)} differ, "
          f"{len(missing)} missing, {len(new)} new")
    return 1 if differ or missing or new else 0


if __name__ == "__main__":
    sys.exit(main())
