"""Text as atoms: the markup (bold, colour, icons, ruby, tate-chu-yoko, breaks) parsed into
one atom per character, each with its font, colour and size."""

from __future__ import annotations

import re
from operator import itemgetter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping, NamedTuple


from .. import fonts
from ..colors import Color
from ..model import FontFamily, Icon
from ..values import DRAWN_AS_NOTHING, shown_character
from ..i18n import _


OBJECT = "\ufffc"  # stands for an inline image while breaking lines
# Zero-width format characters: they steer line breaking (U+2060 WORD JOINER glues
# "＋⁠n" together; U+200B allows a break) but are never drawn nor looked up in a font.
ZERO_WIDTH = {"\u2060", "\u200b", "\u200c", "\u200d", "\ufeff"}
_LEFT_OUT = DRAWN_AS_NOTHING - ZERO_WIDTH  # a soft hyphen, directional marks: not drawn

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
# Quotation marks a vertical text may hold, of either form: which vertical mark each becomes
# is decided by its place (the first opens, the next closes), not by the character, as a
# source often writes ”白手袋の” with two closing marks.
QUOTES = frozenset("“”＂\"")


def vertical_quotes(atoms: list) -> list:
    """The atoms with each quotation mark as vertical text sets it: 〝 where a quotation
    opens, 〟 where it closes, by place (a font without them keeps the mark as written)."""
    if QUOTES.isdisjoint(a.text for a in atoms):
        return atoms
    out, opening = [], True
    for atom in atoms:
        if atom.text in QUOTES:
            form = "〝" if opening else "〟"
            opening = not opening
            if not fonts.missing_glyphs(atom.font, form):
                atom = atom._replace(text=form)
        out.append(atom)
    return out
_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]")
# A place a name may break (wrap: name): after a middle dot, a double hyphen, a space or a
# declared break (<wbr>), and before an opening bracket.
NAME_BREAK_AFTER = frozenset("・＝= \u3000\u200b")

@lru_cache(maxsize=1)
def _tags() -> re.Pattern[str]:
    """Every tag, compiled at the first text with markup: its class of kanji takes 1.2 ms to
    compile, which a deck of plain texts never needs."""
    return re.compile(
        r'<ruby\s+base="(?P<rb>[^"<>]*)"\s*>(?P<rt>[^<>]*)</ruby>'
        r"|[|｜](?P<bb>[^|｜《》\n]+?)《(?P<bt>[^《》\n]+)》"
        r"|(?P<kb>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ]+)《(?P<kt>[^《》\n]+)》"
        r"|<(/?)(b|i|color|icon|tcy|wbr)(?:\s+([^<>]*?))?\s*/?>")


# What every tag of _tags() holds one of: a text without any has no markup, and is not scanned
# for tags (5 µs for a card's body: the pattern tries its ruby forms at every character).
_MARKED = re.compile("[<|｜《]")


class MarkupError(Exception):
    pass


# What is left of a known tag that the tag pattern did not take whole (a <ruby base="漢">
# without its reading or </ruby>, a <color red without its >): an error, never printed.
_BROKEN_TAG = re.compile(r"</?(?:ruby|b|i|color|icon|tcy|wbr)(?=[\s>/=]|$)")


# A base begun with ｜ whose reading is empty (｜漢字《》) or never closed (｜漢字《かんじ): the
# ruby the ｜ asks for cannot be set, and printing the marks would be wrong output.
_BROKEN_RUBY = re.compile(r"[|｜][^|｜《》\n\\]+《(?:》|[^》\n]*(?:\n|$))")


