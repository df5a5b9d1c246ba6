"""Reading built PDFs back: pages, text, fonts and pixels."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pypdfium2

MM = 72 / 25.4


# A typographer's quotes and a range's mark (smart_quotes, on by default) as a source writes
# them: a seed's "Duke's" prints Duke’s, its 1~12 1〜12, and is still the seed's text.
AS_WRITTEN = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'",
                            "\u301c": "~"})


def as_written(text: str) -> str:
    """`text` with its quotes and ranges' marks as a source writes them (AS_WRITTEN)."""
    return text.translate(AS_WRITTEN)


def reader(path: Path) -> pypdf.PdfReader:
    return pypdf.PdfReader(str(path))


def page_size_mm(page) -> tuple[float, float]:
    box = page.mediabox
    return float(box.width) / MM, float(box.height) / MM


def _fonts_in(resources, found: dict) -> None:
    resources = resources.get_object() if resources is not None else None
    if not resources:
        return
    fonts = resources.get("/Font")
    if fonts:
        for font in fonts.get_object().values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = [k for k in ("/FontFile", "/FontFile2", "/FontFile3") if k in descriptor]
            found[str(font.get("/BaseFont"))] = embedded
    xobjects = resources.get("/XObject")
    if xobjects:
        for xo in xobjects.get_object().values():
            xo = xo.get_object()
            if xo.get("/Subtype") == "/Form":
                _fonts_in(xo.get("/Resources"), found)


def fonts(page) -> dict[str, list[str]]:
    """Every font a page uses (forms included): base name -> embedded font file keys."""
    found: dict[str, list[str]] = {}
    _fonts_in(page.get("/Resources"), found)
    return found


class Raster:
    """A page rendered to pixels, addressed in millimetres from the page's top-left corner."""

    def __init__(self, path: Path, page_index: int, dpi: int = 300):
        pdf = pypdfium2.PdfDocument(str(path))
        try:
            image = pdf[page_index].render(scale=dpi / 72).to_pil().convert("RGB")
        finally:
            pdf.close()
        self.image = image
        self.px_per_mm = dpi / 25.4
        self.pixels = image.load()

    def at(self, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return self.pixels[int(round(x_mm * self.px_per_mm)), int(round(y_mm * self.px_per_mm))]

    def is_white(self, x_mm: float, y_mm: float) -> bool:
        return min(self.at(x_mm, y_mm)) > 240

    def ink_bbox_mm(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom of everything that is not white, in mm."""
        gray = self.image.convert("L").point(lambda v: 255 if v < 240 else 0)
        box = gray.getbbox()
        assert box, "the page is blank"
        return tuple(v / self.px_per_mm for v in box)  # type: ignore[return-value]

    def _runs(self, pixels, start_px: int, white: bool) -> list[tuple[float, float]]:
        result, start, i = [], None, start_px
        for i, pixel in enumerate(pixels, start_px):
            if (min(pixel) > 240) == white:
                start = i if start is None else start
            elif start is not None:
                result.append((start / self.px_per_mm, i / self.px_per_mm))
                start = None
        if start is not None:
            result.append((start / self.px_per_mm, (i + 1) / self.px_per_mm))
        return result

    def runs(self, y_mm: float, x0_mm: float, x1_mm: float, white: bool):
        """Horizontal runs of white (or non-white) pixels along one row, in mm."""
        y, x0, x1 = (int(round(v * self.px_per_mm)) for v in (y_mm, x0_mm, x1_mm))
        return self._runs((self.pixels[x, y] for x in range(x0, x1)), x0, white)

    def column_runs(self, x_mm: float, y0_mm: float, y1_mm: float, white: bool):
        """Vertical runs of white (or non-white) pixels along one column, in mm."""
        x, y0, y1 = (int(round(v * self.px_per_mm)) for v in (x_mm, y0_mm, y1_mm))
        return self._runs((self.pixels[x, y] for y in range(y0, y1)), y0, white)
