"""Le Dernier Peuple (seed 002): tiles, ring boards, movement and power cards; boards are
measured on rasterised pages, split boards reassembled from their pages."""

from __future__ import annotations

import math
import re
import textwrap

import pytest

from pdfcheck import Raster, as_written, page_size_mm, reader
from test_validate_lastdance import edit


def test_validates_with_the_composition_draft(project, cardgen):
    run = cardgen("validate", "dernier-peuple")
    assert run.code == 0, run.lines
    assert [line for line in run.lines if ": warning: " in line or ": error: " in line] == [
        "cards/dernier-peuple/decks.yaml:3:23: warning: data decks.movement_composition is TBD "
        "(draft) [draft]",
        # the two movement cards are the rules' examples: how many of each is not given
        "cards/dernier-peuple/movement.yaml:10:13: warning: card 'grey-example': copies is TBD "
        "(draft) [draft]",
        "cards/dernier-peuple/movement.yaml:17:13: warning: card 'black-example': copies is TBD "
        "(draft) [draft]"]


def test_builds_cards_tiles_boards_aid_and_rulebook(project, cardgen):
    run = cardgen("build", "dernier-peuple")
    assert run.code == 0, run.lines
    out = project / "output/dernier-peuple"
    fronts = reader(out / "dernier-peuple-fronts.pdf")
    tiles = "".join(fronts.pages[0].extract_text().split())
    for n in range(1, 21):
        assert str(n) in tiles
    assert tiles.count("ホーム") == 5 and tiles.count("つるはし") == 5
    text = "".join("".join(p.extract_text().split()) for p in fronts.pages)
    for name in ("強靭", "Force", "防御", "Defence", "得点のまとめ"):
        assert name in text
    assert "挟まれたプレイヤーは1点を失います。" in text  # the aid, from scoring.yaml
    for players, pages in ((3, 1), (4, 4), (5, 4)):
        board = reader(out / f"dernier-peuple-board-{players}p.pdf")
        assert len(board.pages) == pages
        if pages == 1:
            w, h = sorted(page_size_mm(board.pages[0]))
            assert abs(w - 297) < 0.2 and abs(h - 420) < 0.2  # A3
    rulebook = as_written("".join("".join(p.extract_text().split())  # 1〜12: the seed's 1~12
                                  for p in reader(out / "dernier-peuple-rulebook.pdf").pages))
    # from board.yaml
    assert "3人プレイの場合は1~12番のタイル、4人プレイの場合は1~16番のタイル" in rulebook
    assert "18番は黒プレイヤーのホーム(5番手プレイヤー)となります。" in rulebook


@pytest.mark.parametrize("change,error", [
    ("split: [4, 1]",
     "cards/dernier-peuple/movement.yaml:13:12: error: grey-example: the split 3 then 1 "
                      "adds up to 4, not 5 [split-sums]"),
])
def test_movement_card_checks(project, cardgen, change, error):
    new = {"split: [4, 1]": "split: [3, 1]"}[change]
    edit(project / "cards/dernier-peuple/movement.yaml", change, new)
    run = cardgen("validate", "dernier-peuple")
    assert run.code == 1
    assert [line for line in run.lines if ": error: " in line] == [error]


def test_no_check_holds_a_direct_tile_to_a_limit_the_seed_does_not_state(project, cardgen):
    """Seed 002 says a card's square number is a tile to move to directly
    (矢印下部に四角で囲んで書いてある数値は「その番号のタイルに直接移動することもできる」),
    and nothing of how large it may be: a direct tile 25 is the designer's to choose."""
    edit(project / "cards/dernier-peuple/movement.yaml", "direct: 5", "direct: 25")
    run = cardgen("validate", "dernier-peuple")
    assert run.code == 0 and not [line for line in run.lines if ": error: " in line]


def test_a_ring_missing_a_home_is_reported(project, cardgen):
    edit(project / "cards/dernier-peuple/board.yaml", "{players: 4, first: 1, last: 16}",
         "{players: 4, first: 1, last: 13}")
    run = cardgen("validate", "dernier-peuple")
    errors = [line for line in run.lines if ": error: " in line]
    assert "cards/dernier-peuple/board.yaml:11:5: error: 4 players: tiles 1-13 hold 3 homes, " \
           "not 4 [ring-homes]" in errors
    assert "cards/dernier-peuple/board.yaml:11:5: error: 4 players: tiles 1-13 hold 3 pickaxe " \
           "tiles, not 4 [ring-pickaxes]" in errors


