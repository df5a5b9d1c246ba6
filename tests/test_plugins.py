"""Extension points are registries: a board shape, an export format, a check and a statistic
are each one module.

Each test writes a new one as a module of a temporary package, registers what that
package holds through the registry's own discovery, and uses it as a designer would,
from game.yaml and a layout file, reading the real output back.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
import textwrap
from pathlib import Path

import pypdf
import pytest

STRIP = '''
"""strip: a deck's cards in one row, `gap` apart (a shape written for the test)."""
from dataclasses import dataclass

from generator.boards.base import BoardFace, ground, positive
from generator.primitives import Face, Group, Text
from generator.units import mm

NAME = "strip"
CELLS = False
SCHEMA = {"properties": {"gap": {"$ref": "cardgen:common#/$defs/length"},
                         "caption": {"type": "string"}}}


@dataclass(frozen=True)
class Spec:
    gap: float = mm(2)
    caption: str = "STRIP"


def resolve(layout, entry):
    return Spec(layout.length("gap", Spec.gap), layout.raw("caption", Spec.caption))


def check(board, game, report):
    positive(board, board.spec.gap, "gap", report)


def drawable(board):
    return bool(board.cards) and board.spec.gap > 0


def cell_box(board):
    return None


def lay_out(board, tiles, title_font, cell_face):
    faces = [tiles[c] for c in board.cards]
    gap, m = board.spec.gap, board.margin
    width = 2 * m + sum(f.width for f in faces) + gap * (len(faces) - 1)
    height = 2 * m + max(f.height for f in faces) + mm(10)
    items, x, centres = [ground(board, width, height)], m, []
    for face in faces:
        items.append(Group(face.items, dx=x, dy=m, clip=(0, 0, face.width, face.height)))
        centres.append((x + face.width / 2, m + face.height / 2))
        x += face.width + gap
    items.append(Text(width / 2, height - m - mm(6), board.spec.caption, title_font, 12,
                      (0, 0, 0), anchor="middle"))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0, 0.0)
'''


def _registered(tmp_path: Path, package: str, name: str, text: str, registry):
    """The plug-in `text`, written as module `name` of a temporary package, found by the
    registry's discovery and registered; unregistered again when the test ends."""
    from generator.registry import discover
    folder = tmp_path / "plugins" / package
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", "utf-8")
    (folder / f"{name}.py").write_text(textwrap.dedent(text), "utf-8")
    sys.path.insert(0, str(tmp_path / "plugins"))
    try:
        imported = importlib.import_module(package)
    finally:
        sys.path.pop(0)
    found = discover(imported.__path__, imported.__name__)
    assert list(found) == [name]
    registry.register(found[name])
    yield found[name]
    registry.unregister(name)
    sys.modules.pop(f"{package}.{name}", None)
    sys.modules.pop(package, None)


@pytest.fixture
def strip_shape(tmp_path):
    from generator import boards
    yield from _registered(tmp_path, "test_shapes", "strip", STRIP, boards)


def _strip_game(project: Path, caption: str = "STRIP", extra: str = "") -> None:
    (project / "layouts/boards/test-strip.yaml").write_text(
        f"shape: strip\ngap: 4mm\ncaption: {caption}\npapers: [A3]\n{extra}", "utf-8")
    text = (project / "cards/lastdance/game.yaml").read_text("utf-8")
    (project / "cards/lastdance/game.yaml").write_text(
        text + "boards:\n  - {id: row, layout: test-strip, deck: "
        + _first_deck(project) + ", cards: [" + ", ".join(_first_cards(project)) + "]}\n",
        "utf-8")


def _first_deck(project: Path) -> str:
    import yaml
    return yaml.safe_load((project / "cards/lastdance/game.yaml").read_text("utf-8"))[
        "decks"][0]["id"]


def _first_cards(project: Path) -> list[str]:
    from generator.load import Project
    from generator.pipeline import check
    outcome = check(Project.find(project), "lastdance")
    return [c.id for c in outcome.game.decks[0].cards[:3]]


def test_a_board_shape_is_one_module(project, cardgen, strip_shape):
    assert "boards" not in (project / "cards/lastdance/game.yaml").read_text("utf-8")
    _strip_game(project, caption="A-ROW-OF-THREE")
    run = cardgen("build", "lastdance")
    assert run.code == 0, run.lines
    pdf = pypdf.PdfReader(project / "output/lastdance/lastdance-board-row.pdf")
    assert len(pdf.pages) == 1
    assert "A-ROW-OF-THREE" in pdf.pages[0].extract_text()
    width_mm = float(pdf.pages[0].mediabox.width) / 72 * 25.4
    assert round(width_mm) == 420 or round(width_mm) == 297  # on A3, either way up


def test_a_new_shape_has_its_own_keys_and_checks(project, cardgen, strip_shape):
    _strip_game(project, extra="rows: 3\n")  # a key of grid and hex, not of a strip
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert any("test-strip.yaml:5:1: error: unknown key 'rows' (not a key of a strip board)"
               in line for line in run.lines), run.lines
    (project / "layouts/boards/test-strip.yaml").write_text(
        "shape: strip\ngap: 0mm\npapers: [A3]\n", "utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert any("its layout 'test-strip' gives a gap of 0 mm or less; a strip needs a gap of "
               "more than 0 mm [board]" in line for line in run.lines), run.lines


def test_an_unregistered_shape_is_not_a_shape(project, cardgen):
    (project / "layouts/boards/test-strip.yaml").write_text("shape: strip\n", "utf-8")
    text = (project / "cards/lastdance/game.yaml").read_text("utf-8")
    (project / "cards/lastdance/game.yaml").write_text(
        text + "boards:\n  - {id: row, layout: test-strip}\n", "utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert any("shape must be one of areas, grid, hex, map, ring, track, not 'strip'" in line
               for line in run.lines), run.lines


TIFF = '''
"""tiff: one RGB TIFF per face at a template's pixel size (a format written for the test)."""
import io

