"""Paper: how many sheets each game takes with every deck on sheets of its own, in a grid
(as cardgen imposed before decks shared sheets), and as cardgen imposes it now (decks of
one size sharing sheets, pieces of several sizes packed, hexes and round tokens nested),
side by side in one run, and what that saves.

    python benchmarks/paper.py

Games: the four in cards/, the worked example (docs/examples/skirmish: round and hex
tokens, standees), the 1,400-card benchmark deck (synthetic.py), and a print-and-play
sample: three decks of poker cards, two of small cards, 19 hex tiles and 18 round tokens on
plain A4, as issue 41 describes a typical game.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import synthetic  # noqa: E402

from generator.impose import impose_deck, impose_game  # noqa: E402
from generator.load import Project  # noqa: E402
from generator.pipeline import check, lay_out  # noqa: E402

REPO = HERE.parent


def sample(root: Path) -> None:
    """The print-and-play sample game, written into a project at `root`."""
    game = root / "cards/sample"
    game.mkdir(parents=True)
    face = {"size": "poker", "elements": [{"name": "ground", "type": "rect", "fill": "#2a4a7a",
                                           "bleed": True}]}
    layouts = {"s-card": face, "s-small": {**face, "size": ["44mm", "63mm"]},
               "s-tile": {**face, "size": ["40mm", "46.19mm"]},
               "s-coin": {**face, "size": ["25mm", "25mm"]}}
    decks = []
    for deck, n, layout, shape in (("heroes", 4, "s-card", None), ("items", 2, "s-card", None),
                                   ("events", 5, "s-card", None), ("ref", 4, "s-small", None),
                                   ("special", 2, "s-small", None), ("tiles", 19, "s-tile", "hex"),
                                   ("coins", 18, "s-coin", "circle")):
        decks.append({"id": deck, "cards": f"{deck}.yaml", "front": layout, "back": layout,
                      "sheet": "plain-a4", **({"shape": shape} if shape else {})})
        (game / f"{deck}.yaml").write_text(yaml.safe_dump(
            {"cards": [{"id": f"{deck}{i}"} for i in range(n)]}), "utf-8")
    (game / "game.yaml").write_text(yaml.safe_dump({"title": "Sample", "decks": decks}), "utf-8")
    for name, layout in layouts.items():
        (root / f"layouts/{name}.yaml").write_text(yaml.safe_dump(layout), "utf-8")


def sheets(project: Path, game: str) -> tuple[int, int]:
    """(sheets with each deck on its own in a grid, sheets as imposed now)."""
    faces = lay_out(check(Project.find(project), game))
    if faces is None:
        raise SystemExit(f"{game} does not build")
    printed = [d for d in faces.decks if d.deck.total > 0]
    alone = sum(len(impose_deck(d, 0, (0.0, 0.0), d.deck.backs == "grouped")[0])
                for d in printed)
    return alone, len(impose_game(faces).fronts)


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "games"
        root.mkdir()
        shutil.copytree(REPO / "cards", root / "cards")
        shutil.copytree(REPO / "layouts", root / "layouts")
        (root / "fonts").symlink_to(REPO / "fonts")
        example = REPO / "docs/examples/skirmish"
        shutil.copytree(example / "game", root / "cards/skirmish")
        shutil.copytree(example / "layouts", root / "layouts", dirs_exist_ok=True)
        sample(root)
        for game in ("dernier-peuple", "lastdance", "odoriko", "vampire-band", "skirmish",
                     "sample"):
            rows.append((game, *sheets(root, game)))
        bench = synthetic.make_project(Path(tmp) / "bench", 1400)
        rows.append(("bench (1,400 cards)", *sheets(bench, "bench")))
    print("| game | sheets, each deck on its own | sheets now | saved |")
    print("|---|---|---|---|")
    for game, before, after in rows:
        saved = f"{before - after} ({(before - after) / before:.0%})" if before else "0"
        print(f"| {game} | {before} | {after} | {saved} |")
    before, after = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"| all | {before} | {after} | {before - after} ({(before - after) / before:.0%}) |")


if __name__ == "__main__":
    main()