# --- board geometry ------------------------------------------------------------------------

N, RADIUS, TILE, MARGIN, PRINT = 8, 60.0, 30.0, 10.0, 6.0


def make_ring(project, papers: str) -> None:
    (project / "layouts/boards/test-ring.yaml").write_text(textwrap.dedent(f"""
        shape: ring
        start_angle: 90
        direction: clockwise
        radius: {RADIUS}mm
        margin: {MARGIN}mm
        papers: {papers}
        overlap: 10mm
        print_margin: {PRINT}mm
        color: "#ffffff"
    """), "utf-8")
    (project / "layouts/test-dot.yaml").write_text(textwrap.dedent(f"""
        size: [{TILE}mm, {TILE}mm]
        bleed: 0mm
        elements:
          - {{name: dot, type: circle, x: 50% - 2mm, y: 50% - 2mm, width: 4mm, height: 4mm,
             fill: "#ff0000"}}
    """), "utf-8")
    game = project / "cards/ring"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text(textwrap.dedent(f"""
        title: 輪
        decks:
          - {{id: tiles, cards: tiles.yaml, sheet: plain-a4, front: test-dot, back: test-dot}}
        boards:
          - {{id: ring, title: "", layout: test-ring, deck: tiles,
             cards: {{first: t0, last: t{N - 1}}}}}
    """), "utf-8")
    (game / "tiles.yaml").write_text("generate:\n  each:\n    n: [" + ", ".join(map(str, range(N)))
                                     + "]\n  id: \"t{{ n }}\"\n", "utf-8")


def dots(raster: Raster, inside=None) -> list[tuple[float, float]]:
    """Centres (mm, page) of the red blobs (the tiles' dots) on a page; with `inside`
    (x0, y0, x1, y1 in mm), only blobs wholly inside it (a cut blob has a false centre)."""
    # Red pixels only: alignment crosses and text are black.
    w, h = raster.image.size
    rgb = raster.pixels

    def is_red(q) -> bool:
        r, g, b = rgb[q]
        return r > 150 and g < 90 and b < 90

    seen = set()
    found = []
    for y in range(h):
        for x in range(w):
            if (x, y) not in seen and is_red((x, y)):
                stack, blob = [(x, y)], []
                seen.add((x, y))
                while stack:
                    a, b = stack.pop()
                    blob.append((a, b))
                    for q in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                        if 0 <= q[0] < w and 0 <= q[1] < h and q not in seen and is_red(q):
                            seen.add(q)
                            stack.append(q)
                xs = [p[0] / raster.px_per_mm for p in blob]
                ys = [p[1] / raster.px_per_mm for p in blob]
                if len(blob) > 20 and (inside is None or (
                        min(xs) > inside[0] + 0.3 and min(ys) > inside[1] + 0.3
                        and max(xs) < inside[2] - 0.3 and max(ys) < inside[3] - 0.3)):
                    found.append((sum(xs) / len(xs), sum(ys) / len(ys)))
    return found


def expected(cx: float, cy: float) -> list[tuple[float, float]]:
    """Tile centres on the ring (y down): tile 1 at the top, then clockwise."""
    return [(cx + RADIUS * math.cos(math.radians(90 - i * 360 / N)),
             cy - RADIUS * math.sin(math.radians(90 - i * 360 / N))) for i in range(N)]


def assert_on_ring(found, want, tol=0.5):
    assert len(found) == len(want), found
    for i, (wx, wy) in enumerate(want):
        nearest = min(found, key=lambda p: (p[0] - wx) ** 2 + (p[1] - wy) ** 2)
        assert abs(nearest[0] - wx) < tol and abs(nearest[1] - wy) < tol, (i, nearest, (wx, wy))


