"""The `cardgen` command.

Exit codes (docs/cli.md): 0 ok; 1 problems in the data (errors, or warnings with
--strict); 2 usage error; 3 internal error. Problems are printed one per line as
`file:line:col: level: message [check]`; a traceback is shown only with --traceback.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import re
import signal
from dataclasses import replace
import sys
import threading
import traceback
from pathlib import Path

from . import __version__, compat, completion, pipeline, scaffold
from .load import Project
from .load.schema import suggest
from .paths import NAME_RULE, is_name
from .problems import (CardgenError, DataProblems, ExitCode, Report, UsageError, counted,
                       exit_code_for, printable)
from .units import paper_name
from .values import FORMATS


class _Parser(argparse.ArgumentParser):
    """argparse's parser, keeping its options and their help (for did-you-mean, shell
    completion and the test that every option is explained) without its internals."""

    def __init__(self, *args, **kwargs):
        self.options: list[tuple[tuple[str, ...], str | None]] = []  # (its -h is added here)
        super().__init__(*args, **kwargs)
        for parent in kwargs.get("parents", ()):
            self.options += getattr(parent, "options", [])

    def add_argument(self, *names, **kwargs):
        self.options.append((tuple(n for n in names if n.startswith("-")), kwargs.get("help")))
        return super().add_argument(*names, **kwargs)

    def error(self, message: str):  # argparse's own usage errors: exit 2 like ours
        self.print_usage(sys.stderr)
        print(f"cardgen: error: {_with_a_guess(message)}", file=sys.stderr)
        raise SystemExit(ExitCode.USAGE)

    def unknown(self, extra: list[str]):
        """Arguments this (sub)command does not take: its own usage, and for a misspelt
        option the one it looks like."""
        known = [o for names, _ in self.options for o in names]
        guesses = [g for x in extra if x.startswith("-")
                   for g in difflib.get_close_matches(x.split("=")[0], known, 1, 0.7)]
        self.error(f"unrecognized arguments: {' '.join(extra)}"
                   + (f" (did you mean {guesses[0]}?)" if guesses else ""))


def _with_a_guess(message: str) -> str:
    """argparse's "invalid choice: 'biuld' (choose from ...)", with the choice it looks like."""
    wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if wrong:
        choices = re.findall(r"'([^']*)'", wrong.group(2))
        close = difflib.get_close_matches(wrong.group(1), choices, 1, 0.7)
        if close:
            return f"{message} (did you mean '{close[0]}'?)"
    return message


