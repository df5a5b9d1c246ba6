"""Benchmark: the same synthetic deck built by cardgen, by the floor (reportlab drawn by
hand), and by protograf (the Python peer), at several sizes. Prints median wall time,
peak memory and PDF size per tool, and the ratios cardgen/floor and protograf/cardgen.

    python benchmarks/run.py [--sizes 140,1400,10000] [--runs 3] [--protograf PYTHON]
                             [--distinct | --unique] [--rev REV]

With --rev, cardgen at REV (checked out in a temporary git worktree) is built as a tool of
its own, so that two versions of cardgen are compared in one run on the same machine,
rather than against figures taken on another day. Runs are interleaved (each run builds
with every tool in turn) so that a change in the machine's load falls on all of them alike;
the CPU time (user + system) of each process is printed beside its wall time.

cardgen runs as a user runs it (`cardgen build`, validation included), in a fresh
process per run. protograf runs only when --protograf names a Python that has it
(protograf 0.5.2 is the newest that installs on Python 3.11; 0.6 needs Python 3.13); it
gets cardgen's fonts through a private ~/.fonts.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthetic  # noqa: E402


def measure(command: list[str], cwd: Path, env=None) -> tuple[float, float, float]:
    """(wall seconds, peak resident MB, CPU seconds) of one run of `command`."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *command], cwd=cwd, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{command[0]} failed:\n{proc.stdout}\n{proc.stderr}")
    peak_kb, user, system = proc.stderr.strip().splitlines()[-1].split()
    return wall, int(peak_kb) / 1024, float(user) + float(system)


def pdf_size(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*.pdf")) / 1e6


def compile_cardgen(code: Path = synthetic.REPO) -> None:
    """Byte-compile cardgen as pip does when it installs a package. An editable install
    does not, and where PYTHONDONTWRITEBYTECODE is set (this machine sets it) every run
    would compile cardgen's modules again (50 ms) while the other tools' libraries, installed
    by pip, load compiled: the figures would measure the install, not the tool."""
    compileall.compile_dir(str(code / "generator"), quiet=1)


def prepare(name: str, cards: int, work: Path, protograf: str | None,
            distinct: bool | str = False, code: Path = synthetic.REPO):
    """(command, folder it runs in, environment, output folder) of one tool at one size."""
    project = synthetic.make_project(work / f"{name}-{cards}", cards, distinct)
    mode = "unique" if distinct == "unique" else str(int(bool(distinct)))
    env = {**os.environ, "PYTHONPATH": str(code), "BENCH_DISTINCT": mode}
    if name.startswith("cardgen"):
        command, out = [sys.executable, "-m", "generator", "build", "bench"], project / "output"
    elif name == "floor":
        command = [sys.executable, str(HERE / "floor.py"), str(cards), "out"]
        command = command + (["unique"] if distinct == "unique" else
                             ["distinct"] if distinct else [])
        out = project / "out"
    else:
        command, out = [protograf, str(HERE / "protograf_deck.py")], project / "out"
        home = work / "protograf-home"  # protograf finds fonts in ~/.fonts: give it ours
        (home / ".fonts").mkdir(parents=True, exist_ok=True)
        for name in ("BIZUDPGothic-Regular.ttf", "BIZUDPGothic-Bold.ttf"):
            link = home / ".fonts" / name
            if not link.exists():
                link.symlink_to(synthetic.REPO / "fonts" / name)
        env = {**env, "BENCH_CARDS": str(cards), "BENCH_OUT": "out", "HOME": str(home)}
    return command, project, env, out


def run_tools(tools: dict[str, Path], cards: int, runs: int, work: Path, protograf: str | None,
              distinct: bool | str = False) -> dict[str, tuple[float, float, float, float]]:
    """{tool: (median wall s, peak MB, PDF MB, median CPU s)}, the tools' runs interleaved."""
    setups = {name: prepare(name, cards, work, protograf, distinct, code)
              for name, code in tools.items()}
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tools}
    for _ in range(runs):
        for name, (command, project, env, _out) in setups.items():
            results[name].append(measure(command, project, env))
    return {name: (statistics.median(r[0] for r in got), max(r[1] for r in got),
                   pdf_size(setups[name][3]), statistics.median(r[2] for r in got))
            for name, got in results.items()}


