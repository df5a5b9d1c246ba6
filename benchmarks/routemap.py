"""Benchmark of a route map (issue #60): `cardgen build` of a game whose board is a map of 48
places in four colours joined by about 90 routes of every style (two wrapping over the
board's edge), as a Pandemic-like game has; the target is under 2 s here. Also `validate`
alone, which checks every route against every place it might pass over. With --hostile,
`validate` of a data table of a million routes, and of one of a million places: each list
is read no further than a board's budget, so the error comes without reading the file.

    python benchmarks/routemap.py [--runs 5] [--places 48] [--hostile]
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthetic  # noqa: E402
from run import compile_cardgen, measure  # noqa: E402

STYLES = ("solid", "solid", "dashed", "dotted", "double")
COLOURS = ("blue", "yellow", "black", "red")


def world(places: int) -> dict:
    """`places` places on a jittered grid of an A3 board, each joined to its right and lower
    neighbours and every fourth to the one below and right (about two routes a place), two
    routes wrapping over the left edge."""
    columns = math.ceil(math.sqrt(places * 1.45))
    rows = math.ceil(places / columns)
    cities, routes = [], []
    for n in range(places):
        r, c = divmod(n, columns)
        x = 18 + c * (364 / max(columns - 1, 1)) + (n * 7 % 5)
        y = 20 + r * (237 / max(rows - 1, 1)) + (n * 11 % 6)
        cities.append({"id": f"city-{n}", "label": f"City {n} 都市", "x": f"{x:.1f}mm",
                       "y": f"{y:.1f}mm", "type": COLOURS[c * 4 // columns]})
        if c + 1 < columns and n + 1 < places:
            routes.append({"from": f"city-{n}", "to": f"city-{n + 1}",
                           "style": STYLES[n % len(STYLES)]})
        if n + columns < places:
            routes.append({"from": f"city-{n}", "to": f"city-{n + columns}"})
        if n % 4 == 0 and c + 1 < columns and n + columns + 1 < places:
            routes.append({"from": f"city-{n}", "to": f"city-{n + columns + 1}",
                           "color": "#7a2e4a", "width": "0.6mm"})
    for r in range(min(2, rows)):
        routes.append({"from": f"city-{r * columns}", "to": f"city-{r * columns + columns - 1}",
                       "wrap": "left", "style": "dashed"})
    return {"regions": {"blue": {"color": "#2d63b8"}, "yellow": {"color": "#e2b527"},
                        "black": {"color": "#3b3b3b"}, "red": {"color": "#c23b30"}},
            "cities": cities, "routes": routes}


def make_project(root: Path, places: int) -> tuple[int, int]:
    (root / "cards/routes").mkdir(parents=True)
    shutil.copytree(synthetic.REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(synthetic.REPO / "fonts")
    data = world(places)
    (root / "cards/routes/world.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                                  "utf-8")
    (root / "cards/routes/cards.yaml").write_text("cards: [{id: one, name: One}]\n", "utf-8")
    (root / "cards/routes/game.yaml").write_text(
        "title: Routes\ndecks:\n  - {id: main, cards: cards.yaml}\ndata:\n  world: world.yaml\n"
        "boards:\n  - {id: world, layout: map, cells: data.world.cities, routes: "
        "data.world.routes, types: data.world.regions}\n", "utf-8")
    return len(data["cities"]), len(data["routes"])


def hostile(root: Path, env: dict, runs: int) -> None:
    """`validate` of a million routes and of a million places in the game's data (an error
    either way: the figures are how soon it is said)."""
    folder = root / "cards/routes"
    lists = {"routes": ("places:\n- {id: a, x: 10mm, y: 10mm}\nroutes:\n",
                        "- {{from: a, to: b}}\n", "routes: data.world.routes, "),
             "places": ("places:\n", "- {{id: p{n}, x: 10mm, y: 10mm}}\n", "")}
    for name, (head, line, routes) in lists.items():
        with open(folder / "world.yaml", "w", encoding="utf-8") as out:
            out.write(head)
            out.writelines(line.format(n=n) for n in range(1_000_000))
        (folder / "game.yaml").write_text(
            "title: Routes\ndecks:\n  - {id: main, cards: cards.yaml}\ndata:\n  world: "
            f"world.yaml\nboards:\n  - {{id: world, layout: map, {routes}cells: "
            "data.world.places}\n", "utf-8")
        walls, peaks = [], []
        for _ in range(runs):
            start = time.perf_counter()
            proc = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m",
                                   "generator", "validate", "routes"], cwd=root, env=env,
                                  capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
            peaks.append(int(proc.stderr.strip().splitlines()[-1]) / 1024)
        said = next((line for line in proc.stdout.splitlines() if ": error: " in line), "")
        print(f"a million {name} in the game's data, median of {runs} runs: cardgen validate "
              f"{statistics.median(walls):.2f} s (peak {max(peaks):.0f} MB)\n  {said}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--places", type=int, default=48)
    parser.add_argument("--hostile", action="store_true",
                        help="validate a million routes and a million places instead")
    args = parser.parse_args()
    compile_cardgen()
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    if args.hostile:
        with tempfile.TemporaryDirectory() as tmp:
            make_project(Path(tmp) / "project", args.places)
            hostile(Path(tmp) / "project", env, args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        places, routes = make_project(root, args.places)
        build = [measure([sys.executable, "-m", "generator", "build", "routes"], root, env)
                 for _ in range(args.runs)]
        check = [measure([sys.executable, "-m", "generator", "validate", "routes"], root, env)
                 for _ in range(args.runs)]
    print(f"a map of {places} places and {routes} routes, median of {args.runs} runs:")
    for name, runs in (("build", build), ("validate", check)):  # (wall, peak MB, CPU s)
        print(f"  cardgen {name}: {statistics.median(r[0] for r in runs):.2f} s "
              f"(fastest {min(r[0] for r in runs):.2f} s; CPU "
              f"{statistics.median(r[2] for r in runs):.2f} s; peak "
              f"{max(r[1] for r in runs):.0f} MB)")


if __name__ == "__main__":
    main()
