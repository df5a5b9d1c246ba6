"""A project's git history, read the one way cardgen asks git anything.

When a game was last revised: the date of the last git commit that touched its folder.
The files cardgen writes carry it (their creation and modification dates) with the game's
`version:`, so a resubmitted file can be told from the first; it depends on the project
alone (its files and its history), so the same input still gives the same bytes. A game
not in git, or without git on the machine, has no date: the files keep the fixed one.

What a game's files were at a revision (`cardgen diff`, the preview's changes view): the
blobs as they were committed, read with `git cat-file`, not `git archive` (which runs the
repository's filters and export-subst).

A repository may come from a stranger: its `.git/config` and `.gitattributes` may name
programs (filters, textconv, fsmonitor, hooks, a pager, gpg, an ssh command). cardgen asks
git only through `git()`, which runs it with the user's own configuration and none of
the machine's, every setting that can start a program overridden on the command line
(which wins over every configuration file) and no fetching of any kind: none of them
ever runs.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from ..i18n import Message, _
from ..paths import Outside, inside
from ..problems import IOFault, fault_words

GIT_SECONDS = 10  # a budget for each question to git
READ_SECONDS = 120  # and for reading a revision's files
MAX_REVISION_BYTES = 512 * 1024 * 1024  # a revision's files, at most, read into memory


class NoGit(FileNotFoundError):
    """git is not on this machine (the program could not be started)."""


class TooLarge(ValueError):
    """A revision's files are more than MAX_REVISION_BYTES (said before any is read)."""

    def __init__(self, size: int):
        super().__init__(size)
        self.size = size

# Settings of a repository's configuration that start a program, made harmless: `-c`
# wins over every configuration file, the repository's own included.
HARDENED = ("core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat",
            "core.sshCommand=false", "core.gitProxy=", "core.askPass=false",
            "core.editor=false", "sequence.editor=false", "credential.helper=",
            "diff.external=", "log.showSignature=false", "gpg.program=false",
            "gpg.ssh.program=false", "gpg.x509.program=false", "protocol.allow=never",
            "uploadpack.packObjectsHook=", "core.untrackedCache=false",
            "core.attributesFile=/dev/null", "fetch.recurseSubmodules=false",
            "submodule.recurse=false")


