"""Decks generated from a data table (`generate: from:`), alone and mixed with written cards,
tried on a game the code was not written for: tests/games/outbreak, a Pandemic-like game
whose 48 cities live in one table (world.yaml) and become two decks. The cards are read
back from the printed PDF; every problem is a located error at its cause, said once.
"""

from __future__ import annotations

import re
import shutil

import pytest
from pypdf import PdfReader

from conftest import REPO
from generator.load.schema import NAME_EXPECTED
from test_repeat import painted

GAME = REPO / "tests/games/outbreak"
RED = (0.761, 0.227, 0.169)  # the pips' fill, #c23a2b as the PDF writes it


@pytest.fixture
def outbreak(project):
    """The game copied into the project: its folder and its layouts."""
    shutil.copytree(GAME, project / "cards/outbreak", ignore=shutil.ignore_patterns("layouts"))
    for layout in (GAME / "layouts").iterdir():
        shutil.copy(layout, project / "layouts" / layout.name)
    return project / "cards/outbreak"


def _cities() -> list[tuple[str, str]]:
    """(id, name) of each city, in the table's order, as world.yaml writes them."""
    return re.findall(r"\{id: ([a-z-]+), name: ([^,]+),", (GAME / "world.yaml").read_text("utf-8"))


def _errors(run) -> list[str]:
    return [line.rsplit(" [", 1)[0] for line in run.lines if ": error: " in line]


def test_one_card_per_city_and_the_written_cards_beside_them(outbreak, project, cardgen):
    run = cardgen("build", "outbreak")
    assert run.code == 0, run.lines
    pdf = PdfReader(project / "output/outbreak/outbreak-fronts.pdf")
    text = "\n".join(page.extract_text() for page in pdf.pages)
    cities = _cities()
    assert len(cities) == 48
    # Infection: one card per city, in the table's order, before the player deck.
    infection = text[:text.rindex("INFECTION")]
    assert infection.count("INFECTION") == 47
    assert [n for _, n in cities if n in infection] == [n for _, n in cities]
    assert sorted(cities, key=lambda c: infection.index(c[1])) == cities
    # Player: the 48 cities again (their fields as the table writes them: a population
    # each), then the written events and 6 epidemics: 48 + 3 + 6 = 57 cards.
    assert text.count("Population") == 48 and text.count("CITY") == 48
    assert text.count("EVENT") == 3 and text.count("EPIDEMIC") == 6
    assert text.count("Airlift") == 1 and "One Quiet Night" in text
    assert text.index("Sydney", len(infection)) < text.index("Airlift")  # generate: first


def test_the_events_cost_pips_and_the_cities_links_are_drawn(outbreak, project, cardgen):
    assert cardgen("build", "outbreak").code == 0
    fronts = project / "output/outbreak/outbreak-fronts.pdf"
    # Page 11: Osaka .. Sydney (red cities, their links in red too) and the three events.
    links = [4, 5, 1, 2, 3, 4]  # world.yaml's links: of Osaka .. Sydney
    pips = painted(fronts, 10, RED, curved=True)
    cost = [p for p in pips if p[1] > 150]  # the events' row, at y 70 mm on the third row
    assert len(pips) - len(cost) == sum(links)
    assert len(cost) == 2 + 3 + 1
    # Each event's pips are centred on its card: Forecast's three around the middle one.
    middle = sorted(cost)[2:5]
    assert abs(middle[1][0] - (middle[0][0] + middle[2][0]) / 2) < 0.01


def test_the_generated_ids_live_in_the_table(outbreak, cardgen):
    """validate reports a duplicated city at the table's line, not in a deck file."""
    world = outbreak / "world.yaml"
    text = world.read_text("utf-8")
    world.write_text(text.replace("{id: madrid,", "{id: london,"), "utf-8")
    run = cardgen("validate", "outbreak")
    assert run.code == 1
    line = 3 + [i for i, _ in _cities()].index("madrid") + 1
    london = 3 + [i for i, _ in _cities()].index("london") + 1
    assert _errors(run) == [
        f"cards/outbreak/world.yaml:{line}:10: error: card 'infection-london': duplicate card id "
        f"(first defined at cards/outbreak/world.yaml:{london}:5)",
        f"cards/outbreak/world.yaml:{line}:10: error: card 'london': duplicate card id (first "
        f"defined at cards/outbreak/world.yaml:{london}:5)"]


