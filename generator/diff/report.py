"""What a diff says: in words for the terminal (format_diff), as JSON (as_json), and as
an errata set's guide and copies (errata_lines, errata_copies)."""

from __future__ import annotations

from .marks import best, plain
from .printed import BookChanges, is_table
from .result import PAGE_WORDS, SIDE_WORDS, GameDiff, _name, _show
from ..i18n import Joined, Listed, _, _n, shown


def _sides(sides):
    """"front", "back", "front and back"."""
    words = [SIDE_WORDS.get(s, s) for s in sides]
    return words[0] if len(words) == 1 else _("{first} and {second}", first=words[0],
                                              second=words[1])



def format_diff(game_id: str, diff: GameDiff) -> list[str]:
    if diff.empty:
        return [shown(_("{game}: no changes", game=game_id))]
    fronts = sum(1 for r in diff.reprinted if "front" in r.sides)
    backs = sum(1 for r in diff.reprinted if "back" in r.sides)
    lines: list[str]  # (Messages, shown in the language at the end)
    lines = [_("{game}: {added} added, {removed} removed, {reprinted} reprinted ({fronts}, "
               "{backs}), {copies} with other copies; {unprinted} nothing", game=game_id,
               added=len(diff.added), removed=len(diff.removed), reprinted=len(diff.reprinted),
               fronts=_n("{n} front", "{n} fronts", fronts),
               backs=_n("{n} back", "{n} backs", backs), copies=len(diff.copies),
               unprinted=_n("{n} change prints", "{n} changes print", len(diff.unprinted)))]
    lines += [_("+ card '{card}' ({deck}) {name} ×{copies}", card=c.id, deck=c.deck,
                name=_show(c.fields.get("name", "")), copies=c.copies) for c in diff.added]
    lines += [_("- card '{card}' ({deck}) {name} ×{copies}", card=c.id, deck=c.deck,
                name=_show(c.fields.get("name", "")), copies=c.copies) for c in diff.removed]
    for r in diff.reprinted:  # (copies changed, the face not printing them: said beside)
        lines.append(_("~ card '{card}' ({deck}): reprint {sides}; copies {before} -> {after}",
                       card=r.new.id, deck=r.new.deck, sides=_sides(r.sides),
                       before=r.old.copies, after=r.new.copies)
                     if r.old.copies != r.new.copies and not any(
                         kind == "copies" for kind, *_rest in r.printed) else
                     _("~ card '{card}' ({deck}): reprint {sides}", card=r.new.id,
                       deck=r.new.deck, sides=_sides(r.sides)))
        lines += ["    " + shown(cause) for cause in r.causes]
    lines += [_("= card '{card}' ({deck}): copies {before} -> {after}, print unchanged",
                card=new.id, deck=new.deck, before=old.copies, after=new.copies)
              for old, new in diff.copies]
    if diff.unprinted:
        lines.append(_("changes that print nothing:"))
        lines += ["    " + shown(line) for line in diff.unprinted]
    lines += _rulebook_lines(diff.rulebook)
    for b in diff.boards:
        more = _(" ({before} -> {after} pages)", before=b.pages_before, after=b.pages_after) \
            if b.pages_before != b.pages_after else ""
        lines.append(_n("~ board '{board}': {pages} prints differently{more}",
                        "~ board '{board}': {pages} print differently{more}", len(b.pages),
                        board=b.board, pages=_pages_words(b.pages, b.pages_after), more=more))
        lines += ["    " + shown(cause) for cause in b.causes]
    if diff.statistics:
        lines.append(_("statistics:"))
        lines += [Joined("", ["    ", line]) for line in diff.statistics]
    return [shown(line).rstrip() for line in lines]


def _pages_words(pages: list[int], total: int) -> str:
    if not pages:
        return _("no page")
    return _n("page {pages} of {total}", "pages {pages} of {total}", len(pages),
              pages=Listed(map(str, pages), None), total=total)


def _rulebook_lines(book: BookChanges | None) -> list[str]:
    if book is None:
        return []
    lines: list[str] = [
        _("~ rulebook: {before} -> {after} pages", before=book.pages_before,
          after=book.pages_after) if book.pages_before != book.pages_after else
        _("~ rulebook: {after} pages", after=book.pages_after)]
    for how in ("changed", "added", "redrawn", "reflowed", "moved", "removed"):
        pages = [c for c in book.pages if c.how == how]
        if not pages:
            continue
        if how == "moved":
            listed = Listed((f"{c.was} -> {c.page}" for c in pages), None)
        else:
            listed = Listed((str(c.page if c.page is not None else c.was) for c in pages), None)
        lines.append(_n("    page {pages}: {how}", "    pages {pages}: {how}", len(pages),
                        pages=listed, how=PAGE_WORDS[how]))
    if book.sheets:
        lines.append(_n("    booklet sheet to reprint: {sheets}",
                        "    booklet sheets to reprint: {sheets}", len(book.sheets),
                        sheets=Listed(map(str, book.sheets), None)))
    lines += [Joined("", ["    ", line]) for line in book.text + book.data]
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
                "text": diff.rulebook.text, "data": diff.rulebook.data,
                "rules": [_rule_json(c) for c in diff.rulebook.rules]},
            "boards": [{"board": b.board, "pages": b.pages, "pages_before": b.pages_before,
                        "pages_after": b.pages_after, "causes": b.causes}
                       for b in diff.boards]}


