"""Presentation pictures (`cardgen showcase`): chosen cards in a row over their reflection, or
fanned in a hand, on a picture of a size for social media, titled in the game's own font.

The cards are the faces the print PDFs draw, rasterised the same way (write/png.py) at the
resolution the picture needs; Pillow only arranges them: rounded corners, a soft shadow, a
reflection that fades, a fan about a point below the hand. Cut tokens keep their shape.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image  # (ImageDraw, ImageFilter, ImageFont where a picture is drawn: the
# command line imports this module for its sizes)

from .. import fonts
from ..colors import INKS, Color
from ..layout import GameFaces
from ..layout.pieces import cut_to_shape
from ..model import TBD
from ..units import mm
from . import BytesFile

SIZES = {"wide": (1200, 630), "square": (1080, 1080), "tall": (1080, 1350)}  # Open Graph and
# X's large card; Instagram's square and portrait posts
MAX_SIDE = 4096  # pixels a side of a picture, at most (what sites and viewers take)
MIN_SIDE = 200
MAX_SHOWN = 12  # cards in one picture, at most (more would be too small to read)
DEFAULT_SHOWN = 5  # cards shown when none are named: each deck's first, then the next
CORNER = mm(3)  # the round corner of a printed card (a die-cut deck's usual 3 mm)
BACKGROUND = ((0.96, 0.95, 0.92), (0.84, 0.82, 0.77))  # top and bottom of the default gradient
INK = INKS["showcase"]


@dataclass(frozen=True)
class Request:
    """What to show: card ids (none: the first few), a hand or a row, the picture's size
    in pixels, its background (None: a soft neutral gradient) and its title ("" for none)."""

    cards: tuple[str, ...] = ()
    hand: bool = False
    size: tuple[int, int] = SIZES["wide"]
    background: Color | None = None
    title: str | None = None  # None: the game's title


def chosen(faces: GameFaces, ids: tuple[str, ...]) -> list[tuple]:
    """(deck faces, card) of each id in order (each looked up in every deck), or of the
    first cards of the decks, one from each in turn, when no id is given. An unknown id is
    a KeyError naming it."""
    found = []
    for card_id in ids:
        hit = next(((d, c) for d in faces.decks for c in d.deck.cards if c.id == card_id), None)
        if hit is None:
            raise KeyError(card_id)
        found.append(hit)
    if ids:
        return found
    queues = [[(d, c) for c in d.deck.cards if not c.blank and not c.filler] for d in faces.decks]
    while len(found) < DEFAULT_SHOWN and any(queues):
        for queue in queues:
            if queue and len(found) < DEFAULT_SHOWN:
                found.append(queue.pop(0))
    return found


def picture(faces: GameFaces, request: Request, cache: Path | None) -> bytes:
    """The PNG's bytes."""
    game = faces.game
    cards = chosen(faces, request.cards)
    W, H = request.size
    title = game.display_title if request.title is None else request.title
    if title == TBD:  # a title not decided yet: a picture for others goes without one
        title = ""
    top = int(H * 0.16) if title else int(H * 0.06)
    n = len(cards)
    sizes = [(d.fronts[c.id].width, d.fronts[c.id].height) for d, c in cards]  # points
    tallest = max(h for _, h in sizes)
    if request.hand:  # the fan of cards as wide as the widest, in units of the tallest
        spots, (x0, y0, x1, y1) = _fan_spots(n, max(w for w, _ in sizes) / tallest)
        card_h = min((W * 0.92) / (x1 - x0), (H - top) * 0.88 / (y1 - y0))
    else:
        card_h = min((H - top) * 0.6, W * 0.92 / (sum(w for w, _ in sizes) / tallest
                                                 + (n - 1) * 0.08))
    pictures = _cards(cards, card_h / tallest, game.main_family.regular, cache)
    canvas = _background(W, H, request.background)
    if request.hand:
        left = (W - (x1 - x0) * card_h) / 2 - x0 * card_h
        upper = top + (H - top - (y1 - y0) * card_h) / 2 - y0 * card_h
        _fan(canvas, pictures, [(a, left + x * card_h, upper + y * card_h) for a, x, y in spots],
             card_h)
    else:
        _row(canvas, pictures, top, card_h)
    if title:
        r, g, b = _rgb(request.background or BACKGROUND[0])
        light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 140  # dark ink on light, white on dark
        _title(canvas, title, game.main_family.bold, top, INK if light else (1.0, 1.0, 1.0))
    out = io.BytesIO()
    canvas.convert("RGB").save(out, "PNG", optimize=False)
    return out.getvalue()


