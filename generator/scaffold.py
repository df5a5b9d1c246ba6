"""`cardgen new GAME`: a first game that validates and builds at once.

Writes cards/GAME/ (a commented game.yaml, a three-card deck, a rulebook template)
and the game's front and back layouts in layouts/. Never overwrites anything: an
existing folder or layout is a usage error.
"""

from __future__ import annotations

import os
from pathlib import Path

from .load import Project
from .paths import NAME_RULE, Outside, inside, is_name
from .problems import UsageError
from .units import CARD_SIZES

SHEETS = {"meishi": "a-one-51002", "poker": "a4-poker-9up", "us-business": "avery-5371"}

GAME_YAML = """\
# {game}: made by `cardgen new`. Every key is explained in docs/format.md.
title: {game}                # the game's title: card backs and the rulebook cover show it
decks:
  - id: cards
    name: Cards
    cards: cards.yaml        # the deck file: one entry per card
    sheet: {sheet}           # the paper the cards are printed on (docs/printing.md)
    front: {game}-front      # the card face, a layout in layouts/ (docs/layouts.md)
    back: {game}-back
    color: "#2f5d8a"
    fields:                  # what every card has; checked by `cardgen validate`
      name: {{type: text, required: true}}
      cost: {{type: integer, required: true, minimum: 0}}
      text: {{type: text}}
rulebook:
  template: rulebook.md      # Markdown with data in {{{{ }}}} (docs/rulebook.md)
  page: A5
"""

CARDS_YAML = """\
# The cards. `copies` says how many to print; a value you have not decided yet can
# be TBD: `cardgen validate` lists it and the card prints with a DRAFT mark.
cards:
  - id: scout
    name: 斥候
    cost: 1
    text: カードを1枚引く。
    copies: 3
  - id: knight
    name: 騎士
    cost: 3
    text: 相手のカード1枚を捨て札にする。
    copies: 2
  - id: oracle
    name: 巫女
    cost: 2
    text: TBD
"""

FRONT_YAML = """\
# {game}: card front ({size}). Positions are from the top-left corner; % is of the card.
size: {size}
elements:
  - {{name: background, type: rect, fill: "{{{{ deck.color }}}}", bleed: true}}
  - {{name: panel, type: rect, x: 3mm, y: 3mm, width: 100% - 6mm, height: 100% - 6mm,
     radius: 2mm, fill: white}}
  - {{name: cost-disc, type: circle, x: 5mm, y: 5mm, width: 9mm, height: 9mm, fill: "{{{{ deck.color }}}}"}}
  - {{name: cost, type: text, text: "{{{{ card.cost }}}}", bold: true, x: 5mm, y: 5mm, width: 9mm,
     height: 9mm, size: 12pt, color: white, align: center, valign: middle, line_spacing: 1}}
  - {{name: name, type: text, text: "{{{{ card.name }}}}", bold: true, x: 16mm, y: 5mm,
     width: 100% - 21mm, height: 9mm, size: 13pt, valign: middle, fit: shrink, min_size: 8pt}}
  - {{name: text, type: text, text: "{{{{ card.text }}}}", x: 6mm, y: 50%, width: 100% - 12mm,
     height: 50% - 9mm, size: 8pt, fit: shrink, min_size: 6pt, align: justify}}
"""

BACK_YAML = """\
# {game}: card back ({size}).
size: {size}
elements:
  - {{name: background, type: rect, fill: "{{{{ deck.color }}}}", bleed: true}}
  - {{name: border, type: rect, x: 4mm, y: 4mm, width: 100% - 8mm, height: 100% - 8mm, radius: 2mm,
     stroke: white, stroke_width: 0.8pt}}
  - {{name: title, type: text, text: "{{{{ game.title }}}}", x: 6mm, y: 0mm, width: 100% - 12mm,
     height: 100%, size: 14pt, color: white, align: center, valign: middle, fit: shrink, min_size: 7pt}}
"""

RULEBOOK_MD = """\
# Overview

Write your rules here. Everything between double curly braces comes from the game's
data, so the rulebook changes with the cards.

# Components

- {{{{ cards | sum(attribute='copies') }}}} cards:
{{%- for c in cards %}}
    - {{{{ c.name }}}} × {{{{ c.copies }}}}
{{%- endfor %}}

{{{{ card_faces(cards | map(attribute='id') | list) }}}}

# Cards

| Card | Cost | Effect |
|---|---|---|
{{%- for c in cards %}}
| {{{{ c.name }}}} | {{{{ c.cost }}}} | {{{{ c.text }}}} |
{{%- endfor %}}
"""


def new_game(project: Project, game: str, size: str, sheet: str | None) -> list[Path]:
    if not is_name(game):
        raise UsageError(f"'{game}' cannot name a game: a game's name is {NAME_RULE}")
    if size not in CARD_SIZES:
        raise UsageError(f"unknown card size '{size}' (sizes: {', '.join(CARD_SIZES)})")
    sheet = sheet or SHEETS.get(size, "plain-a4")
    if not is_name(sheet) or not (project.root / "layouts" / "sheets" / f"{sheet}.yaml").is_file():
        raise UsageError(f"unknown sheet preset '{sheet}' (see layouts/sheets/)")
    folder = project.cards / game
    layouts = project.root / "layouts"
    files = {
        folder / "game.yaml": GAME_YAML.format(game=game, sheet=sheet),
        folder / "cards.yaml": CARDS_YAML,
        folder / "rulebook.md": RULEBOOK_MD.format(),
        layouts / f"{game}-front.yaml": FRONT_YAML.format(game=game, size=size),
        layouts / f"{game}-back.yaml": BACK_YAML.format(game=game, size=size),
    }
    existing = [p for p in [folder, *files] if os.path.lexists(p)]  # a dangling link exists too
    if existing:
        raise UsageError(f"{project.display(existing[0])} already exists; cardgen new never "
                         "overwrites anything")
    for path in files:  # no folder on the way may be a link that leads out of the project
        try:
            inside(project.root, path.relative_to(project.root))
        except Outside:
            raise UsageError(f"{project.display(path)} lies behind a link that leads outside the "
                             "project; cardgen new writes only inside it, so nothing was written") \
                from None
    folder.mkdir(parents=True)
    for path, text in files.items():
        # O_EXCL and O_NOFOLLOW: never through a link, never over a file made meanwhile.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    return list(files)
