"""Located problems in user data, and the one mapping from failures to exit codes.

Every stage reports what is wrong with the user's files as a `Problem` with a
`Location`; problems are collected in a `Report` so that a user sees all of them
at once (as MkDocs does with its config), then the run stops.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum


class ExitCode(IntEnum):
    """Documented exit codes of the `cardgen` command (see docs/cli.md)."""

    OK = 0
    DATA = 1  # problems in the user's data (errors, or warnings with --strict)
    USAGE = 2  # the command line is wrong: unknown game, bad option
    INTERNAL = 3  # a bug in cardgen, or an I/O failure it could not attribute to data


@dataclass(frozen=True, order=True, slots=True)
class Location:
    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    level: str  # ERROR or WARNING
    message: str
    location: Location
    check: str  # short name of the rule that found it, e.g. "schema", "draft"

    def format(self) -> str:
        return f"{self.location}: {self.level}: {self.message} [{self.check}]"

    def as_dict(self) -> dict:
        return {
            "file": self.location.file,
            "line": self.location.line,
            "col": self.location.col,
            "level": self.level,
            "message": self.message,
            "check": self.check,
        }


@dataclass
class Report:
    """Problems collected over one run, in the order they were found."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, level: str, message: str, location: Location, check: str) -> None:
        problem = Problem(level, message, location, check)
        if problem not in self.problems:
            self.problems.append(problem)

    def error(self, message: str, location: Location, check: str) -> None:
        self.add(ERROR, message, location, check)

    def warning(self, message: str, location: Location, check: str) -> None:
        self.add(WARNING, message, location, check)

    def extend(self, other: "Report") -> None:
        for p in other.problems:
            if p not in self.problems:
                self.problems.append(p)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == WARNING]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors or (strict and self.warnings))

    def sorted(self) -> list[Problem]:
        return sorted(self.problems, key=lambda p: (p.location, p.level, p.message))

    def summary(self) -> str:
        e, w = len(self.errors), len(self.warnings)
        return f"{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}"

    def to_json(self) -> str:
        return json.dumps(
            {
                "errors": len(self.errors),
                "warnings": len(self.warnings),
                "problems": [p.as_dict() for p in self.sorted()],
            },
            ensure_ascii=False,
            indent=2,
        )


class CardgenError(Exception):
    """Base of the failures `cli` maps to exit codes."""

    exit_code = ExitCode.INTERNAL


class DataProblems(CardgenError):
    """The user's data has problems; they are in `report`."""

    exit_code = ExitCode.DATA

    def __init__(self, report: Report):
        super().__init__(report.summary())
        self.report = report


class UsageError(CardgenError):
    exit_code = ExitCode.USAGE


def exit_code_for(exc: BaseException) -> ExitCode:
    """The single mapping from an exception to the process exit code."""
    if isinstance(exc, CardgenError):
        return exc.exit_code
    return ExitCode.INTERNAL
