"""The project: the folder holding `cards/`, `layouts/` and `fonts/`, found from where
cardgen runs, and where output goes."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..paths import NAME_RULE, is_name
from ..problems import UsageError
from ..i18n import _


@dataclass(frozen=True)
class Project:
    """A folder holding `cards/`, `layouts/` and `fonts/`, and where output goes."""

    root: Path
    output: Path
    trust: bool = False  # the user said --trust: a game's Python checks module may run

    @classmethod
    def find(cls, start: Path | None = None, output: Path | None = None,
             trust: bool = False) -> "Project":
        start = (start or Path.cwd()).resolve()
        for folder in (start, *start.parents):
            if (folder / "cards").is_dir():
                out = (output or folder / "output").resolve()
                blocking = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()),
                                None)
                if blocking is not None:  # a folder cannot be made there (was NotADirectoryError)
                    raise UsageError(_("the output folder {out} cannot be made: {blocking} is a "
                                       "file", out=out, blocking=blocking)
                                     + (" (--output names a folder)" if output else ""))
                return cls(folder, out, trust)
        raise UsageError(_("no cards/ folder in {start} or above it; run cardgen in a project "
                           "folder or pass --root", start=start))

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    def game_folders(self) -> list[str]:
        """The folder names under cards/ that hold a game.yaml, whatever their names."""
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
