"""Each key a designer may write is declared once (generator/options.py), and its schema,
its reader, its messages and its docs tables in English and Japanese are made from that
declaration: a test declares a new key once and finds it everywhere, and the docs fail
here when they are not what the declarations make."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from generator import options, reference
from generator.i18n import Message, catalogue
from generator.options import KINDS, Option, Options

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_plugins import _first_cards, _first_deck, _registered  # noqa: E402


def _declared_groups():
    return reference.groups()


def test_the_docs_tables_are_what_the_declarations_make():
    """`make docs` writes them; a declaration changed without it fails here."""
    assert reference.pages(), "no docs page has a generated table"
    assert reference.stale() == [], "run make docs"


def test_every_declaration_is_sound_and_said_in_both_languages():
    ja = catalogue("ja")
    for name, group in _declared_groups().items():
        for option in group:
            assert option.kind in KINDS
            assert isinstance(option.doc, Message) and option.doc.template in ja, \
                (name, option.key, "its words are not in the catalogue (make messages)")
            if option.shown_default is not None:
                assert option.shown_default.template in ja, (name, option.key)
            option.value()  # a default it declares is a value of its kind
            if option.choices and option.default is not None:
                assert option.default in option.choices, (name, option.key)
    for kind in KINDS.values():
        assert kind.words.template in ja


def test_a_format_gives_only_declared_keys_each_a_value_of_its_kind():
    from generator.formats import FORMATS, PROFILE
    for name, module in FORMATS.items():
        for key, value in module.DEFAULTS.items():
            assert key in PROFILE, (name, key)
            dataclasses.replace(PROFILE[key], default=value).value()
            if PROFILE[key].choices:
                assert value in PROFILE[key].choices, (name, key, value)


def test_the_model_holds_the_declared_defaults():
    """Board's own fields are the declared defaults of a board layout's keys."""
    from generator.boards import BOARD
    from generator.boards.base import MAP
    from generator.model import Board
    fields = {f.name: f.default for f in dataclasses.fields(Board)}
    for option in list(BOARD) + [MAP["labels"]]:
        if option.key in fields:
            assert fields[option.key] == option.value(), option.key


def test_the_rulebook_model_holds_the_declared_defaults():
    from generator.declared import RULEBOOK
    from generator.model import Rulebook
    fields = {f.name: f.default for f in dataclasses.fields(Rulebook)}
    for key in ("align", "font", "smart_quotes", "writing", "columns"):  # (the others the
        assert fields[key] == RULEBOOK.value(key), key  # model holds as what they make)


def test_the_deck_model_holds_the_declared_defaults():
    from generator.declared import DECK
    from generator.load import DEFAULT_LAYOUTS
    from generator.model import DECK_COLOR, Deck
    fields = {f.name: f.default for f in dataclasses.fields(Deck)}
    for key in ("backs", "own_sheet", "guide", "shape", "slots"):
        assert fields[key] == DECK.value(key), key
    assert DECK["color"].default == DECK_COLOR
    assert DECK["front"].default == DEFAULT_LAYOUTS["front"]


def test_each_statistic_reads_the_keys_declared_for_it():
    """A kind of statistic's OPTIONS are its group of declared.STATISTICS, holding the key
    it declares; every group is a registered kind's; `stats:` is made of them, in order."""
    from generator.declared import STATISTICS, STATS
    from generator.stats.kinds import KINDS as STATS_KINDS, in_order
    assert set(STATISTICS) == {m.NAME for m in STATS_KINDS.values() if m.KEY is not None}
    for module in STATS_KINDS.values():
        if module.KEY is not None:
            assert module.OPTIONS is STATISTICS[module.NAME], module.NAME
            assert module.KEY in module.OPTIONS, module.NAME
    assert list(STATS.options) == [o.key for m in in_order() if m.KEY is not None
                                   for o in m.OPTIONS]


def test_the_stats_schema_is_made_from_the_declarations():
    """game.json writes no key of `stats:`: each, and each key of its entries, is the
    declaration's, a list of mappings closed to other keys."""
    from generator.declared import STATS
    from generator.load.schema import validator_for
    stats = validator_for("game").schema["properties"]["stats"]
    assert stats["additionalProperties"] is False
    assert list(stats["properties"]) == list(STATS.options)

    def closed(schema, options):
        for option in options:
            if option.entries is not None:
                items = schema["properties"][option.key]["items"]
                assert items["additionalProperties"] is False, option.key
                assert list(items["properties"]) == list(option.entries.options), option.key
                assert items.get("required", []) == [o.key for o in option.entries
                                                      if o.required], option.key
                closed(items, option.entries)
    closed(stats, STATS)


