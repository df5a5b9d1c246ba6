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
    Option("smart_quotes", "flag", N_("\"straight\" quotes and apostrophes set as "
                                      "typographer's, 1~12 as 1〜12 or 1–12"), True),
    Option("indent", "flag", N_("the first line of each Japanese paragraph set in by one em "
                                "(字下げ)"), True),
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

# --- game.yaml's `stats:` ---------------------------------------------------------------------
# The keys each kind of statistic (stats/kinds/, by its NAME) reads, declared here rather than
# in its module because load (the schema) and resolve read them before the stats stage runs;
# a kind's module names its group (OPTIONS = STATISTICS[NAME]) and a test keeps them one.

_AT = N_("a list of totals, such as [7, 10]")

VIEWS = Options(
    Option("deck", "name", N_("the deck"), required=True),
    Option("fields", "fields", N_("one field (its distribution, shown first) or two (their "
                                  "cross-table: copies per pair of values; where one field "
                                  "is a number, also its mean under each value of the other)"),
           low=1, high=2, required=True, schema={"x-expected": N_(
               "one field (its distribution) or two (their cross-table), such as "
               "[power, affiliations]")}),
    Option("title", "text", N_("the chart's title"), "", shown_default=N_("the field names")),
)

TABLES = Options(
    Option("name", "text", N_("the table's title"), required=True, schema={"minLength": 1}),
    Option("deck", "name", N_("the deck its counts are of"), required=True),
    Option("for", "loop", N_("a path over the data, as in a check's for: (docs/validation.md): "
                             "one item per pool"), required=True),
    Option("label", "text", N_("a template naming each item"), schema={"minLength": 1},
           shown_default=N_("its bound value")),
    Option("counts", "expression", N_("an expression giving the item's pool: a mapping of card "
                                      "ids to numbers, or 'all' (every card of the deck, by its "
                                      "copies)"), required=True),
)

NEED = Options(
    Option("cards", "names", N_("the cards counted"), low=1),
    Option("where", "expression", N_("or the cards counted: an expression over card, the card "
                                     "being tested")),
    Option("at_least", "integer", N_("at least so many of them in the hand"), 1, low=0,
           high=1000, shown_default=N_("1, without at_most or exactly")),
    Option("at_most", "integer", N_("at most so many"), low=0, high=1000),
    Option("exactly", "integer", N_("exactly so many (on its own)"), low=0, high=1000),
    schema={"oneOf": [{"required": ["cards"]}, {"required": ["where"]}],
            "x-expected": N_("{cards: [ID, ...]} or {where: EXPRESSION}, with at_least, at_most "
                             "or exactly (default: at_least 1)")},
)

ODDS = Options(
    Option("id", "name", N_("the question's id (used by odds() in the rulebook)"),
           required=True),
    Option("question", "text", N_("the question's words"), shown_default=N_("its id")),
    Option("deck", "name", N_("the deck the cards are drawn from"), required=True),
    Option("hand", "count-or-expression", N_("how many cards are drawn: a number, or an "
                                             "expression (data.setup.hand_size)"),
           required=True, schema={
               "oneOf": [{"type": "integer", "minimum": 1, "maximum": 1000},
                         {"type": "string", "minLength": 1}],
               "x-expected": N_("the number of cards drawn: an integer, or an expression such "
                                "as data.setup.hand_size")}),
    Option("for", "loop", N_("optional: as for tables, one answer per item (at most 100 items, "
                             "each a line or a column of its page); without it the pool is the "
                             "whole deck")),
    Option("label", "text", N_("as for tables: a template naming each item"),
           schema={"minLength": 1}, shown_default=N_("its bound value")),
    Option("counts", "expression", N_("as for tables: each item's pool; a count is at most the "
                                      "copies the deck has")),
    Option("need", "entries", N_("the condition: every requirement must hold (below)"), low=1,
           high=8, required=True, entries=NEED),
)

DICE = Options(
    Option("id", "name", N_("what `odds()` and `dice()` in the rulebook name it by; not "
                            "the id of an odds question too"), shown_default=N_("its name")),
    Option("name", "text", N_("the roll's name, as shown"), required=True,
           schema={"minLength": 1}),
    Option("dice", "dice", N_("standard dice and a constant: `2d6`, `d20`, `1d20+3`, `2d6+1d4`, "
                              "`2d6-1`; with `faces:`, how many of that die are rolled (a "
                              "number, default 1)"),
           schema={"oneOf": [{"type": "string", "pattern": "^ *[0-9]*[dD][0-9]+( *[-+] *"
                                                           "([0-9]*[dD][0-9]+|[0-9]+))* *$"},
                             {"type": "integer", "minimum": 1}],
                   "x-expected": N_("dice such as 2d6, 1d20+3 or 2d6+1d4; with faces:, how many "
                                    "of that die (a number)")}),
    Option("faces", "faces", N_("a custom die: its faces as whole numbers (`[1, 1, 2, 3]`), or an "
                                "expression over the data giving them (`data.dice.event`), so "
                                "that a revision of the data moves the odds. A die of symbols "
                                "counts a symbol as 1 and a blank as 0"),
           schema={"oneOf": [{"type": "array", "minItems": 1, "items": {"type": "integer"}},
                             {"type": "string", "minLength": 1}],
                   "x-expected": N_("a custom die's faces, such as [1, 1, 2, 3], or an "
                                    "expression giving them, such as data.dice.attack")}),
    Option("at_least", "integers", N_("totals to give the chance of: `at_least: [7, 10]` "
                                      "asks for 7 or more and for 10 or more"), low=1, high=50,
           schema={"x-expected": _AT}),
    Option("at_most", "integers", N_("totals to give the chance of, at most each"), low=1, high=50,
           schema={"x-expected": _AT}),
    Option("exactly", "integers", N_("totals to give the chance of, exactly each"), low=1, high=50,
           schema={"x-expected": _AT}),
)


