"""What a print shop would catch in a face, found before anything is sent, each located at the
layout element that causes it and said once for every card it touches:

- `bleed`: ink that reaches the trim line and stops there, while the profile asks for
  bleed: the cut would leave a white sliver;
- `safe-area`: an element (text, a picture, a frame) that comes closer to the trim than the
  profile's safe distance (and does not run on into the bleed or reach the trim line, as
  background art does);
- `image-resolution`: a picture printed below the profile's resolution;
- `fine-print`: a line thinner than HAIRLINE or text smaller than SMALLEST_TEXT, in an
  element, and in a card's face as the rulebook scales it down (`check_pictures`, at the
  template's line that names the card);
- `ink`: more ink (the four plates' sum) than the profile's `max_ink`, in a colour or a
  picture as the export converts it (measured on the converted values and pixels); for
  the boards a profile takes too (`check_boards`, at the board's entry), and the rulebook
  (measured as book.to_cmyk converts it, at its template).

Positions are measured on what each element drew (its primitives), not its box: a
centred title in a wide box is judged by where its letters are.
"""

from __future__ import annotations


from .. import elements, fonts, images, primitives
from ..model import ExportProfile, Game
from ..primitives import Block, Group, Image
from ..problems import Location, Report, spoken
from ..units import mm, show_length
from ..i18n import N_, _, _n

EPS = 0.05  # points: closer than this to the trim line is on it
HAIRLINE = mm(0.1)  # a line thinner than this may break up or vanish on a press
SMALLEST_TEXT = 4.0  # points: text smaller than this fills in on a press and cannot be read


def _images(items):
    for item in items:
        if isinstance(item, Image):
            yield item
        elif isinstance(item, (Group, Block)):
            yield from _images(item.items)


class _Findings:
    """Problems by (element location, kind): the first card's words, and how many cards."""

    def __init__(self) -> None:
        self.found: dict[tuple[Location, str, str, str], list] = {}  # -> [message, card, count]
        self.checks: set[str] = set()  # the checks that found something, since last cleared

    def add(self, el, card: str, message: str, check: str, kind: str = "") -> None:
        """A problem of an element on a card's face (`kind`: of its check's, where a check
        finds more than one: each said apart, with its own count)."""
        self.checks.add(check)
        entry = self.found.setdefault((el.loc, el.name, check, kind), [message, card, 0])
        entry[2] += 1

    def report(self, report: Report) -> None:
        for (loc, _unused, check, _kind), (message, card, count) in self.found.items():
            more = _n(" (and on {n} other card)", " (and on {n} other cards)", count - 1) \
                if count > 1 else ""
            report.warning(_("card '{card}': {message}{more}",
                             card=card, message=message, more=more), loc, check, card=card)


def check_faces(game: Game, placements: dict, profile: ExportProfile, bleeds: dict,
                report: Report, convert=None) -> set[tuple[str, str, str]]:
    """Warn, at each element, about faces the shop would print badly. `bleeds` gives the
    bleed each deck is exported with (points); `convert`, the CMYK conversion (or None).
    Returns the faces (deck, card, side) whose ink stops at the trim, said here: the
    export's read-back (preflight) does not say them again."""
    findings = _Findings()
    stopping: set[tuple[str, str, str]] = set()
    inks: dict[str, float] = {}
    for deck in game.decks:
        if deck.shape == "standee":
            continue  # printed as strips of figure and tabs, not as laid out
        bleed = bleeds.get(deck.id, profile.bleed)
        for card in deck.cards:
            if card.copies <= 0:
                continue
            for side in ("front", "back"):
                placed = placements.get((deck.id, card.id, side)) or []
                layout = deck.front if side == "front" else deck.back_of(card)
                W, H = layout.size
                findings.checks.clear()
                for el, _unused, items in placed:
                    _check_element(findings, el, card.id, layout.id, items, W, H, bleed,
                                   profile, layout.unit)
                    if convert is not None:
                        _check_ink(findings, el, card.id, items, convert, profile, inks)
                if "bleed" in findings.checks:
                    stopping.add((deck.id, card.id, side))
    findings.report(report)
    return stopping


