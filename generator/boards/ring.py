"""ring: N tiles (a run of a deck's cards) with their centres on a circle, the first at
`start_angle` (degrees counter-clockwise from the right; 90 is the top), the next ones
clockwise (or counter-clockwise); radial tiles turned so that their bottom edge faces the
centre. Without a radius, the ring is as small as the tiles and the gap between
neighbours allow."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Board
from ..primitives import Face, Group, Item, Text
from . import base
from .base import INK, BoardFace, CellFace, Entry, ground, tile_outline
from ..i18n import N_, _
from ..options import Option, Options

NAME = "ring"
CELLS = False  # it places a deck's cards, not cells from data
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys ("tiles": the cards of the game's first deck).
EXAMPLE = {"layout": "ring", "tiles": True}
OPTIONS = base.style("#8c8c8c", "0.4pt") + Options(
    Option("start_angle", "number", N_("degrees counter-clockwise from the right: 90 puts the "
                                       "first tile at the top"), 90, schema={
        "x-expected": N_("degrees: 90 puts the first tile at the top")}),
    Option("direction", "choice", N_("the way the numbers go"), "clockwise",
           choices=("clockwise", "counterclockwise")),
    Option("gap", "length", N_("between neighbouring tiles, along the ring"), "3mm"),
    Option("radius", "length", N_("the ring's radius"),
           shown_default=N_("as small as the tiles and the gap allow")),
    Option("tile_rotation", "choice", N_("radial: each tile's bottom edge towards the centre; "
                                         "upright: as printed"), "radial",
           choices=("radial", "upright")),
    base.TITLE_SIZE,
)


@dataclass(frozen=True)
class Spec:
    start_angle: float = float(OPTIONS.value("start_angle"))  # counter-clockwise from the right
    clockwise: bool = True
    gap: float = OPTIONS.value("gap")  # between neighbouring tiles along the ring
    radius: float | None = None  # None: as small as the tiles and gap allow
    radial: bool = True  # tiles turned to face the centre (else upright)
    title_size: float = OPTIONS.value("title_size")


def resolve(layout, entry: Entry) -> Spec | None:
    raw = entry.raw
    if raw.get("deck") is None or "cards" not in raw:
        entry.report.error(_("board '{raw}': a ring places a deck's cards: give deck: and cards:",
                             raw=raw['id']), entry.where(), "reference")
        return None
    v = layout.options(OPTIONS)
    return Spec(start_angle=float(v["start_angle"]), clockwise=v["direction"] == "clockwise",
                gap=v["gap"], radius=v["radius"], radial=v["tile_rotation"] == "radial",
                title_size=v["title_size"])


THE_MIDDLE = _("the ring's middle, inside its tiles")  # where a ring's title is printed


def check(board: Board, game, report) -> None:
    """What a ring needs (a deck and a run of its cards) is resolve's to say; its title, set
    in the middle, must fit inside the tiles around it."""
    deck = next((d for d in game.decks if d.id == board.deck), None)
    if deck is None or not board.cards:
        return
    w, h = deck.front.size
    inner = ring_radius(board, w, h) - (h / 2 if board.spec.radial else math.hypot(w, h) / 2)
    size = board.spec.title_size  # a line of it, centred: as wide as the hole at its height
    room = 2 * math.sqrt(inner * inner - size * size / 4) if inner > size / 2 else 0.0
    base.check_title(board, game, size, room, THE_MIDDLE, report)


def drawable(board: Board) -> bool:
    return bool(board.cards)


def cell_box(board: Board):
    return None


def ring_radius(board: Board, w: float, h: float) -> float:
    n = len(board.cards)
    spec = board.spec
    if spec.radius is not None:
        return spec.radius
    if n == 1:
        return 0.0
    half_angle = math.pi / n
    if spec.radial:  # neighbours meet first at their inner corners
        return (w + spec.gap) / (2 * math.sin(half_angle)) + h / 2
    return (math.hypot(w, h) + spec.gap) / (2 * math.sin(half_angle))


def ring_angles(board: Board) -> list[float]:
    """Each tile's angle, degrees counter-clockwise from the right."""
    n = len(board.cards)
    step = 360.0 / n * (-1 if board.spec.clockwise else 1)
    return [board.spec.start_angle + i * step for i in range(n)]


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    first = tiles[board.cards[0]]
    w, h = first.width, first.height
    radius = ring_radius(board, w, h)
    reach = radius + math.hypot(w, h) / 2
    side = 2 * (reach + board.margin)
    cx = cy = side / 2
    items: list[Item] = [ground(board, side, side)]
    centres = []
    for card_id, angle in zip(board.cards, ring_angles(board)):
        face = tiles[card_id]
        x = cx + radius * math.cos(math.radians(angle))
        y = cy + radius * math.sin(math.radians(angle))
        centres.append((x, y))
        turn = angle - 90 if board.spec.radial else 0.0
        tile = face.items + tile_outline(board, face.width, face.height)
        items.append(Group(tile, rotate=turn, cx=x, cy=y, dx=x - face.width / 2,
                           dy=y - face.height / 2, clip=(0, 0, face.width, face.height)))
    size = board.spec.title_size
    items.append(Text(cx, cy - size * 0.375, board.title, title_font, size, INK,
                      anchor="middle"))
    return BoardFace(board, Face(side, side, tuple(items)), tuple(centres), radius,
                     math.hypot(w, h) / 2)
