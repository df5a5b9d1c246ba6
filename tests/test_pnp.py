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
