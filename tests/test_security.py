"""A game folder from a stranger cannot reach outside itself, run code, or script the
preview page (issue #19).

Every test keeps a folder `outside/` beside the project with a secret in it, and an audit
hook records every file or folder the process opens or lists there. A test passes only
if cardgen refused with a located message, read nothing there and wrote nothing there.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generator.load import Project
from generator.paths import Outside, inside, is_name
from generator.problems import printable

SECRET = "password: hunter2"

# -- what the process reads outside the project --------------------------------------------

_watched: list[tuple[str, list]] = []
_busy = threading.local()


def _audit(event: str, args: tuple) -> None:
    if not _watched or event not in ("open", "os.listdir", "os.scandir") or not args:
        return
    if getattr(_busy, "on", False):
        return
    _busy.on = True
    try:
        target = args[0]
        if isinstance(target, int) or target is None:
            return
        real = os.path.realpath(os.fsdecode(target))
        for prefix, hits in _watched:
            if real == prefix or real.startswith(prefix + os.sep):
                hits.append((event, real))
    except Exception:
        pass
    finally:
        _busy.on = False


sys.addaudithook(_audit)  # audit hooks cannot be removed; this one is idle unless watching


class Outside_:
    """The folder beside the project, with what a hostile game would like to reach."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir()
        (root / "secret.yaml").write_text(f"{SECRET}\nsize: meishi\n", "utf-8")
        (root / "secret.md").write_text(f"# {SECRET}\n", "utf-8")
        (root / "secret.py").write_text("import os\nos.environ['CARDGEN_PWNED'] = '1'\n"
                                        "def check_x(game, report):\n    pass\n", "utf-8")
        (root / "layouts").mkdir()
        (root / "layouts" / "secret.yaml").write_text(f"{SECRET}\nsize: meishi\n", "utf-8")

    def snapshot(self) -> dict:
        return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in self.root.rglob("*")}


@pytest.fixture
def outside(project) -> Outside_:
    box = Outside_(project.parent / "outside")
    before = box.snapshot()
    hits: list = []
    _watched.append((os.path.realpath(box.root), hits))
    box.hits = hits
    try:
        yield box
    finally:
        _watched.pop()
    assert box.snapshot() == before, "something was written outside the project"


def _game(project: Path, name: str = "evil", game: str = "",
          cards: str = "  - {id: one, name: 一}\n",
          files: dict | None = None) -> Path:
    folder = project / "cards" / name
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "title: evil\ndecks:\n  - id: main\n    cards: cards.yaml\n" + game, "utf-8")
    (folder / "cards.yaml").write_text("cards:\n" + cards, "utf-8")
    for rel, text in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return folder


def _refused(run, *needles: str) -> None:
    """cardgen said no with located problems naming the cause, and never echoed the secret."""
    text = "\n".join(run.lines)
    assert run.code in (1, 2), run.lines
    assert "hunter2" not in text
    assert "Traceback" not in text and "internal error" not in text, run.lines
    for needle in needles:
        assert needle in text, (needle, run.lines)


# -- 1. ids that would write outside the output folder -------------------------------------

def test_a_generated_id_that_climbs_out_is_refused_and_nothing_is_written(project, cardgen,
                                                                          outside):
    _game(project, cards="")
    (project / "cards/evil/cards.yaml").write_text(
        "generate:\n  each:\n    n: [1, 2]\n  id: '../../../outside/pwn-{{ n }}'\n", "utf-8")
    for command in ("validate", "build"):
        run = cardgen(command, "--png", "evil") if command == "build" else cardgen(command, "evil")
        _refused(run, "cards/evil/cards.yaml:4:7: error: deck 'main': generating the card for n=1: "
                      "id must be an id of lowercase letters")
    assert not outside.hits and not (project / "output" / "evil").exists()


def test_every_output_lies_in_the_output_folder_even_through_a_link(project, cardgen, outside):
    """The last gate: an output folder entry that is a link leading out is never written
    through, and the build says so."""
    (project / "output").mkdir()
    (project / "output" / "lastdance").symlink_to(outside.root, target_is_directory=True)
    run = cardgen("build", "lastdance")
    assert run.code == 3
    assert "lies outside the output folder" in run.err and "nothing was written" in run.err


# -- 2. names: one anchored rule wherever they come from -----------------------------------

NAME_CASES = {
    "front": ("    front: ../../../outside/secret\n", "", "front must be an id of"),
    "back": ("    back: ../../../outside/secret\n", "", "back must be an id of"),
    "sheet": ("    sheet: ../../../outside/secret\n", "", "sheet must be a sheet preset id"),
    "sheet preset": ("    sheet: {preset: ../../../outside/secret}\n", "",
                     "preset must be an id of"),
    "per-card back": ("", "  - {id: one, name: 一, back: ../../../outside/secret}\n",
                      "back must be an id of"),
    "deck id": ("  - id: ../x\n    cards: cards.yaml\n", "", "id must be an id of"),
    "card id": ("", "  - {id: ../../outside/x, name: 一}\n", "id must be an id of"),
    "trailing newline": ("", "  - {id: \"one\\n\", name: 一}\n", "not 'one\\x0a'"),
    "board layout": ("boards:\n"
                     "  - {id: b, layout: ../../outside/secret, deck: main, cards: [one]}\n",
                     "", "layout must be an id of"),
}


