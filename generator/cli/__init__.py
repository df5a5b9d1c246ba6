"""The `cardgen` command.

Exit codes (problems.ExitCode, docs/cli.md): 0 ok; 1 problems in the data (errors, or
warnings with --strict); 2 usage error; 3 internal error; 73 and 74 the machine's faults (a
read-only folder; a full disk, a closed stdout). Problems are printed one per line as
`file:line:col: level: message [check]`; a traceback is shown only with --traceback.
"""

from __future__ import annotations

import gc
import os
import sys
import traceback
from dataclasses import replace
from pathlib import Path

from .. import compat, completion, i18n, pipeline, startup
from ..i18n import _, _n, shown
from .. import versions
from ..load import Project
from ..load.project import listen
from ..load.schema import suggest
from ..problems import (CardgenError, DataProblems, ExitCode, IOFault, Report, UsageError,
                       exit_code_for, fault_words, printable)
from ..startup import asked_lang, games_lang
from .parser import _parser, _proof_value
from .games import _games, _in_its_language, _target
from .live import cmd_serve, cmd_watch
from .telling import Progress, _print_report, _removed, _wrote

# Where a name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
THE_GAME = _("the game")


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
                from ..diff import diff_game, errata_copies, errata_lines
                changes = diff_game(project, game_id, args.changed_since)
                if not changes.prints:
                    print(shown(_("{game_id}: nothing printed changed since {args_changed_since}",
                                  game_id=game_id, args_changed_since=args.changed_since)))
                    for path in pipeline.forget_errata(project, game_id, target):
                        print(shown(_("removed {display} (an earlier errata set's)",
                                      display=project.display(path))))
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
        for (name, _run), outcome, report in zip(runs, outcomes, told):
            with _in_its_language(project, game_id):
                failed = _said_build(args, project, name, outcome, report) or failed
    return ExitCode.DATA if failed else ExitCode.OK


def _said_build(args, project: Project, name: str, outcome, report: Report) -> bool:
    """What one target's build says: its problems, then what it wrote or why not; True if failed."""
    _print_report(report)
    if outcome.failed(args.strict) or outcome.held:
        why = outcome.summary() if outcome.failed(args.strict) else \
            shown(_("its files' names meet another target's (above)"))
        print(shown(_("{name}: not built: {why}; previous output kept", name=name, why=why)),
              file=sys.stderr)
        return True
    for line in _wrote(project, outcome.written) if not args.quiet else ():
        print(line)
    for line in _removed(project, outcome.removed, args.quiet):  # said even when quiet
        print(line)
    if outcome.report.problems:
        print(f"{name}: {outcome.report.summary()}", file=sys.stderr)
    return False


def cmd_validate(args, project: Project) -> int:
    total = Report()
    for game_id in _games(project, args.games):
        outcome = pipeline.validate_targets(project, game_id, _target(project, game_id, args))
        total.extend(outcome.report)
        if args.format == "text":
            with _in_its_language(project, game_id):
                _print_report(outcome.report, sys.stdout)
                state = _("FAILED") if outcome.failed(args.strict) else _("ok")
                print(f"{game_id}: {shown(state)}: {outcome.summary()}")
    if args.format == "json":
        print(total.to_json(args.strict))
    return ExitCode.DATA if total.failed(args.strict) else ExitCode.OK


def cmd_list(args, project: Project) -> int:
    failed = False
    for game_id in _games(project, []):
        with _in_its_language(project, game_id):
            failed = _listed(project, game_id) or failed
    return ExitCode.DATA if failed else ExitCode.OK


def _listed(project: Project, game_id: str) -> bool:
    """One game's lines of `cardgen list`; True if it cannot be read."""
    outcome = pipeline.check(project, game_id)
    game = outcome.game
    if game is None:
        print(shown(_("{game_id}: cannot be read ({summary}; run 'cardgen validate "
                      "{game_id}')", game_id=game_id, summary=outcome.report.summary())))
        return True
    title = f"{game.title} / {game.title_en}" if game.title_en else game.title
    print(f"{game_id}: {printable(title)}")
    for deck in game.decks:
        kinds, total = len(deck.cards), deck.total
        print(shown(_("  {deck}: {name}: {kinds}, {cards}, sheet {sheet}", deck=deck.id,
                      name=printable(deck.name), sheet=deck.sheet.id, cards=_n(
                          "{n} card", "{n} cards", total), kinds=_n(
                          "{n} card type", "{n} card types", kinds))))
    return False


