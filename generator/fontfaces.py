"""A font's parsed tables kept between runs, beside its metrics (the project's
output/.cache/fonts): drawing loads every font it draws with, and reportlab parses a
Japanese font's tables for 20 ms (its character map, widths and glyph offsets: tens of
thousands of numbers read one call each) at every build, where reading them back kept
takes 5.

What is kept is reportlab's parsed face (a TTFontFace's values) as the parse left it,
before cardgen adds its stand-ins (fonts._install), in a pickle that may hold nothing but
Python's plain values and reportlab's name strings: a kept file is read with an unpickler
that makes no other class, so a file in the output folder cannot run code. The file's
first line names this format and reportlab's version; a file of another, a damaged one, or
one whose values are not a face's is passed over and the font parsed again. The font's
name stands for its content (fonts.register), so a font saved anew is kept anew.
"""

from __future__ import annotations

import io
import pickle
import weakref
from fnmatch import fnmatch
from pathlib import Path

from reportlab import Version, rl_config
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFont, TTFontFace

from .paths import write_atomically

FACE_VERSION = 1
HEAD = f"cardgen font face {FACE_VERSION}, reportlab {Version}\n".encode()
LEFT_OUT = ("_ttf_data", "_pdfScale", "filename")  # the file's bytes and name, a function
# What a parsed face holds (besides LEFT_OUT), as this reportlab version parses a TrueType
# font (tests/test_caches.py compares it with a parse of each shipped font).
FIELDS = frozenset("""_full_font _pos ascent bbox bold builtIn capHeight charToGlyph charWidths
    defaultWidth descent entrySelector familyName flags fontRevision fullName glyphNames
    glyphPos glyphToChar glyphWidths hmetrics italic italicAngle name numGlyphs numTables
    rangeShift requiredEncoding searchRange stemV styleName subfontNameX table tables
    underlinePosition underlineThickness uniqueFontID unitsPerEm validate version""".split())


class _FaceUnpickler(pickle.Unpickler):
    """Plain values only, and reportlab's name strings (bytes that know their text)."""

    def find_class(self, module: str, name: str):
        if (module, name) == ("reportlab.pdfbase.ttfonts", "TTFNameBytes"):
            return TTFNameBytes
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a font's face")


def _scale(units_per_em: int):
    """The face's _pdfScale, as reportlab's parse makes it (font units to 1/1000 em)."""
    if units_per_em == 1000:
        return lambda x: x
    _1000mult = 1000 / units_per_em
    return lambda x: x * _1000mult


def _kept_face(path: Path, source: io.BytesIO) -> TTFontFace | None:
    try:
        with path.open("rb") as file:  # (read as it is unpickled: no copy of its bytes)
            if file.readline(len(HEAD)) != HEAD:
                return None
            state = _FaceUnpickler(file).load()
    except Exception:  # no file yet; a damaged one raises whatever its bytes lead to
        return None
    if not isinstance(state, dict) or set(state) != FIELDS or \
            type(state["unitsPerEm"]) is not int or state["unitsPerEm"] <= 0:
        return None
    face = object.__new__(TTFontFace)
    face.__dict__.update(state)
    face._ttf_data = source.getvalue()
    face.filename = getattr(source, "name", "(ttf)")  # (as reportlab's readFile names it)
    face._pdfScale = _scale(face.unitsPerEm)
    return face


def _write(path: Path, state: dict) -> None:
    with path.open("wb") as file:  # (pickled into the file: no copy of its bytes)
        file.write(HEAD)
        pickle.dump(state, file, protocol=pickle.HIGHEST_PROTOCOL)


def load(cls: type[TTFont], font_name: str, source: io.BytesIO, folder: Path | None,
         keep: bool) -> TTFont:
    """cls(font_name, source): a TrueType font of the file's bytes in `source`, its face
    read from `folder` where kept there, else parsed (and, with `keep`, kept)."""
    path = folder / f"{font_name}.face" if folder is not None else None
    face = _kept_face(path, source) if path is not None else None
    if face is None:
        font = cls(font_name, source)
        if path is not None and keep:
            state = {k: v for k, v in vars(font.face).items() if k not in LEFT_OUT}
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(path, lambda tmp: _write(tmp, state))
            except OSError:
                pass  # a cache that cannot be written is no cache
        return font
    # What TTFont.__init__ does with the face it parsed (default arguments)
    font = object.__new__(cls)
    font.fontName = font_name
    font.face = face
    font.encoding = ttfonts.TTEncoding()
    font.state = weakref.WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(font_name, glob) for glob in ttfonts.unShapedFontGlob)
    return font