def test_the_stats_model_holds_the_declared_defaults():
    """What resolve reads where `stats:` writes only what each entry requires."""
    from types import SimpleNamespace

    from generator.declared import DICE, NEED, ODDS, TABLES, VIEWS
    from generator.resolve.stats import resolve_stats
    data = {"stats": {"views": [{"deck": "d", "fields": ["f"]}],
                      "tables": [{"name": "t", "deck": "d", "for": "data.x.{row}",
                                  "counts": "row.n"}],
                      "odds": [{"id": "q", "deck": "d", "hand": 2, "need": [{"cards": ["a"]}]}],
                      "dice": [{"name": "two dice", "dice": "2d6"}]}}
    spec = resolve_stats(SimpleNamespace(game=SimpleNamespace(data=data, source=None)))
    assert spec.views[0].title == VIEWS.value("title")
    assert spec.tables[0].label == TABLES.value("label")
    question = spec.questions[0]
    assert (question.for_path, question.label, question.counts) == \
        (ODDS.value("for"), ODDS.value("label"), ODDS.value("counts"))
    assert question.question == "q"  # shown_default: its id
    need = question.need[0]
    assert (need.at_least, need.at_most, need.where) == \
        (NEED.value("at_least"), NEED.value("at_most"), NEED.value("where"))
    roll = spec.dice[0]
    assert roll.id == "two dice" and roll.faces == DICE.value("faces")  # id: its name
    assert not roll.asks and spec.colors == {} and spec.labels == {}


def test_game_yaml_is_made_from_the_declarations():
    """game.json writes none of game.yaml's own keys: they, their order and those required
    are the declaration's; the model holds its defaults."""
    from generator.declared import GAME
    from generator.load.schema import validator_for
    from generator.model import Game
    game = validator_for("game").schema
    assert game["additionalProperties"] is False
    assert list(game["properties"]) == list(GAME.options)
    assert game["required"] == [o.key for o in GAME if o.required] == ["title", "decks"]
    fields = {f.name: f.default for f in dataclasses.fields(Game)}
    assert fields["stamp"] == GAME.value("stamp")


def test_no_key_is_declared_twice():
    """A key an options group declares is not written in a schema file too (load/schema.py
    refuses such a schema when it is made)."""
    from generator.load import schema
    for name in schema._SCHEMA_NAMES:
        schema.validator_for(name)


# --- one wording, one rule ------------------------------------------------------------------

def test_a_range_has_one_wording():
    from generator.values import out_of_range
    assert out_of_range(2, 3, 360) == "must be from 3 to 360, not 2"
    assert out_of_range("-8 mm", "0 mm") == "must be at least 0 mm, not -8 mm"
    assert out_of_range(11, None, 10) == "must be at most 10, not 11"
    assert out_of_range("500 mm", None, "55.0 mm", "the figure's height") == \
        "must be at most 55.0 mm (the figure's height), not 500 mm"
    assert out_of_range(0.5, 1, 2) == "must be from 1 to 2, not 0.5"


def test_one_definition_of_a_template():
    from generator import sandbox, values
    from generator.elements import bindings
    assert sandbox.is_template is values.is_template is bindings.is_template
    for text in ("{{ card.name }}", "{% if x %}5mm{% endif %}"):
        assert values.is_template(text)
        assert values.FORMATS["layout-length"].check(text)
    assert not values.is_template("5mm")


@pytest.mark.parametrize("name", ["2p", "red-team", "p_1"])
def test_a_palette_name_is_a_colour_wherever_a_colour_is_written(name):
    """One name rule (paths.is_name) for a palette's names and for a colour that names one:
    `2p` as a deck's `color:` as well as a layout's `fill:`."""
    from generator.load.schema import validator_for
    from generator.paths import is_name
    from generator.values import FORMATS
    assert is_name(name) and FORMATS["color"].check(name)
    game = {"colors": {name: "#ff0000"}}
    assert not [e.message for e in validator_for("game").iter_errors(game)
                if list(e.absolute_path)[:1] == ["colors"]]
    assert FORMATS["color"].check(name)  # a deck's color:, an element's fill: (element.json)