@pytest.mark.parametrize("edit, message", [
    # a table that does not exist
    (("infection.yaml", "from: data.world.cities", "from: data.wrld.cities"),
     "cards/outbreak/infection.yaml:3:9: error: deck 'infection': generate: from: there is no "
     "data table 'wrld' (did you mean 'world'?)"),
    (("infection.yaml", "from: data.world.cities", "from: data.places"),
     "cards/outbreak/infection.yaml:3:9: error: deck 'infection': generate: from: there is no "
     "data table 'places' (tables: world)"),
    (("infection.yaml", "from: data.world.cities", "from: data.world.towns"),
     "cards/outbreak/infection.yaml:3:9: error: deck 'infection': generate: from: "
     "data.world.towns is not a list or a mapping of entries in the game's data"),
    # an entry that lacks what the template needs: said at the entry
    (("world.yaml", "{id: lagos, name: Lagos, color: yellow,", "{id: lagos, name: Lagos,"),
     "cards/outbreak/world.yaml:24:5: error: deck 'infection': data.world.cities[20] has no "
     "'color', which generate: fields: color needs"),
    # a generated id that a written card has too: said at the written card
    (("player.yaml", "  - {id: airlift,", "  - {id: lagos, name: Lagos}\n  - {id: airlift,"),
     "cards/outbreak/player.yaml:6:10: error: card 'lagos': deck 'player' also generates a card "
     "'lagos' (from cards/outbreak/world.yaml:24:5); a card's id lives in one place: remove "
     "this card, or its entry"),
    (("infection.yaml", "  as: city\n", "  as: city\n  each: {n: [1]}\n"),
     "cards/outbreak/infection.yaml:3:3: error: deck 'infection': generate: has both each: and "
     "from:; one generate: makes cards one way (every combination of lists, or one card per "
     "entry of a data table)"),
    (("player.yaml", "  from: data.world.cities\n", "  copies: 1\n"),
     "cards/outbreak/player.yaml:4:3: error: deck 'player': generate: needs each: (every "
     "combination of lists) or from: (one card per entry of a data table)"),
    (("world.yaml", "{id: lagos, ", "{"),
     ["cards/outbreak/world.yaml:24:5: error: deck 'infection': data.world.cities[20] has no "
      "'id', which generate: id needs",
      "cards/outbreak/world.yaml:24:5: error: deck 'player': data.world.cities[20] has no id: "
      "give each entry an id, or give generate: an id: template"]),
    (("world.yaml", "{id: lagos, ", "{id: Lagos!, "),
     ["cards/outbreak/world.yaml:24:5: error: deck 'infection': data.world.cities[20]: id must "
      f"be {NAME_EXPECTED}, not 'infection-Lagos!'",
      "cards/outbreak/world.yaml:24:5: error: deck 'player': data.world.cities[20]: id must be "
      f"{NAME_EXPECTED}, not 'Lagos!'"]),
    (("infection.yaml", "  as: city\n", "  as: key\n"),
     "cards/outbreak/infection.yaml:4:7: error: deck 'infection': generate: as: 'key' is a name "
     "the templates already have (data, macros, key); call the entry something else, such as "
     "row or city"),
    (("world.yaml", "{id: lagos, ", "{id: lagos, back: night, "),
     ["cards/outbreak/world.yaml:24:23: error: deck 'infection': data.world.cities[20]: back: a "
      "card generated from a table takes the deck's back; write a card with a back of its own "
      "in the deck file's cards:",
      "cards/outbreak/world.yaml:24:23: error: deck 'player': data.world.cities[20]: back: a "
      "card generated from a table takes the deck's back; write a card with a back of its own "
      "in the deck file's cards:"]),
    (("world.yaml", "{id: lagos, ", "{id: lagos, copies: -1, "),
     ["cards/outbreak/world.yaml:24:25: error: deck 'infection': data.world.cities[20]: copies "
      "must be an integer from 0 to 999, not '-1'",
      "cards/outbreak/world.yaml:24:25: error: deck 'player': data.world.cities[20]: copies "
      "must be an integer from 0 to 999, not '-1'"]),
    (("infection.yaml", "    name: \"{{ city.name }}\"", "    name: \"{{ city.name | nope }}\""),
     "cards/outbreak/infection.yaml:7:11: error: deck 'infection': generate: fields: name: "
     "template syntax: there is no filter 'nope'"),
])
def test_problems_are_located_at_their_cause_once(outbreak, cardgen, edit, message):
    name, old, new = edit
    path = outbreak / name
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")
    run = cardgen("validate", "outbreak")
    assert run.code == 1
    assert _errors(run) == (message if isinstance(message, list) else [message])
    assert cardgen("build", "outbreak").code == 1


