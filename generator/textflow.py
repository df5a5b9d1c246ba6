"""Setting text in a box: inline markup, Japanese line breaking, fit, vertical writing.

Measure, then draw: `set_text` breaks and measures a text for a box and returns
finished primitives, or raises `DoesNotFit` with the size the text needed.

Line breaking: break opportunities come from the Unicode line breaking algorithm
(UAX #14) as ICU implements it, with ICU's strict Japanese line breaking
(`ja@lb=strict`, through `icu4py`), which carries the kinsoku rules of JLREQ: no
line starts with closing brackets, 、。，．・ー, small kana, ？！ or …; no line
ends with opening brackets; Latin words are not split, and mixed Japanese and
English text breaks naturally. Lines are filled greedily; a cannot-start
character pushes the character before it to the next line (oidashi) rather
than hanging into the margin.

Markup: `<b>bold</b>`, `<color red>...</color>` (any colour), `<icon name>`
(an icon from the game's icon set, sized to the text and aligned to its em box),
and a line break for a new line. A `<` that starts no known tag is text.
"""

from __future__ import annotations

import re
from itertools import accumulate
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping, NamedTuple

from icu4py.breakers import LineBreaker
from icu4py.locale import Locale

from . import fonts
from .colors import Color
from .model import FontFamily, Icon
from . import images
from .primitives import Image, Item, Text

OBJECT = "\ufffc"  # stands for an inline image while breaking lines
# Zero-width format characters: they steer line breaking (U+2060 WORD JOINER glues
# "＋⁠n" together; U+200B allows a break) but are never drawn nor looked up in a font.
ZERO_WIDTH = {"\u2060", "\u200b", "\u200c", "\u200d", "\ufeff"}

# Vertical writing (tategaki): characters drawn turned 90 degrees clockwise, as
# Japanese print turns dashes, brackets, the long-vowel mark and Latin text.
ROTATED = set("ー－―‐-—–〜～…‥（）()「」『』［］[]【】〈〉《》｛｝{}＝=＜＞<>→←：:;；")
# Moved to the upper right of their cell in vertical text.
CORNER_PUNCT = set("、。，．,.")
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")

_TAG = re.compile(r"<(/?)(b|i|color|icon)(?:\s+([^<>]*?))?\s*>")


class MarkupError(Exception):
    pass


class MissingGlyphs(Exception):
    def __init__(self, chars: list[str], family: str):
        super().__init__(chars)
        self.chars = chars
        self.family = family


@dataclass(frozen=True)
class DoesNotFit(Exception):
    needed: float  # height (or width, vertically) the text needs at `size`
    available: float
    size: float
    too_wide: bool = False  # a single unbreakable piece is wider than the box


@dataclass(frozen=True)
class Style:
    family: FontFamily
    bold: bool
    color: Color
    italic: bool = False  # <i>: the family's italic, where it has one


class Atom(NamedTuple):
    """One character (or inline object) with the font that draws it: the unit of line
    breaking. A text makes one per character, so it is a light immutable tuple."""

    text: str  # one character, "\n", or OBJECT
    font: str  # the registered font that draws it (fallbacks applied)
    color: Color
    image: str | None = None  # for OBJECT: the image file
    aspect: float = 1.0  # for OBJECT: width / height


@lru_cache(maxsize=None)
def _font_for(family: FontFamily, bold: bool, ch: str, families: tuple) -> str | None:
    primary = family.bold if bold else family.regular
    if ch.isspace() or not fonts.missing_glyphs(primary, ch):
        return primary
    for other in families:
        font = other.bold if bold else other.regular
        if not fonts.missing_glyphs(font, ch):
            return font
    return None


