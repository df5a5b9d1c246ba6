"""`cardgen watch` and the one poller behind it and `cardgen serve`: rebuild a game on
every save of its data, layouts or fonts.

Each rebuild prints the validation report. Invalid data writes nothing, so the last good
PDFs stay in output/ until the data is fixed.

The poller looks at the files a build reads, never further: a link is followed only
where it stays inside the folder it is in (the game folder, layouts/, fonts/), every real
folder is walked once (a link loop such as `ln -s . x` ends), and a walk stops after
MAX_FILES files.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Callable

from .load import Project
from .paths import contained

POLL = 0.3  # seconds between looks at the files
SETTLE = 0.25  # seconds a changed file's size and time must hold still before it is read
# (under POLL: a save is read at the look after the one that saw it, if it has ended)
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


def watch(project: Project, games: list[str], rebuild: Callable[[str], None],
          stop: threading.Event, failed: Callable[[str, Exception], None] | None = None,
          interval: float = POLL,
          saved: Callable[[str, list[Path]], None] | None = None) -> None:
    """Call rebuild(game) at start and whenever one of the game's files changes, until `stop`
    is set; `saved(game, files)`, when given, first hears which files changed (none at the
    start). An internal error in a rebuild goes to `failed` and watching goes on: the next
    save gets the next try. A change is read once it has settled (settled()): a file being
    written is never read half-way."""
    last: dict[str, tuple] = {}
    seen: dict[str, tuple[tuple, float]] = {}  # game -> (its newest stamp, since when)
    while not stop.is_set():
        for game in games:
            stamp = files_stamp(project, game)
            if stamp != last.get(game):
                now = time.monotonic()
                previous = seen.get(game, ((), 0.0))[0]
                if previous != stamp:
                    seen[game] = (stamp, now)
                if game in last and not settled(last[game], stamp, now - seen[game][1],
                                                previous):
                    continue  # still being written: looked at again at the next poll
                if saved is not None:
                    saved(game, changed_files(last[game], stamp) if game in last else [])
                last[game] = stamp
                try:
                    rebuild(game)
                except Exception as exc:  # a bug in cardgen: say so, keep watching
                    if failed is None:
                        raise
                    failed(game, exc)
        stop.wait(interval)
