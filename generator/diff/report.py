"""What a diff says: in words for the terminal (format_diff), as JSON (as_json), and as
an errata set's guide and copies (errata_lines, errata_copies)."""

from __future__ import annotations

from .printed import BookChanges
from . import GameDiff, _name, _show
from ..problems import agreeing, counted


def format_diff(game_id: str, diff: GameDiff) -> list[str]:
    if diff.empty:
        return [f"{game_id}: no changes"]
    fronts = sum(1 for r in diff.reprinted if "front" in r.sides)
    backs = sum(1 for r in diff.reprinted if "back" in r.sides)
    lines = [f"{game_id}: {len(diff.added)} added, {len(diff.removed)} removed, "
             f"{len(diff.reprinted)} reprinted ({counted(fronts, 'front')}, "
             f"{counted(backs, 'back')}), {len(diff.copies)} with other copies; "
             f"{counted(len(diff.unprinted), 'change')} "
             f"{agreeing(len(diff.unprinted), 'prints', 'print')} nothing"]
    lines += [f"+ card '{c.id}' ({c.deck}) {_show(c.fields.get('name', ''))} ×{c.copies}".rstrip()
              for c in diff.added]
    lines += [f"- card '{c.id}' ({c.deck}) {_show(c.fields.get('name', ''))} ×{c.copies}".rstrip()
              for c in diff.removed]
    for r in diff.reprinted:
        lines.append(f"~ card '{r.new.id}' ({r.new.deck}): reprint {' and '.join(r.sides)}")
        lines += [f"    {cause}" for cause in r.causes]
    lines += [f"= card '{new.id}' ({new.deck}): copies {old.copies} -> {new.copies}, print unchanged"
              for old, new in diff.copies]
    if diff.unprinted:
        lines.append("changes that print nothing:")
        lines += [f"    {line}" for line in diff.unprinted]
    lines += _rulebook_lines(diff.rulebook)
    for b in diff.boards:
        lines.append(f"~ board '{b.board}': {_pages_words(b.pages, b.pages_after)} "
                     f"{agreeing(len(b.pages), 'prints', 'print')} differently"
                     + (f" ({b.pages_before} -> {b.pages_after} pages)"
                        if b.pages_before != b.pages_after else ""))
        lines += [f"    {cause}" for cause in b.causes]
    if diff.statistics:
        lines.append("statistics:")
        lines += [f"    {line}" for line in diff.statistics]
    return lines


def _pages_words(pages: list[int], total: int) -> str:
    if not pages:
        return "no page"
    shown = ", ".join(map(str, pages))
    return f"{agreeing(len(pages), 'page', 'pages')} {shown} of {total}"


def _rulebook_lines(book: BookChanges | None) -> list[str]:
    if book is None:
        return []
    lines = [f"~ rulebook: {book.pages_before} -> {book.pages_after} pages"
             if book.pages_before != book.pages_after else
             f"~ rulebook: {book.pages_after} pages"]
    for how in ("changed", "added", "reflowed", "moved", "removed"):
        pages = [c for c in book.pages if c.how == how]
        if not pages:
            continue
        if how == "moved":
            shown = ", ".join(f"{c.was} -> {c.page}" for c in pages)
        else:
            shown = ", ".join(str(c.page if c.page is not None else c.was) for c in pages)
        words = {"changed": "content changed", "added": "new", "reflowed":
                 "reflowed (their text was there before)", "moved": "moved, unchanged",
                 "removed": "removed"}[how]
        lines.append(f"    {agreeing(len(pages), 'page', 'pages')} {shown}: {words}")
    if book.sheets:
        lines.append(f"    booklet {agreeing(len(book.sheets), 'sheet', 'sheets')} to reprint: "
                     f"{', '.join(map(str, book.sheets))}")
    lines += [f"    {line}" for line in book.text + book.data]
    return lines


