"""Card PNGs, proof sheets and the Tabletop Simulator deck, read back."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def test_card_pngs_are_trim_plus_bleed_at_the_dpi(project, cardgen):
    assert cardgen("build", "--png", "--dpi", "100", "lastdance").code == 0
    folder = project / "output/lastdance/png/cards"
    assert len(list(folder.glob("*.png"))) == 2 * 15  # 15 distinct cards, front and back
    with Image.open(folder / "princess-front.png") as im:
        assert abs(im.width - px(91 + 2 * 3, 100)) <= 1
        assert abs(im.height - px(55 + 2 * 3, 100)) <= 1
        red, green, blue = im.convert("RGB").getpixel((im.width // 2, 5))  # the bleed: frame colour
        assert red > 100 and green < 80
    assert cardgen("build", "--png", "--dpi", "50", "odoriko").code == 0
    with Image.open(project / "output/odoriko/png/characters/cc001-front.png") as im:
        # poker 63 x 88 mm, 3 mm bleed, 50 dpi
        assert abs(im.width - px(69, 50)) <= 1 and abs(im.height - px(94, 50)) <= 1


def test_unchanged_cards_come_from_the_cache(project, cardgen):
    assert cardgen("build", "--png", "--dpi", "60", "lastdance").code == 0
    cache = project / "output/.cache/png"
    # (a file's inode: a picture drawn again is written anew, by a rename; one read from the
    # cache keeps its file, its time touched as used: write/png.prune)
    first = {p.name: p.stat().st_ino for p in cache.iterdir()}
    cards = project / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("name: 姫\n", "name: 姫君\n"), "utf-8")
    assert cardgen("build", "--png", "--dpi", "60", "lastdance").code == 0
    second = {p.name: p.stat().st_ino for p in cache.iterdir()}
    assert len(second) == len(first) + 1  # one new face: the renamed Princess's front
    assert all(second[name] == inode for name, inode in first.items())


def test_proof_sheets(project, cardgen):
    assert cardgen("build", "--proof", "lastdance").code == 0
    sheets = sorted((project / "output/lastdance").glob("lastdance-proof-cards-*.png"))
    assert len(sheets) == 2  # 15 distinct meishi cards, 8 to an A4 page
    with Image.open(sheets[0]) as im:
        assert im.size == (px(210, 100), px(297, 100)) or abs(im.width - 827) <= 1


def test_proof_sheets_can_show_each_back_beside_its_front(project, cardgen):
    """`--proof backs`: each card's back beside its front, captioned; `--proof GAME` is the
    fronts' proof of GAME (the value is taken only when one of its values follows)."""
    from pdfcheck import reader
    assert cardgen("build", "--proof", "lastdance").code == 0
    fronts_only = reader(project / "output/lastdance/lastdance-proof.pdf")
    assert cardgen("build", "--proof", "backs", "lastdance").code == 0
    both = reader(project / "output/lastdance/lastdance-proof.pdf")
    assert len(both.pages) > len(fronts_only.pages)
    text = "".join(p.extract_text() for p in both.pages)
    assert text.count("back") >= 15 and "princess ×1" in text
    assert "back" not in "".join(p.extract_text() for p in fronts_only.pages).replace("Back", "")


