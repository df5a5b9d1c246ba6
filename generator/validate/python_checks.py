"""Running a game's own Python checks (the `python_checks:` module named in game.yaml).

Each `check_*` function is called as `check_name(game, report)`, where `report`
takes `report.error(message, at)` and `report.warning(message, at)`; `at` is a
card, a deck, a `(table, key, key, ...)` path into a data table, or omitted (the
function's own line). An exception in a check is reported at its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model import Card, Deck, Game, PythonCheck
from ..problems import Location, Report, raised_in
from ..i18n import N_, _

NAME = "python"
NAMES = ()  # a Python check reports under its own name
ORDER = 80
DOC = N_("the game's Python checks (python_checks: in game.yaml, with --trust); an "
         "exception in one is reported at its line")


class CheckReport:
    def __init__(self, game: Game, report: Report, check: PythonCheck):
        self._game, self._report, self._check = game, report, check

    def _locate(self, at: Any) -> Location:
        if isinstance(at, (Card, Deck)):
            return at.loc
        if isinstance(at, Location):
            return at
        if isinstance(at, tuple) and at and at[0] in self._game.data_sources:
            return self._game.data_sources[at[0]].locate(at[1:])
        return self._check.loc

    @staticmethod
    def _about(at: Any) -> dict:
        """What a problem reported at `at` is about: a card, a deck (or nothing said)."""
        if isinstance(at, Card):
            return {"card": at.id, "deck": at.deck}
        if isinstance(at, Deck):
            return {"deck": at.id}
        return {}

    def error(self, message: str, at: Any = None) -> None:
        self._report.error(message, self._locate(at), self._check.name, **self._about(at))

    def warning(self, message: str, at: Any = None) -> None:
        self._report.warning(message, self._locate(at), self._check.name, **self._about(at))


def run(game: Game, report: Report) -> None:
    for check in game.python_checks:
        try:
            check.function(game, CheckReport(game, report, check))
        except (Exception, SystemExit) as exc:  # the designer's check failed: say where, go on
            if report.tainted and not isinstance(exc, SystemExit):
                report.skip()  # it met a value with errors reported at their cause
                continue
            module_file = Path(check.function.__code__.co_filename)
            found = raised_in(exc, lambda name: Path(name) == module_file)
            line = found[1] if found else check.loc.line
            what = _("called sys.exit(): a check reports with report.error(), it cannot end "
                     "the run") if isinstance(exc, SystemExit) else \
                _("raised {kind}: {exc}", kind=type(exc).__name__, exc=exc)
            report.error(_("check '{check_name}' {what}",
                           check_name=check.name, what=what), Location(check.loc.file, line, 1),
                         check.name)