def outputs(faces: GameFaces, request: Request, folder: Path, cache: Path | None) -> list:
    name = f"{faces.game.stem}-{'hand' if request.hand else 'showcase'}.png"
    return [BytesFile(folder / "showcase" / name, picture(faces, request, cache))]


def _cards(cards, scale: float, font: str, cache: Path | None) -> list[Image.Image]:
    """Each card's front at `scale` pixels a point (so at its size beside the others), with
    round corners (a token cut to its shape)."""
    from PIL import ImageDraw

    from .png import faces_to_png  # pypdfium2 only when a showcase is drawn (the command
    shown = []  # line imports this module for its sizes)
    for deck, card in cards:
        face = deck.fronts[card.id]
        cut = deck.deck.shape in ("circle", "hex")
        shown.append((cut_to_shape(face, deck.deck.shape) if cut else face, cut))
    dpi = max(36, min(1200, math.ceil(scale * 72)))  # drawn at least as sharp as shown
    pngs = faces_to_png([f for f, _ in shown], dpi, font, cache, bleed=False,
                        transparent=any(cut for _, cut in shown))
    out = []
    for (face, cut), data in zip(shown, pngs):
        im = Image.open(io.BytesIO(data)).convert("RGBA")
        im = im.resize((max(1, round(face.width * scale)), max(1, round(face.height * scale))),
                       Image.Resampling.LANCZOS)
        if not cut:
            radius = round(CORNER * scale)
            mask = Image.new("L", im.size, 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, im.width - 1, im.height - 1), radius,
                                                   fill=255)
            im.putalpha(mask)
        out.append(im)
    return out


def _rgb(color: Color) -> tuple[int, int, int]:
    if len(color) == 4:  # CMYK, as a screen shows it roughly
        c, m, y, k = color
        color = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    r, g, b = color[:3]
    return round(r * 255), round(g * 255), round(b * 255)


def _background(W: int, H: int, color: Color | None) -> Image.Image:
    if color is not None:
        return Image.new("RGBA", (W, H), _rgb(color) + (255,))
    top, bottom = _rgb(BACKGROUND[0]), _rgb(BACKGROUND[1])
    column = Image.new("RGBA", (1, H))
    for y in range(H):
        t = y / max(1, H - 1)
        column.putpixel((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom)) + (255,))
    return column.resize((W, H))


def _shadow(card: Image.Image, blur: int) -> Image.Image:
    """A soft shadow of the card's shape, as big as the card plus room for the blur."""
    from PIL import ImageFilter
    pad = blur * 3
    shadow = Image.new("RGBA", (card.width + 2 * pad, card.height + 2 * pad), (0, 0, 0, 0))
    alpha = card.getchannel("A").point(lambda a: a * 0.45)
    shadow.paste((20, 20, 24, 255), (pad, pad), alpha)
    return shadow.filter(ImageFilter.GaussianBlur(blur))


