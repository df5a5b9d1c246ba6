"""Faces in CMYK for a print shop: every RGB colour and RGB picture converted once, through
the export's ICC output profile, by littleCMS (Pillow's ImageCms).

- A colour written as CMYK passes through exactly.
- Text and lines in black or a grey (RGB channels within 8/255 of each other) print on the
  black plate alone, as print shops ask: rich black text would blur at the slightest
  misregistration. Black is K100; a grey is the K value that prints at the lightness the
  profile gives the grey converted in full (the K plate's own tone curve, read from the
  profile), or K100 where K alone cannot be that dark. A grey area prints on K alone too
  (no colour cast where the plates shift), unless K alone cannot print it as dark: then it
  is converted in full. `black_text: convert` sends them through the profile too.
- A black fill (black within 8/255) prints K100 where it is small (up to RICH_AREA) and in
  the profile's declared rich black (`rich_black:`) where it is larger: the profile's own
  black is a four-colour black of over 300 % ink that shops refuse.
- Pictures are converted to CMYK files in the export cache (output/.cache/cmyk/), named by
  the picture's digest and the profile's, so an unchanged picture is converted once. A
  picture's transparency is kept as a separate mask.

`ink(color)` and `picture_ink(path)` measure the total ink (the four plates' sum, in
percent) of a converted colour and of a converted picture, for the export's ink check.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from dataclasses import replace
from pathlib import Path

from PIL import Image as PILImage

from ..colors import Color, cmyk_transform, lab_transform
from ..paths import write_atomically
from ..primitives import Block, Face, Group, Image
from ..units import mm

NEUTRAL = 8 / 255  # RGB channels this close together: a black or a grey
RICH_AREA = mm(10) ** 2  # a black fill larger than 1 cm² prints in rich black, a smaller one K100
USES = ("text", "line", "fill")  # what a colour paints (primitives.PROTOCOL's recolored)
K_SOLID = 0.99  # a K-only grey this dark prints as K100 (within a plate's tolerance)
INK_SAMPLE = 512  # a picture's total ink is measured on it reduced to this many pixels across


def ink(color: Color | None) -> float:
    """A CMYK colour's total ink in percent (0 for none or an RGB colour)."""
    return round(sum(color) * 100, 1) if color is not None and len(color) == 4 else 0.0


def picture_ink(path: str) -> float:
    """The most ink a CMYK picture file puts anywhere, in percent (image_ink)."""
    with PILImage.open(path) as picture:
        return image_ink(picture) if picture.mode == "CMYK" else 0.0


def image_ink(picture) -> float:
    """The most ink a CMYK picture (a PIL image) puts anywhere, in percent, measured on the
    picture averaged down to at most INK_SAMPLE pixels across: areas, not single pixels."""
    factor = max(1, -(-max(picture.size) // INK_SAMPLE))
    sample = picture.reduce(factor) if factor > 1 else picture.copy()
    pixels = sample.load()  # (getdata goes in Pillow 14)
    return round(max((sum(pixels[x, y]) for y in range(sample.height) for x in range(sample.width)),
                     default=0) / 255 * 100, 1)


def _pixel(image: PILImage.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """A pixel of a picture of several bands (CMYK, LAB): its bands' values."""
    value = image.getpixel(xy)
    if not isinstance(value, tuple):
        raise TypeError(f"a {image.mode} picture's pixel is not a tuple of bands: {value!r}")
    return value


class CmykConverter:
    def __init__(self, icc: bytes, black_text: str, cache: Path,
                 rich_black: Color | None = None):
        """`icc`: the bytes of the CMYK output profile; `rich_black`, the CMYK black of
        large black areas (None: the profile's own)."""
        self.icc_digest = hashlib.sha256(icc).hexdigest()[:16]
        self._transform = cmyk_transform(icc)
        self._lab = lab_transform(icc)
        self.k_only = black_text == "k-only"
        self.rich_black = rich_black
        self.cache = cache
        self._colors: dict[Color, Color] = {}
        self._items: dict[int, object] = {}  # id(shared block) -> converted block
        # The K plate's tone curve: the lightness K alone prints at, K 0..255.
        ramp = PILImage.new("CMYK", (256, 1))
        for k in range(256):
            ramp.putpixel((k, 0), (0, 0, 0, k))
        lab = self._lab.apply(ramp)
        self._k_lightness = [_pixel(lab, (k, 0))[0] for k in range(256)]

    @property
    def rgb_to_cmyk(self):
        """littleCMS's transform of RGB pictures to the profile's CMYK (colors.cmyk_transform)."""
        return self._transform

    def _lightness(self, cmyk: Color) -> float:
        """The L* (0..255) a CMYK colour prints at, by the profile."""
        pixel = PILImage.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
        return _pixel(self._lab.apply(pixel), (0, 0))[0]

    def k_of(self, grey: Color) -> float:
        """The K (0..1) that prints a grey at the lightness the profile gives it converted
        in full; 1 (K100) where K alone is not that dark."""
        target = self._lightness(self._converted(grey))
        curve = self._k_lightness  # falling: K 0 is paper white
        if target <= curve[-1]:
            return 1.0
        if target >= curve[0]:
            return 0.0
        falling = [-v for v in curve]
        k = bisect_left(falling, -target)  # the first K as dark as the target
        lighter, darker = curve[k - 1], curve[k]
        part = (lighter - target) / (lighter - darker) if lighter != darker else 0.0
        found = round((k - 1 + part) / 255, 4)
        return 1.0 if found >= K_SOLID else found  # as good as solid: K100 (it overprints)

    def _converted(self, color: Color) -> Color:
        found = self._colors.get(color)
        if found is None:
            pixel = PILImage.new("RGB", (1, 1), tuple(round(v * 255) for v in color))
            c, m, y, k = _pixel(self._transform.apply(pixel), (0, 0))
            found = self._colors[color] = tuple(round(v / 255, 4) for v in (c, m, y, k))
        return found

    def color(self, color: Color | None, use: str = "fill", area: float = 0.0) -> Color | None:
        """The colour in CMYK, for what it paints (USES); `area`, a fill's, in square points."""
        if color is None or len(color) == 4:
            return color
        neutral = max(color) - min(color) <= NEUTRAL
        black = neutral and max(color) <= NEUTRAL
        if use == "fill" and black and (area > RICH_AREA or not self.k_only):
            return self.rich_black if self.rich_black is not None and area > RICH_AREA \
                else self._converted(color)
        if self.k_only and neutral and (use != "fill" or black):
            return (0.0, 0.0, 0.0, 1.0 if black else self.k_of(color))
        if self.k_only and neutral and (k := self.k_of(color)) < 1.0:
            return (0.0, 0.0, 0.0, k)  # a grey area on K alone, as the grey's text and lines
        return self._converted(color)

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
        digest = item.file_digest or hashlib.sha256(item.path.encode()).hexdigest()[:16]
        key = f"{digest}-{self.icc_digest}"
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
                    converted = self._transform.apply(rgba.convert("RGB"))
            self.cache.mkdir(parents=True, exist_ok=True)
            if alpha is not None:
                _atomic_save(alpha, mask, "PNG")
            _atomic_save(converted, target, "TIFF", compression="tiff_deflate")
        return replace(item, path=str(target),
                       file_digest=f"{item.file_digest}-cmyk-{self.icc_digest}",
                       mask=str(mask) if mask.is_file() else "")


def _atomic_save(image, path: Path, fmt: str, **options) -> None:
    write_atomically(path, lambda tmp: image.save(tmp, fmt, **options))