@pytest.mark.parametrize("case", NAME_CASES)
def test_a_name_from_data_never_becomes_a_path(case, project, cardgen, outside):
    game, cards, message = NAME_CASES[case]
    _game(project, game=game, cards=cards or "  - {id: one, name: 一}\n")
    _refused(cardgen("validate", "evil"), "cards/evil/", message)
    assert not outside.hits


def test_a_layout_that_extends_a_path_is_refused(project, cardgen, outside):
    (project / "layouts" / "evil-front.yaml").write_text(
        "extends: ../../outside/layouts/secret\nelements: []\n", "utf-8")
    _game(project, game="    front: evil-front\n")
    _refused(cardgen("validate", "evil"),
             "layouts/evil-front.yaml:1:10: error: extends must be an id of")
    assert not outside.hits


def test_csv_and_xlsx_ids_pass_the_same_rule(project, cardgen, outside):
    import openpyxl

    _game(project, game="    fields:\n      name: {type: text}\n")
    game = project / "cards/evil/game.yaml"
    game.write_text(game.read_text("utf-8").replace("cards.yaml", "cards.csv"), "utf-8")
    (project / "cards/evil/cards.csv").write_text("id,name\n../../outside/x,一\n", "utf-8")
    _refused(cardgen("validate", "evil"),
             "cards/evil/cards.csv:2:1: error: card '../../outside/x': "
                                          "id must be an id of")
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    book.active.append(["../../outside/y", "一"])
    book.save(project / "cards/evil/cards.xlsx")
    game.write_text(game.read_text("utf-8").replace("cards.csv", "cards.xlsx"), "utf-8")
    _refused(cardgen("validate", "evil"), "cards/evil/cards.xlsx[Sheet]!A2: error: card "
                                          "'../../outside/y': id must be an id of")
    assert not outside.hits


@pytest.mark.parametrize("args, message", [
    (["build", "lastdance\n"], "'lastdance\\x0a' cannot name a game"),
    (["validate", "../outside"], "'../outside' cannot name a game"),
    (["new", "evil\n"], "'evil\\x0a' cannot name a game"),
    (["new", "../../outside/x"], "'../../outside/x' cannot name a game"),
    (["new", "ok", "--sheet", "../../outside/secret"], "unknown sheet preset"),
    (["build", "--printer", "../../outside/secret", "lastdance"], "cannot name a printer"),
])
def test_names_on_the_command_line_pass_the_rule(args, message, project, cardgen, outside):
    run = cardgen(*args)
    assert run.code == 2 and message in run.err, run.lines
    assert not outside.hits and not (project / "cards" / "ok").exists()


def test_a_game_folder_with_a_name_that_cannot_be_one_is_named_and_skipped(project, cardgen):
    bad = project / "cards" / "My Game"
    bad.mkdir()
    (bad / "game.yaml").write_text("title: x\ndecks: []\n", "utf-8")
    run = cardgen("validate")
    assert run.code == 0
    assert "cardgen: warning: cards/My Game is not a game: its folder name must be" in run.err


# -- 3. files: one containment check that resolves links -----------------------------------

def _link(path: Path, target: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target)


