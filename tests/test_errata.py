"""Errata by what is printed (issue #18): one identity per printed face, used by `diff`,
errata sets, the PNG cache, `serve` and back grouping. Each test builds two versions of a
small game and reads the results back."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from PIL import Image as PILImage

from pdfcheck import reader

GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]


def git(project, *args):
    subprocess.run([*GIT, *args], cwd=project, check=True, capture_output=True)


def _png(path, color):
    PILImage.new("RGB", (60, 40), color).save(path)


@pytest.fixture
def game(project):
    """A four-card game whose fronts print a data-table term (two cards share one), an
    image (two cards), the name and a long text; `note` is printed nowhere."""
    folder = project / "cards/rev"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "title: Revisions\ndecks:\n  - id: main\n    cards: cards.yaml\n    front: rev-front\n"
        "    back: rev-back\ndata:\n  terms: terms.yaml\n", "utf-8")
    (folder / "terms.yaml").write_text(
        "terms:\n  - {id: swift, label: Swift}\n  - {id: brave, label: Brave}\n", "utf-8")
    (folder / "cards.yaml").write_text(
        "cards:\n"
        "  - {id: a, name: Alpha, term: swift, pic: true, copies: 2, note: x,\n"
        "     text: There are three points to remember when the Prince's Butler is used in a "
        "duel at the ball.}\n"
        "  - {id: b, name: Beta, term: swift, pic: false, copies: 2, note: x, text: 姫が舞踏会で"
        "最初に踊る相手を選び、その相手は次の手番を休む。}\n"
        "  - {id: c, name: Gamma, term: brave, pic: true, copies: 1, note: x, text: Plain.}\n"
        "  - {id: d, name: Delta, term: brave, pic: false, copies: 3, note: x, text: Plain.}\n",
        "utf-8")
    _png(folder / "art.png", "teal")
    (project / "layouts/rev-front.yaml").write_text(
        "size: meishi\nelements:\n"
        "  - {name: title, type: text, text: '{{ card.name }}', x: 4mm, y: 4mm, width: 60mm,"
        " height: 8mm, size: 10pt}\n"
        "  - {name: term, type: text, text: \"{{ (data.terms.terms | selectattr('id', 'equalto', "
        "card.term) | first).label }}\", x: 4mm, y: 14mm, width: 40mm, height: 6mm, size: 8pt}\n"
        "  - {name: art, type: image, src: art.png, x: 66mm, y: 4mm, width: 20mm, height: 14mm,"
        " when: card.pic}\n"
        "  - {name: body, type: text, text: '{{ card.text }}', x: 4mm, y: 24mm, width: 83mm,"
        " height: 26mm, size: 7pt}\n", "utf-8")
    (project / "layouts/rev-back.yaml").write_text(
        "size: meishi\nelements:\n  - {name: bg, type: rect, fill: '#334455', bleed: true}\n",
        "utf-8")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1")
    return folder


def _edit(path, old, new):
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def _diff(cardgen):
    run = cardgen("diff", "rev")
    assert run.code == 0, run.lines
    return run.lines


def _reprinted(lines):
    return sorted(re.findall(r"^~ card '(\w+)'", "\n".join(lines), re.M))


def _errata(cardgen, project):
    run = cardgen("build", "--changed-since", "HEAD", "rev")
    assert run.code == 0, run.lines
    out = project / "output/rev"
    guide = (out / "rev-errata-print-guide.txt").read_text("utf-8")
    fronts = out / "rev-errata-fronts.pdf"
    names = [] if not fronts.exists() else re.findall(
        r"Alpha|Beta|Gamma|Delta", " ".join(p.extract_text() for p in reader(fronts).pages))
    return guide, names


def test_a_data_table_edit_reprints_exactly_the_cards_that_print_it(game, project, cardgen):
    _edit(game / "terms.yaml", "label: Swift", "label: Quick")
    lines = _diff(cardgen)
    assert _reprinted(lines) == ["a", "b"]
    assert "    data terms.terms[swift].label: Swift -> Quick" in lines
    guide, names = _errata(cardgen, project)
    assert sorted(names) == ["Alpha", "Alpha", "Beta", "Beta"]  # all copies of both
    assert "replace all 2 × Alpha (a): the front changed (data terms.terms[swift].label: " \
           "Swift -> Quick)" in guide


def test_a_layout_font_size_change_reprints_every_card_of_that_layout(game, project, cardgen):
    _edit(project / "layouts/rev-front.yaml", "height: 8mm, size: 10pt", "height: 8mm, size: 11pt")
    lines = _diff(cardgen)
    assert _reprinted(lines) == ["a", "b", "c", "d"]
    assert "    layout 'rev-front': element 'title' (size: 10pt -> 11pt)" in lines
    guide, names = _errata(cardgen, project)
    assert len(names) == 8  # 2 + 2 + 1 + 3 copies


def test_a_field_no_layout_prints_changes_nothing_printed(game, project, cardgen):
    _edit(game / "cards.yaml", "copies: 1, note: x", "copies: 1, note: y")
    lines = _diff(cardgen)
    assert _reprinted(lines) == []
    assert lines[-2:] == ["changes that print nothing:", "    card 'c' field note: x -> y"]
    run = cardgen("build", "--changed-since", "HEAD", "rev")
    assert run.lines == ["rev: nothing printed changed since HEAD"]
    assert not (project / "output/rev/rev-errata-fronts.pdf").exists()


def test_a_japanese_games_unprinted_changes_are_said_in_japanese(game, project, cardgen):
    """A `lang: ja` game's diff says its changes that print nothing in Japanese, as the rest
    of its report (they were English: `card 'c' field note: (none) -> y`)."""
    _edit(game / "game.yaml", "title: Revisions\n", "title: Revisions\nlang: ja\n")
    git(project, "commit", "-qam", "ja")
    _edit(game / "cards.yaml", "copies: 1, note: x", "copies: 1, note: y")
    _edit(game / "cards.yaml", "copies: 3, note: x", "copies: 3")
    run = cardgen("diff", "rev")
    assert run.code == 0, run.lines
    assert run.lines[-3:] == ["刷るものが変わらない変更:",
                              "    カード「c」のフィールド note: x -> y",
                              "    カード「d」のフィールド note: x -> （なし）"]


def test_copies_going_up_and_down_print_more_or_remove_without_a_reprint(game, project, cardgen):
    _edit(game / "cards.yaml", "pic: true, copies: 2", "pic: true, copies: 3")  # a: 2 -> 3
    _edit(game / "cards.yaml", "pic: false, copies: 2", "pic: false, copies: 1")  # b: 2 -> 1
    lines = _diff(cardgen)
    assert _reprinted(lines) == []
    assert "= card 'a' (main): copies 2 -> 3, print unchanged" in lines
    assert "= card 'b' (main): copies 2 -> 1, print unchanged" in lines
    guide, names = _errata(cardgen, project)
    assert names == ["Alpha"]  # the one extra copy, nothing reprinted
    assert "print 1 more × Alpha (a) (copies 2 -> 3; the print is unchanged)" in guide
    assert "remove 1 × Beta (b) (copies 2 -> 1)" in guide
    assert "replace all" not in guide


def test_removed_and_added_cards_are_listed(game, project, cardgen):
    _edit(game / "cards.yaml", "  - {id: c, name: Gamma", "  - {id: e, name: Epsilon")
    guide, names = _errata(cardgen, project)
    assert "remove all 1 × Gamma (c): the card was removed" in guide
    assert "print 1 × Epsilon (e): a new card" in guide


def _png_of(project, card):
    data = (project / f"output/rev/png/main/{card}-front.png").read_bytes()
    with PILImage.open(io.BytesIO(data)) as im:
        return im.convert("RGB").getpixel((int(im.width * 0.83), int(im.height * 0.25)))


def test_new_pixels_in_an_image_reprint_its_cards_and_every_picture_shows_them(
        game, project, cardgen):
    from generator.load import Project
    from generator.serve import Preview, build_preview, picture

    assert cardgen("build", "--png", "rev").code == 0
    preview = Preview()
    build_preview(Project.find(project), "rev", preview)
    before = picture(preview, "main/a-front.png")
    teal = _png_of(project, "a")
    _png(game / "art.png", "orange")  # same name, same size, new pixels
    lines = _diff(cardgen)
    assert _reprinted(lines) == ["a", "c"]
    assert "    image 'art.png' changed" in lines
    assert cardgen("build", "--png", "rev").code == 0  # the same process: no restart
    assert _png_of(project, "a") != teal and _png_of(project, "a")[0] > 200
    build_preview(Project.find(project), "rev", preview)
    assert picture(preview, "main/a-front.png") != before


def test_a_replaced_font_file_reprints_what_is_set_in_it(game, project, cardgen):
    from conftest import REPO

    fonts = project / "fonts"
    fonts.unlink()
    shutil.copytree(REPO / "fonts", fonts)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "fonts in the project")
    from generator.load import Project
    from generator.serve import Preview, build_preview, picture

    assert cardgen("build", "--png", "rev").code == 0
    first = (project / "output/rev/png/main/a-front.png").read_bytes()
    preview = Preview()
    build_preview(Project.find(project), "rev", preview)
    served = picture(preview, "main/a-front.png")
    shutil.copyfile(REPO / "fonts/BIZUDPMincho-Regular.ttf", fonts / "BIZUDPGothic-Regular.ttf")
    lines = _diff(cardgen)
    assert _reprinted(lines) == ["a", "b", "c", "d"]
    assert any(line.startswith("    font gothic") for line in lines), lines
    assert cardgen("build", "--png", "rev").code == 0
    assert (project / "output/rev/png/main/a-front.png").read_bytes() != first
    build_preview(Project.find(project), "rev", preview)  # the same process: no restart
    assert picture(preview, "main/a-front.png") != served


def test_a_mid_sentence_edit_shows_the_changed_words(game, project, cardgen):
    _edit(game / "cards.yaml", "Butler is used in a duel", "Butler is played in a duel")
    _edit(game / "cards.yaml", "最初に踊る相手", "最後に踊る相手")
    lines = _diff(cardgen)
    english = next(line for line in lines if line.startswith("    field text:")
                   and "Butler" in line)
    assert english == '    field text: was "…Butler is used in a…", now "…Butler is played in a…"'
    japanese = next(line for line in lines
                    if line.startswith("    field text:") and "姫" not in line and "踊" in line)
    assert japanese == '    field text: was "…踏会で最初に踊る相…", now "…踏会で最後に踊る相…"'
    assert not [line for line in lines if "{+" in line or "[-" in line or "  " in line.strip()]


def test_the_visual_report_pairs_every_changed_face_and_outlines_the_change(
        game, project, cardgen):
    _edit(game / "terms.yaml", "label: Swift", "label: Quick")
    run = cardgen("diff", "--visual", "rev")
    assert run.code == 0
    pdf = reader(project / "output/rev/rev-changes.pdf")
    images = sum(len(page.images) for page in pdf.pages)
    assert images == 4  # a and b, before and after
    content = b"".join(page.get_contents().get_data() for page in pdf.pages)
    outlines = re.findall(rb".85 .1 .1 RG[^Q]*?re", content)
    assert outlines, "no changed region was outlined"
    text = " ".join(page.extract_text() for page in pdf.pages)
    # the page is in the game's language: Japanese, found from card b's text
    assert "a（表面）" in text and "b（表面）" in text and "c（表面）" not in text


def test_the_changed_region_is_where_the_pixels_differ():
    from generator.write.changes import changed_regions

    def png(box):
        im = PILImage.new("RGB", (200, 100), "white")
        if box:
            im.paste((0, 0, 0), box)
        out = io.BytesIO()
        im.save(out, "PNG")
        return out.getvalue()

    regions = changed_regions(png(None), png((150, 10, 170, 30)))
    assert len(regions) == 1
    x, y, w, h = regions[0]
    assert 0.7 <= x <= 0.75 and 0.0 <= y <= 0.1 and w <= 0.2 and h <= 0.35
    assert changed_regions(png(None), png(None)) == []


def test_a_back_that_differs_on_every_card_is_a_warning_naming_the_element(game, project, cardgen):
    (project / "layouts/rev-back.yaml").write_text(
        "size: meishi\nelements:\n  - {name: bg, type: rect, fill: '#334455', bleed: true}\n"
        "  - {name: who, type: text, text: '{{ card.id }}'}\n", "utf-8")
    run = cardgen("validate", "rev")
    assert "layouts/rev-back.yaml:4:5: warning: deck 'main': the back layout 'rev-back' comes " \
           "out different on every card (element 'who' uses the card)" in "\n".join(run.lines)


def test_diff_as_json(game, project, cardgen):
    import json
    _edit(game / "terms.yaml", "label: Swift", "label: Quick")
    run = cardgen("diff", "--format", "json", "rev")
    data = json.loads(run.out)
    assert [r["id"] for r in data["reprinted"]] == ["a", "b"]
    assert data["reprinted"][0]["sides"] == ["front"]


def test_serve_shows_the_changes_since_a_revision(game, project):
    from generator.load import Project
    from generator.serve import Preview, build_preview, page_state, render_page

    _edit(game / "terms.yaml", "label: Swift", "label: Quick")
    preview = Preview(since="HEAD")
    build_preview(Project.find(project), "rev", preview)
    assert [(c["id"], c["side"]) for c in preview.changes] == [("a", "front"), ("b", "front")]
    page = render_page("rev", preview)
    assert "Changes since HEAD" in page
    assert 'id="changes"' in page  # drawn by the page's script from its state, at every save
    state = page_state(preview)
    assert [c["causes"] for c in state["changes"]] == [
        ["data terms.terms[swift].label: Swift -> Quick"]] * 2
    assert "data terms.terms[swift].label: Swift -\\u003e Quick" in page  # (its state, escaped)
    after = preview.images["changes/a-front-after.png"]
    with PILImage.open(io.BytesIO(after)) as im:  # the outline is drawn in red
        data = im.convert("RGB").tobytes()
    assert any(data[i] > 200 and data[i + 1] < 60 and data[i + 2] < 60
               for i in range(0, len(data), 3))


def test_an_errata_run_that_reprints_nothing_removes_the_earlier_errata_set(game, project, cardgen):
    """A build owns its files (write/ledger.py): once the cards are back as the revision
    has them, the errata set an earlier run wrote is no longer what changed, and is removed
    (said), not left to be printed; the game's own build is untouched."""
    assert cardgen("build", "rev").code == 0
    _edit(game / "cards.yaml", "name: Gamma", "name: Gamma Ray")
    guide, names = _errata(cardgen, project)
    out = project / "output/rev"
    errata = sorted(p.name for p in out.glob("rev-errata-*"))
    assert "rev-errata-fronts.pdf" in errata and names == ["Gamma"]
    _edit(game / "cards.yaml", "name: Gamma Ray", "name: Gamma")
    run = cardgen("build", "--changed-since", "HEAD", "rev")
    assert run.code == 0
    assert run.lines[0] == "rev: nothing printed changed since HEAD"
    assert sorted(run.lines[1:]) == [f"removed output/rev/{name} (an earlier errata set's)"
                                     for name in errata]
    assert not list(out.glob("rev-errata-*"))
    assert (out / "rev-fronts.pdf").exists() and (out / "rev-print-guide.txt").exists()
