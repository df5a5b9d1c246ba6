"""Statistics and draw odds: game.yaml's `stats:` as written (its schema already checked);
what the names mean is checked by the stats stage."""

from __future__ import annotations

from ..declared import DICE, NEED, ODDS, STATS, TABLES, VIEWS
from ..load import LoadedGame
from ..model import (DiceRoll, Question, Requirement, StatsSpec, StatsTable, StatsView,
                     frozen_mapping)


ASKS = ("at_least", "at_most", "exactly")  # the questions a roll of dice answers, in order


def resolve_stats(loaded: LoadedGame) -> StatsSpec:
    """game.yaml's `stats:` as written (its schema already checked), read through its keys'
    declarations (declared.py: each unwritten key its default); what the names mean is
    checked by the stats stage."""
    raw = STATS.written(loaded.game.data.get("stats") or {})
    views = tuple(StatsView(v["deck"], tuple(v["fields"]), v["title"], ("stats", "views", i))
                  for i, v in enumerate(VIEWS.written(v) for v in raw["views"] or ()))
    tables = tuple(StatsTable(t["name"], t["deck"], t["for"], t["label"], t["counts"],
                              ("stats", "tables", i))
                   for i, t in enumerate(TABLES.written(t) for t in raw["tables"] or ()))
    questions = tuple(_question(q, i) for i, q in enumerate(raw["odds"] or ()))
    dice = tuple(_roll(DICE.written(d), i) for i, d in enumerate(raw["dice"] or ()))
    return StatsSpec(views, frozen_mapping(dict(raw["colors"] or {})),
                     frozen_mapping(dict(raw["labels"] or {})), tables, questions,
                     loaded.game.source, dice)


def _question(written: dict, i: int) -> Question:
    q = ODDS.written(written)
    need = []
    for j, asked in enumerate(q["need"]):
        r = NEED.written(asked)  # at_least: 1 where none of the three is written
        exactly = r["exactly"]
        need.append(Requirement(
            tuple(r["cards"] or ()), r["where"],
            exactly if exactly is not None else
            None if "at_most" in asked and "at_least" not in asked else r["at_least"],
            exactly if exactly is not None else r["at_most"],
            ("stats", "odds", i, "need", j), tuple(k for k in ASKS if k in asked)))
    return Question(q["id"], q["question"] if "question" in written else q["id"], q["deck"],
                    str(q["hand"]), tuple(need), q["for"], q["label"], q["counts"],
                    ("stats", "odds", i))


def _roll(d: dict, i: int) -> DiceRoll:
    written, faces = d["dice"], d["faces"]
    custom = faces is not None
    return DiceRoll(
        d["id"] or d["name"], d["name"],
        "" if custom and isinstance(written, int) or written is None else str(written),
        written if custom and isinstance(written, int) else 1,
        tuple(faces) if isinstance(faces, list) else faces,
        tuple((kind, v) for kind in ASKS for v in d[kind] or ()), ("stats", "dice", i))
