"""A rulebook section's paragraphs that changed, each said with its changed words marked
(issue 58, item 1): only those paragraphs (not the whole section), aligned as a diff aligns
lines (one inserted beside one changed is one inserted and one changed), a long one
abridged around its change; marked in the text, JSON and Markdown outputs by the one rule
(marks.py: English by word, Japanese by character), the Markdown rendered and read back.
"""

from __future__ import annotations

import json
import re

import pytest
from markdown_it import MarkdownIt

from conftest import git, write_game

LONG = {"en": ("On your turn you may trade with any other player: offer them cards from your "
               "hand, and they may accept, refuse or make another offer. A trade is done when "
               "both of you agree, and each gives the other the cards they named. You may make "
               "as many trades as you like, but you cannot trade with the bank."),
        "ja": ("手番では、ほかのプレイヤーと交換できます。手札から出すカードを示し、相手はそれを"
               "受けるか、断るか、別の申し出をします。二人が同意すれば交換は成立し、互いに名前を"
               "挙げたカードを渡します。交換は何度でもできますが、銀行とは交換できません。")}
CHANGE = {"en": ("you cannot trade with the bank", "you cannot trade with the dealer"),
          "ja": ("銀行とは交換できません", "親とは交換できません")}
INSERTED = {"en": "Trading is optional.", "ja": "交換はしなくてもかまいません。"}
OTHER = {"en": "Keep your coins face down in front of you until the end of the game.",
         "ja": "金貨は終了まで自分の前に裏向きに置きます。"}


def _game(project, lang):
    heading = {"en": "# Trading", "ja": "# 交換"}[lang]
    rules = f"{heading}\n\n{OTHER[lang]}\n\n{LONG[lang]}\n"
    folder = write_game(project, lang, {
        "title": {"en": "Traders", "ja": "商人"}[lang], "lang": lang,
        "decks": [{"id": "main", "front": "plain-front", "fields": {"text": {"type": "text"}}}],
        "rulebook": {"template": "rulebook.md", "page": "B6"},
    }, [{"id": "coin", "text": "1"}], layouts={"plain-front": {"size": "meishi", "elements": [
        {"name": "t", "type": "text", "text": "{{ card.text }}", "x": "4mm", "y": "4mm",
         "width": "20mm", "height": "10mm", "size": "9pt"}]}},
        files={"rulebook.md": rules.encode()})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    # one word (Japanese: two characters) changed in the long paragraph, and a paragraph
    # inserted just before it
    old, new = CHANGE[lang]
    (folder / "rulebook.md").write_text(rules.replace(LONG[lang], f"{INSERTED[lang]}\n\n"
                                                      + LONG[lang].replace(old, new)), "utf-8")
    return folder


