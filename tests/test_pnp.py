"""Print-and-play that saves paper: decks of one card size share sheets where that takes
fewer of them (each back behind its own card), a deck can keep its own (own_sheet:), and the
print guide says every grid. Read back from the printed pages: which card is on which sheet
(each card's name), and where each back lands against its front."""

from __future__ import annotations

import yaml

from conftest import write_game
from pdfcheck import reader
from test_sheets import centre, page_boxes

FACE = {"size": "poker", "bleed": "0mm", "elements": [
    {"name": "mark", "type": "rect", "x": "1mm", "y": "1mm", "width": "100% - 2mm",
     "height": "100% - 2mm", "fill": "black"},
    {"name": "id", "type": "text", "text": "{{ card.id }}", "x": "5mm", "y": "5mm",
     "width": "50mm", "height": "8mm", "color": "white", "size": "9pt"}]}
BACK = {**FACE, "elements": [FACE["elements"][0], {**FACE["elements"][1],
                                                   "text": "back {{ card.id }}"}]}


def _decks(project, sizes: dict[str, int], own: tuple[str, ...] = ()) -> None:
    decks, files = [], {}
    for deck, n in sizes.items():
        decks.append({"id": deck, "cards": f"{deck}.yaml", "front": "pnp-face",
                      "back": "pnp-back", "sheet": "a4-poker-9up",
                      **({"own_sheet": True} if deck in own else {})})
        files[f"{deck}.yaml"] = yaml.safe_dump({"cards": [{"id": f"{deck}{i}"}
                                                          for i in range(n)]}).encode()
    write_game(project, "pnp", {"title": "PnP", "lang": "en", "decks": decks}, [],
               {"pnp-face": FACE, "pnp-back": BACK}, files)


def _texts(pdf) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in reader(pdf).pages]


def test_decks_of_one_size_share_sheets_with_each_back_behind_its_card(project, cardgen):
    _decks(project, {"heroes": 4, "items": 2, "events": 5})  # alone: 3 sheets; shared: 2
    run = cardgen("build", "pnp")
    assert run.code == 0, run.lines
    out = project / "output/pnp"
    fronts, backs = _texts(out / "pnp-fronts.pdf"), _texts(out / "pnp-backs.pdf")
    assert len(fronts) == len(backs) == 2  # fewer sheets than three decks on their own
    everything = " ".join(fronts)
    for card in [f"heroes{i}" for i in range(4)] + ["items0", "items1"] + \
            [f"events{i}" for i in range(5)]:
        assert everything.split().count(card) == 1, card  # every card, once
    assert fronts[0].split()[:7] == ["heroes0", "heroes1", "heroes2", "heroes3", "items0",
                                     "items1", "events0"]  # each deck's cards together, in order
    for page, (front, back) in enumerate(zip(fronts, backs)):
        assert sorted(front.split()) == sorted(back.replace("back ", "").split())
        f = sorted(centre(b) for b in page_boxes(out / "pnp-fronts.pdf", page))
        b = sorted(centre(b) for b in page_boxes(out / "pnp-backs.pdf", page, flip="long-edge"))
        assert len(f) == len(b) and all(abs(x1 - x2) < 0.3 and abs(y1 - y2) < 0.3
                                        for (x1, y1), (x2, y2) in zip(f, b))
    guide = (out / "pnp-print-guide.txt").read_text("utf-8")
    assert "Cards: 11 on 2 sheets." in guide
    assert "decks 'heroes', 'items' and 'events' share these sheets: each back behind its card" \
        in guide
    # every back is in the backs file: one way to print them, not "either a. the backs
    # file or b. the backs file, in parts" (the Codenames tester's)
    assert "and print pnp-backs.pdf (pages 1-2): back page k on the reverse of front page k." \
        in guide and "print either" not in guide and "deck by deck" not in guide


def test_a_deck_can_keep_its_own_sheets_and_sharing_that_saves_nothing_is_left(project, cardgen):
    _decks(project, {"heroes": 4, "items": 2, "events": 5}, own=("heroes",))
    assert cardgen("build", "pnp").code == 0
    out = project / "output/pnp"
    fronts = _texts(out / "pnp-fronts.pdf")
    assert len(fronts) == 2 and set(fronts[0].split()) == {f"heroes{i}" for i in range(4)}
    assert (out / "pnp-backs-heroes.pdf").is_file()  # its back design, one file of its own
    _decks(project, {"heroes": 9, "items": 9})  # whole sheets: sharing would save nothing
    assert cardgen("build", "pnp").code == 0
    assert len(_texts(out / "pnp-fronts.pdf")) == 2
    assert (out / "pnp-backs-heroes.pdf").is_file() and (out / "pnp-backs-items.pdf").is_file()


