"""Every cause `cardgen diff` gives is computed from what printed (issue 58, item 2): a card
is reprinted "because" of exactly the inputs its face read (its fields, every changed key
of its layout, the data values and the deck's and game's words its templates took), a
board's changed spaces are named by the label they print, a change that prints nothing
is said as such, and a board page with no changed pixels is not "changed".

A small game (role cards whose layout reads one part of a data table, a track board drawn
from another part of it) is committed, revised, and the text and JSON read back line by line.
"""

from __future__ import annotations

import json
import re

import pypdf
import pytest
from markdown_it import MarkdownIt

from conftest import git, write_game

ROLE = {"size": "meishi", "elements": [
    {"name": "title", "type": "text", "text": "{{ card.name }}", "x": "4mm", "y": "3mm",
     "width": "100% - 8mm", "height": "8mm", "size": "9pt"},
    {"name": "power", "type": "text", "text": "Power {{ data.board.roles[card.id].power }}",
     "x": "4mm", "y": "12mm", "width": "100% - 8mm", "height": "6mm", "size": "8pt"},
    {"name": "body", "type": "text", "text": "{{ card.text }}", "x": "4mm", "y": "20mm",
     "width": "100% - 8mm", "height": "30mm", "size": "8pt"}]}

BOARD = ("roles:\n  scout: {power: 2}\n  guard: {power: 3}\nprices: {plain: 1, water: 2}\n"
         "types:\n  plain: {color: '#ebe5c9'}\n  water: {color: '#9ecbe8'}\n"
         "track:\n" + "".join(f"  - {{column: {c}, row: 1, label: '{c}', type: plain, "
                              f"note: space {c}}}\n" for c in range(1, 9)) +
         "long:\n" + "".join(f"  - {{column: {c}, row: 1, type: plain}}\n" for c in range(1, 17)))
# what draws each space of the track: its price, from the data
CELL = {"size": ["25mm", "25mm"], "elements": [
    {"name": "price", "type": "text", "text": "{{ data.board.prices[card.type] }}",
     "x": "2mm", "y": "16mm", "width": "21mm", "height": "7mm", "size": "9pt"}]}
# a board of 16 spaces in a row, split over A4 pages
LONG = {"shape": "grid", "cell": ["25mm", "25mm"], "rows": 1, "columns": 16, "margin": "8mm",
        "papers": ["A4"], "overlap": "12mm", "print_margin": "6mm", "color": "#ede8da"}


@pytest.fixture
def game(project):
    folder = write_game(project, "roles", {
        "title": "Roles", "lang": "en",
        "decks": [{"id": "roles", "front": "role-front",
                   "fields": {"name": {"type": "text"}, "text": {"type": "text"},
                              "notes": {"type": "text"}}}],
        "data": {"board": "board.yaml"},
        "boards": [{"id": "track", "layout": "grid", "cells": "data.board.track",
                    "types": "data.board.types", "cell": "track-cell"},
                   {"id": "long", "layout": "long", "cells": "data.board.long",
                    "types": "data.board.types"}],
    }, [{"id": "scout", "name": "Scout", "text": "Look at a card.", "notes": "playtest 1"},
        {"id": "guard", "name": "Guard", "text": "Block a scout.", "notes": "fine"}],
        layouts={"role-front": ROLE, "boards/long": LONG, "track-cell": CELL},
        files={"board.yaml": BOARD.encode()})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    return folder


def _edit(path, *pairs):
    text = path.read_text("utf-8")
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, "utf-8")