def cmd_stats(args, project: Project) -> int:
    import json

    from .. import stats

    failed, results = False, []
    for game_id in _games(project, args.games):
        with _in_its_language(project, game_id):
            outcome = pipeline.check(project, game_id)
            if outcome.failed(False):
                failed = True
                _print_report(outcome.report)
                print(shown(_("{game_id}: no statistics: {summary}", game_id=game_id,
                              summary=outcome.report.summary())), file=sys.stderr)
                continue
            decks = [d.id for d in outcome.checked.decks]
            for name in args.deck or ():
                if name not in decks:
                    raise UsageError(_("game '{game_id}' has no deck '{name}' ({suggest})",
                                       game_id=game_id, name=name,
                                       suggest=suggest(name, decks, THE_GAME)))
            counted = pipeline.statistics(outcome, tuple(args.deck) if args.deck else None)
            if args.format == "json":
                results.append(stats.as_json(counted))
            else:
                for line in stats.text(counted):
                    print(printable(shown(line)))
    if args.format == "json":
        print(json.dumps(results if len(results) != 1 else results[0], ensure_ascii=False,
                         indent=2))
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_diff(args, project: Project) -> int:
    import json

    from ..diff import as_json, diff_game, format_diff

    results = []
    for game_id in _games(project, args.games):
        with _in_its_language(project, game_id):
            changes = diff_game(project, game_id, args.rev, args.against, visual=args.visual)
            if args.visual:
                from ..write.changes import changes_pdf
                path = changes_pdf(project, game_id, changes, args.against or args.rev)
                print(shown(_("wrote {file}", file=project.display(path))), file=sys.stderr)
            if args.format == "json":
                results.append(as_json(game_id, changes))
                continue
            if args.format == "markdown":
                from ..diff.changelog import changelog
                new_game = changes.game or pipeline.check(project, game_id).checked
                for line in changelog(new_game, changes, str(args.against or args.rev)):
                    print(printable(shown(line)))
                continue
            for line in format_diff(game_id, changes):
                print(printable(shown(line)))
    if args.format == "json":
        print(json.dumps(results if len(results) != 1 else results[0], ensure_ascii=False,
                         indent=2))
    return ExitCode.OK


def cmd_export(args, project: Project) -> int:
    failed = False
    progress = Progress(args.quiet)
    games = [(game_id, target) for game_id in _games(project, args.games)
             for target in ((_target(project, game_id, args),) if args.target else
                            pipeline.target_names(project, game_id) or (None,))]
    for game_id, target in games:
        with _in_its_language(project, game_id):
            failed = _exported(args, project, game_id, target, progress) or failed
    return ExitCode.DATA if failed else ExitCode.OK


def _exported(args, project: Project, game_id: str, target: str | None, progress) -> bool:
    """What exporting one target of a game says; True if it failed."""
    name = f"{game_id} ({target})" if target else game_id
    decks = tuple(d.strip() for d in args.decks.split(",") if d.strip()) if args.decks \
        else None
    outcome, folder = pipeline.export(project, game_id, args.profile, args.icc, target,
                                      args.strict, progress, decks)
    progress.clear()
    _print_report(outcome.report)
    if folder is None:
        print(shown(_("{name}: not exported: {summary}; previous export kept", name=name,
                      summary=outcome.report.summary())), file=sys.stderr)
        return True
    if not args.quiet:
        files = [p for p, _ in outcome.written if p.suffix not in (".csv", ".json")]
        print(shown(_n("wrote {n} file and a manifest to {folder}/", "wrote {n} files and a "
                       "manifest to {folder}/", len(files), folder=project.display(folder))))
    if outcome.report.problems:
        print(f"{name}: {outcome.report.summary()}", file=sys.stderr)
    return False


def cmd_pnp(args, project: Project) -> int:
    from .. import pnp
    request = pnp.Request(tuple(dict.fromkeys(args.paper or pnp.PAPERS)), args.layout,
                          args.ink_saver, args.greyscale, args.blanks)
    failed = False
    progress = Progress(args.quiet)
    for game_id in _games(project, args.games):
        with _in_its_language(project, game_id):
            outcome = pnp.pnp(project, game_id, request, progress)
            progress.clear()
            _print_report(outcome.report)
            if not outcome.written:
                failed = True
                print(shown(_("{game_id}: no print-and-play kit: {summary}", game_id=game_id,
                              summary=outcome.report.summary())), file=sys.stderr)
                continue
            if not args.quiet:
                for path, _pages in outcome.written:
                    print(shown(_("wrote {file}", file=printable(project.display(path)))))
            for line in _removed(project, outcome.removed, quiet=True) \
                    if args.quiet and len(outcome.removed) > 1 else [
                    shown(_("removed {file} (an earlier 'pnp' run made this kit; this one does "
                            "not)", file=printable(project.display(path))))
                    for path in outcome.removed]:  # said even when quiet (in one line)
                print(line)
    return ExitCode.DATA if failed else ExitCode.OK


