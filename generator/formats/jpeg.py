"""jpeg: one RGB JPEG per face at the exact pixel size of the service's template, for
services that take either: quality 95, full chroma (coloured text keeps its edges)."""

from __future__ import annotations

import io

NAME = "jpeg"
EXTENSION = "jpg"
RASTER = True
PIL = "JPEG"
DEFAULTS = {"color": "rgb", "marks": "none", "bleed": "0mm"}
SCHEMA = {"required": ["sizes"], "properties": {"color": {"const": "rgb"},
                                                "marks": {"const": "none"}}}


def encode(image, dpi: int) -> bytes:
    data = io.BytesIO()
    image.save(data, "JPEG", quality=95, subsampling=0, dpi=(dpi, dpi))
    return data.getvalue()
