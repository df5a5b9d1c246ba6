"""Paper: how many sheets each game takes with every deck on sheets of its own, in a grid
(as cardgen imposed before decks shared sheets), and as cardgen imposes it now (decks of
one size sharing sheets, pieces of several sizes packed, hexes and round tokens nested),
side by side in one run, and what that saves.

Then every game's print-and-play kits (A4 and Letter, duplex and gutter-fold): the sheets
their cards take against a lower bound, the pieces' area (each with its gap) over the
paper's printable area (inside its unprintable margin; a gutter-fold page holds each
piece twice, front and back), rounded up. Where a kit takes more than one sheet over its
bound, the table says why: the decks that fill their sheets least.

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

from generator.impose import impose_deck, impose_game, kit  # noqa: E402
from generator.load import Project  # noqa: E402
from generator.pipeline import check, lay_out  # noqa: E402
from generator.pnp import _on_paper, kit_imposition  # noqa: E402
from generator.problems import Report  # noqa: E402
from generator.units import mm  # noqa: E402

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


def _why(printed, fitted, printable: float, layout: str) -> str:
    """Why a kit takes more than one sheet over its bound: each size of piece in its best
    grid fills only part of a page (and a gutter-fold page holds one size: each size
    starts a page of its own, its last one part-filled)."""
    said, sizes = [], {}
    for d in printed:
        sizes.setdefault((d.deck.piece_size, d.deck.shape), []).append(d)
    for (size, _shape), decks in sizes.items():
        sheet = fitted[decks[0].deck.id]
        per = sheet.per_sheet // (2 if layout == "gutter-fold" else 1)
        piece = (size[0] + sheet.gap[0]) * (size[1] + sheet.gap[1])
        share = 0.5 if layout == "gutter-fold" else 1.0
        fill = min(1.0, per * piece / (printable * share)) if per else 0.0
        n = sum(1 for d in decks for _unused in d.deck.instances())
        said.append(f"{n} of {size[0] / mm(1):.0f} x {size[1] / mm(1):.0f} mm: about "
                    f"{per} a page fill {fill:.0%} of it")
    if layout == "gutter-fold" and len(sizes) > 1:
        said.append(f"{len(sizes)} sizes, each starting a page")
    return "; ".join(said)


def kits(project: Path, game: str) -> list[tuple[str, int, int, str]]:
    """(kit, sheets its cards take, lower bound, why it is over) for each kit of the game:
    A4 and Letter, duplex and gutter-fold."""
    found = Project.find(project)
    faces = lay_out(check(found, game))
    if faces is None:
        raise SystemExit(f"{game} does not build")
    out = []
    for paper in ("A4", "Letter"):
        on_paper, fitted = _on_paper(found, faces, paper, Report())
        printed = [d for d in on_paper.decks if d.deck.total > 0]
        if not printed:
            continue
        sheet = fitted[printed[0].deck.id]
        W, H = sheet.paper
        printable = (W - 2 * sheet.unprintable) * (H - 2 * sheet.unprintable)
        area = {d.deck.id: sum(1 for _unused in d.deck.instances()) *
                (d.deck.piece_size[0] + fitted[d.deck.id].gap[0]) *
                (d.deck.piece_size[1] + fitted[d.deck.id].gap[1]) for d in printed}
        duplex = len(kit_imposition(on_paper).fronts)
        folded = len(kit.gutterfold(on_paper, fitted, faces.game.main_family.regular).pages)
        for layout, used, bound in (("duplex", duplex, -(-sum(area.values()) // printable)),
                                    ("gutter-fold", folded,
                                     -(-2 * sum(area.values()) // printable))):
            why = ""
            if used > bound + 1:
                why = _why(printed, fitted, printable, layout)
            out.append((f"{paper} {layout}", int(used), int(bound), why))
    return out


def main() -> None:
    rows = []
    kit_rows = []
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
            kit_rows += [(game, *row) for row in kits(root, game)]
        bench = synthetic.make_project(Path(tmp) / "bench", 1400)
        rows.append(("bench (1,400 cards)", *sheets(bench, "bench")))
    print("| game | sheets, each deck on its own | sheets now | saved |")
    print("|---|---|---|---|")
    for game, before, after in rows:
        saved = f"{before - after} ({(before - after) / before:.0%})" if before else "0"
        print(f"| {game} | {before} | {after} | {saved} |")
    before, after = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"| all | {before} | {after} | {before - after} ({(before - after) / before:.0%}) |")
    print()
    print("| game | kit | sheets | lower bound | over | why |")
    print("|---|---|---|---|---|---|")
    for game, which, used, bound, why in kit_rows:
        print(f"| {game} | {which} | {used} | {bound} | {used - bound} | {why} |")


if __name__ == "__main__":
    main()