def test_the_guide_names_the_grid_of_every_sheet(project, cardgen):
    assert cardgen("build", "dernier-peuple").code == 0
    guide = (project / "output/dernier-peuple/dernier-peuple-print-guide.txt").read_text("utf-8")
    assert "Paper (sheet 1): Plain A4 paper, any card size, cut along the crop marks; 4 x 6 " \
        "cards of 40 x 40 mm" in guide
    assert "Paper (sheets 2-4): A4 plain paper, 9 poker cards, cut along the crop marks; " \
        "3 x 3 cards of 63 x 88 mm" in guide


def _kit_game(project, coin_sheet: object = "plain-a4") -> None:
    """Five decks of two sizes (three of poker cards, two of small cards), hex tiles and
    round tokens, all on plain A4 (the tokens on `coin_sheet`)."""
    decks, files = [], {}
    tile = {"size": ["40mm", "46.19mm"], "bleed": "2mm", "elements": [
        {"name": "hex", "type": "polygon", "sides": 6, "fill": "black", "bleed": True},
        {"name": "id", "type": "text", "text": "{{ card.id }}", "x": "10mm", "y": "20mm",
         "width": "20mm", "height": "6mm", "color": "white", "size": "6pt"}]}
    coin = {"size": ["25mm", "25mm"], "bleed": "2mm", "elements": [
        {"name": "disc", "type": "ellipse", "fill": "black", "bleed": True},
        {"name": "id", "type": "text", "text": "{{ card.id }}", "x": "6mm", "y": "9mm",
         "width": "13mm", "height": "6mm", "color": "white", "size": "6pt"}]}
    small = {**FACE, "size": ["44mm", "63mm"]}
    for deck, n, layout, shape in (("heroes", 4, "pnp-face", None), ("items", 2, "pnp-face", None),
                                   ("events", 5, "pnp-face", None), ("ref", 4, "pnp-small", None),
                                   ("special", 2, "pnp-small", None),
                                   ("tiles", 19, "pnp-tile", "hex"),
                                   ("coins", 18, "pnp-coin", "circle")):
        decks.append({"id": deck, "name": deck.title(), "cards": f"{deck}.yaml", "front": layout,
                      "back": layout, "backs": "duplex",
                      "sheet": coin_sheet if deck == "coins" else "plain-a4",
                      **({"shape": shape} if shape else {})})
        files[f"{deck}.yaml"] = yaml.safe_dump({"cards": [{"id": f"{deck}{i}"}
                                                          for i in range(n)]}).encode()
    write_game(project, "kit", {"title": "Kit 試作", "lang": "en", "decks": decks}, [],
               {"pnp-face": FACE, "pnp-small": small, "pnp-tile": tile, "pnp-coin": coin}, files)


KIT = (("heroes", 4), ("items", 2), ("events", 5), ("ref", 4), ("special", 2), ("tiles", 19),
       ("coins", 18))


def _placements(page) -> list[tuple[float, float, float, float]]:
    """The boxes faces are placed in on a page, read from its operators: each face is
    drawn clipped to its box (`x y w h re W n`) and moved to its corner (`1 0 0 1 x y cm`)."""
    import pikepdf
    found, box = [], None
    for operands, op in pikepdf.parse_content_stream(page):
        op = str(op)
        if op == "re":
            box = [float(v) for v in operands]
        elif op == "cm" and box is not None:
            found.append(tuple(box))
            box = None
    return found


