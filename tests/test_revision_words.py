"""A revision's words a designer can trust (issue 58): the rulebook's sections aligned as a
diff aligns lines (by their path of headings, then their text), so that a heading repeated
under two others, a moved section and an inserted one are each said once and truly, and
nothing unchanged is said; and the players' changelog (`diff --format markdown`) in the
game's language: cards by name, the change marked, a table's changed cells, rule changes by
section path, rendered by markdown-it and read back.

Each revision is committed in a small game and edited; the text, JSON and Markdown outputs
are read, every line checked, and each page named is the page that prints the text.
"""

from __future__ import annotations

import json
import re

import pypdf
import pytest
from markdown_it import MarkdownIt

from conftest import git, write_game

EN_RULES = """# Setup

Shuffle the deck and deal the cards to each player.

| Players | Cards |
|---|---|
| 3 players | {{ data.rules.three }} |
| 4 players | 16 |

## Two players

Play with your hand open.

# Turn

Draw a card, then play one.

| Character | Action | Blocks |
|---|---|---|
| Thief | Take 2 coins from a player, then return 2. | Blocks stealing. |
| Guard | Nothing happens. | Blocks the thief. |

# Variants

## Two players

Deal five cards to each player.

# Scoring

Count your coins: the richest player wins.

# Appendix

Notes on the art of the cards and who drew them.
"""

JA_RULES = """# 準備

山札をよく切り、各プレイヤーに配ります。

| 人数 | 枚数 |
|---|---|
| 3人 | {{ data.rules.three }} |
| 4人 | 16 |

## 二人で遊ぶ場合

手札を公開して遊びます。

# 手番

山札から1枚引き、1枚出します。

| 役 | 行動 | 防ぐもの |
|---|---|---|
| 盗賊 | 他のプレイヤーから2枚取り、2枚返す。 | 盗みを防ぐ。 |
| 衛兵 | 何も起こらない。 | 盗賊を防ぐ。 |

# 変種

## 二人で遊ぶ場合

各プレイヤーに5枚ずつ配ります。

# 得点

金貨を数え、最も多いプレイヤーの勝ちです。

# 付録

カードの絵と描いた人についての覚え書き。
"""

FILLER = {"en": "Q. May I pass? A. No: every turn, you draw a card and play one. ",
          "ja": "問：パスできますか。答：できません。毎手番、1枚引いて1枚出します。"}


LAYOUT = {"size": "meishi", "elements": [
    {"name": "text", "type": "text", "text": "{{ card.name | default(card.id) }}: {{ card.text }}",
     "x": "4mm", "y": "4mm", "width": "100% - 8mm", "height": "40mm", "size": "9pt"}]}


def _game(project, lang):
    title = {"en": "Thieves", "ja": "盗賊"}[lang]
    rules = EN_RULES if lang == "en" else JA_RULES
    cards = ([{"id": "thief", "name": "Thief", "text": "Take 2 coins. Pay 2. Then discard."},
              {"id": "guard", "text": "Block a thief."}] if lang == "en" else
             [{"id": "thief", "name": "盗賊", "text": "金貨を2枚取る。2枚払う。"},
              {"id": "guard", "text": "盗賊を防ぐ。"}])
    folder = write_game(project, lang, {
        "title": title, "lang": lang,
        "decks": [{"id": "main", "front": "words-front",
                   "fields": {"name": {"type": "text"}, "text": {"type": "text"}}}],
        "data": {"rules": "rules.yaml"},
        "rulebook": {"template": "rulebook.md", "page": "B6"},
    }, cards, layouts={"words-front": LAYOUT},
        files={"rulebook.md": rules.encode(), "rules.yaml": b"three: 12\n"})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    return folder


def _revise(folder, lang):
    """A cell from data, a cell's text, the second 'Two players', a FAQ inserted before
    Scoring (moving every later page), the Appendix moved before Turn, a card's text."""
    (folder / "rules.yaml").write_text("three: 13\n", "utf-8")
    md = (folder / "rulebook.md").read_text("utf-8")
    appendix = md[md.index("# Appendix" if lang == "en" else "# 付録"):]
    md = md.replace(appendix, "")
    turn = "# Turn" if lang == "en" else "# 手番"
    md = md.replace(turn, appendix.rstrip() + "\n\n" + turn)
    if lang == "en":
        md = md.replace("Take 2 coins from", "Take 3 coins from")
        md = md.replace("Deal five cards", "Deal six cards")
        md = md.replace("# Scoring", "# FAQ\n\n" + "\n\n".join([FILLER["en"] * 4] * 6)
                        + "\n\n# Scoring")
    else:
        md = md.replace("2枚取り", "3枚取り")
        md = md.replace("5枚ずつ", "6枚ずつ")
        md = md.replace("# 得点", "# よくある質問\n\n" + "\n\n".join([FILLER["ja"] * 4] * 6)
                        + "\n\n# 得点")
    (folder / "rulebook.md").write_text(md, "utf-8")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Take 2 coins", "Take 3 coins")
                     .replace("金貨を2枚", "金貨を3枚")
                     .replace("id: guard\n", "id: guard\n  copies: 2\n"),
                 "utf-8")


