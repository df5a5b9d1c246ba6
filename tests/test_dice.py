"""Dice odds (`stats: dice:`): every total's exact chance against brute force (every way the
dice can fall, counted), in `cardgen stats` text and JSON, the stats PDF, the preview's Stats
view, the rulebook's odds() and dice(), and `cardgen diff` after a revision of the data."""

from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from fractions import Fraction

from pypdf import PdfReader

ROLLS = """  dice:
    - {id: two-dice, name: two dice, dice: 2d6, at_least: [7, 10], exactly: [7], at_most: [4]}
    - {id: three-dice, name: three dice, dice: 3d6, at_least: [15]}
    - {id: attack, name: attack dice, dice: 3, faces: data.attack.faces, at_least: [4]}
    - {id: bonus, name: a d20 and a bonus, dice: 1d20+3}
"""
ATTACK = "faces: [0, 0, 1, 1, 2, 3]\n"


def _with_dice(project, attack: str = ATTACK) -> None:
    folder = project / "cards/lastdance"
    (folder / "attack.yaml").write_text(attack, "utf-8")
    game = (folder / "game.yaml").read_text("utf-8")
    game = game.replace("\nstats:\n", "\nstats:\n" + ROLLS, 1)
    game = game.replace("\ndata:\n", "\ndata:\n  attack: attack.yaml\n", 1)
    assert "attack: attack.yaml" in game and "two-dice" in game
    (folder / "game.yaml").write_text(game, "utf-8")


def _brute(dice: list[tuple[int, ...]], constant: int = 0) -> dict[int, Fraction]:
    """Every way the dice can fall, counted one by one."""
    falls = list(itertools.product(*dice))
    ways = Counter(sum(fall) + constant for fall in falls)
    return {total: Fraction(n, len(falls)) for total, n in ways.items()}


def _json(cardgen) -> dict:
    run = cardgen("stats", "lastdance", "--format", "json")
    assert run.code == 0, run.err
    return {r["id"]: r for r in json.loads(run.out)["dice"]}


def _totals(roll: dict) -> dict[int, Fraction]:
    return {int(v): Fraction(t["numerator"], t["denominator"]) for v, t in roll["totals"].items()}


def test_every_total_is_exact_against_brute_force(project, cardgen):
    _with_dice(project)
    got = _json(cardgen)
    d6 = tuple(range(1, 7))
    attack = (0, 0, 1, 1, 2, 3)
    for roll_id, dice, constant in (("two-dice", [d6] * 2, 0), ("three-dice", [d6] * 3, 0),
                                    ("attack", [attack] * 3, 0),
                                    ("bonus", [tuple(range(1, 21))], 3)):
        expected = _brute(dice, constant)
        assert _totals(got[roll_id]) == expected, roll_id
        for t in got[roll_id]["totals"].values():  # each as a fraction and a decimal
            assert t["fraction"] == f"{t['numerator']}/{t['denominator']}"
            assert abs(t["probability"] - t["numerator"] / t["denominator"]) < 1e-12
        mean = sum(v * p for v, p in expected.items())
        assert Fraction(got[roll_id]["mean"]["fraction"]) == mean
        top = max(expected.values())
        assert got[roll_id]["most_likely"] == sorted(v for v, p in expected.items() if p == top)
    two = _brute([d6] * 2)
    answers = {a["label"]: Fraction(a["numerator"], a["denominator"])
               for a in got["two-dice"]["answers"]}
    assert answers == {"at least 7": sum(p for v, p in two.items() if v >= 7),
                       "at least 10": sum(p for v, p in two.items() if v >= 10),
                       "exactly 7": two[7], "at most 4": sum(p for v, p in two.items() if v <= 4)}
    assert answers["at least 7"] == Fraction(7, 12) and got["two-dice"]["most_likely"] == [7]
    assert got["three-dice"]["most_likely"] == [10, 11]  # a tie: both are said
    three = {a["label"]: Fraction(a["numerator"], a["denominator"])
             for a in got["three-dice"]["answers"]}
    assert three["at least 15"] == Fraction(20, 216)


def test_the_text_says_each_total_and_answer(project, cardgen):
    _with_dice(project)
    run = cardgen("stats", "lastdance")
    assert run.code == 0, run.err
    lines = [line.strip() for line in run.out.splitlines()]
    rolls = lines[lines.index("dice:") + 1:]
    assert rolls[0] == ("two dice (2d6): totals 2 to 12, mean 7, most likely 7 "
                        "(1/6 = 16.67%, 1 in 6.0)")
    assert "7: 1/6 = 16.67%, 1 in 6.0" in rolls and "2: 1/36 = 2.78%, 1 in 36.0" in rolls
    assert "at least 7: 7/12 = 58.33%, 1 in 1.7" in rolls
    assert any(line.startswith("three dice (3d6): totals 3 to 18, mean 10.5, most likely "
                               "10 and 11 (1/8 = 12.50%, 1 in 8.0 each)") for line in rolls)
    assert any(line.startswith("attack dice (3 dice with faces 0, 0, 1, 1, 2, 3): totals 0 "
                               "to 9, mean 3.5") for line in rolls)