def test_each_reprint_is_caused_by_what_its_face_read(game, project, cardgen):
    """A field the face prints and one it does not, a role's value and the track's values
    in one data table, and a layout element changed in four keys."""
    _edit(game / "cards.yaml", ("Look at a card.", "Look at two cards."),
          ("playtest 1", "playtest 2"), ("id: guard\n", "id: guard\n  copies: 2\n"))
    _edit(game / "board.yaml", ("guard: {power: 3}", "guard: {power: 4}"),
          *((f"label: '{c}', type: plain", f"label: '{c}', type: water") for c in (3, 5, 7)),
          ("note: space 8", "note: the last space"))
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    # the track's values are not a cause of the roles (one table, another part of it); the
    # notes the face does not print, and a space's note the board does not, print nothing
    assert run.out.splitlines() == [
        "roles: 0 added, 0 removed, 2 reprinted (2 fronts, 0 backs), 0 with other copies; "
        "2 changes print nothing",
        "~ card 'scout' (roles): reprint front",
        "    field text: Look at a card. -> Look at two cards.",
        "~ card 'guard' (roles): reprint front; copies 1 -> 2",
        "    data board.roles.guard.power: 3 -> 4",
        "changes that print nothing:",
        "    card 'scout' field notes: playtest 1 -> playtest 2",
        "    data board.track[7].note: space 8 -> the last space",
        "~ board 'track': page 1 of 1 prints differently",
        "    cell 3 type: plain -> water",
        "    cell 5 type: plain -> water",
        "    cell 7 type: plain -> water",
        "statistics:", "    deck roles: 2 -> 3 cards"], run.out
    report = json.loads(cardgen("diff", "roles", "--format", "json").out)
    assert {r["id"]: r["causes"] for r in report["reprinted"]} == {
        "scout": ["field text: Look at a card. -> Look at two cards."],
        "guard": ["data board.roles.guard.power: 3 -> 4"]}
    assert report["prints_nothing"] == ["card 'scout' field notes: playtest 1 -> playtest 2",
                                        "data board.track[7].note: space 8 -> the last space"]
    assert report["boards"] == [{"board": "track", "pages": [1], "pages_before": 1,
                                 "pages_after": 1, "causes": [
                                     f"cell {n} type: plain -> water" for n in (3, 5, 7)]}]
    markdown = cardgen("diff", "roles", "--format", "markdown").out.splitlines()
    assert markdown == [
        "# Roles: changes since HEAD", "",
        "## Cards", "",
        "- Scout: text “Look at ~~a~~ **two** ~~card~~ **cards**.”",
        "- Guard: board.roles.guard.power 3 → 4",
        "- Guard: 2 copies (was 1)", "",
        "## Components", "",
        *(f"- Board “track”: space {n}: type plain → water" for n in (3, 5, 7)), ""], markdown


def test_a_layout_change_of_several_keys_is_said_whole(game, cardgen):
    """Every changed key of an element is said (they stopped at three), and an element
    is a cause only of the faces it draws on."""
    import yaml
    path = game.parent.parent / "layouts" / "role-front.yaml"
    layout = yaml.safe_load(path.read_text("utf-8"))
    layout["elements"][0].update(x="5mm", y="3.5mm", size="10pt", height="9mm")
    layout["elements"].append({  # drawn on the guard only: not a cause of the scout
        "name": "badge", "type": "text", "text": "Guard", "when": "card.id == 'guard'",
        "x": "4mm", "y": "45mm", "width": "20mm", "height": "5mm", "size": "6pt"})
    path.write_text(yaml.safe_dump(layout, sort_keys=False), "utf-8")
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    cause = ("    layout 'role-front': element 'title' (height: 8mm -> 9mm, size: 9pt -> 10pt, "
             "x: 4mm -> 5mm, y: 3mm -> 3.5mm)")
    assert run.out.splitlines()[1:] == [
        "~ card 'scout' (roles): reprint front", cause,
        "~ card 'guard' (roles): reprint front", cause,
        "    layout 'role-front': element 'badge' added"], run.out


def test_a_board_page_with_no_changed_pixels_is_not_changed(game, project, cardgen):
    """A board split over pages places the whole board on each, clipped: a space changed
    at its left end changes the first page's pixels, not the others'."""
    _edit(game / "board.yaml", ("- {column: 1, row: 1, type: plain}",
                                "- {column: 1, row: 1, type: water}"))
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    assert run.out.splitlines()[1:] == [
        "~ board 'long': page 1 of 2 prints differently", "    cell A1 type: plain -> water"]
    assert cardgen("build", "roles", "--changed-since", "HEAD").code == 0
    guide = (project / "output/roles/roles-errata-print-guide.txt").read_text("utf-8")
    assert "board 'long': print page 1 of 2 again (cell A1 type: plain -> water)" in guide


