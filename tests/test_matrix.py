"""Every feature with every other: a combination matrix built from the registries.

Its axes are read from where each feature is defined, never listed here:
- element types: generator/elements (each module's EXAMPLE); every layout of the matrix
  holds one element of every type, each repeated (`repeat:`, twice, the copy moved), so an
  element type is a row of every cell;
- card shapes: the deck schema's `shape` (a card both upright and landscape);
- font families: fonts/fonts.yaml, and a game's own font (`fonts:` in game.yaml);
- languages: the game schema's `lang`; duplex modes: the sheet schema's `duplex`, and the
  two mixed in one game (a located error);
- outputs: each output option of BuildOptions (--png, --proof, --tts, --cards-pdf, --stats,
  --guides), each shipped export profile (layouts/exports), `cardgen stats`, `diff
  --visual`, the preview page's pictures, the rulebook's card_faces() and the
  print-and-play kit (each of impose.kit.LAYOUTS, with and without the ink saver, on each
  paper of pnp.PAPERS, turning with the cells);
- export profile keys: every choice of the export schema (an enum or a flag: marks, color,
  black_text, overprint, boards, rulebook...), each value the CMYK profile does not take
  tried as a variant of it, one variant per cell (turning as the other axes do);
- board shapes: generator/boards (each module's EXAMPLE), one board of every shape in every
  cell, built, exported where a profile takes boards, and in the preview;
- card keys: every key cardgen gives a card (model.CARD_KEYS, as the deck schema types it:
  copies, blank, back, filler...), each on a card of its own in every cell;
- checks: generator/validate (validate.CHECKS), each of which runs on every cell;
- statistics: generator/stats/kinds (each module's EXAMPLE), every kind declared in every
  cell's game.yaml and counted by `cardgen stats` and the stats PDF.

Every cell builds and reads back right (no RGB operator in a CMYK export, a token's PNG
transparent outside its cut line, a cold, a warm and a post-validate build the same bytes)
or is a located error from validate. A fixed sample of cells runs in `make test` (each shape
once, the other axes turning with it, every value of each at least once); `make test-all`
runs the whole product (CARDGEN_MATRIX=all).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
import yaml

from conftest import REPO, write_game
from generator import boards, elements, validate
from generator.formats import PROFILE
from generator.load.schema import validator_for
from generator.stats import kinds as stats_kinds
from generator.pipeline import BuildOptions

SCHEMAS = REPO / "generator/schemas"
FULL = os.environ.get("CARDGEN_MATRIX") == "all"


def _enum(schema: dict, key: str) -> list:
    """The enum of the first property `key` found in a schema (depth first)."""
    if isinstance(schema, dict):
        found = schema.get("properties", {}).get(key)
        if isinstance(found, dict) and "enum" in found:
            return list(found["enum"])
        for value in schema.values():
            hit = _enum(value, key)
            if hit:
                return hit
    elif isinstance(schema, list):
        for value in schema:
            hit = _enum(value, key)
            if hit:
                return hit
    return []


# The game schema as cardgen makes it: its files with every declared key filled in
GAME_SCHEMA = validator_for("game").schema
SHAPES = [s for shape in _enum(GAME_SCHEMA, "shape")
          for s in ((f"{shape}-portrait", f"{shape}-landscape") if shape == "card" else (shape,))]
FAMILIES = list(yaml.safe_load((REPO / "fonts/fonts.yaml").read_text("utf-8"))["families"])
FONTS = FAMILIES + ["own"]
LANGS = _enum(GAME_SCHEMA, "lang")
WRITINGS = _enum(GAME_SCHEMA, "writing")  # of the rulebook: each cell's turns with the cells
DUPLEX = _enum(GAME_SCHEMA, "duplex") + ["mixed"]
OPTIONS = [f.name for f in dataclasses.fields(BuildOptions)
           if f.type in ("bool", bool) and f.name != "strict"]
# The command line's words for each: --name, unless the option says (metadata "flag").
FLAGS = [w for f in dataclasses.fields(BuildOptions) if f.name in OPTIONS
         for w in f.metadata.get("flag", (f"--{f.name.replace('_', '-')}",))]
PROFILES = sorted(p.stem for p in (REPO / "layouts/exports").glob("*.yaml"))
CMYK = {p for p in PROFILES if yaml.safe_load(
    (REPO / "layouts/exports" / f"{p}.yaml").read_text("utf-8")).get("color") == "cmyk"}
BASE_PROFILE = "jp-print"  # the profile that takes the most: its variants are the key axis
_BASE = yaml.safe_load((REPO / f"layouts/exports/{BASE_PROFILE}.yaml").read_text("utf-8"))
_FLAG = "cardgen:common#/$defs/flag"
# Each choice of an export profile's keys, as they are declared (formats.PROFILE)
VARIANTS = [(option.key, value) for option in PROFILE
            for value in (option.choices or ([True, False] if option.kind == "flag" else []))
            if value != _BASE.get(option.key)]
CARD_KEY_SCHEMAS = json.loads((SCHEMAS / "deck.json").read_text("utf-8"))[
    "properties"]["cards"]["items"]["properties"]


def _card_key_example(key: str, schema: dict):
    """A value of the card key `key` for a card of the matrix, from how the deck schema
    types it; a key of a new kind must say here what a value of its kind is."""
    if schema.get("$ref") == _FLAG:
        return True
    if "anyOf" in schema and schema["anyOf"][0].get("type") == "integer":
        return 3  # copies
    if schema.get("$ref", "").endswith("/id"):
        return "matrix-back-alt"  # the only other name a card key takes is its own back layout
    raise AssertionError(f"the matrix has no example for card key {key!r} ({schema})")


def _cells():
    if FULL:
        return list(itertools.product(SHAPES, FONTS, LANGS, DUPLEX))
    # Each shape once; the other axes turn with it, so every value of each is tried.
    n = max(len(SHAPES), len(FONTS), len(LANGS), len(DUPLEX), len(VARIANTS))
    return [(SHAPES[i % len(SHAPES)], FONTS[i % len(FONTS)], LANGS[i % len(LANGS)],
             DUPLEX[i % len(DUPLEX)]) for i in range(n)]


def test_the_matrix_axes_come_from_the_registries():
    assert {"card-portrait", "card-landscape", "circle", "square", "hex", "standee"} <= set(SHAPES)
    assert {"gothic", "mincho", "latin", "own"} <= set(FONTS)
    assert {"png", "proof", "tts", "cards_pdf", "stats", "guides"} <= set(OPTIONS)
    assert {"jp-print", "tgc", "mpc"} <= set(PROFILES) and BASE_PROFILE in CMYK
    assert {("overprint", "none"), ("boards", False), ("rulebook", "none"),
            ("black_text", "convert"), ("marks", "none")} <= set(VARIANTS)
    assert set(CARD_KEY_SCHEMAS) == {"id", "copies", "blank", "back", "filler"}
    cells = _cells()
    for axis, values in enumerate((SHAPES, FONTS, LANGS, DUPLEX)):
        assert {cell[axis] for cell in cells} == set(values)  # the sample covers every value
    assert {_variant(cell) for cell in cells} == set(VARIANTS)
    assert set(WRITINGS) == {"horizontal", "vertical"}
    assert {_writing(cell) for cell in cells} == set(WRITINGS)
    from generator import pnp
    from generator.impose import kit
    made = {(k["layout"], k["ink_saver"], k["paper"]) for k in map(_kit, cells)}
    assert {(layout, ink) for layout, ink, _ in made} == \
        set(itertools.product(kit.LAYOUTS, (False, True)))
    assert {paper for _, _, paper in made} == set(pnp.PAPERS)


def _kit(cell) -> dict:
    """The print-and-play kit this cell makes: each layout of impose.kit.LAYOUTS, with and
    without the ink saver, on each paper of pnp.PAPERS, turning with the cells."""
    from generator import pnp
    from generator.impose import kit
    n = _cells().index(cell)
    papers = list(pnp.PAPERS)
    layouts = len(kit.LAYOUTS)
    return {"layout": kit.LAYOUTS[n % layouts], "ink_saver": n // layouts % 2 == 1,
            "paper": papers[n // (2 * layouts) % len(papers)]}


def _writing(cell) -> str:
    """The rulebook's writing this cell tries (turning with the cells; a cell of the
    property tests takes one by its values)."""
    cells = _cells()
    n = cells.index(cell) if cell in cells else sum(map(ord, "".join(map(str, cell[:4]))))
    return WRITINGS[n % len(WRITINGS)]


def _variant(cell) -> tuple:
    """The export profile key this cell tries (turning with the cells)."""
    return VARIANTS[_cells().index(cell) % len(VARIANTS)]


def _size(shape: str) -> list[str]:
    if shape == "card-portrait":
        return ["63mm", "88mm"]
    if shape == "card-landscape":
        return ["88mm", "63mm"]
    return ["40mm", "40mm"] if shape != "standee" else ["40mm", "60mm"]


SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
       b'<path d="M5 0 L10 5 L5 10 L0 5 Z" fill="#000"/></svg>')  # a diamond, one colour


def _layout(shape: str, font: str, lang: str) -> dict:
    """One element of every registered type, each in its own box in the middle of the face
    (inside a token's shape too), text set in the cell's font (by the layout's defaults)."""
    types = list(elements.TYPES)
    items = [{"name": "ground", "type": "rect", "fill": "#f0e0c0"}]
    for i, (name, module) in enumerate(elements.TYPES.items()):
        col, row = i % 3, i // 3
        rows = -(-len(types) // 3)
        element = {"name": f"e-{name}", "type": name,
                   "x": f"{30 + col * 14}%", "y": f"{28 + row * 40 / rows:.1f}%",
                   "width": "12%", "height": f"{36 / rows:.1f}%", **module.EXAMPLE}
        if name == "text":  # with an SVG icon inline, in the text's colour
            # its font: the defaults
            element.update(text="Knight <icon gem> 騎士" if lang == "en"
                           else "騎士 <icon gem> Knight", size="5pt", fit="shrink", min_size="3pt")
        if name == "qr":
            element.update(x="37.5%", y="60%", width="25%", height="25%")
        # every type also repeated (elements/repeat.py): twice, the copy moved a little
        element["repeat"] = {"over": "{{ [card.id, card.id] }}", "as": "twin",
                             "step": ["0.2mm", "0.2mm"]}
        items.append(element)
    items.append({"name": "e-svg", "type": "image", "src": "art.svg", "color": "#336699",
                  "x": "44%", "y": "12%", "width": "12%", "height": "12%"})  # vectors, recoloured
    return {"size": _size(shape), "defaults": {"font": font}, "elements": items}


def _game(project: Path, cell) -> str:
    shape, font, lang, duplex = cell
    game_id = "matrix"
    kind = "card" if shape.startswith("card") else shape
    layouts = {"matrix-front": _layout(shape, font, lang),
               "matrix-back": {"size": _size(shape), "elements": [
                   {"name": "ground", "type": "rect", "fill": "#304060"},
                   {"name": "mark", "type": "text", "text": "BACK 裏", "font": font,
                    "x": "30%", "y": "40%", "width": "40%", "height": "20%", "size": "6pt",
                    "fit": "shrink", "min_size": "3pt", "align": "center"}]}}
    modes = ["long-edge", "short-edge"] if duplex == "mixed" else [duplex, duplex]
    decks = []
    for n, mode in enumerate(modes):
        deck = {"id": f"deck{n}", "name": f"Deck {n}", "front": "matrix-front",
                "cards": "cards.yaml" if n == 0 else f"cards{n}.yaml",
                "back": "matrix-back", "backs": "duplex",
                "sheet": {"preset": "plain-a4", "duplex": mode}}
        if kind != "card":
            deck["shape"] = kind
        if kind == "standee":
            deck["tab"] = "10mm"
        decks.append(deck)
    game = {"title": "Matrix 行列", "lang": lang,
            "icons": {"coin": {"glyph": "●"}, "gem": {"image": "art.svg"}}, "decks": decks,
            "rulebook": {"template": "rulebook.md", "font": font if font != "own" else "own",
                         "writing": _writing(cell)}}
    files = {"art.png": _png(), "art.svg": SVG}
    files["rulebook.md"] = ("# Matrix\n\nKnight 騎士 draws two cards.\n\n"
                            "- 一つ目 first\n- 二つ目 second\n\n"
                            "| 札 | 枚数 |\n|---|---:|\n| Knight 騎士 | 12 |\n\n"
                            "> 注：note\n\n"
                            "{{ card_faces(['one', 'two']) }}\n").encode()
    if font == "own":
        game["fonts"] = {"own": {"regular": "fonts/Own-Regular.ttf",
                                 "licence": "fonts/OFL.txt", "fallback": ["gothic"]}}
        files["fonts/Own-Regular.ttf"] = (REPO / "fonts/SourceSansPro-Regular.ttf").read_bytes()
        files["fonts/OFL.txt"] = (REPO / "fonts/SourceSansPro-OFL.txt").read_bytes()
    layouts["matrix-back-alt"] = {**layouts["matrix-back"], "elements": [
        {**layouts["matrix-back"]["elements"][0], "fill": "#603040"}]}
    cards = [{"id": "one", "name": "One 一", "copies": 2}, {"id": "two", "name": "Two 二"}]
    cards += [{"id": f"key-{key}", "name": f"Key {key}", key: _card_key_example(key, schema)}
              for key, schema in CARD_KEY_SCHEMAS.items() if key != "id"]
    files["cards1.yaml"] = yaml.safe_dump({"cards": [{"id": "three", "name": "Three 三"}]},
                                          allow_unicode=True).encode()
    game["boards"], data = [], {}
    for name, module in boards.SHAPES.items():  # one board of every shape
        example = dict(module.EXAMPLE)
        entry = {"id": f"b-{name}", "title": f"{name} 盤", "layout": example.pop("layout")}
        if example.pop("tiles", False):
            entry.update(deck="deck0", cards=["one", "two"])
        if "cells" in example:
            data[name] = example.pop("cells")
            entry["cells"] = f"data.cells.{name}"
        game["boards"].append({**entry, **example})
    if data:
        game["data"] = {"cells": "cells.yaml"}
        files["cells.yaml"] = yaml.safe_dump(data, allow_unicode=True).encode()
    game["stats"] = {}
    for kind in stats_kinds.in_order():  # every kind of statistic, as it declares itself
        game["stats"].update(kind.EXAMPLE)
        for table, value in getattr(kind, "EXAMPLE_DATA", {}).items():
            game.setdefault("data", {})[table] = f"{table}.yaml"
            files[f"{table}.yaml"] = yaml.safe_dump(value, allow_unicode=True).encode()
    write_game(project, game_id, game, cards, layouts, files)
    return game_id


def _png() -> bytes:
    import io
    from PIL import Image
    data = io.BytesIO()
    Image.new("RGB", (60, 40), "teal").save(data, "PNG")
    return data.getvalue()


def _hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def _rgb_operators(path: Path) -> set[str]:
    found = set()
    with pikepdf.open(path) as pdf:
        streams = [page for page in pdf.pages]
        for page in pdf.pages:
            for _, xobject in (page.Resources.get("/XObject") or {}).items():
                if xobject.get("/Subtype") == "/Form":
                    streams.append(xobject)
        for stream in streams:
            for _, op in pikepdf.parse_content_stream(stream):
                if str(op) in ("rg", "RG"):
                    found.add(str(op))
    return found


def _located(lines: list[str]) -> bool:
    return all(re.match(r"[^:]+:\d+:\d+: (error|warning|エラー|警告): ", line)
               or " FAILED: " in line or ": ok: " in line
               or line.startswith(("wrote ", "skipped ", "nothing "))
               or "errors," in line for line in lines)


def _counted(module, ran: set):
    """A check's run that notes that it ran."""
    def run(game, report):
        ran.add(module.NAME)
        return checked(game, report)
    checked = module.run
    return run


@pytest.mark.parametrize("cell", _cells(), ids=lambda c: "-".join(c))
def test_every_cell_builds_and_reads_back_or_is_a_located_error(cell, project, cardgen,
                                                                monkeypatch):
    shape, font, lang, duplex = cell
    game = _game(project, cell)
    ran: set[str] = set()
    for module in validate.CHECKS.values():  # every registered check runs on every cell
        monkeypatch.setattr(module, "run", _counted(module, ran))
    run = cardgen("validate", game)
    assert ran == set(validate.CHECKS)
    assert run.code in (0, 1), run.lines  # never an internal error (3)
    assert "internal error" not in run.err and "Traceback" not in run.err
    if duplex == "mixed" and shape != "standee":  # one backs file cannot be turned two ways
        # (said where it is set); a standee's strip is folded, not turned: it has no backs
        assert run.code == 1
        assert any(re.search(r"game\.yaml:\d+:\d+: error: .*(long|short)-edge.*(long|short)-edge",
                             line)
                   for line in run.lines), run.lines
        return
    assert run.code == 0, run.lines
    flags = FLAGS
    out = project / "output" / game
    built = cardgen("build", game, *flags, "--dpi", "100")
    assert built.code == 0, built.lines
    assert _located([line for line in built.lines if ": error: " in line or ": warning: " in line])
    first = _hashes(out)
    assert f"{game}-fronts.pdf" in first and f"{game}-backs.pdf" in first
    assert f"{game}-rulebook.pdf" in first and f"{game}-stats.pdf" in first
    assert {f"{game}-board-b-{name}.pdf" for name in boards.SHAPES} <= set(first), sorted(first)
    # a cache never changes an outcome: warm, then after validate, the same bytes
    assert cardgen("build", game, *flags, "--dpi", "100").code == 0
    assert _hashes(out) == first
    assert cardgen("validate", game).code == 0
    assert cardgen("build", game, *flags, "--dpi", "100").code == 0
    assert _hashes(out) == first
    if shape in ("circle", "hex"):  # a token's picture is transparent outside its cut line
        from PIL import Image
        with Image.open(out / "png/deck0/one-front.png") as im:
            assert im.mode == "RGBA" and im.getpixel((1, 1))[3] == 0
            assert im.getpixel((im.width // 2, im.height // 2))[3] == 255
    key, value = _variant(cell)  # the CMYK profile with one key changed
    variant = project / "layouts/exports/variant.yaml"
    variant.write_text(yaml.safe_dump({**_BASE, key: value}, allow_unicode=True), "utf-8")
    for profile in [*PROFILES, "variant"]:
        exported = cardgen("export", game, "--profile", profile)
        assert exported.code in (0, 1), exported.lines
        assert "internal error" not in exported.err
        # (said in the game's language: a cell's game may say lang: ja)
        problems = [line for line in exported.lines if re.search(r": (error|warning|エラー|警告): ",
                                                                 line)]
        assert _located(problems), problems
        if exported.code == 1:  # a profile that cannot take the shape says so, located
            assert any(re.search(r": (error|エラー): ", line) for line in problems), exported.lines
            continue
        folder = out / f"export-{profile}"
        assert (folder / "manifest.json").is_file()
        taken = yaml.safe_load((project / "layouts/exports" / f"{profile}.yaml").read_text("utf-8"))
        assert (folder / "rulebook.pdf").is_file() == (taken.get("rulebook") == "single-pages")
        assert {p.name for p in folder.glob("board-*")} == (
            {f"board-b-{name}.pdf" for name in boards.SHAPES} if taken.get("boards") else set())
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        assert manifest.get("fillers") == {"deck0": 1}, manifest.get("fillers")  # not ordered
        if profile in CMYK or profile == "variant" and (key, value) != ("color", "rgb"):
            for pdf in folder.rglob("*.pdf"):
                assert not _rgb_operators(pdf), pdf.name
    kit = _kit(cell)  # the print-and-play kit, its layout and ink saver turning with the cells
    made = cardgen("pnp", game, "--paper", kit["paper"], "--layout", kit["layout"],
                   *(["--ink-saver"] if kit["ink_saver"] else []))
    assert made.code == 0 and "internal error" not in made.err, made.lines
    pdf = next((out / "pnp").glob(f"{game}-pnp-{kit['paper'].lower()}*.pdf"))
    with pikepdf.open(pdf) as document:
        assert len(document.pages) > 2  # the cover, the sheets, the boards, the rulebook
        with document.open_outline() as outline:
            assert outline.root[0].title == {"en": "Contents and how to print",  # the game's
                                              "ja": "内容物と印刷のしかた"}[lang]  # language
    stats = cardgen("stats", game, "--format", "json")
    assert stats.code == 0, stats.lines
    counted = json.loads(stats.out)
    assert all(counted[kind.NAME] for kind in stats_kinds.in_order()), counted  # each kind
    other = project.parent / "other"  # the same game elsewhere: no changes, and --visual
    shutil.rmtree(other, ignore_errors=True)
    shutil.copytree(project, other, symlinks=True, ignore=shutil.ignore_patterns("output"))
    diff = cardgen("diff", "--against", str(other), "--visual", game)
    said = {"en": "no changes", "ja": "変更なし"}[lang]  # in the game's language (lang:)
    assert diff.code == 0 and diff.out.splitlines() == [f"{game}: {said}"], diff.lines
    assert (out / f"{game}-changes.pdf").is_file()
    from generator.load import Project
    from generator.serve import Preview, build_preview, picture
    preview = Preview()
    build_preview(Project.find(project), game, preview, dpi=40)  # the preview page's pictures
    assert preview.ok and preview.cards and all(
        picture(preview, c[side])[:4] == b"\x89PNG" for c in preview.cards
        for side in ("front", "back")) and all(preview.images.values())


def test_the_safe_area_check_sees_every_element(project, cardgen):
    """Each element type of the registry, placed 1 mm from the trim, is named by the export's
    safe-area warning, content or decoration (a frame is cut as text is); the background
    that runs to the trim line is not."""
    items = [{"name": "ground", "type": "rect", "fill": "#f0e0c0"}]
    for i, (name, module) in enumerate(elements.TYPES.items()):
        items.append({"name": f"e-{name}", "type": name, "x": "1mm", "y": f"{1 + i * 6.5}mm",
                      "width": "6mm", "height": "4mm", **module.EXAMPLE,
                      **({"fill": None} if name == "rect" else {}),
                      **({"size": "5pt"} if name == "text" else {})})
        if name == "qr":
            items[-1].update(width="12mm", height="12mm", y="20mm", x="40mm",
                             background="none")
    items = [{k: v for k, v in e.items() if v is not None} for e in items]
    write_game(project, "safe", {"title": "safe", "icons": {"coin": {"glyph": "●"}},
                                 "decks": [{"id": "main", "front": "safe-front"}]},
               [{"id": "one", "name": "One"}],
               {"safe-front": {"size": "meishi", "elements": items}},
               {"art.png": _png()})
    run = cardgen("export", "safe", "--profile", "jp-print")
    assert run.code == 0, run.lines
    warned = {m.group(1) for line in run.lines
              for m in [re.search(r"element 'e-(\w+)' comes .* from the trim", line)] if m}
    # every type but the QR code (placed inside, below) and the shapes drawn here with no
    # fill or outline (no ink at all)
    assert warned == set(elements.TYPES) - {"qr", "rect", "polygon"}, (warned, run.lines)
    assert not any("element 'ground'" in line for line in run.lines if "[safe-area]" in line)
    # the QR code, 40 mm from the left, is inside the safe area: moved to 1 mm, it is seen
    layout = project / "layouts/safe-front.yaml"
    layout.write_text(layout.read_text("utf-8").replace("x: 40mm", "x: 1mm"), "utf-8")
    run = cardgen("export", "safe", "--profile", "jp-print")
    assert any("element 'e-qr' comes" in line for line in run.lines), run.lines


# -- random games composed from the registries ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_boxes = st.sampled_from(["30%", "35%", "40%", "25%", "45%", "0mm", "50% - 4mm", "2mm"])
_sizes = st.sampled_from(["12%", "20%", "30%", "100%", "5mm", "25%"])


@st.composite
def _element(draw, name: str):
    module = elements.TYPES[name]
    element = {"name": f"e-{name}", "type": name, **module.EXAMPLE,
               "x": draw(_boxes), "y": draw(_boxes), "width": draw(_sizes),
               "height": draw(_sizes)}
    for key, values in (("rotate", st.sampled_from([0, 15, 90, -30])),
                        ("opacity", st.sampled_from([1, 0.5])),
                        ("bleed", st.booleans()),
                        ("stroke", st.sampled_from(["#101010", "none"]))):
        if draw(st.booleans()):
            element[key] = draw(values)
    return element


@st.composite
def _games(draw):
    kinds = draw(st.lists(st.sampled_from(sorted(elements.TYPES)), min_size=1, max_size=5,
                          unique=True))
    return (draw(st.sampled_from(SHAPES)), draw(st.sampled_from(FONTS)),
            draw(st.sampled_from(LANGS)), draw(st.sampled_from(DUPLEX[:-1])),
            [draw(_element(k)) for k in kinds],
            draw(st.lists(st.sampled_from(OPTIONS), unique=True)),
            draw(st.sampled_from(PROFILES)))


@settings(max_examples=300 if FULL else 25, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(game=_games())
def test_property_random_games_from_the_registries_never_fail_inside(project, game):
    """Random element types in random boxes on random shapes, in random fonts and languages,
    built with random outputs and exported with a random profile: located problems or a
    clean build, never an internal error."""
    from generator.load import Project
    from generator.pipeline import build, check, export, lay_out
    shape, font, lang, duplex, items, options, profile = game
    shutil.rmtree(project / "output", ignore_errors=True)
    shutil.rmtree(project / "cards/matrix", ignore_errors=True)
    _game(project, (shape, font, lang, duplex))
    layout = project / "layouts/matrix-front.yaml"
    layout.write_text(yaml.safe_dump({"size": _size(shape), "elements": [
        {"name": "ground", "type": "rect", "fill": "#f0e0c0"}, *items]}, allow_unicode=True),
        "utf-8")
    root = Project.find(project)
    outcome = check(root, "matrix")
    lay_out(outcome)
    assert all(p.location.file for p in outcome.report.problems), outcome.report.problems
    if outcome.failed(strict=False):
        return
    built = build(root, "matrix", BuildOptions(dpi=50, **{o: True for o in options}))
    assert not built.failed(strict=False), built.report.problems
    exported, folder = export(root, "matrix", profile)
    assert all(p.location.file for p in exported.report.problems), exported.report.problems
