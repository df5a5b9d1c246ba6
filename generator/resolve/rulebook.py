"""The rulebook: its template, page size, booklet sheet, accent and text options."""

from __future__ import annotations


from ..load import LoadedGame
from ..declared import RULEBOOK
from ..model import Rulebook, frozen_mapping
from ..problems import Report
from ..values import Reader
from ..units import (BOOKLET_SHEETS, PAPER, SIZE_TOLERANCE, mm, paper_name, paper_size,
                     parse_length,
                     show_size)
from ..i18n import _


def resolve_rulebook(loaded: LoadedGame, g: dict, report: Report,
                     palette: dict | None = None) -> Rulebook | None:
    if loaded.rulebook is None:
        return None
    raw = g["rulebook"]
    entry = Reader(raw, lambda path: loaded.game.locate(("rulebook",) + path), _("rulebook"),
                   report)
    v = entry.options(RULEBOOK, palette or {})  # each key as declared once (declared.py)
    if not entry.ok:
        return None
    file, text = loaded.rulebook
    page = v["page"]
    if isinstance(page, str):
        name, size = paper_name(page) or page, paper_size(page)  # (as paper_size reads it)
    else:
        try:
            name, size = "", (parse_length(page[0]), parse_length(page[1]))
        except ValueError as exc:
            report.error(_("rulebook: page: {exc}",
                           exc=exc), loaded.game.locate(("rulebook", "page")),
                         "units")
            return None
        low, high = (mm(74), mm(105)), mm(420)  # A7: room for margins and text; A3's side
        if not (low[0] - SIZE_TOLERANCE <= size[0] <= high and
                low[1] - SIZE_TOLERANCE <= size[1] <= high):
            report.error(_("rulebook: page: {size} is not a page a rulebook can have: from {low} "
                           "(A7) to {value}",
                               size=show_size(size), low=show_size(low),
                               value=show_size((high, high))),
                         loaded.game.locate(("rulebook", "page")), "units")
            return None
    booklet = booklet_sheet(name, size, v["booklet"])
    if raw.get("booklet") and (booklet[0] < 2 * size[0] - SIZE_TOLERANCE or
                               booklet[1] < size[1] - SIZE_TOLERANCE):
        report.error(_("rulebook: booklet: {raw} ({booklet} turned) cannot hold two {size} pages "
                       "side by side (they need {value}); leave booklet: out for the paper "
                       "that holds them, or choose a larger one",
                           raw=raw['booklet'], booklet=show_size(booklet), size=show_size(size),
                           value=show_size((2 * size[0], size[1]))),
                     loaded.game.locate(("rulebook", "booklet")), "units")
        return None
    return Rulebook(file=file, text=text, page=name,
                    title=v["title"] if "title" in raw else g["title"], accent=v["accent"],
                    loc=loaded.game.locate(("rulebook",)),
                    title_loc=loaded.game.locate(("rulebook", "title") if "title" in raw
                                                 else ("title",)),
                    includes=frozen_mapping(loaded.rulebook_includes),
                    size=size, booklet=booklet,
                    align=v["align"], font=v["font"], smart_quotes=v["smart_quotes"],
                    indent=v["indent"],
                    writing=v["writing"], columns=v["columns"],
                    columns_loc=loaded.game.locate(("rulebook", "columns"))
                    if "columns" in raw else None)


def booklet_sheet(page: str, size: tuple[float, float], asked: str | None) -> tuple[float, float]:
    """The landscape sheet a saddle-stitched booklet of `page` is printed on: the one asked
    for, the paper the page is half of (A5 on A4, Half-letter on Letter...), or for a page
    of its own size the smallest paper that holds two side by side (else exactly two)."""
    name = paper_name(asked) if asked else BOOKLET_SHEETS.get(page)
    if name is None:
        fits = [p for p in PAPER if max(paper_size(p)) >= 2 * size[0] - SIZE_TOLERANCE and
                min(paper_size(p)) >= size[1] - SIZE_TOLERANCE]
        if not fits:
            return 2 * size[0], size[1]
        name = min(fits, key=lambda p: PAPER[p][0] * PAPER[p][1])
    w, h = paper_size(name)
    return max(w, h), min(w, h)