FILE_CASES = {
    # name: (game.yaml extra, how to set the link up (project, outside), expected message)
    "card file": ("", lambda p, o: _link(p / "cards/evil/cards.yaml", o / "secret.yaml"),
                  "card file 'cards.yaml' is a link that leads outside the game folder"),
    "data file": ("data:\n  setup: setup.yaml\n", lambda p, o: _link(p / "cards/evil/setup.yaml",
                                                                     o / "secret.yaml"),
                  "data file 'setup.yaml' is a link that leads outside the game folder"),
    "data file by path": ("data:\n  setup: ../../../outside/secret.yaml\n", None,
                          "data file '../../../outside/secret.yaml' lies outside the game folder"),
    "checks file": ("checks: checks.yaml\n", lambda p, o: _link(p / "cards/evil/checks.yaml",
                                                               o / "secret.yaml"),
                    "checks file 'checks.yaml' is a link that leads outside"),
    "python checks": ("python_checks: checks.py\n", lambda p, o: _link(p / "cards/evil/checks.py",
                                                                      o / "secret.py"),
                      "checks module 'checks.py' is a link that leads outside"),
    "macros": ("macros: macros.j2\n",
               lambda p, o: _link(p / "cards/evil/macros.j2", o / "secret.md"),
               "macros file 'macros.j2' is a link that leads outside"),
    "rulebook": ("rulebook: {template: rules.md}\n", lambda p, o: _link(p / "cards/evil/rules.md",
                                                                       o / "secret.md"),
                 "rulebook template 'rules.md' is a link that leads outside"),
    "rulebook include": ("rulebook: {template: rules.md}\n", lambda p, o: (
        p / "cards/evil/rules.md").write_text(
            "# Rules\n\n{% include '../../../outside/secret.md' %}\n", "utf-8"),
        "cards/evil/rules.md:3:1: error: included file '../../../outside/secret.md' lies outside"),
    "rulebook include link": ("rulebook: {template: rules.md}\n", lambda p, o: (
        (p / "cards/evil/rules.md").write_text("# Rules\n\n{% include 'part.md' %}\n", "utf-8"),
        _link(p / "cards/evil/part.md", o / "secret.md")),
        "included file 'part.md' is a link that leads outside"),
    "icon image": ("icons:\n  coin: {image: coin.png}\n",
                   lambda p, o: _link(p / "cards/evil/coin.png",
                                                                            o / "secret.yaml"),
                   "icon 'coin': image 'coin.png' is a link that leads outside the game folder"),
    "layout file": ("    front: evil-front\n", lambda p, o: _link(p / "layouts/evil-front.yaml",
                                                                 o / "layouts/secret.yaml"),
                    "layout 'evil-front' (layouts/evil-front.yaml) is a link that leads outside"),
    "sheet preset file": ("    sheet: evil-sheet\n", lambda p, o: _link(
        p / "layouts/sheets/evil-sheet.yaml", o / "secret.yaml"),
        "sheet preset 'evil-sheet' (layouts/sheets/evil-sheet.yaml) is a link that leads outside"),
    "board layout file": ("boards:\n  - {id: b, layout: evil-ring, deck: main, cards: [one]}\n",
                          lambda p, o: _link(p / "layouts/boards/evil-ring.yaml",
                                             o / "secret.yaml"),
                          "board layout 'evil-ring' (layouts/boards/evil-ring.yaml) is a link"),
}


@pytest.mark.parametrize("case", FILE_CASES)
def test_a_file_a_game_names_is_read_only_inside_its_folder(case, project, cardgen, outside):
    extra, setup, message = FILE_CASES[case]
    _game(project, game=extra)
    if setup is not None:
        setup(project, outside.root)
    for args in (["validate", "evil"], ["build", "--trust", "evil"]):
        _refused(cardgen(*args), message)
    assert not outside.hits, outside.hits
    assert "CARDGEN_PWNED" not in os.environ


def test_an_image_link_out_is_refused(project, cardgen, outside):
    (project / "layouts" / "evil-front.yaml").write_text(
        "size: meishi\nelements:\n  - {name: art, type: image, src: art.png}\n", "utf-8")
    _game(project, game="    front: evil-front\n")
    _link(project / "cards/evil/art.png", outside.root / "secret.yaml")
    _refused(cardgen("build", "evil"),
             "image 'art.png' is a link that leads outside the game folder")
    assert not outside.hits


def _fonts_copy(project: Path) -> Path:
    from conftest import REPO

    fonts = project / "fonts"
    fonts.unlink()
    fonts.mkdir()
    for f in (REPO / "fonts").iterdir():
        os.link(f, fonts / f.name) if f.suffix == ".ttf" else fonts.joinpath(f.name).write_bytes(
            f.read_bytes())
    return fonts


def test_font_files_and_fonts_yaml_are_read_only_inside_fonts(project, cardgen, outside):
    fonts = _fonts_copy(project)
    text = (fonts / "fonts.yaml").read_text("utf-8")
    (fonts / "fonts.yaml").write_text(text.replace("BIZUDPMincho-Regular.ttf", "evil.ttf"), "utf-8")
    _link(fonts / "evil.ttf", outside.root / "secret.yaml")
    _refused(cardgen("validate", "lastdance"), "'evil.ttf' is a link that leads outside fonts/")
    (fonts / "fonts.yaml").write_text(text.replace("BIZUDPMincho-Regular.ttf",
                                                   "../../outside/secret.yaml"), "utf-8")
    _refused(cardgen("validate", "lastdance"), "'../../outside/secret.yaml' lies outside fonts/")
    _link(fonts / "fonts.yaml", outside.root / "secret.yaml")
    _refused(cardgen("validate", "lastdance"),
             "fonts/fonts.yaml: error: fonts/fonts.yaml is a link "
                                               "that leads outside fonts/")
    assert not outside.hits


def test_printers_yaml_is_read_only_inside_layouts(project, cardgen, outside):
    _link(project / "layouts/printers.yaml", outside.root / "secret.yaml")
    _refused(cardgen("build", "--printer", "home", "lastdance"),
             "layouts/printers.yaml is a link that leads outside layouts/")
    assert not outside.hits