def parse(text: str, style: Style, palette: Mapping[str, Color], icons: Mapping[str, Icon],
          families: Mapping[str, FontFamily], parse_color, icon_aspect) -> list[Atom]:
    """Text with markup -> atoms. Raises MarkupError or MissingGlyphs."""
    fallbacks = tuple(families[f] for f in style.family.fallback if f in families)
    stack: list[Style] = [style]
    atoms: list[Atom] = []
    missing: list[str] = []

    def add_chars(chunk: str) -> None:
        current = stack[-1]
        primary = current.family.face(current.bold, current.italic)
        drawn = fonts.charmap(primary)
        absent = set(map(ord, chunk)).difference(drawn)
        if all(chr(c).isspace() for c in absent) and ZERO_WIDTH.isdisjoint(chunk):
            # Every character in the primary font (the usual case): no per-character choice.
            new, color = tuple.__new__, current.color
            atoms.extend([new(Atom, (ch, primary, color, None, 1.0)) for ch in chunk])
            return
        for ch in chunk:
            if ch in ZERO_WIDTH:
                atoms.append(Atom(ch, current.family.regular, current.color))
                continue
            if ord(ch) in drawn or ch.isspace():
                atoms.append(Atom(ch, primary, current.color))
                continue
            font = _font_for(current.family, current.bold, ch, fallbacks)
            if font is None:
                if ch not in missing:
                    missing.append(ch)
                continue
            atoms.append(Atom(ch, font, current.color))

    pos = 0
    for match in _TAG.finditer(text):
        add_chars(text[pos:match.start()])
        pos = match.end()
        closing, tag, arg = match.group(1), match.group(2), (match.group(3) or "").strip()
        if closing:
            if len(stack) == 1:
                raise MarkupError(f"</{tag}> closes nothing")
            stack.pop()
        elif tag == "b":
            stack.append(replace(stack[-1], bold=True))
        elif tag == "i":
            stack.append(replace(stack[-1], italic=True))
        elif tag == "color":
            try:
                color = parse_color(arg, palette)
            except ValueError as exc:
                raise MarkupError(f"<color {arg}>: {exc}") from None
            stack.append(replace(stack[-1], color=color or stack[-1].color))
        else:  # icon
            icon = icons.get(arg)
            if icon is None:
                raise MarkupError(f"<icon {arg}>: unknown icon '{arg}' "
                                  f"(icons: {', '.join(icons) or 'none declared'})")
            if icon.image:
                atoms.append(Atom(OBJECT, stack[-1].family.regular, stack[-1].color, icon.image,
                                  icon_aspect(icon.image)))
            else:
                family = families[icon.font]
                glyph_style = Style(family, stack[-1].bold, icon.color or stack[-1].color)
                stack.append(glyph_style)
                add_chars(icon.glyph)
                stack.pop()
    add_chars(text[pos:])
    if len(stack) > 1:
        raise MarkupError("a <b>, <i> or <color> tag is not closed")
    if missing:
        raise MissingGlyphs(missing, style.family.name)
    return atoms


# --- measuring -------------------------------------------------------------------------------

_FONT_WIDTHS: dict[str, dict[str, float]] = {}  # font -> character -> advance at 1 pt


def _width(font: str, ch: str) -> float:
    """A character's advance at 1 pt (TrueType widths scale linearly, no kerning)."""
    table = _FONT_WIDTHS.setdefault(font, {})
    width = table.get(ch)
    if width is None:
        width = table[ch] = fonts.string_width(ch, font, 1.0)
    return width


def _advance(atom: Atom, size: float, vertical: bool) -> float:
    if atom.text in ZERO_WIDTH:
        return 0.0
    if atom.text == OBJECT:
        return size if vertical else size * atom.aspect
    if vertical and atom.text not in ROTATED and not _is_latin(atom.text):
        return size
    return _width(atom.font, atom.text) * size


def _is_latin(ch: str) -> bool:
    return ord(ch) < 0x2000 and not ch.isspace()


_STRICT = Locale("ja@lb=strict")  # strict kinsoku: small kana and ー never start a line


@lru_cache(maxsize=1)
def _phrases():
    import budoux
    return budoux.load_default_japanese_parser()


def _unit_bounds(plain: str, start: int, phrase: bool) -> list[list[tuple[int, int]]]:
    """The text's unbreakable units (UAX #14 break opportunities, ICU strict) as index
    ranges, `start` added. Each group is a list of ICU units: one, or, with `phrase`, the
    ICU units of a BudouX phrase, kept together on a line when it fits (and broken inside
    when it does not)."""
    icu, at = [], start
    for unit in LineBreaker(plain, _STRICT) if plain else ():
        icu.append((at, at + len(unit)))
        at += len(unit)
    if not phrase:
        return [[u] for u in icu]
    ends, at = set(), start
    for chunk in _phrases().parse(plain):
        at += len(chunk)
        ends.add(at)
    grouped, current = [], []
    for unit in icu:
        current.append(unit)
        if unit[1] in ends:  # a phrase may end here: break opportunities only at its ends
            grouped.append(current)
            current = []
    if current:
        grouped.append(current)
    return grouped