def test_pieces_of_two_sizes_hexes_and_tokens_pack_onto_fewer_sheets(project, cardgen):
    import pikepdf
    _kit_game(project)
    run = cardgen("build", "kit")
    assert run.code == 0, [line for line in run.lines if "error" in line]
    out = project / "output/kit"
    fronts, backs = _texts(out / "kit-fronts.pdf"), _texts(out / "kit-backs.pdf")
    # Each deck alone, each on a grid of its own: heroes, items, events 1 sheet each, ref
    # and special 1 each (16 small cards a sheet), tiles 1 (20 a sheet), coins 1: 7 sheets.
    assert len(fronts) == len(backs) == 3
    words = " ".join(fronts).split()
    for deck, n in KIT:
        assert all(words.count(f"{deck}{i}") == 1 for i in range(n)), deck  # each once
    with pikepdf.open(out / "kit-fronts.pdf") as f, pikepdf.open(out / "kit-backs.pdf") as b:
        for page_f, page_b in zip(f.pages, b.pages):
            W = float(page_f.MediaBox[2])
            front = sorted(_placements(page_f))
            back = sorted((W - x - w, y, w, h) for x, y, w, h in _placements(page_b))
            assert len(front) == len(back) > 0
            for a, c in zip(front, back):  # each back's box is its front's, turned over
                assert all(abs(p - q) < 0.3 * 72 / 25.4 for p, q in zip(a, c)), (a, c)
    guide = (out / "kit-print-guide.txt").read_text("utf-8")
    assert "each sheet packed: sheet 1: 9 cards of 63 x 88 mm;" in guide
    assert "18 round tokens of 25 x 25 mm" in guide


def test_hexes_share_their_edges_and_tokens_keep_a_gap(project, cardgen):
    """In the honeycomb, two tiles side by side touch: one cut serves both; round tokens
    of a hexagonal packing are at least 1.5 mm apart."""
    import math

    import pikepdf
    _kit_game(project)
    assert cardgen("build", "kit").code == 0
    with pikepdf.open(project / "output/kit/kit-fronts.pdf") as pdf:
        boxes = [b for page in pdf.pages for b in _placements(page)]
    mm = 72 / 25.4
    tiles = [b for b in boxes if abs(b[2] - (40 + 0) * mm) < 1 and abs(b[3] - 46.19 * mm) < 1]
    coins = [b for b in boxes if abs(b[2] - 26.5 * mm) < 1]  # 25 mm and half the gap around
    assert len(tiles) >= 19 - 4  # (on the last sheet; a few on the sheet before)
    width = 46.19 / 2 * math.sqrt(3)  # the hexagon's width across its flats
    steps = sorted({round(abs(a[0] - b[0]) / mm, 2) for a in tiles for b in tiles
                    if abs(a[1] - b[1]) < 0.01 and a != b})
    assert abs(steps[0] - width) < 0.05  # neighbours one hexagon's width apart: edges shared
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in coins]
    nearest = min(math.dist(p, q) for p in centres for q in centres if p != q) / mm
    assert abs(nearest - (25 + 1.5)) < 0.05
def test_the_kit_keeps_the_gap_a_deck_chose_between_its_tokens(project, cardgen):
    """A deck on plain paper that asks for a gap between its pieces (room to cut each round
    token out) keeps it in the print-and-play kit: its coins are as far apart on the kit's
    pages as on the build's sheets, 25 mm + 6 mm centre to centre."""
    import math

    import pikepdf
    _kit_game(project, {"preset": "plain-a4", "gap": ["6mm", "6mm"]})
    assert cardgen("build", "kit").code == 0
    assert cardgen("pnp", "kit", "--paper", "A4").code == 0
    mm = 72 / 25.4
    for pdf_path in (project / "output/kit/kit-fronts.pdf",
                     project / "output/kit/pnp/kit-pnp-a4.pdf"):
        with pikepdf.open(pdf_path) as pdf:
            pages = [[b for b in _placements(page)
                      if 25 * mm < b[2] < 30 * mm and abs(b[2] - b[3]) < 0.01]
                     for page in pdf.pages]
        assert sum(map(len, pages)) >= 18, pdf_path.name
        for coins in (p for p in pages if len(p) > 1):
            centres = [(x + w / 2, y + h / 2) for x, y, w, h in coins]
            nearest = min(math.dist(p, q) for p in centres for q in centres if p != q) / mm
            assert abs(nearest - (25 + 6)) < 0.05, (pdf_path.name, nearest)


def _outline(path) -> list[tuple[str, int]]:
    import pikepdf
    with pikepdf.open(path) as pdf:
        pages = {p.objgen: i for i, p in enumerate(pdf.pages)}
        with pdf.open_outline() as outline:
            return [(item.title, pages[item.destination[0].objgen]) for item in outline.root]