def test_a_palette_name_works_as_deck_color_and_layout_fill(project, cardgen):
    text = (project / "cards/lastdance/game.yaml").read_text("utf-8")
    assert "colors:" in text or True
    import yaml
    game = yaml.safe_load(text)
    game.setdefault("colors", {})["2p"] = "#336699"
    game["decks"][0]["color"] = "2p"
    (project / "cards/lastdance/game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True),
                                                      "utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 0, run.lines


def test_the_schema_names_an_unknown_key_from_the_error_objects():
    """No regular expression over jsonschema's English: the key comes from the schema."""
    import inspect
    from generator.load import schema
    source = inspect.getsource(schema)
    assert "error.message)" not in source.replace("cause=error.message)", "")
    found = list(schema.validator_for("board").iter_errors({"shape": "ring", "rows": 3}))
    keys = [schema.unevaluated_keys(e) for e in found if e.validator == "unevaluatedProperties"]
    assert keys == [["rows"]]


# --- a new key, declared once --------------------------------------------------------------

DOTS = '''
"""dots: a deck's cards in one row with a dot between them (a shape written for the test)."""
from dataclasses import dataclass

from generator.boards.base import BoardFace, ground
from generator.i18n import N_
from generator.options import Option, Options
from generator.primitives import Face, Group

NAME = "dots"
CELLS = False
OPTIONS = Options(
    Option("spacing", "length", N_("between the cards"), "7mm", low="1mm", high="50mm",
           ja="カードの間"),
)


@dataclass(frozen=True)
class Spec:
    spacing: float = OPTIONS.value("spacing")


def resolve(layout, entry):
    return Spec(layout.option(OPTIONS["spacing"]))


def check(board, game, report):
    pass


def drawable(board):
    return bool(board.cards)


def cell_box(board):
    return None


def lay_out(board, tiles, title_font, cell_face):
    faces = [tiles[c] for c in board.cards]
    gap, m = board.spec.spacing, board.margin
    width = 2 * m + sum(f.width for f in faces) + gap * (len(faces) - 1)
    height = 2 * m + max(f.height for f in faces)
    items, x = [ground(board, width, height)], m
    for face in faces:
        items.append(Group(face.items, dx=x, dy=m, clip=(0, 0, face.width, face.height)))
        x += face.width + gap
    return BoardFace(board, Face(width, height, tuple(items)), (), 0.0, 0.0)
'''


@pytest.fixture
def dots_shape(tmp_path):
    from generator import boards
    yield from _registered(tmp_path, "test_option_shapes", "dots", DOTS, boards)


def _dots_layout(project: Path, spacing: str | None) -> None:
    line = f"spacing: {spacing}\n" if spacing is not None else ""
    (project / "layouts/boards/test-dots.yaml").write_text(
        f"shape: dots\npapers: [A3]\n{line}", "utf-8")


def _dots_game(project: Path) -> None:
    text = (project / "cards/lastdance/game.yaml").read_text("utf-8")
    (project / "cards/lastdance/game.yaml").write_text(
        text + "boards:\n  - {id: row, layout: test-dots, deck: "
        + _first_deck(project) + ", cards: [" + ", ".join(_first_cards(project)) + "]}\n",
        "utf-8")


def test_a_key_declared_once_is_in_the_schema_the_reader_the_docs_and_the_messages(
        project, cardgen, dots_shape):
    from generator.load.schema import validator_for
    from generator.pipeline import check
    from generator.load import Project
    from generator.units import mm
    # the schema: its kind's rule, where `shape` names it
    board = validator_for("board")
    assert not list(board.iter_errors({"shape": "dots", "spacing": "4mm"}))
    assert [e.validator for e in board.iter_errors({"shape": "dots", "spacing": "4"})]
    # both docs tables, as generated
    en = reference.table(reference.groups()["board-dots"], "en")
    ja = reference.table(reference.groups()["board-dots"], "ja")
    assert "| `spacing` | length, 1mm to 50mm | `7mm` | between the cards |" in en
    assert "| `spacing` |" in ja and "カードの間" in ja and "| キー |" in ja
    # the reader: the default where none is written, the value parsed where one is
    _dots_layout(project, None)
    _dots_game(project)
    game = check(Project.find(project), "lastdance").game
    assert game.boards[0].spec.spacing == pytest.approx(mm(7))
    _dots_layout(project, "12mm")
    game = check(Project.find(project), "lastdance").game
    assert game.boards[0].spec.spacing == pytest.approx(mm(12))
    # a bad value: located, naming the layout and the key, in the one wording
    _dots_layout(project, "90mm")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert "layouts/boards/test-dots.yaml:3:10: error: board layout 'test-dots': spacing: must " \
        "be from 1 mm to 50 mm, not 90 mm [units]" in run.lines, run.lines
    _dots_layout(project, "wide")
    run = cardgen("validate", "lastdance")
    assert any(line.startswith("layouts/boards/test-dots.yaml:3:10: error: ") and "spacing" in line
               for line in run.lines), run.lines


def test_options_refuse_a_kind_they_do_not_know():
    with pytest.raises(ValueError):
        Option("x", "colour-ish", options.N_("x"))
    with pytest.raises(ValueError):
        Options(Option("x", "length", options.N_("x")), Option("x", "length", options.N_("x")))


STAMP = '''
"""stamp: a filled square inset in its box (an element type written for the test)."""
from generator.i18n import N_
from generator.options import Option, Options
from generator.primitives import Rect

NAME = "stamp"
CONTENT = False
BLEEDS = False
EXAMPLE = {}
OPTIONS = Options(
    Option("inset", "layout-length", N_("how far inside its box the mark is drawn"), "2mm",
           defaults=True, ja="枠からどれだけ内側に印を描くか"),
)


def lay_out(e):
    x, y, w, h = e.box()
    inset = e.option("inset", min(w, h))
    return [Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, fill=(0, 0, 0))]
'''


@pytest.fixture
def stamp_type(tmp_path):
    from generator import elements
    yield from _registered(tmp_path, "test_option_elements", "stamp", STAMP, elements)


def _stamp_game(project: Path, **keys) -> None:
    from conftest import write_game
    element = {"name": "s", "type": "stamp", "x": "5mm", "y": "5mm", "width": "40mm",
               "height": "40mm", **keys}
    write_game(project, "stamps", {"title": "stamps", "decks": [{"id": "main",
                                                                 "front": "stamp-front"}]},
               [{"id": "one", "name": "One"}],
               {"stamp-front": {"size": "meishi", "elements": [element]}})


def _stamp_left(project: Path) -> float:
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.primitives import Rect
    outcome = check(Project.find(project), "stamps")
    faces = lay_out(outcome)
    assert faces is not None, outcome.report.problems
    def rects(items):
        for item in items:
            yield from rects(getattr(item, "items", ()))
            if isinstance(item, Rect):
                yield item
    return next(rects(faces.decks[0].fronts["one"].items)).x


def test_an_element_key_declared_once_is_everywhere(project, cardgen, stamp_type):
    """The issue's test: a new element type declares one key, once, and finds it in the
    schema, the keys a default may set, the reader (its default, its value), both docs
    tables and a located message naming the card and the key."""
    import re
    from generator import elements
    from generator.load.schema import validator_for
    from generator.units import mm
    element = validator_for("element")
    assert not list(element.iter_errors({"name": "s", "type": "stamp", "inset": "3mm"}))
    assert list(element.iter_errors({"name": "s", "type": "stamp", "inset": "wide"}))
    assert "inset" in elements.default_keys()
    en = reference.table(reference.groups()["element-stamp"], "en")
    ja = reference.table(reference.groups()["element-stamp"], "ja")
    assert "| `inset` | length, % of the card, or template | `2mm` | how far inside its box " \
        "the mark is drawn |" in en
    assert "| `inset` | 長さ、カードに対する %、またはテンプレート | `2mm` | 枠からどれだけ内側に" \
        "印を描くか |" in ja
    _stamp_game(project)
    assert _stamp_left(project) == pytest.approx(mm(7))  # the declared default, 2mm
    _stamp_game(project, inset="4mm")
    assert _stamp_left(project) == pytest.approx(mm(9))  # the value written, parsed
    _stamp_game(project, inset="{{ card.name }}")  # a card's value that is no length
    run = cardgen("validate", "stamps")
    assert run.code == 1
    assert any(re.match(r"layouts/stamp-front\.yaml:\d+:\d+: error: card 'one': element 's': "
                        r"inset: .*length", line) for line in run.lines), run.lines
    _stamp_game(project, inset="wide")
    run = cardgen("validate", "stamps")
    assert any(re.match(r"layouts/stamp-front\.yaml:\d+:\d+: error: .*inset", line)
               for line in run.lines), run.lines


def test_a_key_two_element_types_declare_is_the_same_default_either_way():
    """`color` is a text's, a picture's, an icon's and a QR code's: whether `defaults:` may
    set it is one answer."""
    from generator import elements
    from generator.options import options_of
    said: dict[str, set] = {}
    for group in (elements.COMMON, *map(options_of, elements.TYPES.values())):
        for option in group:
            said.setdefault(option.key, set()).add(option.defaults)
    assert all(len(answers) == 1 for answers in said.values()), said
