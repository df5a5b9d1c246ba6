"""The game model: what the resolve stage builds and every later stage reads.

Frozen dataclasses, plain values, no I/O. Lengths are in PostScript points.
Every object that a later stage may complain about carries its `Location`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Mapping

from .colors import Color, parse_color
from .problems import Location, unpacked
from .units import mm

TBD = "TBD"  # the draft marker: a value the designer has not decided yet
# The keys cardgen itself gives a card entry, beside the designer's own fields: one list,
# used by resolve (what is not a field), validate (what a field declaration may not
# declare) and spreadsheets (how a column is typed).
CARD_KEYS = ("id", "copies", "blank", "back", "filler")
# The label of what a game's editor adds to what its documents say (a reminder on a card, a
# sentence of the rulebook, a player aid), in the game's language: `{{ editor_note }}` in any
# template, `> [!EDITOR]` in a rulebook (docs/rulebook.md). Marked so, it is never read as
# the game's own rule.
EDITOR_NOTE = {"ja": "【編集注】", "en": "Editor's note:"}
DECK_COLOR = "#3b4a6b"  # a deck's colour, and the rulebook's accent, where none is given
MAX_COPIES = 999  # copies of one card: more is almost surely a typo
MAX_CARDS = 100_000  # a game larger than this is almost surely a mistake; split it
MAX_REPEAT = 1000  # copies of one element on one face (`repeat:`): pips, icons, a track's spaces



# Defaults the model's dataclasses cannot hold as field defaults, each kept once, here.
DEFAULT_BLEED = mm(3)  # a card layout's bleed, and its safe margin
DEFAULT_SAFE = mm(3)
DEFAULT_MARKS = (mm(4), mm(2))  # crop marks: their length, and their distance from the grid
DEFAULT_UNPRINTABLE = mm(5)  # from each paper edge: what most printers cannot print (a preset's
# `unprintable:` says its own); crop marks, cards and their bleed stay outside it


def default(cls, name: str):
    """The default of a model dataclass's field: what resolve gives where nothing is
    written (so that each default is written once, on the model)."""
    return cls.__dataclass_fields__[name].default


def frozen_mapping(d: Mapping | None = None) -> Mapping:
    return MappingProxyType(dict(d or {}))


def plain(value: Any) -> Any:
    """Data as plain dicts and lists: the model's read-only mappings unwrapped, for
    templates, checks and comparisons."""
    if hasattr(value, "keys"):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class SourceMap:
    """Where every value (and key) of one file stood, by key path: ("cards", 3, "copies").
    The tables keep each place packed (problems.packed): `locate` gives Locations."""

    file: str
    value_locs: Mapping[tuple, int | Location] = field(default_factory=frozen_mapping)
    key_locs: Mapping[tuple, int | Location] = field(default_factory=frozen_mapping)

    def locate(self, path: tuple = (), key: bool = False) -> Location:
        """The location of the value (or key) at `path`, or of its nearest parent."""
        path = tuple(path)
        if key and path in self.key_locs:
            return unpacked(self.file, self.key_locs[path])
        while path:
            if path in self.value_locs:
                return unpacked(self.file, self.value_locs[path])
            path = path[:-1]
        if () in self.value_locs:
            return unpacked(self.file, self.value_locs[()])
        return Location(self.file, 1, 1)


@dataclass(frozen=True)
class FontFamily:
    name: str  # as layouts name it: "gothic"
    regular: str  # registered reportlab font name
    bold: str
    fallback: tuple[str, ...] = ()  # families to take a character from when this one lacks it
    italic: str = ""  # registered names of its italics, "" where it has none
    bold_italic: str = ""

    def face(self, bold: bool, italic: bool = False) -> str:
        """The registered font for a weight and slant (upright where it has no italic)."""
        if italic and self.italic:
            return (self.bold_italic or self.bold) if bold else self.italic
        return self.bold if bold else self.regular


@dataclass(frozen=True)
class SheetPreset:
    id: str
    name: str
    paper: tuple[float, float]  # width, height
    card: tuple[float, float]
    columns: int
    rows: int
    margin_left: float
    margin_top: float
    gap: tuple[float, float]  # between columns, between rows
    duplex: str  # "long-edge" or "short-edge"
    loc: Location
    crop_marks: tuple[float, float] | None = None  # (length, offset from the grid) or none
    bleed: bool = False  # print each card's bleed where the gaps leave room for it
    precut: bool = True  # pre-cut (perforated) stock, as opposed to plain paper
    unit: str = "mm"  # what its lengths are written in ("mm" or "in"): messages use it
    margins_written: Mapping[str, float] = field(default_factory=frozen_mapping)  # right, bottom
    unprintable: float = 0.0  # from each paper edge, nothing prints (the printer cannot)
    mixed: bool = False  # pieces of other sizes and shapes may share its pages (plain paper)
    where: Mapping[str, Location] = field(default_factory=frozen_mapping)  # "grid", "margins.right"

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


@dataclass(frozen=True)
class ExportSize:
    """A card size a print-on-demand service takes, with its template's pixel size."""

    name: str
    trim: tuple[float, float]  # points
    pixels: tuple[int, int]  # the template's image, bleed included
    loc: Location