def most_ink(items, convert, inks: dict) -> tuple[float, str]:
    """The most ink `items` print with, converted as the export converts them, and what
    prints it ("its fill", "its picture"...). (`inks`: per picture, measured once.)"""
    from .color import ink, picture_ink
    most, what = 0.0, ""
    for item in primitives.leaves(convert.items(tuple(items))):
        if isinstance(item, Image):
            if item.path not in inks:
                inks[item.path] = picture_ink(item.path)
            found = inks[item.path], "its picture"
        else:
            found = max(((ink(getattr(item, key, None)), key)
                         for key in ("fill", "stroke", "color")), default=(0.0, ""))
            found = found[0], f"its {'colour' if found[1] == 'color' else found[1]}"
        if found[0] > most:
            most, what = found
    return most, what


def over_ink(most: float, profile: ExportProfile) -> bool:
    return most > profile.max_ink + 0.05


def ink_message(subject: str, most: float, what: str, profile: ExportProfile,
                advice: str) -> str:
    """What the ink check says of `subject` ("element 'night'", "board '3p'", "the
    rulebook"), which prints with `most` % of ink (`what`: "its fill", "a picture")."""
    return (_("{subject} prints with {most:.0f} % of ink ({what}, in CMYK), more than export "
              "profile '{profile_name}' takes ({profile_max_ink} %); {advice}", subject=subject,
              most=most, what=what, profile_name=profile.name, profile_max_ink=profile.max_ink,
              advice=advice))


def _check_ink(findings: _Findings, el, card: str, items, convert, profile: ExportProfile,
               inks: dict) -> None:
    """A warning where the element prints with more ink than the profile's max_ink."""
    most, what = most_ink(items, convert, inks)
    if over_ink(most, profile):
        findings.add(el, card, check="ink", message=ink_message(
            f"element '{el.name}'", most, what, profile, "lighten or desaturate its darkest "
            "colour, or write it as cmyk(...) within the limit"))


