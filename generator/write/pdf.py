"""Rendering imposed pages into a PDF with reportlab."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence, ValuesView
from typing import Any
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import (PDFArray, PDFBase85Encode, PDFDictionary, PDFName,
                                      PDFObject, PDFPage, PDFResourceDictionary, PDFStream,
                                      PDFZCompress)
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from .. import fonts
from ..impose import Page, Placement
from ..primitives import Block, Face, Group, Text
from ..draw import draw_face, draw_items
from ..identity import face_identity, item_digest
from ..reproducible import keywords, making_pdf, pdf_date
from ..units import paper_size


@dataclass(frozen=True)
class PdfFile:
    pages: tuple[Page, ...]
    title: str
    subject: str
    initial_font: str  # a registered Japanese font: reportlab resets to it at every page
    duplex: str = "long-edge"
    boxes: tuple = ()  # per page: (trim box, bleed box) in points, for print-ready single cards
    version: str = ""  # the game's version: in the document's keywords
    revised: str = ""  # the game's revision date (ISO 8601 UTC): the document's dates


def _uses_transparency(items) -> bool:
    return any((isinstance(i, Group) and i.opacity < 1) or
               (isinstance(i, (Group, Block)) and _uses_transparency(i.items)) for i in items)


EMPTY_PAGE = paper_size("A4")  # a document without pages (never written)
FORM_COST = 400  # bytes, roughly: a form's object, dictionary and resources


def _weight(items) -> int:
    """Roughly how many bytes of content stream the items take (primitives.PROTOCOL)."""
    return sum(i.weight() for i in items)


class _Forms:
    """Which faces and blocks a document draws as forms, and the forms made so far.

    A face placed more than once (copies, one back for many cards) is drawn once, as a
    form its placements reuse; so is a block (see Block) that more than one drawing of a
    face uses. What is drawn once is drawn in place: a form would cost an extra object and
    nothing would reuse it. Nothing with transparency is a form: reportlab leaves a form's
    ExtGState out of its resources.

    Faces and blocks are told apart by what they print (identity.py), the identity that
    diff, errata and the PNG cache use: two faces that print the same share one form,
    whichever objects hold them. The identity (a digest) is computed only for faces and
    blocks that may print alike, those whose values hash alike; the rest are alone."""

    def __init__(self, pages: Sequence[Page]) -> None:
        self._digests: dict = {}  # id(block) -> (block, digest): identity's shared cache
        self._transparent: dict[object, bool] = {}
        faces = [placement.face for page in pages for placement in page.placements]
        blocks = [item for face in {id(f): f for f in faces}.values() for item in face.items
                  if type(item) is Block]
        # A face's hash would hash each of its blocks again (a dataclass keeps no hash), and
        # most faces share their blocks: each block is hashed once, and a face by its blocks'.
        # So is its rough key (_rough), which is all most faces and blocks need: its hash is
        # kept (equal for equal keys; the keys themselves are 30,000 tuples at 10,000 cards).
        roughs = {id(b): hash(_rough(b)) for b in {id(b): b for b in blocks}.values()}
        hashes: dict[int, int] = {}

        def block_hash(block: Block) -> int:
            found = hashes.get(id(block))
            if found is None:
                found = hashes[id(block)] = hash(block)
            return found

        def face_rough(face: Face) -> int:
            return hash((face.width, face.height, face.bleed, tuple([
                roughs[id(i)] if type(i) is Block else _rough(i) for i in face.items])))

        def face_hash(face: Face) -> int:
            return hash((face.width, face.height, face.bleed, tuple(
                block_hash(i) if type(i) is Block else hash(i) for i in face.items)))
        self._face_keys = _keys(faces, lambda face: face_identity(face, self._digests),
                                face_hash, face_rough)
        self.face_uses = Counter(self._face_keys[id(face)] for face in faces)
        distinct: dict[object, Face] = {}
        for face in faces:
            distinct.setdefault(self._face_keys[id(face)], face)
        self._block_keys = _keys(blocks, lambda block: item_digest(block, self._digests),
                                 block_hash, lambda block: roughs[id(block)])
        self.block_uses: Counter = Counter()
        for key, face in distinct.items():
            drawn = 1 if self.face_form(face) else self.face_uses[key]  # a form: once
            for item in face.items:
                if type(item) is Block:
                    self.block_uses[self._block_keys[id(item)]] += drawn
        self.blocks_named: set[int] = set()  # id of each face whose blocks are named
        self.faces: dict[object, str] = {}  # face key -> form name
        self._block_forms: dict[object, str] = {}  # block key -> form name
        self.blocks: dict[int, str] = {}  # id(block) -> form name, for draw.draw_items

    def identity(self, face: Face) -> object:
        return self._face_keys[id(face)]

    def _block(self, block: Block) -> object:
        return self._block_keys[id(block)]

    def face_form(self, face: Face) -> bool:
        key = self.identity(face)
        if self.face_uses[key] < 2:
            return False
        if key not in self._transparent:
            self._transparent[key] = _uses_transparency(face.items)
        return not self._transparent[key]

    def _pays(self, block: Block) -> bool:
        """A form costs FORM_COST; each reuse after the first saves the block's drawing."""
        uses = self.block_uses.get(self._block(block), 0)
        return uses > 1 and (uses - 1) * _weight(block.items) > FORM_COST

    def make_blocks(self, c: Canvas, face: Face) -> None:
        """The forms of the face's shared blocks, made before the face is drawn (forms are
        not made inside forms), and which of its blocks they draw."""
        if id(face) in self.blocks_named:
            return
        self.blocks_named.add(id(face))
        keys, uses = self._block_keys, self.block_uses
        for item in face.items:
            if type(item) is not Block:
                continue
            key = keys[id(item)]
            if uses[key] < 2:  # drawn once: in place (and never a form: see _pays)
                continue
            name = self._block_forms.get(key)
            if name is None and self._pays(item) and not _uses_transparency(item.items):
                name = self._block_forms[key] = f"block{len(self._block_forms)}"
                w, h = face.width, face.height  # a generous box: the placement clips
                c.beginForm(name, -w, -h, 2 * w, 2 * h)
                draw_items(c, item.items)
                c.endForm()
            if name is not None:
                self.blocks[id(item)] = name

    def face(self, c: Canvas, face: Face) -> str | None:
        """The face's form name, made on first use; None if the face is drawn in place."""
        if not self.face_form(face):
            return None
        key = self.identity(face)
        name = self.faces.get(key)
        if name is None:
            name = self.faces[key] = f"face{len(self.faces)}"
            b = face.bleed
            c.beginForm(name, -b, -b, face.width + b, face.height + b)
            draw_face(c, face, bleed=True, clip=False, forms=self.blocks)  # BBox clips a form
            c.endForm()
        return name