@dataclass(frozen=True)
class ExportProfile:
    """How a print shop wants a game's faces (layouts/exports/<name>.yaml): one file per
    distinct face, as PDF (bleed, trim marks, CMYK with an output intent) or as PNG at a
    template's pixel size."""

    name: str
    description: str
    format: str  # a format of generator/formats: "pdf", or a picture per face: "png", "jpeg"
    bleed: float  # points, on every side of the trim
    safe: float  # points inside the trim that text and pictures keep clear of
    marks: str  # "tombo" (Japanese trim marks) or "none"
    color: str  # "cmyk" or "rgb"
    icc: str | None  # absolute path of the CMYK output profile (color: cmyk)
    output_condition: str  # what the output intent calls the printing condition
    black_text: str  # "k-only": text in black and greys prints on K alone; or "convert"
    max_ink: int  # percent: the most ink (all four plates) the shop takes anywhere
    rich_black: tuple[float, ...] | None  # the CMYK black of large black areas
    overprint: str  # "black": K100 text, lines and small fills overprint; or "none"
    boards: bool  # the game's boards too, each at its size with the bleed (a PDF profile)
    rulebook: str  # "single-pages": the rulebook too, page by page with the bleed; or "none"
    min_image_dpi: int
    dpi: int  # PNG resolution
    tolerance: float  # points a card may differ from a size and still be printed at it
    sizes: tuple[ExportSize, ...]
    loc: Location
    raster: bool = False  # a picture per face at a template's pixel size, not a PDF page
    extension: str = "pdf"  # of the files it writes (its format's)

    def template_for(self, trim: tuple[float, float]) -> ExportSize | None:
        """The profile's size for a card of `trim`, either way up, turned to the card's
        orientation (its trim and pixels the card's way round), or None."""
        for size in self.sizes:
            for turned in (size, ExportSize(size.name, size.trim[::-1], size.pixels[::-1],
                                            size.loc)):
                if abs(turned.trim[0] - trim[0]) <= self.tolerance and \
                        abs(turned.trim[1] - trim[1]) <= self.tolerance:
                    return turned
        return None


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    copies: int
    blank: bool
    fields: Mapping[str, Any]  # the designer's fields: name, name_en, effect, ...
    source: SourceMap  # the deck file
    path: tuple  # the card's entry in it: ("cards", 3)
    back: str | None = None  # a back layout of the card's own (a double-sided card)
    filler: bool = False  # only fills a home-print sheet: not played, exported or ordered

    @property
    def loc(self) -> Location:
        return self.source.locate(self.path)

    def locate(self, *sub, key: bool = False) -> Location:
        """Where a field (or a value inside it) of this card stands."""
        return self.source.locate(self.path + sub, key=key)

    def record(self) -> dict:
        """The card as written, for checks and templates: fields plus id, copies, blank, deck."""
        return {**self.fields, "id": self.id, "copies": self.copies, "blank": self.blank,
                "deck": self.deck, **({"back": self.back} if self.back else {}),
                **({"filler": True} if self.filler else {})}

    @cached_property
    def _drafts(self) -> tuple[str, ...]:
        return tuple(k for k, v in self.fields.items() if v == TBD)

    def drafts(self) -> tuple[str, ...]:
        """The names of fields whose value is still TBD."""
        return self._drafts


