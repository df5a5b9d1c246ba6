"""What cardgen takes from its libraries' internals, named in one place.

For speed and for typesetting, a few modules reach past the libraries' public API:

- draw/__init__.py reuses what reportlab's `PDFTextObject.textLine` wrote for a run of
  text (its operators and the font subset in use);
- write/pdf.py writes a form's placement straight into the canvas's operators,
  compresses each page when it is shown, in reportlab's document, and shares the
  resources and boxes of pages alike unless a page uses colour spaces or shadings of its
  own (a shown page's values);
- fontfaces.py keeps a font's parsed face (a `TTFontFace`'s values) between runs and
  makes a `TTFont` of one read back, as `TTFont.__init__` makes it;
- rulebook/typeset.py measures a table's rows before it splits one (reportlab's
  `Table._calc`), and rulebook/markdown.py parses Markdown inline with a CJK-friendly
  emphasis state (markdown-it's `ParserInline` and `StateInline`);
- rulebook/template.py names the value a template did not find (Jinja2's `Undefined`), and
  sandbox_env.py the key meant where the mapping asked of has one close to it;
- fonts.py names each font subset by its content: while reportlab's `TTFont.addObjects`
  writes a font's subsets, `ttfonts.SUBSETN` (public names) gives the tag.

Each private name they touch is listed in USED, with the versions it was tested on
(TESTED, the same minor versions pyproject.toml pins). `check()` runs when cardgen
starts: on a tested version it costs a version look-up; on another, it looks for every
name and stops with a message that says which library and version cardgen needs, rather
than failing later with Python's words in the middle of a build.
"""

from __future__ import annotations

import io
import os
import re
import sys

from .problems import CardgenError
from .i18n import _

# The distributions whose internals are used, and the minor versions they were tested on.
TESTED = {"reportlab": ("5.1",), "markdown-it-py": ("4.3",), "Jinja2": ("3.1",)}

# What is used, by distribution: (where it is, the names used there).
USED = {
    "reportlab": (
        ("reportlab.pdfgen.textobject.PDFTextObject (an instance)",
         ("_doc", "_fontname", "_fontsize", "_leading", "_curSubset", "_code", "textLine")),
        ("reportlab.pdfgen.canvas.Canvas (an instance)", ("_code", "_fillMode", "_doc",
                                                          "_currentMatrix")),
        ("reportlab.pdfbase.pdfdoc.PDFDocument (a canvas's _doc)", ("Pages",)),
        ("reportlab.pdfbase.pdfdoc.PDFPage (a page a canvas has shown)",
         ("_colorsUsed", "_shadingUsed", "ExtGState", "XObjects", "hasImages", "Resources",
          "MediaBox", "Rotate", "pagewidth", "pageheight")),
        ("reportlab.platypus.Table", ("_calc", "_rowHeights", "splitInRow", "repeatRows")),
        ("reportlab.pdfbase.ttfonts.TTFont (an instance)",
         ("_asciiReadable", "fontName", "face", "encoding", "state", "shapable")),
        ("reportlab.pdfbase.ttfonts.TTFontFace (an instance)",
         ("_ttf_data", "_pdfScale", "filename", "unitsPerEm")),
    ),
    "markdown-it-py": (
        ("markdown_it.rules_inline.state_inline", ("StateInline", "Scanned")),
        ("markdown_it.parser_inline.ParserInline (an instance)", ("tokenize", "ruler2", "parse")),
    ),
    "Jinja2": (
        ("jinja2.Undefined (an instance)", ("_undefined_name", "_undefined_message",
                                            "_undefined_obj", "_undefined_hint")),
    ),
}


