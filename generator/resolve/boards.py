"""Boards: each entry of game.yaml's `boards:` with its board layout, as the model's Board.

What every board has (its deck and run of cards, its cells from data, the common keys of
its layout) is read here; what its shape has of its own, by the shape's module
(generator/boards), whose Spec defaults are the model's.
"""

from __future__ import annotations

from .. import boards as shapes
from .. import images, sandbox
from ..boards.base import LISTS, STYLE_KEYS, CellProblem, Entry
from ..colors import parse_color
from ..load import LoadedGame
from ..model import Board, Cell, Deck, default
from ..problems import Report
from ..units import PAPER_SIDES, mm, paper_size, show_paper, show_size
from ..values import Reader
from ..i18n import _, said

MAX_MAP_CELLS = 10_000  # rows x columns a map's plain cells are made for (validate says more)


def data_value(loaded: LoadedGame, path: str):
    """The value a path such as data.map.cells names in the game's data (None: nothing)."""
    parts = path.split(".")[1:]
    value = loaded.data[parts[0]].data if parts[0] in loaded.data else None
    for part in parts[1:]:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _run(raw: dict, deck: Deck, data: dict, where, report: Report) -> tuple[str, ...] | None:
    """The card ids a board entry's `cards:` names: a list, or a run {first, last} whose ends
    may be templates over the data; None (reported) when they are not cards of the deck."""
    order = [c.id for c in deck.cards]
    spec = raw["cards"]
    if not isinstance(spec, dict):
        unknown = [c for c in spec if c not in order]
        if unknown:
            report.error(_("board '{raw}': unknown card '{unknown}' in deck '{deck_id}'",
                           raw=raw['id'], unknown=unknown[0],
                           deck_id=deck.id), where("cards"), "reference")
            return None
        return tuple(spec)
    spec = dict(spec)
    for end in ("first", "last"):
        try:
            spec[end] = str(sandbox.render(spec[end], {"data": data}))
        except sandbox.SandboxError as exc:
            report.error(_("board '{raw}': cards: {end}: {exc}",
                           raw=raw['id'], end=end, exc=exc), where("cards", end),
                         "reference")
            return None
    missing = [x for x in (spec["first"], spec["last"]) if x not in order]
    if missing or order.index(spec["first"]) > order.index(spec["last"]):
        report.error(_("board '{raw}': cards {spec} to {spec2} are not a run of deck '{deck_id}'",
                       raw=raw['id'], spec=spec['first'], spec2=spec['last'],
                       deck_id=deck.id), where("cards"), "reference")
        return None
    return tuple(order[order.index(spec["first"]):order.index(spec["last"]) + 1])


def _cells(entry: Entry, shape, spec, types: dict) \
        -> tuple[tuple[Cell, ...], tuple[str, ...]] | None:
    """The cells a board entry's `cells:` gives (its own list, or a path to one in the game's
    data), each located at its entry, and the ids of those left out for a bad value
    (reported at it: the rest of the game is still checked); None (reported) when there is
    no such list."""
    raw, report, where, palette = entry.raw, entry.report, entry.where, entry.palette
    name = raw["id"]
    if not shape.CELLS:
        report.error(_("board '{name}': a {shape_NAME} places no cells from data (cells: is for "
                       "{join})",
                           name=name, shape_NAME=shape.NAME,
                           join=', '.join((n for n, m in shapes.SHAPES.items() if m.CELLS))),
                     where("cells"), "reference")
        return None
    listed = entry.listed("cells", *LISTS["cells"])
    if listed is None:
        return None
    value, source, base = listed
    cells, left_out = [], []
    for i, item in enumerate(value):
        path = base + (i,)
        if not isinstance(item, dict):
            report.error(_("board '{name}': cell {n} is not a mapping",
                           name=name, n=i + 1), source.locate(path),
                         "schema")
            continue
        kind = item.get("type")
        record = {**(types.get(kind) or {} if isinstance(kind, str) else {}), **item}
        tile = item.get("tile") if isinstance(item.get("tile"), str) else None

        def fill(values: dict, item=item):
            """The cell's colour (its own, or its type's), by the one rule for colours."""
            if "color" not in values or values["color"] in ("", None):
                return (1.0, 1.0, 1.0)
            try:
                return parse_color(str(values["color"]), palette)
            except ValueError as exc:
                raise CellProblem(_("color: {exc}",
                                    exc=exc), ("color",) if "color" in item else ()) \
                    from None

        try:
            cells.append(Cell(tile=tile, record=record, source=source, path=path,
                              **shape.cell(item, record, spec, fill)))
        except CellProblem as exc:
            report.error(_("board '{name}': cell {n}: {exc_message}",
                           name=name, n=i + 1, exc_message=exc.message),
                         source.locate(path + exc.key), "schema")
            left_out.append(str(item.get("id", "")))
    return tuple(cells), tuple(left_out)


