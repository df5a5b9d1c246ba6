"""Printable margins: on every sheet preset cardgen ships, nothing prints (no crop mark, no
card, no bleed) within the margin the preset says the printer cannot print, read back from
rasters of the printed pages; a preset that cannot keep that promise is the bad-input
catalogue's (sheet-marks-where-nothing-prints, sheet-cards-where-nothing-prints)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import write_game
from pdfcheck import Raster

REPO = Path(__file__).resolve().parent.parent
PRESETS = sorted(p.stem for p in (REPO / "layouts/sheets").glob("*.yaml"))


@pytest.mark.parametrize("name", PRESETS)
def test_nothing_prints_where_the_printer_cannot(name, project, cardgen):
    from generator.model import DEFAULT_UNPRINTABLE
    from generator.units import parse_length, to_mm
    preset = yaml.safe_load((REPO / f"layouts/sheets/{name}.yaml").read_text("utf-8"))
    unprintable = to_mm(parse_length(preset["unprintable"])) if "unprintable" in preset \
        else to_mm(DEFAULT_UNPRINTABLE)
    card = preset.get("card") or ["63mm", "88mm"]
    layout = {"size": [card[0], card[1]],
              "elements": [{"name": "ground", "type": "rect", "fill": "#203060", "bleed": True}]}
    write_game(project, "edges", {"title": "edges", "decks": [
        {"id": "d", "front": "edges-face", "back": "edges-face", "sheet": name}]},
        [{"id": f"c{i}", "name": f"c{i}"} for i in range(12)], {"edges-face": layout})
    run = cardgen("build", "edges", "-q")
    assert run.code == 0, run.lines
    for pdf in ("edges-fronts.pdf", "edges-backs.pdf"):
        raster = Raster(project / f"output/edges/{pdf}", 0, dpi=150)
        px = raster.px_per_mm
        band = int(unprintable * px) - 1  # (the last pixel may hold a line's antialiased edge)
        W, H = raster.image.size
        for box in ((0, 0, W, band), (0, H - band, W, H), (0, 0, band, H), (W - band, 0, W, H)):
            strip = raster.image.crop(box).convert("L")
            assert strip.getextrema()[0] > 235, (name, pdf, box)  # white: nothing printed
        assert raster.image.convert("L").getextrema()[0] < 100  # and something printed


def test_nine_us_poker_cards_still_fit_plain_letter(project, cardgen):
    """Three rows of 3.5 in cards leave 6.35 mm above and below on Letter: the preset's
    marks and its unprintable margin fit in it, so the sheet holds nine, not six."""
    write_game(project, "us", {"title": "us", "decks": [
        {"id": "d", "front": "us-face", "back": "us-face", "sheet": "plain-letter"}]},
        [{"id": f"c{i}"} for i in range(9)],
        {"us-face": {"size": ["2.5in", "3.5in"], "elements": [
            {"name": "ground", "type": "rect", "fill": "#203060", "bleed": True}]}})
    assert cardgen("build", "us", "-q").code == 0
    guide = (project / "output/us/us-print-guide.txt").read_text("utf-8")
    assert "3 x 3 cards of 63.5 x 88.9 mm" in guide and "Cards: 9 on 1 sheet." in guide
