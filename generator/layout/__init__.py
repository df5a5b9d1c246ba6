"""Stage 4, lay out: turn each card's layout into measured, finished primitives.

For every card and each of its faces, the layout's elements are bound to the
card (Jinja2, sandboxed), their lengths resolved (mm, cm, in, pt, % of the card),
their text broken and fitted, and the result is a `Face` of primitives that the
drawing library (`draw`) draws without deciding anything. Every problem (a bad value, text
that does not fit, a character the font lacks, a missing image) is a located
error naming the card, the element and the field; nothing is clipped silently.

Element coordinates are written from the card's top-left corner, y downwards, as
designers measure; primitives use PDF's bottom-left origin.

Each element type lays itself out (generator/elements: one module per type); this
module runs them for every card, keeps what a build computes once (BuildCache), and
adds cardgen's own marks (marks.py). Boards are laid out by board.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Mapping

from .. import elements, fonts
from .. import sandbox
from ..elements import bindings, repeat
from ..elements.base import Bad, Compiled, Element, expressions
from ..model import Card, Deck, ElementSpec, Game, LayoutSpec, SourceMap, frozen_mapping
from ..primitives import Block, Face, Group, Item, extent
from ..problems import Report
from ..boards.base import MAX_PAGES, board_font, page_grid, split_pages, split_paper, whole_paper
from ..units import SIZE_TOLERANCE, paper_size, show_paper, show_size, to_mm
from .board import layout_board, with_art
from .marks import draft_mark, guides_of, stamp
from .memo import FaceMemo
from .pieces import TOKEN_SHAPES, check_token, cut_to_shape, standee
from .said import BOX_CHECKS, CARD_PROBLEM, said_once
from ..i18n import Message, _, said


@dataclass(frozen=True)
class DeckFaces:
    deck: Deck
    fronts: Mapping[str, Face]  # card id -> face
    backs: Mapping[str, Face]


@dataclass(frozen=True)
class GameFaces:
    game: Game
    decks: tuple[DeckFaces, ...]
    boards: tuple = ()  # BoardFace for each of the game's boards


@dataclass
class BuildCache:
    """What one build computes once and reuses, by what it is:
    - `plans`: each layout's elements, compiled (layout id -> plan);
    - `plain_backs`: a back that no element makes depend on the card, laid out once per
      deck, since it may use the deck's colour ((deck id, layout id) -> (face, what its
      elements placed, when asked for));
    - `independent`: whether a layout depends on the card (layout id -> bool);
    - `types`: each element type's own cache (elements.caches(): `text` keeps set texts)."""

    plans: dict[str, tuple[Compiled, ...]] = field(default_factory=dict)
    plain_backs: dict[tuple[str, str], tuple[Face, list | None]] = field(default_factory=dict)
    independent: dict[str, bool] = field(default_factory=dict)
    types: dict[str, object] = field(default_factory=elements.caches)

    def plan(self, layout: LayoutSpec) -> tuple[Compiled, ...]:
        """The layout's elements, compiled once per build."""
        plan = self.plans.get(layout.id)
        if plan is None:
            plan = self.plans[layout.id] = tuple(Compiled(el, elements.TYPES[el.type])
                                                   for el in layout.elements)
        return plan


# "{{ data.palette.fire }}" or "{{ data.ranks[2].color }}": a value taken from a data table,
# so a bad one is reported where the table says it (once), not at every card that uses it.
_DATA_TEMPLATE = re.compile(r"^\s*\{\{\s*data\.([A-Za-z_]\w*)((?:\.\w+|\[\s*\d+\s*\])*)\s*\}\}\s*$")


def _deck_scope(deck: Deck) -> dict:
    """What a card's templates see of its deck (`deck.color`)."""
    return {"id": deck.id, "name": deck.name, "color": deck.color, "total": deck.total}


def _scope(shared: dict, card: Card) -> dict:
    """What a card's templates see: the card, and what its deck and game share."""
    return sandbox.scope({**shared, "card": card.record(), "draft": bool(card.drafts())})


_TURN_KEYS = frozenset({"rotate", "opacity"})


def _turn(e: Element) -> tuple[float, float]:
    rotate = e.number("rotate", 0, low=-360, high=360)
    opacity = e.option("opacity")
    return rotate, opacity


