"""The preview's view of what prints differently since a revision (`serve --changes-since`):
the same diff and the same changed regions as `cardgen diff --visual`, made again at every
save from the build the preview just made, against the revision's side, which is read,
checked and laid out once per server run (and again only when the name comes to mean
another commit: `HEAD` after a commit)."""

from __future__ import annotations

import subprocess
import threading
from typing import TYPE_CHECKING

from ..i18n import _, shown

if TYPE_CHECKING:
    from ..diff import Revision

KEPT = 2  # revisions kept laid out at once (a server follows one; tests start several)
_revisions: dict[tuple, Revision] = {}  # (project root, game, commit) -> diff.Revision
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


def revision(project, game: str, since: str) -> Revision:
    """The game at `since`, laid out once (diff.Revision) and kept for the next saves."""
    from ..diff import Revision
    key = (str(project.root), game, _commit(project, since))
    with _lock:
        found = _revisions.pop(key, None)
        if found is None:
            found = Revision(project, game, since)
        _revisions[key] = found  # the last used last
        while len(_revisions) > KEPT:
            _revisions.pop(next(iter(_revisions))).close()
        return found


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
        diff = revision(project, game, since).diff(faces, markdown, visual=True, pdf=pdf)
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
