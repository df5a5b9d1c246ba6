"""The validator on Last Dance's real data: its invariants, drafts, reports and DRAFT marks."""

from __future__ import annotations

import json

from pdfcheck import reader


def edit(path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path}"
    path.write_text(text.replace(old, new), "utf-8")


def test_real_data_passes_with_only_draft_warnings(project, cardgen):
    run = cardgen("validate", "lastdance")
    assert run.code == 0
    assert [line for line in run.lines if ": error: " in line] == []
    warnings = [line for line in run.lines if ": warning: " in line]
    assert len(warnings) == 14 and all(line.endswith("[draft]") for line in warnings)


def test_one_changed_count_fails_the_invariants_at_the_table(project, cardgen):
    # 4 players: 3 priests instead of 2.
    edit(project / "cards/lastdance/setup.yaml",
         "      priest: 2\n      assertive-young-noble: 3\n",
         "      priest: 3\n      assertive-young-noble: 3\n")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [
        "cards/lastdance/setup.yaml:8:7: error: 4 players: the card counts add up to 17, "
        "not the table's total of 16 [table-adds-up]",
    ]
    assert run.lines[-1] == "lastdance: FAILED: 1 error, 14 warnings"


def test_copies_lowered_below_a_table_fails_within_copies(project, cardgen):
    # With 1 wizard, every table that uses 2 (all of 4 to 7 players) fails, each at its line.
    edit(project / "cards/lastdance/cards.yaml",
         "    name_en: Wizard\n    copies: 3\n", "    name_en: Wizard\n    copies: 1\n")
    run = cardgen("validate", "lastdance")
    errors = [line for line in run.lines if ": error: " in line]
    assert [e for e in errors if e.endswith("[within-copies]")] == [
        f"cards/lastdance/setup.yaml:{line}:15: error: {players} players: the table uses 2 × "
        f"'wizard', but the game has only 1 [within-copies]"
        for line, players in ((16, 4), (30, 5), (45, 6), (61, 7))
    ]
    # 8 players use all cards: the total is now 30, not 32.
    assert ("cards/lastdance/setup.yaml:69:12: error: 8 players: the table must use all game "
            "cards (30), it has 32 [eight-players-use-all]") in errors


def test_json_report(project, cardgen):
    edit(project / "cards/lastdance/rulings.yaml",
         "cards: [foreign-prince, assertive-young-noble, priest]",
         "cards: [foreign-prince, assertive-young-nobel, priest]")
    run = cardgen("validate", "--format", "json", "lastdance")
    assert run.code == 1
    report = json.loads(run.out)
    assert report["errors"] == 1 and report["warnings"] == 14
    (error,) = [p for p in report["problems"] if p["level"] == "error"]
    assert error == {
        "file": "cards/lastdance/rulings.yaml", "line": 28, "col": 29, "level": "error",
        "message": "Q&A q3 names 'assertive-young-nobel', which is not a card of the game",
        "check": "qa-cards-exist",
    }


def test_strict_validate_fails_on_drafts(project, cardgen):
    assert cardgen("validate", "--strict", "lastdance").code == 1


def test_json_says_a_strict_run_with_only_warnings_failed(project, cardgen):
    plain = cardgen("validate", "--format", "json", "lastdance")
    strict = cardgen("validate", "--strict", "--format", "json", "lastdance")
    assert plain.code == 0 and strict.code == 1
    plain, strict = json.loads(plain.out), json.loads(strict.out)
    assert plain["errors"] == 0 and plain["warnings"] > 0 and plain["failed"] is False
    assert strict["errors"] == 0 and strict["strict"] is True and strict["failed"] is True


def test_drafts_print_with_a_draft_mark_and_decided_cards_without(project, cardgen):
    edit(project / "cards/lastdance/cards.yaml",
         "    name_en: Princess\n    copies: 1\n    effect: TBD\n",
         "    name_en: Princess\n    copies: 1\n    effect: 姫は常に表向き。\n")
    run = cardgen("build", "lastdance")
    assert run.code == 0
    assert len([line for line in run.lines if ": warning: " in line]) == 13
    pages = [p.extract_text()
             for p in reader(project / "output/lastdance/lastdance-fronts.pdf").pages]
    # Page 1: ten cards, the Princess decided: nine DRAFT marks.
    assert pages[0].count("DRAFT") == 9
    # Page 4: two Duke's Daughters (drafts) and four blank cards (nothing to decide).
    assert pages[3].count("DRAFT") == 2
