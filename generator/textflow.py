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
`<wbr>` (a place a name may break), `<tcy>12</tcy>` (tate-chu-yoko: upright and across
in vertical text), ruby (`｜鏑木《かぶらぎ》`, `漢字《かんじ》` after a run of kanji, or
`<ruby base="鏑木">かぶらぎ</ruby>`; readings split by spaces give mono-ruby, one per
character), and a line break for a new line. A `<` that starts no known tag is text.

Japanese punctuation is spaced as JLREQ sets it: brackets, 、。 and ・ take a one-em frame
(their glyph half and a blank half), the blanks of neighbouring punctuation are
compressed (」。, 、「, ）」 and 「『 to half an em between them), an opening bracket at
the start of a line is set half-width, and a closing bracket or stop at the end of one
too. Ruby is set at half the size, centred on its base; a reading longer than its base
may overhang neighbouring kana by one ruby character on each side, and the base is
spaced out for the rest. Lines never break inside a ruby base or a tate-chu-yoko run.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate
from operator import itemgetter
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

# JLREQ's punctuation classes: opening brackets (cl-01), closing brackets (cl-02), full
# stops and commas (cl-06, cl-07), middle dots (cl-05). Each takes a one-em frame: its glyph
# in one half, blank in the other (a middle dot: a quarter em of blank on each side).
OPENING = frozenset("「『（［｛〈《【〔〘〖〝")
CLOSING = frozenset("」』）］｝〉》】〕〙〗〟")
STOPS = frozenset("、。，．")
MIDDLE = frozenset("・：；")
PUNCT = OPENING | CLOSING | STOPS | MIDDLE
_PUNCT_RE = re.compile("[" + re.escape("".join(sorted(PUNCT))) + "]")
HANGING = frozenset("、。，．")  # may hang past the line's end (ぶら下げ), where allowed
VERTICAL_FORMS = {"“": "〝", "”": "〟"}  # quotation marks set vertically
_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]")
# A place a name may break (wrap: name): after a middle dot, a double hyphen, a space or a
# declared break (<wbr>), and before an opening bracket.
NAME_BREAK_AFTER = frozenset("・＝= \u3000\u200b")

_TAG = re.compile(
    r'<ruby\s+base="(?P<rb>[^"<>]*)"\s*>(?P<rt>[^<>]*)</ruby>'
    r"|[|｜](?P<bb>[^|｜《》\n]+?)《(?P<bt>[^《》\n]+)》"
    r"|(?P<kb>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ]+)《(?P<kt>[^《》\n]+)》"
    r"|<(/?)(b|i|color|icon|tcy|wbr)(?:\s+([^<>]*?))?\s*/?>")


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
    ruby: str = ""  # on the first atom of a ruby base: its reading
    group: int = 0  # atoms held together: their number on the first, -1 on the others
    tcy: bool = False  # in an explicit <tcy> run (the run is the `group`)


class Atoms(list):
    """The atoms `parse` makes, knowing whether any are grouped (ruby, <tcy>): most texts
    have none, and the engine then skips looking for them."""

    __slots__ = ("grouped",)

    def __init__(self, *args):
        super().__init__(*args)
        self.grouped = False


_TEXT = itemgetter(0)  # Atom.text
_FONT = itemgetter(1)  # Atom.font
_FONT_COLOR = itemgetter(1, 2)  # (Atom.font, Atom.color)


def plain_of(atoms) -> str:
    """The atoms' characters as one string (one character per atom: indices agree)."""
    return "".join(map(_TEXT, atoms))


def _grouped(atoms) -> bool:
    flag = getattr(atoms, "grouped", None)
    return any(a.group for a in atoms) if flag is None else flag


# The plain atoms of each font and colour, by character: a text makes one atom per
# character, and most characters recur, so each is made once (atoms are immutable tuples).
# Cleared when it holds ATOMS_KEPT atoms: the fonts and colours a text uses come from data.
_ATOMS: dict[tuple, dict[str, "Atom"]] = {}
ATOMS_KEPT = 20000
_atoms_kept = 0