def test_the_kit_has_a_cover_listing_every_component_and_one_pdf_per_paper(project, cardgen):
    _kit_game(project)
    run = cardgen("--lang", "ja", "pnp", "kit")  # (an English game: its kit is English)
    assert run.code == 0, run.lines
    out = project / "output/kit/pnp"
    assert sorted(p.name for p in out.iterdir()) == [".cardgen-written.json", "kit-pnp-a4.pdf",
                                                     "kit-pnp-letter.pdf"]
    from pdfcheck import page_size_mm
    for name, size in (("kit-pnp-a4.pdf", (210, 297)), ("kit-pnp-letter.pdf", (215.9, 279.4))):
        pdf = reader(out / name)
        assert all(abs(a - b) < 0.2 for a, b in zip(page_size_mm(pdf.pages[1]), size))
        cover = " ".join(pdf.pages[0].extract_text().split())
        for line in ("Heroes (cards, 63 x 88 mm) 4", "Items (cards, 63 x 88 mm) 2",
                     "Events (cards, 63 x 88 mm) 5", "Ref (cards, 44 x 63 mm) 4",
                     "Special (cards, 44 x 63 mm) 2", "Tiles (hex tiles, 40 x 46.19 mm) 19",
                     "Coins (round tokens, 25 x 25 mm) 18"):
            assert line in cover, (name, line)
        assert "board" not in cover and "rulebook" not in cover  # the game has neither
        sheets = len(pdf.pages) - 2  # (the cover's back is blank: the sheets start on page 3)
        assert "Page 2 is blank" in cover and not pdf.pages[1].extract_text().strip()
        assert f"Cards and pieces, pages 3-{sheets + 2}: print double-sided" in cover
        assert _outline(out / name)[:2] == [("Contents and how to print", 0),
                                          ("Cards and pieces", 2)]
        texts = [" ".join(p.extract_text().split()) for p in pdf.pages[2:]]
        for page, text in enumerate(texts):
            side = "front" if page % 2 == 0 else "back"
            assert f"sheet {page // 2 + 1} of {sheets // 2}, {side}" in text
        fronts = " ".join(texts[0::2]).split()
        for deck, n in KIT:
            for i in range(n):
                assert fronts.count(f"{deck}{i}") == 1, (name, deck, i)  # every piece, once


def test_the_kit_of_a_japanese_game_says_how_to_print_it_in_japanese(project, cardgen):
    """The kit's cover, its sheets' notes and its bookmarks are in the game's language (a
    Japanese game: Last Dance), whatever language the command is run in; an English game's
    kit is English under --lang ja (the test above)."""
    assert cardgen("--lang", "en", "pnp", "lastdance", "--paper", "A4").code == 0
    path = project / "output/lastdance/pnp/lastdance-pnp-a4.pdf"
    pdf = reader(path)
    cover = " ".join(pdf.pages[0].extract_text().split())
    assert "プリント＆プレイキット: A4、両面" in cover
    assert "内容物" in cover and "印刷のしかた" in cover
    assert "カードと駒（3〜10 ページ）: 長辺とじの両面印刷で刷ります" in cover
    assert "4 枚中 1 枚目の表" in " ".join(pdf.pages[2].extract_text().split())
    assert _outline(path)[:2] == [("内容物と印刷のしかた", 0), ("カードと駒", 2)]


