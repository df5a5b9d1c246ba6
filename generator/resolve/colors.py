"""The game's colours: its palette (`colors:`), its icons, and the one reading of a colour
written anywhere in game.yaml or a board layout."""

from __future__ import annotations


from .. import images, svg
from ..colors import Color, parse_color
from ..load import LoadedGame
from ..paths import Outside, inside
from ..model import Icon
from ..problems import Report
from ..i18n import _


def resolve_palette(loaded: LoadedGame, report: Report) -> dict[str, Color]:
    palette: dict[str, Color] = {}
    for name, text in (loaded.game.data.get("colors") or {}).items():
        try:
            color = parse_color(text, palette)  # a colour may name one given before it
        except ValueError as exc:
            report.error(_("colour '{name}': {exc}",
                           name=name, exc=exc), loaded.game.locate(("colors", name)), "color")
            continue
        palette[name] = color if color is not None else (1.0, 1.0, 1.0)
    return palette


def resolve_icons(loaded: LoadedGame, palette: dict, fonts: dict, report: Report) -> dict:
    icons = {}
    folder = loaded.folder.resolve()
    for name, raw in (loaded.game.data.get("icons") or {}).items():
        where = loaded.game.locate(("icons", name))
        image = None
        if "image" in raw:
            try:
                path = inside(folder, raw["image"])
            except Outside as exc:
                report.error(exc.sentence(_("icon '{name}': image '{file}'", name=name,
                                            file=raw['image']),
                                             _("the game folder")),
                             loaded.game.locate(("icons", name, "image")), "path")
                continue
            if not path.is_file():
                report.error(_("icon '{name}': image '{raw}' does not exist",
                               name=name, raw=raw['image']),
                             loaded.game.locate(("icons", name, "image")), "image")
                continue
            try:  # decodes whole, used by a layout or not (docs/validation.md says so)
                images.inspect(str(path), raw["image"])
            except images.ImageProblem as exc:
                report.error(_("icon '{name}': {exc}",
                               name=name, exc=exc), loaded.game.locate(("icons", name, "image")),
                             "image")
                continue
            image = str(path)
        font = raw.get("font", "gothic") if "glyph" in raw else None
        if font is not None and font not in fonts:
            report.error(_("icon '{name}': font family '{font}' is not defined in fonts/fonts.yaml",
                           name=name, font=font),
                         loaded.game.locate(("icons", name, "font")), "font")
            continue
        color = None
        if "color" in raw:
            try:
                color = parse_color(raw["color"], palette)
            except ValueError as exc:
                report.error(_("icon '{name}': {exc}",
                               name=name, exc=exc), loaded.game.locate(("icons", name, "color")),
                             "color")
                continue
        if color is not None and image is not None and not svg.is_svg(image):
            report.error(_("icon '{name}': color: recolours a glyph or an SVG icon; '{raw}' is "
                           "{kind}, which keeps its own colours (leave out color:, or use an "
                           "SVG)", name=name, raw=raw['image'], kind=images.kind(image)),
                         loaded.game.locate(("icons", name, "color")), "image")
            continue
        icons[name] = Icon(name, image, raw.get("glyph"), font, color, where)
    return icons
