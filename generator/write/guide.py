"""The print guide: which file to print, on what, how many times, in what order."""

from __future__ import annotations

from ..impose import Imposition
from ..model import Game
from ..units import show_size, to_mm
from ..problems import agreeing, counted


def _pages(numbers) -> str:
    numbers = [n + 1 for n in numbers]
    if len(numbers) == 1:
        return f"page {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"pages {numbers[0]}-{numbers[-1]}"
    return "pages " + ", ".join(map(str, numbers))


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
    lines = []
    plans = imposition.plans or ("",) * len(imposition.sheets)
    for sheet, numbers in grids:
        stock = "pre-cut stock" if sheet.precut else "cut along the crop marks"
        first, second = ("in", "mm") if sheet.unit == "in" else ("mm", "in")
        which = f" ({_pages(numbers).replace('page', 'sheet')})" if len(grids) > 1 else ""
        grid = [n for n in numbers if not plans[n]]
        if grid:
            lines.append(f"Paper{which}: {sheet.name}, {stock}; {sheet.columns} x {sheet.rows} "
                         f"cards of {show_size(sheet.card, first)} ({show_size(sheet.card, second)})"
                         " per sheet.")
        packed = [n for n in numbers if plans[n]]  # pieces of several sizes, nested tokens
        if packed:
            lines.append(f"Paper{which if not grid else ''}: {sheet.name}, {stock} (and tokens "
                         "along their outlines), each sheet packed: " +
                         "; ".join(f"sheet {n + 1}: {plans[n]}" for n in packed) + ".")
    return lines


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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
    return [
        "Print every file at 100% (actual size, no fit-to-page).",
        f"Cards: {imposition.cards} on {counted(len(imposition.fronts), 'sheet')}"
        + (f", {blanks} of them {agreeing(blanks, 'a blank card', 'blank cards')}" if blanks else "")
        + (f", {fillers} of them {agreeing(fillers, 'a filler card', 'filler cards')} that only "
           "fill the sheets (not played: set them aside; a print shop's export leaves them out)"
           if fillers else "")
        + (f"; {counted(undefined, 'slot')} of the decks' shape not designed yet" if undefined else "")
        + (f"; {counted(imposition.fillers - undefined, 'empty slot')}"
           if imposition.fillers > undefined else "")
        + (", printed blank (set them aside)" if imposition.fillers else "")
        + ".",
    ]


def _decks(game: Game, printed: set) -> list[str]:
    """What the guide says of each deck printed: the designer's words, then how its pieces
    are cut (tokens, standees)."""
    lines = [f"Deck '{d.name}': {d.guide}" for d in game.decks if d.guide and d.id in printed]
    for d in game.decks:
        if d.id not in printed:
            continue
        if d.shape in ("circle", "hex"):
            lines.append(f"Deck '{d.name}': {d.shape} tokens: cut along the {d.shape} drawn "
                         "around each one (a punch of its size for circles), not the sheet's "
                         "corners; backs line up as for cards.")
        elif d.shape == "standee":
            lines.append(f"Deck '{d.name}': standees: their back pages are blank, print their "
                         "fronts single-sided; cut along the solid lines, fold along the dashed "
                         "ones (the figure folds back to back, the tabs outwards to stand it).")
    return lines


def _setup(printer: tuple | None, start_slot: int) -> list[str]:
    lines = []
    if start_slot:
        lines.append(f"The first sheet starts at slot {start_slot + 1} (slots 1-{start_slot} were "
                     "already used).")
    if printer:
        name, (dx, dy) = printer.name, printer.offset
        lines.append(f"Backs are shifted for printer '{name}': x {to_mm(dx):+g} mm "
                     f"({dx / 72:+.3f} in), y {to_mm(dy):+g} mm ({dy / 72:+.3f} in).")
    return lines


def _steps(imposition: Imposition, files: dict) -> list[str]:
    """Fronts, then backs: the whole backs file, or deck by deck as many times as it says."""
    duplex = imposition.sheets[0].duplex if imposition.sheets else "long-edge"
    lines = [
        "",
        f"1. Fronts: print {files['fronts']} ({_pages(range(len(imposition.fronts)))}), once each.",
        "",
        f"2. Backs: put the printed sheets back in the tray, turned over as your printer needs "
        f"for {duplex} duplex, and print either",
        f"   a. {files['backs']}: back page k on the reverse of front page k, or",
        "   b. deck by deck, one back file per back design, as many times as it says:",
    ]
    grouped = {g.deck for g in imposition.groups}
    alone = {tuple(decks)[0]: (decks, pages) for decks, pages in _sharing(imposition, grouped)}
    for deck, pages in imposition.decks:
        if deck in alone:  # every card its own back: those pages of the backs file
            decks, pages = alone[deck]
            whose = f"deck '{deck}': each card has its own back" if len(decks) == 1 else \
                f"decks {_listed([repr(d) for d in decks])} share these sheets: each back " \
                "behind its card"
            lines.append(f"      - {files['backs']} {_pages(pages)}: on the reverse of fronts "
                         f"{_pages(pages)} ({whose})")
            continue
        for group in (g for g in imposition.groups if g.deck == deck):
            times = len(group.sheets)
            lines.append(f"      - {files['group:' + group.name]}: print {counted(times, 'time')}, "
                         f"on the reverse of fronts {_pages(group.sheets)} "
                         f"({counted(group.cards, 'card')}, deck '{group.deck}')")
    if "cards" in files:
        lines += ["", f"Single cards with bleed, for print-on-demand services: {files['cards']} "
                      "(each card's front, then its back)."]
    return lines


def print_guide(game: Game, imposition: Imposition, files: dict, printer: tuple | None,
                start_slot: int, errata: tuple[str, ...] = ()) -> str:
    """`files`: role -> file name ("fronts", "backs", "group:<name>", "cards"); `errata`:
    the changes an errata set stands for, in words, listed first."""
    title = game.display_title
    lines = [f"{title}: {'errata ' if errata else ''}print guide", "=" * 40, ""]
    if errata:
        lines += [*errata, ""]
    if not imposition.fronts:
        removed = any(" remove " in line for line in errata)
        pages = any(line.lstrip("  -").startswith(("rulebook", "board")) for line in errata)
        nothing = ("No cards to print" + (": take out the cards listed above" if removed else "")
                   + ("; the rulebook and board pages above are files of their own (errata-*)"
                      if pages else "") + ".") if errata else \
            "Nothing to print yet: every deck is empty (a draft)."
        return "\n".join(lines + [nothing, ""])
    printed = {deck for deck, _ in imposition.decks}
    lines += _paper(imposition) + _count(game, imposition, printed) + _decks(game, printed) + \
        _setup(printer, start_slot) + _steps(imposition, files) + [""]
    return "\n".join(lines)
