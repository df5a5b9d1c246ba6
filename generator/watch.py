"""`cardgen watch`: rebuild a game on every save of its data, layouts or fonts.

Each rebuild prints the validation report. Invalid data writes nothing, so the last good
PDFs stay in output/ until the data is fixed.
"""

from __future__ import annotations

import os
import threading

from .load import Project

POLL = 0.3  # seconds between looks at the files


def files_stamp(project: Project, game: str) -> tuple:
    """What a build of `game` reads, as (folder, name, mtime, size) of every file."""
    entries = []
    for folder in (project.cards / game, project.root / "layouts", project.root / "fonts"):
        for root, _, files in os.walk(folder, followlinks=True):
            for name in files:
                try:
                    st = os.stat(os.path.join(root, name))
                except OSError:
                    continue
                entries.append((root, name, st.st_mtime_ns, st.st_size))
    return tuple(sorted(entries))


def watch(project: Project, games: list[str], rebuild, stop: threading.Event) -> None:
    """Call rebuild(game) at start and whenever one of the game's files changes."""
    last: dict[str, tuple] = {}
    while not stop.is_set():
        for game in games:
            stamp = files_stamp(project, game)
            if stamp != last.get(game):
                last[game] = stamp
                rebuild(game)
        stop.wait(POLL)
