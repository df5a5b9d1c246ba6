"""The command line's words: every command, its options and their help, in one parser.

argparse's parser, keeping its options and their help (for a guess at a misspelt one,
shell completion and the test that every option says what it does), with cardgen's own
usage errors (exit 2) and the value rules of its options.

What argparse says in words of its own ("usage: ", "options", "invalid choice: ...") is
marked for gettext in argparse; cardgen gives those words from its own catalogue, in the
language of the moment (ARGPARSE_WORDS lists them for `make messages`), and wraps the
help by display width, a wide (East Asian) character taking two columns, to 80 columns.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from .. import __version__, completion, i18n
from ..i18n import LANGS, N_, _, _n, columns, said, shown
from ..problems import ExitCode
from ..units import DEFAULT_DPI, paper_name
from ..values import FORMATS
from ..impose.kit import LAYOUTS, PAPERS
from ..write.showcase import MAX_SHOWN, MAX_SIDE, MIN_SIDE, SIZES


# argparse's own words, as the argparse of the Python versions cardgen runs on says them.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"), N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"), N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"), N_("one of the arguments %s is required"),
    N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), _n("expected %s argument", "expected %s arguments", 2),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"), N_("unexpected option string: %s"))


def _argparse_says(message: str) -> str:
    """argparse's gettext: its words in the language of the moment, from cardgen's catalogue."""
    return i18n.catalogue(i18n.language()).get(message, message)


def _argparse_counts(one: str, many: str, n: int) -> str:
    """argparse's ngettext (Japanese says one and many alike)."""
    return _argparse_says(one if n == 1 else many)


if hasattr(argparse, "_") and hasattr(argparse, "ngettext"):  # (argparse's gettext names)
    setattr(argparse, "_", _argparse_says)
    setattr(argparse, "ngettext", _argparse_counts)

# Japanese punctuation that no line starts with, and brackets no line ends with (kinsoku)
_NO_START = set("、。，．・：；？！）」』】〕〉》”’ー…‥々"
                "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
_NO_END = set("（「『【〔〈《“‘")


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, broken at spaces, and between Japanese
    characters where the Japanese rules allow (never before 、。）」 and the like, never
    after （「); a word longer than a line is its own line, whole."""
    atoms: list[tuple[bool, str]] = []  # (a space before it, an unbreakable piece)
    space, word = False, ""
    for ch in " ".join(text.split()) + " ":
        wide = columns(ch) == 2
        if ch == " " or wide:
            if word:
                atoms.append((space, word))
                space, word = False, ""
            if ch == " ":
                space = True
                continue
            atoms.append((space, ch))
            space = False
        else:
            word += ch
    glued: list[tuple[bool, str]] = []
    for space, piece in atoms:
        if glued and not space and (piece[0] in _NO_START or glued[-1][1][-1] in _NO_END):
            glued[-1] = (glued[-1][0], glued[-1][1] + piece)
        else:
            glued.append((space, piece))
    lines, line = [], ""
    for space, piece in glued:
        longer = line + (" " if space and line else "") + piece
        if not line or columns(longer) <= width:
            line = longer
        else:
            lines.append(line)
            line = piece
    return lines + [line] if line else lines


class _Help(argparse.HelpFormatter):
    """argparse's help, wrapped by display width (its lines of Japanese would run past the
    terminal) at 80 columns at most."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=min(shutil.get_terminal_size().columns, 80) - 2)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrapped(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrapped(text, width - len(indent)))

    def _format_usage(self, usage, actions, groups, prefix) -> str:
        """The usage, its prefix ("usage: ") in the language of the moment, the lines after
        the first still under the first's options however wide the prefix is."""
        if prefix is not None:
            return super()._format_usage(usage, actions, groups, prefix)
        english, said_so = "usage: ", _argparse_says("usage: ")
        lines = super()._format_usage(usage, actions, groups, english).split("\n")
        shift = " " * max(0, columns(said_so) - len(english))
        return "\n".join([said_so + lines[0][len(english):]] +
                         [shift + line if line.strip() else line for line in lines[1:]])