def _rules(what: str) -> Option:
    """`colors:` or `labels:`: an expression per field, over `value`."""
    said = {"colors": (N_("by field: an expression over value giving a colour (#rrggbb, "
                          "cmyk(...), a game colour); without it a value named like a game "
                          "colour takes that colour, and the rest a colour-blind-safe palette"),
                       N_("an expression giving the colour of each `value` of the field, such "
                          "as data.affiliations[value].color")),
            "labels": (N_("by field: an expression over value giving the name to show (the "
                          "value itself without it)"),
                       N_("an expression giving the name to show for each `value` of the field, "
                          "such as data.affiliations[value].name"))}[what]
    return Option(what, "mapping", said[0], schema={"additionalProperties": {
        "type": "string", "minLength": 1, "x-expected": said[1]}})


# By the NAME of the kind of statistic that reads them, in the order of game.yaml's `stats:`.
STATISTICS: dict[str, Options] = {
    "decks": Options(Option("views", "entries", N_("cross-tables (two fields), or one field "
                                                   "first"), entries=VIEWS),
                     _rules("colors"), _rules("labels")),
    "tables": Options(Option("tables", "entries", N_("pools that a data table makes, item by "
                                                     "item"), entries=TABLES)),
    "odds": Options(Option("odds", "entries", N_("draw-odds questions"), entries=ODDS)),
    "dice": Options(Option("dice", "entries", N_("rolls of dice"), entries=DICE)),
}
STATS = Options(*(o for group in STATISTICS.values() for o in group))

GROUPS.update({"stats": STATS, "stats-views": VIEWS, "stats-tables": TABLES,
               "stats-odds": ODDS, "stats-odds-need": NEED, "stats-dice": DICE})

# --- game.yaml's own keys ----------------------------------------------------------------------
# Its decks', boards', targets' and icons' own keys are in schemas/game.json's $defs (a deck's
# besides DECK); `rulebook:` and `stats:` are the groups above.

GAME = Options(
    Option("defaults", "element-defaults", N_("element keys every layout of the game starts "
                                              "from (docs/layouts.md)")),
    Option("title", "text", N_("the game's title"), required=True, schema={"minLength": 1}),
    Option("title_en", "text", N_("its title in English, where the title is in another "
                                  "language"), ""),
    Option("lang", "choice", N_("the language of its text: how it is typeset, and the words "
                                "cardgen writes for it"), choices=("en", "ja"),
           shown_default=N_("found from its text")),
    Option("version", "text-or-number", N_("its version: stamp: prints it, diff says it"), ""),
    Option("decks", "list", N_("its decks: id, cards, sheet, fields (docs/format.md) and the "
                               "keys below"), required=True,
           schema={"minItems": 1, "items": {"$ref": "#/$defs/deck"}}),
    Option("data", "files", N_("data tables by name: YAML, CSV or XLSX files that cards, checks "
                               "and the rulebook read")),
    Option("checks", "file", N_("its checks (docs/validation.md)")),
    Option("python_checks", "file", N_("its checks written in Python (docs/validation.md)")),
    Option("colors", "palette", N_("its palette: colours by name, usable wherever a colour is "
                                   "written")),
    Option("icons", "mapping", N_("icons by name, set inline in text: an image or a glyph "
                                  "(docs/format.md)"),
           schema={"propertyNames": {"$ref": "cardgen:common#/$defs/id"},
                   "additionalProperties": {"$ref": "#/$defs/icon"}}),
    Option("rulebook", "mapping", N_("its rulebook (the keys below)"),
           schema={"additionalProperties": False, "x-options": "rulebook"}),
    Option("macros", "file", N_("template macros every template of the game can call")),
    Option("boards", "list", N_("its boards (docs/layouts.md)"),
           schema={"items": {"$ref": "#/$defs/board"}}),
    Option("stamp", "flag", N_("print the version and a content hash small on every card "
                               "front"), False),
    Option("fonts", "families", N_("its own font families (docs/format.md)")),
    Option("targets", "mapping", N_("print targets by name: the same cards at other sizes, "
                                    "sheets or layouts (docs/printing.md)"),
           schema={"x-count": "targets", "propertyNames": {"type": "string", "format": "name"},
                   "additionalProperties": {"$ref": "#/$defs/target"}}),
    Option("stats", "mapping", N_("statistics and draw odds (docs/stats.md)"),
           schema={"additionalProperties": False, "x-options": "stats"}),
    Option("max_score", "integer", N_("the highest score: a score track must reach it"), low=1,
           high=10000),
)
GROUPS["game"] = GAME