def _widths(atoms: list[Atom], size: float, vertical: bool) -> list[float]:
    """Each atom's advance at `size` (what _advance gives), for a whole text at once."""
    if vertical:
        return [_advance(a, size, True) for a in atoms]
    widths = []
    append = widths.append
    font, table = None, {}
    for a in atoms:
        if a.font is not font:
            font = a.font
            table = _FONT_WIDTHS.get(font) or _FONT_WIDTHS.setdefault(font, {})
        w = table.get(a.text)
        if w is None:
            ch = a.text
            if ch in ZERO_WIDTH or ch == OBJECT:  # no fixed width: not kept in the table
                append(_advance(a, size, False))
                continue
            w = _width(font, ch)
        append(w * size)
    return widths


class Line(NamedTuple):
    atoms: list[Atom]
    last: bool  # ends a paragraph
    widths: list[float]  # each atom's advance, as the line was broken


def content_widths(atoms: list[Atom], size: float, phrase: bool = True) -> tuple[float, float]:
    """(min, max) content width of a text, as a browser's automatic table layout asks:
    the widest piece no line may break inside (a word; a Japanese phrase with `phrase`),
    and the widest paragraph set on one line."""
    plain = "".join(a.text for a in atoms)
    widths = _widths(atoms, size, False)
    cum = [0.0, *accumulate(widths)]
    low = high = 0.0
    start = 0
    for paragraph in plain.split("\n"):
        end = start + len(paragraph)
        trim = end
        while trim > start and plain[trim - 1].isspace():
            trim -= 1
        high = max(high, cum[trim] - cum[start])
        for group in _unit_bounds(paragraph, start, phrase):
            gs, gt = group[0][0], group[-1][1]
            while gt > gs and plain[gt - 1].isspace():
                gt -= 1
            low = max(low, cum[gt] - cum[gs])
        start = end + 1
    return low, high


HYPHEN = "-"
MIN_HYPHENATED = 6  # letters: a shorter word is never hyphenated
MAX_HYPHENS_IN_A_ROW = 2  # lines ending in a hyphen, one after another


@lru_cache(maxsize=4)
def _hyphenator(lang: str):
    import pyphen  # Liang's patterns (the TeX and LibreOffice dictionaries)
    return pyphen.Pyphen(lang=lang, left=2, right=3)


def _hyphen_points(word: str, lang: str) -> list[int]:
    """Where a word may be hyphenated (indices into it), for words of letters only."""
    if len(word) < MIN_HYPHENATED or not word.isalpha() or not word.isascii():
        return []
    return _hyphenator(lang).positions(word)


def break_lines(atoms: list[Atom], size: float, available: float, vertical: bool,
                phrase: bool = False, hyphenate: str | None = None) -> list[Line] | None:
    """Lines (atoms, ends-a-paragraph, advances). None if one atom alone is longer than a line.
    With `phrase`, lines break only between phrases (BudouX) unless a phrase is longer
    than a line. With `hyphenate` (a language, "en_US"), an English word that would start
    the next line is hyphenated where the dictionary allows and the part fits, at most
    MAX_HYPHENS_IN_A_ROW lines running."""
    plain = "".join(a.text for a in atoms)  # one character per atom: indices agree
    widths = _widths(atoms, size, vertical)
    cum = [0.0, *accumulate(widths)]  # cum[i]: the advance of atoms[:i]
    limit = available + 1e-6
    ranges: list[tuple[int, int, bool]] = []  # lines as atom index ranges
    hyphenated: set[int] = set()  # the ends of lines that end in a hyphen
    start = 0
    while True:
        end = plain.find("\n", start)
        end = len(plain) if end < 0 else end
        trim = end
        while trim > start and plain[trim - 1].isspace():
            trim -= 1
        if cum[trim] - cum[start] <= limit:
            ranges.append((start, end, True))  # it fits: no break opportunity is needed
        else:
            line = start  # the current line starts at `line`; its width is cum[us] - cum[line]
            for group in _unit_bounds(plain[start:end], start, phrase):
                units = group
                if len(group) > 1:
                    gs, gt = group[0][0], group[-1][1]
                    while gt > gs and plain[gt - 1].isspace():
                        gt -= 1
                    if cum[gt] - cum[gs] <= limit:
                        units = [(gs, group[-1][1])]  # a phrase that fits stays whole
                    # else: a phrase longer than a line: break inside it, as ICU allows
                for us, ue in units:
                    unit_w = cum[ue] - cum[us]
                    trim_w = unit_w - sum(widths[i] for i in range(us, ue)
                                          if plain[i].isspace()) \
                        if plain[ue - 1].isspace() else unit_w
                    if us > line and cum[us] - cum[line] + trim_w > limit:
                        cut = _hyphen_cut(plain, atoms, cum, us, ue, line, limit, size,
                                          hyphenate, ranges, hyphenated) \
                            if hyphenate and not vertical else None
                        if cut is not None:  # the word's head ends this line, with a hyphen
                            ranges.append((line, cut, False))
                            hyphenated.add(cut)
                            line = us = cut
                            unit_w = cum[ue] - cum[us]
                            trim_w = unit_w - sum(widths[i] for i in range(us, ue)
                                                  if plain[i].isspace())
                        else:
                            ranges.append((line, us, False))
                            line = us
                    if us == line and trim_w > limit:
                        # A piece longer than the line (a long word): split it where it must.
                        for i in range(us, ue):
                            if widths[i] > limit:
                                return None
                            if i > line and cum[i + 1] - cum[line] > limit:
                                ranges.append((line, i, False))
                                line = i
            ranges.append((line, end, True))
        if end == len(plain):
            break
        start = end + 1
    lines = []
    for a, b, last in ranges:
        if b in hyphenated and not last:
            dash = atoms[b - 1]._replace(text=HYPHEN)
            lines.append(Line(atoms[a:b] + [dash], last,
                              widths[a:b] + [_width(dash.font, HYPHEN) * size]))
            continue
        while b > a and plain[b - 1].isspace():
            b -= 1
        lines.append(Line(atoms[a:b], last, widths[a:b]))
    return lines


