"""Boards: a deck's card faces (tiles) placed by a board layout, drawn to scale.

A ring puts N tiles with their centres on a circle: the first at `start_angle`
(degrees counter-clockwise from the right; 90 is the top), the next ones
clockwise (or counter-clockwise). Radial tiles are turned so that their bottom
edge faces the centre. Without a radius, the ring is as small as the tiles and
the gap between neighbours allow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..colors import parse_color
from ..model import Board
from ..primitives import Face, Group, Item, Rect, Text

OUTLINE = (0.55, 0.55, 0.55)


@dataclass(frozen=True)
class BoardFace:
    board: Board
    face: Face
    centres: tuple[tuple[float, float], ...]  # tile centres on the face, points, y up
    radius: float
    reach: float = 0.0  # how far a tile reaches from its centre (half its diagonal)


def ring_radius(board: Board, w: float, h: float) -> float:
    n = len(board.cards)
    if board.radius is not None:
        return board.radius
    if n == 1:
        return 0.0
    half_angle = math.pi / n
    if board.radial:  # neighbours meet first at their inner corners
        return (w + board.gap) / (2 * math.sin(half_angle)) + h / 2
    return (math.hypot(w, h) + board.gap) / (2 * math.sin(half_angle))


def ring_angles(board: Board) -> list[float]:
    """Each tile's angle, degrees counter-clockwise from the right."""
    n = len(board.cards)
    step = 360.0 / n * (-1 if board.clockwise else 1)
    return [board.start_angle + i * step for i in range(n)]


def layout_board(board: Board, tiles: dict[str, Face], title_font: str) -> BoardFace:
    first = tiles[board.cards[0]]
    w, h = first.width, first.height
    radius = ring_radius(board, w, h)
    reach = radius + math.hypot(w, h) / 2
    side = 2 * (reach + board.margin)
    cx = cy = side / 2
    items: list[Item] = [Rect(0, 0, side, side, fill=parse_color(board.color))]
    centres = []
    for card_id, angle in zip(board.cards, ring_angles(board)):
        face = tiles[card_id]
        x = cx + radius * math.cos(math.radians(angle))
        y = cy + radius * math.sin(math.radians(angle))
        centres.append((x, y))
        turn = angle - 90 if board.radial else 0.0
        tile = face.items + (Rect(0, 0, face.width, face.height, stroke=OUTLINE, stroke_width=0.4),)
        items.append(Group(tile, rotate=turn, cx=x, cy=y, dx=x - face.width / 2,
                           dy=y - face.height / 2, clip=(0, 0, face.width, face.height)))
    items.append(Text(cx, cy - 6, board.title, title_font, 16, (0.2, 0.2, 0.2), anchor="middle"))
    return BoardFace(board, Face(side, side, tuple(items)), tuple(centres), radius,
                     math.hypot(w, h) / 2)
