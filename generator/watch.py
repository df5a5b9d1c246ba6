"""`cardgen watch` and the one poller behind it and `cardgen serve`: rebuild a game on
every save of its data, layouts or fonts.

Each rebuild prints the validation report. Invalid data writes nothing, so the last good
PDFs stay in output/ until the data is fixed.

The poller looks at the files a build reads, never further: a link is followed only
where it stays inside the folder it is in (the game folder, layouts/, fonts/), every real
folder is walked once (a link loop such as `ln -s . x` ends), and a walk stops after
MAX_FILES files.

On Linux the poller also listens to the kernel (inotify): a look is taken the moment a
watched folder changes, and a file written in place is read as soon as the program
writing it has closed it (an editor's rename, a deletion: at once). Where the kernel
does not tell (another system, a network file system, a folder over the system's watch
limit), a change is read once it has held still (SETTLE), as before.
"""

from __future__ import annotations

import ctypes
import os
import select
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from .load import Project
from .load.reread import keep_reads
from .paths import contained

POLL = 0.3  # seconds between looks at the files
SETTLE = 0.25  # seconds a changed file's size and time must hold still before it is read
# (under POLL: a save is read at the look after the one that saw it, if it has ended)
OPEN_SETTLE = 2.0  # seconds a file the kernel says is open for writing must hold still (a
# program that keeps it open after writing: read all the same, later)
STOP_LOOK = 0.25  # seconds between looks at whether to stop, while waiting for the kernel
MAX_FILES = 100_000  # per folder: far more than any game has; a walk that finds more stops


def _walk(folder: Path) -> list[tuple]:
    """(folder, name, mtime, size) of every file below `folder`, links followed only inside it."""
    try:
        root = folder.resolve()
    except (OSError, RuntimeError):
        return []
    entries: list[tuple] = []
    seen: set[Path] = set()
    stack = [folder]
    while stack and len(entries) < MAX_FILES:
        here = stack.pop()
        try:
            real = here.resolve()
        except (OSError, RuntimeError):  # a link loop
            continue
        if real in seen or not real.is_relative_to(root):
            continue
        seen.add(real)
        try:
            with os.scandir(here) as items:
                found = list(items)
        except OSError:
            continue
        for item in found:
            try:
                if item.is_dir():
                    stack.append(Path(item.path))
                    continue
                if item.is_symlink() and not contained(root, Path(item.path)):
                    continue  # a link that leads out: not ours to watch
                st = item.stat()
            except (OSError, RuntimeError):
                continue
            entries.append((str(here), item.name, st.st_mtime_ns, st.st_size, st.st_ino))
    return entries


def files_stamp(project: Project, game: str) -> tuple:
    """What a build of `game` reads, as (folder, name, mtime, size, inode) of every file."""
    entries = []
    for folder in (project.cards / game, project.root / "layouts", project.root / "fonts"):
        entries += _walk(folder)
    return tuple(sorted(entries))


def changed_files(before: tuple, after: tuple) -> list[Path]:
    """The files of two stamps that were added, removed or changed."""
    old = {(folder, name): rest for folder, name, *rest in before}
    new = {(folder, name): rest for folder, name, *rest in after}
    return sorted(Path(folder) / name for folder, name in old.keys() | new.keys()
                  if old.get((folder, name)) != new.get((folder, name)))


def renamed_whole(before: tuple, after: tuple, between: tuple = ()) -> bool:
    """Whether every file new or changed between two stamps is a file that was already
    there, whole, under another name: an editor that saves by writing a copy and renaming
    it over the file (the copy's inode, time and size arrive under the file's name). A
    rename lands a file whole, so it can be read at once. A file written in place, or a new
    inode (an editor that moves the old file aside and writes a new one), may still be
    being written. `between`: a stamp seen after `before` (where the copy may have shown)."""
    old = {(folder, name): rest for folder, name, *rest in before}
    inodes = {rest[-1]: ((folder, name), rest) for folder, name, *rest in before + between
              if rest[-1]}
    for folder, name, *rest in after:
        if old.get((folder, name)) == rest:
            continue
        came = inodes.get(rest[-1]) if rest[-1] else None  # (an inode of 0: a system
        if came is None or came[0] == (folder, name) or came[1] != rest:  # that tells none)
            return False
    return True


