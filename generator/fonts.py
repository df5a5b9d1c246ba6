"""Font families from fonts/fonts.yaml, registered with reportlab for measuring and drawing.

Layouts name a family ("gothic") and a weight; this module maps that to a
registered TrueType font and answers which characters a font cannot draw.
"""

from __future__ import annotations

import hashlib
import io
import struct
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont, TTFontParser

from . import fontfaces
from .paths import file_version, write_atomically
from .problems import CardgenError, DataProblems, ExitCode, Location, Report
from .i18n import _


class FontFileError(CardgenError):
    """A font file that passed the check at registration failed when it was loaded."""

    exit_code = ExitCode.DATA


# Registered fonts that no one has measured or drawn with yet: name -> file. A font is read
# (a few MB of tables, 25 ms) when first used, so a family a game never uses costs nothing.
# A name stands for the font's content (see _register), so several files may offer it (a
# revision of the project in a temporary folder, the working tree): any that still exists.
_pending: dict[str, list[Path]] = {}


def _explain(path: Path, exc: Exception) -> FontFileError:
    seen = exc.__context__
    for _attempt in range(8):  # Ctrl-C or SIGTERM landing inside reportlab's parsing, whose bare
        if seen is None:  # `except:` renames it "Corrupt file": an interrupt, not damage
            break
        if isinstance(seen, KeyboardInterrupt):
            raise KeyboardInterrupt
        seen = seen.__context__
    if isinstance(exc, OSError):
        return FontFileError(_("{path_name} cannot be read: {exc_strerror}", path_name=path.name,
                               exc_strerror=exc.strerror))
    text = str(exc)
    if "postscript outlines" in text.lower() or "cff" in text.lower():
        return FontFileError(_("{path_name} is a CFF (PostScript-outline) font, which cannot be "
                               "embedded; use a TrueType font", path_name=path.name))
    if "not a recognized truetype font" in text.lower():
        return FontFileError(_("{path_name} is not a TrueType font: it does not start as one (a "
                               ".ttf file, or an .otf with TrueType outlines)",
                               path_name=path.name))
    # The library's words (a struct's buffer, an index) say nothing to a designer.
    return FontFileError(_("{path_name} is damaged: its tables cannot be read (a file cut short "
                           "in copying, or not a TrueType font); copy it again",
                           path_name=path.name))


HEADER_BYTES = 65536  # more than the header and table directory of any TrueType file
MAX_FONT_BYTES = 64 * 1024 * 1024  # a font file, at most: refused before it is read (a
# TrueType font of every Japanese character is 5 to 20 MB; reportlab reads a font whole)


def register(path: Path, where: Location | None = None, family: str = "") -> str:
    """Register a TrueType file once per version of the file; returns its reportlab font
    name. The file's header and table directory are checked now; its tables are read when
    the font is first used, and a file damaged past its directory is then reported at
    `where` (its line in fonts.yaml or game.yaml, for `family`). An edited file (`watch`,
    `serve`) is registered again."""
    name = _register(path, file_version(path))
    if where is not None:
        _declared[name] = (where, family)
    return name


_declared: dict[str, tuple[Location, str]] = {}  # registered name -> where its family names it


