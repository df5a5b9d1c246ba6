"""Each rule a designer meets is defined once (generator/values.py, colors.py, units.py),
and every place that takes a value of its kind gives the same answer for every accepted
form, and the same list of choices for a wrong one.

The places: a deck file, a generated deck, a spreadsheet, game.yaml (the palette, a deck,
the rulebook, the stamp), a board layout and the cells it draws from data, a sheet preset,
and a layout's elements. The forms: every spelling of true and false, every colour form,
every paper.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from generator import values
from generator.colors import COLOR_EXPECTED, NAMED, parse_color
from generator.elements import bindings
from generator.load import Project
from generator.model import MAX_COPIES
from generator.pipeline import check, validate_targets
from generator.units import PAPER, RULEBOOK_PAGES, UNITS, paper_size

REPO = Path(__file__).resolve().parent.parent

TRUE_FORMS = ["true", "True", "TRUE", "yes", "Yes", "YES", "1", "'1'", "'true'", "'yes'"]
FALSE_FORMS = ["false", "False", "FALSE", "no", "No", "NO", "0", "'0'", "'false'", "'no'"]
COLOR_FORMS = {"red": NAMED["red"], "'#abc'": "#aabbcc", "'#7A2E4A'": "#7a2e4a",
               "'cmyk(0, 1, 1, 0)'": "cmyk(0, 1, 1, 0)", "'cmyk(10%, 0%, 50%, 5%)'":
               "cmyk(0.1, 0, 0.5, 0.05)", "fire": "#e05020"}  # fire: the game's palette


def _game(root: Path, flag: str, color: str, paper: str, late: str | None = None,
          late_in: str = "", late_color: str | None = None) -> str:
    """A game that writes `flag`, `color` and `paper` in every place that takes one; `late`
    instead of `flag` in the places read after the files load (a generated card, a layout's
    element), which are reached only when the files are sound: in the file `late_in`."""
    game = root / "cards/rules"
    game.mkdir(parents=True)
    unquoted = flag.strip("'")
    late_made = late if late and late_in == "made.yaml" else flag
    late_face = late if late and late_in == "rules-face.yaml" else flag
    cell_color = late_color if late_color and late_in == "map.yaml" else color
    face_color = late_color if late_color and late_in == "rules-face.yaml" else color
    (game / "game.yaml").write_text(textwrap.dedent(f"""\
        title: Rules
        stamp: {flag}
        colors:
          fire: "#e05020"
          mine: {color}
        decks:
          - id: yaml
            cards: cards.yaml
            color: {color}
            front: rules-face
            back: rules-face
            sheet: {{preset: plain-a4, bleed: {flag}, crop_marks: {flag}}}
          - id: made
            cards: made.yaml
            front: rules-face
            back: rules-face
          - id: sheet
            cards: cards.csv
            front: rules-face
            back: rules-face
            fields:
              lit: {{type: boolean}}
        data:
          map: map.yaml
        rulebook:
          template: rules.md
          smart_quotes: {flag}
          accent: {color}
          page: [74mm, 105mm]      # (A7: every paper holds two, as a booklet must)
          booklet: {paper}
        boards:
          - id: map
            layout: rules-grid
            cells: data.map.cells
          - id: score
            layout: rules-track
            last: 20
    """), "utf-8")
    (game / "cards.yaml").write_text(f"cards:\n  - {{id: one, blank: {flag}}}\n", "utf-8")
    (game / "made.yaml").write_text(textwrap.dedent(f"""\
        generate:
          each: {{n: [1]}}
          id: "made-{{{{ n }}}}"
          blank: "{late_made.strip("'")}"
    """), "utf-8")
    (game / "cards.csv").write_text(f"id,blank,lit\nrow,{unquoted},{unquoted}\n", "utf-8")
    (game / "map.yaml").write_text(f"cells:\n  - {{column: 1, row: 1, color: {cell_color}}}\n",
                                   "utf-8")
    (game / "rules.md").write_text("# Rules\n\nPlay.\n", "utf-8")
    (root / "layouts/rules-face.yaml").write_text(textwrap.dedent(f"""\
        size: meishi
        elements:
          - {{name: ground, type: rect, fill: {face_color}, bleed: {late_face}}}
    """), "utf-8")
    (root / "layouts/boards/rules-grid.yaml").write_text(textwrap.dedent(f"""\
        shape: grid
        cell: [25mm, 25mm]
        labels: {flag}
        color: {color}
        papers: [{paper}]
    """), "utf-8")
    (root / "layouts/boards/rules-track.yaml").write_text(textwrap.dedent(f"""\
        shape: track
        path: line
        accent: {color}
        papers: [{paper}]
    """), "utf-8")
    return "rules"


@pytest.fixture
def root(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / "cards").mkdir(parents=True)
    (root / "layouts/boards").mkdir(parents=True)
    shutil.copytree(REPO / "layouts/sheets", root / "layouts/sheets")
    (root / "fonts").symlink_to(REPO / "fonts")
    return root


def _checked(root: Path, flag="true", color="red", paper="A4"):
    outcome = check(Project.find(root), _game(root, flag, color, paper))
    assert not outcome.report.errors, [str(p) for p in outcome.report.errors]
    return outcome.game


@pytest.mark.parametrize("form", TRUE_FORMS + FALSE_FORMS)
def test_every_flag_spelling_means_the_same_in_every_place(root, form):
    meant = form in TRUE_FORMS
    game = _checked(root, flag=form)
    decks = {d.id: d for d in game.decks}
    found = {
        "deck file": decks["yaml"].cards[0].blank,
        "generated deck": decks["made"].cards[0].blank,
        "spreadsheet": decks["sheet"].cards[0].blank,
        "spreadsheet field declared boolean": decks["sheet"].cards[0].fields["lit"],
        "game stamp": game.stamp,
        "rulebook smart_quotes": game.rulebook.smart_quotes,
        "board labels": game.boards[0].labels,
        "sheet bleed": decks["yaml"].sheet.bleed,
        "sheet crop_marks": decks["yaml"].sheet.crop_marks is not None,
        "element binding": bindings.boolean(form.strip("'")),
    }
    assert found == dict.fromkeys(found, meant)


def test_a_yaml_field_declared_boolean_reads_flags_as_a_spreadsheet_does(root):
    game = root / "cards/rules"
    _checked(root, flag="yes")
    (game / "cards.yaml").write_text("cards:\n  - {id: one, lit: 'Yes'}\n", "utf-8")
    text = (game / "game.yaml").read_text("utf-8").replace(
        "            color: yes", "            color: red")
    (game / "game.yaml").write_text(text.replace(
        "    sheet: {preset: plain-a4, bleed: yes, crop_marks: yes}",
        "    sheet: {preset: plain-a4, bleed: yes, crop_marks: yes}\n"
        "    fields: {lit: {type: boolean}}"),
        "utf-8")
    outcome = check(Project.find(root), "rules")
    assert not outcome.report.errors, [str(p) for p in outcome.report.errors]
    assert next(d for d in outcome.game.decks if d.id == "yaml").cards[0].fields["lit"] is True


@pytest.mark.parametrize("form", list(COLOR_FORMS))
def test_every_colour_form_means_the_same_in_every_place(root, form):
    meant = parse_color(COLOR_FORMS[form])
    game = _checked(root, color=form)
    decks = {d.id: d for d in game.decks}
    found = {
        "palette": game.colors["mine"],
        "deck": decks["yaml"].tint,
        "rulebook accent": game.rulebook.accent,
        "board color": game.boards[0].color,
        "board accent": game.boards[1].spec.accent,
        "board cell from data": game.boards[0].cells[0].color,
        "element binding": bindings.color(form.strip("'"), game.colors),
    }
    assert found == dict.fromkeys(found, meant)


@pytest.mark.parametrize("paper", list(PAPER) + ["a4", "letter", "HALF-LETTER"])
def test_every_paper_is_a_paper_in_every_place(root, paper):
    game = _checked(root, paper=paper)
    assert {b.papers for b in game.boards} == {
        (next(p for p in PAPER if p.lower() == paper.lower()),)}
    size = paper_size(paper)
    assert game.rulebook.booklet == (max(size), min(size))


def _errors(root: Path, **written) -> list[str]:
    """Every error of the game, each with its file."""
    outcome = validate_targets(Project.find(root), _game(root, **{
        "flag": "true", "color": "red", "paper": "A4", **written}))  # laid out, as validate
    return [f"{p.location.file}: {p.message}" for p in outcome.report.errors]


def test_a_wrong_flag_lists_the_same_choices_everywhere(root):
    errors = _errors(root, flag="maybe")
    places = ("stamp", "cards.yaml", "cards.csv", "bleed", "crop_marks", "smart_quotes",
              "labels")
    for place in places:
        said = [e for e in errors if place in e]
        assert said, (place, errors)
        assert all(values.FLAG_EXPECTED in e for e in said), said
    for place in ("made.yaml", "rules-face.yaml"):
        shutil.rmtree(root / "cards/rules")
        said = [e for e in _errors(root, late="maybe", late_in=place) if place in e]
        assert said, place
        assert all(values.FLAG_EXPECTED in e for e in said), said
    with pytest.raises(bindings.BindingError, match=re.escape(values.FLAG_EXPECTED)):
        bindings.boolean("maybe")


@pytest.mark.parametrize("bad", ["'#12'", "blurple"])
def test_a_wrong_colour_lists_the_same_choices_everywhere(root, bad):
    """'#12' fails the schemas; 'blurple' could be a palette name, and fails where it is
    looked up: either way each place says the same choices."""
    errors = _errors(root, color=bad)
    for place in ("mine", "deck 'yaml'", "accent", "boards/rules-grid.yaml",
                  "boards/rules-track.yaml"):
        said = [e for e in errors if place in e]
        assert said, (place, errors)
        assert all(COLOR_EXPECTED in e for e in said), said
    for place in ("map.yaml", "rules-face.yaml"):
        shutil.rmtree(root / "cards/rules")
        said = [e for e in _errors(root, late_color=bad, late_in=place) if place in e]
        assert said, place
        assert all(COLOR_EXPECTED in e for e in said), said
    with pytest.raises(bindings.BindingError, match=re.escape(COLOR_EXPECTED)):
        bindings.color(bad.strip("'"), {})


def test_a_wrong_paper_lists_the_same_papers_everywhere(root):
    errors = _errors(root, paper="A9")
    choices = values.FORMATS["paper"].expected
    assert choices == "a paper (" + ", ".join(list(PAPER)[:-1]) + f" or {list(PAPER)[-1]})"
    for place in ("booklet", "papers"):
        said = [e for e in errors if place in e]
        assert said and all(choices in e for e in said), (place, errors)
    from generator.cli.parser import _paper
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(choices)):
        _paper("A9")


def test_copies_have_one_limit(root):
    from generator.load.schema import validator_for
    deck = validator_for("deck").schema["properties"]["cards"]["items"]["properties"]["copies"]
    assert deck["anyOf"][0]["maximum"] == MAX_COPIES
    assert values.copies(str(MAX_COPIES)) == MAX_COPIES
    for bad in (MAX_COPIES + 1, -1, "0.5", True):
        with pytest.raises(ValueError, match=re.escape(values.COPIES_EXPECTED)):
            values.copies(bad)


def test_the_docs_table_of_values_is_the_code():
    text = (REPO / "docs/format.md").read_text("utf-8")
    table = text[text.index("| kind | written as |"):]
    rows = {r.split("|")[1].strip(): r.split("|")[2] for r in table[:table.index("\n\n")]
            .splitlines()[2:]}
    words = {k: re.findall(r"`([^`]+)`", v) for k, v in rows.items()}
    assert words["length"][:len(UNITS)] == list(UNITS)
    flags = [w.lower() for w in words["flag (true or false)"]]
    assert set(flags) >= {w for ws in values.FLAG_WORDS.values() for w in ws}
    assert words["paper"][:len(PAPER)] == list(PAPER)
    assert str(MAX_COPIES) in words["copies"]
    for form in ("#rgb", "#rrggbb", "none"):
        assert form in words["colour"]
    assert set(RULEBOOK_PAGES) <= set(PAPER)


def test_the_docs_give_the_models_defaults():
    from generator.model import DECK_COLOR
    text = (REPO / "docs/format.md").read_text("utf-8")
    assert f"| `decks[].color` | colour | no | `{DECK_COLOR}` |" in text


def _renamed(schema, found):
    if isinstance(schema, dict):
        for key, change in (schema.get("x-renamed") or {}).items():
            found.append((key, change["to"], change["in"]))
        for value in schema.values():
            _renamed(value, found)
    elif isinstance(schema, list):
        for value in schema:
            _renamed(value, found)
    return found


def test_every_renamed_key_is_in_the_changelog_and_its_message_names_the_change(project, cardgen):
    """A key a version renamed (x-renamed in the schemas) is listed in CHANGELOG.md under
    that version with its new name, and the message for the old key names both."""
    import json
    changelog = (REPO / "CHANGELOG.md").read_text("utf-8")
    renamed = []
    for path in sorted((REPO / "generator/schemas").glob("*.json")):
        _renamed(json.loads(path.read_text("utf-8")), renamed)
    assert ("language", "lang", "0.1.0") in renamed
    for old, new, version in renamed:
        section = changelog.split(f"## {version}", 1)[1].split("\n## ", 1)[0]
        assert f"`{old}:` is now `{new}:`" in section, (old, version)
    game = project / "cards/lastdance/game.yaml"
    game.write_text(game.read_text("utf-8") + "language: ja\n", "utf-8")
    run = cardgen("validate", "lastdance")
    assert any(re.search(r"game\.yaml:\d+:1: error: unknown key 'language': cardgen 0\.1\.0 "
                         r"renamed it to 'lang' \(CHANGELOG\.md", line)
               for line in run.lines), run.lines


def test_at_points_into_a_keys_value_and_into_the_data_and_a_wrong_at_is_always_said(
        project, cardgen):
    """`at:` as docs/validation.md documents it: with `for: data.rules.kinds.{k}`, `k.count`
    is the count under that key; a check without `for:` points into the data
    (`data.rules.hand_size`); a wrong `at:` is the check's own error, said once at its line
    whether the check passes or fails, and a failure still says the designer's message."""
    from conftest import write_game
    folder = write_game(project, "pointing", {"title": "Pointing", "data": {"rules": "rules.yaml"},
                                              "checks": "checks.yaml",
                                              "decks": [{"id": "main"}]},
                        [{"id": "one", "name": "One"}])
    (folder / "rules.yaml").write_text(textwrap.dedent("""\
        kinds:
          fire: {count: 3}
          water: {count: 5}
        hand_size: 9
        """), "utf-8")
    (folder / "checks.yaml").write_text(textwrap.dedent("""\
        checks:
          - name: kind-count
            for: data.rules.kinds.{k}
            assert: data.rules.kinds[k].count <= 4
            message: "{{ k }}: {{ data.rules.kinds[k].count }} cards, at most 4"
            at: k.count
          - name: hand
            assert: data.rules.hand_size <= 7
            message: "a hand of {{ data.rules.hand_size }}, at most 7"
            at: data.rules.hand_size
          - name: passing-wrong-at
            for: data.rules.kinds.{k}
            assert: "true"
            at: k.cuont
          - name: failing-wrong-at
            for: data.rules.kinds.{k}
            assert: k != 'water'
            message: "no water, please"
            at: k.nope
        """), "utf-8")
    run = cardgen("validate", "pointing")
    assert run.code == 1
    problems = [line for line in run.lines if ": error: " in line]
    assert problems == [  # (in the order of the files and lines)
        "cards/pointing/checks.yaml:14:9: error: check 'passing-wrong-at': at: 'k.cuont' has no "
        "'cuont' (there is: count) [passing-wrong-at]",
        "cards/pointing/checks.yaml:19:9: error: check 'failing-wrong-at': at: 'k.nope' has no "
        "'nope' (there is: count) [failing-wrong-at]",
        "cards/pointing/rules.yaml:3:3: error: no water, please [failing-wrong-at]",
        "cards/pointing/rules.yaml:3:18: error: water: 5 cards, at most 4 [kind-count]",
        "cards/pointing/rules.yaml:4:12: error: a hand of 9, at most 7 [hand]",
    ], run.lines


