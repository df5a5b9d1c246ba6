"""Image files that layouts place: found inside the game folder, checked readable first.

Pillow reads the header to learn the size and verify the file (svg.py reads an SVG file in
its sandbox); a file that is missing, corrupt, not PNG/JPEG/SVG, outside the game folder
(`..`, an absolute path or a link that leads out) or larger than Pillow's
decompression-bomb limit is a located problem, never a crash at drawing time.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
import warnings
from functools import lru_cache
from pathlib import Path as FilePath

from PIL import Image as PILImage

from . import svg
from .colors import Color
from .i18n import _
from .paths import Outside, file_version, inside
from .primitives import Group, Image


class ImageProblem(Exception):
    pass


MAX_PIXELS = 50_000_000  # 50 megapixels: far beyond any card at 1200 dpi


def shown_dpi(dpi: float) -> int:
    """A picture's effective resolution as cardgen says it, the warning and the manifest
    alike: whole dots per inch, never more than it has (a hair of arithmetic let be: the
    PDF's numbers are rounded)."""
    return int(dpi + 0.01)


def find(src: str, game_root: str) -> FilePath:
    try:
        path = inside(FilePath(game_root), src)
    except Outside as exc:
        raise ImageProblem(exc.sentence(_("image '{name}'", name=src),
                                        _("the game folder"))) from None
    if not path.is_file():
        raise ImageProblem(_("image '{src}' does not exist", src=src))
    return path


def inspect(path: str, label: str | None = None) -> tuple[float, float]:
    """(width, height) of a readable picture: a PNG or JPEG file's pixels, an SVG file's
    own units (svg.py reads it in its sandbox); `label` names it in messages. The file is
    read once per version of it, whatever label names it."""
    try:
        if svg.is_svg(path):
            vector = svg.load(path)
            return vector.width, vector.height
        return _inspect(path, file_version(path))
    except (_Unreadable, svg.SvgProblem) as exc:
        raise ImageProblem(_("image '{name}' {exc}", name=label or FilePath(path).name,
                              exc=exc)) from None


def kind(path: str) -> str:
    """What a picture file is, in words: "an SVG picture", "a PNG picture"."""
    if svg.is_svg(path):
        return "an SVG picture"
    return "a JPEG picture" if FilePath(path).suffix.lower() in (".jpg", ".jpeg") else \
        "a PNG picture"


def monochrome(path: str) -> bool:
    """An SVG picture that paints in one colour (an icon, which text may draw in its own)."""
    return svg.is_svg(path) and len(svg.load(path).colors) == 1


def placed(path: str, x: float, y: float, w: float, h: float, fit: str = "stretch",
           label: str | None = None, color: Color | None = None) -> list:
    """A picture file in a box: contained (whole, centred), covering it (clipped) or
    stretched; a raster as an Image, an SVG as its vector paths, recoloured to `color`
    where given (every fill and stroke it paints: a monochrome icon in the deck's colour).
    `color` on a raster is the caller's error to say (it keeps its own colours)."""
    pw, ph = inspect(path, label)
    if fit == "stretch":
        sx, sy = w / pw, h / ph
        iw, ih, left, bottom = w, h, x, y
    else:
        sx = sy = (min if fit == "contain" else max)(w / pw, h / ph)
        iw, ih = pw * sx, ph * sy
        left, bottom = x + (w - iw) / 2, y + (h - ih) / 2
    if svg.is_svg(path):
        group = Group(_painted(path, file_version(path), color), dx=left, dy=bottom, sx=sx,
                      sy=sy)
        return [group] if fit != "cover" else [Group((group,), clip=(x, y, w, h))]
    items = [Image(path, left, bottom, iw, ih, digest(path))]
    return items if fit != "cover" else [Group(tuple(items), clip=(x, y, w, h))]


@lru_cache(maxsize=256)
def _painted(path: str, stamp: tuple, color: Color | None) -> tuple:
    """An SVG picture's paths in its own frame, recoloured: the same objects for every face
    that places it (a face's identity hashes them once a run)."""
    paths = svg.load(path).paths
    return paths if color is None else tuple(_recolored(item, color) for item in paths)


def _recolored(item, color: Color):
    """An SVG picture's path (or its opacity group) painted in one colour."""
    if isinstance(item, Group):
        return Group(tuple(_recolored(i, color) for i in item.items), opacity=item.opacity)
    return replace(item, fill=None if item.fill is None else color,
                   stroke=None if item.stroke is None else color)


def digest(path: str) -> str:
    """A digest of the file's bytes, read once per version of the file."""
    return _digest(path, file_version(path))


@lru_cache(maxsize=1024)
def _digest(path: str, stamp: tuple) -> str:
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()[:16]


class _Unreadable(Exception):
    """Why a file is not a usable image, as the end of a sentence that names it."""


@lru_cache(maxsize=1024)
def _inspect(path: str, stamp: tuple) -> tuple[int, int]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(path) as im:
                if im.format not in ("PNG", "JPEG"):
                    raise _Unreadable(_("is {format}, not PNG, JPEG or SVG",
                                         format=im.format))
                if im.width * im.height > MAX_PIXELS:
                    raise _Unreadable(_("is {im_width} x {im_height} pixels, more than "
                                        "{MAX_PIXELS:,}", im_width=im.width, im_height=im.height,
                                        MAX_PIXELS=MAX_PIXELS))
                size = im.size
                im.verify()
            with PILImage.open(path) as im:  # verify() reads the structure; load() decodes
                im.load()  # every pixel: a truncated JPEG fails here, not at drawing time
    except _Unreadable:
        raise
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise _Unreadable(_("is too large to read safely")) from None
    except Exception:  # Pillow raises many kinds for broken files
        why = _("the file is cut short (truncated)") if _cut_short(path) else \
            _("the file is damaged or not an image")
        raise _Unreadable(_("cannot be read: {why}", why=why)) from None
    return size


# How a whole PNG and a whole JPEG end: the IEND chunk, the end-of-image marker.
_ENDS = ((b"\x89PNG\r\n\x1a\n", b"IEND\xaeB`\x82"), (b"\xff\xd8", b"\xff\xd9"))


def _cut_short(path: str) -> bool:
    """A PNG or JPEG file whose end is missing: it was cut short (a copy or download that
    stopped), told by its bytes rather than by the words of Pillow's error."""
    with open(path, "rb") as file:
        head = file.read(8)
        file.seek(0, 2)
        file.seek(max(0, file.tell() - 64))
        tail = file.read()
    return any(head.startswith(magic) and end not in tail for magic, end in _ENDS)


def aspect(path: str) -> float:
    w, h = inspect(path)
    return w / h if h else 1.0
