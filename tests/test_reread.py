"""Reading a saved file again (serve, watch): only the items a save changed are parsed
again, and what comes out is what reading the whole file gives: the same values, the same
place for every value and key, the same problems (issue 62)."""

from __future__ import annotations

import pytest

from generator.load import reread, yamlfile
from generator.problems import Report, unpacked


def _whole(text: str, file: str):
    report = Report()
    return yamlfile.parse_yaml(text, file, report), report


def _places(table: dict, file: str) -> dict:
    return {path: unpacked(file, where) for path, where in table.items()}


@pytest.fixture
def kept(monkeypatch):
    monkeypatch.setattr(reread, "_KEPT", {})
    parsed: list[int] = []  # the size of each text parsed (the whole file, or a few items)
    real = yamlfile.parse_converted

    def counting(text, *args, **kwargs):
        parsed.append(sum(1 for line in text.split("\n") if line.strip()))
        return real(text, *args, **kwargs)
    monkeypatch.setattr(yamlfile, "parse_converted", counting)
    return parsed


def _same_as_whole(tmp_path, text: str, file: str = "cards/g/cards.yaml"):
    path = tmp_path / "cards.yaml"
    path.write_text(text, "utf-8")
    again = Report()
    doc = yamlfile.load_yaml(path, file, again)
    whole, report = _whole(text, file)
    assert [str(p) for p in again.problems] == [str(p) for p in report.problems]
    if whole is None:
        assert doc is None
        return None
    assert doc is not None
    assert doc.data == whole.data
    assert _places(doc.value_locs, file) == _places(whole.value_locs, file)
    assert _places(doc.key_locs, file) == _places(whole.key_locs, file)
    return doc


DECK = "# a deck\ncards:\n" + "".join(
    f"  - {{id: c{n}, title: 踊り子{n}, number: {n}, body: \"text {n}\"}}\n" for n in range(40)
) + "  - id: block\n    title: written as a block\n    tags: [a, b]\n" + \
    "".join(f"  - {{id: d{n}, title: T{n}}}\n" for n in range(20)) + "fields:\n  title: text\n"


def _edits():
    text = DECK
    yield "a field", (text := text.replace("title: 踊り子7,", "title: 踊り子改,"))
    yield "a card added", (text := text.replace("  - {id: c9,", "  - {id: new, title: N}\n"
                                                   "  - {id: c9,"))
    yield "a card removed", (text := text.replace(
        "  - {id: c12, title: 踊り子12, number: 12, body: \"text 12\"}\n", ""))
    yield "a line above", (text := text.replace("cards:\n", "# more\ncards:\n"))
    yield "a comment between cards", (text := text.replace("  - {id: c20,",
                                                           "  # a note\n  - {id: c20,"))
    yield "an invalid value", (text := text.replace("number: 30,", "number: [30,"))
    yield "fixed", (text := text.replace("number: [30,", "number: 30,"))
    yield "a duplicate key", (text := text.replace("{id: c31,", "{id: c31, id: x,"))
    yield "fixed again", (text := text.replace("{id: c31, id: x,", "{id: c31,"))
    yield "a block card grows", (text := text.replace("    tags: [a, b]\n",
                                                      "    tags: [a, b]\n    note: |\n"
                                                      "      two\n      lines\n"))
    yield "the last card", (text := text.replace("{id: d19, title: T19}", "{id: d19, title: X}"))
    yield "a card after the last", (text := text.replace("fields:\n",
                                                         "  - {id: d20, title: T20}\nfields:\n"))
    yield "after the list", (text := text.replace("  title: text\n", "  title: number\n"))
    yield "a line after the list", (text := text + "# the end\n")
    yield "an anchor", (text := text.replace("{id: c2,", "{id: &a c2,"))
    yield "an alias", (text := text.replace("{id: c3,", "{id: *a,"))
    yield "no anchor again", (text := text.replace("{id: *a,", "{id: c3,").replace(
        "&a c2", "c2"))
    yield "the first card", (text := text.replace("{id: c0, title: 踊り子0", "{id: c0, title: Z"))
    yield "a card removed at the start", (text := text.replace(
        "  - {id: c0, title: Z, number: 0, body: \"text 0\"}\n", ""))
    yield "two cards far apart", (text := text.replace("title: 踊り子33", "title: A").replace(
        "title: T5}", "title: B}"))
    yield "a text that is not text", (text := text.replace("body: \"text 35\"",
                                                           "body: \"text\\u0001\""))
    yield "a key out of the list", (text := text.replace("body: \"text\\u0001\"",
                                                         "body: \"x\"\nmore: 1"))
    yield "back in the list", (text := text.replace("\nmore: 1", ""))
    yield "tabs", (text := text.replace("  - {id: c36,", "\t- {id: c36,"))
    yield "no tabs", (text := text.replace("\t- {id: c36,", "  - {id: c36,"))
    yield "the first card deeper", (text := text.replace("cards:\n  - {id: c1,",
                                                         "cards:\n    - {id: c1,"))
    yield "the first card back", (text := text.replace("cards:\n    - {id: c1,",
                                                       "cards:\n  - {id: c1,"))
    yield "a comment above the first card", (text := text.replace(
        "cards:\n", "cards:\n  # the starters\n"))
    yield "a complex key", (text := text.replace("  - {id: c38,", "  - ? complex\n    id: x38\n"
                                                 "  - {id: c38,"))
    yield "all cards removed", "cards: []\n"


