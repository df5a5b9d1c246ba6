"""What the `cardgen` command does before anything heavy is imported: its guard against an
interrupt, and the run's language read from the command line as it stands.

Loading cardgen's modules (reportlab, Pillow, jsonschema, ...) takes a second, more on a
busy machine; a Ctrl-C or a SIGTERM in that second must end the run as one later does: one
line in the run's language and the interrupt's exit code (problems.ExitCode), never a
Python traceback. So the guard is the first thing `generator.__main__` does, and this
module imports nothing of cardgen's but what it says when it is interrupted.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

# What ends a run as Ctrl-C does: SIGINT and SIGTERM everywhere; Ctrl-Break (SIGBREAK) on
# Windows, which has no other signal a terminal sends.
SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK")
                if hasattr(signal, name))


def interrupted(signum, frame):
    """The first Ctrl-C or SIGTERM unwinds like Ctrl-C (pending output files are removed,
    none replaced); any further one is ignored, so that the clean-up is never cut short
    and no traceback is printed, however many signals arrive."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise KeyboardInterrupt


def guard() -> None:
    """Every signal of SIGNALS handled by `interrupted` (only the main thread may set a
    handler: a run in another thread, as a test's, keeps the handlers it has)."""
    if threading.current_thread() is threading.main_thread():
        for sig in SIGNALS:
            signal.signal(sig, interrupted)


def standard_streams() -> None:
    """Standard input, output and error that the caller closed (`2>&-`) opened on the null
    device: the first file cardgen opens would otherwise take their number, and whatever a
    library writes to it would land in that file. A closed standard error drops what
    cardgen says there (its problems, as with `2>/dev/null`; the exit code still says how
    the run went); a closed standard output stays refused, where the command begins (cli:
    what it would print is the command's answer)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)


def games_lang(argv: list[str], root: Path | None = None,
               named: list[str] | None = None) -> str | None:
    """The language the games a command line names declare (the lang: lines of their
    game.yaml files), or all the project's games where it names none: the one they share,
    None where they differ or declare none. Read before the command line is parsed too
    (from `argv`: --root and the words that name games), so that its help and usage errors
    are said in it; it needs no file of a game but game.yaml to load."""
    from . import i18n
    from .paths import is_name
    for n, arg in enumerate(argv):
        if arg.startswith("--root="):
            root = Path(arg.partition("=")[2])
        elif arg == "--root" and n + 1 < len(argv):
            root = Path(argv[n + 1])
    try:
        start = (root or Path.cwd()).resolve()
        cards = next((f / "cards" for f in (start, *start.parents) if (f / "cards").is_dir()),
                     None)
        folders = sorted(p for p in cards.iterdir() if is_name(p.name) and
                         (p / "game.yaml").is_file()) if cards is not None else []
    except OSError:
        return None
    named = [*(named or ()), *argv]
    chosen = [p for p in folders if p.name in named] or folders
    return i18n.shared(i18n.declared(p / "game.yaml") for p in chosen)


def asked_lang(argv: list[str]) -> str | None:
    """The language --lang asks for, read before the command line is parsed (so that what
    the parser refuses is said in it); None when it asks for none cardgen speaks."""
    from .i18n import LANGS
    for n, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else \
            argv[n + 1] if arg == "--lang" and n + 1 < len(argv) else None
        if value in LANGS:
            return value
    return None


def say_interrupted(argv: list[str]) -> int:
    """Said when a run is interrupted before its command began (while the modules load,
    or the command line is read): cardgen's one line, in the run's language as the command
    line and the games' game.yaml say it; the interrupt's exit code."""
    from .i18n import _, shown, speaking
    from .problems import exit_code_for
    with speaking(asked_lang(argv), game=games_lang(argv) or ""):
        print(shown(_("cardgen: interrupted; previous output kept")), file=sys.stderr)
    return int(exit_code_for(KeyboardInterrupt()))
