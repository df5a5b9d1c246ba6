"""Faces in CMYK for a print shop: every RGB colour and RGB picture converted once, through
the export's ICC output profile, by littleCMS (Pillow's ImageCms).

- A colour written as CMYK passes through exactly.
- Text in black or a grey (its RGB channels within 8/255 of each other) prints on the
  black plate alone (K100 for black), as print shops ask: rich black text would blur at
  the slightest misregistration. `black_text: convert` sends it through the profile too.
- Pictures are converted to CMYK files in the export cache (output/.cache/cmyk/), named by
  the picture's digest and the profile's, so an unchanged picture is converted once. A
  picture's transparency is kept as a separate mask.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageCms

from ..colors import Color, cmyk_transform
from ..primitives import Block, Face, Group, Image

NEUTRAL = 8 / 255  # RGB channels this close together: a black or a grey


class CmykConverter:
    def __init__(self, icc: bytes, black_text: str, cache: Path):
        """`icc`: the bytes of the CMYK output profile."""
        self.icc_digest = hashlib.sha256(icc).hexdigest()[:16]
        self._transform = cmyk_transform(icc)
        self.k_only = black_text == "k-only"
        self.cache = cache
        self._colors: dict[Color, Color] = {}
        self._items: dict[int, object] = {}  # id(shared block) -> converted block

    def color(self, color: Color | None, text: bool = False) -> Color | None:
        if color is None or len(color) == 4:
            return color
        if text and self.k_only and max(color) - min(color) <= NEUTRAL:
            return (0.0, 0.0, 0.0, round(1.0 - sum(color) / 3, 4))
        found = self._colors.get(color)
        if found is None:
            pixel = PILImage.new("RGB", (1, 1), tuple(round(v * 255) for v in color))
            c, m, y, k = ImageCms.applyTransform(pixel, self._transform).getpixel((0, 0))
            found = self._colors[color] = tuple(round(v / 255, 4) for v in (c, m, y, k))
        return found

    def face(self, face: Face) -> Face:
        return replace(face, items=self.items(face.items))

    def items(self, items: tuple) -> tuple:
        return tuple(self.item(i) for i in items)

    def item(self, item):
        """The item converted (primitives.PROTOCOL's `recolored`, with this converter)."""
        if type(item) is Block:  # shared by many faces: converted once, still shared
            done = self._items.get(id(item))
            if done is None:
                done = self._items[id(item)] = (item, Block(self.items(item.items)))
            return done[1]
        if type(item) is Group:  # its blocks stay shared too
            return replace(item, items=self.items(item.items))
        return item.recolored(self)

    def image(self, item: Image) -> Image:
        """The picture as a CMYK TIFF (and its transparency as a grey mask), made once."""
        key = f"{item.file_digest or hashlib.sha256(item.path.encode()).hexdigest()[:16]}-{self.icc_digest}"
        target, mask = self.cache / f"{key}.tif", self.cache / f"{key}-mask.png"
        if not target.is_file():
            with PILImage.open(item.path) as source:
                if source.mode == "CMYK":
                    converted, alpha = source.copy(), None
                else:
                    rgba = source.convert("RGBA")
                    alpha = rgba.getchannel("A")
                    if alpha.getextrema() == (255, 255):
                        alpha = None
                    converted = ImageCms.applyTransform(rgba.convert("RGB"), self._transform)
            self.cache.mkdir(parents=True, exist_ok=True)
            if alpha is not None:
                _atomic_save(alpha, mask, "PNG")
            _atomic_save(converted, target, "TIFF", compression="tiff_deflate")
        return replace(item, path=str(target), file_digest=f"{item.file_digest}-cmyk-{self.icc_digest}",
                       mask=str(mask) if mask.is_file() else "")


def _atomic_save(image, path: Path, fmt: str, **options) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    image.save(tmp, fmt, **options)
    os.replace(tmp, path)
