"""The keys of the files cardgen reads that no registry's module owns, each declared once
(options.py): the rulebook's entry in game.yaml. A schema file names a group here with
`"x-options": NAME` where its keys go (load/schema.py fills them in); resolve reads them
through values.Reader.option; the docs' tables are made from them (generator/reference.py).
"""

from __future__ import annotations

from .i18n import N_
from .model import DECK_COLOR
from .options import Option, Options

RULEBOOK = Options(
    Option("template", "file", N_("the rulebook: Markdown with the game's data in {{ }} "
                                  "(docs/rulebook.md)"), required=True),
    Option("page", "page", N_("the page: a paper, or a [width, height] from A7 to A3"), "A5",
           schema={"oneOf": [{"type": "string", "format": "rulebook-page"},
                             {"$ref": "cardgen:common#/$defs/size"}],
                   "x-expected": N_("{rulebook-page} or a [width, height] pair")}),
    Option("title", "text", N_("the title on its cover"), shown_default=N_("the game's title")),
    Option("accent", "color", N_("the colour of headings and rules"), DECK_COLOR),
    Option("booklet", "paper", N_("the sheet a saddle-stitched booklet is printed on"),
           shown_default=N_("the paper the page is half of")),
    Option("align", "choice", N_("body text: justify, or left (ragged right)"), "justify",
           choices=("justify", "left")),
    Option("smart_quotes", "flag", N_("\"straight\" quotes set as typographer's quotes"), False),
    Option("writing", "choice", N_("horizontal, or vertical (縦書き, bound on the right)"),
           "horizontal", choices=("horizontal", "vertical")),
    Option("columns", "integer", N_("columns (段 in vertical writing)"), low=1, high=4,
           shown_default=N_("by the page's size")),
    Option("font", "name", N_("the font family of its text"), "",
           shown_default=N_("the game's main family")),
)

# The groups a schema file names with "x-options".
GROUPS: dict[str, Options] = {"rulebook": RULEBOOK}
