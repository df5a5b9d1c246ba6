"""The commands that run until Ctrl-C: `cardgen watch` (a game rebuilt at every save, its
new problems said) and `cardgen serve` (the preview page)."""

from __future__ import annotations

import sys
import threading
import traceback

from .. import i18n, pipeline
from ..i18n import _, _n, shown
from ..load import Project
from ..layout.memo import FaceMemo
from ..problems import LEVEL_WORDS, CardgenError, ExitCode, Report, printable
from .games import _games, _in_its_language
from .telling import _print_report


def cmd_watch(args, project: Project) -> int:
    from ..watch import watch

    import time
    games = _games(project, args.games)
    options = pipeline.BuildOptions(strict=args.strict)
    told: dict[str, set] = {}  # each game's problems already said: a save says what is new
    memos = {game_id: FaceMemo() for game_id in games}  # each game's faces by their inputs

    def saved(game_id: str, files: list) -> None:
        memos[game_id].saved(files)
        if files:
            listed = ", ".join(project.display(f) for f in files[:3]) + \
                (shown(_n(" and {n} other file", " and {n} other files", len(files) - 3))
                 if len(files) > 3 else "")
            print(shown(_("[{stamp}] {game_id}: {files} changed", stamp=time.strftime("%H:%M:%S"),
                          game_id=game_id, files=listed)), flush=True)

    def rebuild(game_id: str) -> None:
        try:
            outcome = pipeline.build(project, game_id, options, memo=memos[game_id])
        except CardgenError as exc:
            print(f"cardgen: {shown(_('error'))}: {printable(shown(i18n.said(exc)))}",
                  file=sys.stderr, flush=True)
            return
        before, now = told.get(game_id, set()), set(outcome.report.problems)
        told[game_id] = now
        fresh = Report()
        fresh.problems = [p for p in outcome.report.problems if p not in before]
        _print_report(fresh)
        same = len(now & before)
        again = _n("; {n} problem as before, not repeated", "; {n} problems as before, not "
                   "repeated", same) if same else ""
        stamp = time.strftime("%H:%M:%S")
        if outcome.failed(args.strict):
            print(shown(_("[{stamp}] {game_id}: not built ({summary}{again}); the last good "
                          "output stays", stamp=stamp, game_id=game_id,
                          summary=outcome.report.summary(), again=again)),
                  file=sys.stderr, flush=True)
        else:
            print(shown(_n("[{stamp}] {game_id}: built {n} file ({summary}{again})",
                           "[{stamp}] {game_id}: built {n} files ({summary}{again})",
                           len(outcome.written), stamp=stamp, game_id=game_id,
                           summary=outcome.report.summary(), again=again)), flush=True)

    def failed(game_id: str, exc: Exception) -> None:
        if args.traceback:
            traceback.print_exception(exc)
        print(shown(_("cardgen: internal error while building {game_id}: {kind}: {exc}; still "
                      "watching (run again with --traceback for details)", game_id=game_id,
                      kind=type(exc).__name__, exc=printable(str(exc)))),
              file=sys.stderr, flush=True)

    def spoken(said):  # what is said about a game, in its language
        def saying(game_id: str, *more) -> None:
            with _in_its_language(project, game_id):
                said(game_id, *more)
        return saying

    print(shown(_("watching {games} (Ctrl-C to stop)", games=", ".join(games))), flush=True)
    watch(project, games, spoken(rebuild), threading.Event(), spoken(failed),
          saved=spoken(saved))
    return ExitCode.OK


def cmd_serve(args, project: Project) -> int:
    from .. import serve

    game = _games(project, [args.game])[0]
    lang = i18n.language()  # the run's: the server's threads say their lines in it too

    def report(preview) -> None:
        with i18n.speaking(lang):
            for p in preview.problems:
                print(f"{p['file']}:{p['line']}:{p['col']}: "
                      f"{shown(LEVEL_WORDS.get(p['level'], p['level']))}: {p['text']} "
                      f"[{p['check']}]")
            state = _("ok") if preview.ok else _("errors: showing the last good cards")
            print(shown(_("{game}: rebuilt ({state})", game=game, state=state)), flush=True)

    def ready(address) -> None:
        with i18n.speaking(lang):
            print(shown(_("serving {game} on {url} (Ctrl-C to stop)", game=game,
                          url=f"http://{address[0]}:{address[1]}/")), flush=True)

    serve.serve(project, game, args.host, args.port, ready=ready, report=report,
                since=args.changes_since)
    return ExitCode.OK