def test_checks_total_and_group_cards_counting_copies(project, cardgen):
    """`total`, `count_by` and `total_by` (docs/validation.md) weigh each card by its copies:
    pips x copies summed without a namespace() macro, counts per colour, and a value that is
    not a number is the check's located error naming the card."""
    from conftest import write_game
    folder = write_game(project, "weighed", {"title": "Weighed", "checks": "checks.yaml",
                                             "decks": [{"id": "main"}]},
                        [{"id": "a", "name": "A", "copies": 3, "pips": 2, "color": "red"},
                         {"id": "b", "name": "B", "copies": 2, "pips": 5, "color": "blue"},
                         {"id": "c", "name": "C", "pips": 1, "color": "red"}])
    (folder / "checks.yaml").write_text(textwrap.dedent("""\
        checks:
          - name: pips
            assert: (cards | total('pips')) == 20
            message: "the deck has {{ cards | total('pips') }} pips in {{ cards | total }} cards"
          - name: reds
            assert: (cards | count_by('color')).red <= 3
            message: "{{ (cards | count_by('color')).red }} red cards"
          - name: blue-pips
            assert: (cards | total_by('pips', 'color')).blue == 10
          - name: names
            assert: (cards | total('name')) > 0
        """), "utf-8")
    run = cardgen("validate", "weighed")
    problems = [line for line in run.lines if ": error: " in line]
    assert problems == [
        "cards/weighed/checks.yaml:3:13: error: the deck has 17 pips in 6 cards [pips]",
        "cards/weighed/checks.yaml:6:13: error: 4 red cards [reds]",
        "cards/weighed/checks.yaml:11:13: error: check 'names': assert cannot be evaluated: "
        "card 'a': name is 'A', not a number [names]",
    ], run.lines
