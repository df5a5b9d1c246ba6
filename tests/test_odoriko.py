"""The dancer game (seed 001): data transcribed from the seed, terms worded from data,
and the built PDFs read back."""

from __future__ import annotations

import re

import pytest
import yaml

from conftest import REPO
from pdfcheck import reader

SEED = REPO.parent / "shared" / "seeds" / "001_17189df9610cfd1b.txt"
GAME = REPO / "cards" / "odoriko"
WJ = "\u2060"


def macros():
    from generator.sandbox import macros as load
    return load((GAME / "terms.j2").read_text("utf-8"))


def term(t: dict) -> str:
    return str(macros().term(t)).replace(WJ, "")


@pytest.mark.parametrize("t,text", [
    ({"where": "leaves", "rank_min": 8, "points": 1}, "葉8以上n枚：＋n"),
    ({"where": "hand", "kind": "J", "points": 1}, "手札にあるJのカードn枚：＋n"),
    ({"where": "others", "rank_min": 8, "points": -1}, "他者の場に置かれた8以上のカードn枚：－n"),
    ({"where": "own", "suit": "spade", "at_least": 5, "bonus": 4},
     "自身の場に置かれたスペードのカード5枚以上：＋4"),
    ({"where": "all", "rank_max": 3, "points": 1}, "全体の場に置かれた3以下のカードn枚：＋n"),
    ({"where": "others_song", "at_least": 5, "bonus": 3},
     "他者の歌の場に置かれたカード5枚以上：＋3"),
    ({"where": "all", "suit": "club", "points": 2},
     "全体の場に置かれたクラブのカードn枚：＋（n×2）"),
    ({"where": "others", "suit": "heart", "points": -2},
     "他者の場に置かれたハートのカードn枚：－（n×2）"),
    ({"where": "others", "kind": "song", "points": -1}, "他者の場に置かれた歌のカードn枚：－n"),
    ({"where": "all", "kind": "dance", "points": 1}, "全体の場に置かれた踊りのカードn枚：＋n"),
    ({"where": "discard", "kind": "character", "points": 1},
     "捨て札置き場に置かれたキャラクターカードn枚：＋n"),
])
def test_each_kind_of_victory_term_is_worded_as_the_seed_words_it(t, text):
    assert term(t) == text


def seed_cards() -> dict[str, dict]:
    """CC NO.00k blocks of the seed: effect lines, victory lines, quote, story."""
    if not SEED.exists():
        pytest.skip("the seeds are not beside the repository")
    text = SEED.read_text("utf-8")
    blocks = re.split(r"^CC NO\.(\d{3})$", text, flags=re.M)[1:]
    cards = {}
    for number, body in zip(blocks[::2], blocks[1::2]):
        lines = [line for line in body.strip().splitlines()
                 if line != "最終更新：2009年11月13日 00:42"]
        effect_start = lines.index("効果") + 3  # 効果, タイミング, 条件
        victory = lines.index("勝利条件")
        quote = next(i for i, line in enumerate(lines) if line.startswith("説明："))
        cards[f"cc{number}"] = {
            "header": lines[:effect_start],
            "effect": "\n".join(lines[effect_start:victory]),
            "victory": lines[victory + 1:quote],
            "quote": lines[quote][len("説明：「"):-1],
            "story": "\n".join(lines[quote + 1:]),
        }
    return cards


def test_every_character_is_transcribed_exactly():
    seed = seed_cards()
    data = yaml.safe_load((GAME / "characters.yaml").read_text("utf-8"))["cards"]
    assert [c["id"] for c in data] == sorted(seed) and len(data) == 9
    m = macros()
    for card in data:
        s = seed[card["id"]]
        assert s["header"][0] == f"名称：”{card['epithet']}”{card['name']}"
        assert s["header"][1] == f"特技：《{card['skill']}》"
        assert s["header"][3] == f"「タイミング：{card['timing']}」"
        assert s["header"][4] == f"「条件：{m.condition(card['condition'])}」"
        assert card["effect"] == s["effect"], card["id"]
        assert [term(t) for t in card["victory"]] == s["victory"], card["id"]
        assert card["quote"] == s["quote"], card["id"]
        assert card["story"] == s["story"], card["id"]


