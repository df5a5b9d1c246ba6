"""The shape of the code, and unit tests for pieces the CLI tests reach only from afar.

- The pipeline is one-way: a stage never imports a later stage, and a library (drawing,
  primitives, the text engine, element types) imports no stage at all.
- Each fact has one home: card keys, the game's template scope, colours, exit codes.
- Line breaking, booklet page order and back positions, called directly.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from generator.model import SheetPreset
from generator.problems import Location
from generator.units import mm

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
# The stages in order. Statistics and the rulebook branch off after validate; the rulebook
# shows card faces and odds, so it may read layout's and stats' results, and write may be
# given its pages and the statistics.
STAGES = ["load", "resolve", "validate", "stats", "layout", "rulebook", "impose", "write", "export"]
# Around the pipeline: they run it and may import any stage.
RUNNERS = {"pipeline", "pnp", "cli", "serve", "watch", "diff", "scaffold", "completion",
           "__main__"}


def _module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _imports(path: Path) -> set[str]:
    """The generator modules (first part after `generator.`) a file imports."""
    tree = ast.parse(path.read_text("utf-8"))
    depth = len(path.relative_to(PACKAGE).parts) - 1  # 0 for generator/x.py
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("generator."):
                    found.add(node.module.split(".")[1])
                continue
            up = node.level - 1  # levels above the file's own package
            if up < depth:  # inside the file's own top-level package
                continue
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("generator."):
                    found.add(alias.name.split(".")[1])
    return found


def test_no_stage_imports_a_later_stage_and_no_library_imports_a_stage():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = _module_of(path)
        if own in RUNNERS:
            continue
        for target in _imports(path) - {own}:
            if target not in STAGES:
                continue  # a library
            if own not in STAGES:
                wrong.append(f"{path.relative_to(PACKAGE)}: the library '{own}' imports the "
                             f"stage '{target}'")
            elif STAGES.index(target) > STAGES.index(own):
                wrong.append(f"{path.relative_to(PACKAGE)}: '{own}' imports the later stage "
                             f"'{target}'")
    assert not wrong, "\n".join(wrong)


def test_the_import_checker_sees_a_violation():
    """The test above can fail: a layout module importing write is caught."""
    assert "write" in _imports_of_text("from ..write import pdf\n", "layout/x.py")
    assert "layout" not in _imports_of_text("from . import board\n", "layout/x.py")
    assert "draw" in _imports_of_text("from ..draw import draw_face\n", "rulebook/typeset.py")


def _imports_of_text(text: str, relative: str) -> set[str]:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        fake = Path(tmp) / "generator" / relative
        fake.parent.mkdir(parents=True)
        fake.write_text(text)
        global PACKAGE
        saved, PACKAGE = PACKAGE, Path(tmp) / "generator"
        try:
            return _imports(fake)
        finally:
            PACKAGE = saved


def test_one_home_for_each_fact():
    """Card keys, the template scope for `game`, Color, exit-code literals: each written once."""
    sources = {p: p.read_text("utf-8") for p in PACKAGE.rglob("*.py")}
    def where(needle: str) -> list[str]:
        return sorted(str(p.relative_to(PACKAGE)) for p, t in sources.items() if needle in t)
    assert where('("id", "copies", "blank", "back", "filler")') == ["model.py"]
    assert where('"title_en": game.title_en') == ["sandbox.py"]
    assert where("Color = tuple") == ["colors.py"]
    assert where("= 130") == ["problems.py"]
    assert where("traceback.extract_tb") == ["problems.py"]


def test_each_fact_is_the_same_value_wherever_it_is_stated():
    """What the schemas, the docs and the other stages state of a fact is its home's value:
    the card keys, the card sizes and papers, the copies limit, the exit codes, the
    element types, board shapes and export formats."""
    import re
    from generator import boards, formats
    from generator.elements import NAMES
    from generator.load.schema import validator_for
    from generator.load.spreadsheet import BUILT_IN
    from generator.model import CARD_KEYS, MAX_COPIES
    from generator.problems import ExitCode
    from generator.units import CARD_SIZES
    assert tuple(BUILT_IN) == CARD_KEYS
    size = validator_for("layout").schema["properties"]["size"]
    assert size["oneOf"][0]["enum"] == list(CARD_SIZES)
    assert ", ".join(list(CARD_SIZES)[:-1]) in size["x-expected"]
    deck = validator_for("deck").schema["properties"]["cards"]["items"]
    assert set(deck["properties"]) == set(CARD_KEYS)
    assert deck["properties"]["copies"]["anyOf"][0]["maximum"] == MAX_COPIES
    assert validator_for("board").schema["properties"]["shape"]["enum"] == list(boards.SHAPES)
    assert validator_for("export").schema["properties"]["format"]["enum"] == \
        list(formats.FORMATS)
    assert validator_for("element").schema["properties"]["type"]["enum"] == list(NAMES)
    cli = (PACKAGE.parent / "docs/cli.md").read_text("utf-8")
    documented = {int(n) for n in re.findall(r"^\| (\d+) \|", cli, re.M)}
    assert documented == {int(code) for code in ExitCode}


def test_a_deck_that_declares_fields_takes_a_per_card_back(project, cardgen):
    """`back:` is a built-in card key: a deck's `fields:` need not (and cannot) declare it."""
    game = project / "cards/fb"
    game.mkdir()
    (game / "game.yaml").write_text(textwrap.dedent("""\
        title: Fields and backs
        decks:
          - id: main
            cards: cards.yaml
            front: fb-face
            back: fb-face
            fields:
              power: {type: integer}
    """), "utf-8")
    (game / "cards.yaml").write_text(textwrap.dedent("""\
        cards:
          - {id: one, power: 1}
          - {id: two, power: 2, back: fb-special}
    """), "utf-8")
    for name in ("fb-face", "fb-special"):
        (project / f"layouts/{name}.yaml").write_text(
            "size: meishi\nelements:\n  - {name: t, type: text, text: '{{ card.id }}'}\n", "utf-8")
    run = cardgen("build", "fb")
    assert run.code == 0, run.lines
    assert (project / "output/fb/fb-backs.pdf").exists()


