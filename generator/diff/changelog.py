"""A changelog for players: `cardgen diff --format markdown`.

What a designer posts for playtesters after a revision, in the game's language (`lang:`,
or the language its title is written in): card errata with the text before and after, the
rules' changes by section path (a table's as the rows and cells that changed), and
components added or removed, each change once; what prints nowhere, where it is all
that changed. What changed is marked as a reader sees it:
the words taken out struck through, the words put in bold (Japanese character by
character); the data's own text is escaped, so the page is valid Markdown whatever it says.
No file names, no page identities.
"""

from __future__ import annotations

import re

from ..i18n import LANGS, N_, Message
from ..model import Card, Game
from .marks import KEEP, as_markdown, best, escaped as _md, plain
from .printed import PATH_SEP, is_table, table_changes, table_rows

# The changelog's words, marked for the catalogue (generator/locale): each is a template that
# the changelog fills in the game's language (`_words`).
WORDS = {
    "title": N_("# {title}: changes since {rev}"),
    "cards": N_("## Cards"),
    "rules": N_("## Rules"),
    "components": N_("## Components"),
    "new card": N_("New card: {name} ×{copies}"),
    "removed card": N_("Removed: {name}"),
    "field": N_("{name}: {field} “{change}”"),
    "value": N_("{name}: {field} {old} → {new}"),
    "words": N_("{name}: {field} “{old}” → “{new}”"),
    "copies": N_("{name}: {new} copies (was {old})"),
    "new section": N_("New section: {heading}"),
    "removed section": N_("Removed section: {heading}"),
    "changed": N_("{heading}: “{change}”"),
    "was": N_("{heading}: was “{old}”; now “{new}”"),
    "added": N_("{heading}: added “{new}”"),
    "cell": N_("{heading}: {row}, {column}: {old} → {new}"),
    "cell text": N_("{heading}: {row}, {column}: “{change}”"),
    "new row": N_("{heading}: new row “{new}”"),
    "removed row": N_("{heading}: row removed “{old}”"),
    "header": N_("{heading}: the table's columns “{change}”"),
    "moved": N_("Moved: {was} → {heading}"),
    "reordered": N_("Moved: {heading}, now before {next}"),
    "to the end": N_("Moved: {heading}, now at the end"),
    "removed": N_("{heading}: removed “{old}”"),
    "opening": N_("Introduction"),
    "board": N_("Board “{board}”: {what}"),
    "new board": N_("New board: {board}"),
    "removed board": N_("Removed board: {board}"),
    "none": N_("No changes."),
    "unprinted": N_("## Changed, printed nowhere"),
    "empty": N_("(none)"),
    "space": N_("space {cell}: {key} {old} → {new}"),
    "section text": N_("“{new}”"),
    "at page": N_("{text} (p. {page})"),
}


def _words(lang: str) -> dict[str, str]:
    """The changelog's words in `lang`: each template as the catalogue translates it."""
    return {key: word.shown(lang) for key, word in WORDS.items()}


def _at(text: str, page: int | None, w: dict) -> str:
    """A change with the page it is on ('Scoring: … (p. 3)'), where it has one."""
    return w["at page"].format(text=text, page=page) if page else text


def language(game: Game) -> str:
    """The game's language: `lang:`, or Japanese when its title has kana or kanji."""
    if game.declared_lang in LANGS:
        return game.declared_lang
    return "ja" if any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"
                       for ch in game.title) else "en"


def _name(card: Card) -> str:
    name = card.fields.get("name")
    return _md(name if isinstance(name, str) and name else card.id)


def _text(value, words: dict, markdown: bool = True) -> str:
    """A value as players read it, as Markdown; "(none)" for nothing. `markdown`: the
    value is the rulebook's Markdown (its emphasis is not a word of it); else a card's or
    the data's own text, every character of which it prints."""
    text = plain(value, markdown)
    return _md(text) if text else words["empty"]


