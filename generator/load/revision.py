"""When a game was last revised: the date of the last git commit that touched its folder.

The files cardgen writes carry it (their creation and modification dates) with the game's
`version:`, so a resubmitted file can be told from the first; it depends on the project
alone (its files and its history), so the same input still gives the same bytes. A game
not in git, or without git on the machine, has no date: the files keep the fixed one."""

from __future__ import annotations

import subprocess
from datetime import datetime, timezone
from pathlib import Path

GIT_SECONDS = 10  # a budget for the one question to git


def committed(folder: Path) -> str:
    """The last commit's date of what is under `folder`, in UTC, as ISO 8601
    ("2026-12-04T21:07:33+00:00"); "" when it has none (not in git, or no git)."""
    try:
        done = subprocess.run(["git", "log", "-1", "--format=%ct", "--", "."], cwd=folder,
                              capture_output=True, text=True, timeout=GIT_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return ""
    stamp = done.stdout.strip()
    if done.returncode != 0 or not stamp.isdigit():
        return ""
    return datetime.fromtimestamp(int(stamp), timezone.utc).isoformat()