def test_the_stats_pdf_and_the_preview_show_the_dice(project, cardgen):
    _with_dice(project)
    assert cardgen("build", "lastdance", "--stats", "-q").code == 0
    reader = PdfReader(project / "output/lastdance/lastdance-stats.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "two dice (2d6)" in text and "at least 7: 7/12 = 58.33%、1.7 回に 1 回" in text  # (ja)
    assert "16.67%" in text  # the bar of 7
    assert "attack dice (3 dice with faces 0, 0, 1, 1, 2, 3)" in text
    from generator.load import Project
    from generator.pipeline import check, statistics
    from generator.serve.stats import stats_blocks
    outcome = check(Project.find(project), "lastdance")
    blocks = stats_blocks(outcome.game, statistics(outcome))
    at = [b.get("text") for b in blocks].index("Dice")
    after = blocks[at + 1:]
    assert after[0]["kind"] == "chart" and after[0]["title"] == "two dice (2d6)"
    assert {"kind": "text", "text": "at least 7: 7/12 = 58.33%, 1 in 1.7",
            "deck": ""} in after


def test_the_rulebook_shows_dice_from_the_data(project, cardgen):
    _with_dice(project)
    book = project / "cards/lastdance/rulebook.md"
    book.write_text(book.read_text("utf-8") + """

# Dice

{% for a in odds('two-dice') %}
- {{ a.label }}: {{ a.percent }} ({{ a.fraction }})
{% endfor %}

{% set r = dice('attack') %}
Attack: mean {{ r.mean }}, most likely {{ r.most_likely | join(' and ') }}.

{{ table(dice('two-dice').totals, ['value', 'fraction', 'percent'], ['total', 'chance', '%']) }}
""", "utf-8")
    assert cardgen("build", "lastdance", "-q").code == 0
    reader = PdfReader(project / "output/lastdance/lastdance-rulebook.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "at least 7: 58.33% (7/12)" in text and "exactly 7: 16.67% (1/6)" in text
    assert "Attack: mean 3.5, most likely 3." in text
    assert "12 1/36 2.78%" in text  # the last row of the table of totals
    book.write_text(book.read_text("utf-8") + "{{ dice('atack') }}\n", "utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert "rulebook: dice: unknown roll 'atack' (did you mean 'attack'?)" in run.out


def test_a_revision_of_the_faces_moves_the_odds_in_diff(project, cardgen):
    _with_dice(project)
    before = project.parent / "before"
    shutil.copytree(project, before, symlinks=True)
    (project / "cards/lastdance/attack.yaml").write_text("faces: [0, 1, 1, 2, 2, 3]\n", "utf-8")
    run = cardgen("diff", "lastdance", "--against", str(before))
    assert run.code == 0, run.err
    stats = [line.strip() for line in run.out.splitlines()]
    assert "dice attack dice: mean 3.5 -> 4.5" in stats
    was = sum(p for v, p in _brute([(0, 0, 1, 1, 2, 3)] * 3).items() if v >= 4)
    now = sum(p for v, p in _brute([(0, 1, 1, 2, 2, 3)] * 3).items() if v >= 4)
    assert f"dice attack dice: at least 4: {float(was) * 100:.2f}% -> {float(now) * 100:.2f}%" \
        in stats


def test_odds_charts_share_one_axis(project, cardgen):
    """Two questions of 0.49 % and 4.18 %: drawn on one axis, the first bar is a tenth of the
    second's length, not half of its own chart."""
    from generator.draw.charts import drawing
    from generator.stats import pictures
    from generator.stats.results import Answer, Stats
    small = Answer("rare", "a rare hand", "", 5, 40, Fraction(49, 10000))
    large = Answer("common", "a common hand", "", 5, 40, Fraction(418, 10000))
    stats = Stats("g", "G", (), answers=(small, large))
    top = pictures.odds_top(stats)
    ends = []
    for answers in pictures.questions(stats):
        chart = next(x for x in drawing(pictures.odds_chart(answers, top), "Helvetica",
                                        400).contents if hasattr(x, "valueAxis"))
        ends.append(chart.valueAxis.valueMax)
    assert ends[0] == ends[1] > 4.18