@dataclass(frozen=True)
class ElementSpec:
    """One element of a layout, after `extends` is merged. Values are as written:
    strings may still hold Jinja2 templates, evaluated per card by the layout stage."""

    name: str
    type: str
    props: Mapping[str, Any]
    locs: Mapping[str, Location]  # where each prop was written (the layout that set it)
    loc: Location
    defaulted: frozenset = frozenset()  # the props it has from `defaults:`, not its own

    def locate(self, key: str) -> Location:
        return self.locs.get(key, self.loc)


@dataclass(frozen=True)
class LayoutSpec:
    """A card face design: its trim size, bleed, safe margin and elements, bottom to top."""

    id: str
    size: tuple[float, float]  # trim width, height
    bleed: float
    safe: float
    elements: tuple[ElementSpec, ...]
    chain: tuple[str, ...]  # this layout and the layouts it extends
    loc: Location
    unit: str = "mm"  # what its lengths are written in ("mm" or "in"): messages use it
    # Where the revision stamp (game.yaml `stamp: true`) goes: (x, y, size), the top-left
    # corner of its line from the card's top-left; None: at the bottom left, in the safe
    # margin. Located at `stamp_loc` (the layout's `stamp:`, or the layout).
    stamp: tuple[float, float, float] | None = None
    stamp_loc: Location | None = None
    # Where the DRAFT badge of a card with TBD values goes: (x, y), its top-left corner from
    # the card's top-left, a place the layout keeps free of text; None: the safe area's
    # top-left. Located at `draft_loc` (the layout's `draft:`, or the layout).
    draft: tuple[float, float] | None = None
    draft_loc: Location | None = None
    # The elements as an ink-saver kit draws them (`ink_saver:` overrides merged in; the
    # layout's own where it declares none): `cardgen pnp --ink-saver`.
    ink_saver: tuple[ElementSpec, ...] | None = None


@dataclass(frozen=True)
class Icon:
    """A named icon: an image file, or a glyph of a font family."""

    name: str
    image: str | None  # absolute path of the image file
    glyph: str | None
    font: str | None  # family name for a glyph
    color: Color | None
    loc: Location

    def glyph_and_font(self) -> tuple[str, str]:
        """The glyph and its font family, of an icon without an image (the schema gives an
        icon either image: or glyph:, and resolve gives a glyph its family)."""
        if self.glyph is None or self.font is None:
            raise ValueError(f"icon '{self.name}' is an image, not a glyph")
        return self.glyph, self.font


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    cards: tuple[Card, ...]
    sheet: SheetPreset
    color: str  # the deck's colour as written (a colour or a palette name): {{ deck.color }}
    front: LayoutSpec
    back: LayoutSpec
    fields: Mapping[str, Any] | None  # field declarations, as written; None: not declared
    source: SourceMap  # game.yaml
    path: tuple  # ("decks", i)
    backs: str = "grouped"  # "grouped": a sheet per back design; "duplex": backs follow fronts
    slots: int | None = None  # the deck's declared shape: undefined slots print as blank fillers
    own_sheet: bool = False  # never shares a sheet with another deck (it does by default)
    guide: str = ""  # what the print guide says about this deck (`guide:` in game.yaml)
    card_backs: Mapping[str, "LayoutSpec"] = field(default_factory=frozen_mapping)  # name -> layout
    shape: str = "card"  # card, circle, square, hex (tokens) or standee
    tab: float = 0.0  # standee: the height of each base tab
    tint: Color | None = None  # its colour, parsed (palette names looked up): charts use it

    @property
    def loc(self) -> Location:
        return self.source.locate(self.path)

    @cached_property
    def total(self) -> int:
        return sum(c.copies for c in self.cards)

    @property
    def piece_size(self) -> tuple[float, float]:
        """What one card prints as: its front's size, or for a standee the whole strip, its
        figure twice (front and mirrored back) between two base tabs."""
        w, h = self.front.size
        return (w, 2 * h + 2 * self.tab) if self.shape == "standee" else (w, h)

    def back_of(self, card: "Card") -> "LayoutSpec":
        """The layout a card's back is drawn with: its own (`back:`), else the deck's."""
        return self.card_backs.get(card.back, self.back) if card.back else self.back

    def instances(self) -> tuple[Card, ...]:
        """Every physical card, each card repeated by its copies, in data order."""
        return tuple(card for card in self.cards for _ in range(card.copies))