def test_tile_centres_lie_on_the_ring_at_their_angles(project, cardgen):
    make_ring(project, "[A4]")
    assert cardgen("build", "ring").code == 0
    pdf = project / "output/ring/ring-board-ring.pdf"
    assert len(reader(pdf).pages) == 1
    pw, ph = page_size_mm(reader(pdf).pages[0])
    assert_on_ring(dots(Raster(pdf, 0, dpi=100)), expected(pw / 2, ph / 2))


def test_a_split_board_reassembles_to_the_same_geometry(project, cardgen):
    make_ring(project, "[A5]")  # the board (about 162 mm square) is larger than A5's printable area
    assert cardgen("build", "ring").code == 0
    pdf = project / "output/ring/ring-board-ring.pdf"
    pages = reader(pdf).pages
    assert len(pages) == 2  # two A5 pages, turned landscape, hold it
    side = 2 * (RADIUS + math.hypot(TILE, TILE) / 2 + MARGIN)
    found = []
    for i, page in enumerate(pages):
        label = re.search(r"(?:board from x|ボードの x) ([\d.]+) mm[,、] ?y ([\d.]+) mm",
                          page.extract_text())  # (in the game's language)
        x0, y0 = float(label.group(1)), float(label.group(2))
        pw, ph = page_size_mm(page)
        # Only what the page prints (inside its print margin) belongs to the board.
        for x, y in dots(Raster(pdf, i, dpi=100), inside=(PRINT, PRINT, pw - PRINT, ph - PRINT)):
            bx, by = x0 + x - PRINT, y0 + y - PRINT
            if all(math.hypot(bx - fx, by - fy) > 2 for fx, fy in found):  # overlaps repeat
                found.append((bx, by))
    assert_on_ring(found, expected(side / 2, side / 2))


@pytest.mark.parametrize("path, old, new, error", [
    ("board.yaml", "pickaxes: [4, 8,", "pickaxes: [2, 8,",
     "tile 2 is both a home and a pickaxe tile"),
    ("board.yaml", "name: 黄色, order: 2}", "name: 黄色, order: 1}",
     "tile 2: turn order 1 is shared with another home"),
    ("board.yaml", "{color: red,    name: 赤", "{color: blue,    name: 赤",
     "tile 10: colour blue is shared with another home"),
    ("board.yaml", "{players: 3, first: 1, last: 12}", "{players: 3, first: 1, last: 13}",
     "3 players: tiles 1-13, not 1-12"),
    ("scoring.yaml", "starting_hand: 2", "starting_hand: 9",
     "the starting hand (9 cards) is more than the hand limit (7)"),
])
def test_the_seeds_board_rules_are_checked(project, cardgen, path, old, new, error):
    edit(project / "cards/dernier-peuple" / path, old, new)
    run = cardgen("validate", "dernier-peuple")
    assert run.code == 1 and error in "\n".join(run.lines), run.lines


def test_rulebook_keeps_the_seeds_examples_and_player_counts(project, cardgen):
    from conftest import REPO

    seed = REPO.parent / "shared" / "seeds" / "002_9a512a3f51e4ce9a.txt"
    assert cardgen("build", "dernier-peuple").code == 0
    text = "".join("".join(p.extract_text().split()).removeprefix(str(n)) for n, p in  # its number
                   enumerate(reader(project / "output/dernier-peuple/dernier-peuple-rulebook.pdf")
                             .pages, 1))
    assert "3・4・5人用（4人推奨）" not in text  # the editor's sentence, made from the tags
    assert "【編集注】元の文書のタグ：4人推奨・3人用・4人用・5人用" in text  # now marked as such
    # The seed never says the movement deck is undecided, nor where the board maps are.
    assert "まだ決まっていません" not in text and "のとおりです" not in text
    assert "【編集注】元の文書は、移動カードの山札の構成" in text
    assert "(つるはしタイルで入手していた場合)各カードは" in text  # no 。 the seed lacks
    assert "手番を終了する。または、手札から移動カードを1枚使い" in text
    if not seed.exists():
        pytest.skip("the seeds are not beside the repository")
    lines = seed.read_text("utf-8").splitlines()
    examples = (lines[105:108] + lines[116:119] + lines[127:129] + lines[136:138] + lines[144:145]
                + lines[149:152])  # the worked examples and the ambush summary
    for line in examples:
        if line.strip() and not line.startswith(("<", "  •", "+")):
            assert "".join(line.split()) in text, line
    assert "黄色プレイヤー" in text


