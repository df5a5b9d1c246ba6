"""Located problems in user data, and the one mapping from failures to exit codes.

Every stage reports what is wrong with the user's files as a `Problem` with a
`Location`; problems are collected in a `Report` so that a user sees all of them
at once (as MkDocs does with its config), then the run stops.
"""

from __future__ import annotations

import difflib
import errno
import json
import re
import traceback
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Callable

from .i18n import Listed, Message, _, _n, shown

# What a message must never carry raw: control characters (an escape sequence can clear or
# rewrite the user's terminal), line and paragraph separators, and the bidirectional
# controls that reorder what follows them on the line (U+202E reverses it).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every control character and bidi control shown as its code (`\\x1b`,
    `U+202E`): input echoed in a message can neither drive the terminal nor reorder it."""
    return _UNSAFE.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100
                       else f"U+{ord(m[0]):04X}", text)


def spoken(items, last: str = "or") -> str:
    """A list as a message says it: "mm, cm, in or pt" (in Japanese "mm、cm、in、pt")."""
    return Listed(items, last)


class ExitCode(IntEnum):
    """Documented exit codes of the `cardgen` command (see docs/cli.md)."""

    OK = 0
    DATA = 1  # problems in the user's data (errors, or warnings with --strict)
    USAGE = 2  # the command line is wrong: unknown game, bad option
    INTERNAL = 3  # a bug in cardgen
    CANNOT_WRITE = 73  # an output's folder is read-only or not the user's (sysexits' CANTCREAT)
    IO_FAULT = 74  # a full disk, a closed standard output, a failing device (sysexits' IOERR)
    INTERRUPTED = 130  # Ctrl-C or SIGTERM (128 + SIGINT, as shells report it)
    BROKEN_PIPE = 141  # whoever read the output stopped reading (128 + SIGPIPE): `| head`


@dataclass(frozen=True, order=True, slots=True)
class Location:
    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


# A location as the location tables of a file (model.SourceMap) keep it, for every value and
# key of the file: one int, line << COLUMN_BITS | column, where the column fits (a tenth of
# the memory of a deck of cards went into Location objects); the Location itself otherwise.
COLUMN_BITS = 20


def packed(file: str, line: int, col: int) -> "int | Location":
    """Line and column of a place in `file`, as a location table keeps them."""
    return line << COLUMN_BITS | col if 0 <= col < 1 << COLUMN_BITS and line >= 0 \
        else Location(file, line, col)


def unpacked(file: str, where: "int | Location") -> Location:
    """The Location a location table's entry (packed) stands for."""
    if isinstance(where, int):
        return Location(file, where >> COLUMN_BITS, where & ((1 << COLUMN_BITS) - 1))
    return where


ERROR = "error"
WARNING = "warning"
LEVEL_WORDS = {ERROR: _("error"), WARNING: _("warning")}  # as a problem's line says them


@dataclass(frozen=True)
class Problem:
    """One problem, located. What it is about is data, set where it is reported (`card`,
    `deck`, `field`, `target`), so that no one reads it back from the message's words: the
    preview finds a problem's card here, the build its print target."""

    level: str  # ERROR or WARNING
    message: str
    location: Location
    check: str  # short name of the rule that found it, e.g. "schema", "draft"
    card: str | None = None  # the id of the card it is about
    deck: str | None = None  # the id of the deck it is about
    field: str | None = None  # the card's field (or the key) it is about
    target: str | None = None  # the print target whose build found it, if the message names it
    # the layout element whose problem it is, where it is located at a card's value (a text
    # that does not fit its box): the cause, if most of a deck's cards have it (layout)
    source: Location | None = None
    cards: tuple[str, ...] = ()  # the cards it is about, where it is said once for many

    @property
    def level_word(self) -> str:
        """The level as the moment's language says it ("error", "エラー")."""
        return shown(LEVEL_WORDS.get(self.level, self.level))

    def format(self) -> str:
        return f"{self.location}: {self.level_word}: {self.text} [{self.check}]"

    @property
    def text(self) -> str:
        """The message in the moment's language, never a control character raw (a value
        in it comes from the user's files)."""
        return printable(shown(self.message))

    def as_dict(self) -> dict:
        return {
            "file": self.location.file,
            "line": self.location.line,
            "col": self.location.col,
            "level": self.level,
            "message": self.text,
            "check": self.check,
        }


