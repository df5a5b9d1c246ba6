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

from ..paths import contained
from ..problems import CardgenError, ExitCode
from . import pdf
from .pdf import PdfFile


class OutputError(CardgenError):
    """An output file could not be written (permissions, a full disk)."""

    exit_code = ExitCode.INTERNAL


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
    it has to wait."""
    import fcntl
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_files(files: list, root: Path) -> None:
    """Write every file of a set, or none of them. Every file must lie inside `root` (the
    output folder), links resolved: whatever names a game gives, nothing is written
    anywhere else. (Names pass paths.is_name long before this; this is the last gate.)"""
    for item in files:
        if not contained(root, item.path):
            raise OutputError(f"refusing to write {item.path}: it lies outside the output folder "
                              f"{root}; nothing was written")
    temps: list[tuple[Path, Path]] = []
    current = files[0].path if files else None
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
                os.fsync(out.fileno())
        for tmp, final in temps:
            current = final
            os.replace(tmp, final)
        temps.clear()
    except OSError as exc:
        raise OutputError(f"cannot write {current}: {exc.strerror or exc}; "
                          "previous output kept") from exc
    finally:
        for tmp, _ in temps:
            with contextlib.suppress(OSError):
                tmp.unlink()