def _unbroken(chunk: str) -> str:
    ruby = _BROKEN_RUBY.search(chunk) if "《" in chunk else None
    if ruby is not None and ruby.group(0).endswith("》"):
        raise MarkupError(_("ruby needs a base and a reading: ｜鏑木《かぶらぎ》"))
    if ruby is not None:
        raise MarkupError(_("'{ruby}' is a reading that does not close: end it with 》 "
                            "(｜鏑木《かぶらぎ》), or write \\《 for a 《 that starts none",
                            ruby=ruby.group(0).strip()[:24]))
    broken = _BROKEN_TAG.search(chunk) if "<" in chunk else None
    if broken is None:
        return chunk
    tag = broken.group(0)
    if "ruby" in tag:
        raise MarkupError(_("'{tag}' is not a whole ruby tag: write it as <ruby "
                            "base=\"鏑木\">かぶらぎ</ruby> (the base plain text), "
                            "or ｜鏑木《かぶらぎ》", tag=tag))
    raise MarkupError(_("'{chunk}' is not a whole tag: {tag}...> must end with >",
                        chunk=chunk[broken.start():broken.start() + 24], tag=tag))


class MissingGlyphs(Exception):
    def __init__(self, chars: list[str], family: str):
        super().__init__(chars)
        self.chars = chars
        self.family = family

    def said(self, what: str) -> str:
        """The problem in words, about `what` (a card's field, a rulebook's text)."""
        codes = ", ".join(shown_character(c) for c in self.chars)
        return _("{what} has characters the font '{exc_family}' cannot draw: {codes}",
                 what=what, exc_family=self.family, codes=codes)


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
    ruby: str = "mono"  # readings split by spaces: mono, jukugo (熟語ルビ) or group


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
    recolor: bool = False  # for OBJECT: an SVG icon drawn in `color` (its icon declares one)
    word: int = 0  # jukugo ruby: on a word's first atom its length, -1 on the others


class Atoms(list):
    """The atoms `parse` makes, knowing whether any are grouped (ruby, <tcy>), and the one
    (font, colour) that draws them all where parse saw only one (None: not known): most
    texts have no groups and one style, and the engine then skips looking at every atom.
    (No __init__ of its own: a paragraph's atoms are sliced into one for every text.)"""

    grouped = False
    style: tuple | None = None
    plain: str | None = None  # the atoms' characters (plain_of), where parse had them whole


_TEXT = itemgetter(0)  # Atom.text
_FONT = itemgetter(1)  # Atom.font
_FONT_COLOR = itemgetter(1, 2)  # (Atom.font, Atom.color)


def plain_of(atoms) -> str:
    """The atoms' characters as one string (one character per atom: indices agree)."""
    return "".join(map(_TEXT, atoms))


def _grouped(atoms) -> bool:
    flag = getattr(atoms, "grouped", None)
    return any(a.group for a in atoms) if flag is None else flag


def one_style(atoms) -> bool:
    """Whether there are atoms and one font in one colour draws them all."""
    if not atoms:
        return False
    if getattr(atoms, "style", None) is not None:
        return True  # (parse saw it: not asked of every atom again)
    return len(set(map(_FONT_COLOR, atoms))) == 1


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
            table[ch] = new(Atom, (ch, font, color, None, 1.0, "", 0, False, False, 0))
            _atoms_kept += 1
        return list(map(table.__getitem__, chunk))


# The white space a font may lack and still set: a line end, a tab, a space (drawn as
# nothing or as the space every font has). Any other (an ideographic space, a thin space) is
# drawn by a font that has it, as any character: a font without it would print a blank box.
BARE_SPACE = frozenset(map(ord, " \t\n\r\x0b\x0c"))
# Each font's characters, the bare spaces but no zero-width character, as a table that
# str.translate deletes: a text with nothing left is all drawn by the font, in one C call
# (a set of the text's code points took 13 µs for a card's body). Kept for DRAWN_KEPT fonts
# (a large font's table is some hundred kB), then made again.
_DRAWN: dict[str, dict[int, None]] = {}
DRAWN_KEPT = 8


def _drawn(font: str) -> dict[int, None]:
    table = _DRAWN.get(font)
    if table is None:
        if len(_DRAWN) >= DRAWN_KEPT:
            _DRAWN.clear()
        table = _DRAWN[font] = dict.fromkeys(
            (fonts.charmap(font) | BARE_SPACE).difference(map(ord, ZERO_WIDTH)))
    return table


