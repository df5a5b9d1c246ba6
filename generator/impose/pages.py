"""What imposition makes: pages of placed faces (Placement, Page), a back file's group of
sheets (BackGroup), a whole game's sheets (Imposition), and the cut marks around a sheet's
grid; the grid (__init__.py) and packed sheets (packing.py) both make them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import SheetPreset
from ..primitives import Face, Item, Line

MARK_COLOR = (0.0, 0.0, 0.0)
MARK_WIDTH = 0.25


@dataclass(frozen=True)
class Placement:
    face: Face
    x: float  # bottom-left corner of the slot the face fills, on the page
    y: float
    label: str = ""  # the card id ("" for a filler), for people reading the plan
    rotate: int = 0  # 0, or 90 / -90: the face is turned to fit a slot of the other orientation
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # printed beyond the slot:
    # left, bottom, right, top
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h on the page, instead


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    placements: tuple[Placement, ...]
    marks: tuple[Item, ...] = ()


@dataclass(frozen=True)
class BackGroup:
    """Sheets whose back pages are all the same page."""

    name: str  # "<deck>" or "<deck>-<k>": names the single-back file
    deck: str
    sheets: tuple[int, ...]  # front page numbers (0-based) in this group
    back: Page  # the back page every sheet of the group takes
    cards: int  # cards in the group (fillers not counted)


@dataclass(frozen=True)
class Imposition:
    fronts: tuple[Page, ...]
    backs: tuple[Page, ...]
    groups: tuple[BackGroup, ...] = ()
    fillers: int = 0  # blank filler slots
    sheets: tuple[SheetPreset, ...] = field(default=())  # the sheet of each page
    decks: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (deck id, its front page numbers)
    plans: tuple[str, ...] = ()  # per page: what a packed sheet holds, in words ("" for a grid)

    @property
    def cards(self) -> int:
        return sum(1 for p in self.fronts for pl in p.placements if pl.label)


def crop_marks(sheet: SheetPreset, used: frozenset[int] | None = None) -> tuple[Line, ...]:
    """Cut marks outside the cards, at every card edge, on all four sides: of the whole
    grid, or of the rows and columns the `used` slots are in (a sheet of one row of errata
    cards has marks for that row, not for the rows left blank)."""
    if not sheet.crop_marks or used is not None and not used:
        return ()
    length, offset = sheet.crop_marks
    w, h = sheet.card
    rows = sorted({i // sheet.columns for i in used}) if used is not None else range(sheet.rows)
    cols = sorted({i % sheet.columns for i in used}) if used is not None else range(sheet.columns)
    xs = sorted({round(sheet.margin_left + c * (w + sheet.gap[0]) + d, 4)
                 for c in cols for d in (0.0, w)})
    tops = sorted({round(sheet.margin_top + r * (h + sheet.gap[1]) + d, 4)
                   for r in rows for d in (0.0, h)})
    ys = [sheet.paper[1] - t for t in tops]
    grid_left, grid_right = xs[0], xs[-1]
    grid_top, grid_bottom = ys[0], ys[-1]
    marks: list[Line] = []
    for x in xs:
        marks.append(Line(x, grid_top + offset, x, grid_top + offset + length, MARK_COLOR,
                          MARK_WIDTH))
        marks.append(Line(x, grid_bottom - offset, x, grid_bottom - offset - length, MARK_COLOR,
                          MARK_WIDTH))
    for y in ys:
        marks.append(Line(grid_left - offset, y, grid_left - offset - length, y, MARK_COLOR,
                          MARK_WIDTH))
        marks.append(Line(grid_right + offset, y, grid_right + offset + length, y, MARK_COLOR,
                          MARK_WIDTH))
    return tuple(marks)