def _plain_atoms(chunk: str, font: str, color) -> list:
    """One plain atom (no ruby, no group) per character of `chunk`, drawn by `font`."""
    global _atoms_kept
    table = _ATOMS.get((font, color))
    if table is None:
        if _atoms_kept >= ATOMS_KEPT:
            _ATOMS.clear()
            _atoms_kept = 0
        table = _ATOMS[font, color] = {}
    try:
        return list(map(table.__getitem__, chunk))
    except KeyError:
        new = tuple.__new__
        for ch in set(chunk).difference(table):
            table[ch] = new(Atom, (ch, font, color, None, 1.0, "", 0, False))
            _atoms_kept += 1
        return list(map(table.__getitem__, chunk))


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
    atoms: Atoms = Atoms()
    missing: list[str] = []

    def add_chars(chunk: str) -> None:
        chunk = chunk.replace("\\《", "《")  # \《: a 《 that starts no reading
        current = stack[-1]
        primary = current.family.face(current.bold, current.italic)
        drawn = fonts.charmap(primary)
        absent = set(map(ord, chunk)).difference(drawn)
        if all(chr(c).isspace() for c in absent) and ZERO_WIDTH.isdisjoint(chunk):
            # Every character in the primary font (the usual case): no per-character choice.
            atoms.extend(_plain_atoms(chunk, primary, current.color))
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

    def ruby(base: str, reading: str) -> None:
        reading = reading.strip()
        if not base or not reading:
            raise MarkupError("ruby needs a base and a reading: ｜鏑木《かぶらぎ》")
        first = len(atoms)
        add_chars(base)
        mark = len(atoms)
        add_chars(reading)  # its characters must be in the fonts too: checked, then removed
        del atoms[mark:]
        if mark - first != len(base):
            return  # a character without a glyph: reported with the others
        parts = reading.replace("\u3000", " ").split()
        if len(parts) == len(base) > 1:  # mono-ruby: a reading for each character
            atoms.grouped = True
            for k, part in enumerate(parts):
                atoms[first + k] = atoms[first + k]._replace(ruby=part, group=1)
            return
        atoms.grouped = True
        atoms[first] = atoms[first]._replace(ruby="".join(parts), group=len(atoms) - first)
        for k in range(first + 1, len(atoms)):
            atoms[k] = atoms[k]._replace(group=-1)

    pos = 0
    tcy_start = None
    for match in _TAG.finditer(text):
        add_chars(text[pos:match.start()])
        pos = match.end()
        if match.group("rb") is not None or match.group("bb") is not None \
                or match.group("kb") is not None:
            base = match.group("rb") if match.group("rb") is not None else \
                match.group("bb") if match.group("bb") is not None else match.group("kb")
            reading = match.group("rt") if match.group("rb") is not None else \
                match.group("bt") if match.group("bb") is not None else match.group("kt")
            if "<" in base:
                raise MarkupError("a ruby base cannot hold markup")
            ruby(base, reading)
            continue
        closing, tag, arg = match.group(7), match.group(8), (match.group(9) or "").strip()
        if tag == "wbr":
            atoms.append(Atom("\u200b", stack[-1].family.regular, stack[-1].color))
            continue
        if tag == "tcy":
            if closing:
                if tcy_start is None:
                    raise MarkupError("</tcy> closes nothing")
                n = len(atoms) - tcy_start
                if not 0 < n <= 4:
                    raise MarkupError(f"<tcy> holds 1 to 4 characters set across one em, not {n}")
                atoms.grouped = True
                atoms[tcy_start] = atoms[tcy_start]._replace(tcy=True, group=n)
                for k in range(tcy_start + 1, len(atoms)):
                    atoms[k] = atoms[k]._replace(tcy=True, group=-1)
                tcy_start = None
            elif tcy_start is not None:
                raise MarkupError("<tcy> inside <tcy>")
            else:
                tcy_start = len(atoms)
            continue
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
    if tcy_start is not None:
        raise MarkupError("a <tcy> tag is not closed")
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


def _widths(atoms: list[Atom], size: float, vertical: bool, plain: str) -> list[float]:
    """Each atom's advance at `size` (what _advance gives), for a whole text at once."""
    if vertical:
        return [_advance(a, size, True) for a in atoms]
    if atoms and len(set(map(_FONT, atoms))) == 1:  # one font, every width known: at once
        table = _FONT_WIDTHS.get(atoms[0].font)
        if table is not None:
            try:
                return [w * size for w in map(table.__getitem__, plain)]
            except KeyError:  # a character not measured yet, or one without a fixed width
                pass
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