def test_the_live_changes_view_follows_every_save(game, project, monkeypatch):
    """`serve --changes-since HEAD`: a change appears at the save that makes it, and goes
    at the save that reverts it, in the page as it is (no reload); the revision is read,
    checked and laid out once for the whole run, not at every save."""
    import threading
    import time
    import urllib.request
    from browser import chrome
    from generator import diff
    from generator.load import Project
    from generator.serve import serve
    made = []
    original = diff.Revision.__init__

    def counted(self, *args, **kwargs):
        made.append(args)
        original(self, *args, **kwargs)
    monkeypatch.setattr(diff.Revision, "__init__", counted)
    address, stop, builds = {}, threading.Event(), []
    threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game="roles", port=0, stop=stop, since="HEAD",
        report=lambda preview: builds.append(preview.version),
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}"))).start()

    def state():
        with urllib.request.urlopen(address["url"] + "/state.json", timeout=5) as r:
            return json.loads(r.read())

    def until(check, what):
        deadline = time.monotonic() + 60
        while True:
            if "url" in address:
                now = state()
                if now.get("built_at") and not now.get("building") and check(now):
                    return now
            assert time.monotonic() < deadline, what
            time.sleep(0.2)

    def shown(browser):
        return browser.execute_script(
            "return [window.kept, [...document.querySelectorAll('.change figcaption code')]"
            ".map(c => c.textContent), document.querySelector('#changes').textContent]")
    try:
        until(lambda s: s["changes"] == [], "the first build")
        with chrome() as browser:
            browser.get(address["url"] + "/")
            browser.execute_script("window.kept = 1")  # gone if the page reloads
            assert shown(browser) == [1, [], "Nothing printed has changed."]
            cards = game / "cards.yaml"
            first = cards.read_text("utf-8")
            cards.write_text(first.replace("Look at a card.", "Look at two cards."), "utf-8")
            now = until(lambda s: [c["id"] for c in s["changes"]] == ["scout"], "the change")
            assert now["changes"][0]["causes"] == [
                "field text: Look at a card. -> Look at two cards."]
            _until_shown(browser, shown, [1, ["scout"]])
            cards.write_text(first, "utf-8")  # reverted: the change goes
            until(lambda s: s["changes"] == [], "the revert")
            _until_shown(browser, shown, [1, [], "Nothing printed has changed."])
            _edit(game / "board.yaml", ("guard: {power: 3}", "guard: {power: 4}"))
            until(lambda s: [c["id"] for c in s["changes"]] == ["guard"], "a new change")
            _until_shown(browser, shown, [1, ["guard"]])
        assert len(made) == 1 and len(builds) >= 4  # one revision, four builds
    finally:
        stop.set()


def _until_shown(browser, shown, expected):
    import time
    deadline = time.monotonic() + 30
    while shown(browser)[:len(expected)] != expected:
        assert time.monotonic() < deadline, (shown(browser), expected)
        time.sleep(0.1)


RULES = {"en": """# Roles

| Role | Power |
|---|---|
{% for id, role in data.board.roles.items() %}| {{ id }} | {{ role.power }} |
{% endfor %}

# Track

Move along the track; a water space costs one more step.
""", "ja": """# 役割

| 役割 | 力 |
|---|---|
{% for id, role in data.board.roles.items() %}| {{ id }} | {{ role.power }} |
{% endfor %}

# 進路

進路に沿って進みます。水のマスは1歩多くかかります。
"""}
NAMES = {"en": ("Scout", "Guard", "Look at a card.", "Block a scout."),
         "ja": ("斥候", "衛兵", "カードを1枚見る。", "斥候を防ぐ。")}


def _revision_game(project, lang):
    scout, guard, look, block = NAMES[lang]
    folder = write_game(project, lang, {
        "title": {"en": "Roles", "ja": "役割"}[lang], "lang": lang,
        "decks": [{"id": "roles", "front": "role-front",
                   "fields": {"name": {"type": "text"}, "text": {"type": "text"},
                              "notes": {"type": "text"}}}],
        "data": {"board": "board.yaml"},
        "rulebook": {"template": "rulebook.md", "page": "A5"},
        "boards": [{"id": "track", "layout": "grid", "cells": "data.board.track",
                    "types": "data.board.types"},
                   {"id": "score", "layout": "track-line", "first": 0, "last": 10}],
    }, [{"id": "scout", "name": scout, "text": look, "notes": "1"},
        {"id": "guard", "name": guard, "text": block, "notes": "1"}],
        layouts={"role-front": ROLE}, files={"board.yaml": BOARD.encode(),
                                             "rulebook.md": RULES[lang].encode()})
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    return folder


