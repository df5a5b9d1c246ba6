"""What the commands tell the person at the terminal, apart from what they do: problems one
per line (coloured on a terminal only), one self-overwriting progress line, and the files a
build wrote or removed (a folder of many as one line)."""

from __future__ import annotations

import os
import sys

from .. import i18n
from ..i18n import _, _n, shown
from ..load import Project
from ..problems import Report
from ..write import pictures_folder


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
        return (f"\033[1m{p.location}{reset}: {_LEVEL_COLOUR.get(p.level, '')}{p.level_word}"
                f"{reset}: {p.text} \033[2m[{p.check}]{reset}")
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


MANY = 12  # files in one folder that the file list says as one line ("wrote 20,000 files to")


def _wrote(project: Project, written: list) -> list[str]:
    """The "wrote" lines of a build: a file a line (with its pages), except where one folder
    got more than MANY (a PNG per card face), which is one line for the folder."""
    return _by_folder(project, written, _("wrote {n:,} files to {folder}/", n=0, folder=""),
                      lambda path, pages: shown(
                          _n("wrote {file} ({n} page)", "wrote {file} ({n:,} pages)", pages,
                             file=project.display(path)) if pages else
                          _("wrote {file}", file=project.display(path))))


def _removed(project: Project, removed: list, quiet: bool = False) -> list[str]:
    """The "removed" lines of a build, a folder of more than MANY files as one line. Card
    pictures an earlier `build --png` wrote are said as such, with how to have them back
    (their cache keeps them: `build --png` copies them without drawing one). `quiet`: one
    line for them all (files removed are never removed silently)."""
    if quiet and removed:
        return [shown(_n("removed {n:,} file an earlier build wrote and this one does not "
                         "(without --quiet, the build says which)",
                         "removed {n:,} files an earlier build wrote and this one does not "
                         "(without --quiet, the build says which)", len(removed)))]
    folders = {p: folder for p in removed if (folder := pictures_folder(project.output, p))}
    pictures = [p for p in removed if p in folders]
    lines = []
    if pictures:
        roots = sorted(set(folders.values()))
        lines.append(shown(_n(
            "removed {n:,} card picture of an earlier 'build --png' from {folders} (this "
            "build was not asked for pictures; 'build --png' writes them again from "
            "{cache} without drawing them)",
            "removed {n:,} card pictures of an earlier 'build --png' from {folders} (this "
            "build was not asked for pictures; 'build --png' writes them again from "
            "{cache} without drawing them)", len(pictures),
            folders=", ".join(project.display(r) + "/" for r in roots),
            cache=project.display(project.output / ".cache" / "png") + "/")))
        said = set(pictures)
        removed = [p for p in removed if p not in said]
    return lines + _by_folder(project, [(p, 0) for p in removed],
                      _("removed {n:,} files from {folder}/ (an earlier build wrote them; this "
                        "one does not)", n=0, folder=""),
                      lambda path, _pages: shown(_("removed {file} (an earlier build wrote it; "
                                                   "this one does not)",
                                                   file=project.display(path))))


def _by_folder(project: Project, files: list, many: i18n.Message, each) -> list[str]:
    """Lines about (path, pages) files: one per file, or `many` for a folder of more than
    MANY."""
    folders: dict = {}
    for path, pages in files:
        folders.setdefault(path.parent, []).append((path, pages))
    return [line for folder, inside in folders.items() for line in (
        [shown(i18n.Message(many.template, {"n": len(inside),
                                            "folder": project.display(folder)}))]
        if len(inside) > MANY
        else [each(path, pages) for path, pages in inside])]