def test_gutterfold_backs_meet_their_fronts_when_the_page_is_folded(project, cardgen):
    from PIL import ImageOps

    from pdfcheck import Raster
    from test_sheets import boxes
    _decks(project, {"heroes": 4, "items": 3})
    run = cardgen("pnp", "pnp", "--layout", "gutterfold", "--paper", "A4")
    assert run.code == 0, run.lines
    path = project / "output/pnp/pnp/pnp-pnp-a4-gutterfold.pdf"
    pdf = reader(path)
    assert len(pdf.pages) == 1 + 2  # the cover, then 7 cards at 4 a page (A4 turned, 2 x 2)
    for page in (1, 2):
        raster = Raster(path, page, dpi=150)
        W, H = raster.image.size
        left = raster.image.crop((0, 0, W // 2, H))
        right = ImageOps.mirror(raster.image.crop((W - W // 2, 0, W, H)))  # folded over
        f = sorted(centre(b) for b in boxes(left, raster.px_per_mm))
        b = sorted(centre(b) for b in boxes(right, raster.px_per_mm))
        assert f and len(f) == len(b)
        assert all(abs(x1 - x2) < 0.3 and abs(y1 - y2) < 0.3 for (x1, y1), (x2, y2) in zip(f, b))
        words = pdf.pages[page].extract_text().split()
        backs = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "back"]
        fronts = [w for i, w in enumerate(words) if w.startswith(("heroes", "items"))
                  and (i == 0 or words[i - 1] != "back")]
        assert fronts and sorted(fronts) == sorted(backs)  # each card's back on its page


def test_nothing_of_the_kit_prints_where_the_printer_cannot(project, cardgen):
    from pdfcheck import Raster
    _kit_game(project)
    for layout in ("duplex", "gutterfold"):
        assert cardgen("pnp", "kit", "--layout", layout).code == 0
        from generator.pnp import PAPERS
        from generator.units import parse_length, to_mm
        from conftest import REPO
        for paper, preset in PAPERS.items():
            name = paper.lower()
            unprintable = to_mm(parse_length(yaml.safe_load((
                REPO / f"layouts/sheets/{preset}.yaml").read_text("utf-8"))["unprintable"]))
            path = next((project / "output/kit/pnp").glob(f"kit-pnp-{name}*{layout[:3]}*.pdf"),
                        None) or project / f"output/kit/pnp/kit-pnp-{name}.pdf"
            for page in range(1, len(reader(path).pages)):
                raster = Raster(path, page, dpi=100)
                W, H = raster.image.size
                band = int(unprintable * raster.px_per_mm) - 1
                for box in ((0, 0, W, band), (0, H - band, W, H), (0, 0, band, H),
                            (W - band, 0, W, H)):
                    assert raster.image.crop(box).convert("L").getextrema()[0] > 235, \
                        (layout, name, page, box)


def test_ink_saver_lightens_the_large_fills_and_keeps_the_text(project, cardgen):
    from pdfcheck import Raster
    _decks(project, {"heroes": 2})
    assert cardgen("pnp", "pnp", "--paper", "A4", "--ink-saver").code == 0
    path = project / "output/pnp/pnp/pnp-pnp-a4-ink-saver.pdf"
    raster = Raster(path, 2, dpi=100)  # (page 2 is the cover's blank back)
    grey = raster.image.convert("L")
    x0, y0, x1, y1 = [int(v * raster.px_per_mm) for v in (20, 30, 50, 60)]  # inside card 1
    assert grey.crop((x0, y0, x1, y1)).getextrema()[0] > 180  # black lightened to pale grey
    assert "heroes0" in reader(path).pages[2].extract_text()


def test_a_kit_no_longer_made_is_removed_and_said_and_nothing_else(project, cardgen):
    """The ink-saver kit of an earlier run does not stay beside the new kits when this run
    makes none (it would be handed out with older data): it is removed and said, even with
    -q; a file of the designer's in pnp/, and the build's own files, stay."""
    _decks(project, {"heroes": 2})
    assert cardgen("build", "pnp").code == 0
    assert cardgen("pnp", "pnp", "--paper", "A4", "--ink-saver").code == 0
    out = project / "output/pnp/pnp"
    (out / "notes.txt").write_text("mine", "utf-8")
    run = cardgen("pnp", "-q", "pnp", "--paper", "A4")
    assert run.code == 0, run.lines
    said = [line for line in run.lines if "warning" not in line]
    assert said == ["removed output/pnp/pnp/pnp-pnp-a4-ink-saver.pdf (an earlier 'pnp' run "
                    "made this kit; this one does not)"]
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == \
        ["notes.txt", "pnp-pnp-a4.pdf"]
    assert (project / "output/pnp/pnp-fronts.pdf").is_file()
    again = cardgen("pnp", "pnp", "--paper", "A4")  # nothing more to remove: nothing said
    assert [line for line in again.lines if "warning" not in line] == \
        ["wrote output/pnp/pnp/pnp-pnp-a4.pdf"], again.lines


def test_a_split_board_shares_itself_evenly_and_no_page_carries_a_sliver(project):
    """Le Dernier Peuple's boards are split over A4 pages: every page carries as much of
    the board as the next, the first starting at its top-left corner and the last ending at
    its bottom-right one, overlapping by at least the layout's 12 mm."""
    from generator.boards.base import split_pages, split_paper
    from generator.impose import impose_board
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.units import paper_size, to_mm
    faces = lay_out(check(Project.find(project), "dernier-peuple"))
    split = 0
    for board_face in faces.boards:
        board, face = board_face.board, board_face.face
        pages = impose_board(board_face, faces.game.main_family.regular)
        if len(pages) == 1:
            continue
        split += 1
        _, cols, rows, parts = split_pages(board, face.width, face.height,
                                           paper_size(split_paper(board)))
        assert len(pages) == cols * rows
        lefts = sorted({p[2] for p in parts})
        tops = sorted({p[3] for p in parts})
        pw, ph = parts[0][4], parts[0][5]
        for starts, size, whole in ((lefts, pw, face.width), (tops, ph, face.height)):
            assert starts[0] == 0 and abs(starts[-1] + size - whole) < 0.01  # edge to edge
            steps = {round(b - a, 6) for a, b in zip(starts, starts[1:])}
            assert len(steps) <= 1  # every page as far from the next
            assert all(to_mm(size - s) >= 12 - 0.01 for s in steps)  # the overlap, at least
    assert split >= 2


def test_a_layouts_own_ink_saver_version_replaces_the_lightening(project, cardgen):
    """`ink_saver:` in a layout: the background an outline, for kits printed with
    --ink-saver; the build keeps the layout as it is."""
    from pdfcheck import Raster
    saving = {**FACE, "ink_saver": {"mark": {"fill": "white", "stroke": "#808080",
                                             "stroke_width": "0.5mm"}}}
    _decks(project, {"heroes": 2})
    (project / "layouts/pnp-face.yaml").write_text(yaml.safe_dump(saving), "utf-8")
    assert cardgen("build", "pnp").code == 0
    built = Raster(project / "output/pnp/pnp-fronts.pdf", 0, dpi=100)
    assert built.image.convert("L").crop((300, 300, 400, 400)).getextrema()[1] < 60  # black
    assert cardgen("pnp", "pnp", "--paper", "A4", "--ink-saver").code == 0
    kit = Raster(project / "output/pnp/pnp/pnp-pnp-a4-ink-saver.pdf", 2, dpi=100)
    inside = kit.image.convert("L").crop((300, 300, 400, 400))
    assert inside.getextrema()[0] > 245  # white inside: the layout's own version
    (project / "layouts/pnp-face.yaml").write_text(yaml.safe_dump(
        {**FACE, "ink_saver": {"marks": {"fill": "white"}}}), "utf-8")
    run = cardgen("validate", "pnp")
    assert run.code == 1 and any(
        "layouts/pnp-face.yaml" in line and "ink_saver: names element 'marks', which it does "
        "not have (did you mean 'mark'?)" in line for line in run.lines), run.lines


def test_greyscale_kits_print_pictures_in_grey(project, cardgen):
    import io

    from PIL import Image

    from pdfcheck import Raster
    picture = io.BytesIO()
    Image.new("RGB", (60, 40), (220, 40, 40)).save(picture, "PNG")
    layout = {"size": "poker", "elements": [
        {"name": "art", "type": "image", "src": "art.png", "fit": "stretch", "bleed": True}]}
    write_game(project, "grey", {"title": "Grey", "decks": [
        {"id": "d", "front": "grey-face", "back": "grey-face", "sheet": "plain-a4"}]},
        [{"id": "one"}], {"grey-face": layout}, {"art.png": picture.getvalue()})
    assert cardgen("pnp", "grey", "--paper", "A4", "--greyscale").code == 0
    path = project / "output/grey/pnp/grey-pnp-a4-grey.pdf"
    raster = Raster(path, 2, dpi=100)
    r, g, b = raster.at(42, 60)  # the middle of the first card (the grid's top-left slot)
    assert abs(r - g) < 3 and abs(g - b) < 3 and r < 200, (r, g, b)  # the red, in grey
    assert cardgen("pnp", "grey", "--paper", "A4").code == 0
    raster = Raster(project / "output/grey/pnp/grey-pnp-a4.pdf", 2, dpi=100)
    r, g, b = raster.at(42, 60)
    assert r > 180 and g < 80, (r, g, b)  # without it, in colour


def test_pieces_too_big_for_half_a_page_are_said_in_a_gutter_fold_kit(project, cardgen):
    write_game(project, "big", {"title": "Big", "decks": [
        {"id": "maps", "front": "big-face", "back": "big-face", "sheet": "plain-a4"}]},
        [{"id": "m1"}], {"big-face": {"size": ["180mm", "250mm"], "elements": [
            {"name": "ground", "type": "rect", "fill": "#203060", "bleed": True}]}})
    run = cardgen("pnp", "big", "--paper", "A4", "--layout", "gutterfold")
    assert run.code == 1
    assert any("cards/big/game.yaml" in line and "error: deck 'maps': its 180 x 250 mm pieces "
               "do not fit half a page of A4, as a gutter-fold kit prints them; make this kit "
               "with --layout duplex [pnp]" in line for line in run.lines), run.lines
    assert not (project / "output/big/pnp").exists()
    assert cardgen("pnp", "big", "--paper", "A4").code == 0  # duplex: one a sheet


def _kit_parts(path) -> dict[str, tuple[int, int]]:
    """Each bookmarked part of a kit: (its first page index, its page count)."""
    marks = _outline(path)
    total = len(reader(path).pages)
    ends = [page for _title, page in marks[1:]] + [total]
    return {title: (page, end - page) for (title, page), end in zip(marks, ends)}


def test_a_kit_prints_only_the_cards_that_exist_and_says_what_it_leaves_out(project, cardgen):
    """The vampire-court kit: 9 designed cards (the seed's 140 slots are mostly still to be
    designed, and 8 blank cards only fill its shop's sheet) on one A4 sheet, not 17; the
    cover says what is left out, names the game that has no title yet, and its card sheets
    start on page 3 (page 2 blank) so that the whole file printed double-sided lines up."""
    assert cardgen("pnp", "vampire-band", "--paper", "A4").code == 0
    path = project / "output/vampire-band/pnp/vampire-band-pnp-a4.pdf"
    pdf = reader(path)
    first, count = _kit_parts(path)["カードと駒"]
    assert first % 2 == 0 and count <= 4  # an odd page (1-based); at most 2 sheets
    fronts = " ".join(pdf.pages[first].extract_text().split())
    for name in ("ROTATION", "鏑木レーゲンドルフアキラ", "みぞぐちしんや", "テロメアの陰謀"):
        assert name in fronts
    cover = " ".join(pdf.pages[0].extract_text().split())
    assert "TBD" not in cover.split("内容物")[0]  # the title: a placeholder that says so
    assert "タイトル未定のゲーム（vampire-band）" in cover
    assert "バージョン β" in cover
    assert "131 枚は入れていません" in cover and "--blanks" in cover  # 123 slots, 8 fillers
    assert not pdf.pages[1].extract_text().strip() and "2 ページは白紙" in cover
    assert cardgen("pnp", "vampire-band", "--paper", "A4", "--blanks").code == 0
    first, blanks = _kit_parts(path)["カードと駒"]
    assert first % 2 == 0 and blanks > count  # blank cards to write on: more sheets
    assert "8 枚は入れていません" in " ".join(reader(path).pages[0].extract_text().split())


def test_every_kit_starts_its_card_sheets_on_an_odd_page(project, cardgen):
    for game in ("lastdance", "odoriko", "dernier-peuple", "vampire-band"):
        assert cardgen("pnp", game).code == 0
        for path in (project / "output" / game / "pnp").glob("*.pdf"):
            parts = _kit_parts(path)
            first = parts["カードと駒"][0] if "カードと駒" in parts else \
                parts["Cards and pieces"][0]
            assert first % 2 == 0, (path.name, first + 1)


def _painted(page) -> list[tuple[str, list[float], tuple[float, ...]]]:
    """The cover's painting operators with the transformation in force: (operator, its
    operands, the CTM a, b, c, d, e, f)."""
    import pikepdf
    ctm, stack, out = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], []
    for operands, op in pikepdf.parse_content_stream(page):
        name = str(op)
        if name == "q":
            stack.append(ctm)
        elif name == "Q":
            ctm = stack.pop()
        elif name == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                   e * A + f * C + E, e * B + f * D + F)
        elif name == "re":
            out.append((name, [float(v) for v in operands], ctm))
    return out


def test_the_cover_has_a_50_mm_scale_bar_that_measures_50_mm(project, cardgen):
    import pikepdf

    from pdfcheck import Raster
    assert cardgen("pnp", "lastdance", "--paper", "Letter").code == 0
    path = project / "output/lastdance/pnp/lastdance-pnp-letter.pdf"
    with pikepdf.open(path) as pdf:
        bars = [(w * ctm[0], ctm) for _op, (x, y, w, h), ctm in _painted(pdf.pages[0])
                if abs(w * ctm[0] - 50 * 72 / 25.4) < 0.01]
    assert len(bars) == 1 and bars[0][1][1:3] == (0.0, 0.0)  # exactly 50 mm, not turned
    assert "50 mm" in reader(path).pages[0].extract_text()
    raster = Raster(path, 0, dpi=300)  # and as printed: the longest dark run of a row
    grey = raster.image.convert("L")
    W, H = grey.size
    longest = 0
    for y in range(H // 4, H):
        run = best = 0
        for x in range(W // 2):
            run = run + 1 if grey.getpixel((x, y)) < 80 else 0
            best = max(best, run)
        longest = max(longest, best)
    assert abs(longest / raster.px_per_mm - 50) < 0.3, longest / raster.px_per_mm


def test_board_page_notes_keep_out_of_the_unprintable_margin_in_the_games_language(
        project, cardgen):
    """Le Dernier Peuple's split boards: each page's label lies beyond the 5 mm the kit keeps
    clear at the paper's edge (it sat 2.8 mm from it), in Japanese as the game is."""
    assert cardgen("--lang", "en", "pnp", "dernier-peuple", "--paper", "A4").code == 0
    path = project / "output/dernier-peuple/pnp/dernier-peuple-pnp-a4.pdf"
    pdf = reader(path)
    parts = _kit_parts(path)
    boards = [(first, n) for title, (first, n) in parts.items() if title.startswith("ボード")]
    assert boards
    mm = 72 / 25.4
    seen = 0
    for first, n in boards:
        for index in range(first, first + n):
            page = pdf.pages[index]
            found: list[tuple[str, float, float]] = []

            def visit(text, cm, tm, font, size, found=found):
                if text.strip():
                    found.append((text, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]))
            page.extract_text(visitor_text=visit)
            labels = [(t, x, y) for t, x, y in found if "ページ目" in t]
            if n > 1:
                assert labels, (index, found[:3])
            for _text, x, y in labels:
                seen += 1
                assert y - 5 * 0.25 >= 5 * mm and x >= 5 * mm, (index, x / mm, y / mm)
            assert not any(t.startswith("cardgen board") for t, _x, _y in found)
    assert seen


def test_files_carry_the_games_version_and_the_date_of_its_last_commit(project, cardgen):
    """In git, a game's files are dated as its folder's last commit and carry its version;
    built again, the same bytes; outside git, the fixed date as before."""
    import subprocess

    import pikepdf
    assert cardgen("pnp", "vampire-band", "--paper", "A4").code == 0
    kit = project / "output/vampire-band/pnp/vampire-band-pnp-a4.pdf"
    with pikepdf.open(kit) as pdf:
        assert str(pdf.docinfo["/CreationDate"]) == "D:20000101000000+00'00'"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    env = {"GIT_COMMITTER_DATE": "2026-11-30T12:34:56+00:00",
           "GIT_AUTHOR_DATE": "2026-11-30T12:34:56+00:00", "PATH": "/usr/bin:/bin"}
    subprocess.run(git + ["init", "-q"], cwd=project, check=True)
    subprocess.run(git + ["add", "cards"], cwd=project, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "x"], cwd=project, check=True, env=env)
    assert cardgen("pnp", "vampire-band", "--paper", "A4").code == 0
    assert cardgen("build", "vampire-band").code == 0
    for path in (kit, project / "output/vampire-band/vampire-band-fronts.pdf"):
        with pikepdf.open(path) as pdf:
            assert str(pdf.docinfo["/CreationDate"]) == "D:20261130123456+00'00'", path.name
            assert str(pdf.docinfo["/ModDate"]) == "D:20261130123456+00'00'"
            assert str(pdf.docinfo["/Keywords"]) == "version β"
    once = kit.read_bytes()
    assert cardgen("pnp", "vampire-band", "--paper", "A4").code == 0
    assert kit.read_bytes() == once
    from pdfx import problems
    assert cardgen("export", "vampire-band", "--profile", "jp-print").code == 0
    for path in (project / "output/vampire-band/export-jp-print").rglob("*.pdf"):
        assert problems(path) == [], path.name  # the XMP says what the information says
        with pikepdf.open(path) as pdf:
            meta = pdf.open_metadata()
            assert meta["xmp:CreateDate"] == "2026-11-30T12:34:56+00:00", path.name
            assert meta["xmpMM:VersionID"] == "β"
