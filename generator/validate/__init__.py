"""Stage 3, validate: check the resolved game against cardgen's rules and the game's own.

Every check of the resolved game's meaning lives here (resolve only builds the model,
and reports only what stops it being built). Each check is one module of this package
that declares itself, found by `registry.discover` as element types are:

- `NAME`: the check's own name (its module's), and `NAMES`: the check names the problems
  it reports carry (`[sheet]`, `[draft]`; a designer's check reports under its own name);
- `ORDER`: when it runs, lowest first (sheets and card sizes, identity, deck counts, card
  fields, boards, drafts, the game's invariants, its Python checks);
- `DOC`: what it checks, one line in English marked for translation (N_); `table()` makes
  the list in docs/validation.md from these lines, in either language;
- `run(game, report)`: the check. It adds located problems to the report; none stops at
  the first problem.

Adding a check is adding a module here; tests/test_architecture.py fails until
docs/validation.md's tables name it and its problems' check names.
"""

from __future__ import annotations

from types import ModuleType

from ..i18n import N_, Message
from ..model import Game
from ..problems import Report
from ..registry import NotAPlugin, breaches, discover, refuse

REQUIRED = {"NAME": str, "NAMES": tuple, "ORDER": int, "DOC": str}


class NotACheck(NotAPlugin):
    """A module in this package that does not declare what a check must (a bug)."""


def _checked(module: ModuleType) -> ModuleType:
    return refuse(module, breaches(module, REQUIRED, ("run",)), "check",
                  "validate/__init__.py", NotACheck)


CHECKS: dict[str, ModuleType] = {name: _checked(module) for name, module in
                                 discover(__path__, __name__).items()}


def register(module: ModuleType) -> None:
    """Add a check from elsewhere (a test's own): it runs in its ORDER with the others."""
    CHECKS[module.NAME] = _checked(module)


def unregister(name: str) -> None:
    CHECKS.pop(name, None)


def in_order() -> list[ModuleType]:
    """The checks as validate runs them: by ORDER, then by name."""
    return sorted(CHECKS.values(), key=lambda module: (module.ORDER, module.NAME))


def validate(game: Game, report: Report) -> None:
    for check in in_order():
        check.run(game, report)


HEADINGS = (N_("check"), N_("its problems"), N_("what it checks"))
OWN_NAME = N_("the name the game gives it")  # what a designer's check reports under


def table(lang: str | None = None) -> str:
    """The checks validate runs, in order, as docs/validation.md lists them: each one's
    name, the check names of its problems and what it checks, in `lang` (the moment's)."""
    said = Message.shown
    rows = ["| " + " | ".join(said(h, lang) for h in HEADINGS) + " |", "|---|---|---|"]
    for module in in_order():
        names = ", ".join(f"`{name}`" for name in module.NAMES) or said(OWN_NAME, lang)
        rows.append(f"| {module.NAME} | {names} | {said(module.DOC, lang)} |")
    return "\n".join(rows)
