"""A calibration sheet: one duplex print tells a user their printer's back-page offset.

The front has a fine cross at the page centre; the back has two millimetre scales
through the same point. Printed duplex and held against a light, the cross falls
on the scales where the printer put the back page: the numbers read there are the
offset to enter in layouts/printers.yaml, as `offset: [x, y]`.
"""

from __future__ import annotations

from pathlib import Path

from ..impose import Page
from ..load import Project, load_fonts
from ..primitives import Item, Line, Text
from ..problems import DataProblems, Report
from ..resolve import resolve_fonts
from ..colors import INKS
from ..fonts import missing_glyphs
from ..i18n import _, shown
from ..impose.kit import duplex_words
from ..units import mm, paper_size
from . import PdfOutput, write_files
from .pdf import PdfFile

INK = INKS["calibration"]
RED = (0.8, 0.0, 0.0)


def calibration_pages(paper: tuple[float, float], duplex: str, font: str) -> tuple[Page, Page]:
    w, h = paper
    cx, cy = w / 2, h / 2
    arm = mm(25)
    front: list[Item] = [
        Line(cx - arm, cy, cx + arm, cy, RED, 0.2),
        Line(cx, cy - arm, cx, cy + arm, RED, 0.2),
    ]
    notes = [
        shown(_("cardgen printer calibration: front")),
        *shown(_("Print both pages duplex ({duplex}), at 100% (actual size).\n"
                 "Hold the sheet against a light. The red cross on this side falls on\n"
                 "the scales on the back. Read x on the horizontal scale and y on the\n"
                 "vertical one, in millimetres, and enter them in layouts/printers.yaml:",
                 duplex=duplex_words(duplex))).splitlines(),
        "  printers:",
        "    my-printer: {offset: [Xmm, Ymm]}",
        shown(_("then build with: {command}", command="cardgen build --printer my-printer")),
    ]
    for i, text in enumerate(notes):
        front.append(Text(mm(20), h - mm(25) - i * 14, text, font, 10, INK))
    back: list[Item] = []
    for tenth in range(-100, 101, 5):  # -10 .. +10 mm in 0.5 mm steps
        d = mm(tenth / 10)
        long_tick = tenth % 10 == 0
        size = mm(3 if long_tick else 1.5)
        back.append(Line(cx + d, cy, cx + d, cy - size, INK, 0.15))  # x scale, below the line
        back.append(Line(cx, cy - d, cx + size, cy - d, INK, 0.15))  # y scale: down is +
        if long_tick and tenth % 20 == 0:
            label = f"{tenth // 10:+d}" if tenth else "0"
            back.append(Text(cx + d, cy - mm(6), label, font, 6, INK, anchor="middle"))
            back.append(Text(cx + mm(4), cy - d - 2, label, font, 6, INK))
    back += [Line(cx - mm(10), cy, cx + mm(10), cy, INK, 0.15),
             Line(cx, cy - mm(10), cx, cy + mm(10), INK, 0.15),
             Text(mm(20), h - mm(25), shown(_("cardgen printer calibration: back (x to the "
                                              "right, y down, in mm)")), font, 10, INK)]
    return Page(w, h, (), tuple(front)), Page(w, h, (), tuple(back))


def calibrate(project: Project, paper: str, duplex: str) -> Path:
    """Write the printer calibration sheet (`cardgen calibrate`); returns its path."""
    report = Report()
    families = resolve_fonts(load_fonts(project, report), report)
    if report.errors or not families:
        raise DataProblems(report)
    # its words in the run's language, set in a font that has them (gothic, if it does)
    sample = shown(_("cardgen printer calibration: front"))
    fonts = [f.regular for f in ([families["gothic"]] if "gothic" in families else [])
             + list(families.values())]
    font = next((f for f in fonts if not missing_glyphs(f, sample)), fonts[0])
    front, back = calibration_pages(paper_size(paper), duplex, font)
    path = project.output / f"calibration-{paper.lower()}-{duplex}.pdf"
    write_files([PdfOutput(path, PdfFile((front, back), shown(_("cardgen printer calibration")),
                                         shown(_("print duplex, read the offset")), font,
                                         duplex))], project.output)
    return path
