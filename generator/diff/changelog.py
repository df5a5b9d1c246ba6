"""A changelog for players: `cardgen diff --format markdown`.

What a designer posts for playtesters after a revision, in the game's language (`lang:`,
or the language its title is written in): card errata with the text before and after, the
rules' changes by section, and components added or removed. Words only: no diff markup,
no file names, no page identities.
"""

from __future__ import annotations

import re

from ..model import Card, Game

WORDS = {
    "en": {"title": "# {title}: changes since {rev}", "cards": "## Cards", "rules": "## Rules",
           "components": "## Components", "new card": "New card: {name} ×{copies}",
           "removed card": "Removed: {name}", "field": "{name}: {field} was “{old}”, now “{new}”",
           "copies": "{name}: {new} copies (was {old})", "new section": "New section: {heading}",
           "removed section": "Removed section: {heading}",
           "changed": "{heading}: was “{old}”; now “{new}”", "added": "{heading}: added “{new}”",
           "removed": "{heading}: removed “{old}”", "page": " (p. {page})",
           "opening": "Introduction", "board": "Board “{board}”: {what}",
           "new board": "New board: {board}", "removed board": "Removed board: {board}",
           "none": "No changes.", "empty": "(none)", "cell": "space {cell}: {key} {old} → {new}",
           "section text": "“{new}”"},
    "ja": {"title": "# {title}：{rev} からの変更点", "cards": "## カード", "rules": "## ルール",
           "components": "## コンポーネント", "new card": "追加：{name} ×{copies}",
           "removed card": "削除：{name}",
           "field": "{name}：{field}　変更前「{old}」→ 変更後「{new}」",
           "copies": "{name}：{new}枚（変更前 {old}枚）", "new section": "新しい節：{heading}",
           "removed section": "削除された節：{heading}",
           "changed": "{heading}：変更前「{old}」→ 変更後「{new}」",
           "added": "{heading}：追加「{new}」", "removed": "{heading}：削除「{old}」",
           "page": "（{page}ページ）", "opening": "はじめに", "board": "ボード「{board}」：{what}",
           "new board": "新しいボード：{board}", "removed board": "削除されたボード：{board}",
           "none": "変更はありません。", "empty": "（なし）",
           "cell": "マス{cell}：{key} {old} → {new}",
           "section text": "「{new}」"},
}


def language(game: Game) -> str:
    """The game's language: `lang:`, or Japanese when its title has kana or kanji."""
    if game.declared_lang in WORDS:
        return game.declared_lang
    return "ja" if any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"
                       for ch in game.title) else "en"


def _name(card: Card) -> str:
    name = card.fields.get("name")
    return name if isinstance(name, str) and name else card.id


def _text(value, words: dict) -> str:
    """A value or a paragraph as players read it: one line, without Markdown's list marks
    and emphasis."""
    if value is None or value == "":
        return words["empty"]
    text = " ".join(str(value).split())
    text = re.sub(r"(^|\s)(?:[-*+]|\d+[.)])\s+", r"\1", text)  # list marks
    return re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text).strip()


def _board_items(board, w: dict) -> list[str]:
    """A board's changes as players read them: 'B2: type plain → water' (its colour, which
    the type gives, is not said again), then what its cells do not say."""
    typed = {label for label, key, _, _ in board.cells if key == "type"}
    out = [w["cell"].format(cell=label, key=key, old=_text(old, w), new=_text(new, w))
           for label, key, old, new in board.cells if not (key == "color" and label in typed)]
    return out + board.other


def _card_items(diff, w: dict) -> list[str]:
    """The cards' changes: new cards, each changed field, copies, removed cards."""
    cards = [w["new card"].format(name=_name(c), copies=c.copies) for c in diff.added]
    for r in diff.reprinted:
        old, new = r.old.fields, r.new.fields
        for key in [k for k in new if old.get(k) != new.get(k)] + \
                [k for k in old if k not in new]:
            cards.append(w["field"].format(name=_name(r.new), field=key,
                                           old=_text(old.get(key), w), new=_text(new.get(key), w)))
        if r.old.copies != r.new.copies:
            cards.append(w["copies"].format(name=_name(r.new), old=r.old.copies, new=r.new.copies))
    cards += [w["copies"].format(name=_name(new), old=old.copies, new=new.copies)
              for old, new in diff.copies]
    cards += [w["removed card"].format(name=_name(c)) for c in diff.removed]
    return cards


def _rule_items(diff, w: dict) -> list[str]:
    """The rulebook's changes by section, with their pages; a new section's text under it."""
    rules = []
    new_sections = dict(diff.rulebook.sections) if diff.rulebook else {}
    for c in (diff.rulebook.rules if diff.rulebook else []):
        heading = c.heading or w["opening"]
        page = w["page"].format(page=c.page) if c.page else ""
        if c.old is None and c.new is None:
            rules.append(w["new section" if c.how == "+" else "removed section"].format(
                heading=heading) + (page if c.how == "+" else ""))
            if c.how == "+":  # what it says
                rules += [f"  {w['section text'].format(heading=heading, new=_text(p, w))}"
                          for p in new_sections.get(c.heading, [])]
        elif c.how == "~":
            rules.append(w["changed"].format(heading=heading, old=_text(c.old, w),
                                             new=_text(c.new, w)) + page)
        elif c.how == "+":
            rules.append(w["added"].format(heading=heading, new=_text(c.new, w)) + page)
        else:
            rules.append(w["removed"].format(heading=heading, old=_text(c.old, w)))
    return rules


def _component_items(game: Game, diff, w: dict) -> list[str]:
    """The boards' changes: new and removed boards, and what changed on the others."""
    components = []
    titles = {b.id: b.title for b in game.boards}
    for b in diff.boards:
        board = titles.get(b.board, b.board)
        if b.pages_before == 0:
            components.append(w["new board"].format(board=board))
        elif b.pages_after == 0:
            components.append(w["removed board"].format(board=board))
        else:
            components += [w["board"].format(board=board, what=item)
                           for item in _board_items(b, w)]
    return components


def changelog(game: Game, diff, revision: str) -> list[str]:
    """The changelog's lines (Markdown)."""
    w = WORDS[language(game)]
    lines = [w["title"].format(title=game.title, rev=revision), ""]
    cards = _card_items(diff, w)
    rules = _rule_items(diff, w)
    components = _component_items(game, diff, w)
    for heading, items in ((w["cards"], cards), (w["rules"], rules),
                           (w["components"], components)):
        if items:
            lines += [heading, "", *[f"  - {item[2:]}" if item.startswith("  ") else f"- {item}"
                                     for item in items], ""]
    if not (cards or rules or components):
        lines += [w["none"], ""]
    return lines
