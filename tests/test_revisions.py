"""Rules revisions: `cardgen diff`, errata sets, revision stamps, `cardgen watch`."""

from __future__ import annotations

import re
import subprocess
import threading
import time

import pytest

from pdfcheck import reader
from test_validate_lastdance import edit


def git(project, *args):
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)


@pytest.fixture
def repo(project):
    git(project, "init", "-q")
    git(project, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A")
    git(project, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "v1")
    return project


def revise(project):
    cards = project / "cards/lastdance/cards.yaml"
    # changed: the Princess's effect decided; removed: the Revolutionary; added: a Jester;
    # reordered: the Baron moved below the Baroness (not a change).
    edit(cards, "    name_en: Princess\n    copies: 1\n    effect: TBD\n",
         "    name_en: Princess\n    copies: 1\n    effect: 常に表向きにする。\n")
    text = cards.read_text("utf-8")
    text = text.replace("  - id: revolutionary\n    name: 革命家\n    name_en: Revolutionary\n"
                        "    copies: 1\n    effect: TBD\n",
                        "  - id: jester\n    name: 道化師\n    name_en: Jester\n    copies: 1\n"
                        "    effect: TBD\n")
    baron = "  - id: baron\n    name: 男爵\n    name_en: Baron\n    copies: 1\n    effect: TBD\n"
    baroness = ("  - id: baroness\n    name: 男爵夫人\n    name_en: Baroness\n    copies: 1\n"
                "    effect: TBD\n")
    text = text.replace(baron + baroness, baroness + baron)
    cards.write_text(text, "utf-8")
    for rulings in (project / "cards/lastdance/rulings.yaml",
                    project / "cards/lastdance/setup.yaml"):
        rulings.write_text(rulings.read_text("utf-8").replace("revolutionary", "jester"), "utf-8")


def test_diff_reports_added_removed_changed_and_ignores_order(repo, cardgen):
    assert cardgen("diff", "lastdance").lines == ["lastdance: no changes"]
    revise(repo)
    run = cardgen("diff", "lastdance")
    assert run.code == 0
    assert run.lines[:8] == [
        "lastdance: 1 added, 1 removed, 1 reprinted (1 front, 0 backs), 0 with other copies; "
        "2 changes print nothing",
        "+ card 'jester' (cards) 道化師 ×1",
        "- card 'revolutionary' (cards) 革命家 ×1",
        "~ card 'princess' (cards): reprint front",
        "    field effect: TBD -> 常に表向きにする。",
        "changes that print nothing:",
        "    data setup.cards_used[3].cards.revolutionary: 1 -> (none)",
        "    data setup.cards_used[3].cards.jester: (none) -> 1",
    ]  # the Baron moved below the Baroness: not a change of a card; Q&A entries by their id
    # The rulebook lists the cards in order, with their names, and shows their faces: its
    # pages 3 to 5 changed, and the Q&A's card list is printed in it (not "prints nothing").
    assert run.lines[8:11] == ["~ rulebook: 9 pages", "    pages 3, 4, 5: content changed",
                               "    page 6: redrawn (the same text: a picture, or where the "
                               "text stands, changed)"]
    assert run.lines[11].startswith("    booklet sheets to reprint: "), run.lines[11]  # the table's
    # first column narrows with the shorter name, so its rows on page 6 move too
    # a list (its page found past its bullets), and the table's rows (a section under
    # 'Setup'), not its markup
    assert run.lines[-4].startswith("    ~ section 'Components' (p. 3): "), run.lines
    assert run.lines[-3:-1] == [
        "    ~ section 'Setup › Cards Used by Player Count' (p. 5): new row: Jester (道化師) · – · "
        "– · – · 1 · 1",
        "    ~ section 'Setup › Cards Used by Player Count' (p. 5): row removed: Revolutionary "
        "(革命家) · – · – · – · 1 · 1"], run.lines
    assert run.lines[-1] == "    data rulings.qa[q4].cards[8]: revolutionary -> jester: " \
                            "the rulebook"


def test_diff_against_another_folder(project, cardgen, tmp_path):
    import shutil
    old = tmp_path / "old"
    shutil.copytree(project, old, symlinks=True)
    revise(project)
    run = cardgen("diff", "--against", str(old), "lastdance")
    assert run.lines[:4] == ["lastdance: 1 added, 1 removed, 1 reprinted (1 front, 0 backs), 0 "
                             "with other copies; 2 changes print nothing",
                             "+ card 'jester' (cards) 道化師 ×1",
                             "- card 'revolutionary' (cards) 革命家 ×1",
                             "~ card 'princess' (cards): reprint front"]


def test_errata_set_holds_only_the_changed_cards_with_their_backs(repo, cardgen):
    revise(repo)
    run = cardgen("build", "--changed-since", "HEAD", "lastdance")
    assert run.code == 0, run.lines
    out = repo / "output/lastdance"
    fronts = reader(out / "lastdance-errata-fronts.pdf")
    backs = reader(out / "lastdance-errata-backs.pdf")
    assert len(fronts.pages) == 1 and len(backs.pages) == 1
    text = "".join(fronts.pages[0].extract_text().split())
    assert "Princess" in text and "Jester" in text and "Baron" not in text
    assert "ラストダンスは私に" in backs.pages[0].extract_text()
    guide = (out / "lastdance-errata-print-guide.txt").read_text("utf-8")
    assert "lastdance-errata-fronts.pdf" in guide and "2 on 1 sheet" in guide and "(s)" not in guide
    assert not (out / "lastdance-fronts.pdf").exists()  # an errata build writes only the errata
    git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "v2")
    run = cardgen("build", "--changed-since", "HEAD", "lastdance")
    assert run.lines[0] == "lastdance: nothing printed changed since HEAD"
    assert run.lines[1:] and all(line.startswith("removed output/lastdance/lastdance-errata-")
                                 for line in run.lines[1:])  # the set since v1 is not news
    assert not list(out.glob("lastdance-errata-*"))