def _common(default, trust: bool = True) -> argparse.ArgumentParser:
    """Options accepted before and after the command; after it, they must not reset
    what was given before it (hence SUPPRESS as the subcommands' default). `--trust` only
    where a game's checks run."""
    common = _Parser(add_help=False)
    common.add_argument("--root", type=Path, default=default(None),
                        help="project folder (default: the nearest folder above the working "
                        "folder that has cards/)")
    common.add_argument("--traceback", action="store_true", default=default(False),
                        help="show a Python traceback on internal errors")
    if trust:
        common.add_argument("--trust", action="store_true", default=default(False),
                            help="run the Python checks module a game names (python_checks:): "
                            "its code runs with your permissions, so pass this only for games "
                            "you trust")
    return common


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardgen", description="Print-ready cards, sheets and rulebooks from YAML.",
                parents=[_common(lambda value: value)])
    p.add_argument("--version", action="version", version=f"cardgen {__version__}",
                   help="print cardgen's version and stop")
    common = _common(lambda value: argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p.commands = sub.choices  # name -> its parser: a bad option is told with its usage

    b = sub.add_parser("build", parents=[common], help="validate and write PDFs to output/")
    b.add_argument("games", nargs="*", metavar="GAME", help="games to build (default: all)")
    b.add_argument("--strict", action="store_true", help="treat warnings as errors")
    b.add_argument("--changed-since", metavar="REV",
                   help="an errata set: only cards added or changed since the git revision REV")
    b.add_argument("--quiet", "-q", action="store_true",
                   help="print problems only: no progress, no list of files written")
    b.add_argument("--output", type=Path, help="output folder (default: output/)")
    b.add_argument("--guides", action="store_true",
                   help="draw trim, bleed and safe lines and every element's box with its name")
    b.add_argument("--start-slot", type=_positive("--start-slot", 1, 1000), default=1, metavar="N",
                   help="start the first sheet at slot N (1-based), for a partly used sheet")
    b.add_argument("--printer", metavar="NAME",
                   help="shift back pages by a printer's offset profile (layouts/printers.yaml)")
    b.add_argument("--cards-pdf", action="store_true",
                   help="also write <game>-cards.pdf: one card per page with bleed")
    b.add_argument("--png", action="store_true",
                   help="also write one PNG per card face, with bleed: png/<deck>/<card>-front.png")
    b.add_argument("--dpi", type=_positive("--dpi", 10, 2400), default=300,
                   help="resolution of --png, 10 to 2400 (default 300)")
    b.add_argument("--proof", nargs="?", const="fronts", choices=("fronts", "backs"),
                   help="also write proof sheets: every distinct card once, with id and copies, "
                        "as PNG and one PDF; --proof backs puts each card's back beside its front")
    b.add_argument("--target", metavar="NAME",
                   help="build only this print target of the game (targets: in game.yaml; "
                        "default: every target)")
    b.add_argument("--stats", action="store_true",
                   help="also write <game>-stats.pdf: every deck's statistics as charts, and the "
                        "odds the game asks")
    b.add_argument("--tts", action="store_true",
                   help="also write a Tabletop Simulator deck: tts/ sheet images and <game>-tts.json")

    v = sub.add_parser("validate", parents=[common], help="check games without writing anything")
    v.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: all)")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")
    v.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default: file:line:col: level: message), or json for scripts")
    v.add_argument("--target", metavar="NAME",
                   help="check only this print target of the game (default: every target)")

    sub.add_parser("list", parents=[common], help="list games, decks and card counts")

    st = sub.add_parser("stats", parents=[common],
                        help="what each deck holds, counted by copies, and the odds of a draw")
    st.add_argument("games", nargs="*", metavar="GAME", help="games to count (default: all)")
    st.add_argument("--deck", action="append", metavar="DECK",
                    help="only this deck (may be given more than once)")
    st.add_argument("--format", choices=("text", "json"), default="text",
                    help="text (default), or json for scripts")

    plain = _common(lambda value: argparse.SUPPRESS, trust=False)  # where no game's checks run
    n = sub.add_parser("new", parents=[plain], help="start a new game that builds at once")
    n.add_argument("game", metavar="GAME", help="the new game's folder name under cards/")
    n.add_argument("--size", default="meishi", help="card size: meishi (default), poker, "
                   "us-business, bridge, mini, tarot, or WIDTHxHEIGHT with a unit (33x54mm, "
                   "2.5x3.5in)")
    n.add_argument("--paper", help="the paper to print on (A4, Letter, ...; default: the sheet's, "
                   "Letter for us-business cards or --lang en, else A4)")
    n.add_argument("--sheet", metavar="PRESET",
                   help="sheet preset (default: one for the size and paper)")
    n.add_argument("--lang", choices=("en", "ja"),
                   help="the language of the example cards and rulebook (default: en on "
                        "Letter, Legal or Tabloid paper, ja otherwise)")

    d = sub.add_parser("diff", parents=[common],
                       help="what prints differently since a git revision, or against a folder")
    d.add_argument("games", nargs="*", metavar="GAME", help="games to compare (default: all)")
    d.add_argument("--rev", default="HEAD", help="git revision to compare with (default HEAD)")
    d.add_argument("--against", type=Path, metavar="FOLDER",
                   help="compare with another project folder instead of a revision")
    d.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help="text (default), json for scripts, or markdown: a changelog for "
                        "players, in the game's language")
    d.add_argument("--visual", action="store_true",
                   help="also write output/<game>/<game>-changes.pdf: every changed face before "
                        "and after, the changed regions outlined")

    w = sub.add_parser("watch", parents=[common],
                       help="rebuild on every save; the last good output stays when data is invalid")
    w.add_argument("games", nargs="*", metavar="GAME", help="games to watch (default: all)")
    w.add_argument("--strict", action="store_true",
                   help="treat warnings as errors: a save with a draft does not rebuild")

    sv = sub.add_parser("serve", parents=[common],
                        help="a live preview of a game's cards, report and rulebook in a browser")
    sv.add_argument("game", metavar="GAME", help="the game to preview")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--changes-since", metavar="REV",
                    help="also show every face that prints differently since the git revision "
                         "REV, before and after")
    sv.add_argument("--port", type=_positive("--port", 0, 65535), default=8000,
                    help="port to listen on, 0 to 65535 (default 8000; 0: any free port)")

    e = sub.add_parser("export", parents=[common],
                       help="a game's faces as a print shop asks for them: one file per face "
                            "design, and a manifest of copies (docs/printing.md)")
    e.add_argument("games", nargs="*", metavar="GAME", help="games to export (default: all)")
    e.add_argument("--profile", required=True, metavar="NAME",
                   help="export profile in layouts/exports/: jp-print (PDF per face, 3 mm "
                        "bleed, トンボ, CMYK), tgc, mpc (PNG at the service's template size), "
                        "or one of your own")
    e.add_argument("--icc", type=Path, metavar="FILE",
                   help="your print shop's CMYK output profile (.icc), instead of the profile's")
    e.add_argument("--target", metavar="NAME",
                   help="export only this print target of the game (default: every target)")
    e.add_argument("--decks", metavar="ID,ID",
                   help="export only these decks (default: every deck the profile can take)")
    e.add_argument("--strict", action="store_true", help="treat warnings as errors")
    e.add_argument("--output", type=Path, help="output folder (default: output/)")
    e.add_argument("--quiet", "-q", action="store_true",
                   help="print problems only: no progress, no list of files written")

    c = sub.add_parser("calibrate", parents=[plain],
                       help="write a duplex calibration sheet to measure a printer's back offset")
    c.add_argument("--paper", type=_paper, default="A4",
                   help=f"the paper to print on: {FORMATS['paper'].expected}, in any case "
                   "(default A4)")
    c.add_argument("--duplex", choices=("long-edge", "short-edge"), default="long-edge",
                   help="how your printer turns the sheet: long-edge (default) or short-edge")

    cp = sub.add_parser("completion", parents=[plain],
                        help="print a shell completion script: eval \"$(cardgen completion bash)\"")
    cp.add_argument("shell", choices=completion.SHELLS,
                    help="the shell: bash, zsh or fish (docs/cli.md says where to put it)")
    return p


