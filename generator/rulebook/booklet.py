"""Saddle-stitch imposition: rulebook pages two to a sheet side, in folding order.

Pages are padded with blank pages to a multiple of 4. Sheet s (from 0) of an
N-page booklet carries pages N-2s and 2s+1 on its front (left, right) and 2s+2
and N-2s-1 on its back; printed duplex, flipped on the short edge, stacked and
folded, the sheets read in order. A book bound on the right (a vertical rulebook, 右綴じ)
has each side's pair the other way round: it opens from the right. pikepdf places each
page as a form.
"""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Dictionary, Name, Rectangle


def booklet_order(pages: int, right_bound: bool = False) -> list[tuple[int | None, int | None]]:
    """(left, right) page indexes (0-based; None for a blank) for every sheet side in order;
    `right_bound`: for a book bound on its right edge."""
    total = -(-pages // 4) * 4 if pages else 0

    def page(i: int) -> int | None:
        return i if i < pages else None

    sides = []
    for s in range(total // 4):
        sides.append((page(total - 1 - 2 * s), page(2 * s)))
        sides.append((page(2 * s + 1), page(total - 2 - 2 * s)))
    return [(b, a) for a, b in sides] if right_bound else sides


def impose_booklet(pdf: bytes, sheet: tuple[float, float], title: str,
                   right_bound: bool = False) -> bytes:
    source = pikepdf.open(io.BytesIO(pdf))
    book = pikepdf.new()
    w, h = sheet
    for left, right in booklet_order(len(source.pages), right_bound):
        book.add_blank_page(page_size=(w, h))
        side = book.pages[-1]
        for index, x0 in ((left, 0.0), (right, w / 2)):
            if index is None:
                continue
            page = source.pages[index]
            llx, lly, urx, ury = (float(v) for v in page.mediabox)
            pw, ph = urx - llx, ury - lly
            # Each page sits against the fold (the sheet's centre line), centred vertically,
            # as a form: its content is referenced, not parsed and rewritten.
            dx = (w / 2 - pw) if x0 == 0.0 else w / 2
            form = book.copy_foreign(page.as_form_xobject())
            name = side.add_resource(form, Name.XObject, Name(f"/Page{index + 1}"))
            side.contents_add(side.calc_form_xobject_placement(
                form, name, Rectangle(dx, (h - ph) / 2, dx + pw, (h + ph) / 2)))
    book.docinfo["/Title"] = title
    book.docinfo["/Creator"] = "cardgen"
    book.Root.ViewerPreferences = Dictionary(Duplex=Name.DuplexFlipShortEdge,
                                             PrintScaling=Name("/None"))
    if right_bound:
        book.Root.ViewerPreferences.Direction = Name.R2L
    out = io.BytesIO()
    book.save(out, deterministic_id=True)  # same pages, same bytes
    return out.getvalue()


def some_pages(pdf: bytes, indexes: list[int], title: str, duplex: bool = False) -> bytes:
    """Only the pages `indexes` (0-based, in order) of a PDF: an errata set's rulebook pages
    or booklet sheet sides. Deterministic, as every file cardgen writes."""
    source = pikepdf.open(io.BytesIO(pdf))
    out = pikepdf.new()
    for index in indexes:
        out.pages.append(source.pages[index])
    out.docinfo["/Title"] = title
    out.docinfo["/Creator"] = "cardgen"
    preferences = {"/PrintScaling": Name("/None")}
    if duplex:
        preferences["/Duplex"] = Name.DuplexFlipShortEdge
    out.Root.ViewerPreferences = Dictionary(preferences)
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True)
    return buffer.getvalue()