# -- 4. cardgen new never writes through a link --------------------------------------------

def test_new_refuses_a_dangling_link_and_writes_nothing(project, cardgen, outside):
    _link(project / "layouts/mine-front.yaml", outside.root / "made-by-new.yaml")  # dangling
    run = cardgen("new", "mine")
    assert run.code == 2 and "layouts/mine-front.yaml already exists" in run.err
    assert not (outside.root / "made-by-new.yaml").exists()
    assert not (project / "cards/mine").exists()


def test_new_refuses_a_layouts_folder_that_leads_out(project, cardgen, tmp_path_factory):
    import shutil
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "layouts"
    shutil.move(project / "layouts", elsewhere)
    (project / "layouts").symlink_to(elsewhere, target_is_directory=True)
    before = sorted(elsewhere.rglob("*"))
    run = cardgen("new", "mine")
    assert run.code == 2, run.lines
    assert "lies behind a link that leads outside the project" in run.err, run.lines
    assert not (project / "cards/mine").exists() and sorted(elsewhere.rglob("*")) == before


# -- 5. watch and serve stay in their folders and survive loops ----------------------------

def test_the_poller_survives_a_link_loop_and_ignores_links_out(project):
    from generator.watch import files_stamp

    outside = Outside_(project.parent / "outside")
    folder = project / "cards/lastdance"
    (folder / "loop").symlink_to(".", target_is_directory=True)
    (folder / "deep").mkdir()
    (folder / "deep" / "back").symlink_to("..", target_is_directory=True)
    (folder / "out").symlink_to(outside.root, target_is_directory=True)
    (folder / "out.yaml").symlink_to(outside.root / "secret.yaml")
    project_ = Project.find(project)
    started = time.monotonic()
    first = files_stamp(project_, "lastdance")
    assert time.monotonic() - started < 5
    (outside.root / "secret.yaml").write_text("changed\n", "utf-8")  # not ours: not watched
    assert files_stamp(project_, "lastdance") == first
    assert not any(name in ("secret.yaml", "secret.md") for _, name, *_ in first)
    (folder / "cards.yaml").write_text((folder / "cards.yaml").read_text("utf-8") + "\n", "utf-8")
    assert files_stamp(project_, "lastdance") != first


def test_watch_keeps_watching_after_an_internal_error(project):
    from generator.watch import watch

    stop, calls, failures = threading.Event(), [], []

    def rebuild(game):
        calls.append(game)
        if len(calls) == 1:
            raise RuntimeError("a bug")
        stop.set()

    folder = project / "cards/lastdance"
    timer = threading.Timer(0.5, lambda: (folder / "cards.yaml").write_text(
        (folder / "cards.yaml").read_text("utf-8") + "\n", "utf-8"))
    timer.start()
    watch(Project.find(project), ["lastdance"], rebuild, stop, lambda g, e: failures.append(str(e)),
          interval=0.05)
    assert calls == ["lastdance", "lastdance"] and failures == ["a bug"]


# -- 6. the preview page escapes data and runs only its own script -------------------------

PAYLOAD = '"><script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def _serve(project: Path, game: str):
    from generator.serve import serve

    address, stop = {}, threading.Event()
    thread = threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(project), game=game, port=0, stop=stop,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}")))
    thread.start()
    deadline = time.monotonic() + 30
    while "url" not in address:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return address["url"], stop, thread


def _version(url: str) -> int:
    """The preview's version once a build has finished (0 before the first)."""
    import json
    with urllib.request.urlopen(url + "/state.json", timeout=5) as response:
        state = json.loads(response.read())
    return state["version"] if state["built_at"] and not state["building"] else 0


def test_the_preview_page_runs_no_script_from_data(project):
    from browser import chrome

    yaml_payload = PAYLOAD.replace('"', '\\"')
    _game(project, cards=f'  - {{id: one, name: "{yaml_payload}"}}\n')
    url, stop, thread = _serve(project, "evil")
    try:
        deadline = time.monotonic() + 30
        while _version(url) < 1:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        with urllib.request.urlopen(url + "/", timeout=5) as response:
            page = response.read().decode("utf-8")
            csp = response.headers["Content-Security-Policy"]
        # In the page, the payload is data: JSON with <, > and & escaped, read by the page's
        # script and shown with textContent.
        assert "<script>window.pwned" not in page and "\\u003cscript\\u003ewindow.pwned" in page
        nonce = re.search(r"script-src 'nonce-([^']+)'", csp).group(1)
        assert page.count(f'nonce="{nonce}"') == 2 and "'unsafe-inline'" not in csp
        with chrome() as browser:
            browser.get(url + "/")
            assert browser.execute_script("return window.pwned") is None
            assert PAYLOAD in browser.find_element("css selector", "figure.card .name").text
            # The same payload in a problem's message (a card id the rule refuses).
            shown = _version(url)
            cards = project / "cards/evil/cards.yaml"
            cards.write_text(cards.read_text("utf-8") + f'  - {{id: "{yaml_payload}", name: x}}\n',
                             "utf-8")
            deadline = time.monotonic() + 20
            while _version(url) in (shown, 0):
                assert time.monotonic() < deadline, "the page was not rebuilt"
                time.sleep(0.2)
            time.sleep(1.5)  # the page reloads itself on the new version
            browser.get(url + "/")
            problems = browser.execute_script(
                "return document.querySelector('.problems').textContent")
            assert "id must be an id of" in problems and "<script>window.pwned" in problems
            assert browser.execute_script("return window.pwned") is None
    finally:
        stop.set()
        thread.join(10)