def _target(project: Project, game_id: str, args) -> str | None:
    """The --target a command was given, checked against the game's targets."""
    if not args.target:
        return None
    names = pipeline.target_names(project, game_id)
    if args.target not in names:
        raise UsageError(f"game '{game_id}' has no target '{args.target}' (targets: "
                         f"{', '.join(names) or 'none declared'})")
    return args.target


def _games(project: Project, names: list[str]) -> list[str]:
    for name in names:
        if not is_name(name):
            raise UsageError(f"'{name}' cannot name a game: a game's name is {NAME_RULE}")
    known = project.games()
    if not names:
        for folder in sorted(set(project.game_folders()) - set(known)):
            print(f"cardgen: warning: {printable(project.display(project.cards / folder))} is not "
                  f"a game: its folder name must be {NAME_RULE}; rename it", file=sys.stderr)
    if not known:
        raise UsageError(f"no games in {project.display(project.cards)} (a game is a folder "
                         "with a game.yaml)")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(f"unknown game '{unknown[0]}' ({suggest(unknown[0], known, 'cards/')})")
    return names or known


def _print_report(report: Report, out=None) -> None:
    out = out or sys.stderr
    colour = _colour(out)
    for problem in report.sorted():
        print(colour(problem) if colour else problem.format(), file=out)