def cmd_showcase(args, project: Project) -> int:
    from ..colors import parse_color
    from ..write.showcase import MAX_SHOWN, Request
    game_id = _games(project, [args.game])[0]
    cards = tuple(args.cards or ())
    if len(cards) > MAX_SHOWN:
        raise UsageError(_("--cards: {n_cards} cards; a picture shows at most {MAX_SHOWN}",
                           n_cards=len(cards), MAX_SHOWN=MAX_SHOWN))

    def request_for(game) -> Request:
        known = [c.id for d in game.decks for c in d.cards]
        for card_id in cards:
            if card_id not in known:
                raise UsageError(_("--cards: game '{game_id}' has no card '{card_id}' ({suggest})",
                                   game_id=game_id, card_id=card_id,
                                   suggest=suggest(card_id, known, THE_GAME)))
        if not known:
            raise UsageError(_("game '{game_id}' has no cards to show", game_id=game_id))
        background = None
        if args.background is not None:
            try:
                background = parse_color(args.background, game.colors)
            except ValueError as exc:
                raise UsageError(_("--background: {exc}", exc=exc)) from None
        return Request(cards, args.hand, args.size, background, args.title)

    progress = Progress(False)
    outcome = pipeline.showcase(project, game_id, request_for, progress)
    progress.clear()
    _print_report(outcome.report)
    if not outcome.written:
        print(shown(_("{game_id}: no showcase: {summary}", game_id=game_id,
                      summary=outcome.report.summary())), file=sys.stderr)
        return ExitCode.DATA
    for path, _unused in outcome.written:
        print(shown(_("wrote {file}", file=printable(project.display(path)))))
    return ExitCode.OK


def cmd_calibrate(args, project: Project) -> int:
    from ..write.calibration import calibrate
    from ..impose.kit import duplex_words
    path = calibrate(project, args.paper, args.duplex)
    print(shown(_("wrote {display}: print it duplex ({args_duplex}) at 100% and follow the "
                  "instructions on it", display=project.display(path),
                  args_duplex=duplex_words(args.duplex))))
    return ExitCode.OK


def cmd_new(args, project: Project | None) -> int:
    from .. import scaffold
    project, fresh = scaffold.project_for(args.root)  # a new project where there is none
    made = scaffold.new_game(project, args.game, args.size, args.sheet, args.paper, args.lang,
                             fresh, args.example)
    if args.root is None and project.root != Path.cwd().resolve():  # files are named from there
        print(shown(_("in the project {root} (the nearest folder at or above this one with "
                      "cardgen.yaml or cards/; --root . makes this folder a project of its own)",
                      root=project.root)))
    for said in [*(_("wrote {file}", file=project.display(p)) for p in made.files), made.chosen,
                 _("next: cardgen validate {game}, then cardgen build {game}", game=args.game)]:
        print(shown(said))  # what it wrote, what it chose (and how to choose otherwise), what next
    return ExitCode.OK


def cmd_upgrade(args, project: Project) -> int:
    from .. import scaffold
    lines, written = scaffold.upgrade(project, args.write)
    print("\n".join(lines) if lines else shown(_("nothing to rewrite: this project is written "
                                                  "in format {version}",
                                                  version=versions.FORMAT)))
    for path in written:
        print(shown(_("wrote {file}", file=project.display(path))))
    return ExitCode.OK


def _quiet_stdout() -> None:
    """After a broken pipe, Python would complain again when it flushes stdout at exit."""
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
            "calibrate": cmd_calibrate, "serve": cmd_serve, "diff": cmd_diff,
            "stats": cmd_stats, "export": cmd_export, "watch": cmd_watch,
            "showcase": cmd_showcase, "pnp": cmd_pnp, "upgrade": cmd_upgrade}