# -- 7. messages neutralise control characters and bidi overrides --------------------------

def test_messages_show_escape_sequences_and_bidi_controls_as_codes(project, cardgen):
    _game(project, cards='  - {id: "a\\e[2J\\u202Eb", name: x}\n')
    run = cardgen("validate", "evil")
    assert run.code == 1
    assert "\x1b" not in run.out + run.err and "\u202e" not in run.out + run.err
    # said once, where it is written, naming the character (the id's pattern follows from it)
    assert "id: the text holds a control character, U+001B (ESCAPE)" in run.out
    assert "id must be" not in run.out
    run = cardgen("build", "\x1b[2J")
    assert run.code == 2 and "'\\x1b[2J' cannot name a game" in run.err and "\x1b" not in run.err


def test_printable_keeps_text_and_shows_controls():
    assert printable("姫 Princess ♥ é") == "姫 Princess ♥ é"
    assert printable("a\x1b[2J\u202ex\u2066\x00\x7f\n") == \
        "a\\x1b[2JU+202Ex" + "U+2066\\x00\\x7f\\x0a"


# -- 8. a trusted checks module is the only code a game can run ----------------------------

def test_a_checks_module_runs_only_with_trust(project, cardgen):
    _game(project, game="python_checks: checks.py\n", files={
        "checks.py": "import os\nos.environ['CARDGEN_RAN'] = '1'\n"
                     "def check_nothing(game, report):\n    pass\n"})
    run = cardgen("validate", "evil")
    assert run.code == 1 and "runs it only when you pass --trust" in run.out
    assert "CARDGEN_RAN" not in os.environ
    run = cardgen("validate", "--trust", "evil")
    assert run.code == 0, run.lines
    assert os.environ.pop("CARDGEN_RAN") == "1"


def test_a_checks_module_python_cannot_import_is_a_located_problem(project, cardgen):
    """A checks module whose name Python cannot import (not a .py file) is the game's problem,
    said at python_checks: (it was an internal error once: no module spec was made for it)."""
    _game(project, game="python_checks: checks.txt\n", files={
        "checks.txt": "def check_nothing(game, report):\n    pass\n"})
    run = cardgen("validate", "--trust", "evil")
    assert run.code == 1, run.lines
    assert "internal error" not in run.err, run.lines
    assert any("game.yaml:" in line and "checks.txt" in line for line in run.lines), run.lines


# -- 9. the property: hostile names and paths never reach outside --------------------------

WAYS_OUT = ["", "link/", "link/../link/", "../../../outside/", "../../outside/", "../", "/",
            "link\\", "./link/"]
TARGETS = ["secret.yaml", "secret.md", "secret", "layouts/secret", "secret.py"]
HOSTILE = st.tuples(
    st.sampled_from(WAYS_OUT),
    st.one_of(st.sampled_from(TARGETS),
              st.lists(st.sampled_from(["..", "/", "\\", "\x00", "\n", "a", "-", "_", ".",
                                        "outside", "secret", ".yaml", "link", "~", "%2e",
                                        "{{ '..' }}", "é"]),
                       min_size=1, max_size=8).map("".join))).map("".join)
SLOTS = ("card id", "deck id", "front", "sheet", "card back", "image", "data", "include",
         "generated id", "macros")


def _hostile_game(project: Path, slot: str, value: str) -> None:
    import json
    v = json.dumps(value)  # a YAML flow scalar that holds any string
    game, cards, files = "", '  - {id: one, name: x}\n', {}
    if slot == "card id":
        cards = f"  - {{id: {v}, name: x}}\n"
    elif slot == "deck id":
        game = f"  - {{id: {v}, cards: cards.yaml}}\n"
    elif slot == "front":
        game = f"    front: {v}\n"
    elif slot == "sheet":
        game = f"    sheet: {v}\n"
    elif slot == "card back":
        cards = f"  - {{id: one, name: x, back: {v}}}\n"
    elif slot == "image":
        game = "    front: hostile-front\n"
        (project / "layouts" / "hostile-front.yaml").write_text(
            f"size: meishi\nelements:\n  - {{name: art, type: image, src: {v}}}\n", "utf-8")
    elif slot == "data":
        game = f"data:\n  t: {v}\n"
    elif slot == "include":
        game = "rulebook: {template: rules.md}\n"
        files["rules.md"] = "# R\n\n{% include " + v.replace("{", "\\u007b") + " %}\n"
    elif slot == "generated id":
        cards = ""
        files["cards.yaml"] = f"generate:\n  each:\n    n: [1]\n  id: {v}\n"
    elif slot == "macros":
        game = f"macros: {v}\n"
    folder = _game(project, game=game, cards=cards, files=files)
    (folder / "link").symlink_to(project.parent / "outside", target_is_directory=True)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(slot=st.sampled_from(SLOTS), value=HOSTILE)
