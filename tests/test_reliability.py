"""Reliability (issue #20): whatever validate accepts, build writes; numbers are finite or a
located error; no input hangs or runs away with memory; the command behaves under pipes,
signals, busy ports and two builds at once."""

from __future__ import annotations

import json
import math
import re
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from conftest import REPO, write_game
from generator.load import Project
from generator.pipeline import BuildOptions, build, check, export, lay_out

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
CARDGEN = [sys.executable, "-m", "generator"]

# -- validate guarantees build --------------------------------------------------------------

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
# Mostly values a designer would write (so that many games pass validate and are built),
# sometimes anything at all.
_good_lengths = st.sampled_from(["0mm", "3mm", "50%", "100% - 6mm", "-2mm", "200mm", "12pt",
                                 "1in", "0.5cm", "{{ '4mm' }}", "7pt", "20mm"])
lengths = st.one_of(*[_good_lengths] * 8, texts)
_good_numbers = st.one_of(st.integers(3, 12), st.sampled_from(["1", "1.4", "0.5", "{{ 2 }}", 0,
                                                               45, "-30"]))
numbers = st.one_of(*[_good_numbers] * 8, st.integers(-1000, 1000),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["inf", "nan", "-0", "1e400"]), texts)
_common = {"x": lengths, "y": lengths, "width": lengths, "height": lengths, "rotate": numbers,
           "opacity": numbers,
           "fill": st.sampled_from(["red", "#112233", "none", "{{ deck.color }}", "blue",
                                    "cmyk(0, 1, 1, 0)", "nope"])}
_by_type = {
    "rect": ({}, {"radius": lengths}),
    "circle": ({}, {}),
    "line": ({"x2": lengths, "y2": lengths}, {}),
    "polygon": ({}, {"sides": numbers}),
    "text": ({"text": st.one_of(st.just("{{ card.name }}"), st.just("<b>{{ card.id }}</b>"),
                                st.just("Draw 2 cards. カードを2枚引く。"), texts)},
             {"size": lengths, "min_size": lengths, "fit": st.sampled_from(["shrink", "error"]),
              "line_spacing": numbers, "vertical": st.booleans(),
              "align": st.sampled_from(["left", "center", "justify", "right", "middle"])}),
    "image": ({"src": st.sampled_from(["art.png", "art.png", "art.png", "../x.png", ""])},
              {"fit": st.sampled_from(["contain", "cover", "stretch"])}),
    "icon": ({"icon": st.sampled_from(["coin", "coin", "coin", "none"])}, {}),
    "qr": ({"data": st.one_of(st.just("https://example.com/{{ card.id }}"), texts)},
           {"level": st.sampled_from(["L", "H", "Z"]), "quiet_zone": numbers,
            "color": st.sampled_from(["ink", "#204080", "cmyk(0, 0, 0, 1)", "nope"])}),
}


def test_the_property_tests_try_every_element_type():
    """Each element type the registry has is among those the property tests write (an alias,
    such as circle for ellipse, stands for its type): a new type joins them or fails here."""
    from generator.elements import NAMES, TYPES
    assert {NAMES[kind] for kind in _by_type} == set(TYPES)
elements = st.sampled_from(sorted(_by_type)).flatmap(lambda kind: st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "b", "c"]), "type": st.just(kind), **_by_type[kind][0]},
    optional={**_common, **_by_type[kind][1]}))
card_values = st.one_of(st.sampled_from(["一", "Prince", "騎士 Knight", "TBD"]), texts,
                        st.integers(-5, 5), st.floats(allow_nan=True), st.booleans(), st.none())
cards = st.lists(st.fixed_dictionaries(
    {"id": st.sampled_from(["one", "two", "three"]), "name": card_values},
    optional={"copies": st.one_of(*[st.integers(0, 3)] * 6, card_values),
              "blank": st.one_of(*[st.booleans()] * 6, card_values),
              "power": card_values}), max_size=3, unique_by=lambda c: c["id"])


def _game(project: Path, layout: list, deck: list) -> None:
    import io
    import shutil
    from PIL import Image
    shutil.rmtree(project / "output", ignore_errors=True)  # (the project serves every example)
    art = io.BytesIO()
    Image.new("RGB", (40, 30), "teal").save(art, "PNG")
    write_game(project, "prop", {"title": "prop", "decks": [{"id": "main", "front": "prop-front"}],
                                 "icons": {"coin": {"glyph": "●"}}},
               deck, {"prop-front": {"size": "meishi", "elements": layout}},
               {"art.png": art.getvalue()})


@SETTINGS
@given(layout=st.lists(elements, max_size=4, unique_by=lambda e: e["name"]), deck=cards)
# (found: a ● icon whose em box runs into the bleed and whose ink ends at the trim)
@example(layout=[{"name": "a", "type": "icon", "icon": "coin", "y": "3mm"}],
         deck=[{"id": "one", "name": None}])
