"""Statistics and draw odds: game.yaml's `stats:` as written (its schema already checked);
what the names mean is checked by the stats stage."""

from __future__ import annotations


from ..load import LoadedGame
from ..model import (DiceRoll, Question, Requirement, StatsSpec, StatsTable, StatsView,
                     frozen_mapping)


ASKS = ("at_least", "at_most", "exactly")  # the questions a roll of dice answers, in order


def resolve_stats(loaded: LoadedGame) -> StatsSpec:
    """game.yaml's `stats:` as written (its schema already checked); what the names mean is
    checked by the stats stage."""
    raw = loaded.game.data.get("stats") or {}
    views = tuple(StatsView(v["deck"], tuple(v["fields"]), v.get("title", ""),
                            ("stats", "views", i)) for i, v in enumerate(raw.get("views") or ()))
    tables = tuple(StatsTable(t["name"], t["deck"], t["for"], t.get("label"), t["counts"],
                              ("stats", "tables", i))
                   for i, t in enumerate(raw.get("tables") or ()))
    questions = []
    for i, q in enumerate(raw.get("odds") or ()):
        need = []
        for j, r in enumerate(q["need"]):
            exactly = r.get("exactly")
            need.append(Requirement(
                tuple(r.get("cards") or ()), r.get("where"),
                exactly if exactly is not None else r.get("at_least",
                                                          None if "at_most" in r else 1),
                exactly if exactly is not None else r.get("at_most"),
                ("stats", "odds", i, "need", j),
                tuple(k for k in ("at_least", "at_most", "exactly") if k in r)))
        questions.append(Question(q["id"], q.get("question", q["id"]), q["deck"], str(q["hand"]),
                                  tuple(need), q.get("for"), q.get("label"), q.get("counts"),
                                  ("stats", "odds", i)))
    dice = []
    for i, d in enumerate(raw.get("dice") or ()):
        written = d.get("dice")
        faces = d.get("faces")
        custom = faces is not None
        dice.append(DiceRoll(
            d.get("id") or d["name"], d["name"],
            "" if custom and isinstance(written, int) or written is None else str(written),
            written if custom and isinstance(written, int) else 1,
            tuple(faces) if isinstance(faces, list) else faces,
            tuple((kind, v) for kind in ASKS for v in d.get(kind) or ()),
            ("stats", "dice", i)))
    return StatsSpec(views, frozen_mapping(dict(raw.get("colors") or {})),
                     frozen_mapping(dict(raw.get("labels") or {})), tables, tuple(questions),
                     loaded.game.source, tuple(dice))
