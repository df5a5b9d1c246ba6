"""The visual diff (`cardgen diff --visual`, the preview's changes view): every reprinted
face, rulebook page and board page that prints differently, rasterised before and after
while the old version's files are there to read."""

from __future__ import annotations

from functools import lru_cache

from .result import PAGE_WORDS, SIDES, GameDiff, PageRaster
from ..i18n import _


VISUAL_DPI = 100
PICTURES_KEPT = 2000  # faces a Revision keeps rasterised (about 40 kB each), at most


@lru_cache(maxsize=2)
def _pdf_pngs(pdf: bytes) -> list[bytes]:
    """A rulebook's pages at VISUAL_DPI: the revision's, kept (a server compares every save
    with the same one)."""
    from ..write.png import pdf_to_pngs
    return pdf_to_pngs(pdf, VISUAL_DPI)


def _rasterised(diff: GameDiff, visual: bool, memory: dict | None = None) -> GameDiff:
    if not visual:
        return diff
    from ..write.png import faces_to_png
    keys, faces = [], []
    for r in diff.reprinted:
        old_faces, new_faces = diff.pairs[r.new.id]
        for k, side in enumerate(SIDES):
            if side in r.sides:
                keys.append((r.new.id, side))
                faces += [old_faces[k], new_faces[k]]
    pngs = faces_to_png(faces, VISUAL_DPI, diff.font, None, bleed=False,
                        memory=memory) if faces else []
    diff.rasters = {key: (pngs[2 * n], pngs[2 * n + 1]) for n, key in enumerate(keys)}
    diff.page_rasters = _page_rasters(diff)
    return diff


def _page_rasters(diff: GameDiff) -> list[PageRaster]:
    """Each rulebook page and board page that prints differently, before and after, as
    PNGs (while the old version's files are there to read)."""
    from ..impose import impose_board
    from ..write.png import pdf_to_pngs, rasterise
    out: list[PageRaster] = []
    book = diff.rulebook
    if book is not None and book.pages:
        old_pdf, new_pdf = diff.rulebook_pdfs
        before = _pdf_pngs(old_pdf) if old_pdf else []
        after = pdf_to_pngs(new_pdf, VISUAL_DPI) if new_pdf else []
        for c in book.pages:
            was = before[c.was - 1] if c.was and c.was <= len(before) else None
            now = after[c.page - 1] if c.page and c.page <= len(after) else None
            title = _("rulebook p. {page}", page=c.page) if c.page else \
                _("rulebook p. {page} (removed)", page=c.was)
            how = PAGE_WORDS.get(c.how, c.how)
            cause = _("{how} (was p. {page})", how=how, page=c.was) \
                if c.was and c.page and c.was != c.page else how
            out.append((title, [cause], was, now, ("rulebook", c.page)))
    olds, news = diff.board_faces
    for b in diff.boards:
        old_pages = impose_board(olds[b.board], diff.font) if b.board in olds else ()
        new_pages = impose_board(news[b.board], diff.font) if b.board in news else ()
        for page in b.pages:
            was = rasterise([old_pages[page - 1]], VISUAL_DPI, diff.font)[0] \
                if page <= len(old_pages) else None
            now = rasterise([new_pages[page - 1]], VISUAL_DPI, diff.font)[0]
            out.append((_("board '{board}' p. {page}", board=b.board, page=page), b.causes,
                        was, now, ("board", b.board, page)))
    return out
