"""The benchmark's synthetic deck, written as a cardgen project: business cards with a
Japanese title, a number, three lines of mixed Japanese/English body text in a box and a
coloured frame, 10 per A4 page, fronts and mirrored backs."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BODY = ["手札から1枚捨てて、カードを2枚引く。Draw two cards.",
        "相手の場のカード1枚を選び、持ち主の手札に戻す。Return it.",
        "このターン、あなたの攻撃力は＋2される。Gain +2 power."]
TITLES = ["踊り子", "吸血鬼", "王子の執事", "占い師", "隣国の王子", "公爵令嬢", "魔法使い"]

LAYOUT = """\
size: meishi
elements:
  - {name: frame, type: rect, fill: "#7a2e4a"}
  - {name: panel, type: rect, x: 2.5mm, y: 2.5mm, width: 100% - 5mm, height: 100% - 5mm,
     fill: white}
  - {name: title, type: text, text: "{{ card.title }}", bold: true, x: 5mm, y: 4mm, width: 60mm,
     height: 9mm, size: 14pt, valign: middle}
  - {name: number, type: text, text: "No.{{ card.number }}", x: 100% - 25mm, y: 4mm, width: 20mm,
     height: 9mm, size: 9pt, align: right, valign: middle}
  - {name: body, type: text, text: "{{ card.body }}", x: 5mm, y: 16mm, width: 100% - 10mm,
     height: 30mm, size: 8pt, line_spacing: 1.5}
"""
BACK = """\
size: meishi
elements:
  - {name: ground, type: rect, fill: "#7a2e4a"}
  - {name: title, type: text, text: BENCH, x: 0mm, y: 0mm, width: 100%, height: 100%, size: 16pt,
     color: white, align: center, valign: middle}
"""


def card(n: int, distinct: bool | str = False) -> dict:
    """Card n. The deck repeats 7 titles and 3 bodies, as card games repeat names and
    effects. With `distinct`, every card's title and body are its own: the title and the
    first paragraph carry the card's number, and the other two paragraphs are the deck's
    effect texts in the card's own order, as cards reuse effects. With `distinct="unique"`,
    every paragraph carries the number too: no title, body or paragraph is shared (phrases
    between punctuation still recur, as in any card text)."""
    title, body = TITLES[n % len(TITLES)], [BODY[(n + k) % 3] for k in range(3)]
    if distinct:
        title, body[0] = f"{title}{n + 1}", f"{body[0]} #{n + 1}"
    if distinct == "unique":
        body[1:] = [f"{p} #{n + 1}" for p in body[1:]]
    return {"title": title, "number": n + 1, "body": "\n".join(body)}


def make_project(root: Path, cards: int, distinct: bool | str = False) -> Path:
    """A project in `root` with one game, `bench`, of `cards` cards."""
    if root.exists():
        shutil.rmtree(root)
    (root / "cards/bench").mkdir(parents=True)
    (root / "layouts").mkdir()
    shutil.copytree(REPO / "layouts/sheets", root / "layouts/sheets")
    (root / "fonts").symlink_to(REPO / "fonts")
    (root / "layouts/bench-front.yaml").write_text(LAYOUT, "utf-8")
    (root / "layouts/bench-back.yaml").write_text(BACK, "utf-8")
    (root / "cards/bench/game.yaml").write_text(
        "title: ベンチ\ndecks:\n  - {id: main, cards: cards.yaml, front: bench-front, "
        "back: bench-back, backs: duplex}\n", "utf-8")
    lines = ["cards:"]
    for n in range(cards):
        c = card(n, distinct)
        body = c["body"].replace("\n", "\\n")
        lines.append(f'  - {{id: c{n}, title: {c["title"]}, number: {c["number"]}, '
                     f'body: "{body}"}}')
    (root / "cards/bench/cards.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    return root