class Spacing(NamedTuple):
    """What JLREQ spacing and ruby add to each atom's advance, in points."""

    before: list[float]  # before the glyph (negative: a blank of the glyph's own taken away)
    after: list[float]
    open_blank: list[float]  # an opening bracket's blank before it (dropped at a line's start)
    close_blank: list[float]  # a closing bracket's or stop's blank after it (at a line's end)
    marks: list[int]  # the atoms spaced at all (before or after), in order


def _kind(ch: str) -> str:
    return ("open" if ch in OPENING else "close" if ch in CLOSING else
            "stop" if ch in STOPS else "middle" if ch in MIDDLE else "")


def _spacing(atoms: list[Atom], widths: list[float], size: float, vertical: bool,
             plain: str) -> Spacing:
    """JLREQ's punctuation frames and their compression (3.1.4, in a line), and the room a
    ruby longer than its base needs beyond its overhang over neighbouring kana."""
    n = len(atoms)
    before, after = [0.0] * n, [0.0] * n
    open_blank, close_blank = [0.0] * n, [0.0] * n
    if vertical:
        plain = "".join(VERTICAL_FORMS.get(ch, ch) for ch in plain)
    kinds = {m.start(): _kind(m.group()) for m in _PUNCT_RE.finditer(plain)}
    eb = {i: (.5 if k == "open" else .25 if k == "middle" else 0.0) for i, k in kinds.items()}
    ea = {i: (0.0 if k == "open" else .25 if k == "middle" else .5) for i, k in kinds.items()}
    for i, ki in kinds.items():
        kj = kinds.get(i + 1)
        if not kj:
            continue
        if kj in ("close", "stop"):  # 」。 ）」 。」: nothing between them
            ea[i] = 0.0
        elif ki == "open":  # 「『: nothing between them
            eb[i + 1] = 0.0
        else:  # 」「 、「 」・: half an em between them at most
            ea[i], eb[i + 1] = min(.5, max(ea[i], eb[i + 1])), 0.0
    for i, k in kinds.items():
        spare = max(0.0, widths[i] / size - .5)  # blank the glyph's own advance holds
        own_b, own_a = ((spare, 0.0) if k == "open" else (0.0, spare) if k != "middle"
                        else (spare / 2, spare / 2))
        before[i], after[i] = (eb[i] - own_b) * size, (ea[i] - own_a) * size
        if k == "open":
            open_blank[i] = eb[i] * size
        elif k != "middle":
            close_blank[i] = ea[i] * size
    for i, atom in enumerate(atoms if _grouped(atoms) else ()):
        if atom.group > 0 and atom.ruby:
            last = i + atom.group - 1
            base = sum(widths[i:last + 1]) + sum(before[i:last + 1]) + sum(after[i:last + 1])
            rsize = size / 2
            ruby = len(atom.ruby) * rsize if vertical else \
                sum(_width(atom.font, ch) for ch in atom.ruby) * rsize
            overhang = rsize * ((i > 0 and bool(_KANA.match(atoms[i - 1].text))) +
                                (last + 1 < n and bool(_KANA.match(atoms[last + 1].text))))
            extra = ruby - base - overhang
            if extra > 0:
                before[i] += extra / 2
                after[last] += extra / 2
                kinds.setdefault(i, "")
                kinds.setdefault(last, "")
    marks = sorted(k for k in kinds if before[k] or after[k])
    return Spacing(before, after, open_blank, close_blank, marks)


def _tcy_runs(atoms: list[Atom], digits: int) -> dict[int, int]:
    """Tate-chu-yoko in vertical text: start -> length of each explicit <tcy> run and each
    run of up to `digits` ASCII digits standing alone."""
    runs, i, n = {}, 0, len(atoms)
    while i < n:
        atom = atoms[i]
        if atom.tcy and atom.group > 0:
            runs[i] = atom.group
            i += atom.group
            continue
        if digits and "0" <= atom.text <= "9":
            j = i
            while j < n and "0" <= atoms[j].text <= "9" and not atoms[j].tcy:
                j += 1
            alone = (i == 0 or not atoms[i - 1].text.isascii() or not atoms[i - 1].text.isalnum()) \
                and (j == n or not atoms[j].text.isascii() or not atoms[j].text.isalnum())
            if j - i <= digits and alone:
                runs[i] = j - i
            i = j
            continue
        i += 1
    return runs


class Laid(NamedTuple):
    """A text measured for breaking: each atom's advance with its spacing."""

    widths: list[float]
    spacing: Spacing | None
    tcy: dict[int, int]