# --- line breaking ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def family():
    from generator.load import Project
    from generator.pipeline import check
    outcome = check(Project.find(PACKAGE.parent), "lastdance")
    return outcome.game.fonts["gothic"]


def _lines(family, text: str, width_mm: float, size: float = 10.0) -> list[str]:
    from generator.colors import parse_color
    from generator.textflow import Style, break_lines, parse
    atoms = parse(text, Style(family, False, (0, 0, 0)), {}, {}, {"gothic": family}, parse_color,
                  lambda path: 1.0)
    lines = break_lines(atoms, size, mm(width_mm), vertical=False)
    return ["".join(a.text for a in line.atoms) for line in lines]


def test_breaking_keeps_closing_punctuation_off_a_line_start(family):
    # 10 pt full-width characters are 3.53 mm: 5 fit in 18 mm. 「。」 may not start a line
    # (kinsoku), so the fifth character goes down with it.
    lines = _lines(family, "あいうえお。かきくけこ", 18)
    assert lines == ["あいうえ", "お。かきく", "けこ"]
    assert all(not line.startswith(("。", "、", "」")) for line in lines)


def test_breaking_english_between_words_and_a_long_word_where_it_must(family):
    lines = _lines(family, "The quick brown fox jumps over the lazy dog", 30)
    assert " ".join(lines) == "The quick brown fox jumps over the lazy dog"
    assert all(not line.endswith(" ") and not line.startswith(" ") for line in lines)
    assert len(lines) > 1
    long = _lines(family, "Supercalifragilisticexpialidocious", 20)
    assert "".join(long) == "Supercalifragilisticexpialidocious" and len(long) > 1


def test_breaking_keeps_paragraphs_and_refuses_a_character_wider_than_the_line(family):
    assert _lines(family, "一行目\n二行目", 40) == ["一行目", "二行目"]
    from generator.colors import parse_color
    from generator.textflow import Style, break_lines, parse
    atoms = parse("漢", Style(family, False, (0, 0, 0)), {}, {}, {"gothic": family}, parse_color,
                  lambda path: 1.0)
    assert break_lines(atoms, 10.0, mm(2), vertical=False) is None


