"""Saddle-stitch imposition: rulebook pages two to a sheet side, in folding order.

Pages are padded with blank pages to a multiple of 4. Sheet s (from 0) of an
N-page booklet carries pages N-2s and 2s+1 on its front (left, right) and 2s+2
and N-2s-1 on its back; printed duplex, flipped on the short edge, stacked and
folded, the sheets read in order. pypdf places the pages.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page indexes (0-based; None for a blank) for every sheet side in order."""
    total = -(-pages // 4) * 4 if pages else 0

    def page(i: int) -> int | None:
        return i if i < pages else None

    sides = []
    for s in range(total // 4):
        sides.append((page(total - 1 - 2 * s), page(2 * s)))
        sides.append((page(2 * s + 1), page(total - 2 - 2 * s)))
    return sides


def impose_booklet(pdf: bytes, sheet: tuple[float, float], title: str) -> bytes:
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    w, h = sheet
    for left, right in booklet_order(len(reader.pages)):
        side = writer.add_blank_page(width=w, height=h)
        for index, x0 in ((left, 0.0), (right, w / 2)):
            if index is None:
                continue
            page = reader.pages[index]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            # Each page sits against the fold (the sheet's centre line), centred vertically.
            dx = (w / 2 - pw) if x0 == 0.0 else w / 2
            side.merge_transformed_page(page, Transformation().translate(dx, (h - ph) / 2))
    writer.add_metadata({"/Title": title, "/Creator": "cardgen"})
    prefs = writer.create_viewer_preferences()
    prefs.duplex = NameObject("/DuplexFlipShortEdge")
    prefs.print_scaling = NameObject("/None")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