NAME = "tiff"
EXTENSION = "tif"
RASTER = True
PIL = "TIFF"
DEFAULTS = {"color": "rgb", "marks": "none", "bleed": "0mm"}
SCHEMA = {"required": ["sizes"], "properties": {"color": {"const": "rgb"}}}


def encode(image, dpi):
    data = io.BytesIO()
    image.save(data, "TIFF", dpi=(dpi, dpi), compression="tiff_lzw")
    return data.getvalue()
'''


@pytest.fixture
def tiff_format(tmp_path):
    from generator import formats
    yield from _registered(tmp_path, "test_formats", "tiff", TIFF, formats)


def test_an_export_format_is_one_module(project, cardgen, tiff_format):
    import json
    from PIL import Image
    tgc = (project / "layouts/exports/tgc.yaml").read_text("utf-8")
    (project / "layouts/exports/test-tiff.yaml").write_text(
        tgc.replace("format: png", "format: tiff"), "utf-8")
    run = cardgen("export", "odoriko", "--profile", "test-tiff")
    assert run.code == 0, run.lines
    folder = project / "output/odoriko/export-test-tiff"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert manifest["format"] == "tiff" and manifest["files"]
    for row in manifest["files"]:
        assert row["file"].endswith(".tif")
        with Image.open(folder / row["file"]) as image:
            assert image.format == "TIFF" and image.size == (825, 1125) and image.mode == "RGB"
    # what the format requires of a profile is checked where the profile says it
    (project / "layouts/exports/test-tiff.yaml").write_text(
        "format: tiff\ncolor: cmyk\n", "utf-8")
    run = cardgen("export", "odoriko", "--profile", "test-tiff")
    assert run.code == 1
    assert any("missing required key 'sizes'" in line for line in run.lines), run.lines
    assert any("color must be 'rgb', not 'cmyk'" in line for line in run.lines), run.lines


# The drawing-primitive protocol: every primitive draws, bounds, recolours and digests
# itself, and nothing else is admitted (primitives.register).

def _primitive_kinds():
    from generator import elements, primitives  # noqa: F401  (elements registers its own)
    return list(primitives.PRIMITIVES)


def test_every_registered_primitive_has_the_whole_protocol():
    from generator import primitives
    kinds = _primitive_kinds()
    names = {k.__name__ for k in kinds}
    assert {"Rect", "Ellipse", "Polygon", "Line", "Text", "Image", "Group", "Block",
            "QRModules"} <= names, names
    for kind in kinds:
        for method in primitives.PROTOCOL:
            assert callable(getattr(kind, method)), (kind, method)
        assert isinstance(kind.CONTENT, bool)


def test_a_primitive_without_part_of_the_protocol_cannot_be_registered():
    from dataclasses import dataclass
    from generator import primitives

    @dataclass(frozen=True)
    class Star:  # draws, but has no bounds: the safe-area check would pass over it
        x: float
        CONTENT = False

        def draw(self, c, pen): ...
        def recolored(self, conversion): return self
        def digest(self, shared=None): return b""
        def weight(self): return 40

    with pytest.raises(primitives.NotAPrimitive, match="Star lacks bounds"):
        primitives.register(Star)
    assert Star not in primitives.PRIMITIVES


def test_an_element_type_module_must_declare_what_it_is():
    import types
    from generator import elements
    module = types.ModuleType("generator.elements.star")
    module.NAME, module.SCHEMA = "star", {"properties": {}}
    module.lay_out = lambda e: []
    with pytest.raises(elements.NotAnElementType, match="CONTENT, BLEEDS, EXAMPLE"):
        elements._checked({"star": module})
    module.CONTENT, module.BLEEDS, module.EXAMPLE = True, False, {}
    assert elements._checked({"star": module})["star"] is module


def test_every_element_type_makes_only_registered_primitives(project):
    """Lay out a card with an element of every registered type and walk what it drew: each
    item is a registered primitive (so drawing, identity, export colour and the checks all
    know it), its bounds are found, and its CMYK conversion keeps no RGB colour."""
    from PIL import Image
    from generator import elements, fonts, primitives
    from generator.load import Project
    from generator.pipeline import check, lay_out
    import io
    from conftest import write_game
    art = io.BytesIO()
    Image.new("RGB", (40, 30), "teal").save(art, "PNG")
    layout = [{"name": f"e-{kind}", "type": kind, "x": "5mm", "y": "5mm", "width": "40mm",
               "height": "40mm", "stroke": "#0000ff", **module.EXAMPLE}
              for kind, module in elements.TYPES.items()]
    write_game(project, "every", {"title": "every", "icons": {"coin": {"glyph": "●"}},
                                  "decks": [{"id": "main", "front": "every-front"}]},
               [{"id": "one", "name": "One"}],
               {"every-front": {"size": "meishi", "elements": layout}},
               {"art.png": art.getvalue()})
    outcome = check(Project.find(project), "every")
    faces = lay_out(outcome)
    assert faces is not None, outcome.report.problems

    class ToCMYK:
        def color(self, color, use="fill", area=0.0):  # primitives.PROTOCOL's conversion
            assert use in ("text", "line", "fill") and area >= 0
            return None if color is None else (0.0, 0.0, 0.0, 1.0)

        def image(self, item):
            return item
    seen = set()

    def walk(items):
        for item in items:
            assert type(item) in primitives.PRIMITIVES, type(item)
            seen.add(type(item).__name__)
            if type(item) in (primitives.Group, primitives.Block):
                walk(item.items)
                continue
            assert item.bounds(fonts) is not None, item
            converted = item.recolored(ToCMYK())
            colors = [getattr(converted, k) for k in ("fill", "stroke", "color")
                      if hasattr(converted, k)]
            assert all(c is None or len(c) == 4 for c in colors), converted
            assert item.digest(None) and item.weight() > 0
    walk(faces.decks[0].fronts["one"].items)
    assert {"Rect", "Ellipse", "Polygon", "Line", "Text", "Image", "QRModules"} <= seen, seen


EVEN = '''
"""pairs: a game whose cards print in pairs (a check written for the test)."""
from generator.i18n import N_, _