def _laid(atoms: list[Atom], size: float, vertical: bool, tcy: int = 2,
          plain: str | None = None) -> Laid:
    plain = plain_of(atoms) if plain is None else plain
    widths = _widths(atoms, size, vertical, plain)
    runs = _tcy_runs(atoms, tcy) if vertical else {}
    for start, length in runs.items():
        widths[start] = size
        for k in range(start + 1, start + length):
            widths[k] = 0.0
    if PUNCT.isdisjoint(plain) and not (vertical and not set(VERTICAL_FORMS).isdisjoint(plain)) \
            and not _grouped(atoms):
        return Laid(widths, None, runs)
    sp = _spacing(atoms, widths, size, vertical, plain)
    return Laid([w + b + a for w, b, a in zip(widths, sp.before, sp.after)], sp, runs)


def _glued(atoms: list[Atom], plain: str, runs: dict[int, int], names: bool) -> set[int]:
    """Atoms a line may not start at: inside a ruby base or a tate-chu-yoko run, and, for
    names, everywhere but after a middle dot, a double hyphen, a space or a <wbr>, or before
    an opening bracket."""
    glued = set()
    for i, atom in enumerate(atoms if _grouped(atoms) else ()):
        if atom.group > 0:
            glued.update(range(i + 1, i + atom.group))
    for start, length in runs.items():
        glued.update(range(start + 1, start + length))
    if names:
        glued.update(k for k in range(1, len(plain)) if plain[k - 1] not in NAME_BREAK_AFTER
                     and plain[k] not in OPENING and plain[k - 1] != "\n" and plain[k] != "\n")
    return glued


def _merge(groups: list[list[tuple[int, int]]], glued: set[int]) -> list[list[tuple[int, int]]]:
    """Units joined where no line may start between them (a joined unit stays in the phrase
    group of its first part)."""
    if not glued:
        return groups
    out: list[list[tuple[int, int]]] = []
    for group in groups:
        for k, (us, ue) in enumerate(group):
            if out and us in glued:
                out[-1][-1] = (out[-1][-1][0], ue)
            elif k == 0 or not out:
                out.append([(us, ue)])
            else:
                out[-1].append((us, ue))
    return out


class Line(NamedTuple):
    atoms: list[Atom]
    last: bool  # ends a paragraph
    widths: list[float]  # each atom's advance, as the line was broken
    offsets: list[float] | None = None  # where each glyph starts in its advance (JLREQ, ruby)
    hang: float = 0.0  # the advance of a stop hanging past the line's end (ぶら下げ)
    tcy: dict | None = None  # tate-chu-yoko runs: start (in the line) -> length
    afters: list[float] | None = None  # what spacing adds after each glyph (with `offsets`)
    ruby: bool = False  # some atom of the line carries ruby
    cuts: tuple[int, ...] = (0,)  # where a run of glyphs must start anew (spaced glyphs)