def _rough(item) -> object:
    """A cheap stand-in for an item's hash, equal for items that print the same: a text's
    characters, a block's items' rough keys, the kind of anything else. Two items that
    print the same have the same values (identity.py digests their values), so equal
    rough keys; most items of a deck have a rough key of their own, as their texts are."""
    kind = type(item)
    if kind is Text:
        return item.text
    if kind is Block:
        return tuple([i.text if type(i) is Text else _rough(i) for i in item.items])
    return kind


def _keys(objects, identity, hash_of=hash, rough=None) -> dict[int, object]:
    """A key for each object (by id) that is equal for objects that print the same: their
    identity where another object's values hash alike (`hash_of`: equal for equal objects),
    a key of its own otherwise (its id: no ("same", ...) key is an int). With `rough` (a
    cheaper function, equal for objects that print the same), only objects whose rough
    keys are alike are hashed: the rest are alone."""
    distinct = {id(o): o for o in objects}
    keys: dict[int, object] = {}
    for rough_group in (_groups(distinct.items(), rough) if rough is not None
                        else [list(distinct.items())]):
        if len(rough_group) == 1:
            key = rough_group[0][0]
            keys[key] = key  # (alone: its id, the int object the dict holds already)
            continue
        for group in _groups(rough_group, hash_of):
            for key, o in group:
                keys[key] = ("same", identity(o)) if len(group) > 1 else key
    return keys