def _element(compiled: Compiled, layout: LayoutSpec, card: Card, game: Game, scope: dict,
             report: Report, cache: BuildCache) -> tuple[list[Item], tuple | None]:
    """What the element draws on this face, and its box (x, y, w, h from the face's
    bottom-left; of all its copies, for an element that repeats), or ([], None) where it
    draws nothing or has a problem (reported here, once)."""
    el = compiled.el
    e = Element(compiled, scope, layout, game, card, cache.types.get(el.type))
    try:
        if "repeat" not in el.props:
            return _one(e)
        plan = repeat.plan(e)
        drawn: list[Item] = []
        boxes = []
        first = None
        for i, copy_scope in enumerate(plan.scopes):
            copy = Element(compiled, copy_scope, layout, game, card, e.cache)
            try:
                items, box = _one(copy)
                if first is None:
                    first = box if box is not None else copy.box()
            except Bad as bad:
                if bad.where is None and bad.key not in compiled.templated:
                    raise  # (a value no copy changes: which copy is beside the point)
                raise repeat.which(bad, copy_scope, el.props["repeat"]) from None
            dx, dy = plan.offset(i, first)
            if not items:
                continue
            if box is not None and (dx or dy):
                items = [Group(tuple(items), dx=dx, dy=-dy)]
                box = (box[0] + dx, box[1] - dy, box[2], box[3])
            drawn.extend(items)
            if box is not None:
                boxes.append(box)
        if not boxes:
            return [], None
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1 = max(b[0] + b[2] for b in boxes)
        y1 = max(b[1] + b[3] for b in boxes)
        return drawn, (x0, y0, x1 - x0, y1 - y0)
    except Bad as bad:
        _bad(bad, compiled, layout, card, game, report)
        return [], None


def _one(e: Element) -> tuple[list[Item], tuple | None]:
    """One copy of an element: what it draws and its box; ([], None) where `when:` is false."""
    if "when" in e.el.props:
        try:
            if not bindings.condition(e.el.props["when"], e.scope):
                return [], None
        except bindings.BindingError as exc:
            raise Bad("when", said(exc)) from None
    items = e.compiled.kind.lay_out(e)
    box = e.box()
    rotate, opacity = e.derived("turn", _TURN_KEYS, lambda: _turn(e))
    if rotate or opacity < 1:
        x, y, w, h = box
        items = [Group(tuple(items), rotate=-rotate, cx=x + w / 2, cy=y + h / 2, opacity=opacity)]
    return items, box


def _bad(bad: Bad, compiled: Compiled, layout: LayoutSpec, card: Card, game: Game,
         report: Report) -> None:
    """Report an element's problem on a card at its cause: a data table's value where the
    table says it, a default where the layout gives it, a value no card changes once."""
    el = compiled.el
    outer, _dot, inner = bad.key.partition(".")  # (`repeat.over`: the key inside `repeat:`)
    written = el.props.get(outer, "")
    if inner and isinstance(written, Mapping):
        written = written.get(inner, "")
    data = _DATA_TEMPLATE.match(str(written)) if bad.where is None else None
    if data and data.group(1) in game.data_sources:  # the bad value is in a data table
        path = tuple(int(p) if p.isascii() and p.isdigit() else p
                     for p in re.findall(r"\w+", data.group(2)))
        shown = ".".join(map(str, (data.group(1), *path)))
        report.error(_("data {shown}: {bad_message} (used by layout '{layout_id}', element "
                       "'{el_name}', {bad_key})",
                           shown=shown, bad_message=bad.message, layout_id=layout.id,
                           el_name=el.name, bad_key=bad.key),
                     game.data_sources[data.group(1)].locate(path), bad.check)
        return
    if bad.where is None and bad.key in el.defaulted:  # the layout's default: said once
        report.error(_("defaults: {bad_key}: {bad_message}",
                       bad_key=bad.key, bad_message=bad.message), el.locate(bad.key),
                     bad.check)  # (the same words at the same place: said once)
        return
    if bad.where is not None:  # about a card field: the message names it
        message = bad.message
    elif bad.named:  # the message starts with what it is about ("text does not fit")
        message = _("element '{element}': {message}", element=el.name, message=bad.message)
    else:
        message = _("element '{element}': {key}: {message}", element=el.name, key=bad.key,
                    message=bad.message)
    if bad.where is None and bad.key not in compiled.templated:
        told = compiled.values.setdefault("said", set())  # a value no card changes:
        if message in told:  # the same problem on every card, said at the first only
            return
        told.add(message)
    report.error(_(CARD_PROBLEM, card_id=card.id, message=message),
                 bad.where or el.locate(bad.key), bad.check, card=card.id, deck=card.deck,
                 source=el.loc if bad.check in BOX_CHECKS else None)


