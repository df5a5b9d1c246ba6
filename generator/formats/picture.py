"""What every picture format shares: a picture per face at a template's pixel size, in RGB,
with no trim marks (the template is the cut), and the bytes of one from Pillow."""

from __future__ import annotations

import io

DEFAULTS = {"color": "rgb", "marks": "none", "bleed": "0mm"}
SCHEMA = {"required": ["sizes"], "properties": {"color": {"const": "rgb"},
                                                "marks": {"const": "none"}}}


def saved(image, pil_format: str, dpi: int, **options) -> bytes:
    data = io.BytesIO()
    image.save(data, pil_format, dpi=(dpi, dpi), **options)
    return data.getvalue()