# --- booklet page order ----------------------------------------------------------------------

def test_booklet_order_folds_into_reading_order():
    from generator.rulebook.booklet import booklet_order
    # 8 pages: two sheets; outer sheet front 8|1, back 2|7; inner front 6|3, back 4|5.
    assert booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    # 5 pages are padded to 8 with blanks at the end (None), never in the middle.
    assert booklet_order(5) == [(None, 0), (1, None), (None, 2), (3, 4)]
    assert booklet_order(0) == []
    # Every page appears exactly once, whatever the count.
    for n in range(1, 30):
        seen = [p for side in booklet_order(n) for p in side if p is not None]
        assert sorted(seen) == list(range(n))


# --- back positions --------------------------------------------------------------------------

def _sheet(duplex: str) -> SheetPreset:
    return SheetPreset("t", "t", (mm(210), mm(297)), (mm(91), mm(55)), 2, 5, mm(14), mm(11),
                       (0.0, 0.0), duplex, Location("t", 1, 1))


def test_a_back_lies_behind_its_front_when_the_sheet_turns_over():
    from generator.impose import back_position, slot_position
    long_edge, short_edge = _sheet("long-edge"), _sheet("short-edge")
    x, y = slot_position(long_edge, 0)  # top-left slot
    assert (round(x / mm(1), 3), round(y / mm(1), 3)) == (14, 297 - 11 - 55)
    # Long edge: the page turns about its vertical axis, so the back is mirrored left-right.
    bx, by = back_position(long_edge, x, y)
    assert round((bx + mm(91)) / mm(1), 3) == 210 - 14 and by == y
    # Short edge: it turns about its horizontal axis, so the back is mirrored top-bottom.
    bx, by = back_position(short_edge, x, y)
    assert bx == x and round(by / mm(1), 3) == 11
    # A printer's offset moves the back page: x to the right, y down.
    bx2, by2 = back_position(long_edge, x, y, (mm(1), mm(2)))
    assert round((bx2 - back_position(long_edge, x, y)[0]) / mm(1), 3) == 1
    assert round((by2 - y) / mm(1), 3) == -2


# --- the checks table in docs/validation.md matches the code ---------------------------------

def _checks_in_code() -> dict[str, set[str]]:
    """Each check name the code reports under -> the stages that report it. An element type
    (generator/elements) is laid out by the layout stage."""
    found: dict[str, set[str]] = {"schema": {"load"}}  # report_errors' default check name
    for path in PACKAGE.rglob("*.py"):
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        tree = ast.parse(path.read_text("utf-8"))
        # A board shape (generator/boards) reports in resolve what reading it finds, and in
        # validate what its check finds.
        resolving = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.ClassDef))
                     and f.name in ("resolve", "Entry") for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            stage = {"elements": "layout", "problems": "every stage",
                     "boards": "resolve" if id(node) in resolving else "validate"}.get(top, top)
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            given = []
            if name in ("error", "warning") and len(node.args) >= 3:
                given.append(node.args[2])
            if name == "Bad" and len(node.args) >= 4:
                given.append(node.args[3])
            given += [kw.value for kw in node.keywords if kw.arg in ("check", "check_name")]
            for value in given:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.setdefault(value.value, set()).add(stage)
    return found


def _checks_in_docs() -> dict[str, set[str]]:
    import re
    text = (PACKAGE.parent / "docs/validation.md").read_text("utf-8")
    table = text[text.index("| check | what | level | found by |"):]
    table = table[:table.index("\n\n")]
    found: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        stages = set(re.findall(r"`([a-z]+)`", cells[3])) or {cells[3]}
        for name in re.findall(r"`([a-z-]+)`", cells[0]):
            found[name] = stages
    return found