def content_widths(atoms: list[Atom], size: float, phrase: bool = True) -> tuple[float, float]:
    """(min, max) content width of a text, as a browser's automatic table layout asks:
    the widest piece no line may break inside (a word; a Japanese phrase with `phrase`),
    and the widest paragraph set on one line."""
    plain = plain_of(atoms)
    widths = _laid(atoms, size, False, 0, plain).widths
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
                phrase: bool = False, hyphenate: str | None = None, names: bool = False,
                hang: bool = False, tcy: int = 2) -> list[Line] | None:
    """Lines (atoms, ends-a-paragraph, advances, glyph offsets). None if one atom alone is
    longer than a line (or, for `names`, a name's part between its break points).
    With `phrase`, lines break only between phrases (BudouX) unless a phrase is longer
    than a line. With `hyphenate` (a language, "en_US"), an English word that would start
    the next line is hyphenated where the dictionary allows and the part fits, at most
    MAX_HYPHENS_IN_A_ROW lines running. With `names`, lines break only after ・, ＝, a
    space or a <wbr>, or before an opening bracket. With `hang`, a line may end in 、 or 。
    hanging past its end rather than push them on. `tcy`: the longest run of digits set
    across in vertical text."""
    plain = plain_of(atoms)  # one character per atom: indices agree
    laid = _laid(atoms, size, vertical, tcy, plain)
    widths, sp = laid.widths, laid.spacing
    grouped = _grouped(atoms)
    glued = _glued(atoms, plain, laid.tcy, names)
    tail = sp.close_blank if sp else None
    cum = [0.0, *accumulate(widths)]  # cum[i]: the advance of atoms[:i]
    limit = available + 1e-6
    ranges: list[tuple[int, int, bool]] = []  # lines as atom index ranges
    hyphenated: set[int] = set()  # the ends of lines that end in a hyphen
    start = 0

    def ending(us: int, ue: int) -> float:
        """The unit's advance as the end of a line: without trailing spaces, the blank after
        a closing bracket or stop, and (with `hang`) a stop that may hang."""
        end = ue
        while end > us and plain[end - 1].isspace():
            end -= 1
        width = cum[end] - cum[us]
        if tail is None:
            return width
        if end > us:
            width -= tail[end - 1]
            if hang and plain[end - 1] in HANGING and end - 1 > us:
                width -= widths[end - 1] - tail[end - 1]
        return width

    while True:
        end = plain.find("\n", start)
        end = len(plain) if end < 0 else end
        if ending(start, end) <= limit:
            ranges.append((start, end, True))  # it fits: no break opportunity is needed
        else:
            line = start  # the current line starts at `line`; its width is cum[us] - cum[line]
            groups = _merge(_unit_bounds(plain[start:end], start, phrase), glued)
            for group in groups:
                units = group
                if len(group) > 1:
                    gs, gt = group[0][0], group[-1][1]
                    if ending(gs, gt) <= limit:
                        units = [(gs, group[-1][1])]  # a phrase that fits stays whole
                    # else: a phrase longer than a line: break inside it, as ICU allows
                for us, ue in units:
                    trim_w = ending(us, ue)
                    if us > line and cum[us] - cum[line] + trim_w > limit:
                        cut = _hyphen_cut(plain, atoms, cum, us, ue, line, limit, size,
                                          hyphenate, ranges, hyphenated) \
                            if hyphenate and not vertical else None
                        if cut is not None:  # the word's head ends this line, with a hyphen
                            ranges.append((line, cut, False))
                            hyphenated.add(cut)
                            line = us = cut
                            trim_w = ending(us, ue)
                        else:
                            ranges.append((line, us, False))
                            line = us
                    if us == line and trim_w > limit:
                        # A piece longer than the line (a long word): split it where it must,
                        # never inside a ruby base or a tate-chu-yoko run, nor inside a name.
                        if names:
                            return None
                        for i in range(us, ue):
                            if widths[i] > limit:
                                return None
                            if i > line and i not in glued and cum[i + 1] - cum[line] > limit:
                                ranges.append((line, i, False))
                                line = i
            ranges.append((line, end, True))
        if end == len(plain):
            break
        start = end + 1
    lines = []

    def cuts_of(a: int, b: int, offsets, afters) -> tuple[int, ...]:
        """Where runs start anew in the line [a, b): at each spaced glyph, and after one."""
        if sp is None:
            return (0,)
        spaced = sp.marks[bisect_left(sp.marks, a):bisect_left(sp.marks, b)]
        return tuple(sorted({0, *(k - a for k in spaced if offsets[k - a]),
                             *(k - a + 1 for k in spaced if afters[k - a] and k + 1 < b)}))

    for a, b, last in ranges:
        if b in hyphenated and not last:
            dash = atoms[b - 1]._replace(text=HYPHEN, ruby="", group=0)
            offsets = sp.before[a:b] + [0.0] if sp else None
            afters = sp.after[a:b] + [0.0] if sp else None
            lines.append(Line(atoms[a:b] + [dash], last,
                              widths[a:b] + [_width(dash.font, HYPHEN) * size], offsets, 0.0,
                              None, afters, False, cuts_of(a, b, offsets, afters)))
            continue
        while b > a and plain[b - 1].isspace():
            b -= 1
        line_widths = widths[a:b]
        offsets = sp.before[a:b] if sp else None
        afters = sp.after[a:b] if sp else None
        hung = 0.0
        if sp and b > a:
            if sp.open_blank[a]:  # an opening bracket starts the line: half-width
                line_widths[0] -= sp.open_blank[a]
                offsets[0] -= sp.open_blank[a]
            if sp.close_blank[b - 1]:  # a closing bracket or stop ends it: half-width too
                line_widths[-1] -= sp.close_blank[b - 1]
                afters[-1] -= sp.close_blank[b - 1]
            if hang and plain[b - 1] in HANGING and sum(line_widths) > limit:
                hung = line_widths[-1]
        runs = {k - a: n for k, n in laid.tcy.items() if a <= k < b} if laid.tcy else None
        ruby = grouped and any(atom.ruby for atom in atoms[a:b])
        cuts = cuts_of(a, b, offsets, afters)
        lines.append(Line(atoms[a:b], last, line_widths, offsets, hung, runs, afters, ruby, cuts))
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


