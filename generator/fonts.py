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

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont, TTFontParser

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
    tables = struct.unpack(">H", head[4:6])[0] if len(head) >= 6 else 0
    digest = hashlib.sha1(head[:12 + 16 * tables]).hexdigest()[:8]
    name = f"{path.stem}-{digest}"
    _files.setdefault(name, []).insert(0, real)  # the newest first
    if name not in pdfmetrics.getRegisteredFontNames():
        _pending.setdefault(name, []).insert(0, real)  # the newest first
    return name


_files: dict[str, list[Path]] = {}  # registered name -> the files it was registered from


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
        name = self.face.name
        made = ttfonts.SUBSETN

        def tag(n: int, *_args) -> bytes:
            if n >= len(subsets):
                return made(n, *_args)
            digest = hashlib.sha256(name + repr(list(subsets[n])).encode()).digest()
            return bytes(ord("A") + b % 26 for b in digest[:6])

        ttfonts.SUBSETN = tag  # the name addObjects gives each subset, for this font's call
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = made


def ensure(font_name: str) -> str:
    """Load a registered font if it is not loaded yet; returns its name. Everything that
    hands a font name to reportlab goes through here or through the functions below."""
    paths = _pending.get(font_name)
    if paths is not None:
        path = next((p for p in paths if p.exists()), paths[0])
        try:
            pdfmetrics.registerFont(_TaggedFont(font_name, str(path)))
        except (TTFError, OSError, struct.error, IndexError, KeyError, ValueError) as exc:
            problem = _explain(path, exc)  # a damaged file: its tables end too soon
            if font_name not in _declared:
                raise problem from None
            where, family = _declared[font_name]
            report = Report()
            report.error(_("font family '{family}': {problem}",
                           family=family, problem=problem), where, "font")
            raise DataProblems(report) from None
        del _pending[font_name]
    return font_name


# Where measured fonts' metrics are kept between runs (the project's output/.cache/fonts):
# what a check needs of a font (its characters, their widths, its ascent and descent) is
# then read from a small file instead of parsing the font's tables (125 ms for a Japanese
# font). Drawing still loads the font itself.
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
    metrics = _Metrics(frozenset(face.charToGlyph), dict(face.charWidths), face.defaultWidth,
                       face.ascent, face.descent)
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