def test_property_whatever_validate_accepts_builds(project, layout, deck):
    _game(project, layout, deck)
    root = Project.find(project)
    outcome = check(root, "prop")
    lay_out(outcome)
    assert all(p.location.file for p in outcome.report.problems)
    event("rejected by validate" if outcome.failed(strict=False) else "accepted: built")
    if outcome.failed(strict=False):
        return
    built = build(root, "prop", BuildOptions())  # never an internal error
    assert not built.failed(strict=False), built.report.problems
    printed = sum(d.total for d in built.game.decks)
    assert (project / "output/prop/prop-fronts.pdf").is_file() == (printed > 0)
    assert (project / "output/prop/prop-print-guide.txt").is_file()
    exported, folder = export(root, "prop", "jp-print")  # and exports: warnings at most
    assert folder is not None and not exported.report.errors, exported.report.problems
    assert all(p.location.file for p in exported.report.problems)
    assert (folder / "manifest.json").is_file()


NUMERIC = st.sampled_from(["inf", "-inf", "nan", "1e400", "-1e400", "-0", "1:30", "0x1f", "0123",
                           "1_000", ".inf", ".nan", "1e3", "+5", "٣", "Infinity", "NaN", "0o17",
                           "-.5", "1.", "99999999999999999999"])
LAYOUT_NUMBERS = ("rotate", "opacity", "sides", "x", "width", "stroke_width", "radius")
DECK_NUMBERS = ("copies", "power", "gap")
LENGTHS = ("x", "width", "stroke_width", "radius", "gap")  # written with a unit: "<text>mm"


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(key=st.sampled_from(LAYOUT_NUMBERS + DECK_NUMBERS), text=NUMERIC,
       quoted=st.booleans())
def test_property_numeric_strings_are_finite_or_located(project, key, text, quoted):
    """Any numeric-looking text, quoted or plain, in a numeric key of a layout or a deck:
    a located error, or a finite value that builds."""
    import shutil
    shutil.rmtree(project / "output", ignore_errors=True)  # (the project serves every example)
    text = f"{text}mm" if key in LENGTHS else text
    value = f'"{text}"' if quoted else text
    folder = project / "cards/num"
    folder.mkdir(exist_ok=True)
    sheet = f"    sheet: {{preset: plain-a4, gap: [{value}, 2mm]}}\n" if key == "gap" else ""
    (folder / "game.yaml").write_text(
        "title: num\ndecks:\n  - id: main\n    cards: cards.yaml\n    front: num-front\n" + sheet +
        "    fields:\n      name: {type: text}\n      power: {type: integer}\n", "utf-8")
    kind = "rect" if key == "radius" else "polygon"
    element = f"  - {{name: p, type: {kind}, fill: red, stroke: blue" + (
        f", {key}: {value}" if key in LAYOUT_NUMBERS else "") + "}\n"
    (project / "layouts/num-front.yaml").write_text(f"size: meishi\nelements:\n{element}", "utf-8")
    card = "  - {id: one, name: x" + (f", {key}: {value}"
                                      if key in ("copies", "power") else "") + "}\n"
    (folder / "cards.yaml").write_text("cards:\n" + card, "utf-8")
    root = Project.find(project)
    outcome = build(root, "num", BuildOptions())
    for p in outcome.report.errors:
        assert p.location.line >= 1, p
    event("located error" if outcome.failed(strict=False) else "built")
    if not outcome.failed(strict=False):
        fronts = project / "output/num/num-fronts.pdf"
        if fronts.is_file():  # (copies: -0 is 0 copies: nothing to print)
            from pypdf import PdfReader
            for page in PdfReader(fronts).pages:  # every drawing operator's numbers are finite
                streams = [page.get_contents().get_data()]
                xobjects = page["/Resources"].get("/XObject") or {}
                streams += [x.get_object().get_data() for x in xobjects.values()
                            if x.get_object().get("/Subtype") == "/Form"]
                for content in streams:
                    assert b"nan" not in content.lower() and b"inf" not in content.lower()
        game = outcome.game
        for c in game.cards():
            for v in c.record().values():
                assert not (isinstance(v, float) and not math.isfinite(v))


# -- the catalogue under time and memory budgets ----------------------------------------------