def test_the_checks_table_in_the_docs_names_every_check_and_where_it_is_found():
    code, docs = _checks_in_code(), _checks_in_docs()
    assert sorted(code) == sorted(docs), "checks in the code but not the docs, or the reverse"
    wrong = {name: (sorted(docs[name]), sorted(code[name])) for name in code
             if docs[name] != code[name]}
    assert not wrong, f"docs say (found by), code says: {wrong}"


def test_the_checks_validate_runs_are_a_registry_the_docs_list_is_made_from():
    """Each check validate runs is one module of generator/validate that declares itself:
    its NAMES are the check names its own code reports (a designer's check reports under its
    own name), together exactly the ones the table says `validate` finds; docs/validation.md
    lists them, in order, as validate.table() makes the list (its Japanese from the
    catalogue, which tests/test_i18n.py keeps whole)."""
    from generator import validate
    docs = _checks_in_docs()
    for module in validate.in_order():
        tree = ast.parse(Path(module.__file__).read_text("utf-8"))
        own = {n.args[2].value for n in ast.walk(tree) if isinstance(n, ast.Call)
               and getattr(n.func, "attr", None) in ("error", "warning") and len(n.args) >= 3
               and isinstance(n.args[2], ast.Constant)}
        if any(getattr(n.func, "id", None) == "report_errors" for n in ast.walk(tree)
               if isinstance(n, ast.Call)):
            own.add("schema")  # report_errors' default check name
        assert set(module.NAMES) == own, (module.NAME, module.NAMES, own)
    named = {name for module in validate.in_order() for name in module.NAMES}
    assert named == {name for name, stages in docs.items() if "validate" in stages}
    text = (PACKAGE.parent / "docs/validation.md").read_text("utf-8")
    listed = text[text.index("<!-- checks:"):text.index("<!-- /checks -->")]
    assert listed.split("\n", 1)[1].strip() == validate.table("en")
    assert "|" in validate.table("ja") and "チェック" in validate.table("ja")


def test_a_module_that_is_not_a_whole_check_is_refused():
    import types
    from generator import validate
    half = types.ModuleType("half")
    half.NAME, half.NAMES, half.ORDER = "half", ("half",), 5  # no DOC, no run
    with pytest.raises(validate.NotACheck, match="DOC, run"):
        validate.register(half)
    assert "half" not in validate.CHECKS


# --- what an exception means is its kind, never its wording ---------------------------------

def test_a_broken_check_is_reported_or_skipped_by_its_kind_not_its_words():
    """With cards whose values have errors (tainted), a check that fails while evaluating is
    skipped (it met those values), and a check written wrong is reported, whatever their
    messages say: an evaluation error that mentions 'syntax' or 'valid' is still skipped."""
    from generator.model import Invariant, SourceMap
    from generator.problems import Report
    from generator.validate.invariants import run_check

    def run(assertion: str) -> Report:
        report = Report()
        report.taint("some-card")
        check = Invariant("c", assertion, None, None, None, None, "error",
                          SourceMap("checks.yaml"), ("checks", 0))
        run_check(check, {"data": {"valid": {}}}, {}, report)
        return report

    evaluating = run("data.valid.syntax > 1")  # "there is no 'syntax'": evaluation
    assert not evaluating.errors and evaluating.skipped == 1
    written = run("data.valid >")  # not an expression
    assert [p.message.split(":")[0] for p in written.errors] == ["check 'c'"]


def _reads_a_message(node: ast.AST) -> bool:
    """`x.message`, `x["message"]` or `str(...)` of either: a problem's words."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "str" and node.args:
        node = node.args[0]
    return (isinstance(node, ast.Attribute) and node.attr == "message") or (
        isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
        and node.slice.value == "message")


def test_nothing_reads_what_a_problem_is_about_back_from_its_words():
    """A problem carries its card, deck, field and print target as data (problems.Problem):
    no regular expression runs over a message, and no message is taken apart by its words
    (load/schema.py reads jsonschema's own errors, not cardgen's problems)."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix() == "load/schema.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            regex = getattr(node.func.value, "id", None) == "re" or node.func.attr in (
                "search", "match", "fullmatch", "findall", "finditer")
            taken_apart = node.func.attr in ("startswith", "endswith", "split", "partition",
                                             "find", "index") and _reads_a_message(node.func.value)
            if taken_apart or (regex and any(_reads_a_message(a) for a in node.args)):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found


