"""Last Dance (seed 000) built end to end and read back from the PDFs."""

from __future__ import annotations

import pytest
import yaml

from pdfcheck import Raster, as_written, fonts, page_size_mm, reader

# A-One 51002, from its data sheet: A4, 2 x 5 cards of 91 x 55 mm, margins 14 / 11 mm.
CARD_W, CARD_H, LEFT, TOP, COLS, ROWS = 91.0, 55.0, 14.0, 11.0, 2, 5
PAGE_W, PAGE_H = 210.0, 297.0


def slot_mm(index: int) -> tuple[float, float, float, float]:
    row, col = divmod(index, COLS)
    x0, y0 = LEFT + col * CARD_W, TOP + row * CARD_H
    return x0, y0, x0 + CARD_W, y0 + CARD_H


@pytest.fixture
def built(project, cardgen):
    run = cardgen("build", "lastdance")
    assert run.code == 0, run.lines
    out = project / "output" / "lastdance"
    return out / "lastdance-fronts.pdf", out / "lastdance-backs.pdf"


def card_instances(project) -> list[dict]:
    data = yaml.safe_load((project / "cards/lastdance/cards.yaml").read_text("utf-8"))
    return [c for c in data["cards"] for _ in range(c.get("copies", 1))]


def test_pages_are_a4_four_fronts_four_backs(built):
    fronts, backs = reader(built[0]), reader(built[1])
    assert len(fronts.pages) == 4 and len(backs.pages) == 4
    for page in [*fronts.pages, *backs.pages]:
        w, h = page_size_mm(page)
        assert abs(w - PAGE_W) < 0.1 and abs(h - PAGE_H) < 0.1


