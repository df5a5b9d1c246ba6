"""The print guide: which file to print, on what, how many times, in what order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import i18n
from ..i18n import Listed, _, _n, named, shown
from ..impose import Imposition
from ..impose.kit import duplex_words
from ..model import Game
from ..units import show_size, to_mm

if TYPE_CHECKING:
    from ..load import Printer


def _pages(numbers, sheets: bool = False) -> str:
    """"page 3", "pages 1-4", "pages 1, 3, 5" (or sheets)."""
    numbers = [n + 1 for n in numbers]
    if len(numbers) == 1:
        return _("sheet {n}", n=numbers[0]) if sheets else _("page {n}", n=numbers[0])
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return _("sheets {first}-{last}", first=numbers[0], last=numbers[-1]) if sheets else \
            _("pages {first}-{last}", first=numbers[0], last=numbers[-1])
    listed = i18n.Listed(map(str, numbers), None)
    return _("sheets {listed}", listed=listed) if sheets else _("pages {listed}", listed=listed)


def _paper(imposition: Imposition) -> list[str]:
    """The paper and grid of every sheet: one line per grid, naming its sheets when the
    game prints on more than one."""
    grids: list[tuple] = []  # (sheet, its page numbers); a sheet is a value, not a key
    for n, sheet in enumerate(imposition.sheets):
        found = next((numbers for s, numbers in grids if s == sheet), None)
        if found is None:
            grids.append((sheet, [n]))
        else:
            found.append(n)
    lines: list[str] = []
    plans = imposition.plans or ("",) * len(imposition.sheets)
    for sheet, numbers in grids:
        stock = _("pre-cut stock") if sheet.precut else _("cut along the crop marks")
        first, second = ("in", "mm") if sheet.unit == "in" else ("mm", "in")
        which = _(" ({sheets})", sheets=_pages(numbers, sheets=True)) if len(grids) > 1 else ""
        grid = [n for n in numbers if not plans[n]]
        if grid:
            lines.append(_("Paper{which}: {paper}, {stock}; {columns} x {rows} cards of {size} "
                           "({size_other}) per sheet.", which=which, paper=named(sheet.name),
                           stock=stock, columns=sheet.columns, rows=sheet.rows,
                           size=show_size(sheet.card, first),
                           size_other=show_size(sheet.card, second)))
        packed = [n for n in numbers if plans[n]]  # pieces of several sizes, nested tokens
        if packed:
            each = i18n.Joined("; ", [_("sheet {n}: {plan}", n=n + 1, plan=plans[n])
                                      for n in packed])
            lines.append(_("Paper{which}: {paper}, {stock} (and tokens along their outlines), "
                           "each sheet packed: {plans}.", which=which if not grid else "",
                           paper=named(sheet.name), stock=stock, plans=each))
    return lines


def _sharing(imposition: Imposition, grouped: set) -> list[tuple[list[str], list[int]]]:
    """The decks printed with each back behind its card, those sharing sheets together:
    (deck ids, their front pages) in order."""
    out: list[tuple[list[str], list[int]]] = []
    for deck, pages in imposition.decks:
        if deck in grouped:
            continue
        if out and set(pages) & set(out[-1][1]):
            out[-1][0].append(deck)
            out[-1][1].extend(p for p in pages if p not in out[-1][1])
        else:
            out.append(([deck], list(pages)))
    return out


def _count(game: Game, imposition: Imposition, printed: set) -> list[str]:
    blanks = sum(c.copies for d in game.decks if d.id in printed for c in d.cards
                 if c.blank and not c.filler)
    fillers = sum(c.copies for d in game.decks if d.id in printed for c in d.cards if c.filler)
    undefined = sum(max(0, d.slots - d.total) for d in game.decks if d.id in printed and d.slots)
    empty = imposition.fillers - undefined
    parts = [_n("Cards: {cards} on {n} sheet", "Cards: {cards} on {n} sheets",
                len(imposition.fronts), cards=imposition.cards)]
    if blanks:
        parts.append(_n(", {n} of them a blank card", ", {n} of them blank cards", blanks))
    if fillers:
        parts.append(_n(", {n} of them a filler card that only fill the sheets (not played: set "
                        "them aside; a print shop's export leaves them out)",
                        ", {n} of them filler cards that only fill the sheets (not played: set "
                        "them aside; a print shop's export leaves them out)", fillers))
    if undefined:
        parts.append(_n("; {n} slot of the decks' shape not designed yet",
                        "; {n} slots of the decks' shape not designed yet", undefined))
    if imposition.fillers > undefined:
        parts.append(_n("; {n} empty slot", "; {n} empty slots", empty))
    if imposition.fillers:
        parts.append(_(", printed blank (set them aside)"))
    return [_("Print every file at 100% (actual size, no fit-to-page)."),
            "".join(map(shown, parts)) + shown(_("."))]


def _decks(game: Game, printed: set) -> list[str]:
    """What the guide says of each deck printed: the designer's words, then how its pieces
    are cut (tokens, standees)."""
    lines: list[str] = [_("Deck '{name}': {guide}", name=d.name, guide=d.guide)
                        for d in game.decks if d.guide and d.id in printed]
    for d in game.decks:
        if d.id not in printed:
            continue
        if d.shape == "circle":
            lines.append(_("Deck '{name}': circle tokens: cut along the circle drawn around "
                           "each one (a punch of its size for circles), not the sheet's "
                           "corners; backs line up as for cards.", name=d.name))
        elif d.shape == "hex":
            lines.append(_("Deck '{name}': hex tokens: cut along the hex drawn around each one "
                           "(a punch of its size for circles), not the sheet's corners; backs "
                           "line up as for cards.", name=d.name))
        elif d.shape == "standee":
            lines.append(_("Deck '{name}': standees: their back pages are blank, print their "
                           "fronts single-sided; cut along the solid lines, fold along the dashed "
                           "ones (the figure folds back to back, the tabs outwards to stand it).",
                           name=d.name))
    return lines


def _setup(printer: Printer | None, start_slot: int) -> list[str]:
    lines: list[str] = []
    if start_slot:
        lines.append(_("The first sheet starts at slot {first} (slots 1-{used} were already "
                       "used).", first=start_slot + 1, used=start_slot))
    if printer:
        name, (dx, dy) = printer.name, printer.offset
        lines.append(_("Backs are shifted for printer '{name}': x {x_mm:+g} mm ({x_in:+.3f} in), "
                       "y {y_mm:+g} mm ({y_in:+.3f} in).", name=name, x_mm=to_mm(dx),
                       x_in=dx / 72, y_mm=to_mm(dy), y_in=dy / 72))
    return lines


def _steps(imposition: Imposition, files: dict) -> list[str]:
    """Fronts, then backs: the whole backs file, or deck by deck as many times as it says."""
    duplex = imposition.sheets[0].duplex if imposition.sheets else "long-edge"
    lines = [
        "",
        _("1. Fronts: print {file} ({pages}), once each.", file=files["fronts"],
          pages=_pages(range(len(imposition.fronts)))),
        "",
    ]
    parts: list[str] = []  # option b: deck by deck
    shared: list[str] = []  # sheets that decks share (said with the one way too)
    grouped = {g.deck for g in imposition.groups}
    alone = {tuple(decks)[0]: (decks, pages) for decks, pages in _sharing(imposition, grouped)}
    for deck, pages in imposition.decks:
        if deck in alone:  # every card its own back: those pages of the backs file
            decks, on_pages = alone[deck]
            whose = _("deck '{deck}': each card has its own back", deck=deck) \
                if len(decks) == 1 else \
                _("decks {decks} share these sheets: each back behind its card",
                  decks=Listed([_("'{text}'", text=d) for d in decks], "and"))
            parts.append(_("      - {file} {pages}: on the reverse of fronts {pages} ({whose})",
                           file=files["backs"], pages=_pages(on_pages), whose=whose))
            if len(decks) > 1:
                shared.append(_("   {pages}: {whose}", pages=_pages(on_pages), whose=whose))
            continue
        for group in (g for g in imposition.groups if g.deck == deck):
            times = len(group.sheets)
            parts.append(_("      - {file}: print {times}, on the reverse of fronts {pages} "
                           "({cards}, deck '{deck}')", file=files["group:" + group.name],
                           times=_n("{n} time", "{n} times", times), pages=_pages(group.sheets),
                           cards=_n("{n} card", "{n} cards", group.cards), deck=group.deck))
    if imposition.groups:  # a back file of its own for some deck: two ways to print
        lines += [_("2. Backs: put the printed sheets back in the tray, turned over as your "
                    "printer needs for {duplex} duplex, and print either",
                    duplex=duplex_words(duplex)),
                  _("   a. {file}: back page k on the reverse of front page k, or",
                    file=files["backs"]),
                  _("   b. deck by deck, one back file per back design, as many times as it "
                    "says:"), *parts]
    else:  # (deck by deck would be the backs file again, in parts: one way)
        lines.append(_("2. Backs: put the printed sheets back in the tray, turned over as your "
                       "printer needs for {duplex} duplex, and print {file} ({pages}): back "
                       "page k on the reverse of front page k.", duplex=duplex_words(duplex),
                       file=files["backs"], pages=_pages(range(len(imposition.fronts)))))
        lines += shared
    if "cards" in files:
        lines += ["", _("Single cards with bleed, for print-on-demand services: {file} (each "
                        "card's front, then its back).", file=files["cards"])]
    return lines


def print_guide(game: Game, imposition: Imposition, files: dict, printer: Printer | None,
                start_slot: int, errata: tuple[str, ...] = ()) -> str:
    """`files`: role -> file name ("fronts", "backs", "group:<name>", "cards"); `errata`:
    the changes an errata set stands for, in words, listed first."""
    with i18n.speaking(game=game.declared_lang):  # in the game's language, or the user's
        return "\n".join(map(shown, _guide(game, imposition, files, printer, start_slot,
                                            errata)))


def _guide(game: Game, imposition: Imposition, files: dict, printer: Printer | None,
           start_slot: int, errata: tuple[str, ...]) -> list:
    title = game.display_title
    lines = [_("{title}: errata print guide", title=title) if errata else
             _("{title}: print guide", title=title), "=" * 40, ""]
    if errata:
        lines += [*errata, ""]
    if not imposition.fronts:
        removed = any(" remove " in line for line in errata)
        pages = any(line.lstrip("  -").startswith(("rulebook", "board")) for line in errata)
        if not errata:
            return lines + [_("Nothing to print yet: every deck is empty (a draft)."), ""]
        nothing = [_("No cards to print")]
        if removed:
            nothing.append(_(": take out the cards listed above"))
        if pages:
            nothing.append(_("; the rulebook and board pages above are files of their own "
                             "(errata-*)"))
        return lines + ["".join(map(shown, nothing)) + shown(_(".")), ""]
    printed = {deck for deck, _pages in imposition.decks}
    return lines + _paper(imposition) + _count(game, imposition, printed) + \
        _decks(game, printed) + _setup(printer, start_slot) + _steps(imposition, files) + [""]
