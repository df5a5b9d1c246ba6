"""What the kinds of statistic share: the run they compute from."""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Game
from ...problems import Report
from ..counts import _Values
from ..questions import _Evaluator


@dataclass
class Run:
    """What every kind computes from: the game, the report its declarations' problems go to
    (None once the game has passed its checks), the decks asked for (None: all), the
    evaluator of declared expressions and each field value's colour and label."""

    game: Game
    report: Report | None
    decks: tuple[str, ...] | None
    ev: _Evaluator
    shown: _Values

    def wanted(self, deck_id: str) -> bool:
        return self.decks is None or deck_id in self.decks