@lru_cache(maxsize=None)
def font_for(family: FontFamily, bold: bool, ch: str, families: tuple) -> str | None:
    """The font that draws `ch`: the family's, else the first of `families` that has it."""
    primary = family.bold if bold else family.regular
    if ord(ch) in BARE_SPACE or ord(ch) in fonts.charmap(primary):
        return primary
    for other in families:
        font = other.bold if bold else other.regular
        if ord(ch) in fonts.charmap(font):
            return font
    return None


class _Parse:
    """One text being parsed: its atoms so far, the styles open, the characters no font has."""

    __slots__ = ("atoms", "stack", "missing", "fallbacks", "drawn_by", "plain")

    def __init__(self, style: Style, families: Mapping[str, FontFamily]):
        self.fallbacks = tuple(families[f] for f in style.family.fallback if f in families)
        self.stack: list[Style] = [style]
        self.atoms: Atoms = Atoms()
        self.missing: list[str] = []
        # the (font, colour) of every atom so far: () before the first, None once two differ
        # or an atom was made another way (Atoms.style)
        self.drawn_by: tuple | None = ()
        self.plain: str | None = ""  # the atoms' characters while one chunk made them all

    def chars(self, chunk: str) -> None:
        if not chunk:
            return
        chunk = chunk.replace("\\《", "《")  # \《: a 《 that starts no reading
        if not chunk.isprintable() and not _LEFT_OUT.isdisjoint(chunk):
            # format characters that draw as nothing are left out (a line end is not one:
            # most texts with one have none of them, and are not copied letter by letter)
            chunk = "".join(ch for ch in chunk if ch not in _LEFT_OUT)
        atoms, current = self.atoms, self.stack[-1]
        primary = current.family.face(current.bold, current.italic)
        if not chunk.translate(_drawn(primary)):
            # Every character in the primary font (the usual case): no per-character choice.
            self.plain = chunk if not atoms and self.plain == "" else None
            atoms.extend(_plain_atoms(chunk, primary, current.color))
            style = (primary, current.color)
            if self.drawn_by != style:
                self.drawn_by = style if self.drawn_by == () else None
            return
        self.drawn_by = self.plain = None
        drawn = fonts.charmap(primary)
        for ch in chunk:
            if ch in ZERO_WIDTH:
                atoms.append(Atom(ch, current.family.regular, current.color))
                continue
            if ord(ch) in drawn or ord(ch) in BARE_SPACE:
                atoms.append(Atom(ch, primary, current.color))
                continue
            font = font_for(current.family, current.bold, ch, self.fallbacks)
            if font is None:
                if ch not in self.missing:
                    self.missing.append(ch)
                continue
            atoms.append(Atom(ch, font, current.color))

    def ruby(self, base: str, reading: str) -> None:
        reading = reading.strip()
        if not base or not reading:
            raise MarkupError(_("ruby needs a base and a reading: ｜鏑木《かぶらぎ》"))
        atoms = self.atoms
        first = len(atoms)
        self.chars(base)
        mark = len(atoms)
        self.chars(reading)  # its characters must be in the fonts too: checked, then removed
        del atoms[mark:]
        if mark - first != len(base):
            return  # a character without a glyph: reported with the others
        parts = reading.replace("\u3000", " ").split()
        atoms.grouped = True
        mode = self.stack[-1].ruby
        if len(parts) == len(base) > 1 and mode != "group":  # a reading for each character:
            for k, part in enumerate(parts):  # mono ruby, or jukugo (the word shares room)
                word = (len(base) if k == 0 else -1) if mode == "jukugo" else 0
                atoms[first + k] = atoms[first + k]._replace(ruby=part, group=1, word=word)
            return
        atoms[first] = atoms[first]._replace(ruby="".join(parts), group=len(atoms) - first)
        for k in range(first + 1, len(atoms)):
            atoms[k] = atoms[k]._replace(group=-1)

    def tcy(self, closing: bool, start: int | None) -> int | None:
        """<tcy> opens a run set across (its start), </tcy> closes it (None)."""
        atoms = self.atoms
        if not closing:
            if start is not None:
                raise MarkupError(_("<tcy> inside <tcy>"))
            return len(atoms)
        if start is None:
            raise MarkupError(_("</tcy> closes nothing"))
        n = len(atoms) - start
        if not 0 < n <= 4:
            raise MarkupError(_("<tcy> holds 1 to 4 characters set across one em, not {n}", n=n))
        atoms.grouped = True
        atoms[start] = atoms[start]._replace(tcy=True, group=n)
        for k in range(start + 1, len(atoms)):
            atoms[k] = atoms[k]._replace(tcy=True, group=-1)
        return None

    def style(self, tag: str, closing: bool, arg: str, palette, parse_color) -> None:
        """</...> closes the style opened last; <b>, <i> and <color ...> open one."""
        stack = self.stack
        if closing:
            if len(stack) == 1:
                raise MarkupError(_("</{tag}> closes nothing", tag=tag))
            stack.pop()
        elif tag == "b":
            stack.append(replace(stack[-1], bold=True))
        elif tag == "i":
            stack.append(replace(stack[-1], italic=True))
        else:
            try:
                color = parse_color(arg, palette)
            except ValueError as exc:
                raise MarkupError(_("<color {arg}>: {exc}", arg=arg, exc=exc)) from None
            stack.append(replace(stack[-1], color=color or stack[-1].color))

    def icon(self, arg: str, icons: Mapping[str, Icon], families, icon_aspect) -> None:
        self.drawn_by = self.plain = None
        icon = icons.get(arg)
        if icon is None and arg == "TBD":  # an icon not chosen yet: the text says so
            self.chars("TBD")
            return
        if icon is None:
            raise MarkupError(_("<icon {arg}>: unknown icon '{arg}' (icons: {value})",
                                arg=arg, value=', '.join(icons) or 'none declared'))
        current = self.stack[-1]
        if icon.image:
            self.atoms.append(Atom(OBJECT, current.family.regular, icon.color or current.color,
                                   icon.image, icon_aspect(icon.image),
                                   recolor=icon.color is not None))
            return
        glyph, font = icon.glyph_and_font()
        self.stack.append(Style(families[font], current.bold, icon.color or current.color))
        self.chars(glyph)
        self.stack.pop()


