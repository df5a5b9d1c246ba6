"""Colours as designers write them: a name, #rgb, #rrggbb, cmyk(c, m, y, k), or none."""

from __future__ import annotations

import re
from typing import Mapping

from .i18n import _

Color = tuple[float, ...]  # 3 values: RGB; 4 values: CMYK; each 0..1

NAMED: dict[str, str] = {
    "black": "#000000", "white": "#ffffff", "ink": "#1f1f24", "paper": "#fffdf7",
    "gray": "#808080", "grey": "#808080", "lightgray": "#d3d3d3", "darkgray": "#404040",
    "red": "#d0201b", "darkred": "#8b0000", "pink": "#f08cb4", "orange": "#f08a24",
    "yellow": "#f5d000", "green": "#2e8b3a", "lightgreen": "#90ee90", "blue": "#1f5fbf",
    "lightblue": "#8cc8f0", "navy": "#1a2a5a", "purple": "#7a3f9a", "brown": "#7b4a24",
    "gold": "#c9a227", "silver": "#b8b8b8", "cyan": "#00a0c8", "magenta": "#c8007a",
}
# The ink cardgen draws its own lines and words in where the designer names no colour, by
# what it draws on: each kept here, once (the named `ink` above is a designer's colour).
# They differ on purpose and the output keeps them: a card's ink is near the named ink, a
# board's labels and a chart's axes are a lighter grey, and the calibration sheet prints
# pure K so that its scales measure the printer, not a colour conversion.
INKS: dict[str, Color] = {
    "card": (0.12, 0.12, 0.14),  # elements: a line, a text, an icon, a QR code
    "board": (0.2, 0.2, 0.2),  # a board's labels and numbers
    "chart": (0.2, 0.2, 0.22),  # the stats PDF's charts
    "showcase": (0.13, 0.13, 0.15),  # the showcase's titles on a light ground
    "calibration": (0.0, 0.0, 0.0),  # the printer calibration sheet
}
# What a colour may be written as: every message about a colour says this (values.FORMATS).
COLOR_EXPECTED = _("a colour: a name (black, white, red, ...), #rrggbb, #rgb, cmyk(c, m, y, k) "
                   "with values 0-1 or 0-100%, or none")
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_CMYK = re.compile(r"^cmyk\(\s*([^,()]+),\s*([^,()]+),\s*([^,()]+),\s*([^,()]+)\)$")


def _channel(text: str) -> float:
    text = text.strip()
    value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    if not 0 <= value <= 1:
        raise ValueError
    return value


def parse_color(text: str, palette: Mapping[str, Color] | None = None) -> Color | None:
    """A colour, or None for "none". Raises ValueError naming what is accepted."""
    value = str(text).strip()
    if value.lower() in ("none", "transparent", ""):
        return None
    if palette and value in palette:
        return palette[value]
    value = NAMED.get(value.lower(), value)
    match = _HEX.match(value)
    if match:
        h = match.group(1)
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return tuple(int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    match = _CMYK.match(value)
    if match:
        try:
            return tuple(_channel(v) for v in match.groups())
        except ValueError:
            pass
    if palette:
        raise ValueError(_("'{text}' is not {expected} (the game's colours: {names})", text=text,
                           expected=COLOR_EXPECTED, names=", ".join(sorted(palette))))
    raise ValueError(_("'{text}' is not {expected}", text=text, expected=COLOR_EXPECTED))


def a_color(text: str) -> Color:
    """A colour the code writes (a default): one that is never "none"."""
    color = parse_color(text)
    if color is None:
        raise ValueError(f"{text!r} is no colour")
    return color


def cmyk_transform(icc: bytes):
    """littleCMS's transform from sRGB to a CMYK output profile (its bytes), as a CMYK
    export converts every colour and picture: relative colorimetric, with black point
    compensation. The export's check of a profile builds it too, so that a profile whose
    header is sound but whose tables are not is an error where it is named, not at export.
    Raises PIL.ImageCms.PyCMSError (or OSError) when it cannot be built."""
    import io
    from PIL import ImageCms  # littleCMS: only when a CMYK export is asked for
    return ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(icc)), "RGB", "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def lab_transform(icc: bytes):
    """littleCMS's transform from a CMYK output profile (its bytes) to CIELAB, relative
    colorimetric: the lightness a CMYK colour prints at on that press, paper white L* 100
    (Pillow's LAB mode holds L* 0..100 as 0..255)."""
    import io
    from PIL import ImageCms
    return ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("LAB"), "CMYK", "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
