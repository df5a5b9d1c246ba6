"""jpeg: one RGB JPEG per face at the exact pixel size of the service's template, for
services that take either: quality 95, full chroma (coloured text keeps its edges)."""

from __future__ import annotations

from . import picture
from .picture import saved

NAME = "jpeg"
EXTENSION = "jpg"
RASTER = True
DEFAULTS, SCHEMA = picture.DEFAULTS, picture.SCHEMA  # as every picture format
PIL = "JPEG"


def encode(image, dpi: int) -> bytes:
    return saved(image, PIL, dpi, quality=95, subsampling=0)
