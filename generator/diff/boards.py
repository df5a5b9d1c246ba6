"""What changed in a game's boards between two versions (`cardgen diff`, errata): each page
as a build imposes it, compared by what it places and marks, then, where that differs, by
its pixels; and why, in words computed from what printed: a cell by the label it prints
and each of its values that prints, the data its cell layout read, a map's routes by the
places they join, the board's own values by name, a tile it places that was reprinted."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..i18n import _


@dataclass
class BoardChanges:
    board: str
    pages_before: int
    pages_after: int
    pages: list[int]  # pages of the new version that print differently (1-based)
    causes: list[str]  # why, in words
    cells: list[tuple] = field(default_factory=list)  # (label, key, before, after) changed
    other: list[str] = field(default_factory=list)  # the causes that are not `cells`
    data: set[str] = field(default_factory=set)  # the data paths its cell layout printed


def board_page_identities(faces, font: str) -> dict[str, list[str]]:
    """Board id -> the identity of each of its pages, as impose splits it."""
    from ..identity import face_identity, item_digest
    from ..impose import impose_board
    out = {}
    for board_face in faces.boards:
        identities = []
        for page in impose_board(board_face, font):
            h = hashlib.sha256(repr((page.width, page.height)).encode())
            for p in page.placements:
                h.update(face_identity(p.face).encode() + repr((p.x, p.y, p.rotate, p.clip,
                                                                 p.bleed)).encode())
            for item in page.marks:
                h.update(item_digest(item))
            identities.append(h.hexdigest()[:24])
        out[board_face.board.id] = identities
    return out


BOARD_DPI = 72  # the raster two board pages are compared at, when their identities differ


def _same_pixels(old_page, new_page, font: str) -> bool:
    """Whether two board pages put the same pixels on paper: a page places the whole board
    face clipped to its part, so a change elsewhere on the board changes its identity, not
    what it prints."""
    from ..write.png import rasterise
    before, after = rasterise([old_page, new_page], BOARD_DPI, font)
    return before == after


def compare_boards(old_faces, new_faces, font: str, show, reads=None, data_changes=(),
                   reprinted=frozenset()) -> list[BoardChanges]:
    """Each board whose pages print differently (their pixels, not only their identity),
    with its changed pages and why: the cells whose printed values changed, named by
    their printed label, the data its cell layout printed (`data_changes`: path, before,
    after, and whether it is an entry added or removed), the tiles placed on it that were
    reprinted (`reprinted`: card ids), its values. `reads`: the old and new versions'
    `_Read` (diff/__init__.py), for what a cell's layout reads."""
    from ..impose import impose_board
    old_ids = board_page_identities(old_faces, font)
    new_ids = board_page_identities(new_faces, font)
    old_boards = {b.board.id: b for b in old_faces.boards}
    out = []
    for board_face in new_faces.boards:
        board = board_face.board
        before, after = old_ids.get(board.id, []), new_ids[board.id]
        if before == after:
            continue
        pages = [n for n, digest in enumerate(after, 1)
                 if n > len(before) or before[n - 1] != digest]
        old_face = old_boards.get(board.id)
        if old_face is not None and len(before) == len(after):
            old_pages, new_pages = impose_board(old_face, font), impose_board(board_face, font)
            pages = [n for n in pages
                     if not _same_pixels(old_pages[n - 1], new_pages[n - 1], font)]
            if not pages:
                continue
        causes, cells, other = _board_causes(old_face, board_face, show, reads)
        data = _board_printed(old_face, board_face, show, reads, data_changes, reprinted)
        causes += [cause for _path, cause in data]
        other += [cause for _path, cause in data]
        out.append(BoardChanges(board.id, len(before), len(after), pages, causes, cells, other,
                                {path for path, _cause in data if path}))
    for board_id, before in old_ids.items():
        if board_id not in new_ids:
            out.append(BoardChanges(board_id, len(before), 0, [], [_("the board was removed")]))
    return out


# What a board's shape draws of a cell itself, whatever its cell layout reads: its fill
# (its own colour or its type's), its label, the tile placed on it, and where an area or
# a map's place stands, its shape and size.
_DRAWN = ("color", "label", "tile", "type", "x", "y", "w", "h", "shape", "size")


def _board_values(a, b) -> list[tuple[str, object, object]]:
    """The values of a board (its shape's and its own) that changed: (name, before, after)."""
    import dataclasses
    out = []
    if type(a.spec) is type(b.spec) and dataclasses.is_dataclass(a.spec):
        out += [(f.name, getattr(a.spec, f.name), getattr(b.spec, f.name))
                for f in dataclasses.fields(a.spec) if f.name != "routes"
                and getattr(a.spec, f.name) != getattr(b.spec, f.name)]
    elif a.spec != b.spec:
        out.append(("shape", a.spec, b.spec))
    out += [(key, getattr(a, key), getattr(b, key))
            for key in ("margin", "papers", "overlap", "print_margin", "color")
            if getattr(a, key) != getattr(b, key)]
    return out


def _kinds(board) -> dict[str, str]:
    """The kind (options.KINDS) of each value of a board: its shape's options', the
    board's own; a track's `numbers` is its first and last."""
    from ..boards import BOARD, shape
    kinds = {"numbers": "range"}
    for options in (BOARD, getattr(shape(board), "OPTIONS", ())):
        kinds.update({option.key: option.kind for option in options})
    return kinds


