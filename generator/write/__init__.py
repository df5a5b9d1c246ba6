"""Stage 6, write: draw imposed pages into files, atomically and deterministically.

Every file of a build is written to a temporary file beside its destination and
renamed into place only when the whole set has been written, so a failed build
never leaves a half-written file and never removes the previous good one.

Same input, same bytes: reportlab runs in invariant mode and SOURCE_DATE_EPOCH
is ignored (reportlab would otherwise stamp it into the file): cardgen's output
depends on the project's files only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from filelock import FileLock, Timeout

from ..paths import contained
from ..problems import ExitCode, IOFault, fault_words, spoken
from . import pdf
from .pdf import PdfFile
from ..i18n import _, _n


class OutputError(IOFault):
    """An output file could not be written (a read-only folder, a full disk: the exit code
    the system's error maps to), or would lie outside the output folder (an internal error:
    names are checked long before)."""

    def __init__(self, message: str, fault: OSError | None = None):
        super().__init__(message, fault)
        if fault is None:
            self.exit_code = ExitCode.INTERNAL
        elif self.exit_code == ExitCode.INTERNAL:  # (a file where its folder should be)
            self.exit_code = ExitCode.CANNOT_WRITE


class Output(Protocol):
    path: Path

    def write_to(self, out) -> None: ...


@dataclass(frozen=True)
class TextFile:
    path: Path
    text: str

    def write_to(self, out) -> None:
        out.write(self.text.encode("utf-8"))


@dataclass(frozen=True)
class BytesFile:
    """A file made elsewhere (the rulebook), written with the rest of the set."""

    path: Path
    data: bytes
    pages: int = 0

    def write_to(self, out) -> None:
        out.write(self.data)


@dataclass(frozen=True)
class PdfOutput:
    path: Path
    document: PdfFile

    def write_to(self, out) -> None:
        pdf.render_pdf(self.document, out)


@contextlib.contextmanager
def one_build_at_a_time(lock: Path, waiting=lambda: None):
    """Hold a game's lock file while a build writes its files: a second build of the same
    game (another terminal, `watch`) waits until the first has written its whole set, so
    that fronts from one and backs from the other never meet. `waiting` is called once if
    it has to wait. The lock is the system's own (filelock: flock on Linux and macOS,
    LockFileEx on Windows), released by the system if the build dies."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    if lock.is_symlink():  # cardgen's cache holds no links: one put there is not followed
        lock.unlink()
    held = FileLock(lock)
    try:
        held.acquire(blocking=False)
    except Timeout:
        waiting()
        held.acquire()
    try:
        yield
    finally:
        held.release()


SYNC_EACH = 16  # a set of more files than this reaches the disk by one sync, not one each


def write_files(files: list, root: Path) -> None:
    """Write every file of a set, or none of them. Every file must lie inside `root` (the
    output folder), links resolved: whatever names a game gives, nothing is written
    anywhere else. (Names pass paths.is_name long before this; this is the last gate.)"""
    for item in files:
        if not contained(root, item.path):
            raise OutputError(_("refusing to write {item_path}: it lies outside the output folder "
                                "{root}; nothing was written", item_path=item.path, root=root))
    temps: list[tuple[Path, Path]] = []
    current = files[0].path if files else None
    # Each file reaches the disk before any is renamed into place: a few files each by its
    # own fsync; a set of many (20,000 PNGs) by one sync of the whole set, not one per file.
    one_sync = len(files) > SYNC_EACH and hasattr(os, "sync")
    try:
        for item in files:
            current = item.path
            item.path.parent.mkdir(parents=True, exist_ok=True)
            # The temporary file is listed before it exists, so that an interrupt at any
            # moment (Ctrl-C, SIGTERM) finds it listed and removes it: listed only once
            # made, one that arrived between the two was left behind.
            tmp = item.path.parent / f".{item.path.name}.{secrets.token_hex(6)}.tmp"
            temps.append((tmp, item.path))
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies,
            with os.fdopen(fd, "wb") as out:  # as for any ordinary file
                item.write_to(out)
                out.flush()
                if not one_sync:
                    os.fsync(out.fileno())
        if one_sync:
            os.sync()
        for tmp, final in temps:
            current = final
            os.replace(tmp, final)
        temps.clear()
    except OSError as exc:
        raise OutputError(_("cannot write {current}: {value}; previous output kept",
                            current=current, value=fault_words(exc)), exc) from exc
    finally:
        for tmp, _final in temps:
            with contextlib.suppress(OSError):
                tmp.unlink()


def meeting_paths(sets: list, display) -> bool:
    """The one name rule for a build's files, across its print targets, decks, boards and
    options: every file of the build is planned (here) before any is written, and a path
    that two outputs would take is an error. `sets` holds, for each part of the build, (who
    it is, its report, where it is declared, its outputs, its print target's name or None).
    A path is reported once for each
    pair of parts that meet, with the first part and at the later one's place, naming both
    (two targets whose names meet: target 'a' with a deck 'fronts' writes
    <game>-a-backs-fronts.pdf, the fronts of a target 'a-backs'). True if any meet."""
    owners: dict = {}
    for n, (who, _unused, _unused, outputs, _unused) in enumerate(sets):
        for output in outputs:
            owners.setdefault(output.path, []).append(n)
    pairs: dict = {}
    for path, takers in owners.items():
        if len(takers) > 1:
            names = tuple(dict.fromkeys(sets[n][0] for n in takers))
            pairs.setdefault(names, (takers[0], takers[-1], []))[2].append(path)
    for names, (first, later, paths) in pairs.items():
        both = _("targets {names} would both write ", names=spoken(
            [n.removeprefix("target ") for n in names], "and")) if len(names) > 1 else \
            _("{name} would write twice ", name=names[0])
        more = _n(" (and {n} other file)", " (and {n} other files)", len(paths) - 1) \
            if len(paths) > 1 else ""
        sets[first][1].error(
            _("{both}{display}{more}: their files' names meet (a target's name, a deck's or a "
              "board's id makes another's name); rename one of them",
                  both=both, display=display(paths[0]), more=more),
            sets[later][2], "output", target=sets[first][4])  # (the first is named first)
    return bool(pairs)


def pictures_folder(output: Path, path: Path) -> Path | None:
    """The folder of card pictures (card_pngs: <output>/<game>/png[-<target>]/<deck>/
    <card>-<side>.png) a file lies in, or None: read from the path below the output folder
    only, so a project kept under a folder of its own named png is no matter."""
    try:
        parts = path.relative_to(output).parts
    except ValueError:
        return None
    if len(parts) == 4 and path.suffix == ".png" and (
            parts[1] == "png" or parts[1].startswith("png-")):
        return output / parts[0] / parts[1]
    return None