def settled(before: tuple, after: tuple, held: float, between: tuple = ()) -> bool:
    """Whether a change from stamp `before` to `after`, which has held still for `held`
    seconds, may be read: when the editor's rename has landed, or the files' sizes and
    times have held still for SETTLE seconds (a file read half-written said "the file is
    empty" or "unexpected end" on a large deck's save). `between`: the look before."""
    return held >= SETTLE or renamed_whole(before, after, between)


# inotify(7): what the kernel says of a folder's files
_MODIFY, _ATTRIB, _CLOSE_WRITE = 0x2, 0x4, 0x8
_MOVED_FROM, _MOVED_TO, _CREATE, _DELETE = 0x40, 0x80, 0x100, 0x200
_OVERFLOW, _IGNORED, _ISDIR = 0x4000, 0x8000, 0x40000000
_MASK = _MODIFY | _ATTRIB | _CLOSE_WRITE | _MOVED_FROM | _MOVED_TO | _CREATE | _DELETE
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)
_WRITING = _MODIFY | _CREATE  # the file is being written: not yet whole
_WHOLE = _CLOSE_WRITE | _MOVED_TO | _MOVED_FROM | _DELETE  # closed, landed or gone: whole


class Closes:
    """Which files the kernel has seen closed after their last write (inotify, Linux): such
    a file is whole and is read at once. A file the kernel has said nothing of (a folder
    not watched, another system, a network file system) is not known to be whole: it is
    read once it has held still (settled()). `Closes()` on another system, or where the
    kernel refuses, knows nothing and costs nothing."""

    def __init__(self) -> None:
        self.fd = -1
        self.folders: dict[int, set[str]] = {}  # watch descriptor -> the folders it watches
        self.watched: set[str] = set()
        self.whole: dict[str, bool] = {}  # file -> closed after its last write (or not)
        if not sys.platform.startswith("linux"):
            return
        try:
            libc = ctypes.CDLL(None, use_errno=True)  # the C library Python runs on
            self._add = libc.inotify_add_watch
            self._add.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
            self.fd = libc.inotify_init1(0o4000 | 0o2000000)  # IN_NONBLOCK | IN_CLOEXEC
        except (OSError, AttributeError):  # no C library, or one without inotify
            self.fd = -1

    def watch(self, folders) -> None:
        """Listen to each of `folders` (paths as the stamp names them) not listened to yet;
        one the kernel refuses (the watch limit reached) is left to the settle rule."""
        for folder in folders:
            if self.fd < 0 or folder in self.watched:
                continue
            wd = self._add(self.fd, os.fsencode(folder), _MASK)
            if wd >= 0:  # (a folder not there yet is tried again at the next look)
                self.watched.add(folder)
                self.folders.setdefault(wd, set()).add(folder)

    def drain(self) -> None:
        """Take in what the kernel has said since the last drain."""
        while self.fd >= 0:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return
            except OSError:  # the kernel stopped telling: every file back to the settle rule
                self.close()
                return
            at = 0
            while at + _EVENT.size <= len(data):
                wd, mask, _cookie, size = _EVENT.unpack_from(data, at)
                name = os.fsdecode(data[at + _EVENT.size:at + _EVENT.size + size].rstrip(b"\0"))
                at += _EVENT.size + size
                self._heard(wd, mask, name)

    def _heard(self, wd: int, mask: int, name: str) -> None:
        if mask & _OVERFLOW:  # events were lost: nothing is known to be whole any more
            self.whole.clear()
            return
        if mask & _IGNORED:  # the folder is gone (or moved): watched again if it comes back,
            for folder in self.folders.pop(wd, ()):  # and what it said of its files is void
                self.watched.discard(folder)
                for path in [p for p in self.whole if os.path.dirname(p) == folder]:
                    del self.whole[path]
            return
        for folder in self.folders.get(wd, ()):
            path = os.path.join(folder, name)
            if mask & _ISDIR:
                if mask & (_CREATE | _MOVED_TO):
                    self.watch([path])  # a new folder: its files are heard from the start
            elif mask & _WRITING:
                self.whole[path] = False
            elif mask & _WHOLE or mask & _ATTRIB and self.whole.get(path) is not False:
                self.whole[path] = True  # (a time set by touch: whole, unless being written)

    def all_whole(self, files: list[Path]) -> bool:
        """Whether the kernel has seen each of `files` closed after its last write, landed
        by a rename or removed."""
        return bool(files) and all(self.whole.get(str(f)) for f in files)

    def taken(self, files: list[Path]) -> None:
        """`files` have been read as they are now: a close the kernel told of counts for
        that change only. A later change it does not tell of (a writer on another machine
        of a network file system, or through a link in a folder not watched) is read once
        it has settled, as where there is no kernel to tell."""
        for f in files:
            self.whole.pop(str(f), None)

    def still_open(self, files: list[Path]) -> bool:
        """Whether the kernel saw one of `files` written and not yet closed."""
        return any(self.whole.get(str(f)) is False for f in files)

    def wait(self, timeout: float, stop: threading.Event) -> None:
        """Until the kernel says something of a watched folder, `stop` is set, or `timeout`
        seconds have passed."""
        end = time.monotonic() + timeout
        while not stop.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return
            if self.fd < 0:
                stop.wait(left)
                return
            try:  # (in slices: `stop` is looked at every STOP_LOOK seconds)
                if select.select([self.fd], [], [], min(left, STOP_LOOK))[0]:
                    return
            except (OSError, ValueError):
                stop.wait(left)
                return

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def watch(project: Project, games: list[str], rebuild: Callable[[str], None],
          stop: threading.Event, failed: Callable[[str, Exception], None] | None = None,
          interval: float = POLL,
          saved: Callable[[str, list[Path]], None] | None = None) -> None:
    """Call rebuild(game) at start and whenever one of the game's files changes, until `stop`
    is set; `saved(game, files)`, when given, first hears which files changed (none at the
    start). An internal error in a rebuild goes to `failed` and watching goes on: the next
    save gets the next try. A change is read once it is whole: the kernel saw each changed
    file closed after its last write (Closes), or it has settled (settled()); a file being
    written is never read half-way."""
    last: dict[str, tuple] = {}
    seen: dict[str, tuple[tuple, float]] = {}  # game -> (its newest stamp, since when)
    keep_reads()  # a file saved again is parsed only where it changed
    closes = Closes()
    try:
        _watch(project, games, rebuild, stop, failed, interval, saved, last, seen, closes)
    finally:
        closes.close()


