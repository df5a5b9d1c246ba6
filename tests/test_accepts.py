"""The compiled schema check (generator/load/accepts.py) says yes exactly where jsonschema
finds no error: over every keyword our schemas use, with the values that tell its meanings
apart (True is not 1, .inf is not a number, a pattern is RE2's), over the shipped games'
files and many changed copies of them, over values made from every schema, and over deck
field declarations and cards. A value it refused would only be slower (jsonschema says
what is wrong); one it accepted wrongly would pass unchecked: both are failures here."""

from __future__ import annotations

import copy
import json
import math
import random
import subprocess
import sys

import jsonschema
import pytest
import yaml

from conftest import REPO
from generator.load import accepts, schema
from generator.load.patterns import PatternError, pattern
from generator.values import walk
from generator.validate.fields import deck_schema

NAMES = schema._SCHEMA_NAMES


def _agree(checker: schema.Checker, value) -> bool:
    """Whether the compiled check and jsonschema agree on `value`; returns the verdict."""
    fast = checker.accepts(value)
    errors = list(checker.iter_errors(value))
    assert fast == (not errors), (value, [e.message for e in errors][:3])
    return fast


def test_keywords_are_jsonschemas():
    assert accepts.KEYWORDS == set(jsonschema.Draft202012Validator.VALIDATORS)


def _refs(node, base: str):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield f"{base}{ref}" if ref.startswith("#") else ref
        for key, value in node.items():
            if key not in ("const", "enum"):
                yield from _refs(value, base)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item, base)


def test_lookup_finds_what_referencing_finds():
    plugins = schema._plugins()
    schemas = schema._schemas_for(plugins)
    resolver = schema._registry_for(plugins).resolver()
    targets = {t for uri, contents in schemas.items() for t in _refs(contents, uri)}
    assert len(targets) > 10
    for target in sorted(targets):
        found, uri = schema.lookup(target, schemas)
        assert found == resolver.lookup(target).contents, target
        assert uri == target.partition("#")[0]


# Each keyword compiled, with values that tell its meanings apart.
ANY = [None, True, False, 0, 1, -1, 1.0, 2.5, math.inf, -math.inf, math.nan, 10**20, "", "a",
       "TBD", "1", "true", "3mm", "#fff", "a4", "card-1", "Bad Id", [], [1], [1, 1], [True, 1],
       ["a", "b"], [[1], [1]], [{"a": 1}, {"a": True}], {}, {"a": 1}, {"a": None, "b": 2},
       {"type": "text"}, {"1": 1}, "x" * 70, "data.world.cities", "utf-8", "no-such-codec"]