EXPECTED = {
    "en": {
        "text": [
            "~ card 'thief' (main): reprint front",
            "    field text: was \"Take 2 coins. …\", now \"Take 3 coins. …\"",
            "= card 'guard' (main): copies 1 -> 2, print unchanged",
            "~ rulebook: 4 -> 5 pages",
            "    pages 2, 3, 4: content changed",
            "    page 5: new",
            "    booklet sheets to reprint: 1, 2",
            "    ~ section 'Setup' (p. 3): row '3 players', Cards: 12 -> 13",
            "    > section 'Appendix' (p. 3): moved before 'Turn'",
            "    ~ section 'Turn' (p. 3): row 'Thief', Action: "
            "\"Take ~~2~~ **3** coins from a player, then return 2.\"",
            "    ~ section 'Variants › Two players' (p. 3): "
            "\"Deal ~~five~~ **six** cards to each player.\"",
            "    + section 'FAQ' (p. 4)",
            "    data rules.three: 12 -> 13: rulebook p. 3",
        ],
        "markdown": [
            "# Thieves: changes since HEAD", "",
            "## Cards", "",
            "- Thief: text “Take ~~2~~ **3** coins. Pay 2. Then discard.”",
            "- guard: 2 copies (was 1)", "",
            "## Rules", "",
            "- Setup: 3 players, Cards: 12 → 13 (p. 3)",
            "- Moved: Appendix, now before Turn (p. 3)",
            "- Turn: Thief, Action: “Take ~~2~~ **3** coins from a player, then return 2.” "
            "(p. 3)",
            "- Variants › Two players: “Deal ~~five~~ **six** cards to each player.” (p. 3)",
            "- New section: FAQ (p. 4)",
            "  - “" + (FILLER["en"] * 4).strip() + "”",
            "",
        ],
        # what each page named prints: (page, text)
        "pages": [(3, "3 players 13"), (3, "Notes on the art"), (3, "Take 3 coins"),
                  (3, "Deal six cards"), (4, "Q. May I pass?")],
        "read back": ["Take 2 3 coins. Pay 2. Then discard.",
                      "Thief, Action: “Take 2 3 coins from a player, then return 2.”"],
    },
    "ja": {
        "text": [
            "~ カード「thief」（main）: 表面を刷り直し",
            "    フィールド text: 金貨を2枚取る。2枚払う。 -> 金貨を3枚取る。2枚払う。",
            "= カード「guard」（main）: 枚数 1 -> 2、刷るものは同じ",
            "~ ルールブック: 4 -> 5 ページ",
            "    2、3、4 ページ: 内容が変わりました",
            "    5 ページ: 新規",
            "    刷り直す小冊子のシート: 1、2",
            "    ~ 節「準備」（3 ページ）: 行「3人」、枚数: 12 -> 13",
            "    > 節「付録」（3 ページ）: 「手番」の前へ移動",
            "    ~ 節「手番」（3 ページ）: 行「盗賊」、行動: 他のプレイヤーから2枚取り、2枚返す。"
            " -> "
            "他のプレイヤーから3枚取り、2枚返す。",
            "    ~ 節「変種 › 二人で遊ぶ場合」（3 ページ）: "
            "「各プレイヤーに~~5~~**6**枚ずつ配ります。」",
            "    + 節「よくある質問」（4 ページ）",
            "    データ rules.three: 12 -> 13: ルールブック 3 ページ",
        ],
        "markdown": [
            "# 盗賊：HEAD からの変更点", "",
            "## カード", "",
            "- 盗賊：text「金貨を~~2~~**3**枚取る。2枚払う。」",
            "- guard：2枚（変更前 1枚）", "",
            "## ルール", "",
            "- 準備：3人、枚数：12 → 13（3ページ）",
            "- 移動：付録（手番の前へ）（3ページ）",
            "- 手番：盗賊、行動：「他のプレイヤーから~~2~~**3**枚取り、2枚返す。」（3ページ）",
            "- 変種 › 二人で遊ぶ場合：「各プレイヤーに~~5~~**6**枚ずつ配ります。」（3ページ）",
            "- 新しい節：よくある質問（4ページ）",
            "  - 「" + FILLER["ja"] * 4 + "」",
            "",
        ],
        "json": [  # JSON is for scripts: in English, whatever the game's language
            "~ section '準備' (p. 3): row '3人', 枚数: 12 -> 13",
            "> section '付録' (p. 3): moved before '手番'",
            "~ section '手番' (p. 3): row '盗賊', 行動: 他のプレイヤーから2枚取り、2枚返す。 -> "
            "他のプレイヤーから3枚取り、2枚返す。",
            "~ section '変種 › 二人で遊ぶ場合' (p. 3): "
            "\"各プレイヤーに~~5~~**6**枚ずつ配ります。\"",
            "+ section 'よくある質問' (p. 4)",
            "data rules.three: 12 -> 13: rulebook p. 3",
        ],
        "pages": [(3, "3人13"), (3, "カードの絵と描いた人"), (3, "他のプレイヤーから3枚取り"),
                  (3, "各プレイヤーに6枚ずつ"), (4, "問：パスできますか")],
        "read back": ["金貨を23枚取る。2枚払う。",
                      "盗賊、行動：「他のプレイヤーから23枚取り、2枚返す。」"],
    },
}