@dataclass
class Report:
    """Problems collected over one run, in the order they were found, each once.

    A problem is reported once, at its cause. A card whose values failed their schema is
    `tainted`: later stages (checks, card faces, the rulebook) skip what uses it instead
    of failing again on the same bad value, count what they skipped, and the pipeline
    says so in one line (`skipped_note`)."""

    problems: list[Problem] = field(default_factory=list)
    # ids of cards with values that have errors; ("deck", id): a deck lost a card without one
    tainted: set[str | tuple[str, str]] = field(default_factory=set)
    skipped: int = 0  # checks (and the rulebook) not evaluated because of them
    _seen: set = field(default_factory=set, repr=False)

    def add(self, level: str, message: str, location: Location, check: str, *,
            card: str | None = None, deck: str | None = None, field: str | None = None,
            target: str | None = None, source: Location | None = None,
            cards: tuple[str, ...] = ()) -> None:
        """Add a problem once; `card` (or `cards`), `deck`, `field` and `target` say what it
        is about, `source` the layout element it comes from (Problem.source)."""
        if _UNSAFE.search(message) or _UNSAFE.search(location.file):
            message = message if isinstance(message, Message) else printable(message)
            location = Location(printable(location.file), location.line, location.col)
        problem = Problem(level, message, location, check, card, deck, field, target, source,
                          cards)
        if problem not in self._seen:
            self._seen.add(problem)
            self.problems.append(problem)

    def taint(self, what: str | tuple[str, str]) -> None:
        """A card's id (its values have errors), or ("deck", id): a deck left a card out."""
        self.tainted.add(what)

    def skip(self, count: int = 1) -> None:
        self.skipped += count

    def skipped_note(self, where: Location) -> None:
        """One line for everything that was skipped because of values reported above."""
        if self.skipped:
            self.warning(_("skipped {n} of the game's checks (or its rulebook) that use values "
                           "with the errors above; fix those first", n=self.skipped),
                         where, "skipped")
            self.skipped = 0

    def error(self, message: str, location: Location, check: str, *,
              card: str | None = None, deck: str | None = None, field: str | None = None,
              target: str | None = None, source: Location | None = None) -> None:
        self.add(ERROR, message, location, check, card=card, deck=deck, field=field,
                 target=target, source=source)

    def warning(self, message: str, location: Location, check: str, *,
                card: str | None = None, deck: str | None = None, field: str | None = None,
                target: str | None = None) -> None:
        self.add(WARNING, message, location, check, card=card, deck=deck, field=field,
                 target=target)

    def extend(self, other: "Report") -> None:
        for p in other.problems:
            if p not in self._seen:
                self._seen.add(p)
                self.problems.append(p)
        self.tainted |= other.tainted
        self.skipped += other.skipped

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == WARNING]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors or (strict and self.warnings))

    def sorted(self) -> list[Problem]:
        """By place; a note about the problems above (what was skipped because of them)
        after them all, wherever it is located."""
        return sorted(self.problems, key=lambda p: (p.check == "skipped", p.location, p.level,
                                                    p.message))

    def summary(self) -> str:
        e, w = len(self.errors), len(self.warnings)
        return shown(_("{errors}, {warnings}", errors=_n("{n} error", "{n} errors", e),
                       warnings=_n("{n} warning", "{n} warnings", w)))

    def to_json(self, strict: bool = False) -> str:
        """The report for programs: `failed` says whether the run failed (with `strict`, a
        warning fails it too), whatever the counts."""
        return json.dumps(
            {
                "failed": self.failed(strict),
                "strict": strict,
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


class IOFault(CardgenError):
    """The system could not do what cardgen asked of it: a full disk, a read-only output
    folder, a closed standard output. A fault of the machine, neither of the data nor a
    bug; `fault` is the system's error (its kind picks the exit code), None if it is the
    standard output that is closed."""

    def __init__(self, message: str, fault: OSError | None = None):
        super().__init__(message)
        code = exit_code_for(fault) if fault is not None else ExitCode.IO_FAULT
        # (a fault of the machine is never cardgen's bug: one the map does not name, such as
        # a file standing where a folder must be made, is a file that cannot be written)
        self.exit_code = ExitCode.CANNOT_WRITE if code == ExitCode.INTERNAL else code


# The system's errors that are no bug of cardgen's, by the exit code they end a run with.
_DENIED = {errno.EACCES, errno.EPERM, errno.EROFS}
_FAULTS = {errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, errno.ENXIO,
           getattr(errno, "EDQUOT", errno.ENOSPC)}


def fault_words(fault: OSError) -> Message:
    """What the system's error says, in plain words of cardgen's (not Python's)."""
    if fault.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return _("the disk is full")
    if fault.errno == errno.EROFS:
        return _("its folder is on a read-only disk")
    if fault.errno in _DENIED:
        return _("its folder is read-only (permission denied)")
    if fault.errno in (errno.ENOTDIR, errno.EEXIST, errno.EISDIR):
        return _("a file or folder stands in its way")
    return _("the system could not write it ({code})",
             code=errno.errorcode.get(fault.errno or 0, "?"))


def exit_code_for(exc: BaseException) -> ExitCode:
    """The single mapping from an exception to the process exit code."""
    if isinstance(exc, CardgenError):
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):  # Ctrl-C, or SIGTERM (cli turns it into this)
        return ExitCode.INTERRUPTED
    if isinstance(exc, BrokenPipeError):  # `cardgen validate | head -1`
        return ExitCode.BROKEN_PIPE
    if isinstance(exc, OSError) and exc.errno in _DENIED:
        return ExitCode.CANNOT_WRITE
    if isinstance(exc, OSError) and exc.errno in _FAULTS:
        return ExitCode.IO_FAULT
    return ExitCode.INTERNAL


def raised_in(exc: BaseException, ours: Callable[[str], bool]) -> tuple[str, int] | None:
    """Where the user's own code raised `exc`: the deepest frame of its traceback in a file
    `ours` accepts (a game's checks module, its rulebook templates, which Jinja2 gives
    their own file names and lines), as (file name, line); None if no frame is theirs."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.lineno and ours(frame.filename):
            found = (frame.filename, frame.lineno)
    return found


def suggest(name: str, known: list[str], place: str) -> str:
    """What to tell a user who named something that does not exist: the closest name, or
    the few names there are, or where to look."""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return _("did you mean '{close}'?", close=close[0])
    if not known:
        return _("there are none in {place}", place=place)
    if len(known) <= 6:
        return _("{place} has: {known}", place=place, known=Listed(known, None))
    return _("none of that name in {place}", place=place)