# Problems on a terminal: the place bold, the level in its colour, the check dim; never
# in a pipe or a file, with NO_COLOR set (no-color.org) or on a dumb terminal.
_LEVEL_COLOUR = {"error": "\033[1;31m", "warning": "\033[33m"}


def _colour(out):
    """A function colouring a problem for `out`, or None where text must stay plain."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb" or \
            not getattr(out, "isatty", lambda: False)():
        return None
    reset = "\033[0m"

    def coloured(p) -> str:
        return (f"\033[1m{p.location}{reset}: {_LEVEL_COLOUR.get(p.level, '')}{p.level}{reset}: "
                f"{p.message} \033[2m[{p.check}]{reset}")
    return coloured


class Progress:
    """One self-overwriting status line on a terminal; nothing when stderr is not one."""

    def __init__(self, quiet: bool):
        self.on = not quiet and sys.stderr.isatty()
        self.width = 0

    def __call__(self, message: str) -> None:
        if self.on:
            sys.stderr.write("\r" + message.ljust(self.width))
            sys.stderr.flush()
            self.width = len(message)

    def clear(self) -> None:
        if self.on and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0


def cmd_build(args, project: Project) -> int:
    failed = False
    progress = Progress(args.quiet)
    options = pipeline.BuildOptions(strict=args.strict, guides=args.guides,
                                    start_slot=args.start_slot - 1, printer=args.printer,
                                    cards_pdf=args.cards_pdf, png=args.png, dpi=args.dpi,
                                    proof=bool(args.proof), proof_backs=args.proof == "backs",
                                    tts=args.tts, stats=args.stats)
    games = [(game_id, (_target(project, game_id, args),) if args.target else
              pipeline.target_names(project, game_id) or (None,))
             for game_id in _games(project, args.games)]
    total = sum(len(targets) for _, targets in games)
    n = 0
    for game_id, targets in games:
        runs = []  # (name, options) of each target: a game's targets are planned together
        for target in targets:
            n += 1
            run = replace(options, target=target)
            name = f"{game_id} ({target})" if target else game_id
            if args.changed_since:
                from .diff import diff_game, errata_copies, errata_lines
                changes = diff_game(project, game_id, args.changed_since)
                if not changes.prints:
                    print(f"{game_id}: nothing printed changed since {args.changed_since}")
                    for path in pipeline.forget_errata(project, game_id, target):
                        print(f"removed {project.display(path)} (an earlier errata set's)")
                    continue
                book = changes.rulebook
                run = replace(run, only=tuple(sorted(errata_copies(changes).items())),
                              errata=tuple(errata_lines(changes, args.changed_since)),
                              rulebook_pages=tuple(book.reprint) if book else (),
                              booklet_sheets=tuple(book.sheets) if book else (),
                              board_pages=tuple((b.board, tuple(b.pages))
                                                for b in changes.boards if b.pages),
                              rulebook_pdf=(changes.rulebook_pdfs[1] or b"") if book else b"")
            runs.append((name, run))
        if not runs:
            continue
        label = f"[{n}/{total}] {game_id}" if total > 1 else game_id
        outcomes = pipeline.build_targets(project, game_id, [run for _, run in runs],
                                          lambda m: progress(m.replace(game_id, label, 1)))
        progress.clear()
        told = pipeline.said_once([(run.target, o.report) for (_, run), o in zip(runs, outcomes)])
        for (name, _), outcome, report in zip(runs, outcomes, told):
            _print_report(report)
            if outcome.failed(args.strict) or outcome.held:
                failed = True
                why = outcome.report.summary() if outcome.failed(args.strict) else \
                    "its files' names meet another target's (above)"
                print(f"{name}: not built: {why}; previous output kept", file=sys.stderr)
                continue
            for path, pages in outcome.written if not args.quiet else ():
                count = f" ({counted(pages, 'page')})" if pages else ""
                print(f"wrote {project.display(path)}{count}")
            for path in outcome.removed:  # said even when quiet: a file is gone
                print(f"removed {project.display(path)} (an earlier build wrote it; this one "
                      "does not)")
            if outcome.report.problems:
                print(f"{name}: {outcome.report.summary()}", file=sys.stderr)
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_validate(args, project: Project) -> int:
    total = Report()
    for game_id in _games(project, args.games):
        outcome = pipeline.validate_targets(project, game_id, _target(project, game_id, args))
        total.extend(outcome.report)
        if args.format == "text":
            _print_report(outcome.report, sys.stdout)
            state = "FAILED" if outcome.failed(args.strict) else "ok"
            print(f"{game_id}: {state}: {outcome.report.summary()}")
    if args.format == "json":
        print(total.to_json(args.strict))
    return ExitCode.DATA if total.failed(args.strict) else ExitCode.OK


def cmd_list(args, project: Project) -> int:
    failed = False
    for game_id in _games(project, []):
        outcome = pipeline.check(project, game_id)
        game = outcome.game
        if game is None:
            failed = True
            print(f"{game_id}: cannot be read ({outcome.report.summary()}; "
                  f"run 'cardgen validate {game_id}')")
            continue
        title = f"{game.title} / {game.title_en}" if game.title_en else game.title
        print(f"{game_id}: {printable(title)}")
        for deck in game.decks:
            kinds, total = len(deck.cards), deck.total
            print(f"  {deck.id}: {printable(deck.name)}: {counted(kinds, 'card type')}, "
                  f"{counted(total, 'card')}, sheet {deck.sheet.id}")
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_stats(args, project: Project) -> int:
    import json

    from .stats import show

    failed, results = False, []
    for game_id in _games(project, args.games):
        outcome = pipeline.check(project, game_id)
        if outcome.failed(False):
            failed = True
            _print_report(outcome.report)
            print(f"{game_id}: no statistics: {outcome.report.summary()}", file=sys.stderr)
            continue
        decks = [d.id for d in outcome.game.decks]
        for name in args.deck or ():
            if name not in decks:
                raise UsageError(f"game '{game_id}' has no deck '{name}' "
                                 f"({suggest(name, decks, 'the game')})")
        counted = pipeline.statistics(outcome, tuple(args.deck) if args.deck else None)
        if args.format == "json":
            results.append(show.as_json(counted))
        else:
            for line in show.text(counted):
                print(printable(line))
    if args.format == "json":
        print(json.dumps(results if len(results) != 1 else results[0], ensure_ascii=False,
                         indent=2))
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_diff(args, project: Project) -> int:
    import json

    from .diff import as_json, diff_game, format_diff

    results = []
    for game_id in _games(project, args.games):
        changes = diff_game(project, game_id, args.rev, args.against, visual=args.visual)
        if args.visual:
            from .write.changes import changes_pdf
            path = changes_pdf(project, game_id, changes, args.against or args.rev)
            print(f"wrote {project.display(path)}", file=sys.stderr)
        if args.format == "json":
            results.append(as_json(game_id, changes))
            continue
        if args.format == "markdown":
            from .diff.changelog import changelog
            game = changes.game or pipeline.check(project, game_id).game
            for line in changelog(game, changes, str(args.against or args.rev)):
                print(printable(line))
            continue
        for line in format_diff(game_id, changes):
            print(printable(line))
    if args.format == "json":
        print(json.dumps(results if len(results) != 1 else results[0], ensure_ascii=False,
                         indent=2))
    return ExitCode.OK


def cmd_watch(args, project: Project) -> int:
    from .watch import watch

    games = _games(project, args.games)
    options = pipeline.BuildOptions(strict=args.strict)

    def rebuild(game_id: str) -> None:
        try:
            outcome = pipeline.build(project, game_id, options)
        except CardgenError as exc:
            print(f"cardgen: error: {printable(str(exc))}", file=sys.stderr, flush=True)
            return
        _print_report(outcome.report)
        if outcome.failed(args.strict):
            print(f"{game_id}: not built ({outcome.report.summary()}); the last good output stays",
                  file=sys.stderr, flush=True)
        else:
            print(f"{game_id}: built {len(outcome.written)} files ({outcome.report.summary()})",
                  flush=True)

    def failed(game_id: str, exc: Exception) -> None:
        if args.traceback:
            traceback.print_exception(exc)
        print(f"cardgen: internal error while building {game_id}: {type(exc).__name__}: "
              f"{printable(str(exc))}; still watching (run again with --traceback for details)",
              file=sys.stderr, flush=True)

    print(f"watching {', '.join(games)} (Ctrl-C to stop)", flush=True)
    watch(project, games, rebuild, threading.Event(), failed)
    return ExitCode.OK


def cmd_export(args, project: Project) -> int:
    failed = False
    progress = Progress(args.quiet)
    games = [(game_id, target) for game_id in _games(project, args.games)
             for target in ((_target(project, game_id, args),) if args.target else
                            pipeline.target_names(project, game_id) or (None,))]
    for game_id, target in games:
        name = f"{game_id} ({target})" if target else game_id
        decks = tuple(d.strip() for d in args.decks.split(",") if d.strip()) if args.decks \
            else None
        outcome, folder = pipeline.export(project, game_id, args.profile, args.icc, target,
                                          args.strict, progress, decks)
        progress.clear()
        _print_report(outcome.report)
        if folder is None:
            failed = True
            print(f"{name}: not exported: {outcome.report.summary()}; previous export kept",
                  file=sys.stderr)
            continue
        if not args.quiet:
            files = [p for p, _ in outcome.written if p.suffix not in (".csv", ".json")]
            print(f"wrote {counted(len(files), 'file')} and a manifest to "
                  f"{project.display(folder)}/")
        if outcome.report.problems:
            print(f"{name}: {outcome.report.summary()}", file=sys.stderr)
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_calibrate(args, project: Project) -> int:
    path = pipeline.calibrate(project, args.paper, args.duplex)
    print(f"wrote {project.display(path)}: print it duplex ({args.duplex}) at 100% and follow "
          "the instructions on it")
    return ExitCode.OK


def cmd_new(args, project: Project) -> int:
    written = scaffold.new_game(project, args.game, args.size, args.sheet, args.paper, args.lang)
    for path in written:
        print(f"wrote {project.display(path)}")
    print(f"next: cardgen validate {args.game}, then cardgen build {args.game}")
    return ExitCode.OK


def cmd_serve(args, project: Project) -> int:
    from . import serve

    game = _games(project, [args.game])[0]

    def report(preview) -> None:
        for p in preview.problems:
            print(f"{p['file']}:{p['line']}:{p['col']}: {p['level']}: {p['message']} [{p['check']}]")
        state = "ok" if preview.ok else "errors: showing the last good cards"
        print(f"{game}: rebuilt ({state})", flush=True)

    def ready(address) -> None:
        print(f"serving {game} on http://{address[0]}:{address[1]}/ (Ctrl-C to stop)", flush=True)

    serve.serve(project, game, args.host, args.port, ready=ready, report=report,
                since=args.changes_since)
    return ExitCode.OK


def _quiet_stdout() -> None:
    """After a broken pipe, Python would complain again when it flushes stdout at exit."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def cmd_completion(args, project: Project | None) -> int:
    print(completion.script(args.shell, _parser()), end="")
    return ExitCode.OK


