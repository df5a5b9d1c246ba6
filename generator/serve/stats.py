"""The preview page's Stats view: the game's statistics as headings, tables and the stats
PDF's own charts, drawn as SVG trees the page builds with DOM calls (no markup)."""

from __future__ import annotations

from .. import fonts


# SVG presentation attributes that reportlab's SVG renderer writes as `style`: the page's
# Content-Security-Policy allows no inline style, so they travel as attributes.
_SVG_STYLE = {"fill", "fill-rule", "fill-opacity", "stroke", "stroke-width", "stroke-linecap",
              "stroke-linejoin", "stroke-dasharray", "stroke-opacity", "font-family",
              "font-size", "font-weight", "text-anchor", "clip-path"}
_SVG_TAGS = {"svg", "g", "path", "rect", "text", "line", "polyline", "polygon", "circle",
             "ellipse", "clipPath", "title", "desc"}


def svg_tree(text: str) -> list:
    """A chart's SVG as a tree of [tag, attributes, children or text] for the page to build
    with DOM calls: only drawing elements and attributes, never markup or script; a value
    from data is the text of a <text> element. Text takes the page's font, the game's own."""
    import xml.etree.ElementTree as ET

    def convert(node) -> list:
        tag = node.tag.split("}")[-1]
        attrs = {}
        for key, value in node.attrib.items():
            key = key.split("}")[-1]
            if key == "style":
                for part in value.split(";"):
                    name, _unused, val = part.partition(":")
                    name, val = name.strip(), val.strip()
                    if name in _SVG_STYLE and val:
                        attrs[name] = val
            elif not key.startswith("on") and key != "href":
                attrs[key] = value
        if "font-family" in attrs:
            attrs["font-family"] = "cardgen-main, cardgen-fallback, sans-serif"
        if tag == "text":
            return [tag, attrs, node.text or ""]
        return [tag, attrs, [convert(child) for child in node
                             if child.tag.split("}")[-1] in _SVG_TAGS - {"title", "desc"}]]
    return convert(ET.fromstring(text))


def stats_blocks(game, statistics) -> list[dict]:
    """The Stats view: headings, charts (the stats PDF's own, as SVG), tables and lines, as
    each kind of statistic (stats/kinds) shows itself."""
    from ..draw.charts import svg
    from ..stats.kinds import in_order
    font = fonts.ensure(game.main_family.regular)
    chart = lambda c: {"kind": "chart", "title": c.title,  # noqa: E731
                       "svg": svg_tree(svg(c, font, 640))}
    blocks: list[dict] = [block for kind in in_order()
                          for block in kind.blocks(statistics.part(kind.FIELD), statistics, chart)]
    current = ""
    for block in blocks:  # each block belongs to the deck of the heading above it
        current = block.get("deck", current)
        block["deck"] = current
    return blocks
