"""Incremental layout (issue 62): `serve` and `watch` lay out again only the faces whose
inputs changed (layout/memo.py). Over a series of edits of every kind (a card's field, a
layout, a data table, an image, a font, game.yaml, a deck added and removed, a card added
and removed, an error made and mended), each build with the memo gives the same faces
(their identities: what they print, image and font bytes included) and the same problems
as a full build of the same files, and a one-card edit lays out that card only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

REPO = Path(__file__).resolve().parent.parent

FRONT = """\
size: meishi
elements:
  - {name: frame, type: rect, fill: "#7a2e4a"}
  - {name: art, type: image, src: art.png, x: 60mm, y: 30mm, width: 25mm, height: 20mm}
  - {name: title, type: text, text: "{{ card.name }}", x: 5mm, y: 4mm, width: 50mm,
     height: 9mm, size: 12pt, color: white}
  - {name: bonus, type: text, text: "{{ data.words.bonus }} / {{ game.title }} / {{ deck.name }}",
     x: 5mm, y: 16mm, width: 50mm, height: 8mm, size: 8pt, color: white}
  - {name: body, type: text, text: "{{ card.effect }}", x: 5mm, y: 26mm, width: 50mm,
     height: 20mm, size: 8pt, color: white}
  - {name: mark, type: text, text: "{{ macros.mark(card.name) }}", x: 60mm, y: 4mm,
     width: 25mm, height: 8mm, size: 8pt, color: white}
"""
BACK = """\
size: meishi
elements:
  - {name: ground, type: rect, fill: "#203040"}
  - {name: mark, type: text, text: "{{ card.name }}", x: 0mm, y: 0mm, width: 100%,
     height: 100%, size: 10pt, color: white, align: center, valign: middle}
"""
GAME = """\
title: 増分
macros: terms.j2
data:
  words: words.yaml
decks:
  - {id: main, name: 本編, cards: cards.yaml, front: inc-front, back: inc-back, backs: duplex}
