"""What changed in a game between two versions of its data: `cardgen diff`.

The other version is a git revision of the project (its files taken with `git archive`
into a temporary folder) or another project folder. Both are loaded and resolved as a
build would load them, then compared: cards by id (added, removed, and changed field by
field, old -> new), and the data tables, value by value. Order does not matter: cards
that only moved are not changes.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .load import Project
from .model import Card, Game, plain
from .pipeline import check
from .problems import DataProblems, UsageError


@dataclass
class GameDiff:
    added: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    changed: list[tuple[Card, Card, list[tuple[str, Any, Any]]]] = field(default_factory=list)
    data: list[tuple[str, Any, Any]] = field(default_factory=list)  # (path, old, new)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.data)

    def changed_ids(self) -> set[str]:
        return {c.id for c in self.added} | {new.id for _, new, _ in self.changed}


def _values(card: Card) -> dict:
    return {**dict(card.fields), "copies": card.copies, "blank": card.blank, "deck": card.deck,
            **({"back": card.back} if card.back else {})}


def _walk(old: Any, new: Any, path: str, out: list) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            _walk(old.get(key, _MISSING), new.get(key, _MISSING), f"{path}.{key}" if path else str(key), out)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            _walk(a, b, f"{path}[{i}]", out)
    elif old != new:
        out.append((path, old, new))


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING = _Missing()


def compare(old: Game, new: Game) -> GameDiff:
    diff = GameDiff()
    before = {c.id: c for c in old.cards()}
    after = {c.id: c for c in new.cards()}
    diff.removed = [c for i, c in before.items() if i not in after]
    for card_id, card in after.items():
        if card_id not in before:
            diff.added.append(card)
            continue
        changes: list = []
        _walk(_values(before[card_id]), _values(card), "", changes)
        if changes:
            diff.changed.append((before[card_id], card, changes))
    _walk(plain(old.data), plain(new.data), "", diff.data)
    return diff


def _load(project: Project, game_id: str) -> Game:
    outcome = check(project, game_id)
    if outcome.game is None:
        raise DataProblems(outcome.report)
    return outcome.game


def at_revision(project: Project, game_id: str, revision: str, folder: Path) -> Project:
    """What a build of the game reads (its folder and layouts/), as it was at a git
    revision, extracted into `folder`."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=project.root,
                             capture_output=True, text=True, check=True).stdout.strip()
        prefix = Path(project.root).resolve().relative_to(Path(top).resolve()).as_posix()
        base = "" if prefix == "." else prefix + "/"
        paths = [f"{base}cards/{game_id}", f"{base}layouts"]
        listed = subprocess.run(["git", "ls-tree", "--name-only", "--end-of-options", revision,
                                 "--", *paths], cwd=top,
                                capture_output=True, text=True, check=True).stdout.split()
        archive = subprocess.run(["git", "archive", "--format=tar", "--end-of-options", revision,
                                  *listed],
                                 cwd=top, capture_output=True, check=True).stdout if listed else b""
    except FileNotFoundError:
        raise UsageError("git is needed to compare with a revision") from None
    except subprocess.CalledProcessError as exc:
        err = exc.stderr or ""
        message = (err.decode("utf-8", "replace") if isinstance(err, bytes) else err).strip().splitlines()
        raise UsageError(f"cannot read revision '{revision}': "
                         f"{message[-1] if message else 'not a git repository'}") from None
    root = folder / prefix if prefix != "." else folder
    root.mkdir(parents=True, exist_ok=True)
    (root / "cards").mkdir(exist_ok=True)
    if archive:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
    fonts = root / "fonts"
    if not fonts.exists():  # fonts are large and rarely change: use the working tree's
        fonts.symlink_to(Path(project.root) / "fonts")
    return Project(root, root / "output", project.trust)


def diff_game(project: Project, game_id: str, revision: str | None = None,
              other: Path | None = None) -> GameDiff:
    """Changes from the revision (or the other folder) to the working tree."""
    new = _load(project, game_id)
    if other is not None:
        return compare(_load(Project.find(other, trust=project.trust), game_id), new)
    with tempfile.TemporaryDirectory(prefix="cardgen-diff-") as tmp:
        old_project = at_revision(project, game_id, revision or "HEAD", Path(tmp))
        if not (old_project.cards / game_id / "game.yaml").is_file():
            return GameDiff(added=list(new.cards()))
        return compare(_load(old_project, game_id), new)


def _show(value: Any) -> str:
    if value is _MISSING:
        return "(none)"
    text = repr(value) if not isinstance(value, str) else value.replace("\n", "⏎")
    return text if len(text) <= 60 else text[:57] + "..."


def format_diff(game_id: str, diff: GameDiff) -> list[str]:
    if diff.empty:
        return [f"{game_id}: no changes"]
    lines = [f"{game_id}: {len(diff.added)} added, {len(diff.removed)} removed, "
             f"{len(diff.changed)} changed cards; {len(diff.data)} data changes"]
    lines += [f"+ card '{c.id}' ({c.deck}) {_show(c.fields.get('name', ''))}".rstrip() for c in diff.added]
    lines += [f"- card '{c.id}' ({c.deck}) {_show(c.fields.get('name', ''))}".rstrip() for c in diff.removed]
    for old, new, changes in diff.changed:
        lines.append(f"~ card '{new.id}' ({new.deck})")
        lines += [f"    {path}: {_show(a)} -> {_show(b)}" for path, a, b in changes]
    lines += [f"~ data {path}: {_show(a)} -> {_show(b)}" for path, a, b in diff.data]
    return lines