def test_every_card_name_is_text_on_its_page(project, built):
    cards = card_instances(project)
    assert len(cards) == 36
    # Names set vertically come out one character per line: read the page as one string.
    pages = [as_written(p.extract_text().replace("\n", "")) for p in reader(built[0]).pages]
    for i, card in enumerate(cards):
        page = pages[i // 10]
        if card.get("blank"):
            continue
        assert card["name"] in page, (card["id"], i // 10)
        assert card["name_en"] in page, (card["id"], i // 10)
    # Only the page a card is on carries it: the Princess is on page 1 alone.
    assert ["姫" in p for p in pages] == [True, False, False, False]
    assert "公爵令嬢" in pages[3] and "Duke's Daughter" in pages[3]


def test_fonts_are_embedded_truetype_and_nothing_is_drawn_in_helvetica(built):
    for path in built:
        for page in reader(path).pages:
            used = fonts(page)
            assert used, "no fonts found"
            for name, files in used.items():
                assert files == ["/FontFile2"], (name, files)
                assert "BIZUDP" in name, name
            assert "■" not in page.extract_text()


def test_a_font_subset_name_is_one_subset_across_the_fronts_and_the_backs(built):
    """Each subset's tag (the six capitals before '+') comes from its content: a name shared
    by the fronts and the backs is one subset, so merging the files keeps every glyph."""
    import pikepdf
    seen: dict[str, bytes] = {}
    names = []
    for path in built:
        with pikepdf.open(path) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" \
                        and "/FontDescriptor" in obj:
                    name = str(obj.BaseFont)
                    program = obj.FontDescriptor.FontFile2.read_bytes()
                    assert seen.setdefault(name, program) == program, name
                    names.append(name)
    assert not any(n.startswith("/AAAAA") for n in names), names  # not reportlab's counter
    assert len(names) >= 2


def make_game(project, game_id: str, count: int, deck: str = "") -> None:
    """A game of `count` cards on the default layouts, whose design the tests know."""
    game = project / "cards" / game_id
    game.mkdir()
    (game / "game.yaml").write_text(
        "title: 鏡\ndecks:\n  - id: main\n    cards: cards.yaml\n    sheet: a-one-51002\n" + deck,
        "utf-8")
    (game / "cards.yaml").write_text(
        "cards:\n" + "".join(f"  - {{id: c{i}, name: 札{i}, name_en: Card {i}}}\n"
                             for i in range(count)), "utf-8")


def test_card_boxes_sit_at_the_preset_positions(project, cardgen):
    make_game(project, "grid", 10)
    assert cardgen("build", "grid").code == 0
    raster = Raster(project / "output/grid/grid-fronts.pdf", 0)
    # The grid's outer edge is the ink's bounding box: margins 14 mm and 11 mm.
    left, top, right, bottom = raster.ink_bbox_mm()
    assert abs(left - LEFT) < 0.3 and abs(top - TOP) < 0.3
    assert abs(right - (LEFT + COLS * CARD_W)) < 0.3
    assert abs(bottom - (TOP + ROWS * CARD_H)) < 0.3
    # Each card's white panel (3 mm inside the card on every side) sits in its slot.
    for index in range(10):
        x0, y0, x1, y1 = slot_mm(index)
        white = [r for r in raster.runs(y0 + 8, x0, x1, white=True) if r[1] - r[0] > 20]
        assert len(white) == 1, (index, white)
        assert abs(white[0][0] - (x0 + 3)) < 0.3 and abs(white[0][1] - (x1 - 3)) < 0.3, index
        white = [r for r in raster.column_runs(x0 + 20, y0, y1, white=True) if r[1] - r[0] > 20]
        assert len(white) == 1, (index, white)
        assert abs(white[0][0] - (y0 + 3)) < 0.3 and abs(white[0][1] - (y1 - 3)) < 0.3, index


def test_last_dance_fills_the_grid_exactly(built):
    for page in range(3):  # full pages
        left, top, right, bottom = Raster(built[0], page, dpi=150).ink_bbox_mm()
        assert abs(left - LEFT) < 0.3 and abs(top - TOP) < 0.3
        assert abs(right - (LEFT + COLS * CARD_W)) < 0.3
        assert abs(bottom - (TOP + ROWS * CARD_H)) < 0.3


def test_backs_are_the_fronts_mirrored_for_long_edge_duplex(project, cardgen):
    # Three cards fill front slots 0, 1, 2, so the mirroring of row 1 is visible.
    make_game(project, "mirror", 3, "    backs: duplex\n")
    assert cardgen("build", "mirror").code == 0
    out = project / "output/mirror"
    front, back = Raster(out / "mirror-fronts.pdf", 0), Raster(out / "mirror-backs.pdf", 0)

    def occupied(raster: Raster) -> set[int]:
        return {i for i in range(10)
                if not raster.is_white(slot_mm(i)[0] + 1.5, slot_mm(i)[1] + 1.5)}

    assert occupied(front) == {0, 1, 2}
    assert occupied(back) == {0, 1, 3}  # slot 2 (row 1, left) turns over to row 1, right
    # The lone back lies exactly where the front's card lands after the flip: x -> 210 - x.
    x0, y0, x1, y1 = slot_mm(2)
    ink = back.runs(y0 + 1.5, 0, PAGE_W, white=False)
    assert len(ink) == 1
    assert abs(ink[0][0] - (PAGE_W - x1)) < 0.3 and abs(ink[0][1] - (PAGE_W - x0)) < 0.3


def test_back_pages_carry_the_game_title(built):
    for page in reader(built[1]).pages:
        assert "ラストダンスは私に" in page.extract_text()


def test_viewer_preferences_ask_for_no_scaling_and_long_edge_duplex(built):
    for path in built:
        prefs = reader(path).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"
        assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_building_twice_gives_identical_bytes_whatever_source_date_epoch(project, cardgen,
                                                                        monkeypatch):
    out = project / "output/lastdance"
    assert cardgen("build", "lastdance").code == 0
    first = [(out / n).read_bytes() for n in ("lastdance-fronts.pdf", "lastdance-backs.pdf")]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cardgen("build", "lastdance").code == 0
    second = [(out / n).read_bytes() for n in ("lastdance-fronts.pdf", "lastdance-backs.pdf")]
    assert first == second


def test_list_shows_games_decks_and_counts(project, cardgen):
    run = cardgen("list")
    assert run.code == 0
    assert "lastdance: ラストダンスは私に / Save the Last Dance for Me" in run.out
    assert "15 card types, 36 cards, sheet a-one-51002" in run.out


def test_q2_keeps_the_seeds_three_bullets(project, cardgen):
    """Seed 000's A2: "There are three points:" then three "- " bullets and a closing
    sentence: printed as a list of three, not one paragraph numbered (1) (2) (3)."""
    from pdfcheck import reader
    assert cardgen("build", "lastdance").code == 0
    text = as_written("".join("".join(p.extract_text().split()) for p in
                              reader(project / "output/lastdance/lastdance-rulebook.pdf").pages))
    answer = text[text.index("A2:"):text.index("Q3:")]
    assert answer.count("•") == 3 and "(1)" not in answer
    for point in ("WhenthePrince'sButlerisused", "WhenyouarenamedbytheDuke'sDaughter",
                  "ThePrincecanbeputoutonthefield"):
        assert f"•{point}" in answer, point
    assert answer.rstrip().endswith("youmayhandoverwhicheveryouprefer.")


def test_no_word_is_broken_across_lines_in_the_rulebook(project, cardgen):
    """Issue 65: a Japanese word in an English line is kept whole, in the text and in the
    table's cells (「公爵令／嬢」 and 「壁の／花」 were broken there), and a count is not parted
    from its dash and "each" ("— 3 / each"): read back line by line, cell by cell."""
    import re

    from test_seed_fidelity import printed_lines, printed_pieces
    assert cardgen("build", "lastdance").code == 0
    pieces = ["".join(ch for _, ch, _, _ in piece) for _, piece in
              printed_pieces(project / "output/lastdance/lastdance-rulebook.pdf")]
    names = [c["name"] for c in card_instances(project) if c.get("name")]
    assert "公爵令嬢" in names and "壁の花" in names
    for name in set(names):
        for k in range(1, len(name)):
            head, tail = name[:k], name[k:]
            assert not [p for p in pieces if re.search(f"[(（]{head}$", p)], name
            assert not [p for p in pieces if re.match(f"{tail}[)）]", p)], name
    lines = [t for _, t in printed_lines(project / "output/lastdance/lastdance-rulebook.pdf")]
    assert not [t for t in lines if t.endswith("—") or re.match("[0-9]*each", t)]
    assert "(公爵令嬢)—5each" in lines and "—3each" in lines
    assert [t for t in lines if t.startswith("Wallflower(壁の花)")]
