"""The floor: the benchmark deck drawn directly on a reportlab canvas, no layout engine.

Same cards as synthetic.py (Japanese title, number, three lines of body text in a box,
a coloured frame), 10 per A4 page (A-One 51002 positions), fronts and mirrored backs,
the same embedded fonts. Text is wrapped by reportlab's own CJK word wrap (no kinsoku
engine, no checks): the least work that prints the same sheets.

    python benchmarks/floor.py CARDS OUTPUT_FOLDER [distinct | unique]
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

sys.path.insert(0, str(Path(__file__).parent))
import synthetic  # noqa: E402

FONTS = synthetic.REPO / "fonts"


def main(cards: int, out: Path, distinct: bool | str = False) -> None:
    pdfmetrics.registerFont(TTFont("g", str(FONTS / "BIZUDPGothic-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("gb", str(FONTS / "BIZUDPGothic-Bold.ttf")))
    out.mkdir(parents=True, exist_ok=True)
    W, H, w, h = 210 * mm, 297 * mm, 91 * mm, 55 * mm
    slots = [(14 * mm + c * w, H - 11 * mm - (r + 1) * h) for r in range(5) for c in range(2)]
    fronts = Canvas(str(out / "floor-fronts.pdf"), pagesize=(W, H), invariant=1,
                    initialFontName="g")
    backs = Canvas(str(out / "floor-backs.pdf"), pagesize=(W, H), invariant=1, initialFontName="g")
    for start in range(0, cards, 10):
        for i, n in enumerate(range(start, min(start + 10, cards))):
            c = synthetic.card(n, distinct)
            x, y = slots[i]
            fronts.setFillColorRGB(0.48, 0.18, 0.29)
            fronts.rect(x, y, w, h, stroke=0, fill=1)
            fronts.setFillColorRGB(1, 1, 1)
            fronts.rect(x + 2.5 * mm, y + 2.5 * mm, w - 5 * mm, h - 5 * mm, stroke=0, fill=1)
            fronts.setFillColorRGB(0, 0, 0)
            fronts.setFont("gb", 14)
            fronts.drawString(x + 5 * mm, y + h - 11 * mm, c["title"])
            fronts.setFont("g", 9)
            fronts.drawRightString(x + w - 5 * mm, y + h - 11 * mm, f"No.{c['number']}")
            fronts.setFont("g", 8)
            line_y = y + h - 20 * mm
            for paragraph in c["body"].split("\n"):
                for line in simpleSplit(paragraph, "g", 8, w - 10 * mm):
                    fronts.drawString(x + 5 * mm, line_y, line)
                    line_y -= 12
            bx = W - x - w  # mirrored for long-edge duplex
            backs.setFillColorRGB(0.48, 0.18, 0.29)
            backs.rect(bx, y, w, h, stroke=0, fill=1)
            backs.setFillColorRGB(1, 1, 1)
            backs.setFont("g", 16)
            backs.drawCentredString(bx + w / 2, y + h / 2, "BENCH")
        fronts.showPage()
        backs.showPage()
    fronts.save()
    backs.save()


if __name__ == "__main__":
    mode = sys.argv[3] if len(sys.argv) > 3 else ""
    main(int(sys.argv[1]), Path(sys.argv[2]), "unique" if mode == "unique" else mode == "distinct")
