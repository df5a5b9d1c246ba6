"""A build owns the files it writes: which build wrote which file of a game's output folder.

Each build records, in the folder's ledger, the files it wrote, under a key for what made
them (a print target, or its errata set). A file an earlier build of the same key wrote,
and this one does not, is removed once the new set is in place: after a target is renamed
or a deck removed, nothing stale is left in output/ to be printed by mistake. Only files a
ledger lists are ever removed, never one that cardgen did not write.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path
from typing import Callable, Iterable

from ..paths import contained

LEDGER = ".cardgen-written.json"


def _read(folder: Path) -> dict[str, list[str]]:
    """The folder's ledger; an unreadable or foreign one counts as empty (nothing it lists
    is then removed: a ledger is a record, never a reason to delete a file)."""
    try:
        data = json.loads((folder / LEDGER).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: [n for n in v if isinstance(n, str)] for k, v in data.items()
            if isinstance(k, str) and isinstance(v, list)}


def settle(folder: Path, key: str | None, written: Iterable[Path],
           dropped: Callable[[str], bool] = lambda key: False) -> list[Path]:
    """Record that the build of `key` wrote `written` (its whole set) into `folder`, and
    remove what the ledger says an earlier build of `key`, or of a key `dropped` says is
    gone (a renamed target), wrote that no build it keeps still owns. `key` None records
    nothing for it (only drops). Returns the files removed."""
    ledger = _read(folder)
    mine = sorted({p.relative_to(folder).as_posix() for p in map(Path, written)
                   if contained(folder, p)})
    old = set(ledger.get(key, ())) if key is not None else set()
    gone = [k for k in ledger if k != key and dropped(k)]
    for k in gone:
        old |= set(ledger.pop(k))
    if key is not None:
        ledger[key] = mine
    owned = {name for names in ledger.values() for name in names}
    removed = []
    for name in sorted(old - owned):
        path = folder / name
        if not contained(folder, path.parent) or not (path.is_file() or path.is_symlink()):
            continue  # a name that leads out of the folder, or nothing there any more
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    _write(folder, ledger)
    return removed


def _write(folder: Path, ledger: dict) -> None:
    """The ledger, replaced whole (a temporary file renamed into place)."""
    if not ledger and not (folder / LEDGER).exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{LEDGER}.{secrets.token_hex(6)}.tmp"
    try:
        tmp.write_text(json.dumps(ledger, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                       "utf-8")
        os.replace(tmp, folder / LEDGER)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def key(target: str | None, errata: bool) -> str:
    """What a build's files are recorded under: its print target, and whether they are an
    errata set."""
    return ("errata:" if errata else "build:") + (target or "")


def owned(paths: list[Path], errata: bool) -> list[Path]:
    """The files a build records as its own: all it wrote; for an errata run, its errata
    set (<stem>-errata-*), not the rulebook it rebuilt under its own name, which stays the
    game's current rulebook whatever later errata runs find."""
    return paths if not errata else [p for p in paths if "-errata-" in p.name]


def retired(declared: tuple[str, ...], runs: list[tuple[str | None, bool]]):
    """Which recorded keys a build of every print target retires: those of its kinds
    (build or errata) whose target the game no longer has (a renamed target, or the plain
    build of a game that now has targets). A build of some targets retires nothing.
    `runs`: each run's (target, errata)."""
    targets: set[str | None] = set(declared) or {None}  # no targets: the plain build's None
    if {target for target, _ in runs} != targets:
        return lambda k: False
    kinds = {key(t, e).split(":")[0] for t, e in runs}
    current = {key(t, e) for t, e in runs}
    return lambda k: k.split(":")[0] in kinds and k not in current
