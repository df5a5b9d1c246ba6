"""The keys of the files cardgen reads that no registry's module owns, each declared once
(options.py): a deck's entry in game.yaml and the rulebook's. A schema file names a group here with
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

# A deck's entry in game.yaml (`decks:`), besides its id, its cards file, its sheet and its
# fields (schemas/game.json).
DECK = Options(
    Option("name", "text", N_("the deck's name, as the print guide and the stats say it"),
           shown_default=N_("its id")),
    Option("color", "color", N_("the deck's colour: deck.color in its layouts, its charts"),
           DECK_COLOR),
    Option("front", "name", N_("the card layout of its fronts"), "default-front"),
    Option("back", "name", N_("the card layout of its backs"),
           shown_default=N_("default-back; a standee's: its front, mirrored")),
    Option("backs", "choice", N_("grouped: a sheet per back design; duplex: the backs follow "
                                 "the fronts"), "grouped", choices=("grouped", "duplex")),
    Option("own_sheet", "flag", N_("never shares a sheet with another deck"), False),
    Option("slots", "integer", N_("the deck's declared size: slots no card fills print as "
                                  "blank fillers"), low=1, high=100000),
    Option("guide", "text", N_("what the print guide says about this deck"), "",
           schema={"minLength": 1,
                   "x-expected": N_("a line for the print guide about this deck")}),
    Option("worksheet", "text", N_("the worksheet of a spreadsheet deck file"),
           schema={"minLength": 1}, shown_default=N_("the first")),
    Option("encoding", "text", N_("the text encoding of a CSV deck file"), schema={
        "format": "text-encoding",
        "x-expected": N_("a text encoding Python knows, such as utf-8, cp932, cp1252, latin-1, "
                         "mac_roman or utf-16")},
           shown_default=N_("found: a BOM, UTF-8, cp932 or cp1252")),
    Option("shape", "choice", N_("card; a token: circle, square or hex; or a standee"), "card",
           choices=("card", "circle", "square", "hex", "standee")),
    Option("tab", "length", N_("a standee's base tab (at most the figure's height)"), "10mm",
           low="0mm"),
)

# The groups a schema file names with "x-options".
GROUPS: dict[str, Options] = {"deck": DECK, "rulebook": RULEBOOK}
