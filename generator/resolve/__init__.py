"""Stage 2, resolve: turn loaded documents into the frozen game model.

Lengths become points, colours become RGB, preset and font names become the
objects they name, and defaults are filled in. The documents passed the format
schema in `load`, so shapes and types can be trusted here; what is checked is
what a schema cannot say (a preset whose cards do not fit its paper, a font file
that cannot be embedded).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from .. import sandbox, values
from ..colors import parse_color
from ..fonts import FontFileError, register
from ..load import DEFAULT_LAYOUTS, LoadedGame, declared_targets, sheet_preset_id
from ..load.yamlfile import Document
from ..model import CARD_KEYS, DECK_COLOR, MAX_CARDS, TBD
from ..load.schema import NAME_EXPECTED
from ..paths import Outside, inside, is_name
from ..model import (Card, Deck, FontFamily, Game, Icon, Invariant, Question,
                     Requirement, Rulebook, StatsSpec, StatsTable, StatsView,
                     SheetPreset, SourceMap, frozen_mapping)
from ..problems import Location, Report
from ..values import flag
from ..units import (BOOKLET_SHEETS, PAPER, SIZE_TOLERANCE, mm, paper_name, paper_size,
                     parse_length,
                     show_length, show_size, written_unit)
from .boards import resolve_boards
from .layouts import resolve_layout


DEFAULT_MARKS = (mm(4), mm(2))  # crop mark length, and its distance from the card grid
DEFAULT_MIN_MARGIN = mm(5)  # what most printers cannot print at the paper's edge


class _SheetValues:
    """A preset's values with a deck's overrides on top, each parsed where it was written."""

    def __init__(self, preset: str, doc: Document, overrides: dict, override_at, report: Report):
        self.preset, self.doc, self.overrides, self.override_at = preset, doc, overrides, override_at
        self.report = report
        self.ok = True
        self.unit = written_unit([doc.data, overrides])  # what messages about it are given in

    def raw(self, key: str, default=None):
        if key in self.overrides:
            return self.overrides[key]
        return self.doc.data.get(key, default)

    def locate(self, *path) -> object:
        if path[0] in self.overrides:
            return self.override_at(path)
        return self.doc.locate(path)

    def length(self, *path) -> float:
        value = self.raw(path[0])
        for p in path[1:]:
            value = value[p]
        try:
            return parse_length(value)
        except ValueError as exc:
            self.report.error(f"sheet preset '{self.preset}': {exc}", self.locate(*path), "units")
            self.ok = False
            return 0.0

    def pair(self, key: str, default=(0.0, 0.0)) -> tuple[float, float]:
        if self.raw(key) is None:
            return default
        pair = self.length(key, 0), self.length(key, 1)
        for i, value in enumerate(pair):
            if value < 0:  # cards would overlap
                self.report.error(f"sheet preset '{self.preset}': {key} must not be negative, not "
                                  f"{show_length(value, self.unit, measured=False)}",
                                  self.locate(key, i), "sheet")
                self.ok = False
        return pair

    def marks(self, default: bool):
        value = self.raw("crop_marks", default)
        if not isinstance(value, dict):
            return DEFAULT_MARKS if flag(value) else None
        return (self.length("crop_marks", "length") if "length" in value else DEFAULT_MARKS[0],
                self.length("crop_marks", "offset") if "offset" in value else DEFAULT_MARKS[1])


def resolve_sheet(sheet_id: str, doc: Document, report: Report, card: tuple[float, float] | None = None,
                  overrides: dict | None = None, override_at=None) -> SheetPreset | None:
    """A concrete sheet: a fixed preset as written, or a plain-paper preset fitted to `card`
    (the deck's card size), centred. `overrides` are the deck's own sheet options."""
    v = _SheetValues(sheet_id, doc, overrides or {}, override_at, report)
    where = f"sheet preset '{sheet_id}'"
    paper_raw = v.raw("paper")
    paper = paper_size(paper_raw) if isinstance(paper_raw, str) \
        else (v.length("paper", 0), v.length("paper", 1))
    gap = v.pair("gap")
    plain = flag(v.raw("plain", False))  # fit the grid to the card, centred
    precut = v.raw("stock", "plain" if plain else "precut") == "precut"
    marks = v.marks(default=not precut)
    bleed = flag(v.raw("bleed", not precut))
    if plain:
        card = card or (v.length("card", 0), v.length("card", 1))
        min_margin = v.length("min_margin") if v.raw("min_margin") is not None else DEFAULT_MIN_MARGIN
        edge = max(min_margin, (marks[0] + marks[1]) if marks else 0.0)
        cols = int((paper[0] - 2 * edge + gap[0] + SIZE_TOLERANCE) // (card[0] + gap[0]))
        rows = int((paper[1] - 2 * edge + gap[1] + SIZE_TOLERANCE) // (card[1] + gap[1]))
        if cols < 1 or rows < 1:
            report.error(f"{where}: a {show_size(card, v.unit)} card does not fit on "
                         f"{show_size(paper, v.unit)} paper with "
                         f"{show_length(edge, v.unit, measured=False)} free at the edges",
                         doc.locate(("paper",)), "sheet")
            return None
        margins = {"left": (paper[0] - cols * card[0] - (cols - 1) * gap[0]) / 2,
                   "top": (paper[1] - rows * card[1] - (rows - 1) * gap[1]) / 2}
    else:
        card = (v.length("card", 0), v.length("card", 1))
        cols, rows = v.raw("grid")["columns"], v.raw("grid")["rows"]
        margins = {k: v.length("margins", k) for k in v.raw("margins")}
    if not v.ok:
        return None
    # Whether cards, gaps and margins add up to the paper is validate's to say
    # (validate/sheets.py): the sheet is built as written, with where each part was written.
    written = {side: margins[side] for side in ("right", "bottom") if side in margins}
    return SheetPreset(
        id=sheet_id,
        name=doc.data.get("name", sheet_id),
        paper=paper,
        card=card,
        columns=cols,
        rows=rows,
        margin_left=margins["left"],
        margin_top=margins["top"],
        gap=gap,
        duplex=v.raw("duplex", "long-edge"),
        loc=doc.locate(()),
        crop_marks=marks,
        bleed=bleed,
        precut=precut,
        unit=v.unit,
        margins_written=frozen_mapping(written),
        where=frozen_mapping({"grid": doc.locate(("grid",)),
                              **{f"margins.{side}": doc.locate(("margins", side)) for side in written}}),
    )


LICENCE_FILES = ("OFL.txt", "OFL", "LICENSE", "LICENCE", "LICENSE.txt", "LICENCE.txt",
                 "LICENSE.md", "COPYING", "COPYING.txt")  # looked for beside a game's font


def resolve_fonts(doc: Document | None, fonts_dir: Path, report: Report) -> dict[str, FontFamily]:
    """The project's font families (fonts/fonts.yaml)."""
    if doc is None:
        return {}
    families = _families(doc.data["families"], fonts_dir, "fonts/",
                         lambda *path: doc.locate(("families",) + path), report)
    _check_fallbacks(families, lambda name: doc.locate(("families", name, "fallback")), report)
    return families


def resolve_game_fonts(loaded: LoadedGame, project_families: dict, report: Report) -> dict:
    """The project's families, and the game's own (`fonts:` in game.yaml, files inside the
    game folder) over them. A game's font without a licence file is a warning: a game
    folder is shared, and so are its fonts."""
    own = loaded.game.data.get("fonts") or {}
    if not own:
        return project_families
    locate = lambda *path: loaded.game.locate(("fonts",) + path)  # noqa: E731
    mine = _families(own, loaded.folder, "the game folder", locate, report)
    families = {**project_families, **mine}
    for name in mine:
        files = own[name]
        if "licence" in files:
            try:
                licence = inside(loaded.folder, files["licence"])
            except Outside as exc:
                report.error(exc.sentence(f"font family '{name}': licence '{files['licence']}'",
                                          "the game folder"), locate(name, "licence"), "path")
                continue
            if not licence.is_file():
                report.warning(f"font family '{name}': its licence file '{files['licence']}' "
                               "does not exist", locate(name, "licence"), "font")
            continue
        folder = inside(loaded.folder, files["regular"]).parent
        if not any((folder / candidate).is_file() for candidate in LICENCE_FILES):
            report.warning(f"font family '{name}': no licence file beside '{files['regular']}' "
                           f"({', '.join(LICENCE_FILES[:3])}...); a game folder is shared, so its "
                           "fonts must be ones you may share: put the licence beside the font, "
                           "or name it with licence:", locate(name), "font")
    _check_fallbacks(families, lambda name: locate(name, "fallback") if name in own else
                     loaded.game.locate(("fonts",)), report)
    return families


def _families(declared: dict, base: Path, base_words: str, locate, report: Report) -> dict:
    families: dict[str, FontFamily] = {}
    for family, files in declared.items():
        names = {}
        for weight in ("regular", "bold"):
            if weight == "bold" and "bold" not in files:  # the regular file serves for bold
                if "regular" in names:
                    names["bold"] = names["regular"]
                continue
            file = files[weight]
            where = locate(family, weight if weight in files else "regular")
            try:
                path = inside(base, file)
            except Outside as exc:
                report.error(exc.sentence(f"font family '{family}': '{file}'", base_words), where,
                             "path")
                continue
            if not path.is_file():
                report.error(f"font family '{family}': {weight} file '{file}' does not exist",
                             where, "font")
                continue
            try:
                names[weight] = register(path)
            except FontFileError as exc:
                report.error(f"font family '{family}': {exc}", where, "font")
        for slant in ("italic", "bold_italic"):
            if slant not in files:
                continue
            where = locate(family, slant)
            try:
                path = inside(base, files[slant])
            except Outside as exc:
                report.error(exc.sentence(f"font family '{family}': '{files[slant]}'", base_words),
                             where, "path")
                continue
            if not path.is_file():
                report.error(f"font family '{family}': {slant} file '{files[slant]}' does not "
                             "exist", where, "font")
                continue
            try:
                names[slant] = register(path)
            except FontFileError as exc:
                report.error(f"font family '{family}': {exc}", where, "font")
        if "regular" in names and "bold" in names:
            families[family] = FontFamily(family, names["regular"], names["bold"],
                                          tuple(files.get("fallback", ())),
                                          names.get("italic", ""), names.get("bold_italic", ""))
    return families


def _check_fallbacks(families: dict, locate, report: Report) -> None:
    for family in families.values():
        for other in family.fallback:
            if other not in families:
                report.error(f"font family '{family.name}': fallback '{other}' is not a family "
                             f"(families: {', '.join(families)})", locate(family.name), "font")


def resolve_palette(loaded: LoadedGame, report: Report) -> dict:
    palette = {}
    for name, text in (loaded.game.data.get("colors") or {}).items():
        try:
            color = parse_color(text, palette)  # a colour may name one given before it
        except ValueError as exc:
            report.error(f"colour '{name}': {exc}", loaded.game.locate(("colors", name)), "color")
            continue
        palette[name] = color if color is not None else (1.0, 1.0, 1.0)
    return palette


class _BadColor(Exception):
    pass


def _color(text, palette: dict, what: str, where, report: Report):
    """A colour as written anywhere in game.yaml or a board layout, by the one rule
    (colors.parse_color, palette names looked up); reported at `where` and _BadColor
    raised when it is none."""
    try:
        return parse_color(text, palette)
    except ValueError as exc:
        report.error(f"{what}: {exc}", where, "color")
        raise _BadColor from None


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
                report.error(exc.sentence(f"icon '{name}': image '{raw['image']}'", "the game folder"),
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




def generate_cards(doc: Document, deck_id: str, data: dict, macros_text: str,
                   report: Report, declared: dict | None = None) -> list[Card]:
    """A deck given as `generate:`: one card for every combination of the `each` lists,
    its id, copies and fields computed by templates over the combination."""
    spec = doc.data["generate"]
    names = list(spec["each"])
    combinations = 1
    for n in names:
        combinations *= len(spec["each"][n])
    if combinations > MAX_CARDS:
        report.error(f"deck '{deck_id}' would generate {combinations:,} cards; a game holds at "
                     f"most {MAX_CARDS:,} (split it into several games)", doc.locate(("generate", "each")),
                     "deck")
        return []
    scope_base = {"data": data, "macros": sandbox.macros(macros_text) if macros_text else None}
    cards = []
    for combo in itertools.product(*(spec["each"][n] for n in names)):
        scope = {**scope_base, **dict(zip(names, combo))}

        def value(template, key):
            var = _ONE_NAME.match(template) if isinstance(template, str) else None
            if var and var.group(1) in names:
                return scope[var.group(1)]  # a plain {{ name }} keeps its value's type
            try:
                return sandbox.render(template, scope)
            except sandbox.SandboxError as exc:
                raise _GenerateError(key, str(exc)) from None

        try:
            card_id = str(value(spec["id"], "id"))
            if not is_name(card_id):
                raise _GenerateError("id", f"id must be {NAME_EXPECTED}, not '{card_id}'")
            try:
                copies = values.copies(value(spec.get("copies", 1), "copies"))
            except ValueError as exc:
                raise _GenerateError("copies", str(exc)) from None
            try:
                blank = flag(value(spec.get("blank", False), "blank"))
            except ValueError as exc:
                raise _GenerateError("blank", f"blank: {exc}") from None
            fields = _flags_as_declared({k: value(v, ("fields", k)) for k, v in
                                         (spec.get("fields") or {}).items()}, declared)
        except _GenerateError as exc:
            key = exc.key if isinstance(exc.key, tuple) else (exc.key,)
            combo_text = ", ".join(f"{n}={v}" for n, v in zip(names, combo))
            report.error(f"deck '{deck_id}': generating the card for {combo_text}: {exc.message}",
                         doc.locate(("generate",) + key), "generate")
            return []
        cards.append(Card(card_id, deck_id, copies, blank, frozen_mapping(fields), doc.source,
                          ("generate", "fields")))
    return cards


_ONE_NAME = re.compile(r"^\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$")


class _GenerateError(Exception):
    def __init__(self, key, message: str):
        super().__init__(message)
        self.key, self.message = key, message


def _flags_as_declared(fields: dict, declared: dict | None) -> dict:
    """A field its deck declares boolean, written as a word for true or false ("yes"), read
    by the one rule for flags, as a spreadsheet's cell is; other values stay as written
    (a value that is no flag is the schema check's to report)."""
    if not declared:
        return fields
    return {k: flag(v) if isinstance(v, str) and isinstance(declared.get(k), dict) and
            declared[k].get("type") == "boolean" and values.is_flag(v) else v
            for k, v in fields.items()}


def _cards(doc: Document, deck_id: str, bad: set, report: Report,
           declared: dict | None = None) -> list[Card]:
    """The deck file's cards. A card whose own values failed the format (`bad`: reported
    by load) is kept with safe stand-ins for them and tainted, so that later stages skip
    what uses it rather than fail on it again; one without a usable id is left out."""
    cards = []
    for j, raw in enumerate(doc.data["cards"]):
        if j in bad:
            if not isinstance(raw, dict) or not is_name(raw.get("id")):
                report.taint(("deck", deck_id))  # left out, not missing: the deck is no draft
                continue
            raw = {**raw,
                   "copies": raw.get("copies") if _is_copies(raw.get("copies")) else 1,
                   "blank": values.is_flag(raw.get("blank")) and flag(raw.get("blank")),
                   "back": raw.get("back") if is_name(raw.get("back")) else None}
            report.taint(raw["id"])
        cards.append(_card(doc.source, j, raw, deck_id, declared))
    return cards


def _is_copies(value) -> bool:
    return value is None or value == TBD or values.is_copies(value)


def _card(source: SourceMap, i: int, raw: dict, deck_id: str,
          declared: dict | None = None) -> Card:
    fields = _flags_as_declared({k: v for k, v in raw.items() if k not in CARD_KEYS}, declared)
    return Card(
        id=raw["id"],
        deck=deck_id,
        copies=1 if raw.get("copies") in (TBD, None) else raw["copies"],  # a draft prints once
        blank=flag(raw.get("blank", False)),
        fields=frozen_mapping({**fields, **({"copies": TBD} if raw.get("copies") == TBD else {})}),
        source=source,
        path=("cards", i),
        back=raw.get("back"),
    )


def resolve_game(loaded: LoadedGame, report: Report, folder_display: str) -> Game | None:
    """Build the model. Returns None if something it needs could not be resolved."""
    g = loaded.game.data
    n_errors = len(report.errors)
    fonts = resolve_game_fonts(loaded, resolve_fonts(loaded.fonts, loaded.fonts_dir, report),
                               report)
    layouts = {name: resolve_layout(name, chain, report) for name, chain in loaded.layouts.items()}
    palette = resolve_palette(loaded, report)
    macros_text = loaded.macros[1] if loaded.macros else ""
    if macros_text:
        try:
            sandbox.macros(macros_text)
        except sandbox.SandboxError as exc:
            report.error(f"macros: {exc}", Location(loaded.macros[0], 1, 1), "macros")
            macros_text = ""
    data = {k: doc.data for k, doc in loaded.data.items()}
    icons = resolve_icons(loaded, palette, fonts, report)
    decks = []
    for i, raw in enumerate(g["decks"]):
        deck_doc = loaded.decks.get(raw["id"])
        front = layouts.get(raw.get("front", DEFAULT_LAYOUTS["front"]))
        # a standee's back is its figure mirrored, unless the deck draws one of its own
        back = layouts.get(raw.get("back", raw.get("front", DEFAULT_LAYOUTS["front"])
                                   if raw.get("shape") == "standee" else DEFAULT_LAYOUTS["back"]))
        sheet_doc = loaded.sheets.get(sheet_preset_id(raw))
        if deck_doc is None or sheet_doc is None or front is None or back is None:
            continue
        overrides = raw["sheet"] if isinstance(raw.get("sheet"), dict) else {}
        tab = _tab(raw, loaded, i, report)
        piece = (front.size[0], 2 * front.size[1] + 2 * tab) if raw.get("shape") == "standee" \
            else front.size
        sheet = resolve_sheet(sheet_preset_id(raw), sheet_doc, report, piece,
                              {k: v for k, v in overrides.items() if k != "preset"},
                              lambda path, i=i: loaded.game.locate(("decks", i, "sheet") + path))
        if sheet is None:
            continue
        try:
            tint = _color(raw.get("color", DECK_COLOR), palette, f"deck '{raw['id']}': color",
                          loaded.game.locate(("decks", i, "color")), report)
        except _BadColor:
            continue
        decks.append(Deck(
            id=raw["id"],
            name=raw.get("name", raw["id"]),
            cards=tuple(generate_cards(deck_doc, raw["id"], data, macros_text, report,
                                       raw.get("fields"))
                        if "generate" in deck_doc.data else
                        _cards(deck_doc, raw["id"], loaded.bad_cards.get(raw["id"], set()), report,
                               raw.get("fields"))),
            sheet=sheet,
            color=raw.get("color", DECK_COLOR),
            tint=tint,
            front=front,
            back=back,
            fields=raw.get("fields"),
            backs=raw.get("backs", "grouped"),
            slots=raw.get("slots"),
            guide=raw.get("guide", ""),
            card_backs=frozen_mapping({c["back"]: layouts[c["back"]] for c in
                                       deck_doc.data.get("cards") or [] if isinstance(c, dict)
                                       and isinstance(c.get("back"), str) and c["back"] in layouts
                                       and layouts[c["back"]]}),
            source=loaded.game.source,
            path=("decks", i),
            shape=raw.get("shape", "card"),
            tab=tab,
        ))
    font = (g.get("rulebook") or {}).get("font") if isinstance(g.get("rulebook"), dict) else None
    if font and font not in fonts:
        report.error(f"rulebook: font: unknown font family '{font}' (families: "
                     f"{', '.join(fonts)})", loaded.game.locate(("rulebook", "font")), "font")
    rulebook = resolve_rulebook(loaded, g, report, palette)
    boards = resolve_boards(loaded, decks, report, layouts, palette)
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
        rulebook=rulebook,
        macros=macros_text,
        boards=boards,
        stamp=flag(g.get("stamp", False)),
        declared_lang=g.get("lang", ""),
        targets=declared_targets(g), target=loaded.target,
        python_checks=tuple(loaded.python_checks),
        stats=resolve_stats(loaded),
        max_score=g.get("max_score"),
    )


def _tab(raw: dict, loaded: LoadedGame, i: int, report: Report) -> float:
    """A standee's base tab: `tab:` (default 10 mm), for decks of shape standee."""
    if raw.get("shape") != "standee":
        return 0.0
    try:
        tab = parse_length(raw.get("tab", "10mm"))
    except ValueError as exc:
        report.error(f"deck '{raw['id']}': tab: {exc}", loaded.game.locate(("decks", i, "tab")),
                     "units")
        return mm(10)
    return tab


def resolve_rulebook(loaded: LoadedGame, g: dict, report: Report,
                     palette: dict | None = None) -> Rulebook | None:
    if loaded.rulebook is None:
        return None
    raw = g["rulebook"]
    try:
        accent = _color(raw.get("accent", DECK_COLOR), palette or {}, "rulebook: accent",
                        loaded.game.locate(("rulebook", "accent")), report)
    except _BadColor:
        return None
    file, text = loaded.rulebook
    page = raw.get("page", "A5")
    if isinstance(page, str):
        name, size = paper_name(page), paper_size(page)
    else:
        try:
            name, size = "", (parse_length(page[0]), parse_length(page[1]))
        except ValueError as exc:
            report.error(f"rulebook: page: {exc}", loaded.game.locate(("rulebook", "page")),
                         "units")
            return None
        low, high = (mm(74), mm(105)), mm(420)  # A7: room for margins and text; A3's side
        if not (low[0] - SIZE_TOLERANCE <= size[0] <= high and
                low[1] - SIZE_TOLERANCE <= size[1] <= high):
            report.error(f"rulebook: page: {show_size(size)} is not a page a rulebook can have: "
                         f"from {show_size(low)} (A7) to {show_size((high, high))}",
                         loaded.game.locate(("rulebook", "page")), "units")
            return None
    return Rulebook(file=file, text=text, page=name,
                    title=raw.get("title", g["title"]), accent=accent,
                    loc=loaded.game.locate(("rulebook",)),
                    includes=frozen_mapping(loaded.rulebook_includes),
                    size=size, booklet=booklet_sheet(name, size, raw.get("booklet")),
                    align=raw.get("align", "justify"), font=raw.get("font", ""),
                    smart_quotes=flag(raw.get("smart_quotes", False)))


def booklet_sheet(page: str, size: tuple[float, float], asked: str | None) -> tuple[float, float]:
    """The landscape sheet a saddle-stitched booklet of `page` is printed on: the one asked
    for, the paper the page is half of (A5 on A4, Half-letter on Letter...), or for a page
    of its own size the smallest paper that holds two side by side (else exactly two)."""
    name = paper_name(asked) if asked else BOOKLET_SHEETS.get(page)
    if name is None:
        fits = [p for p in PAPER if max(paper_size(p)) >= 2 * size[0] - SIZE_TOLERANCE and
                min(paper_size(p)) >= size[1] - SIZE_TOLERANCE]
        if not fits:
            return 2 * size[0], size[1]
        name = min(fits, key=lambda p: PAPER[p][0] * PAPER[p][1])
    w, h = paper_size(name)
    return max(w, h), min(w, h)


def resolve_stats(loaded: LoadedGame) -> StatsSpec:
    """game.yaml's `stats:` as written (its schema already checked); what the names mean is
    checked by the stats stage."""
    raw = loaded.game.data.get("stats") or {}
    views = tuple(StatsView(v["deck"], tuple(v["fields"]), v.get("title", ""),
                            ("stats", "views", i)) for i, v in enumerate(raw.get("views") or ()))
    tables = tuple(StatsTable(t["name"], t["deck"], t["for"], t.get("label"), t["counts"],
                              ("stats", "tables", i)) for i, t in enumerate(raw.get("tables") or ()))
    questions = []
    for i, q in enumerate(raw.get("odds") or ()):
        need = []
        for j, r in enumerate(q["need"]):
            exactly = r.get("exactly")
            need.append(Requirement(
                tuple(r.get("cards") or ()), r.get("where"),
                exactly if exactly is not None else r.get("at_least", None if "at_most" in r else 1),
                exactly if exactly is not None else r.get("at_most"),
                ("stats", "odds", i, "need", j)))
        questions.append(Question(q["id"], q.get("question", q["id"]), q["deck"], str(q["hand"]),
                                  tuple(need), q.get("for"), q.get("label"), q.get("counts"),
                                  ("stats", "odds", i)))
    return StatsSpec(views, frozen_mapping(dict(raw.get("colors") or {})),
                     frozen_mapping(dict(raw.get("labels") or {})), tables, tuple(questions),
                     loaded.game.source)


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