def card_independent(layout: LayoutSpec) -> bool:
    """True if no element of the layout depends on the card (a plain card back)."""
    return not any("card" in text or "draft" in text
                   for el in layout.elements for text in expressions(el))


def layout_face(layout: LayoutSpec, card: Card, game: Game, scope: dict, report: Report,
                guides: bool = False, mark_drafts: bool = True,
                cache: BuildCache | None = None, placed: list | None = None) -> Face:
    """The card's face by `layout`. `placed`, when given, receives (element, box, items) for
    each element drawn (box: x, y, w, h from the face's bottom-left; items: what it drew)."""
    items: list[Item] = []
    boxes: list[tuple[str, tuple]] = []
    drawn: list[tuple[str, list, tuple | None]] = []  # (element, what it drew, its box)
    cache = BuildCache() if cache is None else cache
    for compiled in cache.plan(layout):
        if compiled.static:  # the same on every card: laid out once per build
            done = compiled.values.get("laid out")
            if done is None:
                element_items, box = _element(compiled, layout, card, game, scope, report, cache)
                once: list[Item] = [Block(tuple(element_items))] if element_items else []
                done = compiled.values["laid out"] = (once, box)
            element_items, box = done
        else:
            element_items, box = _element(compiled, layout, card, game, scope, report, cache)
        items.extend(element_items)
        if element_items:
            drawn.append((compiled.el.name, element_items, box))
        if box is not None:
            boxes.append((compiled.el.name, box))
            if placed is not None and element_items:
                placed.append((compiled.el, box, element_items))
    gothic = game.main_family
    if mark_drafts and card.drafts() and not any(el.name == "draft" for el in layout.elements):
        badge = draft_mark(layout, gothic.bold)
        _badge_covers_no_text(layout, badge, drawn, report)
        items.extend(badge)
    if mark_drafts and game.stamp:  # fronts only: what the face prints, stamped on it
        mark = stamp(layout, Face(layout.size[0], layout.size[1], tuple(items), layout.bleed),
                     game, gothic.regular)
        items.append(mark)
        if placed is not None:  # checked as the text it is (safe area, a token's shape)
            x0, y0, x1, y1 = mark.bounds(fonts)
            placed.append((_stamp_spec(layout), (x0, y0, x1 - x0, y1 - y0), [mark]))
    if guides:
        items.extend(guides_of(layout, boxes, gothic.regular))
    return Face(layout.size[0], layout.size[1], tuple(items), layout.bleed)


def _badge_covers_no_text(layout: LayoutSpec, badge: list, drawn: list, report: Report) -> None:
    """The DRAFT badge goes where it hides no text: one that would is a warning at the
    layout's `draft:` (or the layout), naming the element, said once for the layout."""
    x0, y0, x1, y1 = extent(badge, fonts)
    for name, element_items, box in drawn:
        if box is not None and not any(getattr(i, "rotate", 0) for i in element_items) and not (
                box[0] < x1 and box[0] + box[2] > x0 and box[1] < y1 and box[1] + box[3] > y0):
            continue  # its box is clear of the badge: its ink is too (no need to measure it)
        ink = extent(element_items, fonts, content=True)
        if ink is not None and ink[0] < x1 and ink[2] > x0 and ink[1] < y1 and ink[3] > y0:
            report.warning(_("layout '{layout_id}': the DRAFT badge of a card with TBD values "
                             "would cover the text of element '{name}'; give the layout a "
                             "place for it that is free of text (draft: {{x: ..., y: ...}}, "
                             "its top-left corner from the card's top-left)",
                                 layout_id=layout.id, name=name),
                           layout.draft_loc or layout.loc, "draft")
            return


def _stamp_spec(layout: LayoutSpec) -> ElementSpec:
    """The revision stamp as the checks see an element: text named 'stamp', located at the
    layout's `stamp:` (or the layout, where it has none)."""
    return ElementSpec("stamp", "text", frozen_mapping({}), frozen_mapping({}),
                       layout.stamp_loc or layout.loc)