def _background(layout: Reader, loaded: LoadedGame, report: Report) -> str | None:
    """The board's background picture, found in the game's folder and read (its size, its
    budgets) as any picture is; None where it has none, or one that cannot be read
    (reported at the board layout's `background:`)."""
    src = layout.raw("background")
    if not src:
        return None
    try:
        path = images.find(str(src), str(loaded.folder.resolve()))
        images.inspect(str(path), str(src))
    except images.ImageProblem as exc:
        report.error(_("{layout}: background: {problem}", layout=layout.what,
                       problem=said(exc)), layout.locate(("background",)), "image")
        layout.ok = False
        return None
    return str(path)


def _papers(layout: Reader) -> tuple:
    """A board layout's papers: names, and [width, height] pairs whose sides a paper can
    have (one that cannot is said at its item, and left out)."""
    papers = layout.option(shapes.BOARD["papers"])
    low, high = PAPER_SIDES
    kept = []
    for i, paper in enumerate(papers):
        if isinstance(paper, tuple) and not all(mm(low) <= side <= mm(high) for side in paper):
            layout.report.error(_("{what}: papers: {size} is not a paper's size: each side "
                                  "from {low:g} mm to {high:g} mm", what=layout.what,
                                  size=show_size(paper), low=low, high=high),
                                layout.locate(("papers", i)), "units")
            layout.ok = False
            continue
        kept.append(paper)
    return tuple(kept) or shapes.BOARD.value("papers")


def _common(layout: Reader, palette: dict, shape) -> dict:
    """The keys every board layout has (boards.BOARD), and the style its shape declares
    (boards.base.style: its outline and label size), read as the model's Board takes them."""
    options = getattr(shape, "OPTIONS", None)  # (a shape may declare no keys of its own)
    style = {key: layout.option(options[key], palette) for key in STYLE_KEYS
             if options is not None and key in options}
    # (papers the schema passed: each a name of the PAPER table, or a size checked here)
    papers = _papers(layout)
    # What the page split divides by: a printable part of the last paper, and an overlap
    # less than it; nothing negative (a negative margin drew the board off its page).
    smallest = min(paper_size(papers[-1])) if papers else 0.0
    print_margin = layout.length("print_margin", shapes.BOARD.value("print_margin"), low=0.0,
                                 high=(smallest / 2 - mm(20), _(
                                     "so that 40 mm of {paper} is left to print on",
                                     paper=show_paper(papers[-1])) if papers else _(
                                     "so that 40 mm of the paper is left to print on")))
    printable = smallest - 2 * print_margin
    return dict(
        margin=layout.option(shapes.BOARD["margin"]),
        papers=papers,
        overlap=layout.length("overlap", shapes.BOARD.value("overlap"), low=0.0,
                              high=(printable / 2, _("half the printable part of a page"))),
        print_margin=print_margin,
        color=layout.option(shapes.BOARD["color"], palette),
        background_fit=layout.option(shapes.BOARD["background_fit"]),
        font=layout.option(shapes.BOARD["font"]),
        font_loc=layout.locate(("font",)) if "font" in layout.data else None, **style,
        labels=layout.flag("labels", default(Board, "labels")))


