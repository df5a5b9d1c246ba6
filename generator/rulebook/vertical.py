"""The rulebook set in vertical writing (縦書き, `rulebook: writing: vertical`).

A page holds its text in 段 (bands) from the top; in each band the lines run down and
follow each other from the right, as JLREQ sets a vertical book. Platypus stacks what
it sets from the top of a frame down, so each band is a `RotatedFrame`: a frame turned
a quarter turn, whose "top" is the band's right edge and whose width is the length of a
line. What is set in one is drawn turned back upright:

- paragraphs and headings (`VText`) set their lines vertically, justified down the line,
  with the card text's vertical forms, tate-chu-yoko for two-digit numbers and ruby;
- tables keep their cells' text vertical: a row becomes a strip read from the right,
  its cells one below the other (the header strip first), as a vertical book's tables;
- lists: the marker at the top of the line, the item indented under it;
- card faces are figures (`Upright`): upright, as many side by side as the band holds;
- the contents list gives each heading a line, leaders (…) down to its page number at
  the foot.

The booklet is imposed for binding on the right (右綴じ): rulebook/booklet.py.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, Frame, Spacer, Table
from reportlab.platypus.tableofcontents import TableOfContents

from ..draw import draw_items
from ..primitives import Face
from ..textflow import Box, break_lines, place_vertical
from .tables import table_style
from .faces import Faces
from .typeset import Heading, JText, Typesetter

# Where a vertical line of each alignment sits along its column.
_ALONG = {"justify": "top", "left": "top", "center": "middle", "right": "bottom"}


class RotatedFrame(Frame):
    """A frame of a band of vertical text: platypus's frame laid on the band turned a
    quarter turn clockwise, so that it fills the band from its right edge to its left."""

    def __init__(self, left: float, bottom: float, right: float, top: float, **kwargs):
        # Under a -90° rotation, the page point (x, y) is (-y, x) in the frame's space.
        super().__init__(-top, left, top - bottom, right - left, leftPadding=0,
                         rightPadding=0, topPadding=0, bottomPadding=0, **kwargs)

    def add(self, flowable, canv, trySplit=0):
        canv.saveState()
        canv.rotate(-90)
        try:
            return super().add(flowable, canv, trySplit)
        finally:
            canv.restoreState()


class _Down:
    """What makes a paragraph vertical: lines broken down the column, drawn upright."""

    vertical = True

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.rotate(90)  # back upright: the flowable's top-left corner is the origin
        items = place_vertical(self._lines, self.size, self.leading,
                               Box(0, -self.width, self.height, self.width), "right",
                               _ALONG.get(self.align, "top"), self.font,
                               justify=self.align == "justify")
        draw_items(canv, items)
        canv.restoreState()


class VText(_Down, JText):
    """A paragraph in vertical writing."""


class VHeading(_Down, Heading):
    """A heading in vertical writing."""


VText.piece = VHeading.piece = VText


class Upright(Flowable):
    """A figure in a band of vertical text: drawn upright, taking the band's width for as
    long as it is (`across`: the band's width, its room side by side)."""

    def __init__(self, content: Flowable, across: float):
        super().__init__()
        self.content, self.across = content, across

    def _measure(self, length: float) -> tuple[float, float]:
        w, h = self.content.wrap(self.across, length)
        width = getattr(self.content, "drawn_width", lambda: w)()
        return width, h

    def wrap(self, available_width, available_height):
        w, h = self._measure(available_width)
        self.width, self.height = h, w  # along the line, and across the band
        if h > available_width + 1e-6:  # longer than a line: a frame checks only the height,
            return self.width, 1e9      # so it is told the figure does not fit, and splits it
        return self.width, self.height

    def split(self, available_width, available_height):
        """A figure longer than a line is split where its content splits (rows of faces)."""
        w, h = self._measure(available_width)
        if h <= available_width + 1e-6 or w > available_height + 1e-6:
            return []  # whole, or in the next band: this one has not the width its rows take
        return [Upright(part, self.across)  # (a face made as long as a line fits it)
                for part in self.content.split(self.across, available_width + 1e-6)]

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.rotate(90)
        # Upright, the figure's top-right corner is the band's right edge at the line's start.
        self.content.drawOn(canv, 0, -self.width)
        canv.restoreState()




class UprightFaces(Faces):
    """Card faces as a figure of vertical text: only as wide as their rows."""

    def drawn_width(self) -> float:
        return self.rows_width()

    def split(self, available_width, available_height):
        return [UprightFaces(p.faces, p.gap, p.max_scale, p.names, p.side)
                for p in super().split(available_width, available_height)]


LEADER = "…"  # the contents' leaders: in the font's vertical form, dots down the line


class VEntry(VText):
    """A contents entry in vertical writing: the heading down the line, its page number at
    the line's foot, and leaders (…) from the heading's end to the number."""

    def __init__(self, text: JText, number: JText, leader: JText):
        super().__init__(text.atoms, text.size, text.line_spacing, text.font, "left",
                         plain=text.plain)
        self.number, self.leader = number, leader

    def wrap(self, available_width, available_height):
        self.number.wrap(available_width, 1e9)
        self._number = numbers = self.number._lines
        room = (sum(numbers[0].widths) if numbers else 0.0) + self.size  # number, gap
        super().wrap(available_width - room, available_height)
        self.width = available_width
        return self.width, self.height

    def draw(self):
        super().draw()
        lines = self._lines
        if not lines or not self._number:
            return
        size, lh = self.size, self.leading
        number = sum(self._number[0].widths)
        last = len(lines) - 1  # the last line's column: the number at its foot
        end = sum(lines[-1].widths) + size / 2  # where the heading ends, and a gap
        count = int((self.width - number - size / 2 - end) // size)
        canv = self.canv
        canv.saveState()
        canv.rotate(90)
        column = Box(0, -self.width, self.height - last * lh, self.width)
        items = place_vertical(self._number, size, lh, column, "right", "bottom", self.font)
        if count > 0:
            dots = break_lines(self.leader.atoms * count, size, 1e9, True) or []
            items += place_vertical(dots, size, lh, Box(0, -self.width + number + size / 2,
                                                         column.w, self.width - number - size / 2),
                                    "right", "bottom", self.font)
        draw_items(canv, items)
        canv.restoreState()


class VContents(TableOfContents):
    """The contents list in vertical writing: each entry a line from the top, its page
    number at the foot of the line."""

    def __init__(self, setter: "VerticalTypesetter"):
        super().__init__()
        self.setter = setter
        self.entries: list = []  # (level, text, page, key), as this pass finds them
        self.shown: list = []  # as the pass before found them: what this pass sets

    def addEntry(self, level, text, pageNum, key=None):
        self.entries.append((level, text, pageNum, key))
        super().addEntry(level, text, pageNum, key)

    def beforeBuild(self):
        self.shown, self.entries = self.entries, []
        super().beforeBuild()

    def wrap(self, available_width, available_height):
        setter, look = self.setter, self.setter.look
        entries = self.shown or [(0, "", 0, None)]  # the first pass has none yet
        size = look.size * 1.05
        rows, style = [], [("VALIGN", (0, 0), (-1, -1), "TOP"),
                           ("LEFTPADDING", (0, 0), (-1, -1), 0),
                           ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                           ("TOPPADDING", (0, 0), (-1, -1), 0),
                           ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]
        for row, (level, text, page, _key) in enumerate(entries):
            # The entries' text arrives escaped for platypus's markup (Q&amp;A); ours takes
            # a heading's text as the heading was set (its tags taken out: Heading.plain).
            plain = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            rows.append([VEntry(setter.text(plain, size, look.body, align="left", spacing=1.7),
                                setter.text(str(page) if page else "", size, look.body,
                                            spacing=1.7),
                                setter.text(LEADER, size, look.body, spacing=1.7))])
            style.append(("LEFTPADDING", (0, row), (0, row), level * size * 1.5))
        self._table = Table(rows, colWidths=[available_width], style=table_style(look, style))
        self.width, self.height = self._table.wrapOn(self.canv, available_width,
                                                     available_height)
        return self.width, self.height


class VerticalTypesetter(Typesetter):
    """The template's Markdown as flowables of a vertical rulebook. `width` is the length
    of a line (a band's height), `height` a band's width: the room its figures take side
    by side."""

    Text, Head = VText, VHeading

    def figure(self, faces: list[Face], scale: float, names: tuple[str, ...] = (),
               side: str = "front") -> Flowable:
        longest = max(f.height for f in faces)  # a face no longer than a line
        return Upright(UprightFaces(faces, max_scale=min(scale, self.width / longest),
                                    names=names, side=side), self.height)

    def _list(self, tokens, i):
        """A list as vertical books set one: each item's marker at the top of its line and
        the item's text indented under it, the whole item's height."""
        opening = tokens[i]
        ordered = opening.type == "ordered_list_open"
        close = "ordered_list_close" if ordered else "bullet_list_close"
        number = int(opening.attrs.get("start", 1)) if ordered else 0
        s = self.look.size
        rows = []
        i += 1
        while tokens[i].type != close:
            if tokens[i].type != "list_item_open":
                i += 1
                continue
            inner, i = self._blocks(tokens, i + 1, "list_item_close")
            for f in inner:
                if isinstance(f, JText):
                    f.spaceAfter = s * 0.25
            if not inner:
                continue
            mark = _numeral(number, opening.markup) if ordered else "・"
            number += 1
            rows.append([self.text(mark, s, self.look.body, color=self.look.accent,
                                   align="left"), inner])
        if not rows:
            return Spacer(1, 0), i + 1
        indent = s * (2.2 if ordered else 1.2)
        table = Table(rows, colWidths=[indent, self.width - indent])
        table.setStyle(table_style(self.look, [
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        table.spaceAfter = s * 0.6
        return table, i + 1

    def _beside(self, card_id: str, field: str, side: str):
        """A card face with one of its fields set under it... beside it, down the line: the
        face upright at the top of the band, the text in the rest of the line's length."""
        face = self.faces[side].get(card_id)
        card = next((c for c in self.game.cards() if c.id == card_id), None)
        text = str(card.fields.get(field, "")) if card else ""
        face_len = self.width * 0.42
        paragraphs = [self.para(p) for p in text.split("\n") if p.strip()] or [Spacer(1, 1)]
        shown = Upright(UprightFaces([face], max_scale=face_len / face.height, names=(card_id,),
                                     side=side), self.height) if face else Spacer(1, 1)
        table = Table([[shown, paragraphs]], colWidths=[face_len + 8, self.width - face_len - 8])
        table.setStyle(table_style(self.look, [("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (0, -1), 8)]))
        table.spaceAfter = self.look.size * 1.2
        return table


_FULL_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")
_FULL_MARKS = {".": "．", ")": "）"}  # an ordered list's marks as Markdown writes them


def _numeral(n: int, mark: str) -> str:
    """A list item's number as vertical text sets it: one digit full-width and upright, two
    across in one em (tate-chu-yoko), more turned with the line; then the mark its source
    wrote after it ("1." or "1)"), full-width."""
    return (str(n).translate(_FULL_DIGITS) if n < 10 else str(n)) + _FULL_MARKS.get(mark, mark)