def _warn_backs_per_card(deck, backs: dict, report: Report) -> None:
    """Grouped backs are printed once per group of equal faces (an equal face is an equal
    identity: identity.py). A back that comes out different on every card makes
    as many groups as cards, and as many back files: say so, naming what varies."""
    printed = [c for c in deck.cards if c.copies > 0 and c.id in backs and not c.back]
    if deck.backs != "grouped" or len(printed) < 2:
        return
    if len({backs[c.id] for c in printed}) < len(printed):
        return
    varying = [e for e in deck.back.elements
               if any(bindings.is_template(v) for v in e.props.values())]
    if not varying:
        return
    element = varying[0]
    report.warning(_("deck '{deck_id}': the back layout '{back_id}' comes out different on every "
                     "card (element '{element_name}' uses the card), so each of the "
                     "{n_printed} cards needs a back file of its own; make the element the "
                     "same on every card, or write `backs: duplex` to print each back behind "
                     "its front",
                         deck_id=deck.id, back_id=deck.back.id, element_name=element.name,
                         n_printed=len(printed)),
                   element.loc, "layout")


TEXTS_KEPT = 2000  # set texts a lay-out keeps for reuse, at most (then it starts again)


def layout_game(game: Game, report: Report, guides: bool = False,
                placements: dict | None = None, keep: bool = True,
                memo: FaceMemo | None = None) -> GameFaces:
    """Every face of the game (_layout_game). With a `memo`, a face whose inputs did not
    change since the last build is reused, as long as laying out says nothing: a problem is
    said as a full build says it (once for the cards that share it, at the first), so a
    build that has any is laid out whole, and so is the next."""
    if memo is None:
        return _layout_game(game, report, guides, placements, keep, None)
    said = Report(tainted=set(report.tainted))
    faces = _layout_game(game, said, guides, placements, keep, memo)
    if said.problems or said.skipped:
        hits = memo.hits
        memo.forget()
        if hits:
            return _layout_game(game, report, guides, placements, keep, None)
    report.extend(said)
    return faces


def _layout_game(game: Game, report: Report, guides: bool, placements: dict | None, keep: bool,
                 memo: FaceMemo | None) -> GameFaces:
    """Every face of the game. `placements`, when given, receives what each element of each
    card face drew: (deck id, card id, "front" or "back") -> [(element, box, items)].
    Without `keep` (validate: only the problems are wanted), card fronts are not kept
    (except where boards and standees need them), so that checking a deck takes memory
    that does not grow with it; every face is still laid out and checked. Set texts are kept
    for reuse up to TEXTS_KEPT at a time: a deck's repeated texts (names, effects) are
    reused all the same, and one of texts of its own on every card keeps no more than that.
    (Equal texts set apart are equal faces all the same: forms go by what faces print.)
    `memo` (serve, watch: layout/memo.py) gives back the faces of an earlier build whose
    inputs have not changed, and keeps this build's."""
    if not game.fonts:
        report.error(_("no font families are defined in fonts/fonts.yaml"), game.loc, "font")
        return GameFaces(game, ())
    game_scope = sandbox.game_scope(game)
    decks = []
    cache = BuildCache()
    if memo is not None:
        memo.begin(game, game_scope)
    on_boards = {b.deck for b in game.boards}
    for deck in game.decks:
        kept = keep or deck.id in on_boards or deck.shape == "standee"
        remembers = memo is not None and placements is None and not guides and \
            deck.shape not in TOKEN_SHAPES and deck.shape != "standee"
        fronts, backs, problems = _deck_faces(deck, game, game_scope, report, guides,
                                              placements, kept, cache,
                                              memo if remembers else None)
        said_once(deck, problems, report)
        if deck.shape == "standee":  # the figure, its mirror and the tabs, on one strip
            for card_id in list(fronts):
                fronts[card_id] = standee(fronts[card_id], backs[card_id], deck.tab)
                backs[card_id] = Face(*deck.piece_size, ())  # a standee prints on one side
        _warn_backs_per_card(deck, backs, report)
        decks.append(DeckFaces(deck, fronts, backs))
    laid = (_with_art(layout_board(b, _tiles(b, decks), board_font(b, game),
                                   _cell_faces(b, game, game_scope, report, cache)),
                      game, game_scope, report, cache)
            for b in game.boards)
    boards = tuple(b for b in laid if b is not None and _fits_pages(b, report))
    if memo is not None:
        memo.end()
    return GameFaces(game, tuple(decks), boards)  # (one validate reports as unusable: none)