def _watch(project, games, rebuild, stop, failed, interval, saved, last, seen,
           closes: Closes) -> None:
    while not stop.is_set():
        waiting = False  # a change not yet whole: looked at again soon
        for game in games:
            closes.watch([str(folder) for folder in (
                project.cards / game, project.root / "layouts", project.root / "fonts")])
            stamp = files_stamp(project, game)
            closes.watch(sorted({entry[0] for entry in stamp}))
            closes.drain()  # (after the stamp: a write it shows has been told by now)
            if stamp != last.get(game):
                now = time.monotonic()
                previous = seen.get(game, ((), 0.0))[0]
                if previous != stamp:
                    seen[game] = (stamp, now)
                changed = changed_files(last[game], stamp) if game in last else []
                held = now - seen[game][1]
                if game in last and not closes.all_whole(changed) and not (
                        settled(last[game], stamp, held, previous) and
                        (held >= OPEN_SETTLE or not closes.still_open(changed))):
                    waiting = True
                    continue  # still being written: looked at again at the next look
                if saved is not None:
                    saved(game, changed)
                last[game] = stamp
                closes.taken(changed)
                try:
                    rebuild(game)
                except Exception as exc:  # a bug in cardgen: say so, keep watching
                    if failed is None:
                        raise
                    failed(game, exc)
        if not stop.is_set():  # the next look: when the kernel tells of a change, else soon
            closes.wait(min(interval, SETTLE / 4) if waiting else interval, stop)