def test_property_hostile_names_never_read_or_write_outside(slot, value, tmp_path_factory):
    _never_outside(slot, value, tmp_path_factory)


@pytest.mark.parametrize("slot", SLOTS)
def test_every_slot_refuses_every_way_out(slot, tmp_path_factory):
    """The property's sharpest examples, every one of them, every run."""
    for way in ("link/", "../../../outside/"):
        for target in TARGETS:
            _never_outside(slot, way + target, tmp_path_factory)


def _never_outside(slot: str, value: str, tmp_path_factory) -> None:
    import shutil

    from conftest import REPO
    from generator.cli import main

    base = tmp_path_factory.mktemp("hostile")
    project = base / "proj"
    project.mkdir()
    (project / "cards").mkdir()
    shutil.copytree(REPO / "layouts", project / "layouts")
    (project / "fonts").symlink_to(REPO / "fonts")
    box = Outside_(base / "outside")
    _hostile_game(project, slot, value)
    before = box.snapshot()
    hits: list = []
    _watched.append((os.path.realpath(box.root), hits))
    try:
        for args in (["validate", "evil"], ["build", "--png", "--cards-pdf", "evil"]):
            code = main(["--root", str(project), *args])
            assert code in (0, 1), (slot, value, code)
    finally:
        _watched.pop()
    assert not hits, (slot, value, hits)
    assert box.snapshot() == before
    written = [p for p in base.rglob("*") if not p.is_relative_to(project) and
               not p.is_relative_to(box.root)]
    assert written == [], written


def test_inside_refuses_every_way_out(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "out").symlink_to(tmp_path)
    (tmp_path / "game" / "loop").symlink_to(tmp_path / "game" / "loop")
    for name, why in (("../x", "outside"), ("/etc/passwd", "absolute"), ("a\x00b", "nul"),
                      ("out/x", "link"), ("loop/x", "loop"), ("a/../../x", "outside"),
                      ("\\x", "absolute")):
        with pytest.raises(Outside) as exc:
            inside(tmp_path / "game", name)
        assert exc.value.why == why, name
    assert inside(tmp_path / "game", "a/../b.yaml") == (tmp_path / "game" / "b.yaml").resolve()
    assert is_name("a-1_b") and not is_name("a\n") and not is_name("A") and not is_name("-a")


# -- a git repository from a stranger (issue 63) ---------------------------------------------

def _hostile_repository(project: Path, marker: Path) -> None:
    """The project as a stranger's git repository whose every program-naming setting
    (filters, textconv, fsmonitor, hooks, pager, gpg for a signed log, an external diff)
    and every .gitattributes rule that runs one would write `marker` if git ran it."""
    import subprocess
    from conftest import write_game

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.email=s@example.com", "-c", "user.name=s",
                        "-c", "core.hooksPath=/dev/null", *args], cwd=project, check=True,
                       capture_output=True)

    write_game(project, "tiny", {"title": "Tiny", "lang": "en",
                                 "decks": [{"id": "main", "fields": {"name": {"type": "text"}}}]},
               [{"id": "one", "name": "$Format:%H$"}])
    git("init", "-q")
    (project / ".gitattributes").write_text(
        "* filter=evil diff=evil export-subst ident\n", "utf-8")
    git("add", "-A")
    git("commit", "-qm", "v1")
    evil = project / "evil.sh"
    evil.write_text(f"#!/bin/sh\necho ran \"$0\" \"$@\" >> {marker}\ncat\n", "utf-8")
    evil.chmod(0o755)
    hooks = project / ".git/hooks"
    for hook in ("pre-commit", "post-checkout", "post-index-change", "fsmonitor-watchman",
                 "reference-transaction", "pre-auto-gc", "post-rewrite"):
        (hooks / hook).write_text(f"#!/bin/sh\necho hook {hook} >> {marker}\n", "utf-8")
        (hooks / hook).chmod(0o755)
    with (project / ".git/config").open("a", encoding="utf-8") as config:
        config.write(f"[filter \"evil\"]\n\tclean = {evil}\n\tsmudge = {evil}\n"
                     f"\tprocess = {evil}\n\trequired = true\n"
                     f"[diff \"evil\"]\n\ttextconv = {evil}\n\tcommand = {evil}\n"
                     f"[core]\n\tfsmonitor = {evil}\n\thooksPath = {hooks}\n\tpager = {evil}\n"
                     f"\tsshCommand = {evil}\n\tattributesFile = {project}/.gitattributes\n"
                     f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {evil}\n"
                     f"[diff]\n\texternal = {evil}\n")
    cards = project / "cards/tiny/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("$Format:%H$", "Two"), "utf-8")