def test_alignment_crosses_never_cover_a_tile(project):
    import math

    from generator.impose import impose_board
    from generator.primitives import Line
    from generator.load import Project
    from generator.pipeline import check, lay_out

    faces = lay_out(check(Project.find(project), "dernier-peuple"))
    checked = 0
    for board_face in faces.boards:
        pages = impose_board(board_face, faces.game.main_family.regular)
        for page in pages[1:] if len(pages) > 1 else ():
            placement = page.placements[0]
            for line in (m for m in page.marks if isinstance(m, Line) and m.y1 == m.y2):
                qx, qy = (line.x1 + line.x2) / 2, line.y1  # the cross's centre on the page
                bx, by = qx - placement.x, qy - placement.y  # on the board, y up
                nearest = min(math.hypot(bx - x, by - y) for x, y in board_face.centres)
                assert nearest > board_face.reach, (board_face.board.id, qx, qy)
                checked += 1
    assert checked >= 8


def test_a_pickaxe_tiles_number_and_label_clear_its_circle(project):
    from generator.load import Project
    from generator.pipeline import check
    from generator.units import parse_length

    game = check(Project.find(project), "dernier-peuple").game
    layout = next(d for d in game.decks if d.id == "tiles").front
    el = {e.name: e.props for e in layout.elements}
    ring_top = parse_length(el["pickaxe-ring"]["y"])
    ring_bottom = ring_top + parse_length(el["pickaxe-ring"]["height"])
    number_bottom = parse_length("2.5mm") + parse_length("7mm")  # the pickaxe case of `number`
    label_top = layout.size[1] - parse_length("9.5mm")
    assert "'2.5mm' if card.kind == 'pickaxe'" in el["number"]["y"]
    assert number_bottom < ring_top and ring_bottom < label_top


def test_the_boards_take_their_tiles_from_the_rings(project):
    """One source: board.yaml's rings give the boards, the rulebook and the checks."""
    from generator.load import Project
    from generator.pipeline import check

    boards = {b.id: b.cards for b in check(Project.find(project), "dernier-peuple").game.boards}
    assert boards["3p"] == tuple(f"tile-{n:02d}" for n in range(1, 13))
    assert boards["5p"] == tuple(f"tile-{n:02d}" for n in range(1, 21))
    edit(project / "cards/dernier-peuple/board.yaml", "{players: 3, first: 1, last: 12}",
         "{players: 3, first: 2, last: 12}")
    outcome = check(Project.find(project), "dernier-peuple")
    assert {b.id: b.cards for b in outcome.game.boards}["3p"][0] == "tile-02"
    assert any("3 players: tiles 2-12, not 1-12" in p.message for p in outcome.report.errors)


def test_rulebook_prints_every_rule_line_of_the_seed(project, cardgen):
    """Seed 002 line by line, the screenshot's legend (画面説明) and the page's 最終更新
    included. Not rulebook text: the web page's own lines (the BGA link, the screenshot's
    title, image placeholders, tags, the site's footer); the <…> sub-headings print as
    headings, without the brackets."""
    from conftest import REPO

    seed = REPO.parent / "shared" / "seeds" / "002_9a512a3f51e4ce9a.txt"
    if not seed.exists():
        pytest.skip("the seeds are not beside the repository")
    assert cardgen("build", "dernier-peuple").code == 0
    pages = reader(project / "output/dernier-peuple/dernier-peuple-rulebook.pdf").pages
    printed = as_written("".join("".join(p.extract_text().split("\n", 1)[-1].split())
                                 for p in pages))  # (“ホーム” is the seed's "ホーム")
    web = ("BGAでプレイ", "ゲーム画面", "+ ...", "•", "+ タグ編集", "reCAPTCHA")
    checked = 0
    for line in seed.read_text("utf-8").splitlines():
        line = line.strip()
        if not line or any(w in line for w in web):
            continue
        line = line.removeprefix("<").removesuffix(">")
        assert "".join(line.split()) in printed, line
        checked += 1
    assert checked >= 120