"""
CARDS = "cards:\n" + "".join(
    f"  - {{id: c{n}, name: カード{n}, effect: \"手札から{n}枚引く。\\n相手は1枚捨てる。\"}}\n"
    for n in range(6))


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "proj"
    (root / "cards/inc").mkdir(parents=True)
    shutil.copytree(REPO / "layouts/sheets", root / "layouts/sheets")
    (root / "fonts").mkdir()  # the project's own gothic, which an edit replaces
    (root / "fonts/fonts.yaml").write_text(
        "families:\n  gothic:\n    regular: gothic.ttf\n    bold: gothic-bold.ttf\n", "utf-8")
    shutil.copy(REPO / "fonts/BIZUDPGothic-Regular.ttf", root / "fonts/gothic.ttf")
    shutil.copy(REPO / "fonts/BIZUDPGothic-Bold.ttf", root / "fonts/gothic-bold.ttf")
    (root / "layouts/inc-front.yaml").write_text(FRONT, "utf-8")
    (root / "layouts/inc-back.yaml").write_text(BACK, "utf-8")
    folder = root / "cards/inc"
    (folder / "game.yaml").write_text(GAME, "utf-8")
    (folder / "cards.yaml").write_text(CARDS, "utf-8")
    (folder / "words.yaml").write_text("bonus: ＋1\nmark: ★\n", "utf-8")
    (folder / "terms.j2").write_text(  # a macro that reads the game's data (and its title)
        "{% set short = game.title[:1] %}"  # (its top reads the game too, at every stage)
        "{% macro mark(name) %}{{ data.words.mark }}{{ name | length }}{{ short }}{% endmacro %}",
        "utf-8")
    Image.new("RGB", (40, 30), (200, 40, 40)).save(folder / "art.png")
    monkeypatch.chdir(root)
    return root


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


def _edits(root: Path):
    """(what, edit) pairs: every kind of save a designer makes."""
    g = root / "cards/inc"
    cards, game, words = g / "cards.yaml", g / "game.yaml", g / "words.yaml"
    front, back = root / "layouts/inc-front.yaml", root / "layouts/inc-back.yaml"

    def art(color):
        return lambda: Image.new("RGB", (40, 30), color).save(g / "art.png")

    def font(name):
        return lambda: shutil.copy(REPO / "fonts" / name, root / "fonts/gothic.ttf")

    extra = ("  - {id: more, name: 追加, cards: more.yaml, front: inc-front, back: inc-back, "
             "backs: duplex}\n")
    return [
        ("a card's name", lambda: _replace(cards, "name: カード1,", "name: 改名1,")),
        ("another card's effect",
         lambda: _replace(cards, "手札から3枚引く。", "山札から3枚引く。")),
        ("a card's name again", lambda: _replace(cards, "name: 改名1,", "name: 再改名1,")),
        ("a field made TBD (a draft)", lambda: _replace(cards, "name: カード4,", "name: TBD,")),
        ("the draft decided", lambda: _replace(cards, "name: TBD,", "name: 決定4,")),
        ("a card added", lambda: cards.write_text(
            cards.read_text("utf-8") + "  - {id: c9, name: 新顔, effect: 無し。}\n", "utf-8")),
        ("a card removed", lambda: _replace(cards, "  - {id: c2, name: カード2, effect: "
                                            "\"手札から2枚引く。\\n相手は1枚捨てる。\"}\n", "")),
        ("the front layout", lambda: _replace(front, 'fill: "#7a2e4a"', 'fill: "#2e7a4a"')),
        ("the back layout", lambda: _replace(back, "size: 10pt", "size: 11pt")),
        ("a data table's value", lambda: _replace(words, "＋1", "＋2")),
        ("a data value only a macro reads", lambda: _replace(words, "★", "☆")),
        ("the macros file", lambda: _replace(g / "terms.j2", "| length", "| length + 1")),
        ("the image", art((40, 40, 200))),
        ("the image again", art((40, 200, 40))),
        ("the font's file", font("BIZUDGothic-Regular.ttf")),
        ("the font back", font("BIZUDPGothic-Regular.ttf")),
        ("game.yaml's title", lambda: _replace(game, "title: 増分", "title: 増分改")),
        ("the deck's name", lambda: _replace(game, "name: 本編", "name: 本編改")),
        ("a deck added", lambda: (
            (g / "more.yaml").write_text("cards:\n  - {id: m1, name: 追加1, effect: 一枚。}\n",
                                         "utf-8"),
            game.write_text(game.read_text("utf-8") + extra, "utf-8"))),
        ("a card of the new deck", lambda: _replace(g / "more.yaml", "追加1", "追加一")),
        ("a text too long for its box (an error)", lambda: _replace(
            cards, "name: カード5,", "name: " + "長い名前" * 30 + ",")),
        ("a card edited while the error stands", lambda: _replace(cards, "name: カード0,",
                                                                  "name: 最初0,")),
        ("the error mended", lambda: _replace(cards, "長い名前" * 30, "短い名前")),
        ("the deck removed", lambda: _replace(game, extra, "")),
        ("copies", lambda: _replace(cards, "{id: c3,", "{id: c3, copies: 2,")),
        ("a card's name, last", lambda: _replace(cards, "name: 最初0,", "name: 最後0,")),
        ("a line added above a card", lambda: _replace(cards, "  - {id: c4,",
                                                       "  # a note\n  - {id: c4,")),
        ("an invalid value", lambda: _replace(cards, "{id: c3, copies: 2,",
                                              "{id: c3, copies: many,")),
        ("a card edited below it", lambda: _replace(cards, "name: 決定4,", "name: 決定四,")),
        ("the invalid value mended", lambda: _replace(cards, "copies: many,", "copies: 3,")),
    ]


def _laid(root: Path, memo, kept: dict | None = None):
    """The faces' identities and the problems; with `memo` and `kept` (yamlfile's reads
    kept, as watch and serve keep them), as a save is checked and laid out again."""
    from generator.identity import face_identity
    from generator.load import Project, reread
    from generator.pipeline import check, lay_out

    before, reread._KEPT = reread._KEPT, kept
    try:
        outcome = check(Project.find(root), "inc")
    finally:
        reread._KEPT = before
    faces = lay_out(outcome, partial=True, memo=memo)
    assert faces is not None
    printed = {(d.deck.id, card, side): face_identity(face)
               for d in faces.decks
               for side, by in (("front", d.fronts), ("back", d.backs))
               for card, face in by.items()}
    return printed, [p.as_dict() for p in outcome.report.sorted()]


def test_incremental_layout_gives_what_a_full_layout_gives_over_every_kind_of_edit(game):
    from generator.layout.memo import FaceMemo
    from generator.watch import changed_files, files_stamp

    memo, kept = FaceMemo(), {}
    project_stamp = files_stamp(_project(game), "inc")
    first = _laid(game, memo, kept)
    assert first == _laid(game, None) and first[1] == []  # (the macro reads data: no problem)
    assert memo.hits == 0 and memo.laid == 12
    edits = _edits(game)
    assert len(edits) >= 20
    counts = {}
    for what, edit in edits:
        edit()
        stamp = files_stamp(_project(game), "inc")
        memo.saved(changed_files(project_stamp, stamp))
        project_stamp = stamp
        incremental = _laid(game, memo, kept)
        full = _laid(game, None)
        assert incremental == full, what
        counts[what] = (memo.hits, memo.laid)
    # A one-card edit lays out that card's two faces and reuses the others'.
    assert counts["a card's name"] == (10, 2)
    assert counts["another card's effect"] == (10, 2)
    assert counts["a card of the new deck"] == (12, 2)
    # A layout lays out again the faces it draws; what every face reads, every face.
    assert counts["the front layout"] == (6, 6) and counts["the back layout"] == (6, 6)
    for what in ("a data table's value", "the image", "the font's file", "game.yaml's title",
                 "a data value only a macro reads", "the macros file"):
        assert counts[what] == (0, 12), what
    assert counts["a line added above a card"] == (12, 0)  # (its places moved, nothing else)
    assert counts["a card edited below it"] == (8, 2)  # (c3 has an error: not laid out)


def _project(root: Path):
    from generator.load import Project
    return Project.find(root)


def test_a_face_that_says_a_problem_is_laid_out_again_to_say_it(game):
    """A card whose face has a problem is not kept: the problem is said at every build,
    where the file now has it (lines above it added or removed)."""
    from generator.layout.memo import FaceMemo
    memo = FaceMemo()
    cards = game / "cards/inc/cards.yaml"
    _replace(cards, "name: カード5,", "name: " + "長い名前" * 30 + ",")
    first = _laid(game, memo)
    assert any("does not fit" in p["message"] for p in first[1])
    cards.write_text("# a comment above\n" + cards.read_text("utf-8"), "utf-8")
    again = _laid(game, memo)
    assert again == _laid(game, None)
    assert [p["line"] for p in again[1] if "does not fit" in p["message"]] == \
        [p["line"] + 1 for p in first[1] if "does not fit" in p["message"]]