def test_a_strangers_git_repository_runs_none_of_its_programs(project, cardgen, tmp_path):
    """cardgen asks git (the last commit's date for a build, a revision's files for diff and
    the preview's changes view); none of what the repository names may run, and the
    revision's files are read as committed ($Format:…$ kept, not expanded)."""
    from generator.load.revision import committed, extract, top_level
    marker = tmp_path / "ran.txt"
    _hostile_repository(project, marker)
    assert committed(project / "cards/tiny")
    extract(top_level(project), "HEAD", ["cards/tiny"], tmp_path / "old")
    assert "$Format:%H$" in (tmp_path / "old/cards/tiny/cards.yaml").read_text("utf-8")
    run = cardgen("diff", "--format", "markdown", "tiny")
    assert run.code == 0, run.lines
    assert "$Format:%H$" in run.out and "Two" in run.out
    assert cardgen("build", "tiny").code == 0
    assert not marker.exists(), marker.read_text("utf-8")


def test_a_revisions_links_out_and_names_that_climb_are_not_written(project, tmp_path):
    import subprocess
    from generator.load.revision import extract, top_level
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    folder = project / "cards/linky"
    folder.mkdir()
    (folder / "out").symlink_to("/etc/passwd")
    (folder / "up").symlink_to("../../../../x")
    (folder / "near").symlink_to("../linky/kept.txt")
    (folder / "kept.txt").write_text("kept", "utf-8")
    subprocess.run(["git", "add", "cards/linky"], cwd=project, check=True)
    subprocess.run(["git", "-c", "user.email=s@example.com", "-c", "user.name=s", "commit",
                    "-qm", "v1"], cwd=project, check=True)
    extract(top_level(project), "HEAD", ["cards/linky"], tmp_path / "old")
    old = tmp_path / "old/cards/linky"
    assert sorted(p.name for p in old.iterdir()) == ["kept.txt", "near"]
    assert (old / "near").read_text("utf-8") == "kept"


