"""Sheets and card sizes: the paper holds the grid as written, and every face of a deck
fits the sheet's slots.

A sheet preset is built as written (resolve); whether its cards, gaps and margins add up
to its paper is checked here, once per preset, at the key that is wrong. A deck whose
front is not the size of the sheet's slots (as is, or turned 90 degrees), or whose back
(the deck's, or a card's own) is not the size of its front, is reported at the layout's
name in game.yaml or at the card's `back:`.
"""

from __future__ import annotations

from ..model import Game, SheetPreset
from ..problems import Report
from ..units import SIZE_TOLERANCE, mm, same_size, show_size
from ..i18n import N_, _

NAME = "sheets"
NAMES = ("sheet", "layout")
ORDER = 10
DOC = N_("a sheet preset's paper holds its cards, gaps and margins, clear of what the printer "
         "cannot print; a deck's faces are the size of its sheet's slots, and its backs the "
         "size of its fronts; a game's backs print in one duplex mode")


def run(game: Game, report: Report) -> None:
    checked: set[int] = set()
    for deck in game.decks:
        if id(deck.sheet) not in checked:
            checked.add(id(deck.sheet))
            if _check_geometry(deck.sheet, report):  # (paper it does not fit: said once)
                _check_printable(deck.sheet, report)
        _check_sizes(deck, report)
    _check_duplex(game, report)


def _check_duplex(game: Game, report: Report) -> None:
    """The backs of a game are one file, printed in one duplex mode: decks whose sheets turn
    over different ways would have half their backs land behind the wrong cards. (A
    standee's back page is blank: it prints single-sided and does not count.)"""
    printed = [d for d in game.decks if d.total and d.shape != "standee"]
    for deck in printed[1:]:
        first = printed[0]
        if deck.sheet.duplex != first.sheet.duplex:
            report.error(_("deck '{deck_id}' prints its backs for {sheet_duplex} duplex (sheet "
                           "'{sheet_id}'), but deck '{first_id}' for {sheet_duplex2}: a "
                           "game's backs are one file, printed one way; give them the same "
                           "duplex: (in the presets, or in each deck's sheet: in game.yaml), "
                           "or print them as targets of their own", deck_id=deck.id,
                           sheet_duplex=deck.sheet.duplex, sheet_id=deck.sheet.id,
                           first_id=first.id, sheet_duplex2=first.sheet.duplex),
                         deck.source.locate(deck.path + ("sheet",)), "sheet")


# how a message names the paper's edges and dimensions
_EDGES = {"left": _("left"), "right": _("right"), "top": _("top"), "bottom": _("bottom")}
_DIMENSIONS = {"width": _("width"), "height": _("height")}


def _check_geometry(sheet: SheetPreset, report: Report) -> bool:
    """The cards and margins fit the paper, and margins written on both sides agree (True)."""
    where = _("sheet preset '{sheet_id}'", sheet_id=sheet.id)
    card, gap, paper = sheet.card, sheet.gap, sheet.paper
    used_w = sheet.columns * card[0] + (sheet.columns - 1) * gap[0]
    used_h = sheet.rows * card[1] + (sheet.rows - 1) * gap[1]
    right = paper[0] - sheet.margin_left - used_w
    bottom = paper[1] - sheet.margin_top - used_h
    unit = sheet.unit
    fits = True
    for name, room, side, total in (("width", right, "right", paper[0]),
                                    ("height", bottom, "bottom", paper[1])):
        if room < -SIZE_TOLERANCE:
            fits = False
            report.error(
                _("{where}: {value} cards and margins need {length} of paper {name}, but the "
                  "paper is {length2}", where=where,
                  value=sheet.columns if name == 'width' else sheet.rows,
                  length=_length(total - room, unit), name=_DIMENSIONS[name],
                  length2=_length(total, unit)),
                sheet.where.get("grid", sheet.loc), "sheet")
        elif side in sheet.margins_written and abs(sheet.margins_written[side] - room) > mm(0.1):
            fits = False
            report.error(
                _("{where}: margin {side} is {length}, but paper, cards, gaps and the {value} "
                  "margin leave {length2}", where=where, side=side,
                  length=_length(sheet.margins_written[side], unit, 2),
                  value='left' if side == 'right' else 'top', length2=_length(room, unit, 2)),
                sheet.where.get(f"margins.{side}", sheet.loc), "sheet")
    return fits