def test_validates_with_only_the_drafts_the_seed_leaves_open(project, cardgen):
    run = cardgen("validate", "odoriko")
    assert run.code == 0, run.lines
    copies = [f"cards/odoriko/characters.yaml:{line}:13: warning: card 'cc00{n}': copies is TBD "
              "(draft) [draft]" for n, line in zip(range(1, 10), (10, 32, 53, 74, 96, 120, 143, 166,
                                                                   190))]
    assert [line for line in run.lines if ": warning: " in line or ": error: " in line] == [
        *copies,  # the seed does not say how many of each character there are
        "cards/odoriko/checks.yaml:56:13: warning: a personal deck is 12 character and event "
        "cards; with the event cards not written yet there are 9 character cards to choose from "
        "(draft) [personal-deck-draft]",
        "cards/odoriko/game.yaml:3:8: warning: the game's title is TBD (draft) [draft]",
        "cards/odoriko/game.yaml:63:5: warning: deck 'events' has no cards yet (draft) [draft]",
    ]


def test_a_badly_formed_term_is_reported_in_the_seeds_words(project, cardgen):
    path = project / "cards/odoriko/characters.yaml"
    text = path.read_text("utf-8").replace("- {where: all, rank_max: 3, points: 1}",
                                           "- {where: all, rank_max: 1, points: 1}")
    path.write_text(text, "utf-8")
    run = cardgen("validate", "odoriko")
    assert run.code == 1
    errors = [line.replace(WJ, "") for line in run.lines if ": error: " in line]
    assert errors == ["cards/odoriko/characters.yaml:62:9: error: cc003: "
                      "「全体の場に置かれた1以下のカードn枚：＋n」 "
                      "counts rank 1; terms count ranks 2-10 or J cards only [term-ranks]"]


def test_the_built_cards_carry_every_name_skill_and_victory_condition(project, cardgen):
    run = cardgen("build", "odoriko")
    assert run.code == 0, run.lines
    out = project / "output/odoriko"
    fronts = reader(out / "odoriko-fronts.pdf")
    assert len(fronts.pages) == 1 + 6  # 9 characters on one sheet, 52 playing cards on six
    characters = "".join(fronts.pages[0].extract_text().split())
    data = yaml.safe_load((GAME / "characters.yaml").read_text("utf-8"))["cards"]
    for card in data:
        assert card["name"] in characters, card["id"]
        assert f"《{card['skill']}》" in characters, card["id"]
        for t in card["victory"]:
            assert term(t) in characters, (card["id"], term(t))
    playing = "".join("".join(p.extract_text().split()) for p in fronts.pages[1:])
    assert playing.count("の場に置ける") == 36  # every resource card names its field
    assert playing.count("特殊カード") == 16
    # The seed writes the special cards ＡＪＱＫ, full-width; the resource cards' reminder is
    # the editor's words, labelled as such.
    for rank in "ＡＪＱＫ":
        assert playing.count(f"特殊カード「{rank}」") == 4, rank
    assert not re.search("特殊カード「?[AJQK]", playing)
    assert playing.count("【編集注】資源カード") == 36
    rulebook = "".join("".join(p.extract_text().split())
                       for p in reader(out / "odoriko-rulebook.pdf").pages)
    for card in data:
        assert card["name"] in rulebook and term(card["victory"][0]) in rulebook
    assert "手札は最大で４枚まで取得できる。" in rulebook  # full-width, as the seed writes it
    for words in ("２－１０までのカード", "ＡＪＱＫのカード", "Ａ：自身のオークション", "５枚以上",
                  "トランプ５２枚", "合わせて１２枚",
                  "・「～～の時」：その条件を満たしている時だけ",
                  "名称：”白手袋の”イル・アリエル", "説明：「あたいは踊るよ"):
        assert words in rulebook, words
    assert "合計で20枚の資源カードが場に置かれたら" in rulebook


def test_rulebook_prints_every_line_of_the_seed(project, cardgen):
    """Seed 001 line by line, full-width characters exactly. The seed marks headings with
    ●, ■ and ▼ and list items with ・: they print as headings and bullets."""
    if not SEED.exists():
        pytest.skip("the seeds are not beside the repository")
    assert cardgen("build", "odoriko").code == 0
    pages = reader(project / "output/odoriko/odoriko-rulebook.pdf").pages
    printed = "".join("".join(p.extract_text().split("\n", 1)[-1].split()) for p in pages)
    checked = 0
    for line in SEED.read_text("utf-8").splitlines():
        line = line.strip().lstrip("●■▼・")
        if not line:
            continue
        assert "".join(line.split()) in printed, line
        checked += 1
    assert checked >= 250