TITLE = "(height: 8mm -> 9mm, size: 9pt -> 10pt, x: 4mm -> 5mm, y: 3mm -> 3.5mm)"
REVISED = {
    "en": {
        "text": [
            "en: 0 added, 0 removed, 2 reprinted (2 fronts, 0 backs), 0 with other copies; "
            "0 changes print nothing",
            "~ card 'scout' (roles): reprint front",
            f"    layout 'role-front': element 'title' {TITLE}",
            "~ card 'guard' (roles): reprint front",
            "    data board.roles.guard.power: 3 -> 4",
            f"    layout 'role-front': element 'title' {TITLE}",
            "~ rulebook: 3 pages",
            "    page 3: content changed",
            "    booklet sheet to reprint: 1",
            "    ~ section 'Roles' (p. 3): row 'guard', Power: 3 -> 4",
            "    data board.roles.guard.power: 3 -> 4: rulebook p. 3",
            "~ board 'track': page 1 of 1 prints differently",
            "    cell 3 type: plain -> water",
            "    cell 5 type: plain -> water",
            "    cell 7 type: plain -> water",
            "~ board 'score': pages 1, 2 of 2 print differently (1 -> 2 pages)",
            "    the board's numbers: 0–10 -> 0–15"],
        "markdown": [
            "# Roles: changes since HEAD\\~1", "",
            "## Cards", "",
            "- Guard: board.roles.guard.power 3 → 4", "",
            "## Rules", "",
            "- Roles: guard, Power: 3 → 4 (p. 3)", "",
            "## Components", "",
            "- Board “track”: space 3: type plain → water",
            "- Board “track”: space 5: type plain → water",
            "- Board “track”: space 7: type plain → water",
            "- Board “score”: the board's numbers: 0–10 → 0–15", ""],
        "page": "guard4"},
    "ja": {
        "text": [
            "ja: 追加 0、削除 0、刷り直し 2（表面 2、裏面 0）、枚数の変更 0。"
            "刷るものが変わらない変更 0 件",
            "~ カード「scout」（roles）: 表面を刷り直し",
            f"    レイアウト「role-front」: 要素「title」（{TITLE[1:-1]}）",
            "~ カード「guard」（roles）: 表面を刷り直し",
            "    データ board.roles.guard.power: 3 -> 4",
            f"    レイアウト「role-front」: 要素「title」（{TITLE[1:-1]}）",
            "~ ルールブック: 3 ページ",
            "    3 ページ: 内容が変わりました",
            "    刷り直す小冊子のシート: 1",
            "    ~ 節「役割」（3 ページ）: 行「guard」、力: 3 -> 4",
            "    データ board.roles.guard.power: 3 -> 4: ルールブック 3 ページ",
            "~ ボード「track」: 1 ページ中 1 ページの刷り上がりが変わります",
            "    マス 3 の type: plain -> water",
            "    マス 5 の type: plain -> water",
            "    マス 7 の type: plain -> water",
            "~ ボード「score」: 2 ページ中 1、2 ページの刷り上がりが変わります（1 -> 2 ページ）",
            "    ボードの numbers: 0–10 -> 0–15"],
        "markdown": [
            "# 役割：HEAD\\~1 からの変更点", "",
            "## カード", "",
            "- 衛兵：board.roles.guard.power 3 → 4", "",
            "## ルール", "",
            "- 役割：guard、力：3 → 4（3ページ）", "",
            "## コンポーネント", "",
            "- ボード「track」：マス3：type plain → water",
            "- ボード「track」：マス5：type plain → water",
            "- ボード「track」：マス7：type plain → water",
            "- ボード「score」：ボードの numbers: 0–10 → 0–15", ""],
        "page": "guard4"},
}
# JSON is for scripts: its words are English whatever the game's language
JSON_CAUSES = {
    "scout": [f"layout 'role-front': element 'title' {TITLE}"],
    "guard": ["data board.roles.guard.power: 3 -> 4",
              f"layout 'role-front': element 'title' {TITLE}"]}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_revision_with_a_reverted_change_a_track_a_layout_and_a_table(project, cardgen,
                                                                         lang):
    """Committed: a card's text and a role's power changed. Then, in the working tree, the
    text reverted, the track's spaces 3, 5 and 7 and the score track's length changed, a
    layout element changed in four keys. Against the first commit, every line of the text,
    the JSON and the Markdown is true, and the reverted change is nowhere."""
    import yaml
    folder = _revision_game(project, lang)
    scout, guard, look, block = NAMES[lang]
    cards = folder / "cards.yaml"
    first = cards.read_text("utf-8")
    cards.write_text(first.replace(look, look + "!"), "utf-8")
    _edit(folder / "board.yaml", ("guard: {power: 3}", "guard: {power: 4}"))
    git(project, "commit", "-qam", "v2")
    cards.write_text(first, "utf-8")  # reverted
    _edit(folder / "board.yaml",
          *((f"label: '{c}', type: plain", f"label: '{c}', type: water") for c in (3, 5, 7)))
    _edit(folder / "game.yaml", ("last: 10", "last: 15"))
    path = project / "layouts" / "role-front.yaml"
    layout = yaml.safe_load(path.read_text("utf-8"))
    layout["elements"][0].update(x="5mm", y="3.5mm", size="10pt", height="9mm")
    path.write_text(yaml.safe_dump(layout, sort_keys=False), "utf-8")
    run = cardgen("diff", "--rev", "HEAD~1", lang)
    assert run.code == 0, run.err
    expected = REVISED[lang]
    assert run.out.splitlines() == expected["text"], run.out
    report = json.loads(cardgen("diff", "--rev", "HEAD~1", "--format", "json", lang).out)
    assert {r["id"]: r["causes"] for r in report["reprinted"]} == JSON_CAUSES
    assert report["prints_nothing"] == [] and report["copies"] == []
    book = report["rulebook"]
    assert (book["reprint"], book["booklet_sheets"]) == ([3], [1])
    assert book["text"] == ["~ section '" + ("Roles" if lang == "en" else "役割") + "' (p. 3): "
                            "row 'guard', " + ("Power" if lang == "en" else "力") + ": 3 -> 4"]
    assert book["data"] == ["data board.roles.guard.power: 3 -> 4: rulebook p. 3"]
    assert [(b["board"], b["pages"], b["causes"]) for b in report["boards"]] == [
        ("track", [1], [f"cell {n} type: plain -> water" for n in (3, 5, 7)]),
        ("score", [1, 2], ["the board's numbers: 0–10 -> 0–15"])]
    md = cardgen("diff", "--rev", "HEAD~1", "--format", "markdown", lang).out
    assert md.splitlines() == expected["markdown"], md
    html = MarkdownIt("commonmark").render(md)
    assert html.count("<li>") == sum(1 for line in md.splitlines() if line.startswith("- "))
    assert "\\" not in re.sub(r"<[^>]+>", "", html) and "HEAD~1" in html
    # the reverted text is nowhere; the page named prints the row
    for said in (run.out, json.dumps(report, ensure_ascii=False), md):
        assert look not in said and look + "!" not in said
    assert cardgen("build", lang).code == 0
    pdf = pypdf.PdfReader(project / "output" / lang / f"{lang}-rulebook.pdf")
    printed = [re.sub(r"\s+", "", page.extract_text()) for page in pdf.pages]
    assert [n for n, text in enumerate(printed, 1) if expected["page"] in text] == [3]


