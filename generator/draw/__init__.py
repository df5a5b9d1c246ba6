"""Drawing: the library that puts finished primitives on a reportlab canvas.

Not a stage: `write` calls it to draw imposed pages, and the rulebook calls it to draw
its pages and the card faces it shows. It receives only final values (positions,
fonts, sizes, colours); it measures and decides nothing.
"""

from __future__ import annotations

import weakref
from typing import Mapping

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .. import fonts
from ..primitives import Block, Face, Image, Item, Text


class _MaskedImage(ImageReader):
    """A picture whose transparency is a separate grey image (a CMYK picture, which has
    no alpha channel of its own): reportlab writes the mask as the picture's SMask."""

    def __init__(self, path: str, mask: str):
        super().__init__(path)
        self._mask_path = mask

    def getRGBData(self):
        data = super().getRGBData()
        self._dataA = ImageReader(self._mask_path)
        return data


def _set_fill(target, color) -> None:
    if len(color) == 4:
        target.setFillColorCMYK(*color)
    else:
        target.setFillColorRGB(*color)


def _set_stroke(c: Canvas, color, width: float, dash: tuple) -> None:
    if len(color) == 4:
        c.setStrokeColorCMYK(*color)
    else:
        c.setStrokeColorRGB(*color)
    c.setLineWidth(width)
    c.setDash(list(dash) if dash else [])


class Pen:
    """What a primitive draws with (primitives.PROTOCOL's `draw(canvas, pen)`): the fill
    and stroke the content stream has set, so that a colour is written once for a run of
    items that share it (`None`: not known, a new stream or a new form), and the drawing
    of what needs the library: text in the document's fonts, pictures, nested items."""

    __slots__ = ("fill", "stroke")

    def __init__(self, fill=None, stroke=None):
        self.fill, self.stroke = fill, stroke

    def fill_with(self, target, color) -> None:
        if color != self.fill:
            _set_fill(target, color)
            self.fill = color

    def stroke_with(self, c: Canvas, color, width: float, dash: tuple) -> None:
        if (color, width, dash) != self.stroke:
            _set_stroke(c, color, width, dash)
            self.stroke = (color, width, dash)

    def paint(self, c: Canvas, item) -> tuple[int, int]:
        """Set a shape's fill and stroke; (stroke, fill) as reportlab's flags."""
        if item.fill is not None:
            self.fill_with(c, item.fill)
        if item.stroke is not None:
            self.stroke_with(c, item.stroke, item.stroke_width, item.dash)
        return int(item.stroke is not None), int(item.fill is not None)

    def text(self, c: Canvas, item: Text) -> None:
        if item.rotate:
            c.saveState()  # the colour set inside is undone by the restore
            c.translate(item.x, item.y)
            c.rotate(item.rotate)
            _draw_texts(c, [Text(0.0, 0.0, item.text, item.font, item.size, item.color,
                                 item.anchor, item.char_space, 0.0, item.scale)],
                        Pen(self.fill, self.stroke))
            c.restoreState()
        else:
            _draw_texts(c, [item], self)

    def image(self, c: Canvas, item: Image) -> None:
        if item.mask:
            c.drawImage(_MaskedImage(item.path, item.mask), item.x, item.y, item.w, item.h,
                        mask="auto")
        else:
            c.drawImage(item.path, item.x, item.y, item.w, item.h, mask="auto")

    def items(self, c: Canvas, items) -> None:
        """Items drawn in the pen's state, which they go on changing."""
        draw_items(c, items, self)

    def inner(self, c: Canvas, items) -> None:
        """Items drawn inside a saved graphics state: what they set is undone after."""
        draw_items(c, items, Pen(self.fill, self.stroke))


def _flat(items, forms, out: list) -> list:
    """The items, with each Block that is not drawn as a form opened in place (into `out`)."""
    for item in items:
        if type(item) is Block and id(item) not in forms:
            _flat(item.items, forms, out)
        else:
            out.append(item)
    return out


