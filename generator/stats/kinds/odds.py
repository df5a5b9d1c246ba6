"""odds: the exact odds of the draws game.yaml's `stats: odds:` asks about (a hand of n
cards from a deck holding at least, at most or exactly so many of a pool)."""

from __future__ import annotations

from typing import Any

from ...declared import STATISTICS
from ...i18n import _, shown
from ..pictures import odds_chart, odds_top, questions
from ..questions import _answers
from ..results import Answer
from ..show import _in, answer_line
from .base import Run

NAME = "odds"
ORDER = 30
FIELD = "answers"
KEY = "odds"
OPTIONS = STATISTICS[NAME]  # the keys of `stats:` it reads (declared.py)
EXAMPLE = {"odds": [{"id": "opening", "question": "One is in the opening hand",
                     "deck": "deck0", "hand": 2, "need": [{"cards": ["one"]}]}]}


def compute(run: Run) -> tuple[Answer, ...]:
    return tuple(a for q in run.game.stats.questions if run.wanted(q.deck)
                 for a in _answers(run.game, q, run.ev))


def words(part: tuple[Answer, ...]) -> list:
    asked: dict[str, list[Answer]] = {}
    for a in part:
        asked.setdefault(a.question, []).append(a)
    lines: list = [_("odds:")] if asked else []
    for qid, answers in asked.items():
        lines.append(_in(f"{qid}: {answers[0].text}"))
        lines += [_in(answer_line(a), 2) for a in answers]
    return lines


def as_json(part: tuple[Answer, ...]) -> list[dict[str, Any]]:
    return [{"id": a.question, "question": a.text, "label": a.label or None,
             "hand": a.hand, "pool": a.pool, "numerator": a.probability.numerator,
             "denominator": a.probability.denominator,
             "probability": a.chance, "log10": a.magnitude, "draft": a.draft}
            for a in part]


def changes(old: tuple[Answer, ...], new: tuple[Answer, ...]) -> list:
    answers, out = {(a.question, a.label): a for a in old}, []
    for a in new:
        b = answers.get((a.question, a.label))
        if b is not None and b.probability != a.probability:
            where = f" ({a.label})" if a.label else ""
            out.append(_("odds {question}{where}: {was} -> {now}", question=a.question,
                         where=where, was=b.percent, now=a.percent))
    return out


def blocks(part: tuple[Answer, ...], stats, chart) -> list[dict]:
    groups = questions(stats)
    out: list[dict] = [{"kind": "heading", "text": shown(_("Draw odds")), "deck": ""}] \
        if groups else []
    top = odds_top(stats)
    for answers in groups:
        out.append(chart(odds_chart(answers, top)))
        out += [{"kind": "text", "text": shown(answer_line(a))} for a in answers]
    return out