# --- what cardgen takes from its libraries' internals is named in compat.py ----------------

def _private_names_used() -> dict[str, set[str]]:
    """Private attributes (`x._name`) the package reads or writes that it does not define
    itself (on `self`, as a method, or in a class body), by name -> files."""
    trees = {p: ast.parse(p.read_text("utf-8")) for p in PACKAGE.rglob("*.py")
             if p.name != "compat.py"}
    own: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(node.name)
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                            t.value.id == "self":
                        own.add(t.attr)
                    elif isinstance(t, ast.Name):
                        own.add(t.id)
    used: dict[str, set[str]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                    not node.attr.startswith("__") and node.attr not in ("_replace", "_asdict") \
                    and node.attr not in own:
                used.setdefault(node.attr, set()).add(str(path.relative_to(PACKAGE)))
    return used


def test_every_library_internal_used_is_named_in_compat():
    from generator import compat
    named = {name for uses in compat.USED.values() for _, names in uses for name in names}
    unnamed = {name: files for name, files in _private_names_used().items() if name not in named}
    assert not unnamed, f"private library names used but not listed in compat.USED: {unnamed}"
    for distribution in compat.TESTED:
        assert compat.missing(distribution) == [], distribution


def test_the_pins_are_the_tested_minor_versions():
    import re
    text = (PACKAGE.parent / "pyproject.toml").read_text("utf-8")
    from generator import compat
    for distribution, (minor,) in compat.TESTED.items():
        major, low = minor.split(".")
        pin = f'"{distribution}>={minor},<{major}.{int(low) + 1}"'
        assert re.search(re.escape(pin), text, re.I), (distribution, pin)


def test_a_library_without_what_cardgen_uses_stops_it_with_words(monkeypatch, capsys):
    from generator import compat
    from generator.cli import main
    monkeypatch.setitem(compat.TESTED, "reportlab", ("0.1",))
    monkeypatch.setattr(compat, "missing", lambda d: ["reportlab.platypus.Table: _calc"])
    code = main(["list"])
    err = capsys.readouterr().err
    assert code == 3
    assert "cardgen needs reportlab 0.1.x, but" in err and "Table: _calc" in err
    assert "Traceback" not in err and "internal error" not in err


def test_no_module_is_over_600_lines():
    """A module that grows past this is doing more than one thing (docs/architecture.md)."""
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 600}
    assert not long, long