KEYWORD_SCHEMAS = [
    {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"},
    {"type": "null"}, {"type": "array"}, {"type": "object"}, {"type": ["integer", "string"]},
    {"type": ["boolean", "string", "integer"]}, {"type": ["string", "number"]},
    {"enum": ["a", "b", 1, None]}, {"enum": [1, [1], {"a": 1}]}, {"enum": [True]},
    {"enum": [0]}, {"const": "TBD"}, {"const": 1}, {"const": True}, {"const": [1]},
    {"const": {"a": 1}}, {"const": None},
    {"minLength": 1}, {"maxLength": 2}, {"minItems": 1}, {"maxItems": 1},
    {"minProperties": 1}, {"maxProperties": 1}, {"minimum": 0}, {"maximum": 1},
    {"minimum": 0.5, "maximum": 2}, {"exclusiveMinimum": 0}, {"exclusiveMaximum": 1},
    {"pattern": "^[a-z]+$"}, {"pattern": r"^data(\.[A-Za-z0-9_-]+)+$"}, {"pattern": r"\d"},
    {"format": "name"}, {"format": "flag"}, {"format": "length"}, {"format": "color"},
    {"format": "paper"}, {"format": "layout-length"}, {"format": "layout-flag"},
    {"format": "rulebook-page"}, {"format": "text-encoding"}, {"format": "not-ours"},
    {"uniqueItems": True}, {"uniqueItems": False}, {"required": ["a"]},
    {"required": ["a", "b"]}, {"properties": {"a": {"type": "integer"}}},
    {"properties": {"a": {}}, "additionalProperties": False},
    {"properties": {"a": True}, "additionalProperties": {"type": "integer"}},
    {"additionalProperties": {"type": "array", "minItems": 1}},
    {"additionalProperties": False}, {"items": {"type": "integer"}}, {"items": False},
    {"items": True}, {"propertyNames": {"pattern": "^[a-z]$"}},
    {"propertyNames": {"enum": ["a"]}}, {"allOf": [{"type": "integer"}, {"minimum": 1}]},
    {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "TBD"}]},
    {"oneOf": [{"type": "integer"}, {"type": "number"}]}, {"not": {"type": "string"}},
    {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
    {"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "integer"}},
    {"then": {"type": "string"}}, True, False, {}, {"x-expected": "anything", "title": "t"},
    {"type": "object", "properties": {"type": {"enum": ["text", "rect"]}},
     "allOf": [{"if": {"properties": {"type": {"const": "text"}}},
                "then": {"properties": {"size": {"type": "number"}}}}],
     "unevaluatedProperties": False},
    {"properties": {"a": {}}, "additionalProperties": {"type": "integer"},
     "unevaluatedProperties": False},
    {"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}],
     "unevaluatedProperties": {"type": "integer"}},
    {"type": "object", "required": ["type"], "oneOf": [{"properties": {"type": {"const": 1}}}]},
]


@pytest.mark.parametrize("kind", KEYWORD_SCHEMAS, ids=lambda s: json.dumps(s)[:60])
def test_each_keyword_means_what_jsonschema_means(kind):
    checker = schema.make_validator(kind)
    values = ANY + [{"a": v} for v in ANY] + [{"a": v, "b": v} for v in ANY[:12]] + \
        [{"type": "text", "size": v} for v in ANY[:12]] + [{"type": "rect", "size": 1}] + \
        [{"type": 1}, {"type": True}, {"type": 1.0}] + \
        [[v, v] for v in ANY[:12]]
    verdicts = {_agree(checker, v) for v in values}
    if kind is not False:
        assert True in verdicts  # (compiled: not jsonschema's alone)


def test_a_keyword_it_does_not_compile_is_left_to_jsonschema():
    for kind in ({"multipleOf": 2}, {"patternProperties": {"^a": {}}}, {"contains": {}},
                 {"prefixItems": [{}]}, {"minimum": "1"}, {"type": "thing"}):
        checker = schema.make_validator(kind)
        assert checker.accepts(3) is False and checker.accepts({}) is False
    with pytest.raises(PatternError):
        pattern("(a)\\1")  # (RE2's refusal: the fast check refuses it, jsonschema says it)
    assert schema.make_validator({"pattern": "(a)\\1"}).accepts("aa") is False


# The shipped games' files, and copies changed at one place each.
def _documents() -> list[tuple[str, object]]:
    docs: list[tuple[str, object]] = []

    def add(name: str, path):
        docs.append((name, yaml.safe_load(path.read_text("utf-8"))))

    for game in sorted(list((REPO / "cards").glob("*/game.yaml")) +
                       list((REPO / "tests/games").glob("*/game.yaml"))):
        add("game", game)
        for deck in yaml.safe_load(game.read_text("utf-8")).get("decks", []):
            name = deck.get("cards") if isinstance(deck, dict) else None
            if isinstance(name, str) and name.endswith(".yaml") and (game.parent / name).exists():
                add("deck", game.parent / name)
    for folder in (REPO / "layouts", REPO / "tests/games/outbreak/layouts"):
        for path in sorted(folder.glob("*.yaml")):
            if path.name != "printers.yaml":
                add("layout", path)
    for kind, folder in (("sheet", "sheets"), ("board", "boards"), ("export", "exports")):
        for path in sorted((REPO / "layouts" / folder).glob("*.yaml")):
            add(kind, path)
    add("board", REPO / "tests/games/rails/layouts/boards/rails.yaml")
    add("printers", REPO / "layouts/printers.yaml")
    for path in sorted((REPO / "cards").glob("*/checks.yaml")):
        add("checks", path)
    docs += [("element", element) for kind, doc in list(docs) if kind == "layout"
             for element in (doc.get("elements") or [])]
    return docs


DOCUMENTS = _documents()
ODD = [None, True, False, 0, -3, 2.5, math.inf, math.nan, 10**9, "", "TBD", "x", "3mm",
       "-2mm", "50%", "#12345", "#ff0000", "red", "a4", "yes", "Bad Id", "{{ card.x }}",
       [], [1, 1], ["a"], {}, {"x": 1}, {"id": "a"}]


def _changed(doc, rng: random.Random):
    """`doc` with one place changed: a value replaced, a key removed or added, an item
    repeated or removed."""
    doc = copy.deepcopy(doc)
    path = rng.choice([at for at, _value in walk(doc)])
    if not path:
        return rng.choice(ODD)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = rng.randrange(5)
    if how == 0 and isinstance(parent, dict):
        del parent[last]
    elif how == 1 and isinstance(parent, dict):
        parent[rng.choice(["colour", "x", "type", "id", "shape", "extra_key", "1"])] = \
            rng.choice(ODD)
    elif how == 2 and isinstance(parent, list):
        rng.choice([parent.pop, lambda i: parent.append(copy.deepcopy(parent[i]))])(last)
    else:
        parent[last] = rng.choice(ODD)
    return doc


def test_the_games_files_and_changed_copies():
    assert {kind for kind, _doc in DOCUMENTS} == set(NAMES) - {"common", "fonts"}
    rng = random.Random(62)
    verdicts: dict[str, set] = {}
    for kind, doc in DOCUMENTS:
        checker = schema.validator_for(kind)
        verdicts.setdefault(kind, set()).add(_agree(checker, doc))
        for _ in range(12 if kind != "deck" else 4):
            verdicts[kind].add(_agree(checker, _changed(doc, rng)))
    assert all(found == {True, False} for found in verdicts.values()), verdicts


# Values made from every schema: what it asks for, mostly, and now and then not.
SAMPLES = ["", "a", "card-1", "x1", "TBD", "3mm", "1.5in", "-2mm", "50%", "100% - 5mm", "2",
           "#7a2e4a", "#fff", "red", "white", "a4", "letter", "poker", "meishi", "yes", "no",
           "true", "utf-8", "shift_jis", "data.world.cities", "each_x", "{{ card.title }}",
           "Bad Id", "latin", "mincho", "left", "center", "middle", "duplex", "x" * 70]


def _made(node, rng: random.Random, depth: int, schemas: dict, wild: float = 0.04):
    """A value for schema `node`, as it asks mostly; any value now and then."""
    if rng.random() < wild or depth > 6 or not isinstance(node, dict):
        return rng.choice(ODD)
    if "$ref" in node:
        return _made(schema.lookup(node["$ref"] if not node["$ref"].startswith("#") else
                                   "cardgen:game" + node["$ref"], schemas)[0],
                     rng, depth + 1, schemas, wild)
    if "const" in node:
        return copy.deepcopy(node["const"])
    if "enum" in node:
        return copy.deepcopy(rng.choice(list(node["enum"])))
    for key in ("anyOf", "oneOf"):
        if key in node:
            return _made({**{k: v for k, v in node.items() if k != key},
                          **rng.choice(node[key])}, rng, depth + 1, schemas, wild)
    kinds = node.get("type", rng.choice(["string", "object", "integer"]))
    kind = rng.choice(kinds) if isinstance(kinds, list) else kinds
    if kind == "object" or "properties" in node:
        return _object(node, rng, depth, schemas, wild)
    if kind == "array":
        low = node.get("minItems", 0)
        return [_made(node.get("items", {}), rng, depth + 1, schemas, wild)
                for _ in range(rng.randint(low, min(node.get("maxItems", low + 3), low + 3)))]
    if kind in ("integer", "number"):
        low, high = node.get("minimum", -5), node.get("maximum", 100)
        number = rng.randint(math.ceil(low), math.floor(high)) if low <= high else low
        return number if kind == "integer" or rng.random() < 0.5 else number + 0.5
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    fitting = [s for s in SAMPLES if _fits(s, node)]
    return rng.choice(fitting or SAMPLES)


def _fits(text: str, node: dict) -> bool:
    """Whether `text` is of the schema's pattern, format and length (to make values it
    takes: whether it does is the checks' to say)."""
    test, raises = schema.FORMATS.get(node.get("format"), (lambda s: True, ()))
    try:
        formed = test(text)
    except raises:
        formed = False
    return bool(formed) and node.get("minLength", 0) <= len(text) <= node.get("maxLength", 99) \
        and ("pattern" not in node or pattern(node["pattern"]).search(text) is not None)


def _object(node, rng: random.Random, depth: int, schemas: dict, wild: float) -> dict:
    properties = node.get("properties", {})
    keys = list(node.get("required", [])) + [k for k in properties if rng.random() < 0.3]
    out = {k: _made(properties.get(k, {}), rng, depth + 1, schemas, wild) for k in keys}
    for rule in node.get("allOf", []):  # an element type's keys, a board shape's
        condition = rule.get("if", {}).get("properties", {}) if isinstance(rule, dict) else {}
        if condition and all(isinstance(w, dict) and out.get(k) == w.get("const")
                             for k, w in condition.items()):
            then = rule.get("then", {})
            for k, sub in then.get("properties", {}).items():
                if rng.random() < 0.3 or k in then.get("required", []):
                    out[k] = _made(sub, rng, depth + 1, schemas, wild)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and rng.random() < 0.7:
        out[rng.choice(["a", "b1", "main", "x_y"])] = _made(extra, rng, depth + 1, schemas, wild)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_values_made_from_each_schema(name):
    plugins = schema._plugins()
    schemas = schema._schemas_for(plugins)
    checkers = [schema.validator_for(name)] if name != "common" else [  # (its parts)
        schema.Checker(schema._inline(part, "cardgen:common", schemas), plugins)
        for part in schemas["cardgen:common"]["$defs"].values()]
    rng = random.Random(name)
    for checker in checkers:
        verdicts = set()
        for _ in range(150 // len(checkers) + 10):
            value = _made(checker.schema, rng, 0, schemas, rng.choice([0.0, 0.04]))
            verdicts.add(_agree(checker, value))
            verdicts.add(_agree(checker, _changed(value, rng)))
        assert verdicts == {True, False}


# Deck field declarations (validate/fields.py) and cards against them.
def _declaration(rng: random.Random, depth: int = 0) -> dict:
    kind = rng.choice(["text", "integer", "number", "boolean", "list", "mapping", "card"])
    decl: dict = {"type": kind}
    if kind == "text" and rng.random() < 0.4:
        decl.update(rng.choice([{"enum": ["fire", "water"]}, {"pattern": "^[a-z]+$"},
                                {"pattern": r"^\d+$"}]))
    if kind in ("integer", "number") and rng.random() < 0.6:
        decl["minimum"], decl["maximum"] = rng.choice([(0, 10), (1, 5), (-2.5, 2.5)])
    if kind == "list":
        decl["min_items"], decl["max_items"] = rng.choice([(0, 3), (1, 2)])
        if depth < 2 and rng.random() < 0.7:
            decl["items"] = _declaration(rng, depth + 1)
    if kind == "mapping" and depth < 2:
        decl["fields"] = {k: {**_declaration(rng, depth + 1), "required": rng.random() < 0.5}
                          for k in ("a", "b")}
    if rng.random() < 0.3:
        decl["required"] = True
    return decl


def _value(decl: dict, rng: random.Random):
    if rng.random() < 0.15:
        return rng.choice(ODD)
    kind = decl["type"]
    if "enum" in decl:
        return rng.choice(decl["enum"] + ["air"])
    if kind in ("text", "card"):
        return rng.choice(["fire", "12", "abc", "Abc", "", "c1"])
    if kind in ("integer", "number"):
        return rng.choice([0, 1, 5, 11, -3, 2.5, -2.5, True])
    if kind == "boolean":
        return rng.choice([True, False, 1, "yes"])
    if kind == "list":
        return [_value(decl.get("items", {"type": "text"}), rng) for _ in range(rng.randint(0, 3))]
    return {k: _value(d, rng) for k, d in decl.get("fields", {}).items() if rng.random() < 0.8}


def test_deck_fields_and_cards():
    rng = random.Random(40)
    verdicts = set()
    for _ in range(60):
        fields = {f"f{i}": _declaration(rng) for i in range(rng.randint(1, 4))}
        for blank in (False, True):
            checker = schema.make_validator(deck_schema(fields, blank))
            for n in range(8):
                card = {"id": f"c{n}", **{k: _value(d, rng) for k, d in fields.items()
                                          if rng.random() < 0.85}}
                if rng.random() < 0.1:
                    card["colour"] = "red"
                verdicts.add(_agree(checker, card))
    assert verdicts == {True, False}


def test_a_clean_game_is_checked_without_jsonschema(tmp_path):
    """jsonschema is imported only for a document the compiled check refuses: a clean
    game's build does without it (its import is a twentieth of a second)."""
    code = ("import sys; from generator.cli import main; "
            "code = main(['validate', 'odoriko']); "
            "print(code, 'jsonschema' in sys.modules, 'referencing' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True)
    assert done.stdout.split()[-3:] == ["0", "False", "False"], done.stdout + done.stderr


def test_a_card_whose_only_faults_are_drafts_is_not_given_to_jsonschema(
        project, cardgen, monkeypatch):
    """A card whose required fields left out are TBD (drafts, a warning of their own) is
    clean without jsonschema (validate/fields._drafts_only); what validate says is what it
    says when jsonschema checks each such card, with drafts beside other faults too."""
    from conftest import write_game
    from generator.validate import fields
    declared = {"name": {"type": "text", "required": True},
                "power": {"type": "integer", "required": True, "minimum": 0, "maximum": 9},
                "tags": {"type": "list", "items": {"type": "text"}},
                "stats": {"type": "mapping", "fields": {
                    "a": {"type": "integer", "required": True},
                    "name": {"type": "text", "required": True}}}}
    cards = [{"id": "a", "name": "TBD", "power": 3}, {"id": "b", "name": "TBD", "power": "x"},
             {"id": "c", "name": "TBD"}, {"id": "d", "name": "TBD", "power": "TBD", "stats": {}},
             {"id": "e", "name": "TBD", "power": 1, "stats": {"a": "TBD", "name": "n"}},
             {"id": "f", "name": "TBD", "power": 2, "colour": "red"},
             {"id": "g", "name": "ok", "power": 11}, {"id": "h", "blank": True, "name": "TBD"},
             {"id": "i", "name": "TBD", "power": 1, "stats": {"a": 1}, "tags": ["x", 2]},
             {"id": "j", "name": "TBD", "power": "TBD", "tags": []}]
    write_game(project, "drafty", {"title": "Drafty", "decks": [
        {"id": "main", "front": "lastdance-front", "back": "lastdance-back",
         "fields": declared}]}, cards)
    drafts_only = fields._drafts_only
    passed = []
    monkeypatch.setattr(fields, "_drafts_only", lambda card, *args: drafts_only(
        card, *args) and not passed.append(card.id))
    shortcut = cardgen("validate", "drafty")
    assert passed == ["a", "j"]
    monkeypatch.setattr(fields, "_drafts_only", lambda *args: False)
    full = cardgen("validate", "drafty")
    assert shortcut.lines == full.lines and shortcut.code == full.code
    assert [line.split(": ", 2)[2] for line in full.lines if line.endswith("[schema]")] == [
        "card 'b': power must be an integer, not text ('x') [schema]",
        "card 'c': missing required key 'name' [schema]",  # (not a draft's alone: said)
        "card 'c': missing required key 'power' [schema]",
        "card 'd': missing required key 'a' [schema]",
        "card 'd': missing required key 'name' [schema]",
        "card 'e': a must be an integer, not text ('TBD') [schema]",
        "card 'f': unknown key 'colour' (allowed: back, blank, copies, deck, filler, id, name, "
        "power, stats, tags) [schema]",
        "card 'g': power must be from 0 to 9, not 11 [schema]",
        "card 'i': item 2 of tags must be text, not an integer (2) [schema]"]
