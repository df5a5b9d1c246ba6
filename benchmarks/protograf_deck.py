"""The benchmark deck in protograf 0.5.2 (the Python peer), for benchmarks/run.py.

    BENCH_CARDS=140 BENCH_OUT=out python protograf_deck.py   (a Python that has protograf;
                                                              protograf reads sys.argv itself)

Business cards (9.1 x 5.5 cm) with a coloured frame, the Japanese title, the number and
three lines of body text in a box, fronts and backs, as synthetic.py describes them.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import synthetic  # noqa: E402
from protograf import Card, Create, Data, Deck, Font, Rectangle, Save, T, Text  # noqa: E402

cards, out = int(os.environ["BENCH_CARDS"]), Path(os.environ["BENCH_OUT"])
out.mkdir(parents=True, exist_ok=True)
distinct = {"1": True, "unique": "unique"}.get(os.environ.get("BENCH_DISTINCT"), False)
rows = [["title", "number", "body"]] + [
    [c["title"], str(c["number"]), c["body"]]
    for c in (synthetic.card(n, distinct) for n in range(cards))]

Create(filename=str(out / "protograf.pdf"), paper="A4", units="cm", margin_left=1.4,
       margin_right=1.4, margin_top=1.1, margin_bottom=1.1)
Data(data_list=rows)
Deck(cards=cards, width=9.1, height=5.5, fill="#7a2e4a", cols=2, rows=5, spacing=0)
Font("BIZ UDPゴシック", size=8)  # its family name; found through ~/.fonts, which run.py sets up
Card("all",
     Rectangle(x=0.25, y=0.25, width=8.6, height=5.0, fill="white", stroke="white"),
     Text(text=T("{{ title }}"), x=0.5, y=0.5, font_size=14, align="left"),
     Text(text=T("No.{{ number }}"), x=8.6, y=0.5, font_size=9, align="right"),
     Text(text=T("{{ body }}"), x=0.5, y=1.6, width=8.1, height=3.0, font_size=8, wrap=True))
Save()
