"""Stage 2, resolve: turn loaded documents into the frozen game model.

Lengths become points, colours become RGB, preset and font names become the
objects they name, and defaults are filled in. The documents passed the format
schema in `load`, so shapes and types can be trusted here; what is checked is
what a schema cannot say (a preset whose cards do not fit its paper, a font file
that cannot be embedded).
"""

from __future__ import annotations

from pathlib import Path

from ..colors import parse_color
from ..fonts import FontFileError, register
from ..load import DEFAULT_LAYOUTS, DEFAULT_SHEET, LoadedGame
from ..load.yamlfile import Document
from ..model import (Card, Deck, FontFamily, Game, Icon, Invariant, LayoutSpec, SheetPreset,
                     SourceMap, frozen_mapping)
from ..problems import Report
from ..units import PAPER, mm, parse_length, to_mm
from .layouts import resolve_layout

DEFAULT_COLOR = "#3b4a6b"
TOLERANCE = mm(0.05)


def _length(doc: Document, path: tuple, report: Report, what: str) -> float | None:
    value = doc.data
    for p in path:
        value = value[p]
    try:
        return parse_length(value)
    except ValueError as exc:
        report.error(f"{what}: {exc}", doc.locate(path), "units")
        return None


def resolve_sheet(sheet_id: str, doc: Document, report: Report) -> SheetPreset | None:
    d = doc.data
    where = f"sheet preset '{sheet_id}'"
    n_errors = len(report.errors)
    if isinstance(d["paper"], str):
        paper = (mm(PAPER[d["paper"]][0]), mm(PAPER[d["paper"]][1]))
    else:
        paper = (_length(doc, ("paper", 0), report, where), _length(doc, ("paper", 1), report, where))
    card = (_length(doc, ("card", 0), report, where), _length(doc, ("card", 1), report, where))
    gap = (0.0, 0.0)
    if "gap" in d:
        gap = (_length(doc, ("gap", 0), report, where), _length(doc, ("gap", 1), report, where))
    margins = {k: _length(doc, ("margins", k), report, where) for k in d["margins"]}
    if len(report.errors) > n_errors:
        return None
    cols, rows = d["grid"]["columns"], d["grid"]["rows"]
    used_w = cols * card[0] + (cols - 1) * gap[0]
    used_h = rows * card[1] + (rows - 1) * gap[1]
    right = paper[0] - margins["left"] - used_w
    bottom = paper[1] - margins["top"] - used_h
    ok = True
    for name, room, side, used, total in (
        ("width", right, "right", used_w, paper[0]),
        ("height", bottom, "bottom", used_h, paper[1]),
    ):
        if room < -TOLERANCE:
            report.error(
                f"{where}: {cols if name == 'width' else rows} cards and margins need "
                f"{to_mm(total - room):.1f} mm of paper {name}, but the paper is {to_mm(total):.1f} mm",
                doc.locate(("grid",)), "sheet")
            ok = False
        elif side in margins and abs(margins[side] - room) > mm(0.1):
            report.error(
                f"{where}: margin {side} is {to_mm(margins[side]):.2f} mm, but paper, cards, "
                f"gaps and the {'left' if side == 'right' else 'top'} margin leave {to_mm(room):.2f} mm",
                doc.locate(("margins", side)), "sheet")
            ok = False
    if not ok:
        return None
    return SheetPreset(
        id=sheet_id,
        name=d.get("name", sheet_id),
        paper=paper,
        card=card,
        columns=cols,
        rows=rows,
        margin_left=margins["left"],
        margin_top=margins["top"],
        gap=gap,
        duplex=d.get("duplex", "long-edge"),
        loc=doc.locate(()),
    )


def resolve_fonts(loaded: LoadedGame, report: Report) -> dict[str, FontFamily]:
    families: dict[str, FontFamily] = {}
    doc = loaded.fonts
    if doc is None:
        return families
    for family, files in doc.data["families"].items():
        names = {}
        for weight in ("regular", "bold"):
            file = files.get(weight, files["regular"])
            path = loaded.fonts_dir / file
            where = doc.locate(("families", family, weight if weight in files else "regular"))
            if not path.is_file():
                report.error(f"font family '{family}': {weight} file '{file}' does not exist",
                             where, "font")
                continue
            try:
                names[weight] = register(path)
            except FontFileError as exc:
                report.error(f"font family '{family}': {exc}", where, "font")
        if len(names) == 2:
            families[family] = FontFamily(family, names["regular"], names["bold"],
                                          tuple(files.get("fallback", ())))
    for family in families.values():
        for other in family.fallback:
            if other not in families:
                report.error(f"font family '{family.name}': fallback '{other}' is not a family "
                             f"(families: {', '.join(families)})",
                             doc.locate(("families", family.name, "fallback")), "font")
    return families


