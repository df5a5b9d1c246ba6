"""The docs are checked as code is (issue 46): every docs/*.md (and the README) is parsed
with the Markdown parser the rulebook uses, and

- no table is broken by a paragraph between its rows (the rows after it would print as
  text full of `|`);
- every relative link, and every path of the repository the text names (`docs/boards.md`,
  `layouts/sheets/a-one-51002.yaml`), exists, in the docs and in the YAML of their
  examples;
- every YAML example marked as a complete file (```` ```yaml file=layouts/x.yaml ````, the
  tutorial's convention) passes the schema of the file it says it is;
- the paper list the docs state is the one definition's (units.PAPER).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from conftest import REPO

DOCS = sorted((REPO / "docs").glob("*.md")) + sorted((REPO / "docs/ja").glob("*.md")) + \
    [REPO / "README.md"]
# Where a path the docs name must be a file of the repository: its own folders and the four
# games (a designer's cards/mygame/ or layouts/my-front.yaml is an example, not a file).
ROOTS = ("docs/", "generator/", "tests/", "benchmarks/", "cards/lastdance/", "cards/odoriko/",
         "cards/dernier-peuple/", "cards/vampire-band/")
# A complete file's schema, by where the file lives (the first pattern that matches).
SCHEMAS = ((r"^cards/[^/]+/game\.yaml$", "game"), (r"^layouts/sheets/", "sheet"),
           (r"^layouts/boards/", "board"), (r"^layouts/exports/", "export"),
           (r"^layouts/printers\.yaml$", "printers"), (r"^fonts/fonts\.yaml$", "fonts"),
           (r"^layouts/[^/]+\.yaml$", "layout"), (r"^cards/[^/]+/checks\.yaml$", "checks"),
           (r"^cards/[^/]+/[^/]+\.yaml$", "deck"))


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def problems(text: str, where: Path) -> list[str]:
    """What is wrong with one Markdown document: broken tables, and links and repository
    paths that lead nowhere (relative to `where`, the document's folder, or the repository)."""
    tokens = _parser().parse(text)
    lines = text.splitlines()
    found = []
    covered = set()  # lines inside tables and code
    for t in tokens:
        if t.map and (t.type in ("table_open", "fence", "code_block")):
            covered.update(range(*t.map))
    for n, line in enumerate(lines):
        if line.lstrip().startswith("|") and line.rstrip().endswith("|") and n not in covered:
            found.append(f"line {n + 1}: a table row outside any table (a paragraph between "
                         "its rows breaks it): " + line[:60])
    for t in tokens:
        for child in t.children or []:
            href = child.attrs.get("href") if child.type == "link_open" else None
            if href and not re.match(r"^(https?:|mailto:|#)", str(href)):
                target = (where / str(href).split("#")[0]).resolve()
                if not target.exists():
                    found.append(f"link {href}: no such file")
    for path in sorted(set(re.findall(r"(?<![\w/.<{-])((?:%s)[\w./-]*[\w/])" % "|".join(ROOTS),
                                      text))):
        if "<" in path or "*" in path or path.endswith("/x.yaml"):
            continue
        if not (REPO / path).exists() and not (REPO / path.rstrip(".")).exists():
            found.append(f"{path}: names a file of the repository that does not exist")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_a_doc_has_no_broken_table_and_no_link_to_nothing(doc):
    assert problems(doc.read_text("utf-8"), doc.parent) == []


def test_the_examples_yaml_names_only_files_that_exist():
    for path in (REPO / "docs/examples").rglob("*.yaml"):
        found = problems("", path.parent) + [
            p for p in problems(path.read_text("utf-8"), path.parent) if "table row" not in p]
        assert found == [], path


def test_the_checker_finds_a_planted_broken_table_and_link(tmp_path):
    planted = ("| key | meaning |\n|---|---|\n| `a` | one |\n\nA paragraph in the table.\n"
               "| `b` | two |\n\nSee [boards](boards.md) and docs/boards.md.\n")
    found = problems(planted, tmp_path)
    assert len(found) == 3 and "line 6: a table row outside any table" in found[0]
    assert "link boards.md: no such file" in found and any("docs/boards.md" in f for f in found)


def _complete_files():
    for doc in DOCS:
        for t in _parser().parse(doc.read_text("utf-8")):
            if t.type == "fence" and re.match(r"yaml\s+file=\S+", t.info):
                yield doc.name, t.info.split("file=", 1)[1].split()[0], t.content, t.map[0] + 1


@pytest.mark.parametrize("doc, file, text, line", list(_complete_files()),
                         ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_a_complete_yaml_example_passes_its_schema(doc, file, text, line):
    from generator.load import schema
    name = next((n for pattern, n in SCHEMAS if re.search(pattern, file)), None)
    assert name is not None, f"{doc}:{line}: no schema for {file}"
    data = yaml.safe_load(text)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in schema.validator_for(name).iter_errors(data)]
    assert errors == [], f"{doc}:{line} ({file})"


def test_enough_examples_are_marked_complete():
    files = {file for _, file, _, _ in _complete_files()}
    kinds = {next(n for pattern, n in SCHEMAS if re.search(pattern, f)) for f in files}
    assert {"game", "layout", "sheet", "board", "export", "printers", "fonts", "deck",
            "checks"} <= kinds, kinds


def test_the_docs_paper_list_is_the_one_definition():
    """docs/format.md's table of values names every paper of units.PAPER, in its order; the
    other docs refer to it (printing.md: "a paper (docs/format.md: A3 ... Tabloid)")."""
    from generator.units import PAPER
    row = next(line for line in (REPO / "docs/format.md").read_text("utf-8").splitlines()
               if line.startswith("| paper |"))
    assert re.findall(r"`([A-Za-z0-9-]+)`", row) == list(PAPER)
    printing = (REPO / "docs/printing.md").read_text("utf-8")
    assert f"docs/format.md: {next(iter(PAPER))} ... {list(PAPER)[-1]}" in printing


def test_the_docs_size_and_preset_lists_are_the_definitions():
    """docs/layouts.md's `size` row names every card size of units.CARD_SIZES, in order;
    docs/printing.md's preset table names every preset of layouts/sheets/ and no other."""
    from generator.units import CARD_SIZES
    layouts = (REPO / "docs/layouts.md").read_text("utf-8").splitlines()
    row = next(line for line in layouts if line.startswith("| `size` |"))
    assert re.findall(r"`([a-z-]+)` \(", row) == list(CARD_SIZES)
    printing = (REPO / "docs/printing.md").read_text("utf-8")
    table = printing[printing.index("| preset | paper |"):]
    table = table[:table.index("\n\n")]
    named = {n for line in table.splitlines()[2:] for n in re.findall(r"`([a-z0-9-]+)`",
                                                                       line.split("|")[1])}
    assert named == {p.stem for p in (REPO / "layouts/sheets").glob("*.yaml")}


@pytest.mark.parametrize("page, heading", [
    ("docs/layouts.md", "**Numbers stay with what they count.**"),
    ("docs/ja/layouts.md", "**数と助数詞は離さない。**")])
def test_the_counters_a_number_stays_with_are_the_ones_documented(page, heading):
    from generator.textflow.numbers import BEFORE_NUMBERS, COUNTERS, RANGES
    text = (REPO / page).read_text("utf-8")
    said = text[text.index(heading):]
    said = said[:said.index("\n\n")].replace("\n", "")
    assert "、".join(COUNTERS) in said and "、".join(BEFORE_NUMBERS) in said
    assert "、".join(RANGES) in said


def test_each_japanese_doc_keeps_in_step_with_its_english_one():
    """docs/ja/X.md is docs/X.md in Japanese: the same sections at the same levels (their
    numbers, where numbered), the same commands and the same files written, so that a
    change to one that the other lacks fails here. A file's words may be its reader's (the
    tutorial's game is made in the reader's language, and its cards say 斥候 or Scout): a
    string with Japanese in it on the Japanese page may be any string on the English one;
    the keys, ids, numbers, the order and every other value must be the same."""
    import re
    docs = Path(__file__).resolve().parent.parent / "docs"
    japanese = sorted((docs / "ja").glob("*.md"))
    assert japanese, "docs/ja/ has no pages"
    block = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```", re.S | re.M)

    def shape(text: str):
        outside = block.sub("", text)
        heads = [(len(m[1]), re.match(r"\d*", m[2])[0])
                 for m in re.finditer(r"^(#+) (.*)$", outside, re.M)]
        commands = [line.split(" #")[0].rstrip().replace(" --lang en", "")  # (a comment
                    for kind, _info, body in block.findall(text)      # in the page's language)
                    if kind == "sh" for line in body.strip().splitlines()]
        files = [(info.strip(), yaml.safe_load(body) if kind == "yaml" else body)
                 for kind, info, body in block.findall(text) if "file=" in info]  # (comments
        # are in the page's language: a file's data is what must be the same)
        return heads, commands, files

    guides = {p.name for p in docs.glob("*.md")} - {"architecture.md"}  # (for developers)
    missing = sorted(guides - {p.name for p in japanese})
    assert not missing, f"no Japanese page for {missing} in docs/ja/"

    def same(ja, en, value: bool = False) -> bool:
        """`value`: inside a YAML file's mapping (a page's own text is compared whole)."""
        if value and isinstance(ja, str) and isinstance(en, str) and not ja.isascii():
            return True  # the reader's words
        if isinstance(ja, dict) and isinstance(en, dict):
            return list(ja) == list(en) and all(same(ja[k], en[k], True) for k in ja)
        if isinstance(ja, (list, tuple)) and isinstance(en, (list, tuple)):
            return len(ja) == len(en) and all(same(a, b, value) for a, b in zip(ja, en))
        return ja == en

    for page in japanese:
        english = docs / page.name
        assert english.is_file(), f"docs/ja/{page.name} has no English page"
        ja, en = shape(page.read_text("utf-8")), shape(english.read_text("utf-8"))
        assert ja[0] == en[0], (page.name, "sections", ja[0], en[0])
        assert ja[1] == en[1], (page.name, "commands")
        assert same(ja[2], en[2]), (page.name, "files written")