def test_no_function_is_over_cyclomatic_complexity_30():
    """No function or method of generator/ over radon's cyclomatic complexity 30
    (docs/architecture.md gives the figures): past it, a function does several things."""
    from radon.complexity import cc_visit
    over = [f"{path.relative_to(PACKAGE)}:{block.lineno} {block.fullname} {block.complexity}"
            for path in sorted(PACKAGE.rglob("*.py"))
            for block in cc_visit(path.read_text("utf-8")) if block.complexity > 30]
    assert not over, over


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _run_at_import(tree: ast.Module):
    """The import statements a module runs when it is imported: at its top level and in its
    top-level if/try blocks (`if TYPE_CHECKING:` too), not inside functions or classes."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            todo[:0] = [*node.body, *node.orelse, *getattr(node, "finalbody", []),
                        *(s for h in getattr(node, "handlers", []) for s in h.body)]


def _import_graph() -> dict[str, set[str]]:
    """generator's module -> the generator modules it imports when it is imported. `from .
    import sub` of a package's own submodules needs those only (the package is importing)."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in _run_at_import(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            else:
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in paths]
                found = subs if len(subs) == len(node.names) else [base, *subs]
            edges.update(f for f in found if f in paths and f != name)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                found.append(sorted([v, *group]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_between_modules():
    """No two modules of generator/ import each other, however indirectly, when they are
    imported (an import at the bottom of a file once hid three such cycles inside packages):
    what both need lives in a module both import."""
    assert not _cycles(_import_graph())


def test_the_cycle_finder_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_every_import_is_above_the_first_definition():
    """A module's imports are at its top: none after its first function or class."""
    late = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        first = next((n.lineno for n in tree.body if isinstance(
            n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))), None)
        late += [f"{path.relative_to(PACKAGE)}:{node.lineno}"
                 for node in _run_at_import(tree) if first is not None and node.lineno > first]
    assert not late, late


# --- the budgets table in docs/validation.md holds every budget ---------------------------

# Each MAX_ constant of the code -> (the table row it belongs to, the value as the row says
# it). A new budget must be added here, and so to the docs, or this test fails.
BUDGETS = {
    "load.yamlfile.MAX_BYTES": ("a data file", "64 MB"),
    "load.spreadsheet.MAX_XLSX_BYTES": ("a data file", "256 MB"),
    "model.MAX_CARDS": ("cards in a game", "100,000"),
    "model.MAX_COPIES": ("copies of one card", "999"),
    "model.MAX_REPEAT": ("an element's `repeat:`", "1,000 copies"),
    "load.spreadsheet.MAX_ROWS": ("rows in one CSV or XLSX sheet", "50,000"),
    "load.yamlfile.MAX_DEPTH": ("YAML nesting", "100 levels"),
    "load.yamlfile.MAX_VALUES": ("YAML nesting", "5,000,000 values"),
    "load.yamlfile.MAX_ALIAS_VALUES": ("YAML nesting", "100,000"),
    "values.MAX_DIGITS": ("a whole number", "30 digits"),
    "sandbox.MAX_TEXT": ("a text a template makes", "1,000,000 characters"),
    "sandbox.MAX_STEPS": ("`range()` in one template", "1,000,000 in all"),
    "sandbox.MAX_DEPTH": ("macros calling macros", "64 deep"),
    "load.MAX_INCLUDES": ("files a rulebook includes", "200"),
    "rulebook.typeset.MAX_BLANK_PAGES": ("blank pages in a row in a rulebook", "4"),
    "rulebook.MAX_PAGES": ("pages of a rulebook", "1,000"),
    "paths.MAX_NAME_BYTES": ("a file or folder name in data", "255 bytes"),
    "paths.MAX_PATH_BYTES": ("a file or folder name in data", "1,024 bytes"),
    "images.MAX_PIXELS": ("a picture", "50,000,000 pixels"),
    "svg.MAX_SVG_BYTES": ("an SVG picture", "5,000,000 bytes"),
    "svg.MAX_SVG_DEPTH": ("an SVG picture", "64 levels"),
    "svg.MAX_SVG_ELEMENTS": ("an SVG picture", "10,000 elements"),
    "svg.MAX_SVG_UNITS": ("an SVG picture", "1,000,000 units"),
    "svg.MAX_SVG_POINTS": ("an SVG picture", "2,000,000 path coordinates"),
    "svg.MAX_SVG_RULES": ("an SVG picture", "2,000 style rules"),
    "svg.MAX_COORDINATE": ("an SVG picture", "1,000,000,000"),
    "fonts.MAX_FONT_BYTES": ("a font file", "64 MB"),
    "load.revision.MAX_REVISION_BYTES": ("a revision's files", "512 MB"),
    "resolve.exports.MAX_ICC_BYTES": ("an ICC profile", "16 MB"),
    "elements.text.MAX_TEXT_SIZE": ("text", "500 pt"),
    "elements.text.MAX_LINE_SPACING": ("text", "10 times the size"),
    "elements.qr.MAX_DATA": ("a QR code's data", "1,000 characters"),
    "elements.polygon.MAX_SIDES": ("a polygon", "360 sides"),
    "boards.base.MAX_CELLS": ("a board", "10,000 cells"),
    "boards.map.MAX_ROUTES": ("a board", "5,000 routes"),
    "resolve.boards.MAX_MAP_CELLS": ("a board", "rows times columns"),
    "boards.base.MAX_PAGES": ("a board", "64 pages"),
    "boards.track.MAX_SPACES": ("a board", "1,000 spaces"),
    "values.MAX_TARGETS": ("print targets of a game", "16"),
    "load.MAX_PRINTER_OFFSET": ("a printer's offset", "20 mm"),
    "stats.odds.MAX_DIGITS": ("exact odds", "4,000 digits"),
    "stats.odds.MAX_STEPS": ("exact odds", "2,000,000 steps"),
    "stats.questions.MAX_ITEMS": ("items a stats table or an odds question answers for", "100"),
    "stats.dice.MAX_DICE": ("dice in one roll", "100 dice"),
    "stats.dice.MAX_FACES": ("dice in one roll", "1,000 faces"),
    "stats.dice.MAX_STEPS": ("dice in one roll", "2,000,000 steps"),
    "export.MAX_EXPORT_PIXELS": ("an export", "8,000,000,000 pixels"),
    "resolve.exports.MAX_TEMPLATE_BLEED": ("an export", "0.5 in"),
    "watch.MAX_FILES": ("`cardgen watch`", "100,000 files"),
    "write.showcase.MAX_SHOWN": ("`cardgen showcase`", "12 cards"),
    "write.showcase.MAX_SIDE": ("`cardgen showcase`", "4096 pixels"),
}
NOT_BUDGETS = {  # MAX_ names that bound no input: how output looks
    "textflow.breaking.MAX_HYPHENS_IN_A_ROW", "stats.results.MAX_CATEGORIES",
    "stats.results.MAX_BARS"}


def test_every_budget_is_in_the_docs_budgets_table_with_its_value():
    import importlib
    import re
    text = (PACKAGE.parent / "docs/validation.md").read_text("utf-8")
    table = text[text.index("| what | limit |"):]
    rows = {}
    for row in table[:table.index("\n\n")].splitlines()[2:]:
        what, limit = [c.strip() for c in row.strip("|").split("|")]
        rows[what] = limit
    found = set()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts).removesuffix(".__init__")
        for name in re.findall(r"^(MAX_[A-Z_]+) = ", path.read_text("utf-8"), re.M):
            found.add(f"{module}.{name}")
    assert found == set(BUDGETS) | NOT_BUDGETS, "a budget the table does not list, or the reverse"
    for constant, (what, said) in BUDGETS.items():
        row = next((limit for name, limit in rows.items() if name.startswith(what)), None)
        assert row is not None and said in row, (constant, what, said)
        module, name = constant.rsplit(".", 1)
        value = getattr(importlib.import_module(f"generator.{module}"), name)
        number, unit = re.match(r"([0-9][0-9,.]*)? ?(MB$|mm$|in$)?", said).groups()
        if number is None:  # said in words (rows times columns): the row states the value
            continue
        points = {"MB": 1024 * 1024, "mm": mm(1), "in": 72}.get(unit, 1)
        assert abs(value - float(number.replace(",", "")) * points) < 1e-6, constant


# --- one plural rule for every counted noun ------------------------------------------------

def _translated_counts():
    """(file, singular, plural) of every i18n._n call: a count said in the language."""
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_n" and \
                    all(isinstance(a, ast.Constant) for a in node.args[:2]):
                yield path.relative_to(PACKAGE), node.args[0].value, node.args[1].value


def test_every_counted_noun_goes_through_the_one_plural_rule():
    """Messages, guides and diff text count with i18n._n (singular and plural, translated; a
    word that agrees too): no hand-made plural ("1 change print nothing", "4 sheet(s)")."""
    import re
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text("utf-8")
        assert not re.search(r"""['"]s['"] if|\(s\)["' ]""", text), path.relative_to(PACKAGE)
    pairs = list(_translated_counts())  # _n("{n} card", "{n} cards", n): counted and translated
    assert len(pairs) >= 15
    for path, one, many in pairs:
        assert one != many, (path, one, many)  # (a word that agrees: "page 3", "pages 3, 4")


def test_only_the_pdfium_module_imports_pypdfium2():
    """pdfium is not thread-safe (two threads in it at once crash the process): every use
    goes through write/pdfium.opened, which holds one lock, so no other module imports it."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix() == "write/pdfium.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "pypdfium2" for name in names):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, found