def test_tabletop_simulator_deck_matches_the_data(project, cardgen):
    assert cardgen("build", "--tts", "odoriko").code == 0
    tts = project / "output/odoriko/tts"
    saved = json.loads((tts / "odoriko-tts.json").read_text("utf-8"))
    decks = {d["Nickname"]: d for d in saved["ObjectStates"]}
    characters = decks["キャラクターカード"]
    assert len(characters["DeckIDs"]) == 9 == len(characters["ContainedObjects"])
    nicknames = [c["Nickname"] for c in characters["ContainedObjects"]]
    assert nicknames[:2] == ["イル・アリエル", "ロマージュ"]
    playing = decks["資源カード・特殊カード (52 playing cards)"]
    assert len(playing["DeckIDs"]) == 52
    (key, sheet), = playing["CustomDeck"].items()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 7) and sheet["BackIsHidden"]
    assert all(i // 100 == int(key) for i in playing["DeckIDs"])
    with Image.open(tts / "playing-sheet-1.png") as im:
        assert im.width == 4000 and im.height == 7 * round(400 * 88 / 63)
    # Copies become repeated ids: Last Dance's Duke's Daughter five times.
    assert cardgen("build", "--tts", "lastdance").code == 0
    saved = json.loads((project / "output/lastdance/tts/lastdance-tts.json").read_text("utf-8"))
    deck = saved["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 36
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert names.count("公爵令嬢") == 5


def test_proof_sheets_follow_the_decks_paper_and_come_as_a_pdf_too(project, cardgen):
    from pdfcheck import page_size_mm, reader
    assert cardgen("new", "usdeck", "--size", "2.5x3.5in", "--paper", "letter").code == 0
    assert cardgen("build", "--proof", "usdeck").code == 0
    out = project / "output/usdeck"
    (sheet,) = sorted(out.glob("usdeck-proof-cards-*.png"))
    with Image.open(sheet) as im:  # US Letter at 100 dpi
        assert abs(im.width - 850) <= 1 and abs(im.height - 1100) <= 1
    pdf = reader(out / "usdeck-proof.pdf")
    assert len(pdf.pages) == 1
    w, h = page_size_mm(pdf.pages[0])
    assert abs(w - 215.9) < 0.1 and abs(h - 279.4) < 0.1
    text = pdf.pages[0].extract_text()
    assert "scout ×3" in text.replace("  ", " ") and "Knight" in text
    assert cardgen("build", "--proof", "lastdance").code == 0  # meishi: still A4
    w, h = page_size_mm(reader(project / "output/lastdance/lastdance-proof.pdf").pages[0])
    assert abs(w - 210) < 0.1 and abs(h - 297) < 0.1


def test_tabletop_simulator_cards_keep_their_shape(project, cardgen):
    assert cardgen("build", "--tts", "lastdance", "odoriko").code == 0
    meishi = json.loads((project / "output/lastdance/tts/lastdance-tts.json").read_text("utf-8"))
    deck = meishi["ObjectStates"][0]
    # 91 x 55 mm against TTS's 2.5 x 3.5 in card: wider and shorter, in proportion.
    for transform in (deck["Transform"], deck["ContainedObjects"][0]["Transform"]):
        assert abs(transform["scaleX"] - 91 / 63.5) < 0.001
        assert abs(transform["scaleZ"] - 55 / 88.9) < 0.001
        assert transform["scaleY"] == 1.0
    with Image.open(project / "output/lastdance/tts/cards-sheet-1.png") as im:
        cell = (im.width / 10, im.height / 7)
    assert abs(cell[0] / cell[1] - 91 / 55) < 0.01  # the sheet's cells have the card's shape
    poker = json.loads((project / "output/odoriko/tts/odoriko-tts.json").read_text("utf-8"))
    transform = poker["ObjectStates"][0]["Transform"]
    assert abs(transform["scaleX"] - 63 / 63.5) < 0.001
    assert abs(transform["scaleZ"] - 88 / 88.9) < 0.001


def test_tabletop_simulator_on_vampire_band_leaves_fillers_out_and_keeps_sheets_loadable(
        project, cardgen):
    """The ROTATION deck's 8 filler cards (they only fill the home-print sheet) are not in
    Tabletop Simulator, so the deck's back is the ROTATION back; portrait 55 x 91 mm cards
    come on sheets of fewer rows, each within 4096 pixels, with NumHeight saying so."""
    assert cardgen("build", "--tts", "vampire-band").code == 0
    tts = project / "output/vampire-band/tts"
    saved = json.loads((tts / "vampire-band-tts.json").read_text("utf-8"))
    decks = {d["Nickname"]: d for d in saved["ObjectStates"]}
    rotation = decks["ROTATIONカード"]
    assert [c["Description"] for c in rotation["ContainedObjects"]] == ["rotation", "rotation"]
    for deck in decks.values():
        for sheet in deck.get("CustomDeck", {}).values():
            path = Path(sheet["FaceURL"].removeprefix("file://"))
            with Image.open(path) as im:
                assert im.width <= 4096 and im.height <= 4096, (path.name, im.size)
                assert im.height == sheet["NumHeight"] * round(400 * 91 / 55)
            assert sheet["UniqueBack"] is False
    with Image.open(tts / "rotation-back.png") as back:
        assert back.convert("L").getextrema()[0] < 128  # the ROTATION back's arrow, not white


def test_tabletop_simulator_gives_cards_with_backs_of_their_own_a_unique_back_sheet(
        project, cardgen):
    """A deck whose cards have different backs (a card with `back:` of its own) gets a back
    sheet in the faces' grid, UniqueBack true: each card shows its own back."""
    folder = project / "cards/two"
    folder.mkdir()
    (project / "layouts/two-front.yaml").write_text(
        "size: meishi\nelements:\n  - {name: n, type: text, text: \"{{ card.name }}\"}\n", "utf-8")
    (project / "layouts/two-back.yaml").write_text(
        "size: meishi\nelements:\n  - {name: g, type: rect, fill: \"#ffffff\"}\n", "utf-8")
    (project / "layouts/two-dark.yaml").write_text(
        "size: meishi\nelements:\n  - {name: g, type: rect, fill: \"#101010\"}\n", "utf-8")
    (folder / "game.yaml").write_text(
        "title: Two\ndecks:\n  - {id: d, cards: cards.yaml, front: two-front, back: two-back}\n",
        "utf-8")
    (folder / "cards.yaml").write_text(
        "cards:\n  - {id: light, name: Light}\n  - {id: dark, name: Dark, back: two-dark}\n",
        "utf-8")
    assert cardgen("build", "--tts", "two").code == 0
    tts = project / "output/two/tts"
    deck = json.loads((tts / "two-tts.json").read_text("utf-8"))["ObjectStates"][0]
    (sheet,) = deck["CustomDeck"].values()
    assert sheet["UniqueBack"] is True and sheet["BackURL"].endswith("/d-backs-1.png")
    with Image.open(tts / "d-backs-1.png") as backs:
        cw, ch = backs.width // 10, backs.height // sheet["NumHeight"]
        light = backs.convert("L").getpixel((cw // 2, ch // 2))
        dark = backs.convert("L").getpixel((cw + cw // 2, ch // 2))
    assert light > 200 and dark < 40  # slot 0 the light back, slot 1 the dark one


def test_png_faces_are_the_size_the_docs_give_and_say_their_dpi(project, cardgen):
    """docs/previews.md: a 91 x 55 mm card with 3 mm bleed at 300 dpi is 1146 x 720 pixels
    (97 x 61 mm: 1145.7 x 720.5, rounded; pdfium alone rounds up to 721), and the file says
    it is 300 dpi, so that what opens it shows it at its size."""
    import re
    docs = (Path(__file__).resolve().parent.parent / "docs/previews.md").read_text("utf-8")
    w, h = map(int, re.search(r"at 300 dpi is (\d+) x (\d+) pixels", docs).groups())
    assert cardgen("build", "--png", "lastdance").code == 0
    pictures = sorted((project / "output/lastdance/png").rglob("*.png"))
    assert len(pictures) == 30
    for path in pictures:
        with Image.open(path) as im:
            assert im.size == (w, h) == (1146, 720), path.name
            assert all(abs(d - 300) < 0.01 for d in im.info["dpi"]), path.name


def test_a_large_rasterising_uses_a_pool_of_processes_and_gives_the_same_pictures(
        project, monkeypatch):
    """`build --png` of a big game draws its faces a chunk at a time in a process per core
    (write/png.py): the pictures are byte for byte those drawn in one process, in order,
    and the progress hears every chunk."""
    from generator.load import Project
    from generator.pipeline import check, lay_out
    from generator.write import png

    faces = lay_out(check(Project.find(project), "lastdance"))
    assert faces is not None
    deck = faces.decks[0]
    chosen = [deck.fronts[c.id] for c in deck.deck.cards] + \
        [deck.backs[c.id] for c in deck.deck.cards[:3]]
    font = faces.game.main_family.regular
    monkeypatch.setattr(png, "POOLED", 10 ** 12)  # one process
    alone = png.faces_to_png(chosen, 40, font, None)
    pooled_too: list = []
    real = png._rasterised

    def watched(*args):
        for chunk, images in real(*args):
            pooled_too.append(len(chunk))
            yield chunk, images

    heard: list[tuple[int, int]] = []
    monkeypatch.setattr(png, "POOLED", 0)
    monkeypatch.setattr(png, "CHUNK", 4)
    monkeypatch.setattr(png, "workers", lambda: 2)
    monkeypatch.setattr(png, "_rasterised", watched)
    pooled = png.faces_to_png(chosen, 40, font, None,
                              counting=lambda done, total: heard.append((done, total)))
    assert pooled == alone
    distinct = len({png.face_key(f, 40, True) for f in chosen})
    assert sum(pooled_too) == distinct and max(pooled_too) == 4 and len(pooled_too) > 2
    assert len(heard) > len(pooled_too) // 2 and heard[-1] == (len(chosen), len(chosen))
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)


def test_a_plain_build_after_build_png_says_plainly_that_it_removes_the_pictures(
        project, cardgen, monkeypatch):
    """A plain build does not make card pictures, so it removes those an earlier `build
    --png` wrote (a print folder keeps only what its build made); it says so in one line
    that names them as pictures and how to have them back: `build --png` copies them from
    the cache, drawing none."""
    assert cardgen("build", "--png", "--dpi", "40", "lastdance").code == 0
    folder = project / "output/lastdance/png/cards"
    before = {p.name: p.read_bytes() for p in folder.glob("*.png")}
    assert len(before) == 30
    run = cardgen("build", "lastdance")
    assert run.code == 0 and not list(folder.glob("*.png"))
    assert ("removed 30 card pictures of an earlier 'build --png' from output/lastdance/png/ "
            "(this build was not asked for pictures; 'build --png' writes them again from "
            "output/.cache/png/ without drawing them)") in run.out.splitlines()
    from generator.write import png

    def drawn(*args, **kwargs):
        raise AssertionError("a picture was drawn again")
    monkeypatch.setattr(png, "rasterise", drawn)
    assert cardgen("build", "--png", "--dpi", "40", "lastdance").code == 0
    assert {p.name: p.read_bytes() for p in folder.glob("*.png")} == before


def test_a_project_kept_under_a_folder_named_png_has_no_card_pictures_said_for_it(
        project, cardgen, monkeypatch, tmp_path):
    """Which removed files were card pictures is read from their path below the output
    folder (<game>/png/<deck>/): a project kept under a folder of the designer's named png
    had every removed PNG (proof sheets) said to be card pictures of an earlier build --png."""
    home = tmp_path / "png" / "proj"
    home.parent.mkdir()
    project.rename(home)
    monkeypatch.chdir(home)
    assert cardgen("build", "--proof", "lastdance").code == 0
    proofs = sorted(p.name for p in (home / "output/lastdance").glob("*.png"))
    assert proofs
    run = cardgen("build", "lastdance")
    assert run.code == 0
    assert not [line for line in run.out.splitlines() if "card picture" in line], run.out
    for name in proofs:
        assert (f"removed output/lastdance/{name} (an earlier build wrote it; this one does "
                "not)") in run.out.splitlines(), run.out
