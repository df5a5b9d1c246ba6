"""Random values in every key of the features added since the first reliability round
(issue 39): rulebook options, print targets, board layouts (their common keys and each
shape's own), export profiles, and stats questions and tables. The keys are read from the
schemas and the shapes' registry, not listed here. Whatever the value (huge, tiny,
negative, not finite, of the wrong type, contradictory), cardgen answers with located
problems or a clean build, never an internal error, and within its budget.

A few dozen examples run in `make test`; `make test-all` (CARDGEN_MATRIX=all) runs hundreds.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, write_game
from generator.load.schema import validator_for

FULL = os.environ.get("CARDGEN_MATRIX") == "all"
SCHEMAS = REPO / "generator/schemas"
# The schemas as cardgen makes them: their files with every declared key filled in
GAME = validator_for("game").schema
BOARD = validator_for("board").schema
EXPORT = validator_for("export").schema
FONTS = json.loads((SCHEMAS / "fonts.json").read_text("utf-8"))
BUDGET = 60.0  # seconds an example may take, at most (the catalogue's budget)


def _grid_keys() -> list[str]:
    from generator import boards
    from generator.options import schema_of
    return sorted(set(BOARD["properties"]) | set(schema_of(boards.SHAPES["grid"])["properties"])
                  - {"shape", "description"})


def _item_keys(schema: dict, *path: str) -> list[str]:
    """The keys of a list's items in the game schema (stats: odds, tables)."""
    node = schema
    for key in path:
        node = node["properties"][key]
    return sorted(node["items"]["properties"])


TARGET_KEYS = sorted(GAME["properties"]["targets"]["additionalProperties"]["properties"])
PLACES = ([("rulebook", k) for k in GAME["properties"]["rulebook"]["properties"] if k != "template"]
          + [("target", k) for k in TARGET_KEYS if k != "description"]
          + [("board", k) for k in _grid_keys()]
          + [("export", k) for k in EXPORT["properties"] if k != "description"]
          + [("odds", k) for k in _item_keys(GAME, "stats", "odds") if k not in ("id", "question")]
          + [("table", k) for k in _item_keys(GAME, "stats", "tables") if k != "name"]
          + [("view", k) for k in _item_keys(GAME, "stats", "views")]
          + [("font", k) for k in FONTS["$defs"]["family"]["properties"]])

