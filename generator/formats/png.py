"""png: one RGB PNG per face at the exact pixel size of the service's template for the
card's size (tgc, mpc)."""

from __future__ import annotations

import io

NAME = "png"
EXTENSION = "png"
RASTER = True
PIL = "PNG"
DEFAULTS = {"color": "rgb", "marks": "none", "bleed": "0mm"}
SCHEMA = {"required": ["sizes"], "properties": {"color": {"const": "rgb"},
                                                "marks": {"const": "none"}}}


def encode(image, dpi: int) -> bytes:
    data = io.BytesIO()
    image.save(data, "PNG", dpi=(dpi, dpi))
    return data.getvalue()