def _environment() -> dict[str, str]:
    """The user's environment without any GIT_ variable (which could point git at another
    repository, another configuration or a program), and git told to read no system
    configuration, ask nothing, write no lock and take no replacement objects."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_ATTR_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0",
               GIT_OPTIONAL_LOCKS="0", GIT_NO_REPLACE_OBJECTS="1", GIT_PAGER="cat",
               GIT_ASKPASS="false", SSH_ASKPASS="false", LC_ALL="C")
    return env


def git(args: list[str], cwd: Path | str, *, timeout: float = GIT_SECONDS,
        stdin: bytes | None = None, check: bool = False) -> subprocess.CompletedProcess[bytes]:
    """Run `git ARGS` in `cwd`, hardened (see the module's words), its output as bytes.
    Raises NoGit (a FileNotFoundError) without git, subprocess.TimeoutExpired past its budget and,
    with `check`, subprocess.CalledProcessError."""
    command = ["git", "--no-pager", "--no-replace-objects"]
    for setting in HARDENED:
        command += ["-c", setting]
    if not Path(cwd).is_dir():  # (run() says a missing folder as a missing program)
        raise NotADirectoryError(f"{cwd}")
    try:
        return subprocess.run(command + args, cwd=cwd, input=stdin, capture_output=True,
                              env=_environment(), timeout=timeout, check=check)
    except FileNotFoundError:
        raise NoGit("git") from None


def committed(folder: Path) -> str:
    """The last commit's date of what is under `folder`, in UTC, as ISO 8601
    ("2026-12-04T21:07:33+00:00"); "" when it has none (not in git, or no git)."""
    try:
        done = git(["log", "-1", "--no-show-signature", "--format=%ct", "--", "."], folder)
    except (OSError, subprocess.SubprocessError):
        return ""
    stamp = done.stdout.decode("ascii", "replace").strip()
    if done.returncode != 0 or not stamp.isascii() or not stamp.isdigit():
        return ""
    return datetime.fromtimestamp(int(stamp), timezone.utc).isoformat()


def top_level(folder: Path | str) -> str:
    """The top of the git work tree `folder` is in (CalledProcessError if none)."""
    return git(["rev-parse", "--show-toplevel"], folder, check=True).stdout.decode(
        "utf-8", "surrogateescape").strip()


def extract(top: str, revision: str, paths: list[str], folder: Path) -> list[Message | str]:
    """Write the files under `paths` (relative to the work tree's top `top`) as they were
    committed at `revision` into `folder`, each at its path; returns what was left out,
    each in a sentence for a warning. Blobs are read raw: no filter, no end-of-line
    conversion, no export-subst. Every name passes paths.py's one check (inside the folder,
    links resolved, no name longer than a file's can be), and none through .git; a
    symbolic link is written only when it points inside `folder`; a submodule is left out.
    The files' sizes are asked first: more than MAX_REVISION_BYTES in all raises TooLarge
    before any is read. CalledProcessError if the revision cannot be read, IOFault if a
    file cannot be written."""
    listed = git(["ls-tree", "-r", "-z", "--full-name", "--end-of-options", revision, "--",
                  *paths], top, check=True, timeout=READ_SECONDS).stdout
    base = folder.resolve()
    entries: list[tuple[str, str, str]] = []
    left_out: list[Message | str] = []
    for record in listed.split(b"\0"):
        if not record:
            continue
        meta, _tab, name = record.partition(b"\t")
        mode, kind, oid = meta.decode("ascii").split()
        path = name.decode("utf-8", "surrogateescape")
        if kind != "blob":
            continue  # a submodule: another repository
        what = _("'{path}'", path=path.encode("utf-8", "replace").decode("utf-8")[:120])
        if any(p.lower() == ".git" for p in path.split("/")):
            left_out.append(_("{what} is inside a .git folder; left out", what=what))
            continue
        try:
            inside(base, path)
        except Outside as exc:
            left_out.append(exc.sentence(what, _("the revision's folder")))
            continue
        entries.append((mode, oid, path))
    if not entries:
        return left_out
    asked = "".join(f"{oid}\n" for _m, oid, _p in entries).encode("ascii")
    sizes = git(["cat-file", "--batch-check=%(objectsize)"], top, check=True,
                timeout=READ_SECONDS, stdin=asked).stdout.split()
    total = sum(int(size) for size in sizes if size.isdigit())
    if total > MAX_REVISION_BYTES:
        raise TooLarge(total)
    blobs = git(["cat-file", "--batch"], top, check=True, timeout=READ_SECONDS,
                stdin=asked).stdout
    at = 0
    for mode, _oid, path in entries:
        end = blobs.index(b"\n", at)
        size = int(blobs[at:end].split()[2])
        data = blobs[end + 1:end + 1 + size]
        at = end + 1 + size + 1
        try:
            target = inside(base, path)  # (again: an earlier entry may be a link on its way)
        except Outside as exc:
            left_out.append(exc.sentence(_("'{path}'", path=path), _("the revision's folder")))
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                link = data.decode("utf-8", "surrogateescape")
                landed = posixpath.normpath(posixpath.join(posixpath.dirname(path), link))
                if not link.startswith("/") and landed != ".." and not landed.startswith("../"):
                    (base / path).symlink_to(link)
                continue
            target.write_bytes(data)
        except OSError as exc:
            raise IOFault(_("cannot write the files of revision '{revision}' into {folder}: "
                            "{words}", revision=revision, folder=str(folder),
                            words=fault_words(exc)), exc) from None
    return left_out