def _marked(old, new, markdown: bool = True, keep: int | None = None) -> str | None:
    """The new text with the change marked as Markdown (marks.best and marks.markdown);
    None where Markdown would not read the marks (then the text is said before and
    after). `markdown` as for `_text`; with `keep`, a long text is abridged around its
    changes."""
    change = best(plain(old, markdown), plain(new, markdown), keep)
    return None if change is None else as_markdown(change)


def _change(old, new, words: dict, markdown: bool = True) -> dict:
    """The words a change is said with: `change` marked, or `old` and `new`."""
    return {"change": _marked(old, new, markdown), "old": _text(old, words, markdown),
            "new": _text(new, words, markdown)}


def _short(value) -> bool:
    """A value said as "old → new": a number, or a word or two (not a sentence)."""
    return not isinstance(value, str) or (
        len(value) <= 20 and len(value.split()) <= 2 and not re.search(r"[.!?。．！？、，]", value))


def _board_items(board, w: dict, lang: str) -> list[str]:
    """A board's changes as players read them: 'B2: type plain → water' (its colour, which
    the type gives, is not said again), then what its cells do not say, in `lang`."""
    typed = {label for label, key, _, _ in board.cells if key == "type"}
    out = [w["space"].format(cell=_md(str(label)), key=_md(str(key)),
                             old=_text(old, w, False), new=_text(new, w, False))
           for label, key, old, new in board.cells if not (key == "color" and label in typed)]
    return out + _said(board.other, lang)


def _said(changes: list, lang: str) -> list[str]:
    """Changes the diff says in its own words (what a board's cells do not say, what prints
    nowhere), in `lang`, as Markdown."""
    said = [o.shown(lang) if isinstance(o, Message) else str(o) for o in changes]
    return [_md(o.replace(" -> ", " → ")) for o in said]


def _field(w: dict, name: str, field: str, old, new) -> str:
    """A card's field changed: a number or a short value as "old → new", a text with its
    change marked."""
    said = _change(old, new, w, markdown=False)
    if _short(old) and _short(new) or said["change"] is None:
        how = "words" if isinstance(old, str) and isinstance(new, str) else "value"
        return w[how].format(name=name, field=_md(field), old=said["old"], new=said["new"])
    return w["field"].format(name=name, field=_md(field), change=said["change"])


def _card_items(diff, w: dict) -> list[str]:
    """The cards' changes: new cards, each changed field, copies, removed cards."""
    cards = [w["new card"].format(name=_name(c), copies=c.copies) for c in diff.added]
    for r in diff.reprinted:  # the values its faces print that changed
        old, new = r.old.fields, r.new.fields
        shown = {path.split(".")[0].split("[")[0] for kind, path, _a, _b in r.printed
                 if kind == "field"}
        for key in [k for k in new if old.get(k) != new.get(k)] + \
                [k for k in old if k not in new]:
            if key in shown:
                cards.append(_field(w, _name(r.new), key, old.get(key), new.get(key)))
        cards += [_field(w, _name(r.new), path, a, b) for kind, path, a, b in r.printed
                  if kind == "data"]
        if r.old.copies != r.new.copies:
            cards.append(w["copies"].format(name=_name(r.new), old=r.old.copies, new=r.new.copies))
    cards += [w["copies"].format(name=_name(new), old=old.copies, new=new.copies)
              for old, new in diff.copies]
    cards += [w["removed card"].format(name=_name(c)) for c in diff.removed]
    return cards


def _path(path, w: dict) -> str:
    return PATH_SEP.join(_md(h) for h in path) if path else w["opening"]


def _table_items(heading: str, old: str, new: str, w: dict) -> list[str]:
    """A table's changes as its rows and cells: "3 players, Cards: 12 → 13"."""
    out = []
    for t in table_changes(old, new):
        if t.how == "+":
            out.append(w["new row"].format(heading=heading, new=_text(t.new, w)))
        elif t.how == "-":
            out.append(w["removed row"].format(heading=heading, old=_text(t.old, w)))
        elif t.column is None:
            out.append(w["header"].format(heading=heading, change=_marked(t.old, t.new)
                                          or f"{_text(t.old, w)} → {_text(t.new, w)}"))
        else:
            said = _change(t.old, t.new, w)
            words = dict(heading=heading, row=_text(t.row, w), column=_text(t.column, w))
            out.append(w["cell"].format(**words, old=said["old"], new=said["new"])
                       if _short(t.old) and _short(t.new) or said["change"] is None else
                       w["cell text"].format(**words, change=said["change"]))
    return out


