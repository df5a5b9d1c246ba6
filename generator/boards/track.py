"""track: numbered spaces around the board's edge (clockwise from the top-left corner),
along a line, or on a spiral inwards; every 5th space outlined, every 10th filled (as
`emphasis:` says). Its numbers run from the board entry's `first` to its `last`, by its
`step` (1, or 10 for a game that scores in tens)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..colors import Color
from ..model import Board
from ..primitives import Ellipse, Face, Item, Rect, Text
from . import base
from .base import INK, BoardFace, CellFace, Entry, ground, positive
from ..i18n import N_, _
from ..options import Option, Options

NAME = "track"
CELLS = False
# A board of this shape as a game gives it, for the combination matrix (tests/test_matrix.py):
# a shipped board layout and the entry's own keys.
EXAMPLE = {"layout": "track-line", "first": 0, "last": 20, "step": 5}
# (a space's outline, where it is not emphasised, and its number's size: the shapes' style)
OPTIONS = base.style("#8c8c8c", "0.5pt", "12pt") + Options(
    Option("path", "choice", N_("edge: around the board, clockwise from the top-left corner; "
                                "line: in a row; spiral: inwards from the top"), "edge",
           choices=("edge", "line", "spiral")),
    Option("space", "length", N_("a space's size (smaller where the edge leaves less room)"),
           "15mm"),
    Option("size", "size", N_("edge: the board's size"), ["0mm", "0mm"],
           shown_default=N_("a square that holds the spaces"), schema={
               "x-expected": N_("the board's [width, height], such as [280mm, 190mm]")}),
    Option("emphasis", "list", N_("every Nth space outlined, every Mth filled"), [5, 10],
           schema={"items": {"type": "integer", "minimum": 2, "maximum": 100},
                   "maxItems": 2}),
    Option("accent", "color", N_("the colour of emphasised spaces"), "#7a2e4a"),
    base.TITLE_SIZE,
)
MAX_SPACES = 1000


@dataclass(frozen=True)
class Spec:
    numbers: tuple[int, int] = (0, 0)  # its first and last numbers
    step: int = 1  # from one space's number to the next (10: a game that scores in tens)
    path: str = OPTIONS.value("path")  # edge, line or spiral
    space: float = OPTIONS.value("space")  # the size of a space
    size: tuple[float, float] = OPTIONS.value("size")  # edge: the board's (0: from the spaces)
    emphasis: tuple[int, ...] = tuple(OPTIONS.value("emphasis"))  # outlined, filled
    accent: Color = OPTIONS.value("accent")  # the colour of emphasised spaces
    title_size: float = OPTIONS.value("title_size")  # edge: the title in the middle


def resolve(layout, entry: Entry) -> Spec | None:
    raw = entry.raw
    first, last = entry.number("first", 0), entry.number("last", None)
    if last is None and "last" not in raw:
        entry.report.error(_("board '{raw}': a track needs last: its last number", raw=raw['id']),
                           entry.where(), "reference")
        return None
    step = entry.number("step", 1)
    if first is None or last is None or step is None:
        return None
    if step < 1:  # (a template's value: the schema holds a written one to 1 or more)
        entry.report.error(_("board '{raw}': step: {step} is not 1 or more",
                             raw=raw['id'], step=step),
                           entry.where("step"), "reference")
        return None
    spaces = (last - first) // step + 1
    if not 0 < spaces <= MAX_SPACES:
        by = _(", step {step}", step=step) if step > 1 else ""
        entry.report.error(_("board '{raw}': a track of {spaces} spaces (first {first}, last "
                             "{last}{by}); a track has 1 to {MAX_SPACES:,}", raw=raw['id'],
                             spaces=spaces, first=first, last=last, by=by,
                             MAX_SPACES=MAX_SPACES), entry.where("last"), "reference")
        return None
    if (last - first) % step:
        entry.report.error(_("board '{raw}': the track counts from {first} by {step}, so its last "
                             "number {last} is never reached (the last space would be {n}); "
                             "make last first plus a multiple of step",
                                 raw=raw['id'], first=first, step=step, last=last,
                                 n=first + (spaces - 1) * step), entry.where("last"), "reference")
        return None
    v = layout.options(OPTIONS, entry.palette)
    return Spec((first, last), step, v["path"], v["space"], v["size"], tuple(v["emphasis"]),
                v["accent"], v["title_size"])


THE_INSIDE = _("the board inside its track")  # where an edge track's title is printed


def check(board: Board, game, report) -> None:
    positive(board, board.spec.space, "space", report)
    if board.spec.path == "edge" and drawable(board):  # its title, in the middle
        (width, _height), _centres, side = track_centres(board)
        base.check_title(board, game, board.spec.title_size, width - 2 * (board.margin + side),
                         THE_INSIDE, report)
    if game.max_score is not None and board.spec.numbers[1] != game.max_score:
        report.error(_("board '{board_id}': the track runs {spec_numbers} to {spec_numbers2}, but "
                       "the game's max_score is {game_max_score}",
                           board_id=board.id, spec_numbers=board.spec.numbers[0],
                           spec_numbers2=board.spec.numbers[1], game_max_score=game.max_score),
                     board.loc, "board")


def drawable(board: Board) -> bool:
    return board.spec.space > 0 and board.spec.numbers[1] >= board.spec.numbers[0]


def spaces(spec: Spec) -> int:
    """How many spaces a track has: first to last, by step."""
    return (spec.numbers[1] - spec.numbers[0]) // spec.step + 1


def cell_box(board: Board):
    return None


def track_centres(board: Board) -> tuple[tuple[float, float], list[tuple[float, float]], float]:
    """(board size, each space's centre y down, the side of a space) of a track."""
    spec = board.spec
    n = spaces(spec)
    m, space = board.margin, spec.space
    if spec.path == "line":
        width, height = 2 * m + n * space, 2 * m + space
        return (width, height), [(m + space * (k + 0.5), m + space / 2) for k in range(n)], space
    if spec.path == "spiral":  # inwards, clockwise, the first space at the top
        step = space * 1.08
        spacing = space * 1.25  # between turns
        b = spacing / (2 * math.pi)
        inner = space * 1.5
        outer = math.sqrt(2 * b * n * step + inner * inner)
        side = 2 * (outer + space / 2 + m)
        cx = cy = side / 2
        centres, theta = [], 0.0
        for _unused in range(n):
            r = max(inner, outer - b * theta)
            centres.append((cx + r * math.sin(theta), cy - r * math.cos(theta)))
            theta += step / r
        return (side, side), centres, space
    # edge: clockwise from the top-left corner, on a rectangle inset by half a space, a space
    # on each corner and the spaces of each side evenly spread (left and right may differ
    # by one, for an odd number)
    width, height = spec.size
    if not width or not height:
        width = height = n * space / 4 + space + 2 * m
    inset = m + space / 2
    wi, hi = width - 2 * inset, height - 2 * inset
    if n < 4:
        return (width, height), [(inset + wi * k / max(n - 1, 1), inset) for k in range(n)], space
    a = max(1, round(n / 2 * wi / (wi + hi)))  # intervals along the top (and the bottom)
    b = max(1, (n - 2 * a) // 2)  # along the right
    left = n - 2 * a - b  # along the left: b, or b + 1
    if left < 1:
        a, b = a - 1, b
        left = n - 2 * a - b
    corners = [(inset, inset), (inset + wi, inset), (inset + wi, inset + hi), (inset, inset + hi)]
    centres = []
    for (x0, y0), (x1, y1), count in zip(corners, corners[1:] + corners[:1], (a, b, a, left)):
        centres += [(x0 + (x1 - x0) * k / count, y0 + (y1 - y0) * k / count) for k in range(count)]
    step = min(wi / a, hi / max(b, left))
    return (width, height), centres[:n], min(space, step)


def lay_out(board: Board, tiles: Mapping[str, Face], title_font: str,
            cell_face: CellFace) -> BoardFace:
    spec = board.spec
    (width, height), raw, side = track_centres(board)
    first = spec.numbers[0]
    accent = spec.accent
    pale = tuple(1 - (1 - v) * 0.25 for v in accent) if len(accent) == 3 else accent
    items: list[Item] = [ground(board, width, height)]
    centres, labels = [], []
    every, stronger = (tuple(spec.emphasis) + (0, 0))[:2]
    drawn = side * 0.94
    for k, (cx, cy_down) in enumerate(raw):
        number = first + k * spec.step
        cx, cy = cx, height - cy_down
        # every 5th and 10th space (by its number: 5, 10, 15; by tens, 50, 100, 150)
        strong = bool(stronger) and number % (stronger * spec.step) == 0
        marked = bool(every) and number % (every * spec.step) == 0
        x, y = cx - drawn / 2, cy - drawn / 2
        shape = Ellipse if spec.path == "spiral" else Rect
        items.append(shape(x, y, drawn, drawn, fill=pale if strong else (1.0, 1.0, 1.0)))
        if marked:  # (an emphasised space: its accent, whatever the style)
            items.append(shape(x, y, drawn, drawn, stroke=accent, stroke_width=1.4))
        elif board.outline is not None and board.outline_width > 0:  # (outline: none)
            items.append(shape(x, y, drawn, drawn, stroke=board.outline,
                               stroke_width=board.outline_width))
        size = min(board.label_size, drawn * 0.42)
        items.append(Text(cx, cy - size * 0.35, str(number), title_font, size,
                          accent if marked else INK, anchor="middle"))
        centres.append((cx, cy))
        labels.append((str(number), cx, cy))
    if spec.path == "edge":
        items.append(Text(width / 2, height / 2, board.title, title_font, spec.title_size,
                          INK, anchor="middle"))
    return BoardFace(board, Face(width, height, tuple(items)), tuple(centres), 0.0,
                     side / math.sqrt(2), tuple(labels))