def worktree(rev: str, into: Path) -> Path:
    """REV's code checked out in a temporary git worktree, byte-compiled."""
    subprocess.run(["git", "-C", str(synthetic.REPO), "worktree", "add", "--detach", str(into),
                    rev], check=True, capture_output=True)
    compile_cardgen(into)
    return into


def watch_rebuild(work: Path, cards: int = 140) -> float:
    """Seconds `cardgen watch` takes to rebuild after one card of a built deck changes."""
    project = synthetic.make_project(work / "watch", cards)
    code = f"""
import time
from pathlib import Path
from generator import pipeline
from generator.load import Project
project = Project.find(Path({str(project)!r}))
pipeline.build(project, "bench")
path = project.cards / "bench" / "cards.yaml"
text = path.read_text("utf-8")
path.write_text(text.replace("title: 踊り子, number: 1,", "title: 踊り手, number: 1,", 1), "utf-8")
start = time.perf_counter()
outcome = pipeline.build(project, "bench")
assert outcome.written, outcome.report.summary()
print(time.perf_counter() - start)
"""
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    out = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="140,1400,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--protograf", help="a Python interpreter with protograf installed")
    parser.add_argument("--distinct", action="store_true",
                        help="every card's title and body its own (two of its three paragraphs "
                             "are the deck's effects, in its own order)")
    parser.add_argument("--unique", action="store_true",
                        help="every card's title and every paragraph its own")
    parser.add_argument("--rev", help="also build with cardgen at this git revision "
                                      "(e.g. main), side by side in the same run")
    args = parser.parse_args()
    compile_cardgen()
    with tempfile.TemporaryDirectory() as tmp:
        tools = {"cardgen": synthetic.REPO}
        if args.rev:
            tools[f"cardgen@{args.rev}"] = worktree(args.rev, Path(tmp) / "rev")
        tools["floor"] = synthetic.REPO
        if args.protograf:
            tools["protograf"] = synthetic.REPO
        rows = {}
        try:
            for cards in map(int, args.sizes.split(",")):
                got = run_tools(tools, cards, args.runs, Path(tmp), args.protograf,
                                "unique" if args.unique else args.distinct)
                for tool, row in got.items():
                    rows[tool, cards] = row
                    t, m, s, cpu = row
                    print(f"  {tool:9} {cards:6} cards: {t:7.2f} s {cpu:7.2f} s CPU {m:7.1f} MB"
                          f" {s:6.1f} MB PDF", file=sys.stderr)
        finally:
            if args.rev:
                subprocess.run(["git", "-C", str(synthetic.REPO), "worktree", "remove",
                                "--force", str(tools[f"cardgen@{args.rev}"])],
                               capture_output=True)
    print("| cards | tool | median wall time | median CPU time | peak memory | PDF size |")
    print("|---|---|---|---|---|---|")
    for (tool, cards), (t, m, s, cpu) in rows.items():
        print(f"| {cards:,} | {tool} | {t:.2f} s | {cpu:.2f} s | {m:.0f} MB | {s:.1f} MB |")
    print()
    others = [tool for tool in tools if tool.startswith("cardgen@")]
    # Each ratio by wall time and by CPU time (user + system): on a busy machine the wall
    # times carry the other processes' load, which falls unevenly on a short run (the
    # floor's); the CPU times are each process's own work.
    print("| cards | cardgen / floor (wall, CPU) |" +
          "".join(f" {t} / floor (wall, CPU) |" for t in others) + " protograf / cardgen |")
    print("|---|---|" + "---|" * len(others) + "---|")
    for cards in map(int, args.sizes.split(",")):
        floor = rows["floor", cards]
        ratios = [(rows[tool, cards][0] / floor[0], rows[tool, cards][3] / floor[3])
                  for tool in ["cardgen", *others]]
        peer = (f"{rows['protograf', cards][0] / rows['cardgen', cards][0]:.1f}x"
                if ("protograf", cards) in rows else "not run")
        print(f"| {cards:,} | " + " | ".join(f"{w:.2f}x, {c:.2f}x" for w, c in ratios) +
              f" | {peer} |")
    with tempfile.TemporaryDirectory() as tmp:
        print()
        rebuilt = watch_rebuild(Path(tmp))
        print(f"`cardgen watch`, one card of 140 changed: rebuilt in {rebuilt:.2f} s")


if __name__ == "__main__":
    main()
