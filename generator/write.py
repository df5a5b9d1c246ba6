"""Stage 7, write: render imposed pages into PDF files, atomically and deterministically.

Each file is written to a temporary file beside its destination and renamed into
place only when every file of the set has been written, so a failed build never
leaves a half-written PDF and never removes the previous good one.

Same input, same bytes: reportlab runs in invariant mode, and SOURCE_DATE_EPOCH
is ignored (reportlab would otherwise stamp it into the file): cardgen's output
depends on the project's files only.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from reportlab.pdfgen.canvas import Canvas

from .impose import Page
from .layout.primitives import Face, Group
from .problems import CardgenError, ExitCode
from .render import draw_face, draw_items


class OutputError(CardgenError):
    """An output file could not be written (permissions, a full disk)."""

    exit_code = ExitCode.INTERNAL


@dataclass(frozen=True)
class PdfFile:
    path: Path
    pages: tuple[Page, ...]
    title: str
    subject: str
    initial_font: str  # a registered Japanese font: reportlab resets to it at every page
    duplex: str = "long-edge"


def _uses_transparency(items) -> bool:
    return any(isinstance(i, Group) and (i.opacity < 1 or _uses_transparency(i.items))
               for i in items)


@contextlib.contextmanager
def _no_source_date_epoch() -> Iterator[None]:
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def render_pdf(pdf: PdfFile, target) -> None:
    """Render `pdf` to `target` (a path or binary file object)."""
    with _no_source_date_epoch():
        first = pdf.pages[0] if pdf.pages else None
        c = Canvas(target, pagesize=(first.width, first.height) if first else (595, 842),
                   invariant=1, initialFontName=pdf.initial_font, pageCompression=1)
        c.setTitle(pdf.title)
        c.setSubject(pdf.subject)
        c.setCreator("cardgen")
        c.setViewerPreference("PrintScaling", "None")
        c.setViewerPreference(
            "Duplex", "DuplexFlipShortEdge" if pdf.duplex == "short-edge" else "DuplexFlipLongEdge")
        forms: dict[Face, str] = {}
        for page in pdf.pages:
            c.setPageSize((page.width, page.height))
            for placement in page.placements:
                # Each distinct face is drawn once, as a form that copies reuse; except a
                # face with transparency: reportlab leaves a form's ExtGState out of its
                # resources, so such a face is drawn in place.
                direct = _uses_transparency(placement.face.items)
                name = forms.get(placement.face)
                if name is None and not direct:
                    name = forms[placement.face] = f"face{len(forms)}"
                    b = placement.face.bleed
                    c.beginForm(name, -b, -b, placement.face.width + b, placement.face.height + b)
                    draw_face(c, placement.face)
                    c.endForm()
                c.saveState()
                c.translate(placement.x, placement.y)
                if placement.rotate == 90:  # counter-clockwise: the face's bottom edge on the right
                    c.translate(placement.face.height, 0)
                elif placement.rotate == -90:
                    c.translate(0, placement.face.width)
                c.rotate(placement.rotate)
                if direct:
                    draw_face(c, placement.face)
                else:
                    c.doForm(name)
                c.restoreState()
            draw_items(c, page.marks)
            c.showPage()
        c.save()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_files(files: list[PdfFile]) -> None:
    """Write every file of a set, or none of them."""
    temps: list[tuple[Path, Path]] = []
    current = files[0].path if files else None
    try:
        for pdf in files:
            current = pdf.path
            pdf.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{pdf.path.name}.", suffix=".tmp",
                                       dir=pdf.path.parent)
            temps.append((Path(tmp), pdf.path))
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; output is an ordinary file
            with os.fdopen(fd, "wb") as out:
                render_pdf(pdf, out)
                out.flush()
                os.fsync(out.fileno())
        for tmp, final in temps:
            current = final
            os.replace(tmp, final)
        temps.clear()
    except OSError as exc:
        raise OutputError(f"cannot write {current}: {exc.strerror or exc}; "
                          "previous output kept") from exc
    finally:
        for tmp, _ in temps:
            with contextlib.suppress(OSError):
                tmp.unlink()
