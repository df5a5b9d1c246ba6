"""Stage 5, render: draw finished primitives on a reportlab canvas.

Receives only final values (positions, fonts, sizes, colours); it measures and
decides nothing.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from .layout.primitives import Face, Item, Line, Rect, Text


def draw_items(c: Canvas, items: tuple[Item, ...] | list[Item]) -> None:
    for item in items:
        if isinstance(item, Rect):
            if item.fill is not None:
                c.setFillColorRGB(*item.fill)
            if item.stroke is not None:
                c.setStrokeColorRGB(*item.stroke)
                c.setLineWidth(item.stroke_width)
            fill, stroke = int(item.fill is not None), int(item.stroke is not None)
            if item.radius:
                c.roundRect(item.x, item.y, item.w, item.h, item.radius, stroke=stroke, fill=fill)
            else:
                c.rect(item.x, item.y, item.w, item.h, stroke=stroke, fill=fill)
        elif isinstance(item, Line):
            c.setStrokeColorRGB(*item.color)
            c.setLineWidth(item.width)
            c.line(item.x1, item.y1, item.x2, item.y2)
        elif isinstance(item, Text):
            c.setFillColorRGB(*item.color)
            c.setFont(item.font, item.size)
            draw = {"start": c.drawString, "middle": c.drawCentredString,
                    "end": c.drawRightString}[item.anchor]
            draw(item.x, item.y, item.text)
        else:  # pragma: no cover - a new primitive without a renderer is a bug
            raise TypeError(f"no renderer for {type(item).__name__}")


def draw_face(c: Canvas, face: Face) -> None:
    """Draw a face with its trim box clipped, so nothing spills onto a neighbour."""
    c.saveState()
    path = c.beginPath()
    path.rect(0, 0, face.width, face.height)
    c.clipPath(path, stroke=0, fill=0)
    draw_items(c, face.items)
    c.restoreState()
