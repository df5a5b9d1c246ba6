"""cardgen's Japanese line composition against reference figures (issue 59, item 7).

tests/reference/jlreq/corpus.yaml holds paragraphs that each exercise a rule of JLREQ, with
where their glyphs stand and how their lines break, as JLREQ's rules give them and as
Chromium printed the same paragraphs (measured once, stored with their source; the tests
never run a reference engine). Each paragraph is set on a card by cardgen and read back from
the PDF; each figure must hold within 0.05 em, and each departure named in the data (a
reference cardgen does not follow, with why) must still be one.
"""

from __future__ import annotations

import ctypes
import json
from pathlib import Path

import pypdfium2
import pypdfium2.raw as raw
import pytest
import yaml

from test_layout_engine import build
from test_line_adjustment import glyph_rows

CORPUS = yaml.safe_load((Path(__file__).parent / "reference/jlreq/corpus.yaml")
                        .read_text("utf-8"))["paragraphs"]
SIZE = 10.0  # pt, as the corpus says
TOLERANCE = 0.05  # em


def on_a_card(project, cardgen, entry) -> Path:
    """The PDF of a card with the paragraph in a text box 2 mm from its corner: `width` ems
    wide, and, `vertical`, `height` ems long down its columns."""
    vertical = entry.get("vertical", False)
    pdf, _ = build(project, cardgen, f"""
        size: meishi
        elements:
          - name: t
            type: text
            text: {json.dumps(entry["text"], ensure_ascii=False)}
            x: 2mm
            y: 2mm
            width: {entry["width"] * SIZE}pt
            height: {f"{entry['height'] * SIZE}pt" if vertical else "45mm"}
            size: {SIZE}pt
            font: {entry["font"]}
            vertical: {str(vertical).lower()}
            align: {entry.get("align", "left")}
    """)
    return pdf


def set_paragraph(project, cardgen, entry) -> tuple[list[str], dict]:
    """The paragraph set by cardgen: its lines (full-size glyphs, row by row) and, for each
    (character, is a reading), the x of its glyphs in reading order, in ems from the first
    line's first glyph."""
    if entry.get("vertical"):
        return set_column(project, cardgen, entry)
    rows = [row for _, row in glyph_rows(on_a_card(project, cardgen, entry))]
    body = [row for row in rows if abs(row[0][2] - SIZE) < 0.01]
    origin = body[0][0][0]
    found: dict[tuple[str, bool], list[float]] = {}
    for row in rows:
        reading = row[0][2] < SIZE * 0.75
        for x, ch, _ in row:
            found.setdefault((ch, reading), []).append((x - origin) / SIZE)
    return ["".join(g[1] for g in row) for row in body], found


def em_top() -> float:
    """BIZ UDGothic's ascent over its ascent and descent: from an upright glyph's baseline
    up to the top of its em box, per point of size (as a column stacks its em boxes)."""
    from generator import fonts
    from generator.load import Project
    from generator.pipeline import check
    regular = check(Project.find(), "lastdance").game.fonts["gothic-fixed"].regular
    ascent, descent = fonts.ascent_descent(fonts.ensure(regular), 1000)
    return ascent / (ascent - descent)


def set_column(project, cardgen, entry) -> tuple[list[str], dict]:
    """A vertical paragraph set by cardgen: its columns (right to left, each top to foot,
    a number set across left to right) and, for each character, where the top of its em box
    stands down the column, in ems from the top of the first character's. An upright glyph's
    em box stands from its baseline up by the font's ascent; a glyph turned a quarter turn
    (a Latin run set sideways) has its origin at its top."""
    page = pypdfium2.PdfDocument(str(on_a_card(project, cardgen, entry)))[0].get_textpage()
    x, y, matrix = ctypes.c_double(), ctypes.c_double(), raw.FS_MATRIX()
    seen = []
    for i in range(page.count_chars()):
        ch = page.get_text_range(i, 1)
        if ch.strip():
            raw.FPDFText_GetCharOrigin(page.raw, i, ctypes.byref(x), ctypes.byref(y))
            raw.FPDFText_GetMatrix(page.raw, i, ctypes.byref(matrix))
            turned = abs(matrix.a) < 0.01
            seen.append((ch, x.value, y.value if turned else y.value + em_top() * SIZE))
    columns: list[list[tuple[str, float, float]]] = []
    for glyph in sorted(seen, key=lambda g: -g[1]):  # right to left
        if columns and columns[-1][0][1] - glyph[1] < SIZE:
            columns[-1].append(glyph)
        else:
            columns.append([glyph])
    for column in columns:
        column.sort(key=lambda g: (-round(g[2], 1), g[1]))  # down, then across
    top = columns[0][0][2]
    found: dict[tuple[str, bool], list[float]] = {}
    for column in columns:
        for ch, _, down in column:
            found.setdefault((ch, False), []).append((top - down) / SIZE)
    return ["".join(g[0] for g in column) for column in columns], found


def position(found, figure) -> float:
    """The figure's character's place, from the start of another (`from`) where it says."""
    xs = found.get((figure["char"], figure.get("ruby", False)), [])
    nth = figure.get("nth", 0)
    assert nth < len(xs), figure
    if "from" not in figure:
        return xs[nth]
    return xs[nth] - found[(figure["from"], False)][figure.get("from_nth", 0)]


@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_the_corpus_paragraph_is_set_as_its_references_say(project, cardgen, entry):
    lines, found = set_paragraph(project, cardgen, entry)
    assert lines == entry["lines"], (entry["rule"], lines)
    for figure in entry.get("figures", []):
        assert position(found, figure) == pytest.approx(figure["x"], abs=TOLERANCE), \
            (entry["rule"], figure)
    for departure in entry.get("departures", []):
        assert abs(position(found, departure) - departure["x"]) > TOLERANCE, \
            ("a departure that no longer departs", entry["id"], departure)


def test_every_figure_names_its_source_and_every_departure_why():
    sources = {"jlreq", "chromium"}
    for entry in CORPUS:
        assert entry["rule"] and entry["text"] and entry["lines"]
        for figure in entry.get("figures", []):
            assert figure["source"] in sources, figure
        for departure in entry.get("departures", []):
            assert departure["source"] in sources and len(departure["why"]) > 10, departure
    assert {f["source"] for e in CORPUS for f in e["figures"]} == sources