def test_the_revision_stamp_follows_what_the_face_prints(project, cardgen):
    """The stamp is the version and the identity of what the face prints without it: a
    layout change that reprints every card gives every card a new stamp; a change that
    prints nothing keeps them."""
    import re as _re
    game = project / "cards/lastdance/game.yaml"
    game.write_text(game.read_text("utf-8").replace("title_en: Save the Last Dance for Me\n",
                                                    "title_en: Save the Last Dance for Me\n"
                                                    "version: '1.2'\nstamp: true\n"), "utf-8")

    def stamps() -> list[str]:
        assert cardgen("build", "lastdance").code == 0
        text = " ".join(p.extract_text() for p in
                        reader(project / "output/lastdance/lastdance-fronts.pdf").pages)
        return _re.findall(r"1\.2 ([0-9a-f]{7})", text)
    first = stamps()
    assert len(first) >= 10 and len(set(first)) > 1  # one per card, each its own
    from generator.identity import face_identity
    from generator.load import Project
    from generator.pipeline import check, lay_out
    faces = lay_out(check(Project.find(), "lastdance"))
    face = faces.decks[0].fronts["princess"]
    unstamped = type(face)(face.width, face.height, face.items[:-1], face.bleed)
    assert face_identity(unstamped)[:7] in first
    cards = project / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8") + "\n# a comment prints nothing\n", "utf-8")
    assert stamps() == first
    layout = project / "layouts/lastdance-front.yaml"
    layout.write_text(layout.read_text("utf-8").replace("    size: 10pt\n    align: left",
                                                        "    size: 9pt\n    align: left"), "utf-8")
    again = stamps()  # every card with an English name prints it smaller: a new stamp; the
    assert len(again) == len(first)  # 4 blank cards print no English name: theirs stay
    assert sum(a != b for a, b in zip(again, first)) == 32


def test_watch_rebuilds_on_save_and_keeps_the_last_good_output(project, capsys):
    from generator import pipeline
    from generator.load import Project
    from generator.watch import watch

    results, stop = [], threading.Event()

    def rebuild(game):
        results.append(pipeline.build(Project.find(), game))

    thread = threading.Thread(target=watch, args=(Project.find(), ["lastdance"], rebuild, stop),
                              daemon=True)
    thread.start()
    fronts = project / "output/lastdance/lastdance-fronts.pdf"

    def wait_for(count):
        deadline = time.monotonic() + 20
        while len(results) < count:
            assert time.monotonic() < deadline
            time.sleep(0.05)

    try:
        wait_for(1)
        assert fronts.exists()
        cards = project / "cards/lastdance/cards.yaml"
        time.sleep(0.05)
        edit(cards, "name: 姫\n", "name: 姫君\n")
        wait_for(2)
        assert "姫君" in reader(fronts).pages[0].extract_text().replace("\n", "")
        good = fronts.read_bytes()
        edit(cards, "name: 姫君\n", "name: 姫君\n    nonsense: [\n")
        wait_for(3)
        assert results[-1].report.errors  # reported...
        assert fronts.read_bytes() == good  # ...and the last good PDF stays
    finally:
        stop.set()
        thread.join(5)