def _row(canvas: Image.Image, cards: list[Image.Image], top: int, height: float) -> None:
    """The cards side by side, centred, each over its reflection fading into the floor."""
    W, H = canvas.size
    gap = round(height * 0.08)
    total = sum(c.width for c in cards) + gap * (len(cards) - 1)
    x = (W - total) // 2
    y = top + round((H - top - height * 1.3) / 2)
    blur = max(2, round(height * 0.02))
    floor = y + round(height)  # every card stands on it, the shorter ones too
    for card in cards:
        y = floor - card.height
        reflection = card.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        fade = Image.linear_gradient("L").resize(reflection.size).point(
            lambda v: max(0, 90 - v * 90 // 255 * 3 // 2))
        alpha = Image.composite(fade, Image.new("L", reflection.size, 0),
                                reflection.getchannel("A"))
        reflection.putalpha(alpha)
        _paste_clipped(canvas, reflection, x, y + card.height + max(2, round(height * 0.01)))
        _paste_clipped(canvas, _shadow(card, blur), x - 2 * blur, y - blur)
        _paste_clipped(canvas, card, x, y)
        x += card.width + gap


def _fan_spots(n: int, aspect: float) -> tuple[list, tuple]:
    """Where a hand of n cards one unit high goes: (angle clockwise in degrees, centre x,
    centre y, y down) of each, turned about a point below the hand, and the box they fill."""
    spread = min(10.0, 50.0 / (n - 1)) if n > 1 else 0.0  # degrees between two cards
    radius = 1.6
    spots, box = [], [math.inf, math.inf, -math.inf, -math.inf]
    for i in range(n):
        angle = (i - (n - 1) / 2) * spread
        t = math.radians(angle)
        x, y = radius * math.sin(t), radius * (1 - math.cos(t))
        spots.append((angle, x, y))
        half_w = (abs(math.cos(t)) * aspect + abs(math.sin(t))) / 2  # the turned card's box
        half_h = (abs(math.sin(t)) * aspect + abs(math.cos(t))) / 2
        box = [min(box[0], x - half_w), min(box[1], y - half_h),
               max(box[2], x + half_w), max(box[3], y + half_h)]
    return spots, tuple(box)


def _fan(canvas: Image.Image, cards: list[Image.Image], spots: list, height: float) -> None:
    """The cards fanned as a hand holds them, the first at the left, each a little over
    the one before it, the tallest centred on its spot and the others held as low."""
    blur = max(2, round(height * 0.02))
    for card, (angle, mx, my) in zip(cards, spots):
        down = (height - card.height) / 2  # a shorter card is held as low as the others
        mx, my = (mx - math.sin(math.radians(angle)) * down,
                  my + math.cos(math.radians(angle)) * down)
        turned = card.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        x, y = round(mx - turned.width / 2), round(my - turned.height / 2)
        _paste_clipped(canvas, _shadow(turned, blur), x - 2 * blur, y - blur)
        _paste_clipped(canvas, turned, x, y)


def _paste_clipped(canvas: Image.Image, image: Image.Image, x: int, y: int) -> None:
    """alpha_composite of an image that may run off the canvas's edges."""
    left, upper = max(0, -x), max(0, -y)
    right = min(image.width, canvas.width - x)
    lower = min(image.height, canvas.height - y)
    if left < right and upper < lower:
        canvas.alpha_composite(image.crop((left, upper, right, lower)), (x + left, y + upper))


def _title(canvas: Image.Image, text: str, font_name: str, top: int, color: Color) -> None:
    """The title, centred at the top, in the game's bold face, as large as fits."""
    from PIL import ImageDraw, ImageFont
    W = canvas.size[0]
    data = fonts.content(font_name)  # the font the name stands for, not whatever the file
    size = max(8, round(top * 0.5))  # holds now
    font = ImageFont.truetype(io.BytesIO(data), size) if data else ImageFont.load_default()
    draw = ImageDraw.Draw(canvas)
    while size > 8 and draw.textlength(text, font=font) > W * 0.9:
        size = max(8, round(size * 0.9))
        font = ImageFont.truetype(io.BytesIO(data), size) if data else font
    width = draw.textlength(text, font=font)
    draw.text(((W - width) / 2, top * 0.28), text, font=font, fill=_rgb(color) + (255,))
