"""Sheet presets: a preset of layouts/sheets/ with a deck's own overrides on top, as the
concrete SheetPreset a deck is imposed on (a plain-paper preset fitted to the card)."""

from __future__ import annotations


from ..load.yamlfile import Document
from ..model import DEFAULT_MARKS, DEFAULT_UNPRINTABLE, SheetPreset, frozen_mapping
from ..problems import Location, Report
from ..values import flag
from ..units import SIZE_TOLERANCE, paper_size, parse_length, show_length, show_size, written_unit
from ..i18n import _




class _SheetValues:
    """A preset's values with a deck's overrides on top, each parsed where it was written."""

    def __init__(self, preset: str, doc: Document, overrides: dict, override_at, report: Report):
        self.preset, self.doc = preset, doc
        self.overrides, self.override_at = overrides, override_at
        self.report = report
        self.ok = True
        self.unit = written_unit([doc.data, overrides])  # what messages about it are given in

    def raw(self, key: str, default=None):
        if key in self.overrides:
            return self.overrides[key]
        return self.doc.data.get(key, default)

    def locate(self, *path) -> Location:
        if path[0] in self.overrides:
            return self.override_at(path)
        return self.doc.locate(path)

    def length(self, *path) -> float:
        value = self.raw(path[0])
        for p in path[1:]:
            value = value[p]
        try:
            return parse_length(value)
        except ValueError as exc:
            self.report.error(_("sheet preset '{preset}': {exc}",
                                preset=self.preset, exc=exc), self.locate(*path), "units")
            self.ok = False
            return 0.0

    def pair(self, key: str, default=(0.0, 0.0)) -> tuple[float, float]:
        if self.raw(key) is None:
            return default
        pair = self.length(key, 0), self.length(key, 1)
        for i, value in enumerate(pair):
            if value < 0:  # cards would overlap
                self.report.error(_("sheet preset '{preset}': {key} must not be negative, not "
                                    "{show_length}",
                                        preset=self.preset, key=key,
                                        show_length=show_length(value, self.unit, measured=False)),
                                  self.locate(key, i), "sheet")
                self.ok = False
        return pair

    def marks(self, default: bool):
        value = self.raw("crop_marks", default)
        if not isinstance(value, dict):
            return DEFAULT_MARKS if flag(value) else None
        return (self.length("crop_marks", "length") if "length" in value else DEFAULT_MARKS[0],
                self.length("crop_marks", "offset") if "offset" in value else DEFAULT_MARKS[1])


def resolve_sheet(sheet_id: str, doc: Document, report: Report,
                  card: tuple[float, float] | None = None,
                  overrides: dict | None = None, override_at=None) -> SheetPreset | None:
    """A concrete sheet: a fixed preset as written, or a plain-paper preset fitted to `card`
    (the deck's card size), centred, its slots turned where that fits more cards.
    `overrides` are the deck's own sheet options."""
    v = _SheetValues(sheet_id, doc, overrides or {}, override_at, report)
    where = _("sheet preset '{sheet_id}'", sheet_id=sheet_id)
    paper_raw = v.raw("paper")
    paper = paper_size(paper_raw) if isinstance(paper_raw, str) \
        else (v.length("paper", 0), v.length("paper", 1))
    gap = v.pair("gap")
    plain = flag(v.raw("plain", False))  # fit the grid to the card, centred
    precut = v.raw("stock", "plain" if plain else "precut") == "precut"
    marks = v.marks(default=not precut)
    bleed = flag(v.raw("bleed", not precut))
    unprintable = v.length("unprintable") if v.raw("unprintable") is not None \
        else DEFAULT_UNPRINTABLE
    if plain:
        card = card or (v.length("card", 0), v.length("card", 1))
        edge = unprintable + ((marks[0] + marks[1]) if marks else 0.0)  # the marks outside it

        def grid(c: tuple[float, float]) -> tuple[int, int]:
            return (int((paper[0] - 2 * edge + gap[0] + SIZE_TOLERANCE) // (c[0] + gap[0])),
                    int((paper[1] - 2 * edge + gap[1] + SIZE_TOLERANCE) // (c[1] + gap[1])))
        cols, rows = grid(card)
        turned = grid((card[1], card[0]))
        if turned[0] * turned[1] > cols * rows:  # more cards turned: the slots are turned
            card, (cols, rows) = (card[1], card[0]), turned  # (impose.turn turns the faces)
        if cols < 1 or rows < 1:
            report.error(_("{where}: a {card} card does not fit on {paper} paper with "
                           "{show_length} free at the edges", where=where,
                           card=show_size(card, v.unit), paper=show_size(paper, v.unit),
                           show_length=show_length(edge, v.unit, measured=False)),
                         doc.locate(("paper",)), "sheet")
            return None
        margins = {"left": (paper[0] - cols * card[0] - (cols - 1) * gap[0]) / 2,
                   "top": (paper[1] - rows * card[1] - (rows - 1) * gap[1]) / 2}
    else:
        card = (v.length("card", 0), v.length("card", 1))
        cols, rows = v.raw("grid")["columns"], v.raw("grid")["rows"]
        margins = {k: v.length("margins", k) for k in v.raw("margins")}
    if not v.ok:
        return None
    # Whether cards, gaps and margins add up to the paper is validate's to say
    # (validate/sheets.py): the sheet is built as written, with where each part was written.
    written = {side: margins[side] for side in ("right", "bottom") if side in margins}
    return SheetPreset(
        id=sheet_id,
        name=doc.data.get("name", sheet_id),
        paper=paper,
        card=card,
        columns=cols,
        rows=rows,
        margin_left=margins["left"],
        margin_top=margins["top"],
        gap=gap,
        duplex=v.raw("duplex", "long-edge"),
        loc=doc.locate(()),
        crop_marks=marks,
        bleed=bleed,
        precut=precut,
        unit=v.unit,
        margins_written=frozen_mapping(written),
        unprintable=unprintable,
        mixed=plain and flag(v.raw("mixed", True)),
        where=frozen_mapping({"grid": doc.locate(("grid",)),
                              "unprintable": v.locate("unprintable") if v.raw("unprintable")
                              is not None else doc.locate(()),
                              "crop_marks": v.locate("crop_marks") if v.raw("crop_marks")
                              is not None else doc.locate(()),
                              **{f"margins.{side}": doc.locate(("margins", side))
                                 for side in written}}),
    )