def test_the_player_aid_is_marked_the_editors_and_has_its_own_back(project, cardgen):
    """Seed 002 has no player aid: the aid is the editor's addition, labelled 【編集注】 on
    both faces, with a back of its own, so that it is not taken for a power card."""
    assert cardgen("build", "dernier-peuple").code == 0
    out = project / "output/dernier-peuple"
    # The poker-size decks share their sheets (docs/printing.md): each back is behind its own
    # card, so the aid's five backs say what they are, and no power card's back does.
    backs = ["".join(p.extract_text().split())
             for p in reader(out / "dernier-peuple-backs.pdf").pages]
    fronts = ["".join(p.extract_text().split())
              for p in reader(out / "dernier-peuple-fronts.pdf").pages]
    assert sum(b.count("プレイヤーエイド") for b in backs) == 5
    assert sum(b.count("【編集注】") for b in backs) == 5
    assert "".join(fronts).count("【編集注】得点のまとめ") == 5
    for front, back in zip(fronts, backs):  # an aid's back on the sheet of each aid's front
        assert front.count("得点のまとめ") == back.count("プレイヤーエイド")


def test_cards_print_the_seeds_words_and_nothing_it_lacks(project, cardgen):
    """Issue 65. The player aid quotes the seed's scoring sentences: the zero floor only
    where the seed gives it (ノーブルアタック, 奇襲; and the 呪い card), not as a rule for
    every loss (the thief, 泥棒, has none), and no ＋ beside -. No card, board or back
    prints what the seed does not say: LDP, English titles (3 players, Player aid),
    EXAMPLE, 自分の駒を動かす. The rulebook prints the screenshot's legend (画面説明) and
    the page's 最終更新 as its last line."""
    from test_seed_fidelity import printed_lines
    assert cardgen("build", "dernier-peuple").code == 0
    out = project / "output/dernier-peuple"
    pdfs = ["fronts", "backs", "board-3p", "board-4p", "board-5p"]
    text = {}
    for name in pdfs:
        pages = reader(out / f"dernier-peuple-{name}.pdf").pages
        text[name] = "".join("".join(p.extract_text().split()) for p in pages)
    printed = "".join(text.values())
    lacking = ("LDP", "players", "Playeraid", "EXAMPLE", "駒を動かす", "下がらない", "＋", "-1点")
    for word in lacking:
        assert word not in printed, word
    floor = "(持ち点が0点の場合は0点のままでマイナスにはなりません)"
    seed_sentences = [
        "プレイヤーが自身のホームを自分の駒2つで挟むと2点を得ます。",
        "プレイヤーが対戦相手のホームを自分の駒2つで挟むと3点を得て、挟まれたプレイヤーは1点を失います。"
        + floor,
        "手番のプレイヤーがいずれかのホームを自身の駒と他プレイヤーの駒で挟むと手番のプレイヤーは2点、"
        "攻撃に参加した駒の持ち主は1点を得て、挟まれたプレイヤーは1点を失います。" + floor,
        "いずれかのプレイヤーの勝利点が12点以上になったら即座にゲームが終了します。",
        "手札は移動カード、パワーカードあわせて7枚までしか持てません。"]
    from conftest import REPO
    seed = REPO.parent / "shared" / "seeds" / "002_9a512a3f51e4ce9a.txt"
    for sentence in seed_sentences:
        assert text["fronts"].count(sentence) == 5, sentence  # on each of the five aids
        if seed.exists():
            assert sentence in "".join(seed.read_text("utf-8").split()), sentence
    assert text["fronts"].count(floor) == 2 * 5 + 1  # the aids' two, and the 呪い card's
    assert text["backs"].count("最後の人々") == 20 + 12  # the tiles' backs and the powers'
    for players in (3, 4, 5):
        assert f"{players}人用" in text[f"board-{players}p"]
    lines = [t for _, t in printed_lines(out / "dernier-peuple-rulebook.pdf")]
    legend = lines.index("画面説明", 10)  # (after the contents)
    assert lines[legend + 1:legend + 4] == ["1:自分の手札", "2:各プレイヤーのホームタイル",
                                            "3:つるはしタイル"]
    assert [t for t in lines if not t.isdigit()][-1] == "最終更新:2018年05月03日23:57"
