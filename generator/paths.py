"""The two rules for what a game's data may turn into a path. Each lives here and only here.

**Names.** Every name that becomes part of a path (a game, deck or card id, a layout,
sheet preset, board layout or printer name) matches `NAME` as a whole: lowercase
letters, digits, '-' and '_', starting with a letter or digit, at most 64 characters.
`fullmatch` anchors both ends, so a trailing newline is not a name (`^…$` would let one
through). The format schema's `name` format (load/schema.py) is this same function.

**Files.** Every file cardgen opens or writes on a game's behalf goes through `inside`
before it is opened: the path, with every link resolved, must lie inside the folder it
is named from (the game folder for what game.yaml names, layouts/ for layouts and
presets, fonts/ for font files, the output folder for what a build writes). A link that
leads out, `..`, an absolute path, a NUL byte and a link loop are all refused the same way.

Besides: `file_version`, the stamp under which a file's contents are cached (images, fonts).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import TypeGuard

from .i18n import _

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
NAME_RULE = _("lowercase letters, digits, '-' and '_' (starting with a letter or digit, at most "
              "64)")


def is_name(value: object) -> TypeGuard[str]:
    """True if `value` may name something that becomes a path."""
    return isinstance(value, str) and NAME.fullmatch(value) is not None


MAX_NAME_BYTES = 255  # a file or folder name, as the file systems cardgen runs on take it
MAX_PATH_BYTES = 1024  # a file named in data, relative to its folder


class Outside(ValueError):
    """A file named in data that does not lie inside the folder it is named from."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why  # "absolute", "outside", "link", "loop", "nul" or "long"

    def sentence(self, what: str, folder: str) -> str:
        """The user's message: `what` names the reference ("image 'a.png'"), `folder` the
        folder it must lie in ("the game folder")."""
        return {
            "absolute": _("{what} is an absolute path; name a file inside {folder}", what=what,
                          folder=folder),
            "outside": _("{what} lies outside {folder}; name a file inside it", what=what,
                         folder=folder),
            "link": _("{what} is a link that leads outside {folder}; cardgen opens only files "
                      "inside it", what=what, folder=folder),
            "loop": _("{what} is a link loop", what=what),
            "nul": _("{what} contains a NUL character", what=what),
            "long": _("{what} is a name longer than a file's name can be ({MAX_NAME_BYTES} bytes "
                      "a part, {MAX_PATH_BYTES} in all)", what=what, MAX_NAME_BYTES=MAX_NAME_BYTES,
                      MAX_PATH_BYTES=MAX_PATH_BYTES),
        }[self.why]


def inside(folder: Path, name: str | os.PathLike) -> Path:
    """`folder / name` with links resolved, if it lies inside `folder` (whose own links are
    resolved too). Raises Outside otherwise. Nothing is opened; a file that does not exist
    yet is fine (its existing parents are resolved)."""
    text = os.fspath(name)
    if "\x00" in text:
        raise Outside("nul")
    if os.path.isabs(text) or text.startswith("\\"):
        raise Outside("absolute")
    if len(text.encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES or any(
            len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES
            for part in Path(text).parts):  # the system would refuse it, at any stat
        raise Outside("long")
    try:
        base = Path(folder).resolve()
        path = (base / text).resolve()
    except (RuntimeError, OSError) as exc:  # a link loop (RuntimeError before Python 3.13)
        raise Outside("loop") from exc
    if not path.is_relative_to(base):
        if ".." not in Path(text).parts and _is_link_route(base, text):
            raise Outside("link")
        raise Outside("outside")
    return path


def _is_link_route(base: Path, text: str) -> bool:
    """True if some folder or file on the way from `base` to `text` is a link."""
    here = base
    for part in Path(text).parts:
        here = here / part
        if here.is_symlink():
            return True
    return False


def contained(folder: Path, path: Path) -> bool:
    """True if `path` (absolute, or relative to the working folder) lies inside `folder`,
    links resolved: for paths cardgen made itself, such as output files."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (RuntimeError, OSError):
        return False


def file_version(path: str | os.PathLike) -> tuple:
    """What changes when a file does (modification time, size, inode), or () when it cannot
    be read: the key under which the file's contents are cached, so `watch` and `serve`
    see an edited picture or font at once."""
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return st.st_mtime_ns, st.st_size, st.st_ino


def write_atomically(path: Path, write) -> None:
    """A kept file (a cache's) written whole or not at all: `write(tmp)` writes a temporary
    file beside `path`, which replaces `path` when done; whatever stops it (an error,
    Ctrl-C, SIGTERM) removes the temporary file, so nothing half-written is left behind."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
