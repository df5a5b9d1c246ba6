"""Benchmark of `cardgen build --png` (issue #23), measured side by side in one run:

1. `cardgen build` of a synthetic deck, and `cardgen build --png` of the same deck with an
   empty PNG cache: the difference is what the PNGs cost;
2. the floor: the same card faces as one PDF (one face with its bleed per page, as cardgen
   rasterises them), rasterised at the same resolution by pypdfium2 alone and saved as
   PNG by Pillow, in a process of its own.

    python benchmarks/png.py [--sizes 140,1400] [--runs 3] [--dpi 300]
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

FLOOR = """
import io, sys, time
import pypdfium2
start = time.perf_counter()
document = pypdfium2.PdfDocument(sys.argv[1])
for index in range(len(document)):
    bitmap = document[index].render(scale=float(sys.argv[2]) / 72.0)
    out = io.BytesIO()
    bitmap.to_pil().convert("RGB").save(out, "PNG")
print(time.perf_counter() - start)
"""

FACES = """
import sys
from pathlib import Path
from generator.load import Project
from generator.pipeline import check, lay_out
from generator.write.pdf import PdfFile, render_pdf
from generator.write.png import face_page
o = check(Project.find(Path(sys.argv[1])), 'bench')
faces = lay_out(o)
pages = [face_page(d.fronts[c.id]) for d in faces.decks for c in d.deck.cards] + \\
        [face_page(d.backs[c.id]) for d in faces.decks for c in d.deck.cards][:1]
with open(sys.argv[2], "wb") as out:
    render_pdf(PdfFile(tuple(pages), "faces", "faces", o.game.main_family.regular), out)
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="140,1400")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    compile_cardgen()
    env = {**os.environ, "PYTHONPATH": str(synthetic.REPO)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for cards in (int(s) for s in args.sizes.split(",")):
            project = synthetic.make_project(Path(tmp) / f"png-{cards}", cards, distinct=True)
            faces_pdf = Path(tmp) / f"faces-{cards}.pdf"
            subprocess.run([sys.executable, "-c", FACES, str(project), str(faces_pdf)], env=env,
                           check=True)
            build, png, floor = [], [], []
            for _ in range(args.runs):  # interleaved, so that a slow spell hits all three
                shutil.rmtree(project / "output", ignore_errors=True)
                build.append(measure([sys.executable, "-m", "generator", "build", "bench", "-q"],
                                     project, env)[0])
                shutil.rmtree(project / "output", ignore_errors=True)  # the PNG cache too
                png.append(measure([sys.executable, "-m", "generator", "build", "bench", "-q",
                                    "--png", "--dpi", str(args.dpi)], project, env)[0])
                out = subprocess.run([sys.executable, "-c", FLOOR, str(faces_pdf), str(args.dpi)],
                                     env=env, capture_output=True, text=True, check=True)
                floor.append(float(out.stdout))
            b, p, f = (statistics.median(x) for x in (build, png, floor))
            rows.append((cards, b, p, p - b, f))
            print(f"  {cards} cards: build {b:.2f} s, build --png {p:.2f} s, PNGs {p - b:.2f} s,"
                  f" pypdfium2 alone {f:.2f} s", flush=True)
    print("\n| cards | build | build --png | the PNGs | pypdfium2 alone | PNGs / pypdfium2 |")
    print("|---|---|---|---|---|---|")
    for cards, b, p, d, f in rows:
        print(f"| {cards:,} | {b:.2f} s | {p:.2f} s | {d:.2f} s | {f:.2f} s | {d / f:.2f}x |")


if __name__ == "__main__":
    main()
