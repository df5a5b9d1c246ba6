"""A text's paragraphs are broken one by one, a paragraph seen again reuses its lines
(textflow/breaking.py, for speed), and such a line set again at the same place reuses its
runs (placing.place_horizontal), as does a line of one font and colour seen again in any text
(placing._RUNS): the lines placed must be those of breaking the whole text at once and
placing every line anew, for every card text of the shipped games and the benchmark's texts,
at several widths, with and without the settings that change breaking. What breaking reads
faster (the squeezable room's sums, ICU's units by offsets) is what it read before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

GAMES = ("lastdance", "odoriko", "dernier-peuple", "vampire-band")
SIZE = 8.0


def _texts(project) -> list[str]:
    """Every text value of every card of the shipped games that holds a line end, and the
    benchmark deck's bodies (two of three paragraphs shared between cards)."""
    from generator.load import Project
    from generator.pipeline import check
    found: list[str] = []

    def walk(value):
        if isinstance(value, str) and "\n" in value.strip():
            found.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for game in GAMES:
        checked = check(Project.find(project), game).game
        assert checked is not None
        for deck in checked.decks:
            for card in deck.cards:
                walk(dict(card.fields))
    found += [synthetic.card(n, True)["body"] for n in range(12)]
    found += ["「開始」。\n\n（終わり）、3～5枚\nHyphenation of extraordinarily long words.\n"]
    return found


@pytest.mark.parametrize("settings", [
    {}, {"phrase": True}, {"hang": True}, {"names": True}, {"hyphenate": "en_US"},
    {"grid": True}, {"split": False}])
def test_paragraph_by_paragraph_breaks_as_the_whole_text(project, monkeypatch, settings):
    from generator.colors import parse_color
    from generator.load import Project
    from generator.pipeline import check
    from generator.textflow import breaking, placing
    from generator.textflow.markup import Style, parse, plain_of
    from generator.textflow.placing import Box, place_horizontal

    game = check(Project.find(project), "lastdance").game
    texts = _texts(project)
    assert len(texts) > 20

    def placed(text: str, width: float):
        atoms = parse(text, Style(game.fonts["gothic"], False, (0, 0, 0)), {}, {}, game.fonts,
                      parse_color, lambda path: 1.0)
        assert atoms.plain in (None, plain_of(atoms))  # what parse says of its atoms is so
        assert atoms.style in (None, *{(a.font, a.color) for a in atoms})
        assert atoms.style is None or len({(a.font, a.color) for a in atoms}) == 1
        lines = breaking.break_lines(atoms, SIZE, width, False, **settings)
        if lines is None:
            return None
        return place_horizontal(lines, SIZE, SIZE * 1.5, Box(0, 0, width, 500), "justify",
                                "top", game.fonts["gothic"].regular)

    widths = (40.0, 90.0, 160.0, 400.0)
    placing._PLACED.clear()
    placing._RUNS.clear()
    by_paragraph = [[placed(t, w) for w in widths] for t in texts for _ in range(3)]  # (again:
    assert breaking._PARAGRAPHS  # the second time from the kept paragraphs, the third from
    assert placing._PLACED  # their placed runs)
    assert placing._RUNS  # (a line of a distinct text seen again: its runs kept)
    monkeypatch.setattr(breaking, "_by_paragraph", lambda atoms, plain, s: breaking._broken(
        atoms, s[0], s[1], False, *s[2:]))
    monkeypatch.setattr(placing, "_shared_runs", placing._line_runs)
    whole = [[placed(t, w) for w in widths] for t in texts for _ in range(3)]
    assert by_paragraph == whole


def test_the_squeezable_rooms_sums_are_the_running_sums_of_every_index():
    # breaking._Sums keeps the running sums only where a blank is (most atoms have none):
    # they must be the very floats of adding every index's values in turn.
    import random
    from itertools import accumulate

    from generator.textflow.breaking import _Sums
    rng = random.Random(62)
    for _ in range(2000):
        n = rng.randint(1, 60)
        lists = [[rng.choice([0.0, 0.0, 0.0, -0.0, 0.5, 0.125, 1 / 3, rng.random() * 3])
                  for _ in range(n)] for _ in range(rng.randint(1, 4))]
        every = [0.0, *accumulate(map(sum, zip(*lists)))]
        sums = _Sums(lists)
        assert [sums.before(i) for i in range(n + 1)] == every


def test_icu_units_by_offsets_are_its_units_by_strings():
    # opportunities._unit_bounds reads ICU's UTF-16 offsets where no character is beyond the
    # BMP: the units must be those of ICU's own strings, and beyond the BMP too.
    import random

    from generator.textflow.opportunities import _STRICT, LineBreaker, _unit_bounds
    rng = random.Random(62)
    letters = "あいう漢字「」、。ABC abc123 -—😀𠮷\u200b\u3000"
    texts = ["", "手札から1枚捨てて、カードを2枚引く。Draw two cards. #12", "𠮷野家で😀。ok"]
    texts += ["".join(rng.choice(letters) for _ in range(rng.randint(1, 30))) for _ in range(500)]
    for text in texts:
        at, units = 5, []
        for unit in LineBreaker(text, _STRICT) if text else ():
            units.append((at, at + len(unit)))
            at += len(unit)
        assert [u for group in _unit_bounds(text, 5, False) for u in group] == units, text
