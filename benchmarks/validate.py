"""Benchmark of `cardgen validate` (issue #23), measured side by side in one run:

1. the synthetic deck (every card's text its own) at 10,000 and 100,000 cards, as written
   and with a `TBD` on every card (one draft warning per card): a problem on every card
   must cost no more than the cards themselves, and the time must grow linearly;
2. `cardgen validate lastdance`, the whole process, as a user runs it.

    python benchmarks/validate.py [--sizes 10000,100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import synthetic  # noqa: E402
from run import compile_cardgen, measure  # noqa: E402


def with_tbd(project: Path) -> None:
    """Every card's number becomes TBD: a draft warning on every card."""
    cards = project / "cards/bench/cards.yaml"
    cards.write_text(re.sub(r"number: \d+", "number: TBD", cards.read_text("utf-8")), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compile_cardgen()
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    validate = [sys.executable, "-m", "generator", "validate"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for cards in (int(s) for s in args.sizes.split(",")):
            plain = synthetic.make_project(Path(tmp) / f"plain-{cards}", cards, distinct=True)
            drafts = synthetic.make_project(Path(tmp) / f"tbd-{cards}", cards, distinct=True)
            with_tbd(drafts)
            a, b = [], []
            for _ in range(args.runs):  # interleaved
                a.append(measure(validate + ["bench"], plain, env))
                b.append(measure(validate + ["bench"], drafts, env))
            row = (cards, statistics.median(t for t, _ in a), statistics.median(t for t, _ in b),
                   max(m for _, m in a), max(m for _, m in b))
            rows.append(row)
            print(f"  {cards} cards: {row[1]:.2f} s, with a TBD on every card {row[2]:.2f} s",
                  flush=True)
        game = [measure(validate + ["lastdance"], synthetic.REPO, env)[0]
                for _ in range(max(5, args.runs))]
    print("\n| cards | validate | with a TBD on every card | TBD / plain | peak memory |")
    print("|---|---|---|---|---|")
    for cards, a, b, ma, mb in rows:
        print(f"| {cards:,} | {a:.2f} s | {b:.2f} s | {b / a:.2f}x | {max(ma, mb):.0f} MB |")
    if len(rows) > 1:
        (c0, a0, b0, *_), (c1, a1, b1, *_) = rows[0], rows[-1]
        print(f"\n{c1:,} cards / {c0:,} cards: {a1 / a0:.1f}x the time for {c1 / c0:.0f}x the "
              f"cards ({b1 / b0:.1f}x with TBDs)")
    print(f"\n`cardgen validate lastdance`, whole process: {statistics.median(game):.2f} s "
          f"(median of {len(game)}; fastest {min(game):.2f} s)")


if __name__ == "__main__":
    main()
