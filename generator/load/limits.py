"""The lists of game.yaml and of the game's data that boards take (a board's cells and
routes), each read no further than its budget (yamlfile.Limit): a million routes stop at
the 5,001st instead of after the whole file has been read and built. The budgets are the
board shapes' (boards.lists), declared there once."""

from __future__ import annotations

from ..boards import lists
from ..boards.base import data_path
from ..i18n import _
from .yamlfile import ANY, Limit


def game_limits() -> dict[tuple, Limit]:
    """The lists of game.yaml that boards take (a board's own cells: and routes:), each read
    no further than its budget."""
    def say(key: str, most: int, what: str):
        return lambda owner: _("board '{board}': {key}: more than {most:,} {what}; a board has "
                               "at most {most:,}", board=owner if isinstance(owner, str) else
                               "?", key=key, most=most, what=what)
    return {("boards", ANY, key): Limit(most, say(key, most, what))
            for key, (most, what) in lists().items()}


def data_limits(data: dict) -> dict[str, dict[tuple, Limit]]:
    """The lists of the game's data that boards take (cells: data.world.cities), by table:
    each read no further than its budget, so that a million routes stop at the 5,001st
    instead of after the whole file has been read."""
    found: dict[str, dict[tuple, Limit]] = {}
    budgets = lists()
    boards = data.get("boards")
    for board in boards if isinstance(boards, list) else ():
        if not isinstance(board, dict):
            continue
        for key, (most, what) in budgets.items():
            value = board.get(key)
            parts = data_path(value) if isinstance(value, str) else []
            if not isinstance(value, str) or not parts:
                continue
            table = found.setdefault(parts[0], {})
            path = tuple(parts[1:])
            if path not in table or most < table[path].most:
                table[path] = Limit(most, _said_limit(board.get("id"), key, value, most, what))
    return found


def _said_limit(board: object, key: str, value: str, most: int, what: str):
    return lambda _owner: _("board '{board}': {key}: {value} holds more than {most:,} {what}; "
                            "a board has at most {most:,}",
                            board=board if isinstance(board, str) else "?", key=key, value=value,
                            most=most, what=what)