def _board_value(kind: str | None, value):
    """A board's value as its layout writes it: a length in mm, a colour in hex, a pair
    as its two values, a range as first–last."""
    from ..units import show_paper, to_mm
    if kind == "papers" and isinstance(value, tuple):  # names, or sizes ("600 x 400 mm")
        return ", ".join(show_paper(p) for p in value)
    if kind == "color" and isinstance(value, tuple) and len(value) == 3:
        return "#" + "".join(f"{round(v * 255):02x}" for v in value)
    if kind == "range" and isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}–{value[1]}"
    if kind in ("length", "size") and isinstance(value, (int, float)):
        return f"{round(to_mm(value), 2):g}mm"
    if isinstance(value, tuple):
        return ", ".join(str(_board_value(kind, v)) for v in value)
    return value


def _board_causes(old, new, show, reads=None) -> tuple[list[str], list[tuple], list[str]]:
    """Why a board prints differently, in words; its cells' printed values that changed as
    (label, key, before, after); and the words of the other causes (not those values)."""
    if old is None:
        return [_("a new board")], [], [_("a new board")]
    a, b = old.board, new.board
    causes: list[str] = []
    cells: list[tuple] = []
    other: list[str] = []

    def said(cause: str, value: tuple | None = None) -> None:
        causes.append(cause)
        if value:
            cells.append(value)
        else:
            other.append(cause)
    old_cells = {c.key: c for c in a.cells}
    for cell in b.cells:
        was = old_cells.get(cell.key)
        if was is None:
            said(_("cell {label} added", label=_named(cell)))
            continue
        changed = [k for k in sorted(set(was.record) | set(cell.record), key=str)
                   if was.record.get(k) != cell.record.get(k)]
        if not changed:
            continue
        seen = () if reads is None else (reads[0].cell(a, was), reads[1].cell(b, cell))
        for key in changed:
            if key == "color" and "type" in changed:
                continue  # its type's colour: the type is said
            if key in _DRAWN or any(r is not None and r.under("card", str(key)) for r in seen):
                before, after = was.record.get(key), cell.record.get(key)
                said(_("cell {label} {key}: {change}", label=_named(cell), key=key,
                       change=show(before, after)),
                     (_named(cell), key, before, after))
    kept = {c.key for c in b.cells}
    for k, c in old_cells.items():
        if k not in kept:
            said(_("cell {label} removed", label=_named(c)))
    if a.layout != b.layout or a.shape != b.shape:
        said(_("the board layout '{layout}'", layout=b.layout))
    else:  # each of its values that changed, by name (in the board entry or its layout)
        kinds = _kinds(b)
        for key, before, after in _board_values(a, b):
            said(_("the board's {key}: {change}", key=key, change=show(
                _board_value(kinds.get(key), before), _board_value(kinds.get(key), after))))
    for cause in _route_changes(a, b, show):
        said(cause)
    if a.cards != b.cards:
        said(_("the tiles it places"))
    return causes, cells, other


def _named(cell) -> str:
    """A cell as a change names it: the label it prints, or (an area or place that prints
    none) its id."""
    return cell.label or "/".join(map(str, cell.key))


_ROUTE_KINDS = {"color": "color", "width": "length", "style": None, "wrap": None}
EDGES = {"left": _("the left edge"), "right": _("the right edge"),  # a wrapping route's
         "top": _("the top edge"), "bottom": _("the bottom edge")}  # (as `wrap:` names them)


def _route_changes(a, b, show) -> list[str]:
    """A map's routes added, removed or drawn otherwise, each by the names the board
    prints for the places it joins (`Paris – Lyon`; a place without a label by its id);
    where a route is written in its file, and which of its places it names first, are not
    changes. A route that wraps round the board is another route than the direct one
    between the same places (the map allows both, boards/map.py): it is said with the edge
    it crosses (`Paris – Lyon, across the right edge`), its edge changed a change of it."""
    def key(route) -> tuple:
        return (*sorted(route.ends), bool(route.wrap))
    before = {key(r): r for r in getattr(a.spec, "routes", ())}
    after = {key(r): r for r in getattr(b.spec, "routes", ())}
    labels = {c.key[0]: c.label or str(c.key[0]) for c in (*a.cells, *b.cells)}

    def named(route):
        ends = " – ".join(labels.get(end, end) for end in route.ends)
        return _("{route}, across {edge}", route=ends, edge=EDGES.get(route.wrap, route.wrap)) \
            if route.wrap else ends
    out: list[str] = []
    for ends, route in after.items():
        name = named(route)
        was = before.get(ends)
        if was is None:
            out.append(_("route {route} added", route=name))
            continue
        out += [_("route {route} {key}: {change}", route=name, key=key, change=show(
            _board_value(kind, getattr(was, key)), _board_value(kind, getattr(route, key))))
            for key, kind in _ROUTE_KINDS.items() if getattr(was, key) != getattr(route, key)]
    out += [_("route {route} removed", route=named(route))
            for ends, route in before.items() if ends not in after]
    return out


def _board_printed(old, new, show, reads, data_changes, reprinted) -> list[tuple[str, str]]:
    """What else a board prints that changed, as (data path or "", cause): the data values
    its cells' layout read, the tiles placed on it that were reprinted; if nothing is
    found, what its faces draw."""
    out: list[tuple[str, str]] = []
    board = new.board
    if old is not None and reads is not None and data_changes and (
            board.cell_layout is not None or old.board.cell_layout is not None):
        seen = [reads[0].cell(old.board, c) for c in old.board.cells] + \
            [reads[1].cell(board, c) for c in board.cells]
        for path, a, b, grown in data_changes:
            if any(r is not None and r.under("data", path, grown) for r in seen):
                out.append((path, _("data {path}: {change}", path=path, change=show(a, b))))
    out += [("", _("the tile '{card}' it places (its face changed)", card=card))
            for card in dict.fromkeys(board.cards) if card in reprinted]
    return out