def check_boards(boards, profile: ExportProfile, report: Report, convert) -> None:
    """The checks on each exported board (`boards`: layout.board.BoardFace), at the board's
    definition: a board is one picture, drawn by its shape, not by elements. What reaches
    its trim and cannot run on into the bleed (bleeding.run_on) is an error; more ink than
    the profile takes, a warning."""
    from .bleeding import run_on
    inks: dict[str, float] = {}
    for board_face in boards:
        board = board_face.board
        face, scale = board_face.face, profile.dpi / 72
        if profile.raster and round((face.width + 2 * profile.bleed) * scale) * \
                round((face.height + 2 * profile.bleed) * scale) > images.MAX_PIXELS:
            report.error(_("board '{board_id}': as a picture at {dpi} dpi it would be "
                           "{w:,} x {h:,} pixels, more than a picture may have ({n} "
                           "megapixels); export boards at a lower dpi: (or as PDF)",
                           board_id=board.id, dpi=profile.dpi,
                           w=round((face.width + 2 * profile.bleed) * scale),
                           h=round((face.height + 2 * profile.bleed) * scale),
                           n=images.MAX_PIXELS // 1_000_000), board.loc, "export")
            continue
        stuck = run_on(board_face.face, profile.bleed)[1] if not profile.raster else ()
        if stuck:
            report.error(_("board '{board_id}': what it draws on the {sides} reaches the trim "
                           "and cannot run on into the {bleed} bleed (text, a turned tile, "
                           "a tile clipped to its shape), so board-{board_id}.pdf would print "
                           "white there and the cut would show it; give the board a margin "
                           "(`margin:`)", board_id=board.id, sides=said_sides(list(stuck)),
                           bleed=show_length(profile.bleed, "mm")), board.loc, "bleed")
        if convert is None:
            continue
        most, what = most_ink(board_face.face.items, convert, inks)
        if over_ink(most, profile):
            report.warning(ink_message(f"board '{board.id}'", most, what.replace("its ", "a "),
                                       profile, "lighten or desaturate the board's darkest "
                                       "colour or picture"), board.loc, "ink")


def finest(items, scale: float = 1.0) -> tuple[float | None, float | None]:
    """The thinnest line (a stroke's width) and the smallest text (its size) `items` print,
    in points, drawn at `scale`; None where they draw none."""
    line = text = None
    for item in items:
        found: tuple[float | None, float | None] = (None, None)
        if isinstance(item, Group):
            found = finest(item.items, scale * min(abs(item.sx), abs(item.sy)))
        elif isinstance(item, Block):
            found = finest(item.items, scale)
        elif isinstance(item, primitives.Text):
            found = (None, item.size * scale)
        elif isinstance(item, primitives.Line):
            found = (item.width * scale if item.width > 0 else None, None)
        elif getattr(item, "stroke", None) is not None and getattr(item, "stroke_width", 0) > 0:
            found = (item.stroke_width * scale, None)
        if found[0] is not None and (line is None or found[0] < line):
            line = found[0]
        if found[1] is not None and (text is None or found[1] < text):
            text = found[1]
    return line, text


def _fine(line: float | None, text: float | None) -> list:
    """What of a thinnest line and a smallest text is too fine to print (said)."""
    said = []
    if line is not None and line < HAIRLINE - 0.005:
        said.append(_("lines of {line:.2f} mm", line=line / mm(1)))
    if text is not None and text < SMALLEST_TEXT - 0.05:
        said.append(_("text of {size:.1f} pt", size=text))
    return said


def check_pictures(pictures, faces: dict, report: Report, locate) -> None:
    """A warning at each line of the template whose card faces the rulebook draws so small
    that their lines or text are finer than a press prints, naming the cards (`pictures`:
    rulebook.faces.Picture; `faces`: side -> card id -> Face; `locate(card)`: the
    template's line that names the card)."""
    said: dict[tuple, dict] = {}  # (file, line) -> what is said there
    for picture in pictures:
        face = faces.get(picture.side, {}).get(picture.card)
        if face is None:
            continue
        line, text = finest(face.items, picture.scale)
        if not _fine(line, text):
            continue
        where = locate(picture.card)
        entry = said.setdefault((where.file, where.line), {
            "where": where, "cards": [], "pages": [], "scale": picture.scale, "side":
            picture.side, "line": line, "text": text})
        for key, value in (("cards", picture.card), ("pages", picture.page)):
            if value not in entry[key]:
                entry[key].append(value)
        entry["scale"] = min(entry["scale"], picture.scale)
        for key, value in (("line", line), ("text", text)):
            if value is not None and (entry[key] is None or value < entry[key]):
                entry[key] = value
    for entry in said.values():
        cards = [f"'{card}'" for card in entry["cards"]]
        named = spoken(cards, "and") if len(cards) <= 3 else _n(
            "{first} and {n} other", "{first} and {n} others", len(cards) - 2,
            first=", ".join(cards[:2]))
        report.warning(_n("rulebook p. {pages}: card {cards} ({side}), drawn at {scale:.0f} %, "
                          "prints {fine}, finer than a press prints (lines of {line}, text of "
                          "{size:g} pt at least); draw it larger (`scale=`)",
                          "rulebook p. {pages}: cards {cards} ({side}), drawn at {scale:.0f} %, "
                          "print {fine}, finer than a press prints (lines of {line}, text of "
                          "{size:g} pt at least); draw them larger (`scale=`)", len(cards),
                          pages=", ".join(map(str, entry["pages"])), cards=named,
                          side=_SIDE_NAMES.get(entry["side"], entry["side"]),
                          scale=entry["scale"] * 100,
                          fine=spoken(_fine(entry["line"], entry["text"]), "and"),
                          line=show_length(HAIRLINE, "mm", False), size=SMALLEST_TEXT),
                       entry["where"], "fine-print")


def _check_bleed(findings: _Findings, el, card: str, layout: str, ink, W: float, H: float,
                 bleed: float, unit: str) -> None:
    """Ink (the element's extent) that stops at the trim (an element `bleed: true` extends),
    and ink of any element that runs past the trim but ends short of the bleed's edge (a cut
    a little outside the trim shows it ending): each said at the element, once a face."""
    if elements.bleeds(el.type):
        stops = [side for side, at_trim in (
            ("left", abs(ink[0]) < EPS), ("bottom", abs(ink[1]) < EPS),
            ("right", abs(ink[2] - W) < EPS), ("top", abs(ink[3] - H) < EPS)) if at_trim]
        if stops:
            findings.add(el, card, check="bleed", message=
                         _("element '{el_name}' of layout '{layout}' stops at the trim on the "
                           "{sides}; the bleed would print white there. Let it run "
                           "{show_length} past the edge (`bleed: true`)", el_name=el.name,
                           layout=layout, sides=said_sides(stops),
                           show_length=show_length(bleed, unit)))
    short = [side for side, past in (
        ("left", -ink[0]), ("bottom", -ink[1]), ("right", ink[2] - W),
        ("top", ink[3] - H)) if EPS < past < bleed - EPS]
    if short:
        findings.add(el, card, check="bleed", kind="short", message=_(
            "element '{el_name}' of layout '{layout}' runs past the trim on the {sides} "
            "but ends short of the bleed's edge, where a cut a little outside the trim "
            "shows it ending; let it run {show_length} past the edge, or keep it "
            "inside the trim", el_name=el.name, layout=layout, sides=said_sides(short),
            show_length=show_length(bleed, unit)))


def _check_element(findings: _Findings, el, card: str, layout: str, items, W: float, H: float,
                   bleed: float, profile: ExportProfile, unit: str) -> None:
    fine = _fine(*finest(items))
    if fine:
        findings.add(el, card, check="fine-print", message=_(
            "element '{el_name}' prints {fine}, finer than a press prints (lines of {line}, "
            "text of {size:g} pt at least)", el_name=el.name, fine=spoken(fine, "and"),
            line=show_length(HAIRLINE, "mm", False), size=SMALLEST_TEXT))
    ink = primitives.extent(items, fonts)  # (measured once: both checks read it)
    if bleed > 0 and ink is not None:
        _check_bleed(findings, el, card, layout, ink, W, H, bleed, unit)
    if profile.safe > 0:  # every element: a frame too is cut where it comes too close
        content = elements.content(el.type)
        if ink is not None and not (ink[0] < -EPS or ink[1] < -EPS or ink[2] > W + EPS or
                                    ink[3] > H + EPS):  # art that runs into the bleed is art
            gaps = {"left": ink[0], "bottom": ink[1], "right": W - ink[2], "top": H - ink[3]}
            close = {side: gap for side, gap in gaps.items() if gap < profile.safe - EPS}
            if close and (content or min(gaps.values()) > EPS):  # decoration on the trim
                side = min(close, key=close.__getitem__)  # line is background art (the bleed says)
                what = N_("text") if el.type == "text" else N_("picture") if el.type == "image" \
                    else el.type
                findings.add(el, card, check="safe-area", message=
                             _("{what} element '{el_name}' comes {show_length} from the trim on "
                               "the {sides}; export profile '{profile_name}' keeps what must "
                               "not be cut (text, pictures, frames) {show_length2} inside it, "
                               "where the cut cannot reach", what=what, el_name=el.name,
                               show_length=show_length(max(0.0, close[side]), unit),
                               sides=said_sides(sorted(close, key=close.__getitem__)),
                               profile_name=profile.name,
                               show_length2=show_length(profile.safe, unit)))
    for image in _images(items):
        try:
            pw, ph = images.inspect(image.path)
        except images.ImageProblem:
            continue
        dpi = images.shown_dpi(min(pw / (image.w / 72), ph / (image.h / 72))) \
            if image.w and image.h else 0
        if dpi and dpi < profile.min_image_dpi:  # as the manifest says it
            findings.add(el, card, check="image-resolution", message=
                         _("picture element '{el_name}' prints at {dpi} dpi ({pw} x {ph} pixels "
                           "over {show_length} x {show_length2}); export profile "
                           "'{profile_name}' wants at least {profile_min_image_dpi} dpi",
                           el_name=el.name, dpi=dpi, pw=pw, ph=ph,
                           show_length=show_length(image.w, unit),
                           show_length2=show_length(image.h, unit), profile_name=profile.name,
                           profile_min_image_dpi=profile.min_image_dpi))


_SIDE_NAMES = {"front": N_("front"), "back": N_("back")}
_SIDE_WORDS = {"left": N_("left"), "right": N_("right"), "top": N_("top"), "bottom": N_("bottom")}


def said_sides(sides: list[str]) -> str:
    return spoken([_SIDE_WORDS.get(side, side) for side in sides], "and")
