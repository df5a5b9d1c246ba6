"""The game's checks: its checks file's invariants, as written."""

from __future__ import annotations


from ..load import LoadedGame
from ..model import Invariant


def resolve_checks(loaded: LoadedGame) -> tuple[Invariant, ...]:
    if loaded.checks is None:
        return ()
    source = loaded.checks.source
    return tuple(
        Invariant(
            name=c["name"],
            assertion=c["assert"],
            for_path=c.get("for"),
            when=c.get("when"),
            message=c.get("message"),
            at=c.get("at"),
            level=c.get("level", "error"),
            source=source,
            path=("checks", i),
        )
        for i, c in enumerate(loaded.checks.data["checks"])
    )
