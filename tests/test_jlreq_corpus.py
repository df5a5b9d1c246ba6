"""cardgen's Japanese line composition against reference figures (issue 59, item 7).

tests/reference/jlreq/corpus.yaml holds paragraphs that each exercise a rule of JLREQ, with
where their glyphs stand and how their lines break, as JLREQ's rules give them and as
Chromium printed the same paragraphs (measured once, stored with their source; the tests
never run a reference engine). Each paragraph is set on a card by cardgen and read back from
the PDF; each figure must hold within 0.05 em, and each departure named in the data (a
reference cardgen does not follow, with why) must still be one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from test_layout_engine import build
from test_line_adjustment import glyph_rows

CORPUS = yaml.safe_load((Path(__file__).parent / "reference/jlreq/corpus.yaml")
                        .read_text("utf-8"))["paragraphs"]
SIZE = 10.0  # pt, as the corpus says
TOLERANCE = 0.05  # em


def set_paragraph(project, cardgen, entry) -> tuple[list[str], dict]:
    """The paragraph set by cardgen: its lines (full-size glyphs, row by row) and, for each
    (character, is a reading), the x of its glyphs in reading order, in ems from the first
    line's first glyph."""
    pdf, _ = build(project, cardgen, f"""
        size: meishi
        elements:
          - name: t
            type: text
            text: {json.dumps(entry["text"], ensure_ascii=False)}
            x: 2mm
            y: 2mm
            width: {entry["width"] * SIZE}pt
            height: 45mm
            size: {SIZE}pt
            font: {entry["font"]}
            align: {entry.get("align", "left")}
    """)
    rows = [row for _, row in glyph_rows(pdf)]
    body = [row for row in rows if abs(row[0][2] - SIZE) < 0.01]
    origin = body[0][0][0]
    found: dict[tuple[str, bool], list[float]] = {}
    for row in rows:
        reading = row[0][2] < SIZE * 0.75
        for x, ch, _ in row:
            found.setdefault((ch, reading), []).append((x - origin) / SIZE)
    return ["".join(g[1] for g in row) for row in body], found


@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_the_corpus_paragraph_is_set_as_its_references_say(project, cardgen, entry):
    lines, found = set_paragraph(project, cardgen, entry)
    assert lines == entry["lines"], (entry["rule"], lines)
    for figure in entry.get("figures", []):
        xs = found.get((figure["char"], figure.get("ruby", False)), [])
        nth = figure.get("nth", 0)
        assert nth < len(xs), (entry["id"], figure)
        assert xs[nth] == pytest.approx(figure["x"], abs=TOLERANCE), (entry["rule"], figure)
    for departure in entry.get("departures", []):
        xs = found[(departure["char"], departure.get("ruby", False))]
        assert abs(xs[departure.get("nth", 0)] - departure["x"]) > TOLERANCE, \
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