def _commit_name(project: Path, name: str, data: bytes) -> None:
    """Commit a file under a name no file system may hold (git keeps any name)."""
    import subprocess

    def git(*args: str, given: bytes | None = None) -> bytes:
        return subprocess.run(["git", "-c", "user.email=s@example.com", "-c", "user.name=s",
                               "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                               *args], cwd=project, check=True, capture_output=True,
                              input=given).stdout
    if not (project / ".git").exists():
        from conftest import write_game
        write_game(project, "tiny", {"title": "Tiny", "lang": "en", "decks": [
            {"id": "main", "fields": {"name": {"type": "text"}}}]}, [{"id": "one", "name": "A"}])
        git("init", "-q")
        git("add", "-A")
    oid = git("hash-object", "-w", "--stdin", given=data).decode().strip()
    git("update-index", "--add", "--cacheinfo", f"100644,{oid},{name}")
    git("commit", "-qm", "a stranger's name")


def test_a_revisions_names_pass_the_one_path_check_and_its_size_is_asked_first(
        project, cardgen, tmp_path, monkeypatch):
    """A stranger's repository whose tree holds a name of 300 bytes was an internal error
    (`OSError: [Errno 36] File name too long`): every name now passes paths.inside, one
    that fails is left out with a warning; the files' sizes are asked (`--batch-check`)
    before any is read, against MAX_REVISION_BYTES."""
    from generator.load import revision
    long = "x" * 300 + ".yaml"
    _commit_name(project, f"cards/tiny/{long}", b"cards: []\n")
    left = revision.extract(revision.top_level(project), "HEAD", ["cards/tiny"],
                            tmp_path / "old")
    assert [str(s) for s in left] == [
        f"'cards/tiny/{long[:109]}' is a name longer than a file's name can be (255 bytes a "
        "part, 1024 in all)"]
    assert (tmp_path / "old/cards/tiny/cards.yaml").is_file()
    run = cardgen("diff", "--format", "markdown", "tiny")
    assert run.code == 0, (run.out, run.err)
    assert run.err.splitlines() == [f"cardgen: warning: {left[0]}"]
    top, asked = revision.top_level(project), []
    real = revision.git
    monkeypatch.setattr(revision, "git", lambda args, *a, **k: (asked.append(args[0]),
                                                                real(args, *a, **k))[1])
    monkeypatch.setattr(revision, "MAX_REVISION_BYTES", 100)
    with pytest.raises(revision.TooLarge):
        revision.extract(top, "HEAD", ["cards/tiny"], tmp_path / "2")
    assert asked == ["ls-tree", "cat-file"]  # the sizes only: nothing read
    monkeypatch.setattr("generator.diff.MAX_REVISION_BYTES", 100)
    run = cardgen("diff", "tiny")
    assert (run.code, run.err.splitlines()[-1]) == (2, "cardgen: error: cannot read revision "
                                                    "'HEAD': its files are 0 MB; cardgen reads "
                                                    "at most 0 MB of a revision")


def test_a_revision_that_cannot_be_written_or_git_that_cannot_start_are_said_apart(
        project, cardgen, tmp_path, monkeypatch):
    """Only git that cannot be started is "git is needed"; a folder the revision's files
    cannot be written to is cardgen's I/O fault, in its words, with its exit code."""
    from generator.load import revision
    from generator.problems import IOFault
    _commit_name(project, "cards/tiny/notes.txt", b"notes")
    locked = tmp_path / "locked"
    locked.write_text("a file where the folder would be", "utf-8")
    with pytest.raises(IOFault) as fault:
        revision.extract(revision.top_level(project), "HEAD", ["cards/tiny"], locked / "old")
    assert (str(fault.value), int(fault.value.exit_code)) == (
        f"cannot write the files of revision 'HEAD' into {locked}/old: a file or folder "
        "stands in its way", 73)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    run = cardgen("diff", "tiny")
    assert (run.code, run.err.splitlines()[-1]) == (
        2, "cardgen: error: git is needed to compare with a revision")


def _program_starts(tree) -> list[tuple[int, str]]:
    """Where a module's code could start a program: subprocess used for anything but its
    exceptions, imported under another name or piecemeal; os.system, os.exec*, os.spawn*,
    os.popen, os.posix_spawn*, os.fork*, os.startfile, called or not, also imported from os;
    asyncio's subprocesses, pty.spawn; a module imported by a name in a string."""
    import ast
    harmless = {"SubprocessError", "TimeoutExpired", "CalledProcessError", "CompletedProcess",
                "DEVNULL", "PIPE", "STDOUT"}

    def starts(name: str) -> bool:
        return name in ("system", "popen", "startfile") or name.startswith(
            ("exec", "spawn", "posix_spawn", "fork"))

    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [(line, f"import {a.name} as {a.asname}") for a in node.names
                      if a.name in ("subprocess", "os", "pty", "asyncio") and a.asname
                      and a.asname != a.name]
        elif isinstance(node, ast.ImportFrom) and node.module in ("subprocess", "os", "pty",
                                                                   "asyncio"):
            found += [(line, f"from {node.module} import {a.name}") for a in node.names
                      if (node.module == "subprocess" and a.name not in harmless)
                      or (node.module == "os" and starts(a.name))
                      or (node.module == "pty" and a.name == "spawn")
                      or (node.module == "asyncio" and a.name.startswith("create_subprocess"))]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module, name = node.value.id, node.attr
            if (module == "subprocess" and name not in harmless) or \
                    (module == "os" and starts(name)) or (module == "pty" and name == "spawn") \
                    or (module == "asyncio" and name.startswith("create_subprocess")):
                found.append((line, f"{module}.{name}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) \
                and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "__import__", "import_module") and any(
                    isinstance(a, ast.Constant) and a.value in ("subprocess", "os", "pty")
                    for a in node.args):
            found.append((line, "a module imported by its name in a string"))
    return found


def test_git_is_run_in_one_place():
    """Every question to git goes through load/revision.git (its hardened environment and
    settings): no other module starts a program, however it reaches the means to (a check
    of `subprocess.run(...)` calls alone let `from subprocess import run`, `import
    subprocess as sp` and `os.system` through)."""
    import ast
    from conftest import REPO
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        where = path.relative_to(REPO).as_posix()
        found += [f"{where}:{line}: {what}"
                  for line, what in _program_starts(ast.parse(path.read_text("utf-8")))]
    assert found and all(f.startswith("generator/load/revision.py:") for f in found), found
    for source, expected in (
            ("from subprocess import run", ["from subprocess import run"]),
            ("from subprocess import CalledProcessError", []),
            ("import subprocess as sp", ["import subprocess as sp"]),
            ("import os\nos.system('x')", ["os.system"]),
            ("import os\nos.execvp('x', [])", ["os.execvp"]),
            ("import os\nos.spawnl(0, 'x')", ["os.spawnl"]),
            ("import os\nos.popen('x')", ["os.popen"]),
            ("import os\nrun = os.posix_spawnp", ["os.posix_spawnp"]),
            ("from os import system", ["from os import system"]),
            ("import os as o", ["import os as o"]),
            ("__import__('subprocess')", ["a module imported by its name in a string"]),
            ("import os\nos.path.join('a')", []),
            ("try:\n    pass\nexcept subprocess.TimeoutExpired:\n    pass", [])):
        assert [what for _line, what in _program_starts(ast.parse(source))] == expected, source