def test_a_build_pauses_the_cycle_collector_and_gives_it_back(project):
    """watch and serve build again and again in one process: each build must leave the
    collector as it found it (on), though it is off while the build runs."""
    import gc

    from generator import pipeline
    from generator.load import Project

    seen = []
    assert gc.isenabled()
    pipeline.build(Project.find(), "lastdance", progress=lambda _: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:
        pipeline.build(Project.find(), "lastdance")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_stamp_goes_where_the_layout_says_and_the_safe_area_sees_it(project, cardgen):
    game = project / "cards/lastdance/game.yaml"
    game.write_text(game.read_text("utf-8").replace("title_en: Save the Last Dance for Me\n",
                                                    "title_en: Save the Last Dance for Me\n"
                                                    "version: '1.2'\nstamp: true\n"), "utf-8")
    run = cardgen("export", "lastdance", "--profile", "jp-print")  # the default: 1.2 mm
    assert any("lastdance-front.yaml:" in line and "text element 'stamp' comes 1.2 mm from "
               "the trim on the bottom" in line for line in run.lines), run.lines
    layout = project / "layouts/lastdance-front.yaml"
    text = layout.read_text("utf-8")
    layout.write_text(text.replace("extends: default-front\n", "extends: default-front\n"
                                   "stamp: {x: 40mm, y: 50mm, size: 5pt}\n"), "utf-8")
    run = cardgen("export", "lastdance", "--profile", "jp-print")
    assert not any("'stamp'" in line for line in run.lines), run.lines
    assert cardgen("build", "lastdance").code == 0
    from pdfcheck import reader as pdf_reader
    page = pdf_reader(project / "output/lastdance/lastdance-fronts.pdf").pages[0]
    found = []
    page.extract_text(visitor_text=lambda t, cm, tm, font, size: found.append((t, tm, size))
                      if t.startswith("1.2 ") else None)
    assert found and all(abs(size - 5) < 0.01 or abs(tm[0] - 5) < 0.01 for _, tm, size in found)
    layout.write_text(text.replace("extends: default-front\n", "extends: default-front\n"
                                   "stamp: {x: 40mm, y: 53.5mm}\n"), "utf-8")
    run = cardgen("export", "lastdance", "--profile", "jp-print")
    assert any(re.search(r"lastdance-front\.yaml:\d+:\d+: warning: card '[\w-]+': text element "
                         r"'stamp' comes 0\.\d mm from the trim on the bottom", line)
               for line in run.lines), run.lines


@pytest.mark.parametrize("game", ["lastdance", "odoriko", "vampire-band", "dernier-peuple"])
def test_guides_and_diff_text_are_words_for_people(project, cardgen, game):
    """A print guide and a diff say what they say in words: no diff markup ({+ +}, [- -]),
    no double spaces inside a line, no hand-made plurals."""
    import re
    assert cardgen("build", "-q", game).code == 0
    texts = [(project / f"output/{game}/{game}-print-guide.txt").read_text("utf-8")]
    texts.append("\n".join(cardgen("diff", "--against", "HEAD", game).lines)
                 if (project / ".git").exists() else "")
    for text in texts:
        assert "{+" not in text and "[-" not in text and "(s)" not in text
        assert not [line for line in text.splitlines() if re.search(r"\S  +\S", line)]


POWER = ("  - {name: p, type: text, text: \"{{ card.power }}\", x: 5mm, y: 5mm, width: 40mm, "
         "height: 20mm, size: 30pt}\n")


def _gen(project, keys: str, files: dict[str, str], elements: str = POWER,
         committed: bool = True):
    """A small game 'gen' (game.yaml's `keys`, its `files`, one deck 'units' of deck.yaml
    by layout gen-front of `elements`), committed in a new repository."""
    game = project / "cards/gen"
    game.mkdir()
    (game / "game.yaml").write_text(
        f"title: Gen\n{keys}decks:\n  - {{id: units, cards: deck.yaml, front: gen-front}}\n",
        "utf-8")
    for name, text in files.items():
        (game / name).write_text(text, "utf-8")
    (project / "layouts/gen-front.yaml").write_text(f"size: meishi\nelements:\n{elements}",
                                                    "utf-8")
    if committed:
        git(project, "init", "-q")
        git(project, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A")
        git(project, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm",
            "v1")
    return game


def test_a_generated_cards_table_entry_is_its_own_field_and_a_rulebook_picture_is_redrawn(
        project, cardgen):
    """A card made from a data table (`generate: from:`): a change of its entry is the
    card's field, said with the card, not again as data that 'prints nothing'; a rulebook
    page that shows the card's face, its text as before, is redrawn and reprinted, not
    'reflowed' (the Codenames tester's key cards)."""
    game = _gen(project, "data: {units: units.yaml}\nrulebook: {template: rules.md}\n", {
        "units.yaml": "units:\n  - {id: knight, power: 3, color: red, lore: old}\n"
                      "  - {id: archer, power: 2, color: blue, lore: old}\n",
        "deck.yaml": "generate:\n  from: data.units.units\n  as: unit\n  fields:\n"
                     "    power: \"{{ unit.power }}\"\n    color: \"{{ unit.color }}\"\n",
        "rules.md": "# Rules\n\nThe units:\n\n{{ card_faces(['knight']) }}\n"},
        "  - {name: c, type: rect, fill: \"{{ card.color }}\"}\n" + POWER)
    edit(game / "units.yaml", "{id: knight, power: 3, color: red, lore: old}",
         "{id: knight, power: 3, color: green, lore: new}")
    run = cardgen("diff", "gen")
    assert run.code == 0, run.lines
    # (the entry's lore is no field of the card's: said as data that prints nothing)
    assert run.lines[:5] == [
        "gen: 0 added, 0 removed, 1 reprinted (1 front, 0 backs), 0 with other copies; "
        "1 change prints nothing",
        "~ card 'knight' (units): reprint front",
        "    field color: red -> green",
        "changes that print nothing:",
        "    data units.units[knight].lore: old -> new"]
    assert run.lines[5:] == [
        "~ rulebook: 3 pages",
        "    page 3: redrawn (the same text: a picture, or where the text stands, changed)",
        "    booklet sheet to reprint: 1"]


def test_a_rules_paragraph_is_said_as_the_rulebook_sets_it_japanese_lines_joined():
    """A paragraph written on two lines reads, in a diff or changelog, as the rulebook sets
    it: Japanese lines joined without a space (the Codenames tester's '人です。 通行人'),
    Latin ones with one."""
    from generator.diff.marks import plain
    assert plain("後攻チームは8人です。\n通行人は6人です。\nThe end\nof it.") == \
        "後攻チームは8人です。通行人は6人です。 The end of it."
    assert plain("card text\n次の行", markdown=False) == "card text 次の行"


def test_a_check_of_the_table_entry_a_card_was_made_from_is_that_cards_problem(
        project, cardgen):
    """A check over a data table whose entries made cards (`generate: from:`) reports each
    failure as its card's (Problem.card), so the preview marks the card (the Codenames
    tester's key cards had no mark for their failing counts); an entry that made no card,
    and a check of the whole game, are no card's."""
    from generator.load import Project
    from generator.pipeline import check
    _gen(project, "data: {units: units.yaml}\nchecks: checks.yaml\n", {
        "units.yaml": "units:\n  - {id: knight, power: 5}\n  - {id: archer, power: 2}\n"
                      "spare:\n  - {id: giant, power: 9}\n",
        "deck.yaml": "generate:\n  from: data.units.units\n  as: unit\n"
                     "  id: \"unit-{{ unit.id }}\"\n  fields:\n    power: \"{{ unit.power }}\"\n",
        "checks.yaml": "checks:\n  - name: weak\n    for: data.units.units.{u}\n"
                       "    assert: u.power < 4\n  - name: spare\n    for: data.units.spare.{u}\n"
                       "    assert: u.power < 4\n  - name: few\n"
                       "    assert: data.units.units | length > 5\n"}, committed=False)
    report = check(Project.find(project), "gen").report
    assert sorted((p.check, p.card) for p in report.errors) == [
        ("few", None), ("spare", None), ("weak", "unit-knight")]  # (by its place: its id
    # is made from the entry's)


def test_a_data_value_the_rulebook_prints_on_several_pages_names_each(project, cardgen):
    """A changed data value that the rulebook prints in paragraphs on two pages names both
    pages (the Codenames tester's bystanders, said on p. 3 only, though pages 5 and 7 print
    them too)."""
    game = _gen(project, "data: {rules: rules.yaml}\nrulebook: {template: rules.md}\n", {
        "rules.yaml": "hand: 5\n", "deck.yaml": "cards:\n  - {id: knight, power: 3}\n",
        "rules.md": "# Setup\n\nDeal {{ data.rules.hand }} cards to each player.\n\n"
                    "{{ pagebreak() }}\n\n# Play\n\nKeep at most {{ data.rules.hand }} cards in "
                    "hand.\n"})
    edit(game / "rules.yaml", "hand: 5", "hand: 6")
    run = cardgen("diff", "gen")
    assert run.code == 0, run.lines
    (said,) = [line for line in run.lines if "data rules.hand" in line]
    pages = [int(n) for n in re.findall(r"\d+", said.rsplit("pp.", 1)[1])]
    assert said.startswith("    data rules.hand: 5 -> 6: rulebook pp. ") and len(pages) == 2 \
        and pages[0] < pages[1], said
    from generator.diff.marks import joined_lines
    assert joined_lines(["人です。", "通行人は", "six", "words"]) == "人です。通行人は six words"
