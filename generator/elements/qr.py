"""`qr`: a QR code, drawn as vectors, linking a card to its rules or errata page.

The code is encoded by reportlab's own barcode module (`qrencoder`) and drawn as one
filled path, so it stays sharp at any print resolution. It is square, centred in the
element's box, with its quiet zone (light margin) inside the box. A module (one square
of the code) smaller than MIN_MODULE is an error: a phone cannot read it from paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..primitives import Rect, register
from ..units import mm
from .base import INK, Bad, Element
from ..i18n import N_, _
from ..options import Option, Options

NAME = "qr"
CONTENT = True
BLEEDS = False
EXAMPLE = {"data": "https://example.org"}  # its own keys in a working element (the test matrix's)
MIN_MODULE = mm(0.25)  # the smallest module a print shop or a home laser prints cleanly
MAX_DATA = 1000  # characters: a link, not a document (and a code that still fits a card)
LEVELS = ("L", "M", "Q", "H")  # error correction: 7%, 15%, 25%, 30% of the code may be lost
OPTIONS = Options(
    Option("data", "layout-text", N_("what the code encodes: a link, a text"), required=True),
    Option("level", "choice", N_("error correction: 7%, 15%, 25% or 30% of the code may be "
                                 "lost"), "M", choices=LEVELS, defaults=True),
    Option("color", "layout-color", N_("the modules' colour"), defaults=True,
           shown_default=N_("ink")),
    Option("background", "layout-color", N_("behind the code and its quiet zone"), "white",
           defaults=True),
    Option("quiet_zone", "layout-integer", N_("the empty modules around the code"), 4, low=0,
           high=10, defaults=True),
)


@register
@dataclass(frozen=True, slots=True)
class QRModules:
    """The dark modules of a QR code: `rows` from the top, "1" dark; (x, y) is the
    bottom-left corner of the code (without its quiet zone), `module` the side in points."""

    x: float
    y: float
    module: float
    rows: tuple[str, ...]
    color: tuple

    CONTENT = True  # a code must be read whole

    def runs(self):
        """(row, first column, length) of each horizontal run of dark modules."""
        for r, row in enumerate(self.rows):
            c = 0
            while c < len(row):
                if row[c] == "1":
                    start = c
                    while c < len(row) and row[c] == "1":
                        c += 1
                    yield r, start, c - start
                else:
                    c += 1

    def draw(self, c, pen) -> None:
        pen.fill_with(c, self.color)
        path = c.beginPath()
        top, m = self.y + len(self.rows) * self.module, self.module
        for r, col, n in self.runs():
            path.rect(self.x + col * m, top - (r + 1) * m, n * m, m)
        c.drawPath(path, stroke=0, fill=1)

    def bounds(self, measure=None):
        side = len(self.rows) * self.module
        return (self.x, self.y, self.x + side, self.y + side)

    def recolored(self, conversion) -> "QRModules":
        """The same code in another colour space (a CMYK export). Its modules are as fine
        as text, so they convert as text does (K alone for black)."""
        return replace(self, color=conversion.color(self.color, "text"))  # read as text is: K alone

    def digest(self, shared=None) -> bytes:
        return repr(self).encode()

    def weight(self) -> int:
        """Roughly how many bytes of content stream it takes: a rectangle per run."""
        return 30 * sum(1 for _ in self.runs())


def encode(data: str, level: str) -> tuple[str, ...]:
    """The code's modules, row by row ("1" dark). Text that is not ASCII is written as
    UTF-8 behind an ECI header, so that readers decode it as UTF-8."""
    # Imported here: reportlab's barcode package loads its graphics widgets (80 ms), which
    # only a game with a QR code needs.
    from reportlab.graphics.barcode import qrencoder
    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    if data.isascii():
        code.addData(data)
    else:
        code.addData(qrencoder.QRECI(26))  # 26: UTF-8
        code.addData(qrencoder.QR8bitByte(data))
    code.make()
    n = code.getModuleCount()
    return tuple("".join("1" if code.isDark(r, c) else "0" for c in range(n)) for r in range(n))


def lay_out(e: Element) -> list:
    x, y, w, h = e.box()
    data = e.raw("data", "")
    data = "" if data is None else str(data)
    if not data:
        raise Bad("data", _("is empty: a QR code needs something to encode"))
    if len(data) > MAX_DATA:
        raise Bad("data", _("is {n_data:,} characters long; a QR code on a card holds at most "
                            "{MAX_DATA:,}", n_data=len(data), MAX_DATA=MAX_DATA))
    level = str(e.option("level"))
    if level not in LEVELS:
        raise Bad("level", _("must be one of {join}, not '{level}'",
                             join=', '.join(LEVELS), level=level))
    quiet = int(e.option("quiet_zone"))
    try:
        rows = e.derived("qr rows", frozenset({"data", "level"}), lambda: encode(data, level))
    except Exception:  # qrencoder says only "code length overflow"
        raise Bad("data", _("is too long for a QR code at level {level} ({n_data:,} characters); "
                            "shorten it or use level L", level=level, n_data=len(data))) from None
    side = min(w, h)
    n = len(rows)
    module = side / (n + 2 * quiet)
    if module < MIN_MODULE:
        unit = e.layout.unit
        scale = 72.0 if unit == "in" else mm(1)
        step = 100 if unit == "in" else 10  # 0.01 in or 0.1 mm
        need = math.ceil(MIN_MODULE * (n + 2 * quiet) / scale * step) / step  # a minimum: up
        places = 3 if unit == "in" else 2
        raise Bad("width", _("a QR code of {n} x {n} modules needs a box of at least {need} "
                             "to print its modules at {least} (they would be {module}); make "
                             "the box larger, the data shorter or the level lower", n=n,
                             need=f"{need:.{places - 1}f} {unit}",
                             least=f"{MIN_MODULE / scale:.{places}f} {unit}",
                             module=f"{module / scale:.{places}f} {unit}"))
    left, bottom = x + (w - side) / 2, y + (h - side) / 2
    items: list = []
    background = e.option("background")
    if background is not None:
        items.append(Rect(left, bottom, side, side, fill=background))
    items.append(QRModules(left + quiet * module, bottom + quiet * module, module, rows,
                           e.color("color", "ink") or INK))
    return items
