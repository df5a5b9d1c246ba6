"""The visual diff: `cardgen diff --visual GAME` writes output/<game>/<game>-changes.pdf.

Every reprinted face, before and after, side by side, with the regions whose pixels
differ outlined in red on both. The faces are rasterised by the same renderer as every
other picture (write/png.py); the regions come from a pixel difference of the two
rasters, grouped into boxes on a coarse grid.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageChops
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..load import Project
from ..reproducible import making_pdf
from ..units import mm, paper_size
from . import BytesFile, write_files
from ..diff.result import SIDE_WORDS
from ..i18n import _, printing, shown

CELL = 12  # pixels: differences are grouped into boxes on this grid
THRESHOLD = 48  # a channel difference below this is anti-aliasing, not a change
RED = (0.85, 0.1, 0.1)
PER_PAGE = 3  # faces (rows) per landscape A4 page


def changed_regions(before: bytes, after: bytes) -> list[tuple[float, float, float, float]]:
    """Boxes (x, y, w, h, as fractions of the face, y down) around the pixels that differ."""
    with PILImage.open(io.BytesIO(before)) as a, PILImage.open(io.BytesIO(after)) as b:
        if a.size != b.size:
            return [(0.0, 0.0, 1.0, 1.0)]  # another size: the whole face changed
        mask = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
        mask = mask.point(lambda v: 255 if v > THRESHOLD else 0)
        w, h = mask.size
        cols, rows = (w + CELL - 1) // CELL, (h + CELL - 1) // CELL
        small = mask.resize((cols, rows), PILImage.Resampling.BOX)
        cells = small.tobytes()  # one byte a cell (mode L), row by row
        marked = {(x, y) for y in range(rows) for x in range(cols) if cells[y * cols + x] > 0}
    boxes = []
    while marked:  # 8-connected groups of marked cells, each one box
        stack = [marked.pop()]
        xs, ys = [], []
        while stack:
            x, y = stack.pop()
            xs.append(x)
            ys.append(y)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (x + dx, y + dy) in marked:
                        marked.discard((x + dx, y + dy))
                        stack.append((x + dx, y + dy))
        boxes.append((min(xs) / cols, min(ys) / rows, (max(xs) + 1 - min(xs)) / cols,
                      (max(ys) + 1 - min(ys)) / rows))
    return sorted(boxes)


def _draw_face(c: Canvas, png: bytes, x: float, y: float, w: float, h: float, regions) -> None:
    with PILImage.open(io.BytesIO(png)) as im:
        iw, ih = im.size
    scale = min(w / iw, h / ih)
    dw, dh = iw * scale, ih * scale
    left, bottom = x + (w - dw) / 2, y + (h - dh) / 2
    c.drawImage(ImageReader(io.BytesIO(png)), left, bottom, dw, dh)
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.3)
    c.rect(left, bottom, dw, dh)
    c.setStrokeColorRGB(*RED)
    c.setLineWidth(1.2)
    for rx, ry, rw, rh in regions:
        c.rect(left + rx * dw - 1, bottom + dh - (ry + rh) * dh - 1, rw * dw + 2, rh * dh + 2)


def changes_pdf(project: Project, game_id: str, diff, against) -> Path:
    """Write the visual diff; returns its path. One row per changed face. Its words are in
    the game's language, whoever builds it (a printed page), set in the game's own font."""
    lang = diff.game.lang if diff.game is not None else "en"
    with printing(lang):
        return _changes_pdf(project, game_id, diff, against)


def _changes_pdf(project: Project, game_id: str, diff, against) -> Path:
    from ..fonts import ensure

    font = ensure(diff.font)  # the game's own font: Japanese names and causes show
    rows = [(shown(_("{card} ({side})", card=r.new.id, side=SIDE_WORDS[side])),
             [shown(c) for c in r.causes], *diff.rasters[r.new.id, side])
            for r in diff.reprinted for side in ("front", "back") if side in r.sides]
    rows += [(shown(title), [shown(c) for c in causes], before, after)  # rulebook and board
             for title, causes, before, after, _where in diff.page_rasters]  # pages that differ
    height, width = paper_size("A4")  # landscape
    out = io.BytesIO()
    with making_pdf():
        c = Canvas(out, pagesize=(width, height), invariant=1)
        c.setTitle(shown(_("{game_id}: changes since {against}", game_id=game_id,
                           against=against)))
        margin = mm(12)
        row_h = (height - 2 * margin - mm(10)) / PER_PAGE
        if not rows:
            c.setFont(font, 12)
            c.drawString(margin, height - margin - 12, shown(_(
                "{game_id}: nothing printed changed since {against}", game_id=game_id,
                against=against)))
        for n, (title, causes, before, after) in enumerate(rows):
            if n % PER_PAGE == 0:
                if n:
                    c.showPage()
                c.setFont(font, 12)
                c.setFillColorRGB(0, 0, 0)
                c.drawString(margin, height - margin - 8, shown(_(
                    "{game_id}: what prints differently since {against}   (before | after)",
                    game_id=game_id, against=against)))
            regions = changed_regions(before, after) if before and after else \
                [(0.0, 0.0, 1.0, 1.0)]
            top = height - margin - mm(10) - (n % PER_PAGE + 1) * row_h
            face_w = (width - 2 * margin) * 0.3
            for k, png in enumerate((before, after)):  # a new or removed page: one side
                if png is not None:
                    _draw_face(c, png, margin + k * (face_w + mm(6)), top + mm(4), face_w,
                               row_h - mm(8), regions)
            text_x = margin + 2 * face_w + mm(14)
            c.setFillColorRGB(0, 0, 0)
            c.setFont(font, 10)
            c.drawString(text_x, top + row_h - mm(10), title)
            c.setFont(font, 7.5)
            y = top + row_h - mm(16)
            for cause in causes[:8]:
                for chunk in [cause[i:i + 70] for i in range(0, len(cause), 70)][:3]:
                    c.drawString(text_x, y, chunk)
                    y -= 9.5
        c.save()
    path = project.output / game_id / f"{game_id}-changes.pdf"
    pages = max(1, -(-len(rows) // PER_PAGE))
    write_files([BytesFile(path, out.getvalue(), pages)], project.output)
    return path
