"""Stage 5, render: draw finished primitives on a reportlab canvas.

Receives only final values (positions, fonts, sizes, colours); it measures and
decides nothing.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from .layout.primitives import Ellipse, Face, Group, Image, Item, Line, Polygon, Rect, Text


def _fill(c: Canvas, color) -> None:
    if len(color) == 4:
        c.setFillColorCMYK(*color)
    else:
        c.setFillColorRGB(*color)


def _stroke(c: Canvas, color, width: float, dash: tuple) -> None:
    if len(color) == 4:
        c.setStrokeColorCMYK(*color)
    else:
        c.setStrokeColorRGB(*color)
    c.setLineWidth(width)
    c.setDash(list(dash) if dash else [])


def _paint(c: Canvas, item) -> tuple[int, int]:
    if item.fill is not None:
        _fill(c, item.fill)
    if item.stroke is not None:
        _stroke(c, item.stroke, item.stroke_width, item.dash)
    return int(item.stroke is not None), int(item.fill is not None)


def draw_items(c: Canvas, items) -> None:
    for item in items:
        draw_item(c, item)


def draw_item(c: Canvas, item: Item) -> None:
    if isinstance(item, Rect):
        stroke, fill = _paint(c, item)
        if item.radius:
            c.roundRect(item.x, item.y, item.w, item.h, item.radius, stroke=stroke, fill=fill)
        else:
            c.rect(item.x, item.y, item.w, item.h, stroke=stroke, fill=fill)
    elif isinstance(item, Ellipse):
        stroke, fill = _paint(c, item)
        c.ellipse(item.x, item.y, item.x + item.w, item.y + item.h, stroke=stroke, fill=fill)
    elif isinstance(item, Polygon):
        stroke, fill = _paint(c, item)
        path = c.beginPath()
        path.moveTo(*item.points[0])
        for point in item.points[1:]:
            path.lineTo(*point)
        path.close()
        c.drawPath(path, stroke=stroke, fill=fill)
    elif isinstance(item, Line):
        _stroke(c, item.color, item.width, item.dash)
        c.line(item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, Text):
        _fill(c, item.color)
        if item.rotate or item.char_space:
            c.saveState()
            c.translate(item.x, item.y)
            c.rotate(item.rotate)
            t = c.beginText(0, 0)
            t.setFont(item.font, item.size)
            t.setCharSpace(item.char_space)
            t.textOut(item.text)
            c.drawText(t)
            c.restoreState()
        else:
            c.setFont(item.font, item.size)
            draw = {"start": c.drawString, "middle": c.drawCentredString,
                    "end": c.drawRightString}[item.anchor]
            draw(item.x, item.y, item.text)
    elif isinstance(item, Image):
        c.drawImage(item.path, item.x, item.y, item.w, item.h, mask="auto")
    elif isinstance(item, Group):
        c.saveState()
        if item.rotate:
            c.translate(item.cx, item.cy)
            c.rotate(item.rotate)
            c.translate(-item.cx, -item.cy)
        if item.dx or item.dy:
            c.translate(item.dx, item.dy)
        if item.clip is not None:
            path = c.beginPath()
            path.rect(*item.clip)
            c.clipPath(path, stroke=0, fill=0)
        if item.opacity < 1:
            c.setFillAlpha(item.opacity)
            c.setStrokeAlpha(item.opacity)
        draw_items(c, item.items)
        c.restoreState()
    else:  # pragma: no cover - a new primitive without a renderer is a bug
        raise TypeError(f"no renderer for {type(item).__name__}")


def draw_face(c: Canvas, face: Face, bleed: bool = False, clip: bool = True) -> None:
    """Draw a face clipped to its trim box (or, with `bleed`, to its bleed box), so
    nothing spills onto a neighbour. `clip=False` when the caller clips already."""
    c.saveState()
    if clip:
        b = face.bleed if bleed else 0.0
        path = c.beginPath()
        path.rect(-b, -b, face.width + 2 * b, face.height + 2 * b)
        c.clipPath(path, stroke=0, fill=0)
    draw_items(c, face.items)
    c.restoreState()
