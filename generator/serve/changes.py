"""The preview's view of what prints differently since a revision (`serve --changes-since`):
the same diff and the same changed regions as `cardgen diff --visual`, made again at every
save from the build the preview just made, against the revision's side, which is read,
checked and laid out once per server run (and again only when the name comes to mean
another commit: `HEAD` after a commit)."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _, shown

if TYPE_CHECKING:
    from ..diff import Revision

KEPT = 2  # revisions kept laid out at once (a server follows one; tests start several)
# (project root, game, commit, the working tree's fonts) -> diff.Revision
_revisions: dict[tuple, Revision] = {}
_holders: dict[int, int] = {}  # id of a Revision -> the threads comparing with it now
_lock = threading.Lock()


def _commit(project, since: str) -> str:
    """The commit `since` names now (itself where git cannot say: at_revision will)."""
    from ..load.revision import git
    try:
        done = git(["rev-parse", "--verify", "--quiet", "--end-of-options",
                    since + "^{commit}"], project.root)
    except (OSError, subprocess.SubprocessError):
        return since
    return done.stdout.decode("ascii", "replace").strip() or since


def _fonts_stamp(project) -> tuple:
    """The working tree's fonts, each file's version: a revision whose fonts are not in git
    is laid out with these (diff.at_revision links them), so a font saved since it was laid
    out makes it another revision (its faces were measured with the old font's metrics)."""
    from ..paths import file_version
    folder = Path(project.root) / "fonts"
    try:
        files = sorted(p for p in folder.rglob("*") if p.is_file())
    except OSError:
        return ()
    return tuple((p.relative_to(folder).as_posix(), file_version(p)) for p in files)


@contextlib.contextmanager
def revision(project, game: str, since: str) -> Iterator[Revision]:
    """The game at `since`, laid out once (diff.Revision) and kept for the next saves, held
    while the `with` block compares with it: one evicted meanwhile (by another thread's
    revision) is closed, its files removed, only when no thread holds it any more."""
    from ..diff import Revision
    key = (str(project.root), game, _commit(project, since), _fonts_stamp(project))
    with _lock:
        found = _revisions.pop(key, None)
        if found is None:
            found = Revision(project, game, since)
        _revisions[key] = found  # the last used last
        _holders[id(found)] = _holders.get(id(found), 0) + 1
        while len(_revisions) > KEPT:
            evicted = _revisions.pop(next(iter(_revisions)))
            if not _holders.get(id(evicted)):
                evicted.close()
    try:
        yield found
    finally:
        with _lock:
            _holders[id(found)] -= 1
            if not _holders[id(found)]:
                del _holders[id(found)]
                if all(kept is not found for kept in _revisions.values()):
                    found.close()  # evicted while it was held


def _outlined(png: bytes, regions) -> bytes:
    import io

    from PIL import Image as PILImage
    from PIL import ImageDraw
    with PILImage.open(io.BytesIO(png)) as opened:
        im = opened.convert("RGB")
        draw = ImageDraw.Draw(im)
        for x, y, w, h in regions:
            draw.rectangle([x * im.width - 1, y * im.height - 1, (x + w) * im.width + 1,
                            (y + h) * im.height + 1], outline=(217, 26, 26), width=2)
        out = io.BytesIO()
        im.save(out, "PNG")
        return out.getvalue()


def changes_since(project, game: str, since: str, images: dict, faces,
                  markdown: str | None, pdf: bytes | None = None) -> list[dict]:
    """The reprinted faces since a revision, before and after, their changes outlined: the
    same diff and the same regions as `cardgen diff --visual`, from the build just made
    (`faces`, its rulebook's Markdown and PDF)."""
    from ..problems import CardgenError
    from ..write.changes import changed_regions
    try:
        with revision(project, game, since) as kept:
            diff = kept.diff(faces, markdown, visual=True, pdf=pdf)
    except CardgenError as exc:
        return [{"id": "", "side": "", "causes": [shown(_("cannot compare with {since}: {exc}",
                                                      since=since, exc=exc))],
                 "before": "", "after": ""}]
    out = []
    for reprint in diff.reprinted:
        for side in reprint.sides:
            before, after = diff.rasters[reprint.new.id, side]
            regions = changed_regions(before, after)
            names = (f"changes/{reprint.new.id}-{side}-before.png",
                     f"changes/{reprint.new.id}-{side}-after.png")
            images[names[0]] = _outlined(before, regions)
            images[names[1]] = _outlined(after, regions)
            out.append({"id": reprint.new.id, "side": side,
                        "causes": [shown(c) for c in reprint.causes],
                        "before": names[0], "after": names[1]})
    # the rulebook's pages and the boards' pages that print differently, as --visual shows
    for n, (title, causes, before, after, where) in enumerate(diff.page_rasters):
        regions = changed_regions(before, after) if before and after else [(0.0, 0.0, 1.0, 1.0)]
        files = [f"changes/page-{n}-{k}.png" if png else "" for k, png in
                 (("before", before), ("after", after))]
        for name, png in zip(files, (before, after)):
            if png:
                images[name] = _outlined(png, regions)
        out.append({"id": shown(title), "side": "", "causes": [shown(c) for c in causes],
                    "before": files[0], "after": files[1], "where": list(where)})
    return out