def _check_printable(sheet: SheetPreset, report: Report) -> None:
    """Nothing prints in the margin the printer cannot print (`unprintable`): the cards
    stay outside it, and so do the crop marks, which lie beyond the grid."""
    where = _("sheet preset '{sheet_id}'", sheet_id=sheet.id)
    used_w = sheet.columns * sheet.card[0] + (sheet.columns - 1) * sheet.gap[0]
    used_h = sheet.rows * sheet.card[1] + (sheet.rows - 1) * sheet.gap[1]
    sides = {"left": sheet.margin_left, "right": sheet.paper[0] - sheet.margin_left - used_w,
             "top": sheet.margin_top, "bottom": sheet.paper[1] - sheet.margin_top - used_h}
    u, unit = sheet.unprintable, sheet.unit
    said = _("the {length} from each edge a printer cannot print (unprintable:)",
             length=_length(u, unit))
    side, room = min(sides.items(), key=lambda item: item[1])
    if room < u - SIZE_TOLERANCE:
        report.error(_("{where}: the cards come to {length} from the paper's {side} edge, inside "
                       "{said}; widen the margins, or say what the printer can do "
                       "(unprintable: 3mm)",
                           where=where, length=_length(room, unit), side=_EDGES[side],
                           said=said), sheet.where.get("unprintable", sheet.loc),
                     "sheet")
        return
    if sheet.crop_marks:
        reach = sum(sheet.crop_marks)
        side, room = min(sides.items(), key=lambda item: item[1])
        if room - reach < u - SIZE_TOLERANCE:
            fits = room - u - sheet.crop_marks[1]  # the longest marks that would print
            mend = (_("make them shorter (crop_marks: {{length: {replace}}}) or the margins wider",
                      replace=_length(fits, unit).replace(' ', ''))
                    if fits >= mm(1) else _("there is no room for them: widen the margins, or "
                                            "leave them out (crop_marks: false)"))
            report.error(_("{where}: the crop marks reach {length} from the paper's {side} edge, "
                           "inside {said}: they would not print; {mend}", where=where,
                           length=_length(max(0.0, room - reach), unit), side=_EDGES[side],
                           said=said,
                           mend=mend), sheet.where.get("crop_marks", sheet.loc), "sheet")


def _length(points: float, unit: str, places: int = 1) -> str:
    """A sheet's length, to 0.1 mm (or 0.01 in); margins to 0.01 mm (or 0.001 in)."""
    if unit == "in":
        return f"{points / 72:.{places + 1}f} in"
    return f"{points / mm(1):.{places}f} mm"


def _check_sizes(deck, report: Report) -> None:
    front, back, slot = deck.front, deck.back, deck.sheet.card
    piece = deck.piece_size
    if not (same_size(piece, slot) or same_size(piece, (slot[1], slot[0]))):
        what = _("layout '{layout}' makes standees of {size}", layout=front.id,
                 size=show_size(piece, front.unit)) if piece != front.size else \
            _("layout '{layout}' is {size}", layout=front.id,
              size=show_size(front.size, front.unit))
        report.error(_("deck '{deck_id}': {what}, but sheet preset '{sheet_id}' holds {slot} cards",
                       deck_id=deck.id, what=what, sheet_id=deck.sheet.id,
                       slot=show_size(slot, deck.sheet.unit)),
                     deck.source.locate(deck.path + ("front",)), "layout")
    if not same_size(front.size, back.size):
        report.error(_("deck '{deck_id}': back layout '{back_id}' is {back_size}, but the front "
                       "layout '{front_id}' is {front_size}", deck_id=deck.id, back_id=back.id,
                       back_size=show_size(back.size, back.unit), front_id=front.id,
                       front_size=show_size(front.size, front.unit)),
                     deck.source.locate(deck.path + ("back",)), "layout")
    for card in deck.cards:
        own = deck.card_backs.get(card.back) if card.back else None
        if own is not None and not same_size(front.size, own.size):
            report.error(_("card '{card_id}': back layout '{own_id}' is {own_size}, but the front "
                           "layout '{front_id}' is {front_size}", card_id=card.id, own_id=own.id,
                           own_size=show_size(own.size, own.unit), front_id=front.id,
                           front_size=show_size(front.size, front.unit)),
                         card.locate("back"), "layout", card=card.id, deck=deck.id,
                         field="back")
