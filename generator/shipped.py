"""What cardgen ships with, besides its code: the one list of it, read by the wheel's build
(setup.py copies these parts of the repository into the package) and by cardgen at run time
(a project's own files are looked for first, then these: load/project.py).

The repository keeps them where a designer's project keeps its own: `fonts/` (the fonts,
their licences and fonts.yaml), the shipped parts of `layouts/` (sheet presets, board
layouts, export profiles with the ICC profile, printers and the two default layouts), and
`cards/`, whose games are examples to copy (`cardgen new GAME --from EXAMPLE`) with the
layouts they use. Installed, they are `generator/shipped/` (`examples/` holding the games
and their own layouts); run from the repository, they are read where they are.

This module imports nothing of cardgen's: setup.py loads it on its own.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

FOLDER = "shipped"  # inside the package: generator/shipped/
EXAMPLES = "examples"  # inside it: a project of the example games (cards/ and their layouts/)

# The parts of the repository every project sees, as paths from its top: a folder ships
# everything inside it.
PARTS = ("fonts", "layouts/sheets", "layouts/boards", "layouts/exports", "layouts/printers.yaml",
         "layouts/default-front.yaml", "layouts/default-back.yaml")
# The example games, and (in examples/) the layouts of theirs that are not among PARTS.
EXAMPLE_PARTS = ("cards", "layouts")


def ships(relative: str) -> bool:
    """True if the file at `relative` (a path from the project's top, with '/') is one of
    the shipped parts."""
    path = PurePosixPath(relative)
    return any(path == PurePosixPath(part) or PurePosixPath(part) in path.parents
               for part in PARTS)


def _package() -> Path:
    return Path(__file__).resolve().parent


def root() -> Path | None:
    """The folder the shipped parts are read from: generator/shipped/ in an installed
    cardgen, the repository's top when cardgen runs from its source (an editable install),
    None when neither has them."""
    packaged = _package() / FOLDER
    if (packaged / "fonts" / "fonts.yaml").is_file():
        return packaged
    source = _package().parent
    if (source / "fonts" / "fonts.yaml").is_file() and (source / "layouts").is_dir():
        return source
    return None


def examples() -> Path | None:
    """The project of the example games: generator/shipped/examples/ installed, the
    repository from its source."""
    top = root()
    if top is None:
        return None
    packaged = top / EXAMPLES
    return packaged if packaged.is_dir() else top


def copy_into(source: Path, target: Path) -> list[Path]:
    """What the wheel's build does: the shipped parts of the repository at `source` copied
    into `target` (generator/shipped/ of the build), the example games and their own layouts
    into `target/examples`. Returns the files written."""
    import shutil

    written: list[Path] = []

    def copy(path: Path, to: Path) -> None:
        to.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, to)
        written.append(to)

    tops = sorted({part.split("/")[0] for part in (*PARTS, *EXAMPLE_PARTS)})
    for path in sorted(p for top in tops for p in (source / top).rglob("*")):
        relative = path.relative_to(source).as_posix()
        if not path.is_file() or "__pycache__" in relative:
            continue
        if ships(relative):
            copy(path, target / relative)
        elif relative.split("/")[0] in EXAMPLE_PARTS:
            copy(path, target / EXAMPLES / relative)
    return written