NAME = "pairs"
NAMES = ("even-copies",)
ORDER = 65  # after the drafts, before the game's own checks
DOC = N_("every card prints an even number of copies")


def run(game, report):
    for card in game.cards():
        if card.copies % 2:
            report.warning(_("card '{card}' prints {n} copies, an odd number", card=card.id,
                             n=card.copies), card.locate("copies"), "even-copies",
                           card=card.id, deck=card.deck, field="copies")
'''


@pytest.fixture
def even_check(tmp_path):
    from generator import validate
    yield from _registered(tmp_path, "test_checks", "pairs", EVEN, validate)


def test_a_check_is_one_module(project, cardgen, even_check):
    """A check joins validate from its module: it runs in its order, its problems are
    located and carry what they are about, and it is listed with the others."""
    from generator import validate
    from generator.load import Project
    from generator.pipeline import check
    names = [m.NAME for m in validate.in_order()]
    assert names.index("pairs") == names.index("drafts") + 1
    assert "| pairs | `even-copies` | every card prints an even number of copies |" \
        in validate.table("en")
    outcome = check(Project.find(project), "lastdance")
    odd = [p for p in outcome.report.warnings if p.check == "even-copies"]
    assert odd and all(p.field == "copies" and p.card for p in odd)
    run = cardgen("validate", "lastdance", "--strict")
    assert run.code == 1
    assert any(line.startswith("cards/lastdance/") and ": warning: card '" in line
               and line.endswith(", an odd number [even-copies]") for line in run.lines), run.lines


SPREAD = '''
"""spread: how many copies the most and the fewest printed card of each deck has (a
statistic written for the test)."""
from generator.i18n import _