def _deck_faces(deck: Deck, game: Game, game_scope: dict, report: Report, guides: bool,
                placements: dict | None, kept: bool, cache: BuildCache,
                memo: FaceMemo | None) -> tuple[dict, dict, Report]:
    """A deck's fronts and backs by card id, and their problems (not yet said)."""
    fronts: dict[str, Face] = {}
    backs: dict[str, Face] = {}
    texts = getattr(cache.types.get("text"), "set_texts", None)
    shared = {**game_scope, "deck": _deck_scope(deck)}
    token = deck.shape in TOKEN_SHAPES
    problems = Report()  # its faces' problems: one every card has is said once (said_once)
    contexts: dict[str, str] = {}
    for card in deck.cards:
        if card.id in report.tainted:  # its values have errors (reported): no face to draw
            continue
        back = deck.back_of(card)
        front_face = back_face = None
        if memo is not None:
            for layout, side in ((deck.front, "front"), (back, "back")):
                if layout.id + side not in contexts:
                    contexts[layout.id + side] = memo.context(deck, layout, shared["deck"],
                                                              side)
            keys = (memo.key(contexts[deck.front.id + "front"], card),
                    memo.key(contexts[back.id + "back"], card))
            front_face, back_face = memo.get(keys[0]), memo.get(keys[1])
            told = len(problems.problems)
        scope = _scope(shared, card)
        if front_face is not None:
            fronts[card.id] = front_face
        else:
            placed: list | None = [] if token or placements is not None else None
            fronts[card.id] = layout_face(deck.front, card, game, scope, problems, guides,
                                          cache=cache, placed=placed)
            if token and placed is not None:  # (a token's placements are always kept)
                check_token(deck, card, fronts[card.id], placed, problems)
            if placements is not None:
                placements[(deck.id, card.id, "front")] = placed
            if texts is not None and len(texts) > TEXTS_KEPT:
                texts.clear()
        if back_face is not None:
            backs[card.id] = back_face
        else:
            plain_back = cache.independent.get(back.id)
            if plain_back is None:
                plain_back = cache.independent[back.id] = card_independent(back)
            key = (deck.id, back.id)  # a back may use deck.color: per deck
            if plain_back and key in cache.plain_backs:  # a plain back: laid out once
                backs[card.id], placed = cache.plain_backs[key]
            else:
                placed = [] if placements is not None else None
                backs[card.id] = layout_face(back, card, game, scope, problems, guides,
                                             mark_drafts=False, cache=cache, placed=placed)
                if plain_back:
                    cache.plain_backs[key] = (backs[card.id], placed)
            if placements is not None:
                placements[(deck.id, card.id, "back")] = placed
        if memo is not None and len(problems.problems) == told:  # kept: it said nothing
            for face_key, face, reused in ((keys[0], fronts[card.id], front_face),
                                           (keys[1], backs[card.id], back_face)):
                if reused is None:
                    memo.put(face_key, face)
        if not kept:
            del fronts[card.id]
    return fronts, backs, problems


def _with_art(board_face, game: Game, game_scope: dict, report: Report, cache: BuildCache):
    """The board with its background and art (board.with_art). The art layout is laid out as
    a card face whose fields are the board's id and title; a layout not of the board's size
    is an error at the layout (its elements would stand elsewhere than drawn)."""
    if board_face is None:
        return None
    board, face = board_face.board, board_face.face
    layout = board.art_layout
    if layout is None:
        return with_art(board_face, None)
    if abs(layout.size[0] - face.width) > SIZE_TOLERANCE or \
            abs(layout.size[1] - face.height) > SIZE_TOLERANCE:
        report.error(_("board '{board_id}': the art layout '{layout_id}' is {size}, but the "
                       "board is {board_size}; make the layout's size the board's",
                       board_id=board.id, layout_id=layout.id, size=show_size(layout.size),
                       board_size=show_size((face.width, face.height))), layout.loc, "board")
        return with_art(board_face, None)
    record = {"id": board.id, "title": board.title}
    at_entry = SourceMap(board.loc.file, frozen_mapping({(): board.loc}))  # its problems
    card = Card(f"{board.id}:art", board.id, 1, False, record, at_entry, ())
    laid = Report()
    art = layout_face(layout, card, game, _scope({**game_scope, "board": record}, card), laid,
                      mark_drafts=False, cache=cache)
    for p in laid.problems:  # an element's problem names the board, not the face's card
        message = p.message
        if isinstance(message, Message) and message.template == CARD_PROBLEM and \
                message.values is not None and p.card == card.id:
            message = _("board '{board_id}' art: {message}", board_id=board.id,
                        message=message.values["message"])
        report.add(p.level, message, p.location, p.check, field=p.field, target=p.target)
    return with_art(board_face, art)