def _ruby_items(atoms, starts, ends, baseline_of, size, scale, box) -> list[Item]:
    """Horizontal ruby: each reading at half the size, centred over its base's glyphs (kept
    inside the box), its em box standing on the base's."""
    items: list[Item] = []
    for i, atom in enumerate(atoms):
        if not atom.ruby or atom.group <= 0 or i + atom.group - 1 not in ends:
            continue
        rsize = size / 2
        width = fonts.string_width(atom.ruby, atom.font, rsize) * scale
        middle = (starts[i] + ends[i + atom.group - 1]) / 2
        x = min(max(middle - width / 2, box.x), box.x + box.w - width)
        items.append(Text(x, baseline_of(atom.font, rsize), atom.ruby, atom.font, rsize,
                          atom.color, scale=scale))
    return items


def place_horizontal(lines, size, lh, box: Box, align, valign, base_font, scale: float = 1.0,
                     ruby_room: float = 0.0) -> list[Item]:
    """Each line's runs of text at its baseline; `scale` condenses the glyphs (長体) and their
    advances; `ruby_room` is kept above the first line for its ruby."""
    items: list[Item] = []
    block = len(lines) * lh + ruby_room
    top = {"top": box.y + box.h, "middle": box.y + (box.h + block) / 2,
           "bottom": box.y + block}[valign] - ruby_room
    ascent, descent = _em(base_font, size)
    for i, line in enumerate(lines):
        atoms, last, widths = line.atoms, line.last, line.widths
        offsets = line.offsets
        if scale != 1.0:
            widths = [w * scale for w in widths]
            offsets = [o * scale for o in offsets] if offsets else None
        em_top = top - i * lh - (lh - size) / 2
        baseline = em_top - ascent
        natural = sum(widths) - line.hang * scale
        space = 0.0
        word_gap = None  # justified between words: the width each word space gets besides its own
        text = plain_of(atoms)
        if align == "justify" and not last and len(atoms) > 1:
            gaps = text.count(" ")
            letters = [ch for ch in text if ch != " "]
            if gaps and sum(map(_is_latin, letters)) * 2 >= len(letters) \
                    and OBJECT not in text and ZERO_WIDTH.isdisjoint(text):
                # A line mostly of Latin text is justified between its words (a Japanese
                # name in it included): each word a run of its own, letters as they are.
                word_gap = max(0.0, (box.w - natural) / gaps)
            else:
                space = max(0.0, (box.w - natural) / (len(atoms) - 1))
        x = {"left": box.x, "justify": box.x, "center": box.x + (box.w - natural) / 2,
             "right": box.x + box.w - natural}[align]
        if word_gap is None and atoms and not line.ruby and \
                len(set(map(_FONT_COLOR, atoms))) == 1 \
                and OBJECT not in text and ZERO_WIDTH.isdisjoint(text):
            # One font and colour, nothing to skip: the whole line is one run (the usual
            # case), or, with JLREQ spacing, one run from each spaced glyph to the next.
            font, color = atoms[0].font, atoms[0].color
            if offsets is None:
                items.append(Text(x, baseline, text, font, size, color,
                                  char_space=space / scale, scale=scale))
                continue
            cuts = line.cuts
            starts = [0.0, *accumulate(widths)]
            for s_, e_ in zip(cuts, cuts[1:] + (len(atoms),)):
                items.append(Text(x + starts[s_] + s_ * space + offsets[s_], baseline,
                                  text[s_:e_], font, size, color, char_space=space / scale,
                                  scale=scale))
            continue
        run: list[Atom] = []
        run_x = expected = x
        starts: dict[int, float] = {}
        ends: dict[int, float] = {}
        for k, (atom, w) in enumerate(zip(atoms, widths)):
            if atom.text in ZERO_WIDTH:
                continue
            glyph_x = x + (offsets[k] if offsets else 0.0)
            gap = word_gap is not None and atom.text == " "
            if gap or atom.text == OBJECT or abs(glyph_x - expected) > 1e-6 or \
                    (run and (atom.font, atom.color) != (run[0].font, run[0].color)):
                if run:
                    items.append(Text(run_x, baseline, plain_of(run), run[0].font,
                                      size, run[0].color, char_space=space / scale, scale=scale))
                run = []
            if gap:
                x += w + word_gap
                continue
            if atom.text == OBJECT:
                items.append(Image(atom.image, x, baseline + descent, w, size,
                                   images.digest(atom.image)))
                expected = x + w + space
            else:
                if not run:
                    run_x = glyph_x
                run.append(atom)
                advance = _width(atom.font, atom.text) * size * scale
                starts[k], ends[k] = glyph_x, glyph_x + advance
                expected = glyph_x + advance + space
            x += w + space
        if run:
            items.append(Text(run_x, baseline, plain_of(run), run[0].font, size,
                              run[0].color, char_space=space / scale, scale=scale))
        if line.ruby:
            items += _ruby_items(atoms, starts, ends,
                                 lambda font, rsize: em_top - _em(font, rsize)[1], size, scale,
                                 box)
    return items