def _same_size(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < mm(0.05) and abs(a[1] - b[1]) < mm(0.05)


def _fmt(size: tuple[float, float]) -> str:
    return f"{to_mm(size[0]):g} x {to_mm(size[1]):g} mm"


def check_deck_sizes(loaded: LoadedGame, i: int, raw: dict, front: LayoutSpec, back: LayoutSpec,
                     sheet: SheetPreset, report: Report) -> bool:
    """The front fits the sheet's slots (as is, or turned 90 degrees); the back matches it."""
    ok = True
    slot = sheet.card
    if not (_same_size(front.size, slot) or _same_size(front.size, (slot[1], slot[0]))):
        report.error(f"deck '{raw['id']}': layout '{front.id}' is {_fmt(front.size)}, but sheet "
                     f"preset '{sheet.id}' holds {_fmt(slot)} cards",
                     loaded.game.locate(("decks", i, "front") if "front" in raw else ("decks", i)),
                     "layout")
        ok = False
    if not _same_size(front.size, back.size):
        report.error(f"deck '{raw['id']}': back layout '{back.id}' is {_fmt(back.size)}, but the "
                     f"front layout '{front.id}' is {_fmt(front.size)}",
                     loaded.game.locate(("decks", i, "back") if "back" in raw else ("decks", i)),
                     "layout")
        ok = False
    return ok


def resolve_palette(loaded: LoadedGame, report: Report) -> dict:
    palette = {}
    for name, text in (loaded.game.data.get("colors") or {}).items():
        try:
            color = parse_color(text)
        except ValueError as exc:
            report.error(f"colour '{name}': {exc}", loaded.game.locate(("colors", name)), "color")
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
            path = (loaded.folder / raw["image"]).resolve()
            if not path.is_relative_to(folder):
                report.error(f"icon '{name}': image '{raw['image']}' lies outside the game folder",
                             loaded.game.locate(("icons", name, "image")), "path")
                continue
            if not path.is_file():
                report.error(f"icon '{name}': image '{raw['image']}' does not exist",
                             loaded.game.locate(("icons", name, "image")), "image")
                continue
            image = str(path)
        font = raw.get("font", "gothic") if "glyph" in raw else None
        if font is not None and font not in fonts:
            report.error(f"icon '{name}': font family '{font}' is not defined in fonts/fonts.yaml",
                         loaded.game.locate(("icons", name, "font")), "font")
            continue
        color = None
        if "color" in raw:
            try:
                color = parse_color(raw["color"], palette)
            except ValueError as exc:
                report.error(f"icon '{name}': {exc}", loaded.game.locate(("icons", name, "color")),
                             "color")
                continue
        icons[name] = Icon(name, image, raw.get("glyph"), font, color, where)
    return icons


def _card(source: SourceMap, i: int, raw: dict, deck_id: str) -> Card:
    fields = {k: v for k, v in raw.items() if k not in ("id", "copies", "blank")}
    return Card(
        id=raw["id"],
        deck=deck_id,
        copies=raw.get("copies", 1),
        blank=raw.get("blank", False),
        fields=frozen_mapping(fields),
        source=source,
        path=("cards", i),
    )


def resolve_game(loaded: LoadedGame, report: Report, folder_display: str) -> Game | None:
    """Build the model. Returns None if something it needs could not be resolved."""
    g = loaded.game.data
    n_errors = len(report.errors)
    fonts = resolve_fonts(loaded, report)
    sheets = {sid: resolve_sheet(sid, doc, report) for sid, doc in loaded.sheets.items()}
    layouts = {name: resolve_layout(name, chain, report) for name, chain in loaded.layouts.items()}
    palette = resolve_palette(loaded, report)
    icons = resolve_icons(loaded, palette, fonts, report)
    decks = []
    for i, raw in enumerate(g["decks"]):
        deck_doc = loaded.decks.get(raw["id"])
        sheet = sheets.get(raw.get("sheet", DEFAULT_SHEET))
        front = layouts.get(raw.get("front", DEFAULT_LAYOUTS["front"]))
        back = layouts.get(raw.get("back", DEFAULT_LAYOUTS["back"]))
        if deck_doc is None or sheet is None or front is None or back is None:
            continue
        if not check_deck_sizes(loaded, i, raw, front, back, sheet, report):
            continue
        source = deck_doc.source
        decks.append(Deck(
            id=raw["id"],
            name=raw.get("name", raw["id"]),
            cards=tuple(_card(source, j, c, raw["id"]) for j, c in enumerate(deck_doc.data["cards"])),
            sheet=sheet,
            color=raw.get("color", DEFAULT_COLOR),
            front=front,
            back=back,
            fields=raw.get("fields"),
            source=loaded.game.source,
            path=("decks", i),
        ))
    if len(report.errors) > n_errors:
        return None
    return Game(
        id=loaded.id,
        title=g["title"],
        title_en=g.get("title_en", ""),
        version=str(g.get("version", "")),
        folder=folder_display,
        decks=tuple(decks),
        data=frozen_mapping({k: doc.data for k, doc in loaded.data.items()}),
        data_sources=frozen_mapping({k: doc.source for k, doc in loaded.data.items()}),
        fonts=frozen_mapping(fonts),
        loc=loaded.game.locate(()),
        root=str(loaded.folder.resolve()),
        project_root=str(Path(loaded.folder).resolve().parent.parent),
        colors=frozen_mapping(palette),
        icons=frozen_mapping(icons),
        checks=resolve_checks(loaded),
        python_checks=tuple(loaded.python_checks),
    )


def resolve_checks(loaded: LoadedGame) -> tuple[Invariant, ...]:
    if loaded.checks is None:
        return ()
    source = loaded.checks.source
    return tuple(
        Invariant(
            name=c["name"],
            assertion=c["assert"],
            for_path=c.get("for"),
            when=c.get("when"),
            message=c.get("message"),
            at=c.get("at"),
            level=c.get("level", "error"),
            source=source,
            path=("checks", i),
        )
        for i, c in enumerate(loaded.checks.data["checks"])
    )
