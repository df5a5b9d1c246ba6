"""Stage 4, lay out: measure every card face and turn it into finished primitives.

The face design here is cardgen's first, built-in one: a frame in the deck's
colour, the Japanese name large, the English name under it, the copy count, and
a DRAFT mark on cards with undecided (TBD) values. Text is measured before
anything is drawn; text that cannot fit, or that has characters the font lacks,
is a located problem, never a clipped line.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import fonts
from ..model import Card, Color, Deck, FontFamily, Game
from ..problems import Location, Report
from ..units import mm
from .primitives import Face, Item, Rect, Text
from .text import DoesNotFit, fit_line

WHITE: Color = (1.0, 1.0, 1.0)
INK: Color = (0.12, 0.12, 0.14)
DRAFT_RED: Color = (0.85, 0.1, 0.1)

# The built-in design, in points.
FRAME = mm(3.0)  # width of the coloured frame around the white panel
PANEL_RADIUS = mm(2.0)
PADDING = mm(3.0)  # inside the panel


@dataclass(frozen=True)
class DeckFaces:
    deck: Deck
    fronts: dict  # card id -> Face
    back: Face


@dataclass(frozen=True)
class GameFaces:
    game: Game
    decks: tuple[DeckFaces, ...]


class _Setter:
    """Places measured lines of text, reporting what does not fit or cannot be drawn."""

    def __init__(self, report: Report, subject: str):
        self.report = report
        self.subject = subject  # "card 'priest'" or "deck 'main' back"

    def line(self, text: str, field: str, where: Location, family: FontFamily, bold: bool,
             size: float, min_size: float, x: float, y: float, width: float, color: Color,
             anchor: str = "middle") -> Text | None:
        font = family.bold if bold else family.regular
        missing = fonts.missing_glyphs(font, text)
        if missing:
            codes = ", ".join(f"U+{ord(c):04X} '{c}'" for c in missing)
            self.report.error(f"{self.subject}: {field} has characters the font '{family.name}' "
                              f"cannot draw: {codes}", where, "glyph")
            return None
        try:
            fit = fit_line(text, font, size, width, min_size)
        except DoesNotFit as exc:
            self.report.error(
                f"{self.subject}: {field} does not fit: it needs {exc.needed / mm(1):.1f} mm at "
                f"{exc.size:g} pt, the box is {width / mm(1):.1f} mm wide", where, "fit")
            return None
        return Text(x, y, text, font, fit.size, color, anchor)


def _family(game: Game, name: str, report: Report) -> FontFamily | None:
    family = game.fonts.get(name)
    if family is None:
        report.error(f"font family '{name}' is not defined in fonts/fonts.yaml", game.loc, "font")
    return family


def _panel(w: float, h: float, color: Color) -> list[Item]:
    return [
        Rect(0, 0, w, h, fill=color),
        Rect(FRAME, FRAME, w - 2 * FRAME, h - 2 * FRAME, fill=WHITE, radius=PANEL_RADIUS),
    ]


def layout_front(card: Card, deck: Deck, gothic: FontFamily, report: Report) -> Face:
    w, h = deck.sheet.card
    items: list[Item] = _panel(w, h, deck.color)
    if card.blank:
        return Face(w, h, tuple(items))
    setter = _Setter(report, f"card '{card.id}'")
    inner = w - 2 * (FRAME + PADDING)
    cx = w / 2
    lines = [
        setter.line(str(card.fields.get("name", "")), "name", card.locate("name"), gothic, True,
                    20, 10, cx, h * 0.50, inner, INK),
        setter.line(str(card.fields.get("name_en", "")), "name_en", card.locate("name_en"), gothic,
                    False, 9, 6, cx, h * 0.50 - mm(7), inner, INK),
        setter.line(f"×{card.copies}", "copies", card.locate("copies"), gothic, True, 9, 9,
                    w - FRAME - PADDING, FRAME + PADDING, inner, deck.color, "end"),
    ]
    if card.drafts():
        lines.append(setter.line("DRAFT", "draft mark", card.loc, gothic, True, 7, 7,
                                 FRAME + PADDING, h - FRAME - PADDING - 7, inner, DRAFT_RED,
                                 "start"))
    items.extend(t for t in lines if t is not None)
    return Face(w, h, tuple(items))


def layout_back(deck: Deck, mincho: FontFamily, report: Report) -> Face:
    w, h = deck.sheet.card
    inset = mm(4)
    items: list[Item] = [
        Rect(0, 0, w, h, fill=deck.back.color),
        Rect(inset, inset, w - 2 * inset, h - 2 * inset, stroke=WHITE, stroke_width=0.8,
             radius=PANEL_RADIUS),
    ]
    setter = _Setter(report, f"deck '{deck.id}' back")
    inner = w - 2 * (inset + PADDING)
    lines = [setter.line(deck.back.title, "title", deck.loc, mincho, True, 16, 9,
                         w / 2, h / 2, inner, WHITE)]
    if deck.back.subtitle:
        lines.append(setter.line(deck.back.subtitle, "subtitle", deck.loc, mincho, False, 8, 6,
                                 w / 2, h / 2 - mm(6), inner, WHITE))
    items.extend(t for t in lines if t is not None)
    return Face(w, h, tuple(items))


def layout_game(game: Game, report: Report) -> GameFaces:
    gothic = _family(game, "gothic", report)
    mincho = _family(game, "mincho", report)
    if gothic is None or mincho is None:
        return GameFaces(game, ())
    decks = []
    for deck in game.decks:
        fronts = {card.id: layout_front(card, deck, gothic, report) for card in deck.cards}
        decks.append(DeckFaces(deck, fronts, layout_back(deck, mincho, report)))
    return GameFaces(game, tuple(decks))
