"""What cardgen takes from its libraries' internals, named in one place.

For speed and for typesetting, a few modules reach past the libraries' public API:

- draw/__init__.py reuses what reportlab's `PDFTextObject.textLine` wrote for a run of
  text (its operators and the font subset in use);
- write/pdf.py writes a form's placement straight into the canvas's operators and
  compresses each page when it is shown, in reportlab's document;
- rulebook/typeset.py measures a table's rows before it splits one (reportlab's
  `Table._calc`), and rulebook/markdown.py parses Markdown inline with a CJK-friendly
  emphasis state (markdown-it's `ParserInline` and `StateInline`);
- rulebook/template.py names the value a template did not find (Jinja2's `Undefined`);
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
from importlib import metadata

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
        ("reportlab.platypus.Table", ("_calc", "_rowHeights", "splitInRow", "repeatRows")),
    ),
    "markdown-it-py": (
        ("markdown_it.rules_inline.state_inline", ("StateInline", "Scanned")),
        ("markdown_it.parser_inline.ParserInline (an instance)", ("tokenize", "ruler2", "parse")),
    ),
    "Jinja2": (
        ("jinja2.Undefined (an instance)", ("_undefined_name", "_undefined_message")),
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
        objects = [text, canvas, canvas._doc, table]
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


def check(deep: bool = False) -> None:
    """Raise LibraryMismatch when an installed library lacks what cardgen uses. A tested
    version is taken as it is, unless `deep`."""
    for distribution, tested in TESTED.items():
        try:
            version = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            raise LibraryMismatch(_("cardgen needs {distribution} {join}, which is not installed; "
                                    "run make build (or pip install -e .)",
                                        distribution=distribution, join=' or '.join(tested))) \
                from None
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
