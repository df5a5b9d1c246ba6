"""`cardgen showcase`: presentation pictures of chosen cards, read back as images: their
size, the cards in them where they should be (their colours found in the picture), the
same bytes twice, and usage errors said as such."""

from __future__ import annotations

from PIL import Image

from conftest import write_game

LAYOUT = {"size": "poker", "elements": [
    {"name": "ground", "type": "rect", "fill": "{{ card.tint }}", "bleed": True},
    {"name": "name", "type": "text", "text": "{{ card.name }}", "x": "5mm", "y": "5mm",
     "width": "50mm", "height": "10mm", "color": "white"}]}
TINTS = {"red": (220, 30, 30), "green": (30, 170, 60), "blue": (30, 60, 220)}


def _game(project) -> None:
    write_game(project, "show", {"title": "Show 見せる", "lang": "en",
                                 "decks": [{"id": "d", "front": "show-front", "back": "show-front",
                                            "sheet": "plain-a4"}]},
               [{"id": k, "name": k.title(), "tint": "#%02x%02x%02x" % v}
                for k, v in TINTS.items()], {"show-front": LAYOUT})


def _columns(image: Image.Image, color, row: int) -> list[int]:
    """The x of every pixel of the row close to the colour."""
    return [x for x in range(image.width)
            if sum(abs(a - b) for a, b in zip(image.getpixel((x, row)), color)) < 40]


def test_a_row_of_the_chosen_cards_at_the_size_asked(project, cardgen):
    _game(project)
    run = cardgen("showcase", "show", "--cards", "blue", "red")
    assert run.code == 0, run.lines
    path = project / "output/show/showcase/show-showcase.png"
    assert run.out.strip() == "wrote output/show/showcase/show-showcase.png"
    image = Image.open(path).convert("RGB")
    assert image.size == (1200, 630)
    middle = image.height * 0.55  # through the cards, below the title
    blue = _columns(image, TINTS["blue"], round(middle))
    red = _columns(image, TINTS["red"], round(middle))
    assert blue and red and max(blue) < min(red)  # in the order asked, side by side
    assert not _columns(image, TINTS["green"], round(middle))  # not asked for
    width = max(blue) - min(blue)
    assert abs(width / (max(red) - min(red)) - 1) < 0.02  # the same card size
    # a poker card's proportions: its height measured down the middle of the blue card
    x = (min(blue) + max(blue)) // 2
    rows = [y for y in range(image.height) if sum(abs(a - b) for a, b in zip(
        image.getpixel((x, y)), TINTS["blue"])) < 40]
    assert abs((max(rows) - min(rows)) / width - 3.5 / 2.5) < 0.05
    first = path.read_bytes()
    assert cardgen("showcase", "show", "--cards", "blue", "red").code == 0
    assert path.read_bytes() == first  # the same bytes (the second from the PNG cache)


def test_a_hand_fans_every_card_and_takes_a_size_and_background(project, cardgen):
    _game(project)
    run = cardgen("showcase", "show", "--hand", "--size", "square", "--background", "#203040")
    assert run.code == 0, run.lines
    image = Image.open(project / "output/show/showcase/show-hand.png").convert("RGB")
    assert image.size == (1080, 1080)
    assert image.getpixel((5, 5)) == (0x20, 0x30, 0x40)
    pixels = image.load()
    sample = [pixels[x, y] for x in range(0, image.width, 3) for y in range(0, image.height, 3)]
    found = {name: sum(1 for px in sample if sum(abs(a - b) for a, b in zip(px, color)) < 40)
             for name, color in TINTS.items()}
    assert all(found.values()), found  # every card of the deck (none named: the first few)
    assert found["blue"] > found["red"] and found["blue"] > found["green"]  # the last on top
    run = cardgen("showcase", "show", "--size", "640x360", "--title", "")
    assert Image.open(project / "output/show/showcase/show-showcase.png").size == (640, 360)


def test_usage_errors_name_what_is_wrong(project, cardgen):
    _game(project)
    run = cardgen("showcase", "show", "--cards", "bleu")
    assert run.code == 2 and "game 'show' has no card 'bleu' (did you mean 'blue'?)" in run.err
    run = cardgen("showcase", "show", "--size", "9000x10")
    assert run.code == 2 and "'9000x10' is not a picture size" in run.err
    run = cardgen("showcase", "show", "--background", "#12")
    assert run.code == 2 and "--background:" in run.err
    run = cardgen("showcase", "show", "--cards", *["red"] * 13)
    assert run.code == 2 and "at most 12" in run.err
    assert not (project / "output/show/showcase").exists()


def test_the_title_is_drawn_in_the_font_its_name_stands_for(tmp_path):
    """The title was drawn by Pillow from the font's file path: a file saved over after the
    font was registered (serve, watch) drew the new font under the old name, past the
    digest check every other use of a font makes. It reads the font through fonts.py: the
    registered bytes, or the located error every other use gives."""
    import shutil
    from pathlib import Path
    import pytest
    from generator import fonts
    from generator.problems import DataProblems, Location
    from generator.write.showcase import _title
    repo = Path(__file__).parent.parent
    font = tmp_path / "gothic.ttf"
    shutil.copy(repo / "fonts/BIZUDPGothic-Bold.ttf", font)
    name = fonts.register(font, Location("fonts/fonts.yaml", 3, 14), "gothic")
    canvas = Image.new("RGBA", (1200, 630), (255, 255, 255, 255))
    _title(canvas, "見せる Show", name, 100, (0.0, 0.0, 0.0))
    assert canvas.getbbox() and canvas.convert("L").getextrema()[0] < 50  # drawn, in ink
    shutil.copy(repo / "fonts/BIZUDGothic-Regular.ttf", font)  # saved before the showcase
    with pytest.raises(DataProblems) as problems:
        _title(canvas, "見せる Show", name, 100, (0.0, 0.0, 0.0))
    assert [p.format() for p in problems.value.report.sorted()] == [
        "fonts/fonts.yaml:3:14: error: font family 'gothic': gothic.ttf changed after it was "
        "read (a new version of the font was saved); build again to use the new version [font]"]
