"""png: one RGB PNG per face at the exact pixel size of the service's template for the
card's size (tgc, mpc)."""

from __future__ import annotations

from . import picture
from .picture import saved

NAME = "png"
EXTENSION = "png"
RASTER = True
DEFAULTS, SCHEMA = picture.DEFAULTS, picture.SCHEMA  # as every picture format
PIL = "PNG"


def encode(image, dpi: int) -> bytes:
    return saved(image, PIL, dpi)
