"""The command line: exit codes, one-line errors, tracebacks only on request, atomic output."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import generator.write.pdf
from pdfcheck import reader

REPO_FONTS = Path(__file__).resolve().parent.parent / "fonts"


def test_unknown_game_is_a_usage_error(project, cardgen):
    run = cardgen("build", "no-such-game")
    assert run.code == 2
    assert len(run.lines) == 1
    assert run.lines[0].startswith("cardgen: error: unknown game 'no-such-game' (cards/ has: ")
    assert "lastdance" in run.lines[0]
    run = cardgen("build", "lastdanse")
    assert run.lines == ["cardgen: error: unknown game 'lastdanse' (did you mean 'lastdance'?)"]


def test_bad_option_is_a_usage_error(project, cardgen):
    run = cardgen("build", "--no-such-option")
    assert run.code == 2 and "unrecognized arguments: --no-such-option" in run.err


def test_no_project_is_a_usage_error(tmp_path, monkeypatch, cardgen):
    monkeypatch.chdir(tmp_path)
    run = cardgen("list")
    assert run.code == 2 and "no cardgen project" in run.err


def _explode(*args, **kwargs):
    raise RuntimeError("boom")


def test_internal_error_is_one_line_without_traceback(project, cardgen, monkeypatch):
    monkeypatch.setattr(generator.write.pdf, "render_pdf", _explode)
    run = cardgen("build", "lastdance")
    assert run.code == 3
    assert run.err.splitlines()[-1] == (
        "cardgen: internal error: RuntimeError: boom (run again with --traceback for details)")
    assert "Traceback" not in run.err


def test_traceback_only_with_the_flag(project, cardgen, monkeypatch):
    monkeypatch.setattr(generator.write.pdf, "render_pdf", _explode)
    run = cardgen("--traceback", "build", "lastdance")
    assert run.code == 3
    assert "Traceback (most recent call last)" in run.err and "RuntimeError: boom" in run.err


def test_a_build_failing_while_writing_keeps_the_previous_files(project, cardgen, monkeypatch):
    assert cardgen("build", "lastdance").code == 0
    out = project / "output/lastdance"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = generator.write.pdf.render_pdf
    calls = []

    def fail_on_backs(pdf, target):
        calls.append(pdf.title)
        if pdf.title.endswith("card backs"):
            target.write(b"%PDF-1.4 half a file")
            raise OSError(28, "No space left on device")
        real(pdf, target)

    monkeypatch.setattr(generator.write.pdf, "render_pdf", fail_on_backs)
    run = cardgen("build", "lastdance")
    assert run.code == 74  # a fault of the machine, not a bug (issue 63)
    assert "cannot write" in run.err and "the disk is full; previous output kept" in run.err
    assert "No space left on device" not in run.err  # (the system's words, not cardgen's)
    assert [c.split(": ")[-1] for c in calls] == ["card fronts", "card backs"]
    # Fronts were rendered fine, but are not put in place without their backs.
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_output_folder_that_cannot_be_created(project, cardgen):
    # A file stands where the game's output folder should be: even root cannot write there.
    (project / "output").mkdir()
    (project / "output/lastdance").write_text("not a folder")
    run = cardgen("build", "lastdance")
    assert run.code == 73  # the output cannot be written there: no bug (issue 63)
    assert run.err.splitlines()[-1].startswith("cardgen: error: cannot write ")
    assert "a file or folder stands in its way; previous output kept" in run.err
    assert (project / "output/lastdance").read_text() == "not a folder"


def test_validate_reports_drafts_and_passes_without_strict(project, cardgen):
    run = cardgen("validate", "lastdance")
    assert run.code == 0
    assert ("cards/lastdance/cards.yaml:9:13: warning: card 'princess': effect is TBD (draft) "
            "[draft]") in run.lines
    assert run.lines[-1] == "lastdance: ok: 0 errors, 14 warnings"


def test_strict_turns_draft_warnings_into_failure_and_writes_nothing(project, cardgen):
    run = cardgen("build", "--strict", "lastdance")
    assert run.code == 1
    assert not (project / "output").exists()


def test_written_files_are_reported_and_readable_by_others(project, cardgen):
    run = cardgen("build")
    assert run.code == 0
    assert "wrote output/lastdance/lastdance-fronts.pdf (4 pages)" in run.lines
    assert "wrote output/lastdance/lastdance-backs.pdf (4 pages)" in run.lines
    umask = os.umask(0)
    os.umask(umask)
    mode = (project / "output/lastdance/lastdance-fronts.pdf").stat().st_mode & 0o777
    assert mode == 0o666 & ~umask
    # No temporary file is left; the one dot file is the record of what the build wrote.
    from generator.write.ledger import LEDGER
    assert [p.name for p in (project / "output/lastdance").iterdir()
            if p.name.startswith(".")] == [LEDGER]


def test_new_game_builds_at_once_and_never_overwrites(project, cardgen):
    assert cardgen("new", "first").code == 0
    assert cardgen("build", "first").code == 0
    out = project / "output/first"
    for name in ("first-fronts.pdf", "first-backs.pdf", "first-rulebook.pdf"):
        assert (out / name).stat().st_size > 1000
    before = (project / "cards/first/cards.yaml").read_bytes()
    run = cardgen("--lang", "en", "new", "first")  # (in English: the game says lang: ja)
    assert run.code == 2
    assert run.lines == ["cardgen: error: cards/first already exists; cardgen new never "
                         "overwrites anything"]
    assert (project / "cards/first/cards.yaml").read_bytes() == before
    assert cardgen("new", "Bad Name").code == 2
    assert cardgen("new", "other", "--size", "huge").code == 2


@pytest.mark.parametrize("size, paper, lang, trim_mm, page_in, words", [  # (under C.UTF-8: en, A4)
    ("33x54mm", None, None, (33, 54), (8.27, 11.69), "Scout"),
    ("2.5x3.5in", "letter", None, (63.5, 88.9), (8.5, 11.0), "Scout"),
    ("mini", "A4", "en", (44, 63), (8.27, 11.69), "Scout"),
    ("88x63mm", "Letter", "ja", (88, 63), (8.5, 11.0), "斥候"),
    ("tarot", None, "ja", (70, 120), (8.27, 11.69), "斥候"),
    ("us-business", None, None, (88.9, 50.8), (8.27, 11.69), "Scout"),
    ("us-business", "Letter", None, (88.9, 50.8), (8.5, 11.0), "Scout"),
])
def test_new_game_in_any_size_and_either_language_builds_at_once(project, cardgen, size, paper,
                                                                  lang, trim_mm, page_in, words):
    args = ["new", "g", "--size", size] + (["--paper", paper] if paper else []) + \
        (["--lang", lang] if lang else [])
    assert cardgen(*args).code == 0
    run = cardgen("build", "--cards-pdf", "g")
    assert run.code == 0, run.lines
    fronts = reader(project / "output/g/g-fronts.pdf").pages[0]
    assert [round(float(v) / 72, 2) for v in fronts.mediabox[2:]] == list(page_in)
    assert words in fronts.extract_text()
    card = reader(project / "output/g/g-cards.pdf").pages[0]
    trim = [float(v) * 25.4 / 72 for v in card["/TrimBox"]]
    assert abs(trim[2] - trim[0] - trim_mm[0]) < 0.05 and abs(trim[3] - trim[1] - trim_mm[1]) < 0.05


def test_new_refuses_a_combination_that_would_not_build_and_writes_nothing(project, cardgen):
    layouts = sorted(p.name for p in (project / "layouts").rglob("*"))
    run = cardgen("new", "ll3", "--size", "us-business", "--sheet", "letter-poker-9up")
    assert run.code == 2
    assert "ll3 would not build with 88.9 x 50.8 mm cards on sheet preset 'letter-poker-9up'" \
        in run.err and "holds 63 x 88 mm cards" in run.err
    assert not (project / "cards/ll3").exists()
    assert sorted(p.name for p in (project / "layouts").rglob("*")) == layouts
    run = cardgen("new", "x", "--size", "33x54")
    assert run.code == 2 and "or any WIDTHxHEIGHT with a unit: 33x54mm, 2.5x3.5in" in run.err
    run = cardgen("new", "x", "--size", "600x88mm")  # the card size rule layouts follow
    assert run.code == 2 and run.lines == [
        "cardgen: error: --size 600x88mm: 600 x 88 mm is not a size a card can have: each side "
        "from 5 mm to 500 mm (a board is a board layout)"]
    run = cardgen("new", "x", "--size", "poker", "--paper", "B5")  # no preset, not even plain
    assert run.code == 2 and run.lines == [
        "cardgen: error: no sheet preset for 63 x 88 mm cards on B5 paper; give one with --sheet "
        "(see layouts/sheets/)"]


@pytest.mark.parametrize("args", [
    ["--size", "4x4mm"], ["--size", "501x88mm"], ["--size", "0x0mm"], ["--size", "5x5mm"],
    ["--size", "500x500mm"], ["--size", "1" + "0" * 47 + "x1mm"], ["--size", "1e400x1mm"],
    ["--size=-63x88mm"], ["--size", "nanxnanmm"], ["--size", ""], ["--paper", "A0"],
    ["--paper", ""], ["--lang", "xx"], ["--sheet", "../../etc/passwd"], ["--sheet", "a" * 300],
    ["--size", "63x88mm", "--paper", "Tabloid", "--lang", "en"],
])
def test_new_with_hostile_options_is_refused_by_name_or_builds(project, cardgen, args):
    """Every option of `cardgen new` as a stranger might give it: a usage error that says
    what to give instead (the card size rule layouts follow: 5 to 500 mm a side), or a game
    that builds at once; never an internal error, never a file written on refusal."""
    before = sorted(str(p) for p in project.rglob("*"))
    run = cardgen("new", "hostile", *args)
    assert "internal error" not in run.err and "Traceback" not in run.err + run.out
    if run.code == 0:
        assert cardgen("build", "hostile").code == 0
    else:
        assert run.code == 2 and run.lines[-1].startswith("cardgen: error: ")
        assert sorted(str(p) for p in project.rglob("*")) == before


def _run_in(project, args, tty: bool) -> str:
    """cardgen in a subprocess, its stderr a terminal (a pty) or a pipe; returns stderr."""
    import pty
    import subprocess
    import sys
    from conftest import REPO
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "generator", *args]
    if not tty:
        return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True).stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.DEVNULL,
                            stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait()
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_progress_on_a_terminal_only_and_never_with_quiet(project):
    shown = _run_in(project, ["build", "--png", "--dpi", "50"], tty=True)
    assert "[1/1] lastdance: laying out 36 cards" in shown \
        or "lastdance: laying out 36 cards" in shown
    assert "rasterising previews" in shown and "\r" in shown
    # a long stage counts what it has done (and, past a second, what is left)
    assert re.search(r"rasterising card faces: 30 of 30", shown), shown[-300:]
    assert "laying out" not in _run_in(project, ["build"], tty=False)
    assert "laying out" not in _run_in(project, ["build", "--quiet"], tty=True)


def test_a_folder_of_many_files_is_one_line_of_the_files_written(project, cardgen):
    """A PNG per card face is said as one line for its folder, not one line each."""
    run = cardgen("build", "--png", "--dpi", "30", "lastdance")
    assert run.code == 0
    assert "wrote 30 files to output/lastdance/png/cards/" in run.lines
    assert not [line for line in run.lines if line.startswith("wrote output/lastdance/png/")]
    assert "wrote output/lastdance/lastdance-fronts.pdf (4 pages)" in run.lines


def _own_fonts(project):
    """The project's fonts as a folder of its own (the fixture links the repository's)."""
    (project / "fonts").unlink()
    shutil.copytree(REPO_FONTS, project / "fonts")
    return project / "fonts"


def test_a_font_that_is_not_truetype_is_a_located_error(project, cardgen):
    fonts = _own_fonts(project)
    (fonts / "notes.ttf").write_text("not a font", "utf-8")
    yaml = (fonts / "fonts.yaml").read_text("utf-8")
    (fonts / "fonts.yaml").write_text(yaml + "  spare:\n    regular: notes.ttf\n", "utf-8")
    run = cardgen("build", "lastdance")
    assert run.code == 1
    line = next(x for x in run.lines if ": error: " in x)
    assert line.startswith("fonts/fonts.yaml:")
    assert "error: font family 'spare': notes.ttf is not a TrueType font: it does not start as " \
        "one" in line


def test_fonts_are_read_when_first_used_and_a_damaged_one_fails_cleanly(project, cardgen):
    fonts = _own_fonts(project)
    # Header and table directory intact, tables cut off: passes the check at registration.
    (fonts / "cut.ttf").write_bytes((fonts / "BIZUDPGothic-Regular.ttf").read_bytes()[:65536])
    yaml = (fonts / "fonts.yaml").read_text("utf-8")
    (fonts / "fonts.yaml").write_text(yaml + "  spare:\n    regular: cut.ttf\n", "utf-8")
    assert cardgen("build", "lastdance").code == 0  # a family nothing uses is never read
    fronts = project / "output/lastdance/lastdance-fronts.pdf"
    before = fronts.read_bytes()

    (fonts / "BIZUDPGothic-Regular.ttf").write_bytes(
        (fonts / "BIZUDPGothic-Regular.ttf").read_bytes()[:65536])
    (fonts / "fonts.yaml").write_text(yaml, "utf-8")
    # A new process: this one has the good font loaded under the same name.
    run = subprocess.run([sys.executable, "-m", "generator", "build", "lastdance"], cwd=project,
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines() == [  # at its family's line, in words, not the library's
        "fonts/fonts.yaml:5:14: error: font family 'gothic': BIZUDPGothic-Regular.ttf is "
        "damaged: its tables cannot be read (a file cut short in copying, or not a TrueType "
        "font); copy it again [font]"]
    assert fronts.read_bytes() == before


def test_an_output_folder_that_is_a_file_is_a_usage_error(project, cardgen):
    (project / "afile").write_text("not a folder", "utf-8")
    for output in ("afile", "afile/sub"):
        for command in (("build", "lastdance"), ("export", "lastdance", "--profile", "jp-print")):
            run = cardgen(*command, "--output", output)
            assert run.code == 2, (command, run.lines)
            assert "is a file (--output names a folder)" in run.err
            assert "internal error" not in run.err and "Traceback" not in run.err
    assert (project / "afile").read_text("utf-8") == "not a folder"


def test_renaming_a_target_removes_the_files_the_old_name_wrote(project, cardgen):
    """A build owns its output folder's files (write/ledger.py): after a print target is
    renamed, or targets are added to a game, the files of the old names are removed (and
    said), never left beside the new ones to be printed by mistake; a file cardgen did not
    write stays."""
    game = project / "cards/lastdance/game.yaml"
    out = project / "output/lastdance"
    assert cardgen("build", "lastdance").code == 0
    (out / "my-notes.txt").write_text("mine", "utf-8")
    text = game.read_text("utf-8")
    game.write_text(text + "targets:\n  home: {size: us-business, sheet: avery-5371}\n"
                    "  pod: {size: poker, sheet: letter-poker-9up}\n", "utf-8")
    run = cardgen("build", "lastdance")
    assert run.code == 0
    assert "removed output/lastdance/lastdance-fronts.pdf (an earlier build wrote it; this one " \
           "does not)" in run.lines
    assert not (out / "lastdance-fronts.pdf").exists()
    assert (out / "lastdance-pod-fronts.pdf").exists()
    game.write_text(text + "targets:\n  home: {size: us-business, sheet: avery-5371}\n"
                    "  shop: {size: poker, sheet: letter-poker-9up}\n", "utf-8")
    assert cardgen("build", "--target", "home", "lastdance").code == 0  # one target: no drop
    assert (out / "lastdance-pod-fronts.pdf").exists()
    run = cardgen("build", "lastdance")
    assert run.code == 0
    assert not list(out.glob("lastdance-pod-*")) and (out / "lastdance-shop-fronts.pdf").exists()
    assert (out / "lastdance-rulebook.pdf").exists()
    assert (out / "my-notes.txt").read_text() == "mine"


def test_version_and_a_guess_for_a_misspelt_command_or_option(project, cardgen):
    from generator import __version__
    run = cardgen("--version")
    assert run.code == 0 and run.out.strip() == f"cardgen {__version__}"
    run = cardgen("biuld", "lastdance")
    assert run.code == 2 and run.lines[-1].endswith("(did you mean 'build'?)")
    run = cardgen("build", "--stirct", "lastdance")  # the subcommand's usage, and the guess
    assert run.code == 2 and run.lines[0].startswith("usage: cardgen build ")
    assert run.lines[-1] == "cardgen: error: unrecognized arguments: --stirct " \
                            "(did you mean --strict?)"
    run = cardgen("calibrate", "--trust")  # where no game's checks run, --trust is no option
    assert run.code == 2 and run.lines[-1] == "cardgen: error: unrecognized arguments: --trust"


def test_every_option_of_every_command_says_what_it_does():
    from generator.cli import _parser
    parser = _parser()
    unexplained = [(name, names) for name, sub in parser.commands.items()
                   for names, words in sub.options if not words]
    assert unexplained == [] and len(parser.commands) >= 11


def test_problems_are_coloured_on_a_terminal_and_plain_in_a_pipe_or_with_no_color(project):
    (project / "cards/lastdance/cards.yaml").write_text(
        (project / "cards/lastdance/cards.yaml").read_text("utf-8")
        .replace("copies: 5", "copies: -1", 1),
        "utf-8")
    coloured = _run_in(project, ["build", "lastdance"], tty=True)
    assert "\x1b[1;31merror\x1b[0m" in coloured and "\x1b[33mwarning\x1b[0m" in coloured
    assert "\x1b[1mcards/lastdance/cards.yaml:" in coloured
    assert "\x1b[" not in _run_in(project, ["build", "lastdance"], tty=False)
    os.environ["NO_COLOR"] = "1"
    try:
        assert "\x1b[1;31m" not in _run_in(project, ["build", "lastdance"], tty=True)
    finally:
        del os.environ["NO_COLOR"]


def test_shell_completion_offers_commands_options_and_the_projects_names(project, cardgen):
    import subprocess
    import sys
    from conftest import REPO
    for shell in ("bash", "zsh", "fish"):
        run = cardgen("completion", shell)
        assert run.code == 0 and "cardgen _complete" in run.out, shell
    script = project / "cardgen.bash"
    script.write_text(cardgen("completion", "bash").out, "utf-8")
    bin_dir = project / "bin"
    bin_dir.mkdir()
    (bin_dir / "cardgen").write_text(f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} -m "
                                     "generator \"$@\"\n", "utf-8")
    (bin_dir / "cardgen").chmod(0o755)

    def offered(*words):
        line = " ".join(f"'{w}'" for w in words)
        out = subprocess.run(["bash", "-c", f"source {script}; COMP_WORDS=({line}); "
                              f"COMP_CWORD={len(words) - 1}; _cardgen; echo ${{COMPREPLY[@]}}"],
                             cwd=project, capture_output=True, text=True,
                             env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
        return out.stdout.split()
    assert offered("cardgen", "ex") == ["export"]
    assert offered("cardgen", "build", "--st") == ["--strict", "--start-slot", "--stats"]
    assert offered("cardgen", "export", "--profile", "") == ["jp-print", "mpc", "tgc"]
    assert "lastdance" in offered("cardgen", "build", "")


def test_watch_says_when_and_what_changed_and_only_new_problems(project):
    """`cardgen watch`: each rebuild says the time and the file saved, and prints only the
    problems that are new since the last build (the 14 draft warnings are said once)."""
    import re
    import subprocess
    import sys
    import time
    from conftest import REPO
    proc = subprocess.Popen([sys.executable, "-m", "generator", "watch", "lastdance"],
                            cwd=project, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader_thread = __import__("threading").Thread(
        target=lambda: [lines.append(line.rstrip("\n")) for line in proc.stdout], daemon=True)
    reader_thread.start()

    def wait_for(pattern):
        deadline = time.monotonic() + 300  # a sign, with room for a loaded machine
        while not any(re.search(pattern, line) for line in lines):
            assert time.monotonic() < deadline, lines
            time.sleep(0.05)
    try:
        wait_for(r"^\[\d\d:\d\d:\d\d\] lastdance: built ")
        assert sum(": warning: " in line for line in lines) == 14
        cards = project / "cards/lastdance/cards.yaml"
        cards.write_text(cards.read_text("utf-8").replace("name: 姫\n", "name: 姫君\n"), "utf-8")
        wait_for(r"^\[\d\d:\d\d:\d\d\] lastdance: cards/lastdance/cards\.yaml changed$")
        wait_for(r"lastdance: built .*14 problems as before, not repeated\)$")
        assert sum(": warning: " in line for line in lines) == 14
    finally:
        proc.terminate()
        proc.wait(10)


def test_quiet_says_files_it_removed_in_one_line(project, cardgen):
    """`--quiet` prints problems only, and one line when the build removed what an earlier
    build wrote (never a removal unsaid; the Codenames tester's 18 lines under --quiet)."""
    assert cardgen("build", "lastdance", "--png", "--proof").code == 0
    run = cardgen("build", "lastdance", "--quiet")
    assert run.code == 0
    said = [line for line in run.lines if ": warning: " not in line and ": error: " not in line
            and not line.startswith("lastdance: ")]  # (its problems and their counts)
    removed = [line for line in said if line.startswith("removed")]
    assert len(removed) == 1 and len(said) == 1, said
    count = int(removed[0].split()[1].replace(",", ""))
    assert count > 10 and removed[0] == (
        f"removed {count:,} files an earlier build wrote and this one does not (without "
        "--quiet, the build says which)")


def test_errors_that_stop_the_checks_early_say_more_may_follow(project, cardgen):
    """A game whose errors stop it before its layouts, checks and rulebook are looked at
    says so in its summary: fixing them may show more (the Codenames tester's layout
    mistakes, hidden behind a `generate: from:` that named no table)."""
    deck = project / "cards/lastdance/game.yaml"
    deck.write_text(deck.read_text("utf-8") + "\nnonsense_key: 1\n", "utf-8")
    for command in ("validate", "build"):
        run = cardgen(command, "lastdance")
        assert run.code == 1
        summary = [line for line in run.lines if "error" in line and "lastdance:" in line]
        assert summary and "1 error, 0 warnings (its layouts, checks and rulebook are checked " \
            "once these are fixed)" in summary[-1], run.lines
    (project / "cards/lastdance/game.yaml").write_text(
        deck.read_text("utf-8").replace("\nnonsense_key: 1\n", ""), "utf-8")
    layout = next((project / "layouts").glob("lastdance*.yaml"))
    layout.write_text(layout.read_text("utf-8").replace("{{ card.", "{{ card.nmae_", 1), "utf-8")
    run = cardgen("validate", "lastdance")  # an error the layouts find: nothing stopped early
    assert run.code == 1 and "are checked once" not in run.out + run.err
