"""The versions of the game format, and what changed in each that a project may need to mend.

A project's `cardgen.yaml` says which version of the format it is written in (`format:`).
cardgen builds a project of an older version as it is, and says once what changed since
that version: each change with how to mend it (CHANGELOG.md has the whole story), those
it can rewrite safely marked so (`cardgen upgrade` shows the rewrite, `--write` makes it
and records the current version). A project of a newer version than this cardgen's is
refused with what to do. `FORMAT` is the current version; `CHANGES` the one list of the
changes that ask something of a project, newest last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .i18n import N_, Message, language
from .paths import contained

VERSION = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,4}){0,2}")


def parse(text: str) -> tuple[int, ...] | None:
    """(0, 2, 0) for "0.2.0" or "0.2"; None for what is not a version."""
    if not VERSION.fullmatch(text):
        return None
    parts = tuple(int(p) for p in text.split("."))
    return parts + (0,) * (3 - len(parts))


@dataclass(frozen=True)
class Rename:
    """A key renamed at the top of a kind of file: what `cardgen upgrade` rewrites."""

    files: str  # a glob from the project's top: "layouts/sheets/*.yaml"
    old: str
    new: str

    def rewrite(self, text: str) -> str:
        """The file's text with the key renamed where it is a top-level key of block YAML;
        the rest (comments, order, quoting) as it was."""
        return re.sub(rf"(?m)^{re.escape(self.old)}(?=[ \t]*:)", self.new, text)


@dataclass(frozen=True)
class Change:
    version: str  # the format version that made it (a heading of CHANGELOG.md)
    what: Message  # the change, in a few words
    mend: Message  # how to mend a project written before it
    rewrite: Rename | None = None  # what `cardgen upgrade` can do for it


CHANGES = (
    Change("0.1.0", N_("game.yaml's language: is now lang:"), N_("rename the key"),
           Rename("cards/*/game.yaml", "language", "lang")),
    Change("0.1.0", N_("yes, no, on and off are text, not booleans, except in a flag"),
           N_("write true or false where a data table or a card field meant a boolean")),
    Change("0.2.0", N_("a sheet preset's min_margin: is now unprintable:"),
           N_("rename the key; a preset whose crop marks reach the paper's edge needs shorter "
              "marks or wider margins"),
           Rename("layouts/sheets/*.yaml", "min_margin", "unprintable")),
    Change("0.2.0", N_("a polygon with sides: fills its box (it was inscribed in the box's "
                       "ellipse)"),
           N_("to keep the old look of a polygon whose sides are not a multiple of 4, make its "
              "box narrower (a hexagon: width x 0.866)")),
    Change("0.2.0", N_("the decks of one game must turn their sheets over the same way "
                       "(duplex:)"),
           N_("give every deck with backs the same duplex:, or print the odd deck as a print "
              "target of its own")),
    Change("0.2.0", N_("an icon's color: beside a PNG or JPEG image: is an error"),
           N_("leave out color:, or give an SVG")),
)
FORMAT = CHANGES[-1].version  # the version this cardgen writes and reads


def since(version: str) -> list[Change]:
    """The changes made after `version`."""
    old = parse(version) or (0,)
    return [c for c in CHANGES if (parse(c.version) or (0,)) > old]


def rewrites(root: Path, version: str) -> list[tuple[Path, str, str]]:
    """(file, its text, the text rewritten) for every file of the project at `root` that a
    change since `version` rewrites, in order."""
    found: dict[Path, tuple[str, str]] = {}
    for change in since(version):
        rename = change.rewrite
        if rename is None:
            continue
        for path in sorted(root.glob(rename.files)):
            if path.is_symlink() or not path.is_file() or not contained(root, path):
                continue  # only the project's own files, never through a link
            before, text = found.get(path) or (_read(path), None)
            if before is None:
                continue
            after = rename.rewrite(text if text is not None else before)
            found[path] = (before, after)
    return [(path, before, after) for path, (before, after) in found.items() if before != after]


def _read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


MARKER_TEXT = """\
# {intro}
format: {version}
"""
MARKER_INTRO = N_("A cardgen project: cardgen finds it from any folder below this one. format: "
                  "is the version of the game format its games are written in (CHANGELOG.md; "
                  "cardgen upgrade moves it on).")


def marker(lang: str) -> str:
    """The text of a new project's cardgen.yaml, its comment in `lang`."""
    import textwrap

    intro = MARKER_INTRO.shown(lang)
    width = 88 if lang == "en" else 44  # (a Japanese character is two columns wide)
    lines = textwrap.wrap(intro, width) if " " in intro else \
        [intro[i:i + width] for i in range(0, len(intro), width)]
    return MARKER_TEXT.format(intro="\n# ".join(lines), version=FORMAT)


def with_format(text: str, version: str) -> str:
    """A cardgen.yaml's text with its format: set to `version`."""
    if re.search(r"(?m)^format[ \t]*:", text):
        return re.sub(r"(?m)^(format[ \t]*:[ \t]*)[^#\n]*?([ \t]*(?:#.*)?)$",
                      lambda m: f"{m.group(1)}{version}{m.group(2)}", text, count=1)
    return text + ("" if text.endswith("\n") or not text else "\n") + f"format: {version}\n"



def upgrade(root: Path, version: str, write: bool) -> tuple[list[str], list[Path]]:
    """`cardgen upgrade`: the unified diff of every rewrite the changes since `version` make
    in the project at `root` (cardgen.yaml's format: among them, and a cardgen.yaml for a
    project that has none), and with `write` the files rewritten (each written whole, never
    through a link). Returns (the diff's lines, the files written)."""
    import difflib
    import os

    from .paths import write_atomically  # (a library as this module is)

    marker_path = root / "cardgen.yaml"
    changed = rewrites(root, version)
    text = _read(marker_path) if marker_path.is_file() and not marker_path.is_symlink() else None
    if text is not None and parse(version) != parse(FORMAT):
        changed.append((marker_path, text, with_format(text, FORMAT)))
    elif not os.path.lexists(marker_path):  # a project known by its cards/ only: say so
        changed.append((marker_path, "", marker(language())))
    lines: list[str] = []
    for path, before, after in changed:
        name = path.relative_to(root).as_posix()
        lines += difflib.unified_diff(before.splitlines(), after.splitlines(), f"a/{name}",
                                      f"b/{name}", lineterm="")
    written = []
    if write:
        for path, before, after in changed:
            mode = os.stat(path).st_mode & 0o777 if before else 0o644

            def put(tmp: Path, after: str = after, mode: int = mode) -> None:
                tmp.write_text(after, "utf-8")
                os.chmod(tmp, mode)

            write_atomically(path, put)
            written.append(path)
    return lines, written