def test_every_catalogue_case_within_60_s_and_1_gb(tmp_path):
    """Each bad input runs in a child process limited to 1 GB of address space and 60 s."""
    script = r"""
import json, resource, shutil, sys, time
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from generator.cli import main
repo, root = Path(sys.argv[1]), Path(sys.argv[2])
results = {}
for case in sorted(p.name for p in (repo / "tests/bad_input").iterdir()):
    src = repo / "tests/bad_input" / case
    if (src / "commands.txt").is_file():
        continue  # usage cases: they stop before reading the game
    shutil.copytree(src, root / "cards" / case, symlinks=True)
    if (src / "layouts").is_dir():
        shutil.copytree(src / "layouts", root / "layouts", dirs_exist_ok=True)
    args = (src / "args.txt").read_text().split() if (src / "args.txt").is_file() else []
    started = time.monotonic()
    try:
        code = main(["--root", str(root), "validate", *args, case])
    except MemoryError:
        code = "memory"
    results[case] = (code, time.monotonic() - started)
print(json.dumps(results))
"""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "cards").mkdir()
    import shutil
    shutil.copytree(REPO / "layouts", root / "layouts")
    (root / "fonts").symlink_to(REPO / "fonts")
    run = subprocess.run([sys.executable, "-c", script, str(REPO), str(root)], capture_output=True,
                         text=True, timeout=900, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    results = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(results) >= 140
    for case, (code, seconds) in results.items():
        assert code in (0, 1), (case, code)
        assert seconds < 60, (case, seconds)
    assert "Traceback" not in run.stderr


# -- the command under pipes, signals and busy ports ----------------------------------------

def _cardgen(project: Path, *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([*CARDGEN, *args], cwd=project, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            **kwargs)


def test_a_broken_pipe_is_quiet(project):
    proc = subprocess.run(f"{sys.executable} -m generator validate | head -1", shell=True,
                          cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr


def _started(proc: subprocess.Popen, sign, limit: float = 300) -> None:
    """Wait until `sign()` is true (the run has reached what the test interrupts) or the
    run has ended: a sign, not a fixed sleep, so that a loaded machine waits longer."""
    deadline = time.monotonic() + limit
    while not sign() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)


def test_signals_during_a_build_end_it_once_without_a_traceback(project):
    proc = _cardgen(project, "build", "--png", "--dpi", "600")
    _started(proc, lambda: (project / "output" / ".cache").is_dir())  # it is building
    for _ in range(5):  # Ctrl-C pressed again and again, then a SIGTERM
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 130), err
    assert "Traceback" not in err, err
    if proc.returncode == 130:
        assert err.strip().splitlines()[-1] == "cardgen: interrupted; previous output kept"
    leftovers = [p for p in (project / "output").rglob(".*.tmp")]
    assert not leftovers


@pytest.mark.parametrize("lang, said", [
    ("en", "cardgen: interrupted; previous output kept"),
    ("ja", "cardgen: 中断しました。前の出力はそのまま残っています")])
def test_an_interrupt_while_the_modules_load_is_cardgens_line(project, lang, said):
    """Ctrl-C in the first second, while cardgen's modules load: its own line in the run's
    language and the interrupt's exit code, never a traceback (the guard is in place before
    anything heavy is imported). The sign: Python reports reportlab imported."""
    from generator.problems import ExitCode
    proc = subprocess.Popen([*CARDGEN[:1], "-X", "importtime", *CARDGEN[1:], "validate",
                             "--lang", lang], cwd=project, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.stderr is not None
    for line in proc.stderr:
        if "reportlab" in line:
            proc.send_signal(signal.SIGINT)
            break
    out, err = proc.communicate(timeout=120)
    lines = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert (proc.returncode, lines) == (ExitCode.INTERRUPTED, [said])


def test_the_interrupt_guard_takes_only_the_signals_the_system_has(monkeypatch):
    """The guard names only the signals the system's `signal` module has: Windows' Ctrl-Break
    (SIGBREAK) there, none that only POSIX systems have."""
    import importlib
    import types
    from generator import startup
    fake = types.SimpleNamespace(SIGINT=2, SIGTERM=15, SIGBREAK=21, SIG_IGN=1,
                                 signal=lambda *a: None)
    monkeypatch.setitem(sys.modules, "signal", fake)
    try:
        assert importlib.reload(startup).SIGNALS == (2, 15, 21)
    finally:
        monkeypatch.undo()
        importlib.reload(startup)


def test_a_port_in_use_is_a_usage_error(project, cardgen):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = cardgen("serve", "lastdance", "--port", str(port))
        ja = cardgen("--lang", "ja", "serve", "lastdance", "--port", str(port))
    assert run.code == 2
    assert f"port {port} on 127.0.0.1 is in use" in run.err
    # one whole sentence in Japanese too (it was two pieces joined: 「ポート 8765 はは使用中です」)
    assert ja.code == 2
    said = f"127.0.0.1 のポート {port} は使用中です（ほかの cardgen serve が動いていませんか？）。"
    assert said in ja.err, ja.err


def test_a_port_out_of_range_is_a_usage_error(project, cardgen):
    run = cardgen("serve", "lastdance", "--port", "99999")
    assert run.code == 2 and "--port must be from 0 to 65535, not 99999" in run.err


def test_serve_logs_a_reset_connection_in_one_line(project, capsys):
    from generator.serve import serve

    address, stop = {}, threading.Event()
    thread = threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(project), game="lastdance", port=0, stop=stop,
        ready=lambda a: address.update(port=a[1])))
    thread.start()
    while "port" not in address:
        time.sleep(0.05)
    with socket.create_connection(("127.0.0.1", address["port"])) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # then vanish mid-request, with a reset
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    time.sleep(0.5)
    stop.set()
    thread.join(10)
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_two_builds_of_one_game_write_one_whole_set_each(project):
    """The second build waits for the first to write its whole set: the fronts and backs on
    disk always come from one build."""
    procs = [_cardgen(project, "build", "lastdance") for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    from pypdf import PdfReader
    fronts = PdfReader(project / "output/lastdance/lastdance-fronts.pdf")
    backs = PdfReader(project / "output/lastdance/lastdance-backs.pdf")
    assert len(fronts.pages) == len(backs.pages) == 4


def test_every_data_format_has_the_same_size_budget(project, cardgen, monkeypatch):
    from generator.load import spreadsheet, yamlfile

    assert spreadsheet.MAX_BYTES == yamlfile.MAX_BYTES  # one limit for every format
    monkeypatch.setattr(spreadsheet, "MAX_BYTES", 100)
    folder = project / "cards/big"
    folder.mkdir()
    (folder / "game.yaml").write_text("title: big\ndecks:\n  - id: main\n    cards: cards.csv\n",
                                      "utf-8")
    (folder / "cards.csv").write_text("id,name\n" + "".join(f"c{i},n\n" for i in range(50)),
                                      "utf-8")
    run = cardgen("validate", "big")
    assert run.code == 1
    assert "cards/big/cards.csv: error: the file is too large (298 bytes; at most 100) [io]" \
        in run.lines


def test_kept_font_metrics_spare_validate_reading_the_fonts_and_change_nothing(project):
    """A build keeps what checks need of each font (output/.cache/fonts); `cardgen validate`
    then measures text without parsing the fonts' tables, writes nothing itself, and a
    damaged metrics file is measured again from the font."""
    import subprocess
    import sys

    probe = ("import sys; from generator.cli import main; from reportlab.pdfbase import "
             "pdfmetrics; code = main(['validate', 'lastdance']); "
             "print(sorted(n for n in pdfmetrics.getRegisteredFontNames() if 'BIZ' in n)); "
             "sys.exit(code)")

    def validate_in_a_new_process() -> tuple[int, str]:
        run = subprocess.run([sys.executable, "-c", probe], cwd=project, capture_output=True,
                             text=True)
        return run.returncode, run.stdout.strip().splitlines()[-1]

    code, loaded = validate_in_a_new_process()
    assert code == 0 and loaded != "[]"  # no kept metrics: the fonts are read
    assert not (project / "output").exists()  # validate writes nothing
    def build_in_a_new_process() -> None:  # (this process measured its fonts long ago)
        subprocess.run([sys.executable, "-m", "generator", "build", "lastdance", "-q"],
                       cwd=project, check=True, capture_output=True)

    build_in_a_new_process()
    first = (project / "output/lastdance/lastdance-fronts.pdf").read_bytes()
    kept = sorted((project / "output/.cache/fonts").glob("*.json"))
    assert kept
    code, loaded = validate_in_a_new_process()
    assert code == 0 and loaded == "[]"  # measured from the kept metrics alone
    for path in kept:
        path.write_text("{not json", "utf-8")
    code, loaded = validate_in_a_new_process()
    assert code == 0 and loaded != "[]"  # a damaged file: the font is read again
    build_in_a_new_process()
    assert (project / "output/lastdance/lastdance-fronts.pdf").read_bytes() == first


# --- YAML read from libyaml's events ---------------------------------------------------------

def _yaml(text: str, typed: bool = False):
    from generator.load.yamlfile import parse_yaml
    from generator.problems import Report
    report = Report()
    doc = parse_yaml(text, "f.yaml", report, typed)
    return doc, [p.format() for p in report.problems]


def test_an_alias_is_its_anchors_value_again_located_where_the_anchor_was_written():
    doc, problems = _yaml("a: &x {b: 1, c: [2, 3]}\nd: *x\ne: [*x]\n")
    assert problems == []
    assert doc.data == {"a": {"b": 1, "c": [2, 3]}, "d": {"b": 1, "c": [2, 3]},
                        "e": [{"b": 1, "c": [2, 3]}]}
    assert doc.data["d"] is not doc.data["a"]  # a copy of its own, as the node gave
    assert (doc.locate(("d", "c", 1)).line, doc.locate(("d", "c", 1)).col) == (1, 21)
    assert (doc.locate(("e", 0, "b"), key=True).line, doc.locate(("e", 0, "b"), key=True).col) \
        == (1, 8)


def test_yaml_edge_cases_read_as_before():
    doc, _ = _yaml("a: 1e5\nb: 1.0e+5\nc: ! 5\nd: !!str 5\ne: '5'\nf: 0123\ng: yes\nh: ~\n")
    assert doc.data == {"a": "1e5", "b": 100000.0, "c": 5, "d": "5", "e": "5", "f": "0123",
                        "g": "yes", "h": None}
    doc, problems = _yaml("? &k [1]\n: 2\nb: *k\n")  # a list as a key; its anchor still works
    assert doc.data == {"b": [1]}
    assert problems == ["f.yaml:1:3: error: a key must be a plain value, not a list or mapping "
                        "[yaml]"]
    doc, problems = _yaml("a: &r [1, {q: *r}]\nb: *r\n")
    assert problems == ["f.yaml:1:4: error: an alias refers to itself (recursive alias) [yaml]"]
    doc, problems = _yaml("a: 1\na: 2\nb: [1, 2\n")  # a syntax error is the one problem
    assert doc is None and len(problems) == 1 and "YAML syntax" in problems[0]
    doc, problems = _yaml("--- 1\n--- 2\n")
    assert problems == ["f.yaml:2:1: error: YAML syntax: a second document ('---') in a file of "
                        "one (after the document at 1:5) [yaml]"]
    doc, problems = _yaml("1: a\n2.5: b\n'3': c\n", typed=True)
    assert doc.data == {1: "a", 2.5: "b", "3": "c"}


def test_a_file_of_comments_and_blank_lines_is_empty_by_every_line_break():
    """The reader looks for the first line that is neither blank nor a comment from the
    file's start (it split the whole file into lines): the same answer, whatever the line
    breaks and spaces (str.splitlines' breaks, Unicode spaces)."""
    import random
    from generator.load.yamlfile import _only_comments
    pieces = ["#", " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
              "\x1f", "\x85", "\u2028", "\u2029", "\u3000", "\xa0", "a", ":"]
    rng = random.Random(62)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        assert _only_comments(text) == (not text.strip() or all(
            not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()))
    assert _yaml("# a\n\n  # b\r\n")[1] == ["f.yaml:1:1: error: the file is empty [yaml]"]


def test_numbers_too_large_and_text_that_is_not_text_said_as_before():
    """The reader looks at a scalar only as much as it must (a number too large only where
    a plain scalar begins as a number, the digits only of a text of more than 30 characters,
    each character only of a text that is not printable as a whole): what it says is what
    it said when it looked at every scalar in full."""
    digits = "f.yaml:{}: error: {}: {} digits: a number of more than 30 digits, which cardgen " \
        "does not read [schema]"
    doc, problems = _yaml("a: \u3000" + "1" * 31 + "\nb: '" + "9" * 31 + "'\nc: +" + "9" * 31 +
                          "\nd: " + "9" * 30 + "\n")
    assert doc.data == {"a": None, "b": "9" * 31, "c": None, "d": int("9" * 30)}
    assert problems == [digits.format("1:4", "a", 32), digits.format("3:4", "c", 31)]
    large = "f.yaml:{}: error: {}: {} is a number too large to be finite; numbers in cardgen " \
        "are finite [schema]"
    doc, problems = _yaml("a: 1e999\nb: '1e999'\nc: -1e999\nd: .inf\ne: &n 1.5e400\nf: *n\n")
    assert doc.data == {"a": None, "b": "1e999", "c": None, "d": math.inf, "e": None,
                        "f": "1.5e400"}
    assert problems == [large.format("1:4", "a", "1e999"), large.format("3:4", "c", "-1e999"),
                        large.format("5:4", "e", "1.5e400")]
    doc, problems = _yaml('a: "one\\ntwo\\u0007"\nb: "x\\r\\ny\\tz"\nc: |\n  line\n  two\n')
    assert doc.data == {"a": "one\ntwo\x07", "b": "x\r\ny\tz", "c": "line\ntwo\n"}
    assert problems == ["f.yaml:1:4: error: a: the text holds a control character, U+0007 "
                        "(BELL), which prints nothing and can drive a terminal; remove it "
                        "(written as an escape in quotes) [text]"]


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
def test_an_unclosed_quote_and_an_indenting_tab_are_said_where_they_are(monkeypatch, loader):
    """A quote not closed on its line took in the lines below up to the next quote, and the
    error was said two lines down ("a key was expected here ... in the mapping that starts
    at 2:5"); a tab in an indent was "a value cannot begin with this character (quote the
    value)". Each is now said at its cause, in words that name it, with either parser."""
    import yaml
    from generator.load import yamlfile
    monkeypatch.setattr(yamlfile, "_LOADER", getattr(yaml, loader, yaml.SafeLoader))
    deck = ('cards:\n  - id: a\n    question: "Q1"\n    answer: "Tuesday\n'
            '  - id: b\n    question: "Q2"\n    answer: "Sunday"\n')
    assert _yaml(deck)[1] == [
        "f.yaml:4:13: error: YAML syntax: the quote opened here is never closed (the text runs "
        "on to the quote at 6:15) [yaml]"]
    assert _yaml(deck.replace('"', "'"))[1] == [
        "f.yaml:4:13: error: YAML syntax: the quote opened here is never closed (the text runs "
        "on to the quote at 6:15) [yaml]"]
    tab = "f.yaml:{}: error: YAML syntax: a tab character cannot be used for indentation; " \
          "use spaces [yaml]"
    assert _yaml('cards:\n  - id: a\n    question: "Q1"\n\tanswer: "x"\n')[1] == \
        [tab.format("4:1")]
    assert _yaml('cards:\n  - id: a\n    question: "Q1"\n  \t  answer: "x"\n')[1] == \
        [tab.format("4:3")]
    # a text quoted over lines on purpose is read, and an error after it said as before
    doc, problems = _yaml('a: "one\n  two"\nb: 1\n')
    assert doc.data == {"a": "one two", "b": 1} and problems == []
    # a quote closed on a later line, a mistake after it: the mistake, where it is (a
    # line of the text that reads like a key does not make the quote unclosed: a review)
    assert _yaml('cards:\n  - id: a\n    effect: "Draw two cards.\n'
                 '      Note: discard one." 2\n')[1] == [
        "f.yaml:4:27: error: YAML syntax: a key was expected here (is the line indented as the "
        "ones above it?) (in the mapping that starts at 2:5) [yaml]"]


def test_locations_are_kept_packed_and_given_back_whole():
    """A file's location tables keep each place as one int where its column fits
    (problems.packed); SourceMap.locate gives back the same Location either way, and a
    duplicate key still names the line of the first."""
    from generator.problems import COLUMN_BITS, Location, packed, unpacked
    for line, col in ((1, 1), (12345678, 3), (7, (1 << COLUMN_BITS) - 1), (7, 1 << COLUMN_BITS),
                      (0, 0)):
        kept = packed("f.yaml", line, col)
        assert unpacked("f.yaml", kept) == Location("f.yaml", line, col)
        assert isinstance(kept, int) == (col < 1 << COLUMN_BITS)
    wide = "a: " + " " * (1 << COLUMN_BITS) + "[1]\nb: 2\n"  # a column too wide to pack
    doc, problems = _yaml(wide)
    assert problems == [] and doc.locate(("a", 0)) == Location("f.yaml", 1, (1 << COLUMN_BITS) + 5)
    assert doc.locate(("b",), key=True) == Location("f.yaml", 2, 1)
    doc, problems = _yaml("cards:\n  - {id: a, n: 1}\n  - {id: b, n: 2, n: 3}\n")
    assert problems == ["f.yaml:3:19: error: duplicate key 'n' in 'b' (first defined at line 3) "
                        "[yaml]"]
    assert doc.locate(("cards", 1, "n")) == Location("f.yaml", 3, 16)
    assert doc.locate(("cards", 1, "missing", 4)) == Location("f.yaml", 3, 5)


def test_a_card_field_template_shows_what_jinja2_would():
    """`{{ card.x }}`, with plain text around it or not (`No.{{ card.x }}`), is shown without
    running Jinja2 (sandbox.render): the same text for every kind of value and text around
    it, and the same located problem where Jinja2 has one."""
    from generator import sandbox
    card = {"name": "踊り子", "n": 12, "neg": -3, "yes": True, "f": 1.5, "none": None,
            "big": 10 ** 5000, "items": "shadowed", "tbd": "TBD", "list": [1, 2]}
    scope = sandbox.scope({"card": card})
    for source in ("{{ card.name }}", "{{card.n}}", "{{  card.neg  }}", "{{ card.yes }}",
                   "{{ card.f }}", "{{ card.none }}", "{{ card.big }}", "{{ card.items }}",
                   "{{ card.missing }}", "{{ card.tbd }}", "{{ card.list }}",
                   "{{ card.name }}\n", "{{- card.name -}}", "x{{ card.name }}",
                   "No.{{ card.n }}", "{{ card.n }} 枚", "a {{ card.f }} b", "x{{ card.none }}",
                   "x{{ card.missing }}y", "-{{ card.big }}", "({{ card.items }})",
                   "{ {{ card.name }}", "{{ card.name }} }", "{{ card.name }}}",
                   "a\n{{ card.name }}", "{{ card.name }}\r\n", "{{ card.name }} \n",
                   "x {{- card.name }}", "%}{{ card.name }}#}", "{{ card.name }}{{ card.n }}",
                   "x{{ card.yes }}"):
        def slow():
            return sandbox.run(sandbox._render_in, sandbox.template(source), scope)
        try:
            expected = ("ok", slow())
        except sandbox.SandboxError as exc:
            expected = ("error", str(exc))
        try:
            got = ("ok", sandbox.render(source, scope))
        except sandbox.SandboxError as exc:
            got = ("error", str(exc))
        assert got == expected, source
    assert sandbox._card_field("{{ card.name }}") == ("", "name", "")
    assert sandbox._card_field("No.{{ card.n }} 枚") == ("No.", "n", " 枚")
    assert sandbox._card_field("{{ card.items }}") is None  # the dict's method, to Jinja2
    assert sandbox._card_field("{{ card.name }}}") is None  # (Jinja2 reads a brace itself)


def test_a_font_file_over_the_limit_is_refused_before_it_is_read(project, cardgen):
    """A game's font of 3 GB (sparse here: it costs no disk) is an error at its key, said
    at once: reportlab would read it whole."""
    from generator.fonts import MAX_FONT_BYTES
    game = write_game(project, "bigfont", {
        "title": "big font", "decks": [{"id": "main"}],
        "fonts": {"huge": {"regular": "fonts/Huge.ttf", "licence": "fonts/OFL.txt"}}},
        [{"id": "one", "name": "一"}], files={"fonts/OFL.txt": b"OFL"})
    head = (REPO / "fonts/SourceSansPro-Regular.ttf").read_bytes()[:4096]
    with open(game / "fonts/Huge.ttf", "wb") as font:
        font.write(head)
        font.truncate(3 * 1024 ** 3)
    started = time.monotonic()
    run = cardgen("validate", "bigfont")
    assert time.monotonic() - started < 10
    assert run.code == 1
    assert any(re.search(r"game\.yaml:\d+:\d+: error: font family 'huge': Huge\.ttf is 3,072 MB; "
                         rf"a font file is at most {MAX_FONT_BYTES // 1024 ** 2} MB", line)
               for line in run.lines), run.lines


def test_a_cache_file_interrupted_while_written_leaves_nothing_and_keeps_the_old_one(tmp_path):
    """Every kept file (the PNG, CMYK and font caches) is written by paths.write_atomically:
    Ctrl-C in the middle of the write removes the temporary file and keeps the one before
    (a build interrupted while caching a PNG left `.<key>.png.tmp` behind)."""
    from generator.paths import write_atomically
    kept = tmp_path / "face.png"
    kept.write_bytes(b"before")

    def interrupted(tmp):
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(kept, interrupted)
    assert kept.read_bytes() == b"before" and [p.name for p in tmp_path.iterdir()] == ["face.png"]
    write_atomically(kept, lambda tmp: tmp.write_bytes(b"after"))
    assert kept.read_bytes() == b"after" and [p.name for p in tmp_path.iterdir()] == ["face.png"]


def test_an_interrupt_inside_the_font_library_is_an_interrupt_not_a_damaged_font(tmp_path):
    """reportlab's bare `except:` turns a Ctrl-C or SIGTERM that lands while it reads a font
    into "Corrupt file" (a killed build once said the shipped gothic was damaged): cardgen
    sees the interrupt under it and unwinds as an interrupt."""
    from reportlab.pdfbase.ttfonts import TTFError

    from generator import fonts
    try:
        try:
            raise KeyboardInterrupt
        except BaseException:  # as reportlab's `except:` does
            raise TTFError("Corrupt file cannot read Table Directory")
    except TTFError as renamed:
        with pytest.raises(KeyboardInterrupt):
            fonts._explain(tmp_path / "Gothic.ttf", renamed)
    assert "is damaged" in str(fonts._explain(tmp_path / "Gothic.ttf", TTFError("Corrupt file")))


# -- I/O faults are faults of the machine, not bugs (issue 63) --------------------------------

def _refusing(monkeypatch, number: int, after: int = 0) -> None:
    """The system refuses the `after`+1st file a build opens for writing, as a full disk
    or a read-only folder would (a test hook: the machine's own disk is neither)."""
    import errno
    import generator.write as write
    opened = [0]
    real = write.os.open

    def refused(path, flags, *more):
        opened[0] += 1
        if flags & os.O_CREAT and opened[0] > after:
            raise OSError(number, os.strerror(number), str(path))
        return real(path, flags, *more)
    monkeypatch.setattr(write.os, "open", refused)
    assert errno.errorcode[number]


@pytest.mark.parametrize("number, code, words", [
    (28, 74, "the disk is full"),  # ENOSPC
    (30, 73, "its folder is on a read-only disk"),  # EROFS
    (13, 73, "its folder is read-only (permission denied)")])  # EACCES
def test_a_file_the_system_will_not_write_is_a_fault_and_the_previous_output_is_kept(
        project, cardgen, monkeypatch, number, code, words):
    import errno
    from generator.problems import ExitCode
    assert errno.errorcode[number] in ("ENOSPC", "EROFS", "EACCES")
    assert cardgen("build", "lastdance").code == 0
    folder = project / "output/lastdance"
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    (project / "cards/lastdance/cards.yaml").write_text(
        (project / "cards/lastdance/cards.yaml").read_text("utf-8").replace("Princess", "Queen"),
        "utf-8")
    _refusing(monkeypatch, number, after=1)
    run = cardgen("build", "lastdance")
    assert run.code == code and code in {int(c) for c in ExitCode}
    last = run.err.strip().splitlines()[-1]
    assert re.fullmatch(rf"cardgen: error: cannot write \S+lastdance-\S+: {re.escape(words)}; "
                        r"previous output kept", last), last
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert not list(folder.rglob(".*.tmp"))


def test_a_closed_standard_output_is_a_fault_not_a_silent_success(project):
    """`cardgen build >&-`: Python would drop every line printed and exit 0; cardgen does
    nothing and says why, with the I/O fault's exit code."""
    run = subprocess.run(f"{sys.executable} -m generator build lastdance >&-", shell=True,
                         cwd=project, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert (run.returncode, run.stderr.strip().splitlines()) == (74, [
        "cardgen: error: the standard output is closed; nothing was done (to drop what cardgen "
        "says, send it to /dev/null)"])
    assert not (project / "output/lastdance").exists()


def test_a_closed_standard_error_and_input_are_the_null_device(project):
    """`cardgen build 2>&- <&-`: what cardgen says on stderr is dropped (the exit code still
    says how the run went), never an internal error, and no file it writes takes the closed
    descriptors' numbers (what a library says there would land in the file)."""
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(f"{sys.executable} -m generator {' '.join(args)} 2>&- <&-",
                              shell=True, cwd=project, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})
    built = run("build", "lastdance")
    assert built.returncode == 0, built.stdout
    assert "wrote output/lastdance/lastdance-fronts.pdf (4 pages)" in built.stdout
    for pdf in (project / "output/lastdance").glob("*.pdf"):
        assert pdf.read_bytes().startswith(b"%PDF-") and b"cardgen" not in pdf.read_bytes()[:8]
    fronts = (project / "output/lastdance/lastdance-fronts.pdf").read_bytes()
    cards = project / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("copies: 1", "copies: many", 1), "utf-8")
    assert run("build", "lastdance").returncode == 1  # (its problems said on the closed stderr)
    assert (project / "output/lastdance/lastdance-fronts.pdf").read_bytes() == fronts
    assert ": error: card 'princess': copies " in run("validate", "lastdance").stdout
    assert run("validate", "no-such-game").returncode == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_under_the_standard_output_is_said(project):
    run = subprocess.run(f"{sys.executable} -m generator validate lastdance > /dev/full",
                         shell=True, cwd=project, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert run.returncode == 74
    assert run.stderr.strip().splitlines()[-1] == \
        "cardgen: error: cannot write the standard output: the disk is full"
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr


def test_the_system_errors_map_to_their_exit_codes():
    import errno
    from generator.problems import ExitCode, exit_code_for
    assert exit_code_for(OSError(errno.ENOSPC, "x")) == ExitCode.IO_FAULT
    assert exit_code_for(OSError(errno.EIO, "x")) == ExitCode.IO_FAULT
    assert exit_code_for(PermissionError(errno.EACCES, "x")) == ExitCode.CANNOT_WRITE
    assert exit_code_for(OSError(errno.EROFS, "x")) == ExitCode.CANNOT_WRITE
    assert exit_code_for(BrokenPipeError(errno.EPIPE, "x")) == ExitCode.BROKEN_PIPE
    assert exit_code_for(FileNotFoundError(errno.ENOENT, "x")) == ExitCode.INTERNAL  # a bug


@pytest.mark.parametrize("asked, version", [
    ("9" * 5000, None), ("9" * 19, None), ("-1", None), ("１２", None), ("²", None),
    ("1e5", None), ("0x3", None), ("", None), ("3", 3), ("0", 0), ("4", None)])
def test_the_previews_since_takes_a_version_of_this_run_or_none(asked, version):
    """`?since=V` from a page: a version of this server's run, not newer than its own;
    anything else (5,000 digits, which Python's int() refuses, a sign, other digits) is
    none, and the page gets everything."""
    import types
    from generator.serve import _since
    preview = types.SimpleNamespace(server="run", version=3)
    assert _since(f"since={asked}", '"run-1"', preview) == version
    assert _since(f"since={asked}", '"other-1"', preview) is None