@dataclass(frozen=True)
class Invariant:
    """A rule of the game, declared in its checks file as expressions over its data."""

    name: str
    assertion: str  # a Jinja2 expression that must be true
    for_path: str | None  # what to check each of: "data.setup.cards_used.{row}"
    when: str | None  # a Jinja2 expression: check only the items it is true for
    message: str | None  # a Jinja2 template naming the offending values
    at: str | None  # the value to point at: "row.total"
    level: str  # "error" or "warning"
    source: SourceMap  # the checks file
    path: tuple  # ("checks", i)

    def locate(self, *sub) -> Location:
        return self.source.locate(self.path + sub)


@dataclass(frozen=True)
class PythonCheck:
    """A check function from a game's own Python module (`python_checks:` in game.yaml)."""

    name: str
    function: Callable
    loc: Location


@dataclass(frozen=True)
class StatsView:
    """A deck's view (`stats: views:`): one field's distribution, or two fields' cross-table."""

    deck: str
    fields: tuple[str, ...]  # one or two field names; "a.b" reaches into a mapping
    title: str
    path: tuple  # ("stats", "views", i) in game.yaml


@dataclass(frozen=True)
class Requirement:
    """One part of a draw condition: how many cards of the hand must be among `cards`, or
    satisfy `where` (a Jinja2 expression over `card`)."""

    cards: tuple[str, ...]
    where: str | None
    at_least: int | None
    at_most: int | None
    path: tuple  # ("stats", "odds", i, "need", j)
    given: tuple[str, ...] = ()  # which of at_least, at_most, exactly are written


@dataclass(frozen=True)
class Question:
    """A draw-odds question (`stats: odds:`): the chance that `hand` cards drawn from a pool
    meet every requirement. With `for`, one answer per item of a data table."""

    id: str
    question: str
    deck: str
    hand: str  # an integer, or a Jinja2 expression giving one
    need: tuple[Requirement, ...]
    for_path: str | None
    label: str | None  # a Jinja2 template naming each item
    counts: str | None  # an expression: card id -> copies in the pool ('all': the deck's)
    path: tuple


@dataclass(frozen=True)
class StatsTable:
    """A data table that makes a deck's pool per item (`stats: tables:`), e.g. the cards used
    by player count: each item's total and composition."""

    name: str
    deck: str
    for_path: str
    label: str | None
    counts: str
    path: tuple


@dataclass(frozen=True)
class DiceRoll:
    """Dice whose total game.yaml asks about (`stats: dice:`): standard dice (`2d6`,
    `1d20+3`) or `count` dice of a custom die (`faces:`, a list or an expression giving one),
    and the totals to answer for (at least, at most, exactly)."""

    id: str  # what odds() and dice() in a rulebook name it by (its name without an id)
    name: str
    dice: str  # as written: "2d6+1d4", or "" for a custom die
    count: int  # custom dice: how many are rolled
    faces: tuple[int, ...] | str | None  # a custom die's faces, or an expression
    asks: tuple[tuple[str, int], ...]  # ("at_least", 7), ("exactly", 12)...
    path: tuple  # ("stats", "dice", i) in game.yaml


@dataclass(frozen=True)
class StatsSpec:
    """What game.yaml's `stats:` declares; every field gets a view without it."""

    views: tuple[StatsView, ...] = ()
    colors: Mapping[str, str] = field(default_factory=frozen_mapping)  # field -> expression
    labels: Mapping[str, str] = field(default_factory=frozen_mapping)  # field -> expression
    tables: tuple[StatsTable, ...] = ()
    questions: tuple[Question, ...] = ()
    source: SourceMap | None = None  # game.yaml
    dice: tuple[DiceRoll, ...] = ()

    def locate(self, path: tuple) -> Location:
        if self.source is None:  # nothing is declared (the default): nothing to point at
            raise LookupError(f"stats: {path} is not declared")
        return self.source.locate(path)

    @property
    def declared(self) -> bool:
        return bool(self.views or self.colors or self.labels or self.tables or self.questions
                    or self.dice)


