"""Deck statistics (`cardgen stats`, `build --stats`, the rulebook's odds(), `cardgen diff`):
counts and odds against values computed by hand from the seed games' data, exact odds against
brute force, and the stats PDF read back."""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from generator.stats import odds


def _stats(cardgen, *args) -> dict:
    run = cardgen("stats", *args, "--format", "json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def _dist(deck: dict, field: str) -> dict:
    return next(d for d in deck["distributions"] if d["field"] == field)


def test_last_dance_opening_odds_match_a_hand_calculation(project, cardgen):
    """4 players use 16 cards and deal 4 each. A given hand holds the Princess and the Prince
    in C(14, 2) of its C(16, 4) ways: 91 / 1820 = 1/20. It holds the Princess in 4 of 16."""
    got = _stats(cardgen, "lastdance")
    royal = {a["label"]: Fraction(a["numerator"], a["denominator"])
             for a in got["odds"] if a["id"] == "royal-opening"}
    princess = {a["label"]: Fraction(a["numerator"], a["denominator"])
                for a in got["odds"] if a["id"] == "princess-in-hand"}
    assert royal["4 players"] == Fraction(comb(14, 2), comb(16, 4)) == Fraction(1, 20)
    for players, total in ((4, 16), (5, 20), (6, 24), (7, 28), (8, 32)):
        assert royal[f"{players} players"] == Fraction(comb(total - 2, 2), comb(total, 4))
        assert princess[f"{players} players"] == Fraction(4, total)
    hands = {a["label"]: (a["hand"], a["pool"]) for a in got["odds"]}
    assert hands["8 players"] == (4, 32)  # "all 32 cards": the 4 blank cards are never dealt


def test_last_dance_totals_per_player_count_and_copies(project, cardgen):
    got = _stats(cardgen, "lastdance")
    table = got["tables"][0]
    assert table["totals"] == {"4 players": 16, "5 players": 20, "6 players": 24,
                               "7 players": 28, "8 players": 32}
    assert table["cards"]["公爵令嬢"] == {"4 players": 1, "5 players": 2, "6 players": 3,
                                        "7 players": 4, "8 players": 5}
    data = yaml.safe_load((project / "cards/lastdance/cards.yaml").read_text("utf-8"))
    copies = _dist(got["decks"][0], None)["counts"]
    assert sum(copies.values()) == sum(c.get("copies", 1) for c in data["cards"]) == 36
    assert copies["勝気な貴公子"] == 5


def test_counts_of_enumerated_fields_weighted_by_copies(project, cardgen):
    odoriko = _stats(cardgen, "odoriko", "--deck", "playing")
    [playing] = odoriko["decks"]
    assert _dist(playing, "suit")["counts"] == {"spade": 13, "heart": 13, "diamond": 13, "club": 13}
    # 2-10 are resource cards, A J Q K special: 9 and 4 ranks in 4 suits
    assert _dist(playing, "kind")["counts"] == {"resource": 36, "special": 16}
    assert _dist(playing, "rank")["counts"]["10"] == 4
    board = yaml.safe_load((project / "cards/dernier-peuple/board.yaml").read_text("utf-8"))
    [deck] = _stats(cardgen, "dernier-peuple", "--deck", "tiles")["decks"]
    homes, pickaxes = len(board["homes"]), len(board["pickaxes"])  # tiles 1-20, one each
    assert _dist(deck, "kind")["counts"] == {"home": homes, "pickaxe": pickaxes,
                                             "plain": 20 - homes - pickaxes} == \
        {"home": 5, "pickaxe": 5, "plain": 10}
    assert _dist(deck, "color")["counts"]["blue"] == 1  # each home its colour
    number = _dist(deck, "number")
    assert number["numeric"] and number["mean"] == 10.5 and number["min"] == 1


def test_list_fields_count_each_item_and_tbd_is_a_draft(project, cardgen):
    """A character of two affiliations counts under each; TBD values are counted apart."""
    game = project / "cards/vampire-band/characters.yaml"
    game.write_text(game.read_text("utf-8").replace(
        "affiliations: [japanese]           # （うすい方の）ピンク色",
        "affiliations: [japanese, akira-acquaintance]"), "utf-8")
    [deck] = _stats(cardgen, "vampire-band", "--deck", "characters")["decks"]
    assert _dist(deck, "affiliations")["counts"] == {  # みぞぐちしんや, ユウヒ, タチアナ: TBD
        "ツェペッシュ家一門": 0, "反ツェペッシュ家": 0, "日本人": 1,
        "鏑木レーゲンドルフアキラの知人": 1, "ベイオウルヴズ": 0, "無所属": 0}
    assert _dist(deck, "affiliations")["drafts"] == 3
    assert _dist(deck, "durability")["drafts"] == 4
    assert _dist(deck, "durability")["counts"] == {}


def _brute(pool: list[tuple[str, int]], hand: int, needs, member) -> Fraction:
    cards = [name for name, n in pool for _ in range(n)]
    good = total = 0
    for drawn in itertools.combinations(range(len(cards)), hand):
        total += 1
        names = [cards[i] for i in drawn]
        if all(need.met(sum(1 for n in names if member(k, n))) for k, need in enumerate(needs)):
            good += 1
    return Fraction(good, total)


def test_exact_odds_agree_with_counting_every_hand():
    rng = random.Random(7)
    for _ in range(40):
        pool = [(f"c{i}", rng.randint(1, 3)) for i in range(rng.randint(2, 6))]
        size = sum(n for _, n in pool)
        hand = rng.randint(1, min(size, 6))
        sets = [set(rng.sample([n for n, _ in pool], rng.randint(1, len(pool))))
                for _ in range(rng.randint(1, 3))]
        needs = []
        for _ in sets:
            low = rng.choice([None, 0, 1, 2])
            high = rng.choice([None, 1, 2, 3]) if low is not None else rng.randint(0, 2)
            needs.append(odds.Need(low, high))
        classes: dict = {}
        for name, n in pool:
            sig = tuple(name in s for s in sets)
            classes[sig] = classes.get(sig, 0) + n
        expected = _brute(pool, hand, needs, lambda k, name: name in sets[k])
        assert odds.probability(classes, hand, tuple(needs)) == expected


def test_a_question_too_large_to_count_is_refused():
    classes = {tuple(bool(i >> b & 1) for b in range(8)): 40 for i in range(256)}
    with pytest.raises(odds.TooLarge):
        odds.probability(classes, 60, tuple(odds.Need(1, None) for _ in range(8)))


def test_where_conditions_and_at_most(project, cardgen):
    """'At least one card with kind: bright' and 'at most one Wizard', from card values."""
    game = project / "cards/odoriko/game.yaml"
    game.write_text(game.read_text("utf-8") + """
stats:
  odds:
    - id: special-in-five
      question: at least one special card in 5
      deck: playing
      hand: 5
      need:
        - where: card.kind == 'special'
    - id: two-hearts-exactly
      deck: playing
      hand: 5
      need:
        - {where: "card.suit == 'heart'", exactly: 2}
""", "utf-8")
    got = {a["id"]: Fraction(a["numerator"], a["denominator"])
           for a in _stats(cardgen, "odoriko")["odds"]}
    assert got["special-in-five"] == 1 - Fraction(comb(36, 5), comb(52, 5))
    assert got["two-hearts-exactly"] == Fraction(comb(13, 2) * comb(39, 3), comb(52, 5))


def test_the_stats_pdf_reads_back_with_its_labels_and_values(project, cardgen):
    run = cardgen("build", "lastdance", "vampire-band", "--stats", "-q")
    assert run.code == 0, run.err
    pdf = project / "output/lastdance/lastdance-stats.pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    # Its words are the game's language's (a Japanese game), its labels the data's.
    for label in ("姫", "勝気な貴公子", "4 players", "8 players", "Cards used by player count",
                  "royal-opening", "4 players: 16 枚から 4 枚の手札: 1/20 = 5.00%、20.0 回に 1 回",
                  "引きの確率", "5%", "3.16%", "12.5%"):
        assert label in text, label
    bars = re.findall(r"^(\d+)$", text, re.M)
    assert {"16", "20", "24", "28", "32"} <= set(bars)  # the totals' bar labels
    vb = project / "output/vampire-band/vampire-band-stats.pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(vb).pages)
    assert "鏑木レーゲンドルフアキラの知人" in text and "日本人" in text  # labels: from the data
    assert "まだ値がありません: 4 枚が TBD（未定稿）です。" in text
    # Whoever builds it: a user asking for English gets the same Japanese PDF; a game that
    # says lang: en prints English.
    first = pdf.read_bytes()
    assert cardgen("--lang", "en", "build", "lastdance", "--stats", "-q").code == 0
    assert pdf.read_bytes() == first
    game = project / "cards/lastdance/game.yaml"
    game.write_text("lang: en\n" + game.read_text("utf-8"), "utf-8")
    assert cardgen("--lang", "ja", "build", "lastdance", "--stats", "-q").code == 0
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "4 players: a hand of 4 from 16: 1/20 = 5.00%, 1 in 20.0" in text and "Draw odds" in text
    game.write_text(game.read_text("utf-8").removeprefix("lang: en\n"), "utf-8")
    assert cardgen("build", "lastdance", "--stats", "-q").code == 0
    assert pdf.read_bytes() == first  # the same input, the same bytes


def test_affiliation_bars_take_the_affiliations_colours(project, cardgen):
    """The affiliations bar chart fills each bar with its affiliation's colour from
    affiliations.yaml (日本人 #f4a6c6, ベイオウルヴズ #7cc6ea, 無所属 #9a9a9a)."""
    import pikepdf
    chars = project / "cards/vampire-band/characters.yaml"  # TBD for ユウヒ, タチアナ: give one
    tbd = "affiliations: TBD                  # named in the note on "
    chars.write_text(chars.read_text("utf-8").replace(
        tbd + "水色のベイオウルヴズ; not said to be one", "affiliations: [beowulf]").replace(
        tbd + "灰色の無所属; not said to be one", "affiliations: [unaffiliated]"), "utf-8")
    assert cardgen("build", "vampire-band", "--stats", "-q").code == 0
    pdf = pikepdf.open(project / "output/vampire-band/vampire-band-stats.pdf")
    ops = b"".join(pikepdf.unparse_content_stream(pikepdf.parse_content_stream(p))
                   for p in pdf.pages)
    fills = {tuple(round(float(v) * 255) for v in m)
             for m in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", ops)}
    for hex_ in ("f4a6c6", "7cc6ea", "9a9a9a"):
        assert tuple(int(hex_[i:i + 2], 16) for i in (0, 2, 4)) in fills, hex_


def test_the_rulebook_shows_answers_that_follow_the_data(project, cardgen):
    book = project / "cards/lastdance/rulebook.md"
    book.write_text(book.read_text("utf-8") + """

# Designer notes

{% for a in odds('royal-opening') %}
- {{ a.label }}: {{ a.percent }} ({{ a.fraction }})
{% endfor %}
""", "utf-8")
    assert cardgen("build", "lastdance", "-q").code == 0
    reader = PdfReader(project / "output/lastdance/lastdance-rulebook.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "4 players: 5.00% (1/20)" in text and "8 players: 1.21% (3/248)" in text
    book.write_text(book.read_text("utf-8") + "{{ odds('royal-openin') }}\n", "utf-8")
    run = cardgen("validate", "lastdance")
    assert run.code == 1
    assert re.search(r"rulebook\.md:\d+:\d+: error: rulebook: odds: unknown question "
                     r"'royal-openin' \(did you mean 'royal-opening'\?\)", run.out)


def test_diff_says_what_changed_in_the_statistics(project, cardgen):
    """A revision that raises attack powers of one affiliation: diff gives the mean of
    power under that affiliation before and after, and the counts that moved."""
    folder = project / "cards/vampire-band"
    before = project.parent / "before"
    import shutil
    shutil.copytree(project, before, symlinks=True)
    actions = folder / "actions.yaml"

    def powers(values: tuple[int, ...]) -> str:
        cards = "".join(f"""
  - id: attack-{i}
    kind: attack
    name: 攻撃{i}
    effect: ダメージを与える
    power: {p}
    score: 1
    affiliations: [{'anti-tepes' if i % 2 else 'tepes'}]
    copies: 2
""" for i, p in enumerate(values))
        return actions.read_text("utf-8") + cards

    for root, values in ((before, (1, 2, 3, 2)), (project, (2, 4, 2, 3))):
        (root / "cards/vampire-band/actions.yaml").write_text(powers(values), "utf-8")
    run = cardgen("diff", "vampire-band", "--against", str(before))
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    start = lines.index("statistics:")
    stats = [line.strip() for line in lines[start + 1:]]
    assert "deck actions: 3 -> 11 cards" not in stats  # the same number of cards
    assert "deck actions: power: mean 2 -> 2.75" in stats
    assert "deck actions: power of 反ツェペッシュ家: mean 2 -> 3.5" in stats
    assert not any("power of ツェペッシュ家一門" in line for line in stats)  # 1, 3 -> 2, 2
    data = json.loads(cardgen("diff", "vampire-band", "--against", str(before),
                              "--format", "json").out)
    assert data["statistics"] == stats


def test_validate_locates_every_problem_in_the_declarations(project, cardgen):
    case = Path(__file__).parent / "bad_input" / "stats-declarations"
    expected = (case / "expected.txt").read_text("utf-8").splitlines()
    assert any("did you mean 'power'?" in line for line in expected)
    assert len(expected) == len(set(expected)) == 6  # each problem once, at its cause


def test_stats_command_names_an_unknown_deck_and_counts_several_games(project, cardgen):
    run = cardgen("stats", "lastdance", "--deck", "card")
    assert run.code == 2
    assert "game 'lastdance' has no deck 'card' (did you mean 'cards'?)" in run.err
    run = cardgen("stats", "lastdance", "odoriko", "--format", "json")
    assert run.code == 0
    assert [g["game"] for g in json.loads(run.out)] == ["lastdance", "odoriko"]
    text = cardgen("stats", "odoriko", "--deck", "playing").out
    assert "deck playing" in text and "deck characters" not in text
    assert "suit: spade 13, heart 13, diamond 13, club 13" in text


def test_a_chance_smaller_than_any_float_is_shown_by_its_size():
    """A hand of 200 cards that must all be one card of 88 kinds: about 10^-397. Its float
    is 0.0, and 1 / p overflows a float: it is shown by its size, never an internal error."""
    from fractions import Fraction
    from math import comb
    from generator.stats.results import Answer
    p = Fraction(comb(999, 200), comb(87912, 200))
    a = Answer("all-ones", "every card a one", "", 200, 87912, p)
    assert a.chance == 0.0 and a.one_in is None
    assert a.magnitude == pytest.approx(-398.09, abs=0.01)
    assert a.words() == "about 8.1 x 10^-397%, 1 in about 1.2 x 10^398"
    assert Answer("q", "", "", 4, 16, Fraction(1, 20)).words() == "1/20 = 5.00%, 1 in 20.0"


def test_the_stats_pdf_follows_the_games_paper(project, cardgen):
    """A game on US Letter gets its statistics on Letter, not A4; a meishi game on A4."""
    from pdfcheck import page_size_mm, reader
    assert cardgen("new", "usdeck", "--size", "2.5x3.5in", "--paper", "letter").code == 0
    assert cardgen("build", "--stats", "usdeck", "lastdance").code == 0
    w, h = page_size_mm(reader(project / "output/usdeck/usdeck-stats.pdf").pages[0])
    assert abs(w - 215.9) < 0.1 and abs(h - 279.4) < 0.1
    w, h = page_size_mm(reader(project / "output/lastdance/lastdance-stats.pdf").pages[0])
    assert abs(w - 210) < 0.1 and abs(h - 297) < 0.1


def test_a_number_field_of_few_values_is_counted_per_value(project, cardgen):
    """Points of 10, 20, 25, 30, 40 and 50 (a range too wide for a bar per integer) are six
    bars, one per value, not ranges such as "10–14"; so are nine fractional weights."""
    from conftest import write_game
    points = [10, 20, 20, 25, 30, 40, 40, 40, 50]
    write_game(project, "few", {"title": "few", "decks": [{"id": "d"}]},
               [{"id": f"c{n}", "name": f"C{n}", "points": p, "weight": n * 7.3}
                for n, p in enumerate(points)])
    run = cardgen("stats", "few", "--format", "json")
    assert run.code == 0, run.err
    fields = {f["field"]: f for f in json.loads(run.out)["decks"][0]["distributions"]}
    assert fields["points"]["counts"] == {"10": 1, "20": 2, "25": 1, "30": 1, "40": 3, "50": 1}
    assert len(fields["weight"]["counts"]) == 9  # nine values: each one a bar too


def test_an_odds_counts_naming_nothing_is_a_located_error(project, cardgen):
    """`counts: A4` is a bare name that is not defined: said at counts, in words, not an
    internal error where the value is first used."""
    from conftest import write_game
    write_game(project, "named", {
        "title": "named", "decks": [{"id": "main"}],
        "stats": {"odds": [{"id": "first", "question": "the first card", "deck": "main",
                            "hand": 2, "need": [{"cards": ["one"]}], "counts": "A4"}]}},
        [{"id": "one", "name": "One"}, {"id": "two", "name": "Two"}])
    run = cardgen("validate", "named")
    assert run.code == 1, run.lines
    errors = [line for line in run.lines if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith("cards/named/game.yaml:") and \
        "odds 'first': counts cannot be evaluated: 'A4' is not defined here [stats]" \
        in errors[0], run.lines


def test_an_empty_bar_carries_no_label_and_headings_keep_with_their_charts(project, cardgen):
    """A bar of 0 says nothing (a cross-table chart printed dozens of "0"); the value axis
    still starts at 0. The stats PDF's headings keep with what follows them."""
    import re

    from generator.draw.charts import Chart, Series, svg
    from generator.write.stats import _styles
    chart = Chart("kinds", ("a", "b", "c", "d"), (Series("kinds", (0, 3, 0, 2)),),
                  ((0.2, 0.3, 0.5),))
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg(chart, "Helvetica"))
    assert texts.count("3") == 2 and texts.count("2") == 2  # the bar labels and the axis
    assert texts.count("0") == 1  # the axis's origin only, no empty bar's label
    assert all(style.keepWithNext for name, style in _styles("Helvetica", "Helvetica").items()
               if name.startswith("h"))


def test_the_stats_pdf_counts_one_kind_in_the_singular(project, cardgen):
    """A deck of 4 copies of one card is "4 cards, 1 kind", not "1 kinds"."""
    import pypdf
    from conftest import write_game
    write_game(project, "single", {"title": "Single", "decks": [{"id": "main"}]},
               [{"id": "one", "name": "One", "copies": 4}])
    assert cardgen("build", "single", "--stats").code == 0
    text = " ".join(page.extract_text() for page in
                    pypdf.PdfReader(str(project / "output/single/single-stats.pdf")).pages)
    assert "4 cards, 1 kind" in text and "1 kinds" not in text, text


def test_an_integer_field_too_wide_for_a_bar_each_is_binned_into_whole_ranges(project,
                                                                               cardgen):
    """The 55 stations of a route game numbered 0 to 54 are six bars of whole numbers
    (0–9 ... 50–54), not ten fractional ranges (0–5.4, 5.4–10.8) no card's number is in;
    a field of fractions is still binned in equal ranges."""
    from conftest import write_game
    write_game(project, "route", {"title": "route", "decks": [{"id": "d"}]},
               [{"id": f"s{n}", "name": f"S{n}", "number": n, "weight": n * 0.37}
                for n in range(55)])
    run = cardgen("stats", "route", "--format", "json")
    assert run.code == 0, run.err
    fields = {f["field"]: f for f in json.loads(run.out)["decks"][0]["distributions"]}
    assert fields["number"]["counts"] == {"0–9": 10, "10–19": 10, "20–29": 10, "30–39": 10,
                                          "40–49": 10, "50–54": 5}
    assert list(fields["weight"]["counts"])[:2] == ["0–2", "2–4"]
