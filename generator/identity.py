"""One identity for what a face prints.

A face's identity is a digest of everything it draws, after layout: every item's final
values (positions, texts, colours, sizes), the digest of the bytes of every image it
places (primitives.Image.file_digest), and its fonts, whose registered names carry a digest
of the font file's table directory (fonts.register). Two faces with the same identity
print the same; any change that shows on paper changes it, whatever caused it: a card
field, a data table, a layout, a macro, a font or an image.

`cardgen diff`, errata sets (`build --changed-since`), the PNG cache behind `--png`,
`--tts` and `serve`, and the grouping of backs all ask this one question through here; the
preview's sheet view asks it of imposed pages (page_identity).
"""

from __future__ import annotations

import hashlib

from .primitives import Face, Image, Text, item_digest, leaves


def face_identity(face: Face, shared: dict | None = None) -> str:
    """The face's identity. `shared` (id of a Block -> its digest) lets the faces of one
    build hash a block they share once."""
    h = hashlib.sha256(repr((face.width, face.height, face.bleed)).encode())
    for item in face.items:
        h.update(item_digest(item, shared))
    return h.hexdigest()[:24]


def page_identity(page, shared: dict | None = None, known: dict | None = None) -> str:
    """The identity of an imposed page (impose.Page: its size, its marks and each face it
    places, where and how): two pages with the same identity print the same. `known`, id
    of a face -> (the face, its identity), gives those already computed (the preview's)."""
    h = hashlib.sha256(repr((page.width, page.height)).encode())
    for placed in page.placements:
        was = known.get(id(placed.face)) if known is not None else None
        face = was[1] if was is not None and was[0] is placed.face else \
            face_identity(placed.face, shared)
        h.update(repr((face, placed.x, placed.y, placed.rotate, placed.bleed,
                       placed.clip)).encode())
    for item in page.marks:
        h.update(item_digest(item, shared))
    return h.hexdigest()[:24]


def images_of(face: Face, root: str = "") -> dict[str, str]:
    """The image files a face places: path (relative to `root` when inside it) -> digest of
    its bytes."""
    prefix = root.rstrip("/") + "/" if root else None
    found: dict[str, str] = {}
    for item in leaves(face.items):
        if isinstance(item, Image):
            path = item.path
            if prefix and path.startswith(prefix):
                path = path[len(prefix):]
            found[path] = item.file_digest
    return found


def fonts_of(face: Face) -> set[str]:
    """The registered font names a face sets text in."""
    return {item.font for item in leaves(face.items) if isinstance(item, Text)}