def test_the_story_keeps_its_lines_and_the_cover_its_date(project, cardgen):
    """Seed 001's story is fourteen lines (昔昔、… これは、そんな神話の頃のおはなしです。): each
    is a line of its own in the rulebook, not one paragraph. The draft's date is the seed's
    最終更新：2009年11月13日 00:42, on the cover and as its last line."""
    if not SEED.exists():
        pytest.skip("the seeds are not beside the repository")
    assert cardgen("build", "odoriko").code == 0
    pages = reader(project / "output/odoriko/odoriko-rulebook.pdf").pages
    seed = SEED.read_text("utf-8").splitlines()
    story = seed[seed.index("●ストーリー") + 1:seed.index("●ゲームの目的")]
    assert len(story) == 14
    from test_japanese_typesetting import glyphs
    pdf = project / "output/odoriko/odoriko-rulebook.pdf"
    lines = []  # each printed line, from where its characters stand (by baseline)
    for n in range(len(pages)):
        rows: dict[float, list] = {}
        for ch, x, y, _ in glyphs(pdf, n):
            rows.setdefault(round(y, 1), []).append((x, ch))
        lines += ["".join(ch for _, ch in sorted(row))
                  for _, row in sorted(rows.items(), reverse=True)]
    for line in story:
        assert "".join(line.split()) in lines, line
    assert "version2009年11月13日00:42" in "".join(pages[0].extract_text().split())
    assert "最終更新：2009年11月13日00:42" in lines


def test_the_draft_badge_covers_no_text(project, cardgen):
    """The DRAFT badge of a card with TBD values sits where the layout keeps room for it
    (draft:), not over 「CC NO.001」; a layout whose badge would cover text is warned."""
    from test_japanese_typesetting import glyphs
    assert cardgen("build", "--cards-pdf", "odoriko").code == 0
    g = glyphs(project / "output/odoriko/odoriko-cards.pdf")
    badge = [(x, y) for ch, x, y, _ in g if ch in "DRAFT"][:5]
    number = [(x, y, size) for ch, x, y, size in g if ch in "CCNO.001"][:8]
    assert len(badge) == 5 and number
    assert all(abs(by - ny) > size for bx, by in badge for nx, ny, size in number)
    for game in ("odoriko", "lastdance", "vampire-band", "dernier-peuple"):
        assert not [line for line in cardgen("validate", game).lines if "DRAFT badge" in line], game
    path = project / "layouts/odoriko-character-front.yaml"
    path.write_text(path.read_text("utf-8").replace("draft: {x: 47mm, y: 53.6mm}", ""), "utf-8")
    run = cardgen("validate", "odoriko")
    assert ("layouts/odoriko-character-front.yaml:4:1: warning: layout 'odoriko-character-front': "
            "the DRAFT badge of a card with TBD values would cover the text of element 'number'; "
            "give the layout a place for it that is free of text (draft: {x: ..., y: ...}, its "
            "top-left corner from the card's top-left) [draft]") in run.lines


def test_the_seeds_items_effect_label_lines_and_pages(project, cardgen):
    """Issue 65. The rule says 「・」の項目1つを1回の手番行動として扱う: its items print with
    ・, no •. Each character reads as the seed lists it (名称, 特技, 効果, 「タイミング」,
    「条件」, then the effect's own lines, a two-line effect in two lines), the card prints
    the 効果 label too, and the character's story (beside its card) is on its heading's page."""
    from test_seed_fidelity import printed_lines
    assert cardgen("build", "odoriko").code == 0
    out = project / "output/odoriko"
    lines = printed_lines(out / "odoriko-rulebook.pdf")
    text = [t for _, t in lines]
    assert not any("•" in t for t in text)
    at = text.index("手番行動")
    items = text[at:text.index("手番行動の終了")]
    assert [t for t in items if t.endswith("資源デッキから１枚引いて手札に加える。")]
    assert sum(t == "・" or t.startswith("・") for t in items) == 9  # the bullet, where it sits
    data = yaml.safe_load((GAME / "characters.yaml").read_text("utf-8"))["cards"]
    assert sum("\n" in c["effect"] for c in data) == 6
    for card in data:
        cond = card["condition"]
        condition = cond["what"] + cond["kind"] if cond["kind"] != "なし" else "なし"
        seed = [f"名称：”{card['epithet']}”{card['name']}", f"特技：《{card['skill']}》", "効果",
                f"「タイミング：{card['timing']}」", f"「条件：{condition}」",
                *card["effect"].split("\n"), "勝利条件"]
        seed = ["".join(s.split()) for s in seed]
        at = text.index(seed[0])
        for line in seed:  # each of the seed's lines starts a printed line (a long one wraps)
            printed = text[at]
            at += 1
            while printed != line and line.startswith(printed):
                printed += text[at]
                at += 1
            assert printed == line, (card["id"], line)
        heading = min(p for p, t in lines if t == f"CCNO.{card['number']:03d}")
        story = card["story"].split("\n")[0]
        assert min(p for p, t in lines if t.lstrip("〝").startswith(story[:10])) == heading
    cards = [t for _, t in printed_lines(out / "odoriko-fronts.pdf")]
    assert sum(t.count("効果") for t in cards if not t.replace("効果", "")) == 9