class _Parser(argparse.ArgumentParser):
    """argparse's parser, keeping its options and their help (for did-you-mean, shell
    completion and the test that every option is explained) without its internals."""

    commands: dict[str, _Parser]  # the command line's: name -> its parser (_parser() sets it)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        self.options: list[tuple[tuple[str, ...], str | None]] = []  # (its -h is added here)
        super().__init__(*args, **kwargs)
        for parent in kwargs.get("parents", ()):
            self.options += getattr(parent, "options", [])

    def add_argument(self, *names, **kwargs):
        self.options.append((tuple(n for n in names if n.startswith("-")), kwargs.get("help")))
        return super().add_argument(*names, **kwargs)

    def error(self, message: str):  # argparse's own usage errors: exit 2 like ours
        self.print_usage(sys.stderr)
        print(f"cardgen: {shown(_('error'))}: {shown(_with_a_guess(message))}", file=sys.stderr)
        raise SystemExit(ExitCode.USAGE)

    def unknown(self, extra: list[str]):
        """Arguments this (sub)command does not take: its own usage, and for a misspelt
        option the one it looks like."""
        known = [o for names, _ in self.options for o in names]
        guesses = [g for x in extra if x.startswith("-")
                   for g in difflib.get_close_matches(x.split("=")[0], known, 1, 0.7)]
        self.error(_("unrecognized arguments: {args}{guess}", args=" ".join(extra),
                     guess=_(" (did you mean {guesses}?)", guesses=guesses[0]) if guesses else ""))


class _Refused(argparse.ArgumentTypeError):
    """An option's value refused, said in the moment's language (argparse shows str())."""

    def __str__(self) -> str:
        return shown(said(self))


def _with_a_guess(message: str) -> str:
    """argparse's "invalid choice: 'biuld' (choose from ...)", with the choice it looks like
    (found by the words argparse says it in, in the language of the moment)."""
    said_so = re.escape(_argparse_says("invalid choice: %(value)r (choose from %(choices)s)"))
    wrong = re.search(said_so.replace(re.escape("%(value)r"), "'([^']*)'")
                      .replace(re.escape("%(choices)s"), "(.*)"), message)
    if wrong:
        choices = re.findall(r"'([^']*)'", wrong.group(2))
        close = difflib.get_close_matches(wrong.group(1), choices, 1, 0.7)
        if close:
            return _("{message} (did you mean '{close}'?)", message=message, close=close[0])
    return message


def _common(default, trust: bool = True) -> _Parser:
    """Options accepted before and after the command; after it, they must not reset
    what was given before it (hence SUPPRESS as the subcommands' default). `--trust` only
    where a game's checks run."""
    common = _Parser(add_help=False)
    common.add_argument("--root", type=Path, default=default(None),
                        help=shown(_("project folder (default: the nearest folder above the "
                                     "working folder that has cardgen.yaml or cards/)")))
    common.add_argument("--traceback", action="store_true", default=default(False),
                        help=shown(_("show a Python traceback on internal errors")))
    common.add_argument("--verbose", action="store_true", default=default(False),
                        help=shown(_("also say which file each sheet preset, layout, export "
                                     "profile, printer and font family is read from: the "
                                     "project's or cardgen's")))
    common.add_argument("--lang", choices=LANGS, default=default(None),
                        help=shown(_("the language cardgen writes in: its messages, guides and "
                                     "preview page (default: ja where the locale, "
                                     "LANG=ja_JP.UTF-8, or the game's lang: says so, else "
                                     "en); for new, also the new game's language (default: the "
                                     "locale's, else en)")))
    if trust:
        common.add_argument("--trust", action="store_true", default=default(False),
                            help=shown(_("run the Python checks module a game names "
                                         "(python_checks:): its code runs with your "
                                         "permissions, so pass this only for games you trust")))
    return common


