"""Bar charts with reportlab's own chart library: one drawing for the stats PDF and, through
reportlab's SVG renderer, the same drawing for the preview page.

A chart receives finished values (categories, numbers, colours, a font) and knows nothing of
games or decks. Every bar carries its value as a label, so a chart can be read without its
axis, and read back from the PDF as text.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors as rl
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..colors import INKS, Color

INK = rl.Color(*INKS["chart"])
GRID = rl.Color(0.85, 0.85, 0.87)
DEFAULT = (0.25, 0.45, 0.7)


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float, ...]
    color: Color | None = None  # the whole series' colour (several series)
    bar_colors: tuple[Color | None, ...] = ()  # each bar's own (one series)


@dataclass(frozen=True)
class Chart:
    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    palette: tuple[Color, ...]  # for bars and series with no colour of their own
    note: str = ""  # under the title: "mean 2.1; 3 TBD (draft)"
    unit: str = ""  # after each bar's value: "%"
    top: float | None = None  # the value axis's end, shared by charts compared side by side


def _color(c: Color | None) -> rl.Color | None:
    if c is None:
        return None
    return rl.CMYKColor(*c) if len(c) == 4 else rl.Color(*c)


def _fits(labels, font: str, size: float) -> float:
    return max((stringWidth(label, font, size) for label in labels), default=0)


def drawing(chart: Chart, font: str, width: float, font_size: float = 7.5,
            max_height: float | None = None) -> Drawing:
    """The chart, `width` points wide; its height follows from the number of bars, at most
    `max_height` (a page's frame): bars too many for it are drawn thinner, their labels
    smaller, rather than running off the page."""
    n = max(1, len(chart.categories))
    groups = len(chart.series)
    label_width = _fits(chart.categories, font, font_size)
    horizontal = n > 8 or label_width > (width - 60) / n - 4
    top = 16 + (11 if chart.note else 0)  # title and note
    legend = 14 if groups > 1 else 0
    if horizontal:
        per = max(11.0, 9.0 * groups + 4)
        if max_height is not None and per * n + top + legend + 18 > max_height:
            per = (max_height - top - legend - 18) / n
            font_size = min(font_size, per * 0.85)
        plot_h = per * n
        height = plot_h + top + legend + 18
        c = HorizontalBarChart()
        left = min(label_width + 8, width * 0.45)
        c.x, c.y, c.width, c.height = left, 14 + legend, width - left - 28, plot_h
        c.categoryAxis.reverseDirection = True  # the first category at the top
    else:
        plot_h = 90.0
        height = plot_h + top + legend + 28
        c = VerticalBarChart()
        c.x, c.y, c.width, c.height = 26, 20 + legend, width - 34, plot_h
    values = [list(s.values) or [0] for s in chart.series] or [[0]]
    c.data = values
    c.categoryAxis.categoryNames = list(chart.categories) or [""]
    for axis in (c.categoryAxis.labels, c.valueAxis.labels):
        axis.fontName, axis.fontSize, axis.fillColor = font, font_size, INK
    c.categoryAxis.strokeColor = c.valueAxis.strokeColor = INK
    c.categoryAxis.strokeWidth = c.valueAxis.strokeWidth = 0.5
    c.valueAxis.visibleGrid, c.valueAxis.gridStrokeColor = True, GRID
    c.valueAxis.gridStrokeWidth = 0.4
    c.valueAxis.valueMin = 0
    top_value = max([v for s in values for v in s] + [chart.top or 0])
    c.valueAxis.valueMax = max(1, top_value * 1.15)
    c.valueAxis.valueStep = _step(top_value)
    c.valueAxis.labelTextFormat = lambda v: f"{v:g}"
    c.barLabelFormat = lambda v: f"{v:g}{chart.unit}" if v else ""  # an empty bar says nothing
    c.barLabels.fontName, c.barLabels.fontSize = font, font_size - 0.5
    c.barLabels.fillColor = INK
    if horizontal:
        c.barLabels.boxAnchor, c.barLabels.dx = "w", 2
    else:
        c.barLabels.boxAnchor, c.barLabels.dy = "s", 1
    c.barSpacing, c.groupSpacing = 1, 4
    c.bars.strokeColor = None
    palette = [_color(p) for p in chart.palette] or [_color(DEFAULT)]
    for i, s in enumerate(chart.series):
        c.bars[i].fillColor = _color(s.color) or palette[i % len(palette)]
        for j, bar in enumerate(s.bar_colors):
            if bar is not None:
                c.bars[(i, j)].fillColor = _color(bar)
    if not horizontal and n > 1:
        longest = label_width
        if longest > c.width / n - 2:
            c.categoryAxis.labels.angle = 30
            c.categoryAxis.labels.boxAnchor = "ne"
    d = Drawing(width, height)
    d.initialFontName = font  # the state a drawing starts in: never an unembedded Helvetica
    d.add(c)
    d.add(String(0, height - 11, chart.title, fontName=font, fontSize=font_size + 2,
                 fillColor=INK))
    if chart.note:
        d.add(String(0, height - 23, chart.note, fontName=font, fontSize=font_size,
                     fillColor=INK))
    if groups > 1:
        lg = Legend()
        lg.x, lg.y = 0, 8
        lg.alignment = "right"
        lg.fontName, lg.fontSize = font, font_size
        lg.columnMaximum = 1
        lg.deltax = max(40.0, max(stringWidth(s.name, font, font_size) for s in chart.series) + 18)
        lg.dx, lg.dy = 7, 7
        lg.colorNamePairs = [(c.bars[i].fillColor, s.name) for i, s in enumerate(chart.series)]
        d.add(lg)
    return d


def _step(top: float) -> float:
    """A value-axis step that gives about five gridlines in whole numbers."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if top / step <= 6:
            return step
    return top / 5


def svg(chart: Chart, font: str, width: float = 420) -> str:
    """The same chart as SVG text, for the preview page."""
    from reportlab.graphics import renderSVG
    text = renderSVG.drawToString(drawing(chart, font, width))
    return text[text.index("<svg"):]  # the page embeds it: no XML declaration or doctype
