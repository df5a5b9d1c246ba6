"""Measuring text before it is drawn (platypus's wrap-then-draw, for single lines)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import fonts


@dataclass(frozen=True)
class Fit:
    size: float  # the size the text is set at
    width: float  # its width at that size


class DoesNotFit(Exception):
    def __init__(self, needed: float, size: float):
        super().__init__(needed, size)
        self.needed = needed  # width needed at the smallest allowed size
        self.size = size


def fit_line(text: str, font: str, size: float, width: float, min_size: float | None = None) -> Fit:
    """Fit one line into `width`, shrinking by 0.5 pt steps down to `min_size` (a declared
    shrink). Raises DoesNotFit if it is still too wide: text is never clipped."""
    min_size = size if min_size is None else min_size
    current = size
    while True:
        w = fonts.string_width(text, font, current)
        if w <= width + 1e-6:
            return Fit(current, w)
        if current - 0.5 < min_size - 1e-6:
            raise DoesNotFit(w, current)
        current -= 0.5
