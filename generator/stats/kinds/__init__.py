"""The statistics a game can have: one module per kind, found here by itself.

A kind's module declares everything about it:
- `NAME`, and `ORDER` (where it stands in `cardgen stats`, its JSON, the preview's Stats
  view: decks, tables, odds, dice);
- `FIELD`: the field of `results.Stats` it fills, and `KEY`: the key of game.yaml's
  `stats:` that declares it (None for what is counted without a declaration);
- `OPTIONS`: the keys of `stats:` it reads, declared once in generator/declared.py
  (`STATISTICS[NAME]`: load and resolve read them before this stage runs), from which
  their schema, their reading (resolve/stats.py) and docs/stats.md's tables are made;
- `compute(run)`: its results for one game (a tuple), its declarations' problems reported
  located through `run` (a `base.Run`);
- `words(part)`: its lines in `cardgen stats`; `as_json(part)`: its JSON; `changes(old,
  new)`: what changed between two versions, in words (`cardgen diff`);
- `blocks(part, stats, chart)`: its headings, charts (from pictures.py; `chart` makes one
  a block) and lines in the preview's Stats view;
- `EXAMPLE`: its declaration in game.yaml's `stats:` for a game whose deck `deck0` holds
  cards `one` and `two` with a field `name`, and `EXAMPLE_DATA` if it reads data tables
  (table name -> value): the combination matrix declares every kind so.

Adding a statistic is adding a module here, its keys in declared.STATISTICS and its section
in docs/stats.md.
"""

from __future__ import annotations

from types import ModuleType

from ...registry import NotAPlugin, breaches, discover, refuse
from .base import Run

REQUIRED = {"NAME": str, "ORDER": int, "FIELD": str, "EXAMPLE": dict}
DOES = ("compute", "words", "as_json", "changes", "blocks")


class NotAStatistic(NotAPlugin):
    """A module in this package that does not declare what a statistic must (a bug)."""


def checked(module: ModuleType) -> ModuleType:
    wrong = breaches(module, REQUIRED, DOES) + ([] if hasattr(module, "KEY") else ["KEY"])
    return refuse(module, wrong, "statistic", "stats/kinds/__init__.py", NotAStatistic)


KINDS: dict[str, ModuleType] = {name: checked(module) for name, module in
                                discover(__path__, __name__, {"base"}).items()}


def in_order() -> list[ModuleType]:
    return sorted(KINDS.values(), key=lambda module: (module.ORDER, module.NAME))


__all__ = ["KINDS", "NotAStatistic", "Run", "checked", "in_order"]