def _hyphen_cut(plain, atoms, cum, us, ue, line, limit, size, lang, ranges, hyphenated):
    """Where to hyphenate the word at [us, ue) so that its head and a hyphen end the line
    that starts at `line`: the last dictionary point that fits, or None."""
    streak = 0
    for a, b, _ in reversed(ranges):  # the lines just before, ending in hyphens
        if b not in hyphenated:
            break
        streak += 1
    if streak >= MAX_HYPHENS_IN_A_ROW:
        return None
    word_end = ue
    while word_end > us and plain[word_end - 1].isspace():
        word_end -= 1
    word = plain[us:word_end]
    for point in reversed(_hyphen_points(word, lang)):
        cut = us + point
        dash = _width(atoms[cut - 1].font, HYPHEN) * size
        if cum[cut] - cum[line] + dash <= limit:
            return cut
    return None


# --- setting ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Box:
    x: float  # bottom-left, points
    y: float
    w: float
    h: float


def _em(font: str, size: float) -> tuple[float, float]:
    """Ascent and descent (negative) of the font's em box at `size`."""
    ascent, descent = fonts.ascent_descent(font, 1000)
    scale = size / (ascent - descent)
    return ascent * scale, descent * scale


def place_horizontal(lines, size, lh, box: Box, align, valign, base_font) -> list[Item]:
    items: list[Item] = []
    block = len(lines) * lh
    top = {"top": box.y + box.h, "middle": box.y + (box.h + block) / 2,
           "bottom": box.y + block}[valign]
    ascent, descent = _em(base_font, size)
    for i, (line, last, widths) in enumerate(lines):
        em_top = top - i * lh - (lh - size) / 2
        baseline = em_top - ascent
        natural = sum(widths)
        space = 0.0
        word_gap = None  # justified between words: the width each word space gets besides its own
        text = "".join(a.text for a in line)
        if align == "justify" and not last and len(line) > 1:
            gaps = text.count(" ")
            letters = [ch for ch in text if ch != " "]
            if gaps and sum(map(_is_latin, letters)) * 2 >= len(letters) \
                    and OBJECT not in text and ZERO_WIDTH.isdisjoint(text):
                # A line mostly of Latin text is justified between its words (a Japanese
                # name in it included): each word a run of its own, letters as they are.
                word_gap = max(0.0, (box.w - natural) / gaps)
            else:
                space = max(0.0, (box.w - natural) / (len(line) - 1))
        x = {"left": box.x, "justify": box.x, "center": box.x + (box.w - natural) / 2,
             "right": box.x + box.w - natural}[align]
        if word_gap is None and line and len({(a.font, a.color) for a in line}) == 1 \
                and OBJECT not in text and ZERO_WIDTH.isdisjoint(text):
            # One font and colour, nothing to skip: the whole line is one run (the usual case).
            items.append(Text(x, baseline, text, line[0].font, size, line[0].color,
                              char_space=space))
            continue
        run: list[Atom] = []
        run_x = x
        for atom, w in zip(line, widths):
            if atom.text in ZERO_WIDTH:
                continue
            gap = word_gap is not None and atom.text == " "
            if gap or atom.text == OBJECT or \
                    (run and (atom.font, atom.color) != (run[0].font, run[0].color)):
                if run:
                    items.append(Text(run_x, baseline, "".join(a.text for a in run), run[0].font,
                                      size, run[0].color, char_space=space))
                run = []
            if gap:
                x += w + word_gap
                continue
            if atom.text == OBJECT:
                items.append(Image(atom.image, x, baseline + descent, w, size,
                                   images.digest(atom.image)))
            else:
                if not run:
                    run_x = x
                run.append(atom)
            x += w + space
        if run:
            items.append(Text(run_x, baseline, "".join(a.text for a in run), run[0].font, size,
                              run[0].color, char_space=space))
    return items


