"""Card faces in the rulebook (`card_faces`): drawn in vector, in rows, all at one scale,
each face as wide as it is; and the record of each face drawn (`Picture`), which the export
checks read."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable

from ..draw import draw_face
from ..primitives import Face
from ..units import mm


@dataclass(frozen=True)
class Picture:
    """A card's face drawn in the rulebook: on which page, at what scale."""

    page: int
    card: str
    side: str
    scale: float


class Faces(Flowable):
    """Card faces drawn in vector, in rows, all at one scale (1: real size; smaller only
    where a card is wider than the column), as many to a row as fit, each face as wide as
    it is (a square key card beside a narrow agent card), top-aligned in its row. A row
    never splits."""

    def __init__(self, faces: list[Face], gap: float = mm(3), max_scale: float = 1.0,
                 names: tuple[str, ...] = (), side: str = "front"):
        super().__init__()
        self.faces, self.gap, self.max_scale = faces, gap, max_scale
        self.names, self.side = names, side  # the cards the faces are, for what is said of them

    def _grid(self, width: float) -> tuple[float, list[list[int]]]:
        """The scale, and the faces of each row (indices), filled left to right."""
        scale = min(self.max_scale, width / max(f.width for f in self.faces))
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, face in enumerate(self.faces):
            w = face.width * scale
            if rows[-1] and used + self.gap + w > width + 1e-6:
                rows.append([])
                used = 0.0
            used += (self.gap if rows[-1] else 0.0) + w
            rows[-1].append(i)
        return scale, rows

    def _row_height(self, row: list[int]) -> float:
        return max(self.faces[i].height for i in row) * self._scale

    def wrap(self, available_width, available_height):
        self._scale, self._rows = self._grid(available_width)
        heights = [self._row_height(row) for row in self._rows]
        self.width = available_width
        self.height = sum(heights) + (len(heights) - 1) * self.gap
        return self.width, self.height

    def rows_width(self) -> float:
        """The width the widest row takes (wrap reports the width it was given)."""
        return max(sum(self.faces[i].width for i in row) * self._scale
                   + (len(row) - 1) * self.gap for row in self._rows)

    def split(self, available_width, available_height):
        """Split between rows of cards."""
        self.wrap(available_width, available_height)
        used, cut = 0.0, 0
        for row in self._rows:
            used += self._row_height(row) + (self.gap if cut else 0.0)
            if used > available_height + 1e-6:
                break
            cut += len(row)
        if cut <= 0 or cut >= len(self.faces):
            return []
        return [Faces(self.faces[:cut], self.gap, self.max_scale, self.names[:cut], self.side),
                Faces(self.faces[cut:], self.gap, self.max_scale, self.names[cut:], self.side)]

    def draw(self):
        drawn = getattr(getattr(self.canv, "_doctemplate", None), "pictures", None)
        top = self.height
        for row in self._rows:
            x = 0.0
            for i in row:
                face = self.faces[i]
                if drawn is not None and i < len(self.names):  # (the document's record)
                    drawn.append(Picture(self.canv.getPageNumber(), self.names[i], self.side,
                                         self._scale))
                self.canv.saveState()
                self.canv.translate(x, top - face.height * self._scale)
                self.canv.scale(self._scale, self._scale)
                draw_face(self.canv, face)
                self.canv.setStrokeColorRGB(0.6, 0.6, 0.6)
                self.canv.setLineWidth(0.3 / self._scale)
                self.canv.rect(0, 0, face.width, face.height, stroke=1, fill=0)
                self.canv.restoreState()
                x += face.width * self._scale + self.gap
            top -= self._row_height(row) + self.gap