@lru_cache(maxsize=None)
def _register(path: Path, stamp: tuple) -> str:
    real = path.resolve()  # the file read later: the file, not a link to it
    try:
        size = path.stat().st_size
        if size > MAX_FONT_BYTES:
            raise FontFileError(_("{path_name} is {n:,.0f} MB; a font file is at most {n2} MB (a "
                                  "TrueType font of every Japanese character is 5 to 20 MB)",
                                  path_name=path.name, n=size / 1024 / 1024,
                                  n2=MAX_FONT_BYTES // 1024 // 1024))
        with open(path, "rb") as file:  # the header and table directory: the file's start
            head = file.read(HEADER_BYTES)
        TTFontParser(io.BytesIO(head))
    except (TTFError, OSError, struct.error) as exc:
        raise _explain(path, exc) from None
    # The name carries a digest of the table directory, whose per-table checksums change
    # with any change of the font's bytes: a face set in an edited (or another) font file
    # is a different face, so its identity (diff, errata, every cache) changes, and
    # `watch` and `serve` load the new file instead of the one they have in memory.
    name = f"{path.stem}-{_digest(head)}"
    _files.setdefault(name, []).insert(0, real)  # the newest first
    if name not in pdfmetrics.getRegisteredFontNames():
        _pending.setdefault(name, []).insert(0, real)  # the newest first
    return name


_files: dict[str, list[Path]] = {}  # registered name -> the files it was registered from


def _digest(data: bytes) -> str:
    """The digest a font's name carries: of its table directory (the file's start)."""
    tables = struct.unpack(">H", data[4:6])[0] if len(data) >= 6 else 0
    return hashlib.sha1(data[:12 + 16 * tables]).hexdigest()[:8]


def _content(font_name: str, paths: list[Path]) -> tuple[Path, bytes]:
    """The bytes of the font `font_name` names, read from the first of `paths` whose
    bytes are that font's (their digest is the name's). A file edited after it was
    registered (a designer saves a font while `serve` or `watch` runs) is not that font:
    its metrics, forms and drawing would be the new file's under the old name, and kept
    under it for later runs. It is registered again, under its new name, when the game is
    read again (the next build); this one stops with a located error."""
    import os
    existing = [p for p in paths if p.exists()] or paths[:1]
    for path in existing:
        try:
            with open(path, "rb") as file:
                size = os.fstat(file.fileno()).st_size
                if size > MAX_FONT_BYTES:
                    break  # (said by _register when the file is registered again)
                data = file.read()
        except OSError as exc:
            raise _located(font_name, _explain(path, exc)) from None
        if font_name.endswith("-" + _digest(data)):
            return path, data
    path = existing[0]
    raise _located(font_name, FontFileError(_(
        "{path_name} changed after it was read (a new version of the font was saved); "
        "build again to use the new version", path_name=path.name)))


def _located(font_name: str, problem: FontFileError) -> Exception:
    """A problem with a font's file, at the line of fonts.yaml or game.yaml that names it
    (when it has one)."""
    if font_name not in _declared:
        return problem
    where, family = _declared[font_name]
    report = Report()
    report.error(_("font family '{family}': {problem}",
                   family=family, problem=problem), where, "font")
    return DataProblems(report)


def content(font_name: str) -> bytes | None:
    """The bytes of the file a registered font name stands for, for what draws with a font
    other than reportlab (the showcase's title, drawn by Pillow): checked against the name's
    digest as every other use is (a file saved since is a located error); None for a name
    registered from no file."""
    paths = _files.get(font_name)
    return _content(font_name, paths)[1] if paths else None


def file_of(font_name: str) -> Path | None:
    """The TrueType file a registered font name was made from (for `serve`'s page): one
    that still exists. The same font registered from elsewhere (the checkout of an older
    revision that `serve --changes-since` builds, since removed) does not hide it."""
    paths = _files.get(font_name) or []
    return next((p for p in paths if p.exists()), None)


class _TaggedFont(TTFont):
    """A TrueType font whose subsets are tagged by their content. reportlab tags a
    document's subsets AAAAAA+, AAAAAB+ in the order it makes them, so the fronts and the
    backs of a deck carry one name for two different subsets; a tool that merges or
    imposes the files, caching fonts by name, prints wrong characters. Here each tag comes
    from the font's name and the characters of the subset (which decide its program, its
    widths and its text map): equal subsets keep equal tags, so the bytes stay the same."""

    def addObjects(self, doc):
        subsets = self.state[doc].subsets if doc in self.state else []
        # the font's registered name, not only its face's: two fonts of one face (the shipped
        # BIZ UDPGothic and a project's copy of it) may draw in one document, each its own
        # font (_register_own), and equal tags would name two objects alike (reportlab:
        # "redefining named object 'toUnicodeCMap:…'", an internal error in `cardgen pnp`)
        name = self.face.name + b"/" + self.fontName.encode()
        made = ttfonts.SUBSETN

        def tag(n: int, *_args) -> bytes:
            if n >= len(subsets):
                return made(n, *_args)
            digest = hashlib.sha256(name + repr(list(subsets[n])).encode()).digest()
            return bytes(ord("A") + b % 26 for b in digest[:6])

        text_map = ttfonts.makeToUnicodeCMap
        font_name = self.fontName

        def text_of(base_name, subset):  # a stand-in's text is its character (see forms)
            return text_map(base_name, _text_of(font_name, subset))

        ttfonts.SUBSETN = tag  # the name addObjects gives each subset, for this font's call
        ttfonts.makeToUnicodeCMap = text_of
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = made
            ttfonts.makeToUnicodeCMap = text_map


def ensure(font_name: str) -> str:
    """Load a registered font if it is not loaded yet; returns its name. Everything that
    hands a font name to reportlab goes through here or through the functions below."""
    paths = _pending.get(font_name)
    if paths is not None:
        path, data = _content(font_name, paths)  # the bytes the name stands for
        try:
            source = io.BytesIO(data)
            source.name = str(path)  # (reportlab names the file it read in its errors)
            # (its tables parsed, or read back as a build kept them: fontfaces.py)
            _register_own(fontfaces.load(_TaggedFont, font_name, source, _metrics_dir,
                                         _metrics_written))
        except (TTFError, OSError, struct.error, IndexError, KeyError, ValueError) as exc:
            # a damaged file: its tables end too soon
            raise _located(font_name, _explain(path, exc)) from None
        del _pending[font_name]
        _install(font_name)
    return font_name


def _register_own(font: TTFont) -> None:
    """Register the font under its name as a font of its own. reportlab hands a name whose
    file has the face (PostScript) name of a font registered before that font instead: the
    shipped BIZ UDPGothic and a project's copy of it (gothic.ttf), or a font file edited in
    `watch` and `serve`, would then draw with the other's face, stand-ins and text map (a
    vertical ー copied as a private-use character, an edit not shown). The face is
    registered under the font's own name, then given back its name, which the PDF prints."""
    face_name = font.face.name
    font.face.name = (face_name, font.fontName)  # (reportlab's key for faces it shares)
    try:
        pdfmetrics.registerFont(font)
    finally:
        font.face.name = face_name


# Where measured fonts' metrics are kept between runs (the project's output/.cache/fonts):
# what a check needs of a font (its characters, their widths, its ascent and descent) is
# then read from a small file instead of parsing the font's tables (125 ms for a Japanese
# font). Drawing still loads the font itself, its parsed tables kept there too (fontfaces).
_metrics_dir: Path | None = None
_metrics_written = False  # only a build writes them: `cardgen validate` writes nothing
METRICS_VERSION = 1


def keep_metrics_in(folder: Path | None, write: bool = False) -> None:
    """Read fonts' metrics kept in `folder` (and, with `write`, keep those measured)."""
    global _metrics_dir, _metrics_written
    _metrics_dir, _metrics_written = folder, write


class _Metrics:
    __slots__ = ("cmap", "widths", "default", "ascent", "descent")

    def __init__(self, cmap, widths, default, ascent, descent):
        self.cmap, self.widths, self.default = cmap, widths, default
        self.ascent, self.descent = ascent, descent


@lru_cache(maxsize=None)
def _metrics(font_name: str) -> _Metrics:
    """A font's metrics: from the font when it is loaded, else from the metrics file of a
    previous run (the name stands for the font's content), else from the font (and kept)."""
    import json
    kept = _metrics_dir / f"{font_name}.json" if _metrics_dir is not None else None
    if kept is not None and font_name in _pending:  # not loaded yet: the kept file will do
        try:
            data = json.loads(kept.read_text("utf-8"))
            if data.get("version") == METRICS_VERSION:
                widths = {int(k): v for k, v in data["widths"].items()}
                return _Metrics(frozenset(data["cmap"]), widths, data["default"],
                                data["ascent"], data["descent"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no file yet, or one from elsewhere: measure the font
    face = pdfmetrics.getFont(ensure(font_name)).face
    standins = _standins.get(font_name, {})  # drawn, never written: not in the font's map
    metrics = _Metrics(frozenset(face.charToGlyph).difference(standins),
                       {k: v for k, v in face.charWidths.items() if k not in standins},
                       face.defaultWidth, face.ascent, face.descent)
    if kept is not None and _metrics_written:
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({
                "version": METRICS_VERSION, "cmap": sorted(metrics.cmap),
                "widths": {str(k): v for k, v in metrics.widths.items()},
                "default": metrics.default, "ascent": metrics.ascent,
                "descent": metrics.descent})
            write_atomically(kept, lambda tmp: tmp.write_text(text, "utf-8"))
        except OSError:
            pass  # a cache that cannot be written is no cache
    return metrics


@lru_cache(maxsize=None)
def charmap(font_name: str) -> frozenset[int]:
    """The code points the font has glyphs for."""
    return _metrics(font_name).cmap


def missing_glyphs(font_name: str, text: str) -> list[str]:
    """Characters of `text` that the font has no glyph for (in order, each once)."""
    cmap = charmap(font_name)
    seen: list[str] = []
    for ch in text:
        if ord(ch) not in cmap and not ch.isspace() and ch not in seen:
            seen.append(ch)
    return seen


def string_width(text: str, font_name: str, size: float) -> float:
    """The text's advance in points, as reportlab measures it (no kerning)."""
    if font_name not in _pending:  # loaded (or not a file of ours): reportlab measures
        return pdfmetrics.stringWidth(text, font_name, size)
    m = _metrics(font_name)
    get, default = m.widths.get, m.default
    drawn = _drawn.get(font_name)
    if drawn:  # stand-ins (forms, aliases): their advances
        return 0.001 * size * sum(drawn[ord(ch)][2] if ord(ch) in drawn
                                  else get(ord(ch), default) for ch in text)
    return 0.001 * size * sum(get(ord(ch), default) for ch in text)


def run_width(text: str, font_name: str, size: float, scale: float = 1.0,
              char_space: float = 0.0) -> float:
    """How wide a run of text is drawn: its advance condensed by `scale` (Tz), with
    `char_space` between its characters."""
    return string_width(text, font_name, size) * scale + char_space * max(len(text) - 1, 0)


def ascent_descent(font_name: str, size: float) -> tuple[float, float]:
    """Ascent (positive) and descent (negative) in points at `size`."""
    m = _metrics(font_name)
    return m.ascent * size / 1000.0, m.descent * size / 1000.0


# --- glyphs by feature: vertical forms (縦書き) -------------------------------------------------
# A font draws some characters differently in vertical text: its GSUB feature `vert` swaps
# brackets, dashes, 〜, 〝〟, stops and small kana for glyphs drawn for a column. Such a glyph
# has no code point of its own, and reportlab draws characters, so each one is given a
# stand-in code point in the font's face (as reportlab itself does for shaped glyphs), from
# STANDIN_BASE up in the order of the characters: the same font gives the same stand-ins in
# every run. The PDF's text map gives the character back for each stand-in (copy, search).
STANDIN_BASE = 0xF0000  # Supplementary Private Use Area-A: no text of a game's uses it
FEATURES = ("vert", "fwid")  # each feature's stand-ins in a block of their own
_BLOCK = 0x4000
FORMS_VERSION = 1


class Form(NamedTuple):
    """A character's glyph in a font's feature: drawn as `char`, its stand-in."""

    char: str
    advance: float  # down a column, in ems (the font's vmtx; one em without it)
    width: float  # across, in 1/1000 em


_standins: dict[str, dict[int, int]] = {}  # font -> stand-in code point -> character's


def _read_forms(data: io.BytesIO, feature: str) -> list[tuple[int, int, float, float]]:
    """(code point, glyph id, horizontal advance in 1/1000 em, vertical advance in ems) of
    each character the font's GSUB `feature` substitutes one glyph for (lookup types 1 and
    7), read with fontTools."""
    from fontTools.ttLib import TTFont as Reader  # only where the forms are not kept yet
    font = Reader(data, lazy=True)
    if "GSUB" not in font or font["GSUB"].table.FeatureList is None:
        return []
    gsub = font["GSUB"].table
    lookups = sorted({i for record in gsub.FeatureList.FeatureRecord
                      if record.FeatureTag == feature for i in record.Feature.LookupListIndex})
    mapping: dict[str, str] = {}
    for index in lookups:
        lookup = gsub.LookupList.Lookup[index]
        for table in lookup.SubTable:
            if lookup.LookupType == 7:
                table = table.ExtSubTable
            for source, target in getattr(table, "mapping", {}).items():
                mapping.setdefault(source, target)
    if not mapping:
        return []
    units = font["head"].unitsPerEm
    hmtx, vmtx = font["hmtx"], font["vmtx"] if "vmtx" in font else None
    order = font.getReverseGlyphMap()
    forms = []
    for code, name in sorted(font.getBestCmap().items()):
        target = mapping.get(name)
        if target is None or target not in order:
            continue
        down = vmtx[target][0] / units if vmtx is not None else 1.0
        forms.append((code, order[target], hmtx[target][0] * 1000.0 / units, down))
    return forms


def _kept_forms(font_name: str, feature: str) -> list[tuple[int, int, float, float]]:
    """The font's forms from the kept file of a previous run, else read (and kept)."""
    import json
    kept = _metrics_dir / f"{font_name}.{feature}.json" if _metrics_dir is not None else None
    if kept is not None:
        try:
            data = json.loads(kept.read_text("utf-8"))
            if data.get("version") == FORMS_VERSION:
                return [(int(c), int(g), float(h), float(v)) for c, g, h, v in data["forms"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no file yet, or one from elsewhere: read the font
    paths = [p for p in _files.get(font_name) or [] if p.exists()]
    forms = _read_forms(io.BytesIO(_content(font_name, paths)[1]), feature) if paths else []
    if kept is not None and _metrics_written:
        text = json.dumps({"version": FORMS_VERSION, "forms": forms})
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(kept, lambda tmp: tmp.write_text(text, "utf-8"))
        except OSError:
            pass  # a cache that cannot be written is no cache
    return forms


@lru_cache(maxsize=None)
def forms(font_name: str, feature: str) -> dict[str, Form]:
    """The characters the font's GSUB `feature` ("vert") draws with another glyph, each with
    the stand-in that draws that glyph; {} for a font without the feature."""
    found = _kept_forms(font_name, feature) if font_name in _files else []
    if not found:
        return {}
    taken = charmap(font_name)  # (the font's own characters: a stand-in never takes one)
    code = STANDIN_BASE + FEATURES.index(feature) * _BLOCK
    result = {}
    for char, glyph, width, down in found:
        while code in taken:
            code += 1
        _stand_in(font_name, code, char, glyph, width)
        result[chr(char)] = Form(chr(code), down, width)
        code += 1
    return result


# The stand-ins' glyphs: font -> code -> (glyph id, or the code point whose glyph it takes,
# and its advance in 1/1000 em). Measuring reads the advances here, so that a check measures
# stand-ins without loading the font (the kept metrics); the face gets them when it loads.
_drawn: dict[str, dict[int, tuple[int, bool, float]]] = {}


def _stand_in(font_name: str, code: int, char: int, glyph: int, width: float,
              alias: bool = False) -> None:
    """Give `code` the glyph `glyph` (with `alias`, the glyph of the character `glyph`) and
    the text `char`, in the font's face now if it is loaded, else when it is (ensure)."""
    _standins.setdefault(font_name, {})[code] = char
    _drawn.setdefault(font_name, {})[code] = (glyph, alias, width)
    if font_name not in _pending and font_name in pdfmetrics.getRegisteredFontNames():
        _install(font_name)


def _install(font_name: str) -> None:
    """The font's stand-ins in its loaded face (as reportlab adds shaped glyphs)."""
    drawn = _drawn.get(font_name)
    if not drawn:
        return
    face = pdfmetrics.getFont(font_name).face
    for code, (glyph, alias, width) in drawn.items():
        if code not in face.charToGlyph:
            glyph = face.charToGlyph.get(glyph, 0) if alias else glyph
            face.charToGlyph[code] = glyph
            face.charWidths[code] = width
            face.glyphToChar.setdefault(glyph, []).append(code)


def _text_of(font_name: str, subset: list[int]) -> list[int]:
    """A subset's code points as the text they draw: a stand-in's own character."""
    standins = _standins.get(font_name)
    return [standins.get(c, c) for c in subset] if standins else subset


_FULL_WIDTH = frozenset(chr(c) for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B),
                                         *range(0xFF41, 0xFF5B)))  # ０-９ Ａ-Ｚ ａ-ｚ


@lru_cache(maxsize=None)
def full_width(font_name: str) -> dict[str, str]:
    """The full-width letters and digits (０-９, Ａ-Ｚ, ａ-ｚ) that a proportional font draws
    narrower than an em, each with the stand-in of the font's full-width glyph for it: its
    `fwid` form, else its `vert` form (upright in a column, one em wide). ２－１０ and ＡＪＱＫ
    then print full-width, as written, not like 2-10 and AJQK."""
    result: dict[str, str] = {}
    for feature in ("fwid", "vert"):
        for ch, form in forms(font_name, feature).items():
            if ch in _FULL_WIDTH and ch not in result and \
                    string_width(ch, font_name, 1000) < 950 and abs(form.width - 1000) < 1:
                result[ch] = form.char
    return result


# Marks a Japanese font draws on a half-em body, set in Latin text by the glyph of the
# narrower character it shares its outline with: BIZ UD's ’ is its ' (the same curl) with
# a half em of advance, which opens a gap in "it’s".
ALIASES = (("\u2019", "'"),)  # (the character, the character whose glyph draws it)
_ALIAS_BASE = STANDIN_BASE + len(FEATURES) * _BLOCK


def is_alias(ch: str) -> bool:
    """Whether `ch` is the stand-in of one of the ALIASES (a Latin mark, in any font)."""
    return _ALIAS_BASE <= ord(ch) < _ALIAS_BASE + len(ALIASES)


@lru_cache(maxsize=None)
def narrow(font_name: str, char: str) -> str:
    """`char` as Latin text sets it in the font: itself, or the stand-in of its ALIASES
    glyph where the font's own is more than half as wide again (its text still `char`)."""
    glyph_of = dict(ALIASES).get(char)
    if glyph_of is None or missing_glyphs(font_name, char + glyph_of) or \
            string_width(char, font_name, 1000) <= 1.5 * string_width(glyph_of, font_name, 1000):
        return char
    code = _ALIAS_BASE + [a for a, _b in ALIASES].index(char)
    if code in charmap(font_name):
        return char
    _stand_in(font_name, code, ord(char), ord(glyph_of), string_width(glyph_of, font_name, 1000),
              alias=True)
    return chr(code)