class LibraryMismatch(CardgenError):
    """An installed library lacks an internal that cardgen uses (exit 3)."""


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _objects(distribution: str) -> list[tuple[str, object, tuple[str, ...]]]:
    """Live objects to look for each used name on (instance attributes are set in
    __init__, so instances are made)."""
    if distribution == "reportlab":
        from reportlab.pdfgen.canvas import Canvas
        from reportlab.platypus import Table
        canvas = Canvas(io.BytesIO())
        text = canvas.beginText()
        table = Table([["a"]])
        doc = canvas._doc
        canvas.showPage()
        from reportlab.pdfbase.ttfonts import TTFont
        font = TTFont("Vera", "Vera.ttf")  # (a font reportlab ships)
        objects = [text, canvas, doc, doc.Pages.pages[-1], table, font, font.face]
    elif distribution == "markdown-it-py":
        from markdown_it import MarkdownIt
        from markdown_it.rules_inline import state_inline
        objects = [state_inline, MarkdownIt().inline]
    else:
        import jinja2
        objects = [jinja2.Undefined(name="x")]
    return [(where, obj, names) for (where, names), obj in zip(USED[distribution], objects)]


def missing(distribution: str) -> list[str]:
    """Every used name the installed `distribution` lacks, as "where: name"."""
    try:
        found = _objects(distribution)
    except Exception as exc:  # a library so changed that the objects cannot be made
        return [f"{distribution}: {type(exc).__name__}"]
    return [f"{where}: {name}" for where, obj, names in found for name in names
            if not hasattr(obj, name)]


def _normal(name: str) -> str:
    """A distribution's name as its installed folder spells it (PEP 503's rule, with '_')."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _versions_by_folder(distributions) -> dict[str, str | None]:
    """The version of each distribution from the name of its `NAME-VERSION.dist-info`
    folder in the first entry of sys.path that holds it, as pip and every wheel installer
    name it: a listing of a folder or two, where importlib.metadata costs 15 ms of imports
    (email, zipfile, csv) at every start. None where the folder's name does not say it
    plainly (an egg, a zip, two installs side by side): importlib.metadata answers then."""
    wanted = {_normal(d): d for d in distributions}
    found: dict[str, str | None] = {}
    for entry in sys.path:
        if len(found) == len(wanted):
            break
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a folder that is not there; a zip (importlib.metadata reads those)
            if os.path.isfile(entry):
                break
            continue
        here: dict[str, list[str]] = {}
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                here.setdefault(_normal(name[:-9].split("-", 1)[0].removesuffix(".")),
                                []).append(name)
        for key in wanted.keys() - found.keys() & here.keys():
            folders = here[key]
            parts = folders[0].removesuffix(".dist-info").split("-")
            plain = len(folders) == 1 and folders[0].endswith(".dist-info") and len(parts) == 2
            found[key] = parts[1] if plain and parts[1] else None
    return {d: found.get(key) for key, d in wanted.items()}


def installed_version(distribution: str, by_folder: str | None = None) -> str | None:
    """The installed version of `distribution` (`by_folder`, where its folder said it);
    None if it is not installed."""
    if by_folder is None:
        by_folder = _versions_by_folder([distribution])[distribution]
    if by_folder is not None:
        return by_folder
    from importlib import metadata  # (only where the folders do not say it)
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def check(deep: bool = False) -> None:
    """Raise LibraryMismatch when an installed library lacks what cardgen uses. A tested
    version is taken as it is, unless `deep`."""
    by_folder = _versions_by_folder(TESTED)
    for distribution, tested in TESTED.items():
        version = installed_version(distribution, by_folder[distribution])
        if version is None:
            raise LibraryMismatch(_("cardgen needs {distribution} {join}, which is not installed; "
                                    "run make build (or pip install -e .)",
                                        distribution=distribution, join=' or '.join(tested)))
        if _minor(version) in tested and not deep:
            continue
        lacking = missing(distribution)
        if lacking:
            raise LibraryMismatch(
                _("cardgen needs {distribution} {join}.x, but {version} is installed, which lacks "
                  "what cardgen uses of it ({join2}); run make build (or pip install -e .) to "
                  "install the tested version",
                      distribution=distribution, join=' or '.join(tested), version=version,
                      join2='; '.join(lacking)))