def test_a_section_with_no_text_of_its_own_is_on_the_page_of_what_follows_it():
    """A title over its subsections has no paragraph to be found by: its heading alone is
    also on the contents page, which is not where it is."""
    from generator.diff.printed import rule_changes
    pages = [("1", "MyGame"), ("2", "Contents:Rules3Setup3Turn4"),
             ("3", "RulesSetupDealfivecards."), ("4", "TurnDrawacard,thenplayone.")]
    old = "# Setup\n\nDeal five cards.\n\n# Turn\n\nDraw a card, then play one.\n"
    new = "# Rules\n\n## Setup\n\nDeal five cards.\n\n## Turn\n\nDraw a card, then play one.\n"
    said = [(c.how, c.path, c.page) for c in rule_changes(old, new, pages)]
    assert said == [("+", ("Rules",), 3), (">", ("Rules", "Setup"), 3),
                    (">", ("Rules", "Turn"), 4)]


def test_a_board_layout_value_is_named_as_it_is_written(game, project, cardgen):
    """A board layout's margin and ground changed: each said by its key, in mm and hex."""
    import yaml
    path = project / "layouts" / "boards" / "long.yaml"
    layout = yaml.safe_load(path.read_text("utf-8"))
    layout.update(margin="10mm", color="#ffffff")
    path.write_text(yaml.safe_dump(layout, sort_keys=False), "utf-8")
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    assert run.out.splitlines()[1:] == [
        "~ board 'long': pages 1, 2 of 2 print differently",
        "    the board's margin: 8mm -> 10mm", "    the board's color: #ede8da -> #ffffff"]


