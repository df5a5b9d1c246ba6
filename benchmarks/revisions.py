"""Benchmark of the revision workflow (issues #18 and #37), measured side by side in one run:

1. what computing every face's identity costs, against one build of the same deck
   (`cardgen build` computes none; `--png`, `diff` and errata sets do);
2. `cardgen diff --against OLD` of two versions of a deck (one card's text and one layout
   colour changed), against one `cardgen build` of the same deck;
3. a rules revision in git, on a seed game with a rulebook (Last Dance: a card's effect and
   a rulebook paragraph) and on the benchmark deck: `cardgen diff` and `cardgen build
   --changed-since HEAD` (the errata set, with the rulebook's pages and sheets), each
   against one full `cardgen build` of the revised game.

    python benchmarks/revisions.py [--sizes 1400,10000] [--runs 3] [--distinct]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthetic  # noqa: E402
from run import compile_cardgen, measure  # noqa: E402


def identities(project: Path, runs: int) -> tuple[float, float, int]:
    """(seconds to lay the deck out, seconds to compute every face's identity, faces), in
    a process of their own, medians of `runs`."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from generator.load import Project\n"
        "from generator.pipeline import check, lay_out\n"
        "from generator.identity import face_identity\n"
        "o = check(Project.find(Path(sys.argv[1])), 'bench')\n"
        "t0 = time.perf_counter(); faces = lay_out(o); t1 = time.perf_counter()\n"
        "shared = {}; n = 0\n"
        "for d in faces.decks:\n"
        "    for c in d.deck.cards:\n"
        "        face_identity(d.fronts[c.id], shared); face_identity(d.backs[c.id], shared)\n"
        "        n += 2\n"
        "print(t1 - t0, time.perf_counter() - t1, n)\n")
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    results = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code, str(project)], env=env,
                             capture_output=True, text=True, check=True).stdout.split()
        results.append((float(out[0]), float(out[1]), int(out[2])))
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            results[0][2])


def revise(old: Path, new: Path) -> None:
    shutil.copytree(old, new, symlinks=True)
    cards = new / "cards/bench/cards.yaml"
    lines = cards.read_text("utf-8").splitlines()
    lines[1] = lines[1].replace("title: ", "title: Revised ", 1)  # one card's text
    cards.write_text("\n".join(lines) + "\n", "utf-8")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=b@example.com", "-c", "user.name=b", *args],
                   cwd=root, check=True, capture_output=True)


def seed_project(root: Path) -> Path:
    """Last Dance in a project of its own, committed, then revised: the Princess's effect
    decided and a FAQ added to the rulebook."""
    (root / "cards").mkdir(parents=True)
    shutil.copytree(synthetic.REPO / "cards/lastdance", root / "cards/lastdance")
    shutil.copytree(synthetic.REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(synthetic.REPO / "fonts")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    cards = root / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace(
        "    name_en: Princess\n    copies: 1\n    effect: TBD\n",
        "    name_en: Princess\n    copies: 1\n    effect: 常に表向きにする。\n", 1), "utf-8")
    rulebook = root / "cards/lastdance/rulebook.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n# FAQ\n\nQ. May I pass?\n\n"
                        "A. No.\n", "utf-8")
    return root


def in_git(root: Path) -> Path:
    """The benchmark deck committed, then one card's text revised."""
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "v1")
    cards = root / "cards/bench/cards.yaml"
    lines = cards.read_text("utf-8").splitlines()
    lines[1] = lines[1].replace("title: ", "title: Revised ", 1)
    cards.write_text("\n".join(lines) + "\n", "utf-8")
    return root


def revision_rows(tmp: Path, runs: int, env: dict) -> list[tuple]:
    """(game, build, diff, errata build) seconds, medians of `runs`, for the seed game and
    the 1,400-card deck revised in git."""
    rows = []
    for name, game, root in (
            ("lastdance (seed, with its rulebook)", "lastdance", seed_project(tmp / "seed")),
            ("bench, 1,400 cards", "bench",
             in_git(synthetic.make_project(tmp / "git-1400", 1400, False)))):
        times = []
        for command in (["build", "-q", game], ["diff", game],
                        ["build", "-q", "--changed-since", "HEAD", game]):
            times.append(statistics.median(
                measure([sys.executable, "-m", "generator", *command], root, env)[0]
                for _ in range(runs)))
        rows.append((name, *times))
        print(f"{name}: build {times[0]:.2f} s, diff {times[1]:.2f} s, "
              f"build --changed-since {times[2]:.2f} s", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1400,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--distinct", action="store_true")
    args = parser.parse_args()
    compile_cardgen()
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-rev-") as tmp:
        for cards in (int(s) for s in args.sizes.split(",")):
            old = synthetic.make_project(Path(tmp) / f"old-{cards}", cards, args.distinct)
            new = Path(tmp) / f"new-{cards}"
            revise(old, new)
            build = statistics.median(
                measure([sys.executable, "-m", "generator", "build", "-q", "bench"], new, env)[0]
                for _ in range(args.runs))
            diff = statistics.median(
                measure([sys.executable, "-m", "generator", "diff", "--against", str(old), "bench"],
                        new, env)[0] for _ in range(args.runs))
            layout, ids, faces = identities(new, args.runs)
            rows.append((cards, build, diff, layout, ids, faces))
            print(f"{cards:>6} cards: build {build:.2f} s, diff {diff:.2f} s, "
                  f"layout {layout:.2f} s, {faces} identities {ids:.3f} s", flush=True)
        revisions = revision_rows(Path(tmp), args.runs, env)
    print("\n| game | build | diff | diff / build | build --changed-since | errata / build |")
    print("|---|---|---|---|---|---|")
    for name, build, diff, errata in revisions:
        print(f"| {name} | {build:.2f} s | {diff:.2f} s | {diff / build:.2f}x | {errata:.2f} s | "
              f"{errata / build:.2f}x |")
    print("\n| cards | build | diff of two versions | diff / build | identities of every face "
          "| identities / build |")
    print("|---|---|---|---|---|---|")
    for cards, build, diff, layout, ids, faces in rows:
        print(f"| {cards:,} | {build:.2f} s | {diff:.2f} s | {diff / build:.2f}x | "
              f"{ids:.3f} s ({faces:,} faces) | {100 * ids / build:.1f}% |")


if __name__ == "__main__":
    main()