def _fits_pages(board_face, report: Report) -> bool:
    """A board that would be split over more than MAX_PAGES pages is an error at its entry
    (and is not drawn): its size, or its paper, is not what the designer meant."""
    board, face = board_face.board, board_face.face
    paper = split_paper(board)
    (w, h), cols, rows = page_grid(board, face.width, face.height, paper_size(paper))
    if cols * rows <= MAX_PAGES:
        return _no_blank_page(board_face, report)
    report.error(_("board '{board_id}' is {value} and would be split over {n:,} pages of {paper} "
                   "({cols} x {rows}); a board takes at most {MAX_PAGES} pages: make it "
                   "smaller, or print it on larger paper (papers: in its layout)",
                   board_id=board.id, value=show_size((face.width, face.height)), n=cols * rows,
                   paper=show_paper(paper), cols=cols, rows=rows, MAX_PAGES=MAX_PAGES),
                 board.loc, "board")
    return False


def _no_blank_page(board_face, report: Report) -> bool:
    """A board split over pages where one page would print only its ground (an areas
    board far larger than its areas) is an error at its entry, naming the page."""
    board, face = board_face.board, board_face.face
    if whole_paper(board, face.width, face.height) is not None:
        return True
    everywhere = (0.0, 0.0, face.width, face.height)
    ink = [box for box in (item.bounds(fonts) for item in face.items)
           if box is not None and not _covers(box, everywhere)]  # not the ground or a frame
    paper = split_paper(board)
    _unused, cols, rows, split = split_pages(board, face.width, face.height, paper_size(paper))
    for r, c, x0, y0, pw, ph in split:
        page = (x0, face.height - y0 - ph, x0 + pw, face.height - y0)  # y up, as the boxes
        if not any(_meets(box, page) for box in ink):
            right, bottom = (max(box[2] for box in ink), min(box[1] for box in ink)) \
                if ink else (0.0, face.height)
            report.error(_("board '{board_id}' is {value}, split over {n} pages of {paper}, and "
                           "page {n2} (row {n3}, column {n4}) would print nothing but its "
                           "ground: what it draws lies within {ceil} x {ceil2} mm of its "
                           "top-left; make its size (layout '{board_layout}') fit what it "
                           "draws", board_id=board.id, value=show_size((face.width, face.height)),
                           n=cols * rows, paper=show_paper(paper), n2=r * cols + c + 1,
                           n3=r + 1, n4=c + 1,
                           ceil=math.ceil(to_mm(right)),
                           ceil2=math.ceil(to_mm(face.height - bottom)),
                           board_layout=board.layout), board.loc, "board")
            return False
    return True


def _covers(box, area) -> bool:
    return (box[0] <= area[0] + 0.01 and box[1] <= area[1] + 0.01 and
            box[2] >= area[2] - 0.01 and box[3] >= area[3] - 0.01)


def _meets(box, area) -> bool:
    return box[0] < area[2] and box[2] > area[0] and box[1] < area[3] and box[3] > area[1]


def _tiles(board, decks) -> Mapping[str, Face]:
    """The faces a board places as tiles: its deck's fronts, a round or hex token's cut to
    its shape (what lies outside its cut line is not on the tile)."""
    fronts: Mapping[str, Face] = next((d.fronts for d in decks if d.deck.id == board.deck), {})
    if board.tile_shape not in ("circle", "hex"):
        return fronts
    return {card_id: cut_to_shape(face, board.tile_shape) for card_id, face in fronts.items()}


def _cell_faces(board, game: Game, game_scope: dict, report: Report, cache: BuildCache):
    """What draws a board's cells: its cell layout, laid out for each cell as for a card
    whose fields are the cell's values (problems located at the cell's entry)."""
    layout = board.cell_layout
    if layout is None:
        return lambda cell: None
    shared = {**game_scope, "board": {"id": board.id, "title": board.title}}

    def face(cell):
        kind = cell.record.get("type")
        if board.types is not None and kind is not None and kind not in board.types:
            return None  # its type is unknown: reported at the cell, nothing to draw from
        card = _cell_card(board, cell)
        return layout_face(layout, card, game, _scope(shared, card), report, mark_drafts=False,
                           cache=cache)
    return face


def _cell_card(board, cell) -> Card:
    """A cell as its cell layout sees it: a card whose fields are the cell's values."""
    return Card(f"{board.id}:{cell.label}", board.id, 1, False, cell.record, cell.source,
                cell.path)