def _parser() -> _Parser:
    p = _Parser(prog="cardgen", description=shown(_("Print-ready cards, sheets and rulebooks "
                                                    "from YAML.")),
                parents=[_common(lambda value: value)])
    p.add_argument("--version", action="version", version=f"cardgen {__version__}",
                   help=shown(_("print cardgen's version and stop")))
    common = _common(lambda value: argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser,
                           metavar="COMMAND")  # (the list of every command is its own line)
    p.commands = sub.choices  # name -> its parser: a bad option is told with its usage

    b = sub.add_parser("build", parents=[common], help=shown(_("validate and write PDFs to "
                                                               "output/")))
    b.add_argument("games", nargs="*", metavar="GAME",
                   help=shown(_("games to build (default: all)")))
    b.add_argument("--strict", action="store_true", help=shown(_("treat warnings as errors")))
    b.add_argument("--changed-since", metavar="REV",
                   help=shown(_("an errata set: only cards added or changed since the git "
                                "revision REV")))
    _writes(b)
    b.add_argument("--guides", action="store_true",
                   help=shown(_("also write <game>-fronts-guides.pdf: the fronts with trim, bleed "
                                "and safe lines and every element's box with its name")))
    b.add_argument("--start-slot", type=_positive("--start-slot", 1, 1000), default=1, metavar="N",
                   help=shown(_("start the first sheet at slot N (1-based), for a partly used "
                                "sheet")))
    b.add_argument("--printer", metavar="NAME",
                   help=shown(_("shift back pages by a printer's offset profile "
                                "(layouts/printers.yaml)")))
    b.add_argument("--cards-pdf", action="store_true",
                   help=shown(_("also write <game>-cards.pdf: one card per page with bleed")))
    b.add_argument("--png", action="store_true",
                   help=shown(_("also write one PNG per card face, with bleed: "
                                "png/<deck>/<card>-front.png")))
    b.add_argument("--dpi", type=_positive("--dpi", 10, 2400), default=DEFAULT_DPI,
                   help=shown(_("resolution of --png, 10 to 2400 (default {dpi})",
                                dpi=DEFAULT_DPI)))
    b.add_argument("--proof", nargs="?", const="fronts", choices=("fronts", "backs"),
                   help=shown(_("also write proof sheets: every distinct card once, with id and "
                                "copies, as PNG and one PDF; --proof backs puts each card's "
                                "back beside its front")))
    b.add_argument("--target", metavar="NAME",
                   help=shown(_("build only this print target of the game (targets: in "
                                "game.yaml; default: every target)")))
    b.add_argument("--stats", action="store_true",
                   help=shown(_("also write <game>-stats.pdf: every deck's statistics as charts, "
                                "and the odds the game asks")))
    b.add_argument("--tts", action="store_true",
                   help=shown(_("also write a Tabletop Simulator deck: tts/ sheet images and "
                                "<game>-tts.json")))

    v = sub.add_parser("validate", parents=[common], help=shown(_("check games without writing "
                                                                  "anything")))
    v.add_argument("games", nargs="*", metavar="GAME",
                   help=shown(_("games to check (default: all)")))
    v.add_argument("--strict", action="store_true", help=shown(_("treat warnings as errors")))
    v.add_argument("--format", choices=("text", "json"), default="text",
                   help=shown(_("text (default: file:line:col: level: message), or json for "
                                "scripts")))
    v.add_argument("--target", metavar="NAME",
                   help=shown(_("check only this print target of the game "
                                "(default: every target)")))

    sub.add_parser("list", parents=[common], help=shown(_("list games, decks and card counts")))

    st = sub.add_parser("stats", parents=[common],
                        help=shown(_("what each deck holds, counted by copies, and the odds of a "
                                     "draw")))
    st.add_argument("games", nargs="*", metavar="GAME",
                    help=shown(_("games to count (default: all)")))
    st.add_argument("--deck", action="append", metavar="DECK",
                    help=shown(_("only this deck (may be given more than once)")))
    st.add_argument("--format", choices=("text", "json"), default="text",
                    help=shown(_("text (default), or json for scripts")))

    plain = _common(lambda value: argparse.SUPPRESS, trust=False)  # where no game's checks run
    n = sub.add_parser("new", parents=[plain],
                       help=shown(_("start a new game that builds at once")))
    n.add_argument("game", metavar="GAME", help=shown(_("the new game's folder name under cards/")))
    n.add_argument("--size", help=shown(_("card size: poker (the default in English), meishi "
                                          "(in Japanese), us-business, bridge, mini, tarot, or "
                                          "WIDTHxHEIGHT with a unit (33x54mm, 2.5x3.5in)")))
    n.add_argument("--paper", help=shown(_("the paper to print on (A4, Letter, ...; default: the "
                                           "sheet's, else the locale's: LC_PAPER, LC_ALL or "
                                           "LANG, Letter in the US and Canada, A4 elsewhere)")))
    n.add_argument("--sheet", metavar="PRESET",
                   help=shown(_("sheet preset (default: one for the size and paper)")))
    n.add_argument("--from", dest="example", metavar="EXAMPLE",
                   help=shown(_("start from a copy of one of the example games cardgen comes "
                                "with (a name it does not know lists them)")))

    u = sub.add_parser("upgrade", parents=[plain],
                       help=shown(_("rewrite what can be rewritten safely of a project written "
                                    "in an older format, showing the changes first")))
    u.add_argument("--write", action="store_true",
                   help=shown(_("make the changes shown and record the current format in "
                                "cardgen.yaml (default: only show them)")))

    d = sub.add_parser("diff", parents=[common],
                       help=shown(_("what prints differently since a git revision, or against a "
                                    "folder")))
    d.add_argument("games", nargs="*", metavar="GAME", help=shown(_("games to compare (default: "
                                                                    "all)")))
    d.add_argument("--rev", default="HEAD", help=shown(_("git revision to compare with (default "
                                                         "HEAD)")))
    d.add_argument("--against", type=Path, metavar="FOLDER",
                   help=shown(_("compare with another project folder instead of a revision")))
    d.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help=shown(_("text (default), json for scripts, or markdown: a changelog for "
                                "players, in the game's language")))
    d.add_argument("--visual", action="store_true",
                   help=shown(_("also write output/<game>/<game>-changes.pdf: every changed face "
                                "before and after, the changed regions outlined")))

    w = sub.add_parser("watch", parents=[common],
                       help=shown(_("rebuild on every save; the last good output stays when data "
                                    "is invalid")))
    w.add_argument("games", nargs="*", metavar="GAME",
                   help=shown(_("games to watch (default: all)")))
    w.add_argument("--strict", action="store_true",
                   help=shown(_("treat warnings as errors: a save with a draft does not rebuild")))

    sv = sub.add_parser("serve", parents=[common],
                        help=shown(_("a live preview of a game's cards, report and rulebook in a "
                                     "browser")))
    sv.add_argument("game", metavar="GAME", help=shown(_("the game to preview")))
    sv.add_argument("--host", default="127.0.0.1", help=shown(_("address to listen on (default "
                                                                "127.0.0.1)")))
    sv.add_argument("--changes-since", metavar="REV",
                    help=shown(_("also show every face that prints differently since the git "
                                 "revision REV, before and after")))
    sv.add_argument("--port", type=_positive("--port", 0, 65535), default=8000,
                    help=shown(_("port to listen on, 0 to 65535 (default 8000; 0: any free port)")))

    e = sub.add_parser("export", parents=[common],
                       help=shown(_("a game's faces as a print shop asks for them: one file per "
                                    "face design, and a manifest of copies (docs/printing.md)")))
    e.add_argument("games", nargs="*", metavar="GAME",
                   help=shown(_("games to export (default: all)")))
    e.add_argument("--profile", required=True, metavar="NAME",
                   help=shown(_("export profile in layouts/exports/: jp-print (PDF per face, 3 "
                                "mm bleed, トンボ, CMYK), tgc, mpc (PNG at the service's "
                                "template size), or one of your own")))
    e.add_argument("--icc", type=Path, metavar="FILE",
                   help=shown(_("your print shop's CMYK output profile (.icc), instead of the "
                                "profile's")))
    e.add_argument("--target", metavar="NAME",
                   help=shown(_("export only this print target of the game (default: every "
                                "target)")))
    e.add_argument("--decks", metavar="ID,ID",
                   help=shown(_("export only these decks (default: every deck the profile can "
                                "take)")))
    e.add_argument("--strict", action="store_true", help=shown(_("treat warnings as errors")))
    _writes(e)

    pn = sub.add_parser("pnp", parents=[common],
                        help=shown(_("one print-and-play PDF per paper: a cover with the "
                                     "components, the card sheets, the boards and the rulebook")))
    pn.add_argument("games", nargs="*", metavar="GAME",
        help=shown(_("games to make kits of (default: all)")))
    pn.add_argument("--paper", action="append", choices=tuple(PAPERS), type=_kit_paper,
                    help=shown(_("the paper of a kit, {join}; may be given again (default: each)",
                                 join=' or '.join(PAPERS))))
    pn.add_argument("--layout", choices=LAYOUTS, default=LAYOUTS[0],
                    help=shown(_("duplex (default: each front page followed by its back page, "
                                 "for a double-sided printer) or gutterfold (fronts and backs "
                                 "side by side, folded and glued: any printer)")))
    pn.add_argument("--ink-saver", action="store_true",
                    help=shown(_("lighten the large areas of colour (backgrounds, back designs)")))
    pn.add_argument("--greyscale", action="store_true",
                    help=shown(_("pictures (PNG, JPEG) in grey, with the ink saver or on their "
                                 "own")))
    pn.add_argument("--blanks", action="store_true",
                    help=shown(_("also print the blank cards and the slots no card fills yet, "
                                 "as blank cards to write on (default: only the cards that "
                                 "exist; fillers never)")))
    _writes(pn)

    sc = sub.add_parser("showcase", parents=[common],
                        help=shown(_("presentation pictures of chosen cards, for a playtest "
                                     "invitation or a crowdfunding page: a row over "
                                     "reflections, or a hand")))
    sc.add_argument("game", metavar="GAME", help=shown(_("the game")))
    sc.add_argument("--cards", nargs="+", metavar="ID",
                    help=shown(_("the cards to show, in order, at most {MAX_SHOWN} (default: the "
                                 "first card of each deck, up to five)", MAX_SHOWN=MAX_SHOWN)))
    sc.add_argument("--hand", action="store_true",
                    help=shown(_("fan the cards as a hand holds them (default: a row)")))
    sc.add_argument("--size", type=_picture_size, default=SIZES["wide"], metavar="WxH",
                    help=shown(_("the picture's size in pixels, such as 1600x900, or {join} "
                                 "({join2}; default wide)", join=', '.join(SIZES),
                                 join2=', '.join((f'{w}x{h}' for w, h in SIZES.values())))))
    sc.add_argument("--background", metavar="COLOR",
                    help=shown(_("a colour (#rrggbb, or one of the game's colours) instead of "
                                 "the soft grey gradient")))
    sc.add_argument("--title", metavar="TEXT",
                    help=shown(_("the title above the cards (default: the game's; '' for none)")))
    sc.add_argument("--output", type=Path, help=shown(_("output folder (default: output/)")))

    c = sub.add_parser("calibrate", parents=[plain],
                       help=shown(_("write a duplex calibration sheet to measure a printer's "
                                    "back offset")))
    c.add_argument("--paper", type=_paper, default="A4",
                   help=shown(_("the paper to print on: {expected}, in any case (default A4)",
                                expected=FORMATS['paper'].expected)))
    c.add_argument("--duplex", choices=("long-edge", "short-edge"), default="long-edge",
                   help=shown(_("how your printer turns the sheet: long-edge (default) or "
                                "short-edge")))

    cp = sub.add_parser("completion", parents=[plain],
                        help=shown(_("print a shell completion script: eval \"$(cardgen "
                                     "completion bash)\"")))
    cp.add_argument("shell", choices=completion.SHELLS,
                    help=shown(_("the shell: bash, zsh or fish "
                                 "(docs/cli.md says where to put it)")))
    return p