values = st.one_of(
    st.sampled_from(["-5mm", "0mm", "3mm", "1e400mm", "99999mm", "0.0001mm", "50%", "A4",
                     "letter", "poker", "grid", "cmyk", "rgb", "none", "true", "nan", "inf",
                     "-1", "{{ 1e308 * 10 }}", "data.rules.hand", "{{ data.rules.hand }}",
                     "", "🂡", "\u202e", "x" * 300]),
    st.integers(-10**12, 10**12), st.sampled_from([0, 1, -1, 3, 999, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.lists(st.sampled_from(["3mm", 5, "A4", None, "x"]), max_size=3),
    st.dictionaries(st.sampled_from(["x", "y", "size", "name"]), st.sampled_from(["3mm", 2, "x"]),
                    max_size=2))


def test_the_hostile_keys_come_from_the_schemas_and_registries():
    kinds = {kind for kind, _ in PLACES}
    assert kinds == {"rulebook", "target", "board", "export", "odds", "table", "view", "font"}
    assert ("board", "rows") in PLACES and ("board", "overlap") in PLACES  # grid's and common
    assert ("export", "sizes") in PLACES and ("rulebook", "page") in PLACES


_FILES = {"rulebook.md": b"# Rules\n\nDraw {{ data.rules.hand }} cards.\n",
          "rules.yaml": b"hand: 2\nkinds:\n  - {name: a, cards: {one: 1}}\n"
                        b"  - {name: b, cards: {two: 1}}\n",
          "fonts/Own-Regular.ttf": (REPO / "fonts/SourceSansPro-Regular.ttf").read_bytes(),
          "fonts/OFL.txt": (REPO / "fonts/SourceSansPro-OFL.txt").read_bytes()}


def _game(project):
    shutil.rmtree(project / "output", ignore_errors=True)
    shutil.rmtree(project / "cards/keys", ignore_errors=True)
    game = {
        "title": "Keys", "lang": "en",
        "decks": [{"id": "main", "fields": {"name": {"type": "text"}, "kind": {"type": "text"}}}],
        "data": {"rules": "rules.yaml"},
        "rulebook": {"template": "rulebook.md"},
        "boards": [{"id": "map", "layout": "keys-grid"}],
        "targets": {"home": {"size": "poker", "sheet": "letter-poker-9up"}},
        "stats": {"odds": [{"id": "first", "question": "the first card", "deck": "main",
                            "hand": 2, "need": [{"cards": ["one"]}]}],
                  "tables": [{"name": "by kind", "deck": "main", "for": "data.rules.kinds.{k}",
                              "label": "{{ k.name }}", "counts": "k.cards"}],
                  "views": [{"deck": "main", "fields": ["kind"]}]},
        "fonts": {"own": {"regular": "fonts/Own-Regular.ttf", "licence": "fonts/OFL.txt",
                          "fallback": ["gothic"]}},
    }
    cards = [{"id": "one", "name": "One", "kind": "a"}, {"id": "two", "name": "Two", "kind": "b"}]
    layouts = {}
    return game, cards, layouts


@settings(max_examples=200 if FULL else 12, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(place=st.sampled_from(PLACES), value=values)
def test_property_any_value_in_any_new_key_is_located_or_builds(project, place, value):
    from generator.load import Project
    from generator.pipeline import BuildOptions, build, check, export, lay_out
    kind, key = place
    game, cards, _ = _game(project)
    board = yaml.safe_load((REPO / "layouts/boards/grid.yaml").read_text("utf-8"))
    board.update(rows=2, columns=3)
    profile = yaml.safe_load((REPO / "layouts/exports/tgc.yaml").read_text("utf-8"))
    target = {"rulebook": game["rulebook"], "target": game["targets"]["home"], "board": board,
              "export": profile, "odds": game["stats"]["odds"][0],
              "table": game["stats"]["tables"][0], "view": game["stats"]["views"][0],
              "font": game["fonts"]["own"]}[kind]
    target[key] = value
    (project / "layouts/boards").mkdir(exist_ok=True)
    (project / "layouts/boards/keys-grid.yaml").write_text(yaml.safe_dump(board), "utf-8")
    (project / "layouts/exports/keys-profile.yaml").write_text(yaml.safe_dump(profile), "utf-8")
    write_game(project, "keys", game, cards, files=_FILES)
    started = time.monotonic()
    root = Project.find(project)
    outcome = check(root, "keys", "home")
    lay_out(outcome)
    assert all(p.location.file for p in outcome.report.problems), outcome.report.problems
    if not outcome.failed(strict=False):
        built = build(root, "keys", BuildOptions(target="home"))
        assert all(p.location.file for p in built.report.problems), built.report.problems
        if kind == "export":
            exported, _ = export(root, "keys", "keys-profile", target="home")
            assert all(p.location.file for p in exported.report.problems), \
                exported.report.problems
    assert time.monotonic() - started < BUDGET


def test_the_game_the_values_go_into_builds_as_it_is(project):
    """Without a hostile value the game builds, exports and has every feature the keys
    belong to (so a value that passes is built, not stopped by something else)."""
    from generator.load import Project
    from generator.pipeline import BuildOptions, build, export
    game, cards, _ = _game(project)
    board = yaml.safe_load((REPO / "layouts/boards/grid.yaml").read_text("utf-8"))
    board.update(rows=2, columns=3)
    (project / "layouts/boards/keys-grid.yaml").write_text(yaml.safe_dump(board), "utf-8")
    profile = (REPO / "layouts/exports/tgc.yaml").read_text("utf-8")
    (project / "layouts/exports/keys-profile.yaml").write_text(profile, "utf-8")
    write_game(project, "keys", game, cards, files=_FILES)
    root = Project.find(project)
    built = build(root, "keys", BuildOptions(target="home"))
    assert not built.failed(strict=False), built.report.problems
    out = project / "output/keys"
    assert (out / "keys-rulebook.pdf").is_file() and (out / "keys-board-map.pdf").is_file()
    exported, folder = export(root, "keys", "keys-profile", target="home")
    assert not exported.report.errors and folder is not None, exported.report.problems


# -- round four (issue 63): the features added since -----------------------------------------
# Dice (stats: dice:), a layout's defaults:, a text's keys (ruby, vertical, grid, ...), an SVG
# picture's keys, and a vertical rulebook's keys; each value that validates is also built,
# typeset as a print-and-play kit and drawn as a showcase, so those see every value too.

def _element_keys(kind: str) -> list[str]:
    import importlib
    from generator.options import schema_of
    return sorted(schema_of(importlib.import_module(f"generator.elements.{kind}"))["properties"])


DEFAULT_KEYS = sorted(GAME["properties"]["defaults"]["propertyNames"]["enum"])
NEW_PLACES = ([("dice", k) for k in _item_keys(GAME, "stats", "dice")]
              + [("defaults", k) for k in DEFAULT_KEYS]
              + [("text", k) for k in _element_keys("text")]
              + [("image", k) for k in _element_keys("image")]
              + [("vertical", k) for k in GAME["properties"]["rulebook"]["properties"]
                 if k not in ("template", "writing")])

new_values = st.one_of(values, st.sampled_from([
    "mono", "jukugo", "group", "vertical", "shrink", "cover", "｜漢字《か ん じ》", "｜漢字《》",
    "《", "<ruby base=\"\">x</ruby>", "art/hostile.svg", "art/../../x.svg", "2d6", "1d1000",
    "100d1000", "3d6+" + "9" * 40, "data.rules.hand", "range(1, 10**6)", [1, 2, 3], [], "B6",
    ["30mm", "30mm"], 4, 0.5]))

_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        b'<circle cx="5" cy="5" r="4" fill="#c00"/></svg>')


def _new_game(place: tuple[str, str], value) -> tuple[dict, list, dict, dict]:
    kind, key = place
    text = {"name": "t", "type": "text", "text": "{{ card.name }}: ｜漢字《かん じ》を引く。",
            "x": "3mm", "y": "3mm", "width": "50mm", "height": "20mm", "ruby": "jukugo"}
    image = {"name": "art", "type": "image", "src": "art/a.svg", "x": "3mm", "y": "25mm",
             "width": "20mm", "height": "20mm", "color": "#2f5d8a"}
    layout: dict = {"size": "meishi", "defaults": {"size": "8pt"}, "elements": [text, image]}
    game = {"title": "新しい鍵", "lang": "ja",
            "decks": [{"id": "main", "front": "keys-front",
                       "fields": {"name": {"type": "text"}}}],
            "data": {"rules": "rules.yaml"},
            "rulebook": {"template": "rulebook.md", "writing": "vertical", "page": "B6"},
            "stats": {"dice": [{"id": "two", "name": "two dice", "dice": "2d6",
                                "at_least": [7], "exactly": [2]}]}}
    target = {"dice": game["stats"]["dice"][0], "defaults": layout["defaults"], "text": text,
              "image": image, "vertical": game["rulebook"]}[kind]
    target[key] = value
    cards = [{"id": "one", "name": "一"}, {"id": "two", "name": "二"}]
    files = {"rules.yaml": b"hand: 2\n", "art/a.svg": _SVG,
             "rulebook.md": "# ルール\n\n｜手札《てふだ》は {{ data.rules.hand }} 枚。"
                            "{{ dice('two').mean }}\n\n{{ card_faces(['one']) }}\n".encode()}
    return game, cards, {"keys-front": layout}, files


@settings(max_examples=200 if FULL else 12, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(place=st.sampled_from(NEW_PLACES), value=new_values)
def test_property_any_value_in_any_key_of_the_round_four_features(project, place, value):
    from generator import pnp
    from generator.load import Project
    from generator.pipeline import BuildOptions, build, check, lay_out, showcase
    from generator.write.showcase import Request
    shutil.rmtree(project / "output", ignore_errors=True)
    shutil.rmtree(project / "cards/keys", ignore_errors=True)
    game, cards, layouts, files = _new_game(place, value)
    write_game(project, "keys", game, cards, layouts, files)
    started = time.monotonic()
    root = Project.find(project)
    outcome = check(root, "keys")
    lay_out(outcome)
    assert all(p.location.file for p in outcome.report.problems), outcome.report.problems
    if not outcome.failed(strict=False):
        for made in (build(root, "keys", BuildOptions()),
                     pnp.pnp(root, "keys", pnp.Request(papers=("A4",))),
                     showcase(root, "keys", lambda g: Request(size=(400, 300)))):
            assert all(p.location.file for p in made.report.problems), made.report.problems
    assert time.monotonic() - started < BUDGET


def test_the_round_four_game_builds_as_it_is(project):
    """Without a hostile value, the game of the round-four keys validates and builds (a
    vertical rulebook with ruby, dice and card faces; an SVG; a jukugo text), its kit and
    showcase too: a value that passes is built, not stopped by something else."""
    from generator import pnp
    from generator.load import Project
    from generator.pipeline import BuildOptions, build, showcase
    from generator.write.showcase import Request
    game, cards, layouts, files = _new_game(("dice", "name"), "two dice")
    write_game(project, "keys", game, cards, layouts, files)
    root = Project.find(project)
    built = build(root, "keys", BuildOptions())
    assert not built.failed(strict=False), built.report.problems
    assert (project / "output/keys/keys-rulebook.pdf").is_file()
    kit = pnp.pnp(root, "keys", pnp.Request(papers=("A4",)))
    assert not kit.failed(strict=False) and (project / "output/keys/pnp").is_dir()
    shown = showcase(root, "keys", lambda g: Request(size=(400, 300)))
    assert not shown.failed(strict=False) and shown.written


def test_the_round_four_keys_come_from_the_schemas_and_registries():
    kinds = {kind for kind, _ in NEW_PLACES}
    assert kinds == {"dice", "defaults", "text", "image", "vertical"}
    assert ("text", "ruby") in NEW_PLACES and ("defaults", "tate_chu_yoko") in NEW_PLACES
    assert ("dice", "faces") in NEW_PLACES and ("vertical", "columns") in NEW_PLACES