def _deck(loaded: LoadedGame, raw: dict, decks: list[Deck], where,
          report: Report) -> Deck | bool:
    """The deck a board's tiles come from; False when there is none (reported, unless it is
    a deck of the game that could not be resolved: reported at its cause)."""
    deck = next((d for d in decks if d.id == raw["deck"]), None)
    if deck is not None:
        return deck
    if not any(d.get("id") == raw["deck"] for d in loaded.game.data["decks"]):
        report.error(_("board '{raw}': unknown deck '{raw2}'",
                       raw=raw['id'], raw2=raw['deck']), where("deck"), "reference")
    return False


def resolve_board(loaded: LoadedGame, i: int, raw: dict, decks: list[Deck], report: Report,
                  layouts: dict, palette: dict) -> Board | None:
    where = lambda *path: loaded.game.locate(("boards", i) + path)  # noqa: E731
    doc = loaded.boards.get(raw["layout"])
    deck = _deck(loaded, raw, decks, where, report) if "deck" in raw else None
    if doc is None or deck is False:
        return None
    d = doc.data
    shape = shapes.SHAPES[d.get("shape", "ring")]
    data = {k: table.data for k, table in loaded.data.items()}
    layout = Reader(d, doc.locate, _("board layout '{name}'", name=raw['layout']), report)
    entry = Entry(raw, where, data, report, palette, loaded.data, loaded.game.source,
                  ("boards", i))
    spec = shape.resolve(layout, entry)
    if spec is None:
        return None
    cards: tuple[str, ...] = ()
    if isinstance(deck, Deck) and "cards" in raw:
        run = _run(raw, deck, data, where, report)
        if run is None:
            return None
        cards = run
    types = data_value(loaded, raw["types"]) if "types" in raw else {}
    if "types" in raw and not isinstance(types, dict):
        report.error(_("board '{raw}': types: '{raw2}' is not a mapping in the game's data",
                       raw=raw['id'], raw2=raw['types']), where("types"), "reference")
        return None
    if "routes" in raw and not getattr(shape, "ROUTES", False):
        report.error(_("board '{name}': a {shape} has no routes (routes: is for {join})",
                       name=raw["id"], shape=shape.NAME, join=", ".join(
                           n for n, m in shapes.SHAPES.items() if getattr(m, "ROUTES", False))),
                     where("routes"), "reference")
        return None
    cells: tuple = ()
    left_out: tuple[str, ...] = ()
    if "cells" in raw:
        written = _cells(entry, shape, spec, types)
        if written is None:
            return None
        cells, left_out = written
        loaded.tolerated += len(left_out)  # one error each, at its value: checked on without
    elif hasattr(shape, "every_cell") and shape.count(spec) <= MAX_MAP_CELLS:
        cells = tuple(Cell((c, r), shape.label(spec, c, r), None, {"column": c, "row": r},
                           loaded.game.source, ("boards", i)) for c, r in shape.every_cell(spec))
    common = _common(layout, palette, shape)
    background = _background(layout, loaded, report)
    if not layout.ok:
        return None
    return Board(id=raw["id"], title=raw.get("title", raw["id"]), layout=raw["layout"],
                 loc=where(), title_loc=where("title") if "title" in raw else None,
                 shape=shape.NAME, spec=spec,
                 deck=deck.id if isinstance(deck, Deck) else None,
                 cards=cards, cells=cells, left_out=left_out, **common,
                 tile_shape=deck.shape if isinstance(deck, Deck) else default(Board, "tile_shape"),
                 cell_layout=layouts.get(raw["cell"]) if "cell" in raw else None,
                 types=tuple(types) if "types" in raw else None,
                 art_layout=layouts.get(raw["art"]) if "art" in raw else None,
                 background=background)


def resolve_boards(loaded: LoadedGame, decks: list[Deck], report: Report,
                   layouts: dict | None = None, palette: dict | None = None) -> tuple[Board, ...]:
    found = (resolve_board(loaded, i, raw, decks, report, layouts or {}, palette or {})
             for i, raw in enumerate(loaded.game.data.get("boards") or []))
    return tuple(board for board in found if board is not None)