def place_vertical(lines, size, lh, box: Box, align, valign, base_font) -> list[Item]:
    items: list[Item] = []
    block = len(lines) * lh
    right = {"right": box.x + box.w, "center": box.x + (box.w + block) / 2,
             "left": box.x + block, "justify": box.x + box.w}[align]
    ascent, descent = _em(base_font, size)
    for i, (line, _last, advances) in enumerate(lines):
        cx = right - i * lh - lh / 2
        length = sum(advances)
        y = {"top": box.y + box.h, "middle": box.y + (box.h + length) / 2,
             "bottom": box.y + length}[valign]
        for atom, adv in zip(line, advances):
            ch = atom.text
            if ch in ZERO_WIDTH:
                continue
            if ch == OBJECT:
                items.append(Image(atom.image, cx - size / 2, y - size, size, size,
                                   images.digest(atom.image)))
            elif ch in ROTATED or _is_latin(ch) and ch not in CORNER_PUNCT:
                # Turned clockwise: the glyph's baseline runs down the column.
                items.append(Text(cx - (ascent + descent) / 2, y, ch, atom.font, size, atom.color,
                                  rotate=-90))
            else:
                w = fonts.string_width(ch, atom.font, size)
                baseline = y - size - descent
                x = cx - w / 2
                if ch in CORNER_PUNCT:
                    x, baseline = cx + size * 0.05, baseline + size * 0.55
                elif ch in SMALL_KANA:
                    x, baseline = x + size * 0.08, baseline + size * 0.08
                items.append(Text(x, baseline, ch, atom.font, size, atom.color))
            y -= adv
    return items


LINEAR_STEPS = 64  # 32 pt of shrinking tried size by size, as a designer would


def set_text(atoms: list[Atom], box: Box, size: float, min_size: float, line_spacing: float,
             align: str, valign: str, vertical: bool, base_font: str,
             phrase: bool = False) -> tuple[list[Item], float]:
    """Break, fit and place `atoms` in `box`. Returns (primitives, the size used).

    Tries `size`, then smaller sizes in 0.5 pt steps down to `min_size` (a declared
    shrink; `min_size == size` means no shrinking): the largest size on that grid that
    fits. The first LINEAR_STEPS sizes are tried one by one; past them (a shrink from a
    size far too large) the rest of the grid is bisected, so that any shrink takes at
    most LINEAR_STEPS + 64 tries. Raises DoesNotFit at the end."""
    along, across = (box.h, box.w) if vertical else (box.w, box.h)

    def attempt(current: float):
        lh = current * line_spacing
        lines = break_lines(atoms, current, along, vertical, phrase) if along > 0 else None
        fits = lines is not None and len(lines) * lh <= across + 1e-6
        return fits, lines, lh

    def placed(current: float, lines, lh):
        place = place_vertical if vertical else place_horizontal
        return place(lines, current, lh, box, align, valign, base_font), current

    steps = max(0, int((size - min_size + 1e-6) // 0.5))  # sizes size - k * 0.5, k = 0..steps
    last = None
    for k in range(min(steps, LINEAR_STEPS) + 1):
        current = size - k * 0.5
        fits, lines, lh = attempt(current)
        if fits:
            return placed(current, lines, lh)
        last = (current, lines, lh)
    if steps > LINEAR_STEPS:  # bisect k in (LINEAR_STEPS, steps] for the smallest k that fits
        low, high, found = LINEAR_STEPS + 1, steps, None
        while low <= high:
            k = (low + high) // 2
            fits, lines, lh = attempt(size - k * 0.5)
            if fits:
                found, high = (size - k * 0.5, lines, lh), k - 1
            else:
                last, low = (size - k * 0.5, lines, lh), k + 1
        if found is not None:
            return placed(*found)
        last = (size - steps * 0.5,) + attempt(size - steps * 0.5)[1:]
    current, lines, lh = last
    if lines is None:
        raise DoesNotFit(0.0, along, current, too_wide=True)
    raise DoesNotFit(len(lines) * lh, across, current)