MARKED = {"en": ("but you cannot trade with the ~~bank~~ **dealer**.",
                 "but you cannot trade with the bank dealer."),
          "ja": ("もできますが、~~銀行~~**親**とは交換できません。",
                 "もできますが、銀行親とは交換できません。")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_changed_paragraph_is_said_alone_with_its_words_marked(project, cardgen, lang):
    _game(project, lang)
    section = {"en": "Trading", "ja": "交換"}[lang]
    marked, read_back = MARKED[lang]
    # text: the paragraph inserted, then the changed one marked and abridged; the section's
    # other paragraphs and the long one's far words are not said
    text = cardgen("diff", lang)
    assert text.code == 0, text.err
    said = [line.strip() for line in text.out.splitlines()
            if re.match(r"\s+[~+-] (section|節)", line)]
    assert len(said) == 2, text.out
    assert said[0].startswith("+ ") and said[0].endswith(INSERTED[lang]), said
    assert said[1].startswith("~ ") and section in said[1] and marked in said[1], said
    first_words = LONG[lang][:20]
    assert first_words not in said[1] and "…" in said[1] and OTHER[lang][:20] not in text.out
    # JSON (in English whatever the game's language): the same lines, and each change by
    # its section, the changed words as runs
    book = json.loads(cardgen("diff", lang, "--format", "json").out)["rulebook"]
    assert book["text"] == said if lang == "en" else \
        len(book["text"]) == 2 and marked in book["text"][1]
    rules = book["rules"]
    assert [(r["how"], r["section"]) for r in rules] == [("+", [section]), ("~", [section])]
    assert rules[0]["new"] == INSERTED[lang] and rules[0]["old"] is None
    runs = rules[1]["change"]
    assert "".join(t for how, t in runs if how != "+") == LONG[lang]
    assert "".join(t for how, t in runs if how != "-") == \
        LONG[lang].replace(*CHANGE[lang])
    assert [t for how, t in runs if how != "="] == [
        {"en": ["bank", "dealer"], "ja": ["銀行", "親"]}[lang][0],
        {"en": ["bank", "dealer"], "ja": ["銀行", "親"]}[lang][1]]
    # Markdown: the same paragraph, abridged, marked as a card's text is; read back
    markdown = cardgen("diff", lang, "--format", "markdown").out
    items = [line for line in markdown.splitlines() if line.startswith("- ")]
    assert len(items) == 2, markdown
    html = MarkdownIt("commonmark").enable("strikethrough").render(markdown)
    assert html.count("<s>") == html.count("<strong>") == 1
    read = re.sub(r"<[^>]+>", "", html)
    assert read_back in read and first_words not in read and OTHER[lang][:20] not in read
    assert INSERTED[lang] in read


def test_a_section_s_paragraphs_are_aligned_by_their_likeness():
    """Unit: two paragraphs put in around one whose word changed, and one removed: the
    changed one paired with the one it was, the others said inserted and removed."""
    from generator.diff.printed import paragraph_changes
    old = ["Shuffle the deck.", "Deal five cards to each player, face down.", "Gone soon."]
    new = ["Shuffle the deck.", "Put the board in the middle.",
           "Deal six cards to each player, face down.", "Choose a first player."]
    assert paragraph_changes(old, new) == [
        ("+", None, "Put the board in the middle."),
        ("~", "Deal five cards to each player, face down.",
         "Deal six cards to each player, face down."),
        ("-", "Gone soon.", None), ("+", None, "Choose a first player.")]


def test_the_changelog_shows_a_card_s_own_marks_as_it_prints_them(project, cardgen):
    """A card's text is not Markdown: its `**` and `_` print as they are, so the players'
    changelog escapes them, inside a marked change too (they were taken for emphasis and
    dropped), and what renders reads as the card prints."""
    folder = write_game(project, "marks", {
        "title": "Marks", "lang": "en",
        "decks": [{"id": "main", "front": "plain-front",
                   "fields": {"name": {"type": "text"}, "text": {"type": "text"}}}],
    }, [{"id": "star", "name": "The **Star**", "text": "Gain 2 _coins_ **now** and then."}],
        layouts={"plain-front": {"size": "meishi", "elements": [
            {"name": "t", "type": "text", "text": "{{ card.name }} {{ card.text }}",
             "x": "4mm", "y": "4mm", "width": "40mm", "height": "30mm", "size": "8pt"}]}})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Gain 2", "Gain 3")
                     .replace("The **Star**", "The **Sun**"), "utf-8")
    markdown = cardgen("diff", "marks", "--format", "markdown")
    assert markdown.code == 0, markdown.err
    html = MarkdownIt("commonmark").enable("strikethrough").render(markdown.out)
    items = re.findall(r"<li>(.*?)</li>", html)
    read = [re.sub(r"<[^>]+>", "", item) for item in items]
    assert read == ["The **Sun**: name “The **Star**” → “The **Sun**”",
                    "The **Sun**: text “Gain 2 3 _coins_ **now** and then.”"], markdown.out
    assert [re.findall(r"<(s|strong)>(.*?)</", item) for item in items] == [
        [], [("s", "2"), ("strong", "3")]]