def _writes(command) -> None:
    """The options of a command that writes files: where, and how much it says."""
    command.add_argument("--quiet", "-q", action="store_true",
                         help=shown(_("print problems only: no progress, "
                                      "no list of files written")))
    command.add_argument("--output", type=Path, help=shown(_("output folder (default: output/)")))


def _kit_paper(text: str) -> str:
    return {p.lower(): p for p in PAPERS}.get(text.lower(), text)


_kit_paper.__name__ = "--paper"


def _picture_size(text: str) -> tuple[int, int]:
    if text in SIZES:
        return SIZES[text]
    w, _x, h = text.lower().partition("x")
    if not (f"{w}{h}".isascii() and w.isdigit() and h.isdigit()) or \
            not all(MIN_SIDE <= int(v) <= MAX_SIDE for v in (w, h)):
        raise _Refused(
            _("'{text}' is not a picture size: give WIDTHxHEIGHT in pixels, each {MIN_SIDE} to "
              "{MAX_SIDE} (such as 1600x900), or {join}", text=text, MIN_SIDE=MIN_SIDE,
              MAX_SIDE=MAX_SIDE, join=', '.join(SIZES)))
    return int(w), int(h)


_picture_size.__name__ = "--size"


def _paper(text: str) -> str:
    name = paper_name(text)
    if name is None:
        raise _Refused(_("unknown paper '{text}': {expected}", text=text,
                         expected=FORMATS['paper'].expected))
    return name


_paper.__name__ = "--paper"


def _positive(kind: str, low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise _Refused(_("{kind} must be a whole number, not '{text}'", kind=kind, text=text)) \
                from None
        if not low <= value <= high:
            raise _Refused(_("{kind} must be from {low} to {high}, not {value}", kind=kind,
                             low=low, high=high, value=value))
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