def test_a_file_read_again_is_what_reading_it_whole_gives(tmp_path, kept):
    doc = _same_as_whole(tmp_path, DECK)
    assert kept[-1] >= DECK.count("\n")
    partly = []
    for what, text in _edits():
        kept_items = {id(c) for c in doc.data["cards"]} if doc is not None else set()
        count = len(kept)
        doc = _same_as_whole(tmp_path, text)
        assert doc is not None or what in ("an invalid value", "a duplicate key", "tabs",
                                           "the first card deeper",
                                           "a key out of the list"), what
        cards = doc.data["cards"] if doc is not None else []
        # the cards not changed kept as they were read: the items were read again
        if cards and len({id(c) for c in cards} & kept_items) >= len(cards) - 3:
            assert kept[count] < 12, what  # (a few lines parsed, not the whole file)
            partly.append(what)
    assert partly == [  # what reads the items again; the rest reads the whole file
        "a field", "a card added", "a card removed", "a comment between cards",
        "a block card grows", "the last card", "a card after the last", "the first card",
        "a card removed at the start", "a comment above the first card"], partly


def test_the_same_text_is_the_same_document(tmp_path, kept):
    first = _same_as_whole(tmp_path, DECK)
    count = len(kept)
    again = _same_as_whole(tmp_path, DECK)
    assert again is first and len(kept) == count + 1  # (+1: the test's own whole read)


# Lines a designer (or a slip of the keyboard) puts anywhere in a deck: items, keys, block
# and quoted scalars left open, anchors, aliases, document markers, tabs, odd indents.
LINES = ["? x", "  ? x", "  - ? y", "    more: |", "      lit", "    more: >-", '  - "a',
         "  - {id: z", "---", "...", "  # c", "", "\t- x", "  -   id: q", "    - nested",
         "  - &a x", "  - *a", "  - id: n1", "    title: t", "    tags: [a,", "     b]", "  -",
         "    id: late", "x: 1", "  - {id: f, title: ok}", "      deeper: 1", "  - - inner",
         "    title: 'quo", "  te'", "cards:", '  - {id: g, body: "x\\ny"}', "    copies: 3",
         "   odd: 1", " - {id: h}"]


def test_random_edits_read_again_as_a_whole_read(tmp_path, monkeypatch):
    """600 edits drawn at random (a value changed, one of LINES added, a line removed or
    doubled), each read again from the last read and compared with a whole read."""
    import random
    monkeypatch.setattr(reread, "_KEPT", {})
    partly = []
    real = reread._items_again

    def counted(*args):
        read = real(*args)
        partly.append(read is not None)
        return read
    monkeypatch.setattr(reread, "_items_again", counted)
    base = "# deck\ncards:\n" + "".join(f"  - {{id: c{n}, title: T{n}}}\n" for n in range(12)) \
        + "  - id: blk\n    title: b\n    tags: [a, b]\n" + \
        "".join(f"  - {{id: d{n}}}\n" for n in range(5)) + "fields:\n  a: 1\n"
    rng, text = random.Random(7), base
    for _ in range(600):
        lines = (base if rng.random() < 0.15 else text).split("\n")[:-1]
        at, what = rng.randrange(len(lines)), rng.random()
        if what < 0.35:
            lines[at] = lines[at].replace("T", "U", 1) if "T" in lines[at] else lines[at] + " "
        elif what < 0.65:
            line = rng.choice(LINES)
            if "cards:" in lines and rng.random() < 0.2:  # above the first card, often
                at, line = lines.index("cards:") + 1, rng.choice(["  # c", "", "  - {id: f}"])
            lines.insert(at, line)
        elif what < 0.85 and len(lines) > 1:
            del lines[at]
        else:
            lines.insert(at, lines[at])
        text = "\n".join(lines) + "\n"
        _same_as_whole(tmp_path, text)
    assert sum(partly) >= 60  # (items read again, not only whole files)