def _rule_json(c) -> dict:
    """A change of the rules' text for scripts: its section's path, how it changed, the
    paragraph before and after, and a changed paragraph's words as runs ("=" kept, "-"
    taken out, "+" put in: marks.py's rule, unabridged)."""
    out = {"how": c.how, "section": list(c.path), "page": c.page,
           "was": None if c.was is None else list(c.was), "old": c.old, "new": c.new}
    if c.how == "~" and not (is_table(c.old) and is_table(c.new)):
        change = best(plain(c.old or ""), plain(c.new or ""))
        out["change"] = None if change is None else [list(run) for run in change]
    return out


def errata_lines(diff: GameDiff, revision: str) -> list:
    """The errata guide's list of changes, in words: what to print, replace and remove."""
    lines = [_("Changes since {revision}:", revision=revision)]
    for c in diff.added:
        lines.append(_("  - print {copies} × {card}: a new card", copies=c.copies, card=_name(c)))
    for r in diff.reprinted:
        was = _(" (was {n})", n=r.old.copies) if r.old.copies != r.new.copies else ""
        lines.append(_("  - replace all {copies} × {card}{was}: the {sides} changed ({causes})",
                       copies=r.new.copies, card=_name(r.new), was=was, sides=_sides(r.sides),
                       causes=Joined("; ", r.causes)))
    for old, new in diff.copies:
        n = new.copies - old.copies
        lines.append(_("  - print {n} more × {card} (copies {before} -> {after}; the print is "
                       "unchanged)", n=n, card=_name(new), before=old.copies, after=new.copies)
                     if n > 0 else
                     _("  - remove {n} × {card} (copies {before} -> {after})", n=-n,
                       card=_name(new), before=old.copies, after=new.copies))
    for c in diff.removed:
        lines.append(_("  - remove all {copies} × {card}: the card was removed", copies=c.copies,
                       card=_name(c)))
    book = diff.rulebook
    if book is not None and book.pages:
        pages = book.reprint
        if pages:
            lines.append(_n("  - rulebook: print page {pages} of {total} again (their content "
                            "changed): the errata rulebook pages",
                            "  - rulebook: print pages {pages} of {total} again (their content "
                            "changed): the errata rulebook pages", len(pages),
                            pages=Listed(map(str, pages), None), total=book.pages_after))
        others = [c.page for c in book.pages if c.how in ("moved", "reflowed")]
        if others:
            lines.append(_n("  - rulebook: page {pages} only moved (their text was there before); "
                            "reprint them too where pages are replaced one by one",
                            "  - rulebook: pages {pages} only moved (their text was there "
                            "before); reprint them too where pages are replaced one by one",
                            len(others), pages=Listed(map(str, others), None)))
        if book.sheets:
            lines.append(_n("  - rulebook booklet: reprint sheet {sheets} (the errata booklet "
                            "sheets, duplex, short edge), and put each back in its place in the "
                            "fold", "  - rulebook booklet: reprint sheets {sheets} (the errata "
                            "booklet sheets, duplex, short edge), and put each back in its place "
                            "in the fold", len(book.sheets),
                            sheets=Listed(map(str, book.sheets), None)))
    for b in diff.boards:
        if b.pages:
            lines.append(_n("  - board '{board}': print page {pages} of {total} again ({causes})",
                            "  - board '{board}': print pages {pages} of {total} again "
                            "({causes})", len(b.pages), board=b.board,
                            pages=Listed(map(str, b.pages), None), total=b.pages_after,
                            causes=Joined("; ", b.causes)))
    if diff.unprinted:
        lines.append(_n("  ({n} other change prints nothing: `cardgen diff` lists them)",
                        "  ({n} other changes print nothing: `cardgen diff` lists them)",
                        len(diff.unprinted)))
    return lines


def errata_copies(diff: GameDiff) -> dict[str, int]:
    """How many of each card an errata set prints: every copy of a new or reprinted card,
    and the extra copies of a card whose print did not change."""
    out = {c.id: c.copies for c in diff.added}
    out.update({r.new.id: r.new.copies for r in diff.reprinted})
    out.update({new.id: new.copies - old.copies for old, new in diff.copies
                if new.copies > old.copies})
    return out