@dataclass(frozen=True)
class Cell:
    """A space of a board drawn from data: a grid square, a hex, a named area."""

    key: tuple  # its coordinates: (column, row), (q, r), or (name,) for an area
    label: str  # what it shows as its coordinates, or the area's label
    tile: str | None  # a card of the board's deck placed on it
    record: Mapping[str, Any]  # its values (with its type's), for a cell layout as `card`
    source: "SourceMap"  # the data file it is written in
    path: tuple  # its entry there
    x: float = 0.0  # areas: top-left corner from the board's top-left, points
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    shape: str = ""  # areas: rect, circle or hex
    color: Color | None = (1.0, 1.0, 1.0)  # its fill (None: none)

    @property
    def loc(self) -> Location:
        return self.source.locate(self.path)

    def locate(self, *sub) -> Location:
        return self.source.locate(self.path + sub)


@dataclass(frozen=True)
class Board:
    """A board: a deck's cards (tiles) or cells from data, placed by a board layout of layouts/
    boards/, drawn to scale; its shape's own values are `spec` (its frozen dataclass).
    left_out: cells such as a place off the board, still checked without them."""

    id: str
    title: str
    layout: str  # the board layout's name
    loc: Location
    shape: str  # a shape of generator/boards
    spec: Any  # the shape's own values (its module's Spec)
    deck: str | None = None  # the deck its tiles come from (None: cells drawn from data only)
    cards: tuple[str, ...] = ()  # card ids, in order along the shape
    tile_shape: str = "card"  # its deck's shape (Deck.shape): a round token's tile is round
    margin: float = mm(10)  # around the shape, on the board
    papers: tuple[str | tuple[float, float], ...] = ("A3", "A4")  # names or sizes: see BOARD
    overlap: float = mm(10)  # between split pages
    print_margin: float = mm(6)  # kept free at the paper's edge
    color: Color | None = parse_color("#f4efe4")  # its ground (None: none)
    labels: bool = True  # label each cell with its coordinates
    font: str | None = None  # the family its labels are set in (None: the game's main one)
    font_loc: Location | None = None  # where its layout names it
    title_loc: Location | None = None  # where its title is written (None: its entry, the id)
    outline: Color | None = (0.55, 0.55, 0.55)  # the line around each cell (None: none)
    outline_width: float = 0.5
    label_size: float = 5.5  # pt: a cell's coordinates, an area's or place's name
    cells: tuple[Cell, ...] = ()
    left_out: tuple[str, ...] = ()  # cells left out for errors said at their cause
    cell_layout: "LayoutSpec | None" = None  # draws each cell, `card` being its record
    types: tuple[str, ...] | None = None  # the cell types its `types:` table names
    art_layout: "LayoutSpec | None" = None  # drawn on the board, under its cells (`art:`)
    background: str | None = None  # a picture file (its absolute path): over the ground
    background_fit: str = "cover"  # how it fills the board: cover, contain or stretch
    name = property(lambda self: self.title or self.id)  # its title, or its id (title: "")


