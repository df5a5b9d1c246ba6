"""A project: any folder that says so (its `cardgen.yaml`), found from any folder below it as
git finds its repository, and what it keeps over what cardgen ships.

A project holds `cards/<game>/` and may hold its own `fonts/` (fonts.yaml and the files it
names), `layouts/` (card layouts, `sheets/`, `boards/`, `exports/`, `printers.yaml`). A sheet
preset, board layout, export profile, card layout, printer or font family is looked for in
the project first, then among what cardgen ships (generator/shipped.py), by name: the
project's adds to the shipped ones or replaces one of the same name. With `--verbose` the
command line says which one each name took (`notes`).

The marker `cardgen.yaml` also records the version of the game format the project is
written in (versions.py). A folder with `cards/` and no marker is a project too, in the
current format: this repository, and every project made before the marker.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import shipped as shipped_parts
from .. import versions
from ..i18n import Joined, Message, _
from ..paths import NAME_RULE, is_name
from ..problems import Location, Report, UsageError
from .yamlfile import load_yaml

MARKER = "cardgen.yaml"  # the file that makes a folder a project, with its format version


@dataclass(frozen=True)
class Project:
    """A folder holding `cards/` (and its own `layouts/` and `fonts/`, if any), where output
    goes, and where cardgen's shipped parts are read from (None: nowhere)."""

    root: Path
    output: Path
    trust: bool = False  # the user said --trust: a game's Python checks module may run
    shipped: Path | None = field(default_factory=shipped_parts.root, compare=False)

    @classmethod
    def find(cls, start: Path | None = None, output: Path | None = None,
             trust: bool = False, exact: bool = False) -> "Project":
        """The nearest folder at or above `start` (the working folder) with a cardgen.yaml
        or a cards/ folder; with `exact` (--root), `start` itself, which must be one."""
        start = (start or Path.cwd()).resolve()
        folder = project_above(start)
        if exact and folder != start:
            raise UsageError(_("{start} is not a cardgen project: it has no cardgen.yaml and "
                               "no cards/ folder (make one there with 'cardgen new GAME', or "
                               "leave out --root to use the project above the working folder)",
                               start=start))
        if folder is None:
            raise UsageError(_("no cardgen project in {start} or above it (a project is a "
                               "folder with cardgen.yaml or cards/); run cardgen in one, pass "
                               "--root, or make one here with 'cardgen new GAME'", start=start))
        out = (output or folder / "output").resolve()
        blocking = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()), None)
        if blocking is not None:  # a folder cannot be made there (was NotADirectoryError)
            raise UsageError(_("the output folder {out} cannot be made: {blocking} is a "
                               "file", out=out, blocking=blocking)
                             + (" (--output names a folder)" if output else ""))
        return cls(folder, out, trust)

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    def game_folders(self) -> list[str]:
        """The folder names under cards/ that hold a game.yaml, whatever their names."""
        if not self.cards.is_dir():
            return []
        return sorted(p.name for p in self.cards.iterdir()
                      if p.is_dir() and (p / "game.yaml").is_file())

    def games(self) -> list[str]:
        """The games: folders under cards/ with a game.yaml and a name that can be one."""
        return [name for name in self.game_folders() if is_name(name)]

    def game_folder(self, game_id: str) -> Path:
        """cards/<game>: only for a name that passed the name rule."""
        if not is_name(game_id):
            raise UsageError(_("'{game_id}' cannot name a game: a game's folder name is "
                               "{NAME_RULE}", game_id=game_id, NAME_RULE=NAME_RULE))
        return self.cards / game_id

    def display(self, path: Path) -> str:
        """A path as messages show it: relative to the project folder if inside it."""
        path = Path(os.path.normpath(path))
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) \
            else str(path)

    def shipped_file(self, relative: str) -> Path | None:
        """cardgen's own file at `relative` (a path from a project's top, with '/'), if it
        ships one there and the project is not that same folder."""
        if self.shipped is None or not shipped_parts.ships(relative):
            return None
        path = self.shipped / relative
        if not path.is_file() or _same(path, self.root / relative):
            return None
        return path

    def root_of(self, relative: str) -> Path:
        """The top of the files a file at `relative` names (an export profile's icc:): the
        project's, or cardgen's where the file is cardgen's."""
        theirs = self.shipped_file(relative)
        return self.shipped if theirs is not None and self.shipped is not None \
            and not (self.root / relative).is_file() else self.root

    def names(self, folder: str) -> list[str]:
        """The names of `folder`'s YAML files (folder "layouts/sheets"), the project's and
        the shipped ones."""
        found: set[str] = set()
        for base in (self.root, self.shipped):
            here = base / folder if base is not None else None
            if here is not None and here.is_dir():
                found.update(p.stem for p in here.glob("*.yaml")
                             if base == self.root or shipped_parts.ships(f"{folder}/{p.name}"))
        return sorted(found)

    def chosen(self, folder: str, name: str, own: Path, what: Message) -> Path:
        """`folder/<name>.yaml`: `own` (the project's, checked by the containment rule) if it
        is there, else cardgen's if it ships one, else `own` (which does not exist). Said in
        the notes."""
        theirs = self.shipped_file(f"{folder}/{name}.yaml")
        if own.is_file():
            if theirs is not None:
                mine = self.display(own)
                note(_("{what} '{name}': the project's {file}, over cardgen's", what=what,
                       name=name, file=mine))
            return own
        if theirs is not None:
            note(_("{what} '{name}': cardgen's ({file})", what=what, name=name, file=theirs))
            return theirs
        return own