def _ruby_of(match) -> tuple[str, str] | None:
    """(base, reading) of a ruby the tag pattern matched, in any of its three forms."""
    for base, reading in (("rb", "rt"), ("bb", "bt"), ("kb", "kt")):
        if match.group(base) is not None:
            return match.group(base), match.group(reading)
    return None


def parse(text: str, style: Style, palette: Mapping[str, Color], icons: Mapping[str, Icon],
          families: Mapping[str, FontFamily], parse_color, icon_aspect) -> list[Atom]:
    """Text with markup -> atoms. Raises MarkupError or MissingGlyphs."""
    p = _Parse(style, families)
    pos = 0
    tcy_start = None
    for match in _tags().finditer(text) if _MARKED.search(text) else ():
        p.chars(_unbroken(text[pos:match.start()]))
        pos = match.end()
        ruby = _ruby_of(match)
        if ruby is not None:
            if "<" in ruby[0]:
                raise MarkupError(_("a ruby base cannot hold markup"))
            p.ruby(*ruby)
            continue
        closing, tag, arg = match.group(7), match.group(8), (match.group(9) or "").strip()
        if tag == "wbr":
            p.drawn_by = p.plain = None
            p.atoms.append(Atom("\u200b", p.stack[-1].family.regular, p.stack[-1].color))
        elif tag == "tcy":
            tcy_start = p.tcy(bool(closing), tcy_start)
        elif tag == "icon" and not closing:
            p.icon(arg, icons, families, icon_aspect)
        else:
            p.style(tag, bool(closing), arg, palette, parse_color)
    p.chars(_unbroken(text[pos:]))
    if len(p.stack) > 1:
        raise MarkupError(_("a <b>, <i> or <color> tag is not closed"))
    if tcy_start is not None:
        raise MarkupError(_("a <tcy> tag is not closed"))
    if p.missing:
        raise MissingGlyphs(p.missing, style.family.name)
    if p.drawn_by:
        p.atoms.style = p.drawn_by
    if p.plain is not None and len(p.plain) == len(p.atoms):
        p.atoms.plain = p.plain
    return p.atoms