def test_a_table_over_the_budget_is_refused_before_a_card_is_made(outbreak, cardgen,
                                                                  monkeypatch):
    from generator.resolve import decks
    monkeypatch.setattr(decks, "MAX_CARDS", 40)
    run = cardgen("validate", "outbreak")
    assert _errors(run) == [
        "cards/outbreak/infection.yaml:3:9: error: deck 'infection': generate: from: "
        "data.world.cities has 48 entries; a game holds at most 40 cards (split it into "
        "several games)",
        "cards/outbreak/player.yaml:4:9: error: deck 'player': generate: from: "
        "data.world.cities has 48 entries; a game holds at most 40 cards (split it into "
        "several games)"]


def test_a_mapping_table_makes_one_card_per_key(project, cardgen):
    game = project / "cards/tiles"
    game.mkdir()
    (game / "game.yaml").write_text(
        "title: Tiles\ndata:\n  terrain: terrain.yaml\ndecks:\n  - id: tiles\n"
        "    cards: tiles.yaml\n", "utf-8")
    (game / "terrain.yaml").write_text(
        "forest: {name: Forest, copies: 3}\nlake: {name: Lake}\n", "utf-8")
    (game / "tiles.yaml").write_text("generate:\n  from: data.terrain\n", "utf-8")
    run = cardgen("build", "tiles")
    assert run.code == 0, run.lines
    text = "\n".join(p.extract_text() for p in
                     PdfReader(project / "output/tiles/tiles-fronts.pdf").pages)
    assert text.count("Forest") == 3 and text.count("Lake") == 1


def test_a_tbd_in_the_table_is_said_once_of_its_card(outbreak, cardgen):
    world = outbreak / "world.yaml"
    text = world.read_text("utf-8")
    assert "population: 6899" in text
    world.write_text(text.replace(
        "{id: lagos, name: Lagos, color: yellow, population: 6899",
        "{id: lagos, name: Lagos, color: yellow, population: TBD, copies: TBD"), "utf-8")
    run = cardgen("validate", "outbreak")
    assert run.code == 0, run.lines
    # (the data table's own TBD warning is not said again: the cards say it; the copies
    # are two cards', one of each deck)
    assert [line for line in run.lines if ": warning: " in line] == [
        "cards/outbreak/world.yaml:24:57: warning: card 'lagos': population is TBD (draft) "
        "[draft]",
        "cards/outbreak/world.yaml:24:70: warning: card 'infection-lagos': copies is TBD (draft) "
        "[draft]",
        "cards/outbreak/world.yaml:24:70: warning: card 'lagos': copies is TBD (draft) [draft]"]