def _groups(pairs: Iterable[tuple[int, Any]],
            key_of: Callable[[Any], object]) -> ValuesView[list]:
    """The (id, object) pairs grouped by key_of(object)."""
    groups: dict[object, list] = {}
    for key, o in pairs:
        groups.setdefault(key_of(o), []).append((key, o))
    return groups.values()


def _place(c: Canvas, placement: Placement, form: str | None, blocks) -> None:
    face = placement.face
    turned = placement.rotate in (90, -90)
    slot_w, slot_h = (face.height, face.width) if turned else (face.width, face.height)
    left, bottom, right, top = placement.bleed
    clip = placement.clip if placement.clip is not None else (
        placement.x - left, placement.y - bottom, slot_w + left + right, slot_h + bottom + top)
    if not placement.rotate:
        if form is not None:
            _place_form(c, clip, placement.x, placement.y, form)
            return
        c.saveState()
        _clip_and_move(c, clip, placement.x, placement.y)
        draw_face(c, face, bleed=True, clip=False, forms=blocks)  # the placement's clip holds it
        c.restoreState()
        return
    c.saveState()
    path = c.beginPath()
    path.rect(*clip)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(placement.x, placement.y)
    if placement.rotate == 90:  # counter-clockwise: the face's bottom edge on the right
        c.translate(face.height, 0)
    elif placement.rotate == -90:
        c.translate(0, face.width)
    c.rotate(placement.rotate)
    if form is None:
        draw_face(c, face, bleed=True, clip=False, forms=blocks)
    else:
        c.doForm(form)
    c.restoreState()


# The operators of a placement's clip and move, by (clip, x, y, clip rule): a deck's
# sheets place their faces at the same few slots page after page, and each placement
# formatted its ten numbers anew.
_MOVES: dict[tuple, tuple[str, str]] = {}
MOVES_KEPT = 1000  # at most (then it starts again)


def _clip_and_move_code(c: Canvas, clip: tuple, x: float, y: float) -> tuple[str, str]:
    """What a clipping rectangle (beginPath, rect, clipPath) and translate(x, y) write."""
    rule = "W*" if c._fillMode == FILL_EVEN_ODD else "W"  # as clipPath chooses: the path's mode
    key = (clip, x, y, rule)
    code = _MOVES.get(key)
    if code is None:
        if len(_MOVES) >= MOVES_KEPT:
            _MOVES.clear()
        code = _MOVES[key] = (f"n {fp_str(clip)} re {rule} n",  # a new path, clip, no paint
                              f"{fp_str(1, 0, 0, 1, x, y)} cm")
    return code


def _clip_and_move(c: Canvas, clip: tuple, x: float, y: float) -> None:
    """What a clipping rectangle and translate(x, y) write, and the matrix translate
    keeps, written at once (the same strings, so the same bytes): an upright face drawn in
    place, in a graphics state saved for it. (tests/test_sheets.py compares the two ways.)"""
    c._code.extend(_clip_and_move_code(c, clip, x, y))
    a0, b0, c0, d0, e0, f0 = c._currentMatrix  # as transform(1, 0, 0, 1, x, y) keeps it
    c._currentMatrix = (a0 * 1 + c0 * 0, b0 * 1 + d0 * 0, a0 * 0 + c0 * 1, b0 * 0 + d0 * 1,
                        a0 * x + c0 * y + e0, b0 * x + d0 * y + f0)


def _place_form(c: Canvas, clip: tuple, x: float, y: float, form: str) -> None:
    """An upright placement of a form: the operators saveState, a clipping rectangle,
    translate, doForm and restoreState write (the same strings, so the same bytes), written
    at once. Most placements of a deck are forms (its backs, its copies); reportlab's calls
    would save and restore its whole drawing state around each, and nothing between them
    changes it. (tests/test_sheets.py compares the two ways.)"""
    code = c._code
    code.append("q")
    code.extend(_clip_and_move_code(c, clip, x, y))
    c.doForm(form)
    code.append("Q")


