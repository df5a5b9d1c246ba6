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
import subprocess

import pytest

from conftest import write_game

ROLE = {"size": "meishi", "elements": [
    {"name": "title", "type": "text", "text": "{{ card.name }}", "x": "4mm", "y": "3mm",
     "width": "100% - 8mm", "height": "8mm", "size": "9pt"},
    {"name": "power", "type": "text", "text": "Power {{ data.board.roles[card.id].power }}",
     "x": "4mm", "y": "12mm", "width": "100% - 8mm", "height": "6mm", "size": "8pt"},
    {"name": "body", "type": "text", "text": "{{ card.text }}", "x": "4mm", "y": "20mm",
     "width": "100% - 8mm", "height": "30mm", "size": "8pt"}]}

BOARD = ("roles:\n  scout: {power: 2}\n  guard: {power: 3}\n"
         "types:\n  plain: {color: '#ebe5c9'}\n  water: {color: '#9ecbe8'}\n"
         "track:\n" + "".join(f"  - {{column: {c}, row: 1, label: '{c}', type: plain, "
                              f"note: space {c}}}\n" for c in range(1, 9)) +
         "long:\n" + "".join(f"  - {{column: {c}, row: 1, type: plain}}\n" for c in range(1, 17)))
# a board of 16 spaces in a row, split over A4 pages
LONG = {"shape": "grid", "cell": ["25mm", "25mm"], "rows": 1, "columns": 16, "margin": "8mm",
        "papers": ["A4"], "overlap": "12mm", "print_margin": "6mm", "color": "#ede8da"}


def git(root, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   cwd=root, check=True, capture_output=True)


@pytest.fixture
def game(project):
    folder = write_game(project, "roles", {
        "title": "Roles", "lang": "en",
        "decks": [{"id": "roles", "front": "role-front",
                   "fields": {"name": {"type": "text"}, "text": {"type": "text"},
                              "notes": {"type": "text"}}}],
        "data": {"board": "board.yaml"},
        "boards": [{"id": "track", "layout": "grid", "cells": "data.board.track",
                    "types": "data.board.types"},
                   {"id": "long", "layout": "long", "cells": "data.board.long",
                    "types": "data.board.types"}],
    }, [{"id": "scout", "name": "Scout", "text": "Look at a card.", "notes": "playtest 1"},
        {"id": "guard", "name": "Guard", "text": "Block a scout.", "notes": "fine"}],
        layouts={"role-front": ROLE, "boards/long": LONG}, files={"board.yaml": BOARD.encode()})
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
          ("playtest 1", "playtest 2"))
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
        "~ card 'guard' (roles): reprint front",
        "    data board.roles.guard.power: 3 -> 4",
        "changes that print nothing:",
        "    card 'scout' field notes: playtest 1 -> playtest 2",
        "    data board.track[7].note: space 8 -> the last space",
        "~ board 'track': page 1 of 1 prints differently",
        "    cell 3 type: plain -> water",
        "    cell 5 type: plain -> water",
        "    cell 7 type: plain -> water"], run.out
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
        "- Guard: board.roles.guard.power 3 → 4", "",
        "## Components", "",
        *(f"- Board “track”: space {n}: type plain → water" for n in (3, 5, 7)), ""], markdown


def test_a_layout_change_of_several_keys_is_said_whole(game, cardgen):
    """Every changed key of an element is said (they stopped at three), and only the
    faces the layout draws are reprinted for it."""
    import yaml
    path = game.parent.parent / "layouts" / "role-front.yaml"
    layout = yaml.safe_load(path.read_text("utf-8"))
    layout["elements"][0].update(x="5mm", y="3.5mm", size="10pt", height="9mm")
    path.write_text(yaml.safe_dump(layout, sort_keys=False), "utf-8")
    run = cardgen("diff", "roles")
    assert run.code == 0, run.err
    cause = ("    layout 'role-front': element 'title' (height: 8mm -> 9mm, size: 9pt -> 10pt, "
             "x: 4mm -> 5mm, y: 3mm -> 3.5mm)")
    assert run.out.splitlines()[1:] == [
        "~ card 'scout' (roles): reprint front", cause,
        "~ card 'guard' (roles): reprint front", cause], run.out


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