def test_several_generators_in_one_deck_file(outbreak, project, cardgen):
    """`generate:` may be a list: the cities from one table, the events from another, the
    written epidemics between them, in the order the file writes them."""
    (outbreak / "world.yaml").write_text((outbreak / "world.yaml").read_text("utf-8") + (
        "events:\n  - {id: airlift, name: Airlift, kind: event, cost: 2, color: none}\n"
        "  - {id: forecast, name: Forecast, kind: event, cost: 3, color: none}\n"), "utf-8")
    (outbreak / "player.yaml").write_text(
        "cards:\n  - {id: epidemic, name: Epidemic, kind: epidemic, copies: 6, color: none}\n"
        "generate:\n  - from: data.world.cities\n  - from: data.world.events\n"
        "    fields: {name: \"{{ row.name }} (event)\", kind: event, cost: \"{{ row.cost }}\","
        " color: none}\n", "utf-8")
    run = cardgen("build", "outbreak")
    assert run.code == 0, run.lines
    text = "\n".join(p.extract_text() for p in
                     PdfReader(project / "output/outbreak/outbreak-fronts.pdf").pages)
    player = text[text.rindex("INFECTION"):]
    assert player.count("Epidemic") == 6 and player.count("Population") == 48
    assert player.index("Epidemic") < player.index("San Francisco") < \
        player.index("Airlift (event)") < player.index("Forecast (event)")
    fronts = project / "output/outbreak/outbreak-fronts.pdf"
    pages = len(PdfReader(fronts).pages)
    red = [p for page in range(pages) for p in painted(fronts, page, RED, curved=True)]
    links = sum(int(n) for n in re.findall(r"color: red, population: \d+, links: (\d)",
                                           (GAME / "world.yaml").read_text("utf-8")))
    assert len(red) == links + 2 + 3  # the red cities' links, and the two events' costs


def test_a_list_of_generators_locates_each_at_its_item(outbreak, cardgen):
    (outbreak / "player.yaml").write_text(
        "generate:\n  - from: data.world.cities\n  - from: data.world.evnts\n", "utf-8")
    run = cardgen("validate", "outbreak")
    assert _errors(run) == [
        "cards/outbreak/player.yaml:3:11: error: deck 'player': generate: from: "
        "data.world.evnts is not a list or a mapping of entries in the game's data"]


def test_a_tables_keys_the_deck_does_not_declare_are_said_once_at_the_table(outbreak, cardgen):
    """A table that feeds a board too has keys of its own (a place's x and y): where the
    deck declares its fields and generate: maps none, those keys are said once, at from:,
    with the ways to mend it, not once for each entry."""
    game = outbreak / "game.yaml"
    text = game.read_text("utf-8")
    declared = text.replace(
        "    cards: player.yaml\n",
        "    cards: player.yaml\n    fields:\n      name: {type: text}\n      kind: {type: text}\n"
        "      cost: {type: integer}\n      color: {type: text}\n", 1)
    game.write_text(declared, "utf-8")
    run = cardgen("validate", "outbreak")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [
        "cards/outbreak/player.yaml:4:9: error: deck 'player': generate: from: "
        "data.world.cities: its entries' keys population, links (in 48 of 48 entries) are not "
        "fields of the deck (name, kind, cost, color); without fields:, every key of an entry "
        "is a card field. Write fields: in generate: to give the card's fields (the table's "
        "other keys are then not the card's), or declare population, links in the deck's "
        "fields: [generate]"]
    game.write_text(declared.replace(
        "      color: {type: text}\n",
        "      color: {type: text}\n      population: {type: integer}\n"
        "      links: {type: integer}\n", 1), "utf-8")
    assert cardgen("validate", "outbreak").code == 0
    game.write_text(declared, "utf-8")  # fields: in generate: takes only what it maps
    player = outbreak / "player.yaml"
    player.write_text(player.read_text("utf-8").replace(
        "  from: data.world.cities\n",
        "  from: data.world.cities\n  fields:\n    name: \"{{ row.name }}\"\n"
        "    color: \"{{ row.color }}\"\n    kind: city\n    cost: 0\n", 1), "utf-8")
    run = cardgen("validate", "outbreak")
    assert not [line for line in run.lines if "are not fields of the deck" in line], run.lines