NAME = "spread"
ORDER = 25  # after the tables, before the odds
FIELD = "spread"
KEY = None  # counted without a declaration
EXAMPLE = {}


def compute(run):
    return tuple((d.id, max(c.copies for c in d.cards), min(c.copies for c in d.cards))
                 for d in run.game.decks if d.cards and run.wanted(d.id))


def words(part):
    return [_("copies of deck {deck}: {low} to {high}", deck=deck, low=low, high=high)
            for deck, high, low in part]


def as_json(part):
    return [{"deck": deck, "most": high, "fewest": low} for deck, high, low in part]


def changes(old, new):
    was = {deck: (high, low) for deck, high, low in old}
    return [f"spread {deck}: {was[deck]} -> {(high, low)}" for deck, high, low in new
            if deck in was and was[deck] != (high, low)]


def blocks(part, stats, chart):
    return [{"kind": "text", "text": str(line)} for line in words(part)]
'''


@pytest.fixture
def spread_statistic(tmp_path):
    from generator import stats
    yield from _registered(tmp_path, "test_statistics", "spread", SPREAD, stats)


def test_a_statistic_is_one_module(project, cardgen, spread_statistic):
    """A kind of statistic joins from its module: computed with the others, in its order,
    in cardgen stats (text and JSON), the preview's Stats view and cardgen diff."""
    import json
    from generator import stats
    from generator.load import Project
    from generator.pipeline import check
    from generator.serve.stats import stats_blocks
    run = cardgen("stats", "lastdance")
    assert run.code == 0, run.lines
    lines = run.out.splitlines()
    spread = [n for n, line in enumerate(lines) if line.startswith("copies of deck ")]
    assert spread and spread[0] > max(n for n, line in enumerate(lines)
                                      if line.startswith("deck ")), lines
    counted = json.loads(cardgen("stats", "lastdance", "--format", "json").out)
    assert list(counted) == ["game", "decks", "tables", "spread", "odds", "dice"]
    assert counted["spread"] and counted["spread"][0]["most"] >= counted["spread"][0]["fewest"]
    outcome = check(Project.find(project), "lastdance")
    computed = stats.compute(outcome.game)
    blocks = stats_blocks(outcome.game, computed)
    assert any(b["kind"] == "text" and b["text"].startswith("copies of deck ") for b in blocks)
    fewer = computed.part("spread")
    moved = stats.changes(computed, dataclasses.replace(
        computed, more=(("spread", tuple((d, h + 1, low) for d, h, low in fewer)),)))
    assert moved and all(line.startswith("spread ") for line in moved)
