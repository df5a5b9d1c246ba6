"""Raster exports: card faces as PNG, rasterised from the same vector output as the PDFs.

Faces are drawn into a PDF in memory (one page per face, trim plus bleed) by the same
renderer as the print sheets, and pypdfium2 rasterises those pages: there is no second
renderer whose output could drift from the PDFs. Images are cached by content (the face's
finished primitives and the resolution), so an unchanged card is not rasterised again.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path


from ..impose import Page, single_face
from ..identity import face_identity
from ..paths import write_atomically
from ..primitives import Face
from .pdf import PdfFile, render_pdf
from .pdfium import opened


def face_key(face: Face, dpi: int, bleed: bool, shared: dict | None = None,
             transparent: bool = False) -> str:
    """The cache key of a face's picture: its identity (identity.py: what it draws,
    with the bytes of its images and fonts), the resolution, the bleed and whether what it
    leaves undrawn is transparent (a token cut to its shape)."""
    return f"{face_identity(face, shared)}-{dpi}-{int(bleed)}-r{RASTER}" + \
        ("-t" if transparent else "")


def identity_in(key: str) -> str:
    """The face identity a key of face_key starts with."""
    return key.split("-", 1)[0]


RASTER = 2  # how a picture is made (2: its size rounded, its dpi in the file): in every key,
# so a cache never gives a picture made the old way


def face_page(face: Face, bleed: bool = True) -> Page:
    return single_face(face, face.bleed if bleed else 0.0)[0]


def rasterise(pages: list[Page], dpi: int, font: str, transparent: bool = False) -> list[bytes]:
    """PNG bytes for each page, drawn through the PDF renderer and pypdfium2; with
    `transparent`, RGBA where nothing is drawn is transparent (else white RGB)."""
    if not pages:
        return []
    buffer = io.BytesIO()
    render_pdf(PdfFile(tuple(pages), "raster", "raster", font), buffer)
    return pdf_to_pngs(buffer.getvalue(), dpi, transparent)


BATCH_PIXELS = 4_000_000  # pixels rendered at one hold of pdfium's lock (12 MB in RGB):
# compressed after it is let go, so that neither a page's memory nor the lock's hold grows
# with the document (a rulebook of 100 pages, a chunk of 64 faces at 600 dpi)


def pdf_to_pngs(pdf: bytes, dpi: float, transparent: bool = False) -> list[bytes]:
    """Every page of a PDF as PNG bytes, rasterised by pypdfium2 (pdfium.opened: one
    thread at a time), BATCH_PIXELS at a hold, compressed after it."""
    fill, mode = ((255, 255, 255, 0), "RGBA") if transparent else ((255, 255, 255, 255), "RGB")
    images: list[bytes] = []
    while True:
        pictures: list = []  # (PIL images)
        with opened(pdf) as document:
            count, held = len(document), 0
            while len(images) + len(pictures) < count and held < BATCH_PIXELS:
                page = document[len(images) + len(pictures)]
                # pdfium rounds a page's pixels up (97 mm at 300 dpi: 1145.7 -> 1146, 61 mm:
                # 720.5 -> 721); the picture is the page's size rounded, as the docs give it
                size = tuple(max(1, round(v * dpi / 72.0)) for v in page.get_size())
                bitmap = page.render(scale=dpi / 72.0, fill_color=fill)
                picture = bitmap.to_pil().convert(mode)  # (a copy: pdfium's freed here)
                bitmap.close()
                page.close()
                if picture.size != size:
                    picture = picture.crop((0, 0, min(size[0], picture.width),
                                            min(size[1], picture.height)))
                pictures.append(picture)
                held += picture.width * picture.height
        for picture in pictures:
            out = io.BytesIO()
            picture.save(out, "PNG", dpi=(dpi, dpi))  # its resolution, for what opens it
            images.append(out.getvalue())
        if len(images) >= count:
            return images


# Faces are drawn CHUNK at a time: each chunk one PDF, rasterised by a worker process when
# there are several chunks (pdfium and PNG compression hold one core each), so that a large
# set uses every core and its progress is told as chunks finish.
CHUNK = 64
POOLED = 200 * 300 * 300  # the work (faces x dpi squared) worth a pool: 200 faces at 300 dpi


def workers() -> int:
    """The processes a large rasterising uses: one a core."""
    return max(1, os.cpu_count() or 1)


def _rasterised(missing: list, dpi: int, font: str, bleed: bool, transparent: bool):
    """(chunk, its PNGs) for each CHUNK of `missing` ((key, face) pairs), in their order:
    drawn here, or, for several chunks and several cores, by a pool of processes (each
    chunk's PDF is made here, its pixels there)."""
    chunks = [missing[i:i + CHUNK] for i in range(0, len(missing), CHUNK)]
    count = min(workers(), len(chunks))
    if count <= 1 or len(missing) * dpi * dpi < POOLED:  # starting processes costs more
        for chunk in chunks:
            yield chunk, rasterise([face_page(f, bleed) for _, f in chunk], dpi, font,
                                   transparent)
        return
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    # Forked where that is safe (Linux, no other thread); else spawned (the preview's
    # builder is a thread of a server), which needs a program whose main module can be
    # imported again without running: if a worker cannot start, the rest is drawn here.
    fork = sys.platform == "linux" and threading.active_count() == 1
    context = multiprocessing.get_context("fork" if fork else "spawn")
    done = 0
    try:
        with ProcessPoolExecutor(count, mp_context=context) as pool:
            pending = []
            for chunk in chunks:
                buffer = io.BytesIO()
                render_pdf(PdfFile(tuple(face_page(f, bleed) for _, f in chunk), "raster",
                                   "raster", font), buffer)
                pending.append((chunk, pool.submit(pdf_to_pngs, buffer.getvalue(), dpi,
                                                   transparent)))
                while len(pending) > 2 * count:  # drawn no further ahead than the pool takes
                    done_chunk, future = pending.pop(0)
                    yield done_chunk, future.result()
                    done += 1
            for done_chunk, future in pending:
                yield done_chunk, future.result()
                done += 1
    except (BrokenProcessPool, RuntimeError):
        for chunk in chunks[done:]:
            yield chunk, rasterise([face_page(f, bleed) for _, f in chunk], dpi, font,
                                   transparent)


def face_keys(faces: list[Face], dpi: int, bleed: bool, transparent: bool = False,
              known: dict | None = None) -> list[str]:
    """Each face's key (face_key). `known`, id of a face -> (the face, its key), gives the
    key of a face that an earlier call was given, the very object (incremental layout
    reuses them), unhashed; it is left holding this call's faces."""
    shared: dict = {}
    if known is None:
        return [face_key(f, dpi, bleed, shared, transparent) for f in faces]
    keys = []
    for f in faces:
        was = known.get(id(f))
        keys.append(was[1] if was is not None and was[0] is f else
                    face_key(f, dpi, bleed, shared, transparent))
    known.clear()  # the faces of this call (kept alive there, so their ids stay theirs)
    known.update((id(f), (f, k)) for f, k in zip(faces, keys))
    return keys


CACHE_BYTES = 2_000_000_000  # the picture cache folder's size, at most: then the oldest go
CACHE_PRUNED_TO = 0.8  # of CACHE_BYTES: what a pruning leaves, so that it is not every picture


def prune(cache: Path, keep: set[str], budget: int | None = None,
          since: float | None = None) -> int:
    """Keep the cache folder within `budget` bytes (CACHE_BYTES): where it holds more, the
    pictures not in `keep` (those of the faces just built) nor used `since` (a time: written
    or read since, as faces_to_png marks what it reads) are removed, the least recently used
    first, until it holds CACHE_PRUNED_TO of it. Every edit of a layout writes a new picture
    of each face: without this the folder only grows (gigabytes, for a big game edited for a
    day). The number removed; nothing where the folder cannot be read. Called once a build's
    pictures are all made (a build's decks, showcase and boards each ask apart)."""
    budget = CACHE_BYTES if budget is None else budget
    recent = int(since * 1e9) if since is not None else None
    entries = []
    try:
        with os.scandir(cache) as found:
            for entry in found:
                if entry.name.endswith(".png") and entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    entries.append((stat.st_mtime_ns, entry.name, stat.st_size))
    except OSError:  # (no folder yet, or one that cannot be read: nothing to prune)
        return 0
    total = sum(size for _when, _name, size in entries)
    if total <= budget:
        return 0
    removed = 0
    for _when, name, size in sorted(entries):
        if total <= budget * CACHE_PRUNED_TO:
            break
        if name[:-len(".png")] in keep or recent is not None and _when >= recent:
            continue
        try:
            os.unlink(cache / name)
        except OSError:  # (removed meanwhile, by another process's pruning)
            continue
        total -= size
        removed += 1
    return removed


def keep(cache: Path, key: str, image: bytes) -> None:
    """A picture put in the cache folder under its key: written whole or not at all, like
    every output."""
    cache.mkdir(parents=True, exist_ok=True)
    write_atomically(cache / f"{key}.png", lambda tmp: tmp.write_bytes(image))


def draw_into(cache: Path, missing: list, dpi: int, font: str, bleed: bool = True,
              transparent: bool = False):
    """Draw `missing` ((key, face) pairs) into the cache folder, on every core as
    faces_to_png does, keeping none of the pictures: yields the keys of each chunk as it is
    written (a caller that stops asking stops the drawing after the chunks under way)."""
    for chunk, images in _rasterised(missing, dpi, font, bleed, transparent):
        for (key, _face), image in zip(chunk, images):
            keep(cache, key, image)
        yield [key for key, _face in chunk]


def faces_to_png(faces: list[Face], dpi: int, font: str, cache: Path | None,
                 bleed: bool = True, transparent: bool = False,
                 counting=lambda done, total: None, memory: dict | None = None,
                 known: dict | None = None) -> list[bytes]:
    """PNG bytes for each face; faces found in `cache` (a folder) are not drawn again.
    With `transparent`, what a face leaves undrawn is transparent (a token cut to shape).
    `counting(done, total)` hears how many of the faces to draw are drawn. `memory`, a
    process's own dict of key -> PNG (the preview's), is looked in first and kept up to
    date: a save of one card of 10,000 reads no file of the others. `known` (the
    preview's), id of a face -> (the face, its key), gives the key of a face that an
    earlier call was given, the very object (incremental layout reuses them), unhashed."""
    keys = face_keys(faces, dpi, bleed, transparent, known)
    found: dict[str, bytes] = {}
    memory = {} if memory is None else memory
    for key in set(keys):
        if key in memory:
            found[key] = memory[key]
        elif cache is not None:
            path = cache / f"{key}.png"
            try:
                found[key] = path.read_bytes()
                os.utime(path)  # used now: the last a pruning takes (prune)
            except OSError:  # not drawn yet (or pruned meanwhile: drawn again)
                pass
    missing = [(k, f) for k, f in dict(zip(keys, faces)).items() if k not in found]
    drawn = 0
    for chunk, images in _rasterised(missing, dpi, font, bleed, transparent):
        for (key, _), image in zip(chunk, images):
            found[key] = image
            if cache is not None:
                keep(cache, key, image)
        drawn += len(chunk)
        counting(drawn * len(faces) // len(missing), len(faces))  # (in faces, duplicates too)
    counting(len(faces), len(faces))  # every face: drawn now, or found drawn before
    if memory is not None:
        memory.clear()  # what this set of faces uses, no more: memory stays the game's size
        memory.update(found)
    return [found[k] for k in keys]
