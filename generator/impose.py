"""Stage 6, impose: place card faces on sheets, fronts and their duplex backs.

Pure geometry. Back page k carries the backs of front page k; each back sits
where its front will land after the sheet is turned over: long-edge duplex
mirrors the page left-to-right, short-edge duplex mirrors it top-to-bottom
(asymmetric margins mirror with it).
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import DeckFaces, GameFaces
from .layout.primitives import Face, Item
from .model import SheetPreset


@dataclass(frozen=True)
class Placement:
    face: Face
    x: float  # bottom-left corner of the slot the face fills, on the page
    y: float
    label: str = ""  # the card id, for people reading the plan
    rotate: int = 0  # 0, or 90 / -90: the face is turned to fit a slot of the other orientation


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    placements: tuple[Placement, ...]
    marks: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Imposition:
    fronts: tuple[Page, ...]
    backs: tuple[Page, ...]

    @property
    def cards(self) -> int:
        return sum(len(p.placements) for p in self.fronts)


def slot_position(sheet: SheetPreset, index: int) -> tuple[float, float]:
    """Bottom-left corner of slot `index` (row-major from the top-left) on a front page."""
    row, col = divmod(index, sheet.columns)
    w, h = sheet.card
    x = sheet.margin_left + col * (w + sheet.gap[0])
    y_top = sheet.margin_top + row * (h + sheet.gap[1])
    return x, sheet.paper[1] - y_top - h


def back_position(sheet: SheetPreset, x: float, y: float) -> tuple[float, float]:
    """Where the back of a card placed at (x, y) on the front must be drawn."""
    w, h = sheet.card
    if sheet.duplex == "short-edge":
        return x, sheet.paper[1] - y - h
    return sheet.paper[0] - x - w, y


def turn(sheet: SheetPreset, face: Face) -> tuple[int, int]:
    """(front, back) rotation for a face in this sheet's slots.

    A face whose width is the slot's height is turned 90 degrees counter-clockwise.
    Its back is turned so that both sides share the card's "up" after the flip:
    over the long edge (left and right swap) the back turns the other way."""
    if abs(face.width - sheet.card[0]) < 0.1 and abs(face.height - sheet.card[1]) < 0.1:
        return 0, 0
    return 90, (-90 if sheet.duplex == "long-edge" else 90)


def impose_deck(faces: DeckFaces) -> Imposition:
    sheet = faces.deck.sheet
    cards = faces.deck.instances()
    fronts, backs = [], []
    for start in range(0, len(cards), sheet.per_sheet):
        front, back = [], []
        for index, card in enumerate(cards[start:start + sheet.per_sheet]):
            x, y = slot_position(sheet, index)
            face = faces.fronts[card.id]
            front_turn, back_turn = turn(sheet, face)
            front.append(Placement(face, x, y, card.id, front_turn))
            bx, by = back_position(sheet, x, y)
            back.append(Placement(faces.backs[card.id], bx, by, card.id, back_turn))
        fronts.append(Page(*sheet.paper, tuple(front)))
        backs.append(Page(*sheet.paper, tuple(back)))
    return Imposition(tuple(fronts), tuple(backs))


def impose_game(game_faces: GameFaces) -> Imposition:
    """Every deck in order, each starting on a fresh sheet."""
    fronts: list[Page] = []
    backs: list[Page] = []
    for deck_faces in game_faces.decks:
        imp = impose_deck(deck_faces)
        fronts.extend(imp.fronts)
        backs.extend(imp.backs)
    return Imposition(tuple(fronts), tuple(backs))