def _complete(argv: list[str]) -> int:
    """`cardgen _complete WHAT`: the project's names of one kind, a line each, for a shell
    completing a command line (nothing, and exit 0, outside a project)."""
    try:
        project = Project.find(None, None, False)
        found = completion.names(project, argv[0] if argv else "games")
    except Exception:  # whatever is wrong is for the command to say, not the completion
        return int(ExitCode.OK)
    print("\n".join(found))
    return int(ExitCode.OK)


COMMANDS = {"build": cmd_build, "validate": cmd_validate, "list": cmd_list,
            "calibrate": cmd_calibrate, "new": cmd_new, "serve": cmd_serve, "diff": cmd_diff,
            "stats": cmd_stats, "export": cmd_export, "watch": cmd_watch,
            "completion": cmd_completion}
# Commands that need no project: run wherever the shell is.
NO_PROJECT = ("completion",)


def _interrupt(signum, frame):
    """The first Ctrl-C or SIGTERM unwinds like Ctrl-C (pending output files are removed,
    none replaced); any further one is ignored, so that the clean-up is never cut short
    and no traceback is printed, however many signals arrive."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    raise KeyboardInterrupt


def _paper(text: str) -> str:
    name = paper_name(text)
    if name is None:
        raise argparse.ArgumentTypeError(f"unknown paper '{text}': {FORMATS['paper'].expected}")
    return name


_paper.__name__ = "--paper"


def _positive(kind: str, low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be a whole number, not '{text}'") \
                from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{kind} must be from {low} to {high}, not {value}")
        return value
    parse.__name__ = kind
    return parse


def _proof_value(argv: list[str]) -> list[str]:
    """`--proof` takes a value only when one of its values follows (`--proof backs`):
    `--proof GAME` is the proof of GAME's fronts, not a value 'GAME'."""
    out = []
    for i, arg in enumerate(argv):
        if arg == "--proof" and (i + 1 == len(argv) or argv[i + 1] not in ("fronts", "backs")):
            arg = "--proof=fronts"
        out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_complete"]:
        return _complete(argv[1:])
    try:
        parser = _parser()
        args, extra = parser.parse_known_args(_proof_value(argv))
        if extra:
            parser.commands.get(getattr(args, "command", None), parser).unknown(extra)
    except SystemExit as exc:  # a usage error (said, exit 2) or --help (exit 0)
        return int(exc.code or 0) if isinstance(exc.code, int) else int(ExitCode.USAGE)
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _interrupt)
    try:
        compat.check()  # the libraries' internals cardgen uses are there (compat.py)
        if args.command in NO_PROJECT:
            return int(COMMANDS[args.command](args, None))
        project = Project.find(args.root, getattr(args, "output", None), args.trust)
        return int(COMMANDS[args.command](args, project))
    except DataProblems as exc:
        _print_report(exc.report)
        return int(exit_code_for(exc))
    except CardgenError as exc:
        print(f"cardgen: error: {printable(str(exc))}", file=sys.stderr)
        return int(exit_code_for(exc))
    except KeyboardInterrupt as exc:
        print("cardgen: interrupted; previous output kept", file=sys.stderr)
        return int(exit_code_for(exc))
    except BrokenPipeError as exc:  # `cardgen validate | head -1`: the reader has had enough
        _quiet_stdout()
        return int(exit_code_for(exc))
    except Exception as exc:  # an internal error: a bug, or an I/O failure
        if args.traceback:
            traceback.print_exc()
        else:
            print(f"cardgen: internal error: {type(exc).__name__}: {printable(str(exc))} "
                  "(run again with --traceback for details)", file=sys.stderr)
        return int(exit_code_for(exc))


def run() -> None:
    """The `cardgen` command: main() in a process of its own. Python's cycle collector stays
    off for the whole command (see pipeline.cycle_collector_paused), and what is left is
    frozen before the process exits, so that the collection Python runs at shutdown does
    not walk every object the build made, to free nothing (0.1 s at 10,000 cards). `watch`
    and `serve`, which build again and again, keep the collector, on between builds."""
    once = not {"watch", "serve"} & set(sys.argv[1:])
    if once:
        gc.disable()
    else:
        gc.enable()  # (generator.__main__ turns it off while the modules load)
    code = main()
    if once:
        gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