def _paragraph(paragraph: str, w: dict) -> list[str]:
    """A new section's paragraph as players read it; a table as its rows."""
    if is_table(paragraph):
        return [w["section text"].format(new=_text(" · ".join(row), w))
                for row in table_rows(paragraph)]
    return [w["section text"].format(new=_text(paragraph, w))]


def _rule_items(diff, w: dict) -> list[str]:
    """The rulebook's changes by section path, with their pages; a new section's text
    under it."""
    rules = []
    new_sections = dict(diff.rulebook.sections) if diff.rulebook else {}
    for c in (diff.rulebook.rules if diff.rulebook else []):
        heading = _path(c.path, w)
        if c.how == ">":
            rules.append(_at(w["moved"].format(was=_path(c.was, w), heading=heading)
                             if c.was != c.path else w["reordered"].format(
                                 heading=heading, next=_path(c.before, w)) if c.before else
                             w["to the end"].format(heading=heading), c.page, w))
        elif c.old is None and c.new is None:
            rules.append(_at(w["new section" if c.how == "+" else "removed section"].format(
                heading=heading), c.page if c.how == "+" else None, w))
            if c.how == "+":  # what it says
                rules += [f"  {line}" for p in new_sections.get(c.path, [])
                          for line in _paragraph(p, w)]
        elif c.how == "~" and is_table(c.old) and is_table(c.new):
            rules += [_at(item, c.page, w) for item in _table_items(heading, c.old, c.new, w)]
        elif c.how == "~":
            change = _marked(c.old, c.new, keep=KEEP)
            rules.append(_at(w["changed"].format(heading=heading, change=change) if change else
                             w["was"].format(heading=heading, old=_text(c.old, w),
                                             new=_text(c.new, w)), c.page, w))
        elif c.how == "+":
            rules.append(_at(w["added"].format(heading=heading, new=_text(c.new, w)), c.page, w))
        else:
            rules.append(w["removed"].format(heading=heading, old=_text(c.old, w)))
    return rules


def _component_items(game: Game, diff, w: dict) -> list[str]:
    """The boards' changes: new and removed boards, and what changed on the others."""
    components = []
    titles = {b.id: b.name for b in game.boards}
    for b in diff.boards:
        board = _md(titles.get(b.board, b.board))
        if b.pages_before == 0:
            components.append(w["new board"].format(board=board))
        elif b.pages_after == 0:
            components.append(w["removed board"].format(board=board))
        else:
            components += [w["board"].format(board=board, what=item)
                           for item in _board_items(b, w, language(game))]
    return components


def changelog(game: Game, diff, revision: str) -> list[str]:
    """The changelog's lines (Markdown)."""
    w = _words(language(game))
    lines = [w["title"].format(title=_md(game.title), rev=_md(revision)), ""]
    cards = list(dict.fromkeys(_card_items(diff, w)))  # each change once
    rules = list(dict.fromkeys(_rule_items(diff, w)))
    components = list(dict.fromkeys(_component_items(game, diff, w)))
    # What changed but prints nowhere (a field no face reads, data nothing draws) is not
    # the players' news, but is said where nothing printed changed: not "No changes."
    unprinted = [] if cards or rules or components else \
        list(dict.fromkeys(_said(diff.unprinted, language(game))))
    for heading, items in ((w["cards"], cards), (w["rules"], rules),
                           (w["components"], components), (w["unprinted"], unprinted)):
        if items:
            lines += [heading, "", *[f"  - {item[2:]}" if item.startswith("  ") else f"- {item}"
                                     for item in items], ""]
    if not (cards or rules or components or unprinted):
        lines += [w["none"], ""]
    return lines
