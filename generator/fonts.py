"""Font families from fonts/fonts.yaml, registered with reportlab for measuring and drawing.

Layouts name a family ("gothic") and a weight; this module maps that to a
registered TrueType font and answers which characters a font cannot draw.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont


class FontFileError(Exception):
    pass


@lru_cache(maxsize=None)
def register(path: Path) -> str:
    """Register a TrueType file once; returns its reportlab font name."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]
    name = f"{path.stem}-{digest}"
    try:
        pdfmetrics.registerFont(TTFont(name, str(path)))
    except TTFError as exc:
        text = str(exc)
        if "postscript outlines" in text.lower() or "cff" in text.lower():
            raise FontFileError(f"{path.name} is a CFF (PostScript-outline) font, which cannot be "
                                "embedded; use a TrueType font") from None
        raise FontFileError(f"{path.name} cannot be read as a TrueType font: {text}") from None
    except OSError as exc:
        raise FontFileError(f"{path.name} cannot be read: {exc.strerror}") from None
    return name


@lru_cache(maxsize=None)
def _charmap(font_name: str) -> frozenset[int]:
    return frozenset(pdfmetrics.getFont(font_name).face.charToGlyph)


def missing_glyphs(font_name: str, text: str) -> list[str]:
    """Characters of `text` that the font has no glyph for (in order, each once)."""
    cmap = _charmap(font_name)
    seen: list[str] = []
    for ch in text:
        if ord(ch) not in cmap and not ch.isspace() and ch not in seen:
            seen.append(ch)
    return seen


def string_width(text: str, font_name: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font_name, size)


def ascent_descent(font_name: str, size: float) -> tuple[float, float]:
    """Ascent (positive) and descent (negative) in points at `size`."""
    face = pdfmetrics.getFont(font_name).face
    return face.ascent * size / 1000.0, face.descent * size / 1000.0