def _text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_revision_is_said_once_and_truly_in_text_json_and_markdown(project, cardgen, lang):
    folder = _game(project, lang)
    _revise(folder, lang)
    expected = EXPECTED[lang]
    text = cardgen("diff", lang)
    assert text.code == 0, text.err
    # nothing unchanged is said: the two 'Two players' sections keep their own text, the
    # sections the FAQ pushed to later pages only moved on paper
    assert text.out.splitlines()[1:-2] == expected["text"], text.out
    report = json.loads(cardgen("diff", lang, "--format", "json").out)
    book = report["rulebook"]
    assert book["text"] + book["data"] == expected.get("json", [
        line[4:] for line in expected["text"] if line.startswith("    ") and line[4] in "~>+d"])
    assert report["reprinted"][0]["id"] == "thief" and report["copies"][0]["id"] == "guard"
    markdown = cardgen("diff", lang, "--format", "markdown")
    assert markdown.code == 0
    lines = markdown.out.splitlines()
    assert lines == expected["markdown"], lines
    # valid Markdown that renders as it reads: a heading, lists, the changes marked
    renderer = MarkdownIt("commonmark").enable("strikethrough")
    html = renderer.render(markdown.out)
    assert html.count("<h1>") == 1 and html.count("<h2>") == 2
    assert html.count("<li>") == sum(1 for line in lines if line.lstrip().startswith("- "))
    assert html.count("<s>") == html.count("<strong>") == 3
    read = _text_of(html)
    assert not re.search(r"~~|\*\*|\\|\|", read), read
    for said in expected["read back"]:
        assert said in read, read
    # each page named prints what it is named for
    assert cardgen("build", lang).code == 0
    pdf = pypdf.PdfReader(project / "output" / lang / f"{lang}-rulebook.pdf")
    printed = [re.sub(r"\s+", "", page.extract_text()) for page in pdf.pages]
    for page, words in expected["pages"]:
        assert re.sub(r"\s+", "", words) in printed[page - 1], (page, words)
        assert re.sub(r"\s+", "", words) not in "".join(printed[:page - 1]), (page, words)
    # the data value is named on the page of its table, not the contents
    assert f"p. {expected['pages'][0][0]}" in book["data"][0]


def test_sections_are_aligned_by_their_path_and_text():
    """Unit: a section moved under another heading, one renamed with its text kept, one
    removed, and two that repeat a heading with their text unchanged."""
    from generator.diff.printed import rule_changes
    old = ("# Setup\n\nDeal.\n\n## Two players\n\nOpen hands.\n\n# Variants\n\n"
           "## Two players\n\nFive cards.\n\n## Solo\n\nPlay alone against the deck.\n\n"
           "# Credits\n\nThanks to everyone who played.\n\n# Old\n\nGone soon.\n")
    new = ("# Setup\n\nDeal.\n\n## Two players\n\nOpen hands.\n\n## Solo\n\n"
           "Play alone against the deck.\n\n# Variants\n\n## Two players\n\nFive cards.\n\n"
           "# Thanks\n\nThanks to everyone who played.\n")
    said = [(c.how, c.path, c.was, c.old, c.new) for c in rule_changes(old, new, [])]
    assert said == [(">", ("Setup", "Solo"), ("Variants", "Solo"), None, None),
                    (">", ("Thanks",), ("Credits",), None, None),
                    ("-", ("Old",), None, None, None)]


def test_a_mark_next_to_punctuation_falls_back_to_the_words_around_it():
    """Markdown does not read '**' opening before ')' after a letter: the run is widened to
    the spaces around it, and what renders is what was meant."""
    from generator.diff.changelog import _marked
    old = "Cards: Prince (王子), Baron (男爵), Baroness (男爵夫人), Egg (玉子)"
    new = "Cards: Prince (王子), Baroness (男爵夫人), Baron (男爵), Egg (玉子)"
    marked = _marked(old, new)
    assert marked is not None
    html = MarkdownIt("commonmark").enable("strikethrough").renderInline(marked)
    assert "**" not in html and "~~" not in html and "<s>" in html and "<strong>" in html
    assert _marked("Pay *2*. Then", "Pay [3]. Then") == "Pay ~~2~~ **\\[3\\]**. Then"
