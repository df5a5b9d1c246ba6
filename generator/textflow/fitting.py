"""Setting a text in a box: its lines broken at a size, the size shrunk (and the glyphs
condensed) until they fit where the text may shrink, then placed; or the size it needed."""

from __future__ import annotations

from .breaking import break_lines
from .markup import Atom, DoesNotFit, _grouped
from .placing import Box, place_horizontal, place_vertical
from ..primitives import Item


LINEAR_STEPS = 64  # 32 pt of shrinking tried size by size, as a designer would
RUBY_LEADING = 1.5  # times the size: lines of a text with ruby are at least this far apart
CONDENSE_STEP = 0.01  # 長体 is tried in steps of 1%


def set_text(atoms: list[Atom], box: Box, size: float, min_size: float, line_spacing: float,
             align: str, valign: str, vertical: bool, base_font: str,
             phrase: bool = False, names: bool = False, hang: bool = False, tcy: int = 2,
             condense: float = 1.0, grid: bool = False) -> tuple[list[Item], float]:
    """Break, fit and place `atoms` in `box`. Returns (primitives, the size used).

    Tries `size`, then smaller sizes in 0.5 pt steps down to `min_size` (a declared
    shrink; `min_size == size` means no shrinking): the largest size on that grid that
    fits. At each size, glyphs may first be condensed (長体, horizontal text) in 1% steps
    down to `condense` (1: never). The first LINEAR_STEPS sizes are tried one by one; past
    them (a shrink from a size far too large) the rest of the grid is bisected, so that
    any shrink takes at most LINEAR_STEPS + 64 sizes. Raises DoesNotFit at the end.
    A text with ruby keeps its lines RUBY_LEADING apart at least, and room for the first
    line's ruby inside the box."""
    along, across = (box.h, box.w) if vertical else (box.w, box.h)
    has_ruby = _grouped(atoms) and any(a.ruby for a in atoms)
    scales = [1.0]
    while not vertical and scales[-1] - CONDENSE_STEP >= condense - 1e-9:
        scales.append(round(scales[-1] - CONDENSE_STEP, 4))

    split = True  # may a word longer than a line be split where it must

    def attempt(current: float):
        lh = current * line_spacing
        if has_ruby:
            lh = max(lh, current * RUBY_LEADING)
        lines = None
        for scale in scales:
            lines = break_lines(atoms, current, along / scale, vertical, phrase, names=names,
                                hang=hang, tcy=tcy, split=split, grid=grid) if along > 0 else None
            room = _ruby_room(lines, current, lh) if has_ruby else 0.0
            if lines is not None and len(lines) * lh + room <= across + 1e-6:
                return True, lines, lh, scale
        return False, lines, lh, scales[-1]

    def placed(current: float, lines, lh, scale):
        room = _ruby_room(lines, current, lh)
        if vertical:
            return place_vertical(lines, current, lh, box, align, valign, base_font,
                                  ruby_room=room, justify=align == "justify"), current
        return place_horizontal(lines, current, lh, box, align, valign, base_font, scale,
                                ruby_room=room), current

    steps = max(0, int((size - min_size + 1e-6) // 0.5))  # sizes size - k * 0.5, k = 0..steps
    if steps:  # a declared shrink shrinks a long word before it splits it
        split = False
        found = _search(attempt, size, steps)
        split = True
        if found is not None and found[0]:
            return placed(*found[1])
    fits, found = _search(attempt, size, steps)
    if fits:
        return placed(*found)
    current, lines, lh, _scale = found
    if lines is None:
        raise DoesNotFit(0.0, along, current, too_wide=True)
    raise DoesNotFit(len(lines) * lh + _ruby_room(lines, current, lh), across, current)


def _search(attempt, size: float, steps: int):
    """(fits, (size, lines, leading, scale)): the largest size of the grid that fits, or the
    last tried."""
    last = None
    for k in range(min(steps, LINEAR_STEPS) + 1):
        current = size - k * 0.5
        fits, lines, lh, scale = attempt(current)
        if fits:
            return True, (current, lines, lh, scale)
        last = (current, lines, lh, scale)
    if steps > LINEAR_STEPS:  # bisect k in (LINEAR_STEPS, steps] for the smallest k that fits
        low, high, found = LINEAR_STEPS + 1, steps, None
        while low <= high:
            k = (low + high) // 2
            fits, lines, lh, scale = attempt(size - k * 0.5)
            if fits:
                found, high = (size - k * 0.5, lines, lh, scale), k - 1
            else:
                last, low = (size - k * 0.5, lines, lh, scale), k + 1
        if found is not None:
            return True, found
        last = (size - steps * 0.5,) + attempt(size - steps * 0.5)[1:]
    return False, last


def _ruby_room(lines, size: float, lh: float) -> float:
    """Room the first line's ruby needs beyond the half-leading above it."""
    if not lines or not lines[0].ruby:
        return 0.0
    return max(0.0, size / 2 - (lh - size) / 2)