def as_json(game_id: str, diff: GameDiff) -> dict:
    card = lambda c: {"id": c.id, "deck": c.deck, "name": c.fields.get("name"),  # noqa: E731
                      "copies": c.copies}
    return {"game": game_id,
            "added": [card(c) for c in diff.added],
            "removed": [card(c) for c in diff.removed],
            "reprinted": [{**card(r.new), "sides": list(r.sides), "causes": r.causes,
                           "copies_before": r.old.copies} for r in diff.reprinted],
            "copies": [{**card(new), "copies_before": old.copies} for old, new in diff.copies],
            "prints_nothing": diff.unprinted,
            "statistics": diff.statistics,
            "rulebook": None if diff.rulebook is None else {
                "pages_before": diff.rulebook.pages_before,
                "pages_after": diff.rulebook.pages_after,
                "pages": [{"how": c.how, "page": c.page, "was": c.was}
                          for c in diff.rulebook.pages],
                "reprint": diff.rulebook.reprint, "booklet_sheets": diff.rulebook.sheets,
                "text": diff.rulebook.text, "data": diff.rulebook.data},
            "boards": [{"board": b.board, "pages": b.pages, "pages_before": b.pages_before,
                        "pages_after": b.pages_after, "causes": b.causes}
                       for b in diff.boards]}


def errata_lines(diff: GameDiff, revision: str) -> list[str]:
    """The errata guide's list of changes, in words: what to print, replace and remove."""
    lines = [f"Changes since {revision}:"]
    for c in diff.added:
        lines.append(f"  - print {c.copies} × {_name(c)}: a new card")
    for r in diff.reprinted:
        was = f" (was {r.old.copies})" if r.old.copies != r.new.copies else ""
        lines.append(f"  - replace all {r.new.copies} × {_name(r.new)}{was}: "
                     f"the {' and '.join(r.sides)} changed ({'; '.join(r.causes)})")
    for old, new in diff.copies:
        n = new.copies - old.copies
        lines.append(f"  - print {n} more × {_name(new)} (copies {old.copies} -> {new.copies}; the "
                     "print is unchanged)" if n > 0 else
                     f"  - remove {-n} × {_name(new)} (copies {old.copies} -> {new.copies})")
    for c in diff.removed:
        lines.append(f"  - remove all {c.copies} × {_name(c)}: the card was removed")
    book = diff.rulebook
    if book is not None and book.pages:
        pages = book.reprint
        if pages:
            lines.append(f"  - rulebook: print {agreeing(len(pages), 'page', 'pages')} "
                         f"{', '.join(map(str, pages))} of {book.pages_after} again (their "
                         "content changed): the errata rulebook pages")
        others = [c.page for c in book.pages if c.how in ("moved", "reflowed")]
        if others:
            lines.append(f"  - rulebook: {agreeing(len(others), 'page', 'pages')} "
                         f"{', '.join(map(str, others))} only moved (their text was there "
                         "before); reprint them too where pages are replaced one by one")
        if book.sheets:
            lines.append(f"  - rulebook booklet: reprint {agreeing(len(book.sheets), 'sheet', 'sheets')} "
                         f"{', '.join(map(str, book.sheets))} (the errata booklet sheets, "
                         "duplex, short edge), and put each back in its place in the fold")
    for b in diff.boards:
        if b.pages:
            lines.append(f"  - board '{b.board}': print {agreeing(len(b.pages), 'page', 'pages')} "
                         f"{', '.join(map(str, b.pages))} of {b.pages_after} again "
                         f"({'; '.join(b.causes)})")
    if diff.unprinted:
        lines.append(f"  ({counted(len(diff.unprinted), 'other change')} "
                     f"{agreeing(len(diff.unprinted), 'prints', 'print')} nothing: "
                     "`cardgen diff` lists them)")
    return lines


def errata_copies(diff: GameDiff) -> dict[str, int]:
    """How many of each card an errata set prints: every copy of a new or reprinted card,
    and the extra copies of a card whose print did not change."""
    out = {c.id: c.copies for c in diff.added}
    out.update({r.new.id: r.new.copies for r in diff.reprinted})
    out.update({new.id: new.copies - old.copies for old, new in diff.copies
                if new.copies > old.copies})
    return out