# Commands that need no project: run wherever the shell is (new makes one where there is none).
NO_PROJECT = {"completion": cmd_completion, "new": cmd_new}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_complete"]:
        return _complete(argv[1:])
    try:  # its help and usage errors in the run's language: --lang's, else the locale's,
        # else that of the games the command line names (all the project's where it names none)
        with i18n.speaking(asked_lang(argv), game=games_lang(argv)):
            parser = _parser()
            args, extra = parser.parse_known_args(_proof_value(argv))
            if extra:
                parser.commands.get(getattr(args, "command", None) or "", parser).unknown(extra)
    except SystemExit as exc:  # a usage error (said, exit 2) or --help (exit 0)
        return int(exc.code or 0) if isinstance(exc.code, int) else int(ExitCode.USAGE)
    startup.guard()  # (in place since generator.__main__ began; again for a run in-process)
    named = getattr(args, "games", None) or [g for g in [getattr(args, "game", None)] if g]
    games = games_lang([], root=getattr(args, "root", None), named=named) \
        if args.command != "new" else None  # (a new game has no language yet: it takes the run's)
    with i18n.speaking(getattr(args, "lang", None), game=games or ""):  # for all it says
        return _guarded(args)


def _guarded(args) -> int:
    """The command, its failures said as cardgen says them, mapped to exit codes."""
    try:
        if sys.stdout is None:  # `cardgen build >&-`: Python drops whatever is printed
            raise IOFault(_("the standard output is closed; nothing was done (to drop what "
                            "cardgen says, send it to {devnull})", devnull=os.devnull))
        code = _command(args)
        _flushed()
        return code
    except DataProblems as exc:
        _print_report(exc.report)
        return int(exit_code_for(exc))
    except CardgenError as exc:
        print(f"cardgen: {shown(_('error'))}: {printable(shown(i18n.said(exc)))}", file=sys.stderr)
        return int(exit_code_for(exc))
    except KeyboardInterrupt as exc:
        print(shown(_("cardgen: interrupted; previous output kept")), file=sys.stderr)
        return int(exit_code_for(exc))
    except BrokenPipeError as exc:  # `cardgen validate | head -1`: the reader has had enough
        _quiet_stdout()
        return int(exit_code_for(exc))
    except OSError as exc:
        if exit_code_for(exc) == ExitCode.INTERNAL:
            return _internal(args, exc)
        _fault(exc)
        return int(exit_code_for(exc))
    except Exception as exc:  # an internal error: a bug
        return _internal(args, exc)


def _flushed() -> None:
    """What the command printed, written out: a full disk under `> file` is said here, not
    lost at exit."""
    assert sys.stdout is not None
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _quiet_stdout()
        raise IOFault(_("cannot write the standard output: {value}", value=fault_words(exc)),
                      exc) from exc


def _fault(exc: OSError) -> None:
    """A fault of the machine (a full disk, a read-only folder), said in plain words."""
    try:  # is it the standard output that cannot be written? (a file's error names it)
        stdout = exc.filename is None and sys.stdout is not None and not sys.stdout.flush()
    except OSError:
        stdout = True
    _quiet_stdout()  # (what stdout still holds is not written again at exit)
    said = _("cannot write {current}: {value}; previous output kept",
             current=printable(str(exc.filename)), value=fault_words(exc)) if exc.filename \
        else _("cannot write the standard output: {value}", value=fault_words(exc)) if stdout \
        else _("cannot write the output: {value}; previous output kept", value=fault_words(exc))
    print(f"cardgen: {shown(_('error'))}: {shown(said)}", file=sys.stderr)


def _internal(args, exc: Exception) -> int:
    if args.traceback:
        traceback.print_exc()
    else:
        print(shown(_("cardgen: internal error: {kind}: {exc} (run again with --traceback "
                      "for details)", kind=type(exc).__name__, exc=printable(str(exc)))),
              file=sys.stderr)
    return int(exit_code_for(exc))


def _command(args) -> int:
    compat.check()  # the libraries' internals cardgen uses are there (compat.py)
    if getattr(args, "verbose", False):  # which file each name was read from
        listen(lambda said: print(f"cardgen: {shown(_('note'))}: {printable(shown(said))}",
                                  file=sys.stderr))
    if args.command in NO_PROJECT:
        return int(NO_PROJECT[args.command](args, None))
    project = Project.find(args.root, getattr(args, "output", None), args.trust,
                           exact=args.root is not None)
    return int(COMMANDS[args.command](args, project))


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