def place_vertical(lines, size, lh, box: Box, align, valign, base_font,
                   ruby_room: float = 0.0) -> list[Item]:
    """Columns from the right; `ruby_room` is kept right of the first column for its ruby."""
    items: list[Item] = []
    block = len(lines) * lh + ruby_room
    right = {"right": box.x + box.w, "center": box.x + (box.w + block) / 2,
             "left": box.x + block, "justify": box.x + box.w}[align] - ruby_room
    ascent, descent = _em(base_font, size)
    for i, line in enumerate(lines):
        atoms, advances = line.atoms, line.widths
        offsets, runs = line.offsets, line.tcy or {}
        cx = right - i * lh - lh / 2
        length = sum(advances)
        y = {"top": box.y + box.h, "middle": box.y + (box.h + length) / 2,
             "bottom": box.y + length}[valign]
        spans: dict[int, tuple[float, float]] = {}  # ruby base atom -> (glyph top, glyph end)
        skip = 0
        for k, (atom, adv) in enumerate(zip(atoms, advances)):
            top = y - (offsets[k] if offsets else 0.0)  # the glyph's em cell starts here
            y -= adv
            if skip:
                skip -= 1
                continue
            ch = atom.text
            if ch in ZERO_WIDTH:
                continue
            if k in runs:  # tate-chu-yoko: upright, across, within one em
                text = plain_of(atoms[k:k + runs[k]])
                w = fonts.string_width(text, atom.font, size)
                squeeze = min(1.0, size * 0.96 / w) if w else 1.0
                items.append(Text(cx - w * squeeze / 2, top - size - descent, text, atom.font,
                                  size, atom.color, scale=squeeze))
                skip = runs[k] - 1
                spans[k] = (top, top - size)
                continue
            form = VERTICAL_FORMS.get(ch)
            if form and not fonts.missing_glyphs(atom.font, form):
                ch = form
            if ch == OBJECT:
                items.append(Image(atom.image, cx - size / 2, top - size, size, size,
                                   images.digest(atom.image)))
                spans[k] = (top, top - size)
            elif ch in ROTATED or _is_latin(ch) and ch not in CORNER_PUNCT:
                # Turned clockwise: the glyph's baseline runs down the column.
                items.append(Text(cx - (ascent + descent) / 2, top, ch, atom.font, size,
                                  atom.color, rotate=-90))
                spans[k] = (top, top - _width(atom.font, ch) * size)
            else:
                w = fonts.string_width(ch, atom.font, size)
                baseline = top - size - descent
                x = cx - w / 2
                if ch in CORNER_PUNCT:
                    x, baseline = cx + size * 0.05, baseline + size * 0.55
                elif ch in SMALL_KANA:
                    x, baseline = x + size * 0.08, baseline + size * 0.08
                items.append(Text(x, baseline, ch, atom.font, size, atom.color))
                spans[k] = (top, top - size)
        for k, atom in enumerate(atoms):  # ruby: right of the column, upright, centred
            if not atom.ruby or atom.group <= 0 or k not in spans:
                continue
            end = spans.get(k + atom.group - 1, spans[k])[1]
            rsize = size / 2
            length = len(atom.ruby) * rsize
            ry = min(max((spans[k][0] + end) / 2 + length / 2, box.y + length), box.y + box.h)
            rdescent = _em(atom.font, rsize)[1]
            for ch in atom.ruby:
                w = fonts.string_width(ch, atom.font, rsize)
                items.append(Text(cx + size / 2 + (rsize - w) / 2, ry - rsize - rdescent, ch,
                                  atom.font, rsize, atom.color))
                ry -= rsize
    return items