def _same(a: Path, b: Path) -> bool:
    try:
        return b.exists() and a.resolve() == b.resolve()
    except (OSError, RuntimeError):
        return False


def project_above(start: Path) -> Path | None:
    """The nearest folder at or above `start` that is a project: one with cardgen.yaml, or
    with cards/ but not inside the cards/ of a project with cardgen.yaml (a game named
    `cards` is not a project of its own)."""
    found = None
    for folder in (start, *start.parents):
        if (folder / MARKER).is_file():
            return folder if found is None or found.is_relative_to(folder / "cards") else found
        if found is None and (folder / "cards").is_dir():
            found = folder
    return found


def format_of(project: Project, report: Report) -> tuple[str, Location] | None:
    """The format version cardgen.yaml records, with where it is written; None without a
    marker (the current format) or with a problem (reported)."""
    path = project.root / MARKER
    if not path.is_file() or path.is_symlink():
        return None
    doc = load_yaml(path, MARKER, report)
    data = doc.data if doc is not None else None
    if doc is None:
        return None
    if not isinstance(data, dict) or "format" not in data:
        report.error(_("cardgen.yaml names no format: (the version of the game format its games "
                       "are written in; this cardgen's is {version})", version=versions.FORMAT),
                     doc.locate(()), "format")
        return None
    value, where = data["format"], doc.locate(("format",))
    text = str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) \
        else ""
    if versions.parse(text) is None:
        report.error(_("format: '{value}' is not a version (this cardgen's format is {version})",
                       value=value, version=versions.FORMAT), where, "format")
        return None
    return text, where


def check_format(project: Project, report: Report) -> None:
    """A project written in an older format is read as it is, with one warning naming each
    change since and how to mend it; one in a newer format than this cardgen's is an error."""
    found = format_of(project, report)
    if found is None:
        return
    text, where = found
    old, new = versions.parse(text), versions.parse(versions.FORMAT)
    if old is not None and new is not None and old > new:
        report.error(_("this project is written in format {old}, newer than this cardgen's "
                       "({new}): install a newer cardgen (pip install --upgrade cardgen)",
                       old=text, new=versions.FORMAT), where, "format")
        return
    changes = versions.since(text)
    if not changes:
        return
    told = Joined("; ", [_("{version}: {what} (mend: {how})", version=c.version, what=c.what,
                           how=_("cardgen upgrade rewrites it") if c.rewrite else c.mend)
                         for c in changes])
    report.warning(_("this project is written in format {old}; cardgen reads it as format "
                     "{new}, which changed since: {changes}. 'cardgen upgrade' shows what it "
                     "can rewrite and with --write makes it and records format {new}; "
                     "CHANGELOG.md says the rest",
                     old=text, new=versions.FORMAT, changes=told), where, "format")


# The notes --verbose shows: which of a name's files (the project's or cardgen's) was taken.
_notes: list[Callable[[Message], None]] = []
_said: set[str] = set()


def note(message: Message) -> None:
    """Say `message` to whoever listens (the command line with --verbose), once a run."""
    if _notes and str(message) not in _said:
        _said.add(str(message))
        for listener in _notes:
            listener(message)


def listen(listener: Callable[[Message], None]) -> None:
    """Hear the notes from now on (cli: --verbose)."""
    _notes.append(listener)