@dataclass(frozen=True)
class Rulebook:
    """A rulebook template (Markdown with Jinja2) and how to print it."""

    file: str  # as shown to the user
    text: str
    page: str  # a paper of RULEBOOK_PAGES ("A5", "Letter"...), or "" for a size of its own
    title: str
    accent: Color  # colour for headings and rules
    loc: Location  # the `rulebook:` entry in game.yaml
    title_loc: Location | None = None  # where its title is written (rulebook: or game title)
    # Files the template includes, imports or extends: name as written -> (file as shown, text)
    includes: Mapping[str, tuple[str, str]] = field(default_factory=frozen_mapping)
    align: str = "justify"  # body text: "justify", or "left" (ragged right)
    font: str = ""  # the font family of its text ("" : the game's main family)
    smart_quotes: bool = True  # "straight" quotes set as “typographer's” (textflow.typography)
    indent: bool = True  # a Japanese paragraph's first line set in by one em (字下げ)
    writing: str = "horizontal"  # or "vertical": 縦書き, in 段 from the top, bound on the right
    columns: int | None = None  # columns (段 in vertical writing); None: rulebook.pages's rule
    columns_loc: Location | None = None  # where `columns:` is written
    size: tuple[float, float] = (0.0, 0.0)  # the page, in points
    booklet: tuple[float, float] = (0.0, 0.0)  # the booklet's sheet (landscape), in points

    @property
    def vertical(self) -> bool:
        """Set in vertical writing (縦書き), bound on the right."""
        return self.writing == "vertical"


@dataclass(frozen=True)
class Game:
    id: str  # the folder name under cards/
    title: str
    title_en: str
    version: str
    folder: str  # as shown to the user, e.g. "cards/lastdance"
    decks: tuple[Deck, ...]
    data: Mapping[str, Any]  # named data tables (setup tables, rulings)
    data_sources: Mapping[str, SourceMap]  # table name -> where its values stand
    fonts: Mapping[str, FontFamily]
    loc: Location
    root: str = ""  # the game folder's absolute path: images are found below it
    project_root: str = ""  # nothing outside it is ever read
    colors: Mapping[str, Color] = field(default_factory=frozen_mapping)  # the game's palette
    icons: Mapping[str, Icon] = field(default_factory=frozen_mapping)
    checks: tuple[Invariant, ...] = ()
    python_checks: tuple[PythonCheck, ...] = ()
    rulebook: Rulebook | None = None
    macros: str = ""  # the game's Jinja2 macros file (`macros:`), shared by all its templates
    boards: tuple[Board, ...] = ()
    stamp: bool = False  # print the version and a content hash small on every card front
    revised: str = ""  # its folder's last commit date, ISO 8601 UTC ("": not in git)
    declared_lang: str = ""  # `lang:` in game.yaml, "en" or "ja"; "": found from the game
    targets: tuple[str, ...] = ()  # the print targets game.yaml declares
    target: str | None = None  # the one this model is built for (None: as written)
    target_loc: Location | None = None  # where game.yaml declares it
    stats: StatsSpec = StatsSpec()  # the statistics views and odds questions it declares
    max_score: int | None = None  # `max_score:` in game.yaml: a score track must reach it

    @property
    def display_title(self) -> str:
        """As files show it: "ラストダンス (Save the Last Dance for Me)"; once if they are one."""
        return self.title + (f" ({self.title_en})" if self.title_en not in ("", self.title) else "")

    @property
    def stem(self) -> str:
        """What its files' names start with: the game's id, and the target's name where the
        game declares several targets (a single target keeps the game's own names)."""
        return f"{self.id}-{self.target}" if self.target and len(self.targets) > 1 else self.id

    @property
    def first_target(self) -> bool:
        """True unless this is a target after the first: the rulebook and boards are built
        once, with the first target."""
        return self.target is None or not self.targets or self.target == self.targets[0]

    @property
    def lang(self) -> str:
        """The game's language ("en" or "ja"): the words cardgen itself writes (the rulebook's
        cover and contents) and the preview page's `lang`. As declared, or Japanese when its
        title or its first cards' text has Japanese characters."""
        if self.declared_lang:
            return self.declared_lang
        texts = [self.title]
        for card in self.cards()[:20]:
            texts += [str(v) for v in card.fields.values() if isinstance(v, str)]
        return "ja" if any(_japanese(ch) for text in texts for ch in text) else "en"

    def cards(self) -> tuple[Card, ...]:
        return tuple(c for d in self.decks for c in d.cards)

    @property
    def main_family(self) -> FontFamily:
        """The family for cardgen's own text (labels, guides, page numbers): gothic, or
        the first family fonts.yaml names."""
        return self.fonts.get("gothic") or next(iter(self.fonts.values()))


def _japanese(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uff66" <= ch <= "\uff9f"