def test_a_data_value_a_cell_layout_prints_and_a_tile_reprinted_are_a_boards_causes(
        game, project, cardgen):
    """The track's cells print their type's price from the data: a price changed is the
    board's cause (not a change that prints nothing); a role placed on a ring as a tile,
    reprinted, is the ring's."""
    _edit(game / "game.yaml", ("boards:\n", "boards:\n- id: ring\n  layout: ring\n"
                                           "  deck: roles\n  cards: [scout, guard]\n"))
    git(project, "commit", "-qam", "a ring")
    _edit(game / "board.yaml", ("prices: {plain: 1,", "prices: {plain: 2,"))
    _edit(game / "cards.yaml", ("Look at a card.", "Look at two cards."))
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    assert run.out.splitlines()[1:] == [
        "~ card 'scout' (roles): reprint front",
        "    field text: Look at a card. -> Look at two cards.",
        "~ board 'ring': page 1 of 1 prints differently",
        "    the tile 'scout' it places (its face changed)",
        "~ board 'track': page 1 of 1 prints differently",
        "    data board.prices.plain: 1 -> 2"], run.out


def test_a_map_says_its_places_and_routes_by_name(project, cardgen):
    """A route map revised: a place moved, one added, a route's style changed, a route
    added; each said by the place's label and the places a route joins, and a route only
    moved in its file or turned round is not a change."""
    import yaml
    folder = write_game(project, "atlas", {
        "title": "Atlas", "lang": "en",
        "decks": [{"id": "cities", "fields": {"name": {"type": "text"}}}],
        "boards": [{"id": "europe", "layout": "map", "cells": [
            {"id": "paris", "label": "Paris", "x": "30%", "y": "40%"},
            {"id": "lyon", "label": "Lyon", "x": "45%", "y": "75%"},
            {"id": "lille", "label": "Lille", "x": "35%", "y": "12%"}],
            "routes": [{"from": "paris", "to": "lyon"}, {"from": "paris", "to": "lille"},
                       {"from": "lyon", "to": "lille"}]}]}, [{"id": "paris", "name": "Paris"}])
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    game = yaml.safe_load((folder / "game.yaml").read_text("utf-8"))
    board = game["boards"][0]
    board["cells"][1]["x"] = "50%"
    board["routes"] = [{"from": "paris", "to": "lille"},  # (moved in the file: no change)
                       {"from": "paris", "to": "lyon", "style": "dashed"},
                       {"from": "lille", "to": "lyon"},  # (turned round: no change)
                       {"from": "lyon", "to": "marseille"}]
    board["cells"].append({"id": "marseille", "label": "Marseille", "x": "50%", "y": "90%"})
    board["routes"] = [r for r in board["routes"] if r != {"from": "paris", "to": "lille"}] + [
        {"from": "paris", "to": "lille"}]
    (folder / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False), "utf-8")
    run = cardgen("diff", "atlas")
    assert run.code == 0, run.err
    assert run.out.splitlines()[1:] == [
        "~ board 'europe': page 1 of 1 prints differently",
        "    cell Lyon x: 45% -> 50%",
        "    cell Marseille added",
        "    route Paris – Lyon style: solid -> dashed",
        "    route Lyon – Marseille added"], run.out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_wrapping_route_is_another_route_than_the_direct_one(project, cardgen, lang):
    """A map may join two places directly and round its edge (boards/map.py): diff took
    them for one route (the direct one's changes were the wrapping one's, one of the two
    was never said). Each is its own route, the wrapping one said with the edge it
    crosses."""
    import yaml
    folder = write_game(project, "atlas", {
        "title": "Atlas", "lang": lang,
        "decks": [{"id": "cities", "fields": {"name": {"type": "text"}}}],
        "boards": [{"id": "world", "layout": "map", "cells": [
            {"id": "tokyo", "label": "Tokyo", "x": "90%", "y": "40%"},
            {"id": "lima", "label": "Lima", "x": "10%", "y": "60%"}],
            "routes": [{"from": "tokyo", "to": "lima"},
                       {"from": "tokyo", "to": "lima", "wrap": "right"}]}]},
        [{"id": "tokyo", "name": "Tokyo"}])
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    game = yaml.safe_load((folder / "game.yaml").read_text("utf-8"))
    game["boards"][0]["routes"] = [{"from": "tokyo", "to": "lima", "wrap": "right",
                                    "style": "dashed"}]
    (folder / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False), "utf-8")
    run = cardgen("--lang", lang, "diff", "atlas")
    assert run.code == 0, run.err
    assert run.out.splitlines()[2:] == {
        "en": ["    route Tokyo – Lima, across the right edge style: solid -> dashed",
               "    route Tokyo – Lima removed"],
        "ja": ["    ルート Tokyo – Lima（右端を越える）の style: solid -> dashed",
               "    ルート Tokyo – Lima が削除されました"]}[lang], run.out