def _pack_page(c: Canvas) -> None:
    """Encode the page just shown now, as reportlab would when the file is saved (the same
    filters applied in the same order, so the same bytes): a document keeps every page
    until it is saved, and a page's content compressed takes a fifth of the memory of its
    text."""
    page = c._doc.Pages.pages[-1]
    if page.Contents or not page.stream or not page.compression:
        return
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    content = page.stream
    for f in reversed(filters):
        content = f.encode(content)
    page.Contents = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName(f.pdfname)
                                                                 for f in filters])}), content)
    page.stream = None


class _Once(PDFObject):
    """A direct PDF object (an array, a dictionary) that many objects of a document hold
    alike, held by them all as one object and formatted once when the file is saved, as
    reportlab formats it: a deck's pages are alike, and reportlab formatted each page's
    resources and boxes anew (half of saving a deck's file)."""

    def __init__(self, thing: PDFObject) -> None:
        self.thing: PDFObject | None = thing
        self.done = b""

    def format(self, document) -> bytes:
        if self.thing is not None:  # the first time: as reportlab formats it
            self.done, self.thing = self.thing.format(document), None
        return self.done


def _resources(page: PDFPage) -> PDFResourceDictionary:
    """A page's resources as reportlab makes them when the file is saved (PDFPage's
    check_format), for a page that uses no transparency, colour space or shading."""
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if page.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if page.XObjects:
        resources.XObject = page.XObjects
    return resources


BOXES = ("CropBox", "ArtBox", "BleedBox", "TrimBox")  # as showPage sets them


def _share_formatting(c: Canvas, shared: dict) -> None:
    """Give the page just shown the resources and boxes of the pages alike (`shared`, the
    document's: what they print -> _Once): its media box as check_format makes it, the
    boxes showPage gave it, and its resources, unless it uses what only its own resources
    say (transparency, colour spaces, shadings), which reportlab makes when the file is
    saved. (tests/test_sheets.py compares the files with and without.)"""
    page = c._doc.Pages.pages[-1]
    if not (page.Resources or page.ExtGState or page._colorsUsed or page._shadingUsed):
        key = ("resources", bool(page.hasImages),
               tuple(page.XObjects.dict) if page.XObjects else ())
        if key not in shared:
            shared[key] = _Once(_resources(page))
        page.Resources = shared[key]
    if not page.MediaBox:
        w, h = page.pagewidth, page.pageheight
        page.MediaBox = PDFArray([0, 0, h, w] if page.Rotate in (90, 270) else [0, 0, w, h])
    for name in ("MediaBox",) + BOXES:
        box = getattr(page, name)
        if type(box) is PDFArray:
            box_key = ("box", repr(box.sequence))  # (numbers: equal reprs, equal bytes)
            if box_key not in shared:
                shared[box_key] = _Once(box)
            setattr(page, name, shared[box_key])


def render_pdf(pdf: PdfFile, target) -> None:
    """Render `pdf` to `target` (a path or binary file object)."""
    with making_pdf():
        first = pdf.pages[0] if pdf.pages else None
        c = Canvas(target, pagesize=(first.width, first.height) if first else EMPTY_PAGE,
                   invariant=1, initialFontName=fonts.ensure(pdf.initial_font), pageCompression=1)
        c.setTitle(pdf.title)
        c.setSubject(pdf.subject)
        c.setCreator("cardgen")
        if pdf.version:
            c.setKeywords(keywords(pdf.version))
        date = pdf_date(pdf.revised)
        c.setDateFormatter(lambda *_ymdhms: date)
        c.setViewerPreference("PrintScaling", "None")
        c.setViewerPreference(
            "Duplex", "DuplexFlipShortEdge" if pdf.duplex == "short-edge" else "DuplexFlipLongEdge")
        forms = _Forms(pdf.pages)
        shared: dict[tuple, _Once] = {}  # what the pages alike hold (_share_formatting)
        for n, page in enumerate(pdf.pages):
            c.setPageSize((page.width, page.height))
            if pdf.boxes:
                trim, bleed = pdf.boxes[n]
                c.setTrimBox(trim)
                c.setBleedBox(bleed)
            for placement in page.placements:
                forms.make_blocks(c, placement.face)
                _place(c, placement, forms.face(c, placement.face), forms.blocks)
            draw_items(c, page.marks)
            c.showPage()
            _pack_page(c)
            _share_formatting(c, shared)
        c.save()