LINEAR_STEPS = 64  # 32 pt of shrinking tried size by size, as a designer would


RUBY_LEADING = 1.5  # times the size: lines of a text with ruby are at least this far apart
CONDENSE_STEP = 0.01  # 長体 is tried in steps of 1%


def set_text(atoms: list[Atom], box: Box, size: float, min_size: float, line_spacing: float,
             align: str, valign: str, vertical: bool, base_font: str,
             phrase: bool = False, names: bool = False, hang: bool = False, tcy: int = 2,
             condense: float = 1.0) -> tuple[list[Item], float]:
    """Break, fit and place `atoms` in `box`. Returns (primitives, the size used).

    Tries `size`, then smaller sizes in 0.5 pt steps down to `min_size` (a declared
    shrink; `min_size == size` means no shrinking): the largest size on that grid that
    fits. At each size, glyphs may first be condensed (長体, horizontal text) in 1% steps
    down to `condense` (1: never). The first LINEAR_STEPS sizes are tried one by one; past
    them (a shrink from a size far too large) the rest of the grid is bisected, so that
    any shrink takes at most LINEAR_STEPS + 64 sizes. Raises DoesNotFit at the end.
    A text with ruby keeps its lines RUBY_LEADING apart at least, and room for the first
    line's ruby inside the box."""
    along, across = (box.h, box.w) if vertical else (box.w, box.h)
    has_ruby = _grouped(atoms) and any(a.ruby for a in atoms)
    scales = [1.0]
    while not vertical and scales[-1] - CONDENSE_STEP >= condense - 1e-9:
        scales.append(round(scales[-1] - CONDENSE_STEP, 4))

    def attempt(current: float):
        lh = current * line_spacing
        if has_ruby:
            lh = max(lh, current * RUBY_LEADING)
        lines = None
        for scale in scales:
            lines = break_lines(atoms, current, along / scale, vertical, phrase, names=names,
                                hang=hang, tcy=tcy) if along > 0 else None
            room = _ruby_room(lines, current, lh) if has_ruby else 0.0
            if lines is not None and len(lines) * lh + room <= across + 1e-6:
                return True, lines, lh, scale
        return False, lines, lh, scales[-1]

    def placed(current: float, lines, lh, scale):
        room = _ruby_room(lines, current, lh)
        if vertical:
            return place_vertical(lines, current, lh, box, align, valign, base_font,
                                  ruby_room=room), current
        return place_horizontal(lines, current, lh, box, align, valign, base_font, scale,
                                ruby_room=room), current

    steps = max(0, int((size - min_size + 1e-6) // 0.5))  # sizes size - k * 0.5, k = 0..steps
    last = None
    for k in range(min(steps, LINEAR_STEPS) + 1):
        current = size - k * 0.5
        fits, lines, lh, scale = attempt(current)
        if fits:
            return placed(current, lines, lh, scale)
        last = (current, lines, lh, scale)
    if steps > LINEAR_STEPS:  # bisect k in (LINEAR_STEPS, steps] for the smallest k that fits
        low, high, found = LINEAR_STEPS + 1, steps, None
        while low <= high:
            k = (low + high) // 2
            fits, lines, lh, scale = attempt(size - k * 0.5)
            if fits:
                found, high = (size - k * 0.5, lines, lh, scale), k - 1
            else:
                last, low = (size - k * 0.5, lines, lh, scale), k + 1
        if found is not None:
            return placed(*found)
        last = (size - steps * 0.5,) + attempt(size - steps * 0.5)[1:]
    current, lines, lh, _scale = last
    if lines is None:
        raise DoesNotFit(0.0, along, current, too_wide=True)
    raise DoesNotFit(len(lines) * lh + _ruby_room(lines, current, lh), across, current)


def _ruby_room(lines, size: float, lh: float) -> float:
    """Room the first line's ruby needs beyond the half-leading above it."""
    if not lines or not lines[0].ruby:
        return 0.0
    return max(0.0, size / 2 - (lh - size) / 2)