def draw_items(c: Canvas, items, pen: Pen | None = None, forms: Mapping[int, str] = {}) -> None:
    """Draw items in order. Consecutive upright texts share one PDF text object; a Block
    named in `forms` (id -> form name) is drawn by its form."""
    pen = Pen() if pen is None else pen
    texts: list[Text] = []
    for item in _flat(items, forms, []):
        if type(item) is Text and not item.rotate:
            texts.append(item)
            continue
        if texts:
            _draw_texts(c, texts, pen)
            texts = []
        if type(item) is Block:
            c.doForm(forms[id(item)])  # a form draws in a saved graphics state: pen unchanged
        else:
            item.draw(c, pen)  # (draw_item)
    if texts:
        _draw_texts(c, texts, pen)


# What a document's text objects wrote before, by document: the runs, (font, size, leading,
# the font subset in use, text) -> (what reportlab's textLine wrote, the subset in use
# after), and the origins, (x, y) -> what setTextOrigin writes. A run's operators depend on
# the document's font subsets, which only grow (a character keeps the code it was given), so
# a run drawn again in the same document writes the same. Runs recur (a card game's phrases,
# the parts of a line cut at its punctuation), and so do their origins (a layout's lines
# start at a few places): each is formatted once a document.
_WRITTEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
RUNS_KEPT = 5000  # runs (and origins) kept a document, at most (then they start again)


def _draw_texts(c: Canvas, texts: list[Text], pen: Pen) -> None:
    t = c.beginText()
    written = _WRITTEN.get(t._doc)
    if written is None:
        written = _WRITTEN[t._doc] = ({}, {})
    runs: dict[tuple, tuple[str, int]] = written[0]
    origins: dict[tuple[float, float], str] = written[1]
    # What t.setTextOrigin(x, y) writes, written at once: each run sets its origin, and the
    # text cursor that setTextOrigin and textLine keep is read by neither (a deck draws
    # 200,000 runs: the calls were a tenth of writing its PDFs).
    origin = "1 0 0 1 %s Tm" if c.bottomup else "1 0 0 -1 %s Tm"
    code = t._code
    font = size = style = None
    space = 0.0
    scale = 1.0
    for item in texts:
        if item.font != font or item.size != size:
            font, size = item.font, item.size
            t.setFont(fonts.ensure(font), size)
            style = (t._fontname, t._fontsize, t._leading)
        x, y = item.x, item.y
        if item.anchor != "start":
            width = fonts.run_width(item.text, font, size, item.scale, item.char_space)
            x -= width / 2 if item.anchor == "middle" else width
        at = origins.get((x, y))
        if at is None:
            if len(origins) >= RUNS_KEPT:
                origins.clear()
            at = origins[x, y] = origin % fp_str(x, y)
        code.append(at)
        if item.char_space != space:
            t.setCharSpace(item.char_space)
            space = item.char_space
        if item.scale != scale:  # condensed glyphs (長体): Tz, in percent
            t.setHorizScale(item.scale * 100)
            scale = item.scale
        if item.color != pen.fill:
            pen.fill_with(t, item.color)
        # t.textLine(item.text) (as drawString does), from the document's runs where it
        # was drawn before (the cursor textLine moves is set anew before the next run)
        key = (style, t._curSubset, item.text)
        done = runs.get(key)
        if done is None:
            t.textLine(item.text)
            if len(runs) >= RUNS_KEPT:
                runs.clear()
            runs[key] = (code[-1], t._curSubset)
        else:
            code.append(done[0])
            t._curSubset = done[1]
    if space:  # character spacing outlives the text object: put it back
        t.setCharSpace(0)
    if scale != 1.0:  # and so does the horizontal scale
        t.setHorizScale(100)
    c.drawText(t)


def draw_item(c: Canvas, item: Item, pen: Pen | None = None) -> None:
    """Draw one primitive, of any kind (primitives.PROTOCOL): it draws itself with the pen."""
    item.draw(c, Pen() if pen is None else pen)


def draw_face(c: Canvas, face: Face, bleed: bool = False, clip: bool = True,
              forms: Mapping[int, str] = {}) -> None:
    """Draw a face clipped to its trim box (or, with `bleed`, to its bleed box), so
    nothing spills onto a neighbour. `clip=False` when the caller clips already (and saves
    and restores the graphics state around it)."""
    if not clip:
        draw_items(c, face.items, forms=forms)
        return
    c.saveState()
    b = face.bleed if bleed else 0.0
    path = c.beginPath()
    path.rect(-b, -b, face.width + 2 * b, face.height + 2 * b)
    c.clipPath(path, stroke=0, fill=0)
    draw_items(c, face.items, forms=forms)
    c.restoreState()
