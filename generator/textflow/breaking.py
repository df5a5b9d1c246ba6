"""Breaking text into lines: widths, break opportunities (UAX #14 with strict Japanese
kinsoku, phrases, names), hyphenation, the greedy line filler and line adjustment (the
spacing it adjusts is spacing.py's)."""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate, compress, count
from operator import add
from typing import Iterable, NamedTuple

from . import vertical as column
from .numbers import numbers_glued
from .markup import (_FONT, HANGING, NAME_BREAK_AFTER, OBJECT, OPENING, PUNCT, ROTATED,
                     VERTICAL_FORMS, ZERO_WIDTH, Atom, Atoms, _grouped, one_style, plain_of,
                     vertical_quotes)
from .spacing import _AUTOSPACED, _FONT_WIDTHS, Spacing, _spacing, _width
from .opportunities import _ANY_JAPANESE, _unit_bounds



# --- measuring -------------------------------------------------------------------------------

def _advance(atom: Atom, size: float, vertical: bool) -> float:
    if atom.text in ZERO_WIDTH:
        return 0.0
    if atom.text == OBJECT:
        return size if vertical else size * atom.aspect
    if vertical:
        down = column.advance(atom.font, atom.text, size)
        if down is not None:  # in its vertical form
            return down
        if atom.text in column.SPACES:  # a word space: the font's, not an em (U+3000 is one)
            return _width(atom.font, " ") * size
        if atom.text not in ROTATED and not column.is_latin(atom.text):
            return size
    return _width(atom.font, atom.text) * size


def _is_latin(ch: str) -> bool:
    return ord(ch) < 0x2000 and not ch.isspace()


def _widths(atoms: list[Atom], size: float, vertical: bool, plain: str) -> list[float]:
    """Each atom's advance at `size` (what _advance gives), for a whole text at once."""
    if vertical:
        return [_advance(a, size, True) for a in atoms]
    if atoms and (getattr(atoms, "style", None) is not None or len(set(map(_FONT, atoms))) == 1):
        table = _FONT_WIDTHS.get(atoms[0].font)  # one font, every width known: at once
        if table is not None:
            try:
                return [w * size for w in map(table.__getitem__, plain)]
            except KeyError:  # a character not measured yet, or one without a fixed width
                pass
    widths: list[float] = []
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




class Laid(NamedTuple):
    """A text measured for breaking: each atom's advance with its spacing."""

    widths: list[float]
    spacing: Spacing | None
    tcy: dict[int, int]


def _laid(atoms: list[Atom], size: float, vertical: bool, tcy: int = 2,
          plain: str | None = None, grid: bool = False) -> Laid:
    plain = plain_of(atoms) if plain is None else plain
    widths = _widths(atoms, size, vertical, plain)
    runs = column.tcy_runs(atoms, tcy) if vertical else {}
    for start, length in runs.items():
        widths[start] = size
        for k in range(start + 1, start + length):
            widths[k] = 0.0
    if not grid and PUNCT.isdisjoint(plain) and \
            not (vertical and not set(VERTICAL_FORMS).isdisjoint(plain)) and \
            not _grouped(atoms) and _AUTOSPACED.search(plain) is None and \
            (vertical or "\u3000" not in plain):
        return Laid(widths, None, runs)
    sp = _spacing(atoms, widths, size, vertical, plain, grid, runs)
    return Laid([w + b + a for w, b, a in zip(widths, sp.before, sp.after)], sp, runs)


def _glued(atoms: list[Atom], plain: str, runs: dict[int, int], names: bool) -> set[int]:
    """Atoms a line may not start at: inside a ruby base or a tate-chu-yoko run, between a
    number and what it stays with (numbers.numbers_glued), and, for names, everywhere but after a
    middle dot, a double hyphen, a space or a <wbr>, or before an opening bracket."""
    glued = numbers_glued(plain)
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
    text: str | None = None  # its atoms' characters (plain_of), where the breaker had them
    one: bool = False  # one font in one colour draws every atom (markup.one_style), known


def content_widths(atoms: list[Atom], size: float, phrase: bool = True,
                   words: bool = False, vertical: bool = False) -> tuple[float, float]:
    """(min, max) content width of a text, as a browser's automatic table layout asks:
    the widest piece no line may break inside (a word; a Japanese phrase with `phrase`),
    and the widest paragraph set on one line. With `words`, the pieces are words: a
    Japanese phrase (BudouX) is one, as a Latin word is (名にし負はば, not 名にし負は／ば).
    With `vertical`, lengths down a column (a kana one em, not its proportional width)."""
    plain = plain_of(atoms)
    widths = _laid(atoms, size, vertical, 2 if vertical else 0, plain).widths
    cum = [0.0, *accumulate(widths)]
    low = high = 0.0
    start = 0
    for paragraph in plain.split("\n"):
        end = start + len(paragraph)
        trim = end
        while trim > start and plain[trim - 1].isspace():
            trim -= 1
        high = max(high, cum[trim] - cum[start])
        for whole in _unit_bounds(paragraph, start, phrase or words):
            latin = words and not _ANY_JAPANESE.search(plain, whole[0][0], whole[-1][1])
            for group in ([[u] for u in whole] if latin else [whole]):
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
                hang: bool = False, tcy: int = 2, split: bool = True,
                grid: bool = False) -> list[Line] | None:
    """Lines (atoms, ends-a-paragraph, advances, glyph offsets). None if one atom alone is
    longer than a line (or, for `names`, a name's part between its break points).
    With `phrase`, lines break only between phrases (BudouX) unless a phrase is longer
    than a line. With `hyphenate` (a language, "en_US"), an English word that would start
    the next line is hyphenated where the dictionary allows and the part fits, at most
    MAX_HYPHENS_IN_A_ROW lines running. With `names`, lines break only after ・, ＝, a
    space or a <wbr>, or before an opening bracket. With `hang`, a line may end in 、 or 。
    hanging past its end rather than push them on. `tcy`: the longest run of digits set
    across in vertical text. Without `split`, a word longer than a line is not split (None),
    so that a text that may shrink shrinks first. With `grid`, full-width characters are
    set on a character grid, one em each (_spacing)."""
    plain = None
    if vertical:
        atoms = vertical_quotes(atoms)
    elif not _grouped(atoms):
        plain = getattr(atoms, "plain", None)
        if plain is None:
            plain = plain_of(atoms)
        if "\n" in plain:
            return _by_paragraph(atoms, plain, (size, available, phrase, hyphenate, names, hang,
                                                tcy, split, grid))
    return _broken(atoms, size, available, vertical, phrase, hyphenate, names, hang, tcy, split,
                   grid, plain)


def _broken(atoms, size, available, vertical, phrase, hyphenate, names, hang, tcy, split,
            grid, plain: str | None = None) -> list[Line] | None:
    breaker = _Breaker(atoms, size, available, vertical, phrase, hyphenate, names, hang, tcy,
                       grid, plain)
    breaker.names = names or not split  # a name's parts, as a word, are never split
    ranges = breaker.ranges()
    if ranges is None:
        return None
    return [breaker.line(a, b, last) for a, b, last in ranges]


# A horizontal text's paragraphs are broken one by one: nothing in breaking reaches across a
# line end (punctuation frames, number glue, Japanese words, phrases and hyphens all stop at
# it), so a paragraph's lines are the same alone as in its text. Cards share paragraphs (an
# effect's wording) inside texts that differ, so a paragraph of one font and colour seen a
# second time with the same settings is kept, and its lines (immutable) are reused.
_PARAGRAPHS: dict[tuple, list[Line] | None] = {}
_SEEN: set[tuple] = set()
PARAGRAPHS_SEEN = 20000  # both are cleared when this many are seen: their text is data's
KEPT: set[int] = set()  # id() of each line of a kept paragraph (placing.place_horizontal)


def _by_paragraph(atoms: list[Atom], plain: str, settings: tuple) -> list[Line] | None:
    lines: list[Line] = []
    start = 0
    style = getattr(atoms, "style", None)  # (a text's style is each of its paragraphs')
    while True:
        end = plain.find("\n", start)
        end = len(plain) if end < 0 else end
        part = _paragraph(atoms, start, end, plain[start:end], style, settings)
        if part is None:
            return None
        lines += part
        if end == len(plain):
            return lines
        start = end + 1


def _paragraph(text: list[Atom], start: int, end: int, plain: str, style: tuple | None,
               settings: tuple) -> list[Line] | None:
    """The lines of the paragraph text[start:end] (its characters `plain`); `style`: the
    text's one (font, colour), where parse knew it (a kept paragraph's atoms are not copied)."""
    atoms = None
    plain_atoms = start < end and OBJECT not in plain
    if style is None and plain_atoms:  # not known: asked of its atoms
        atoms = Atoms(text[start:end])
        style = (atoms[0].font, atoms[0].color) if one_style(atoms) else None
    key = (plain, *style, settings) if style is not None and plain_atoms else None
    if key is not None and key in _PARAGRAPHS:
        return _PARAGRAPHS[key]
    if atoms is None:
        atoms = Atoms(text[start:end])
    atoms.style = style
    size, available, phrase, hyphenate, names, hang, tcy, split, grid = settings
    lines = _broken(atoms, size, available, False, phrase, hyphenate, names, hang, tcy, split,
                    grid, plain)
    if key is not None:
        if key in _SEEN:
            _PARAGRAPHS[key] = lines
            KEPT.update(map(id, lines or ()))
        elif len(_SEEN) >= PARAGRAPHS_SEEN:
            _SEEN.clear()
            _PARAGRAPHS.clear()
            KEPT.clear()
        else:
            _SEEN.add(key)
    return lines


def _ending(plain: str, tail, cum: list[float], widths: list[float], hang: bool):
    """The advance of a unit [us, ue) as the end of a line: without trailing spaces, the
    blank after a closing bracket or stop, and (with `hang`) a stop that may hang. (A
    closure over the text's tables: it runs for every unit of every line.)"""
    def ending(us: int, ue: int) -> float:
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
    return ending


class _Sums:
    """The running sum of some lists' values at each index (a blank of any step), kept where
    it changes: most atoms have no blank to squeeze. before(i) is exactly the sum of the
    values before index i, added index by index (each index's values first, in order)."""

    __slots__ = ("at", "sums")

    def __init__(self, lists: list[list[float]]) -> None:
        lists = [values for values in lists if any(values)]  # (adding 0 changes no sum)
        added: Iterable[float] = lists[0] if lists else ()
        for values in lists[1:]:  # each index's values added in order
            added = map(add, added, values)
        each = list(added)
        self.at = list(compress(count(), each))  # (where that is 0, the sum does not change)
        self.sums = [0.0, *accumulate(compress(each, each))]

    def before(self, i: int) -> float:
        return self.sums[bisect_left(self.at, i)]


class _Breaker:
    """One text's line breaking: where its lines are (`ranges`), then each as a Line."""

    __slots__ = ("atoms", "size", "vertical", "phrase", "hyphenate", "names", "hang", "plain",
                 "laid", "widths", "sp", "grouped", "glued", "tail", "cum", "limit",
                 "hyphenated", "ending", "opens", "closes", "lead", "name_glue", "one")

    def __init__(self, atoms: list[Atom], size: float, available: float, vertical: bool,
                 phrase: bool, hyphenate: str | None, names: bool, hang: bool, tcy: int,
                 grid: bool = False, plain: str | None = None) -> None:
        self.atoms, self.size, self.vertical, self.phrase = atoms, size, vertical, phrase
        self.hyphenate, self.names, self.hang = hyphenate, names, hang
        # one character per atom: indices agree
        self.plain = plain = plain_of(atoms) if plain is None else plain
        self.one = getattr(atoms, "style", None) is not None  # (each line's: Line.one)
        self.laid = laid = _laid(atoms, size, vertical, tcy, plain, grid)
        self.widths, self.sp = laid.widths, laid.spacing
        self.grouped = _grouped(atoms)
        self.glued: set[int] | None = None  # (made by glue() when a paragraph is broken)
        self.name_glue = names  # (`names` may be set later for splitting, not for glue)
        self.tail = self.sp.close_blank if self.sp else None
        self.lead = self.sp.lead if self.sp else None  # a ruby's overhang, given back as space
        if self.sp is not None and self.sp.tail is not None:  # at a line's start or end
            self.tail = [c - t for c, t in zip(self.sp.close_blank, self.sp.tail)]
        self.cum = [0.0, *accumulate(self.widths)]  # cum[i]: the advance of atoms[:i]
        self.limit = available + 1e-6
        self.hyphenated: set[int] = set()  # the ends of lines that end in a hyphen
        self.ending = _ending(plain, self.tail, self.cum, self.widths, hang)
        # The blanks a line may squeeze (追い込み, JLREQ 3.8.2, Spacing.reducible): what a
        # line too long by less than they hold keeps, rather than push a character on.
        # (their running sums, room(), made when a line first asks: most texts fit their lines)
        self.opens: _Sums | None = None
        self.closes: _Sums | None = None

    def glue(self) -> set[int]:
        """Where no line may start (_glued): asked only where a paragraph must break."""
        if self.glued is None:
            self.glued = _glued(self.atoms, self.plain, self.laid.tcy, self.name_glue)
        return self.glued

    def room(self, a: int, end: int) -> float:
        """What a line [a, end) may squeeze: the reducible blanks before its glyphs but the
        first (an opening bracket's is dropped at a line's start) and after them but the
        last (dropped at its end), its trailing spaces left out. Never negative: asked only
        of a line too long without it."""
        if self.sp is None or not self.sp.reducible:
            return 0.0
        plain = self.plain
        while end > a and plain[end - 1] == " ":
            end -= 1
        if end - a < 2:
            return 0.0
        if self.opens is None or self.closes is None:
            steps = self.sp.reducible
            self.opens = _Sums([b for b, _ in steps])
            self.closes = _Sums([a for _, a in steps])
        return self.opens.before(end) - self.opens.before(a + 1) + self.closes.before(end - 1) \
            - self.closes.before(a)

    def ranges(self) -> list[tuple[int, int, bool]] | None:
        """The lines as atom index ranges (start, end, ends a paragraph); None if a piece
        cannot be set on any line."""
        plain = self.plain
        ranges: list[tuple[int, int, bool]] = []
        start = 0
        while True:
            end = plain.find("\n", start)
            end = len(plain) if end < 0 else end
            lead = self.lead[start] if self.lead and start < end else 0.0
            need = self.ending(start, end) + lead
            if need <= self.limit or need <= self.limit + self.room(start, end):
                ranges.append((start, end, True))  # it fits: no break opportunity is needed
            elif not self._fill(start, end, ranges):
                return None
            if end == len(plain):
                return ranges
            start = end + 1

    def _fill(self, start: int, end: int, ranges: list) -> bool:
        """The lines of a paragraph longer than one, filled greedily unit by unit."""
        cum, limit, ending, leads = self.cum, self.limit, self.ending, self.lead
        line = start  # the current line starts at `line`; its width is cum[us] - cum[line]
        # A unit's end advance (ending) is never more than its whole advance (cum[ue] -
        # cum[us]: it only takes away trailing spaces, a closing blank, a hanging stop), so a
        # unit whose whole advance fits the line from its start cannot break it: passed
        # over without measuring its end (most units of a paragraph; the result the same).
        for group in _merge(_unit_bounds(self.plain[start:end], start, self.phrase), self.glue()):
            units = group
            if len(group) > 1 and (cum[group[-1][1]] - cum[group[0][0]] <= limit or
                                   ending(group[0][0], group[-1][1]) <= limit):
                units = [(group[0][0], group[-1][1])]  # a phrase that fits stays whole
                # (else a phrase longer than a line: break inside it, as ICU allows)
            for us, ue in units:
                lead = leads[line] if leads else 0.0
                if cum[ue] - cum[line] + lead <= limit:
                    continue  # (it fits: width, and trim_w, at most this)
                trim_w = ending(us, ue)
                width = cum[us] - cum[line] + trim_w + lead
                if us > line and width > limit and width > limit + self.room(line, ue):
                    cut = self._hyphen(us, ue, line, ranges)
                    if cut is not None:  # the word's head ends this line, with a hyphen
                        ranges.append((line, cut, False))
                        self.hyphenated.add(cut)
                        line = us = cut
                        trim_w = ending(us, ue)
                    else:
                        ranges.append((line, us, False))
                        line = us
                if us == line and trim_w > limit:
                    split = self._split(us, ue, line, ranges)
                    if split is None:
                        return False
                    line = split
        ranges.append((line, end, True))
        return True

    def _hyphen(self, us: int, ue: int, line: int, ranges: list) -> int | None:
        if not self.hyphenate or self.vertical:
            return None
        return _hyphen_cut(self.plain, self.atoms, self.cum, us, ue, line, self.limit,
                           self.size, self.hyphenate, ranges, self.hyphenated)

    def _split(self, us: int, ue: int, line: int, ranges: list) -> int | None:
        """A piece longer than the line (a long word), split where it must, never inside a
        ruby base or a tate-chu-yoko run, nor inside a name: the line it ends on, or None."""
        if self.names:
            return None
        widths, cum, limit, glued = self.widths, self.cum, self.limit, self.glue()
        for i in range(us, ue):
            if widths[i] > limit:
                return None
            if i > line and i not in glued and cum[i + 1] - cum[line] > limit:
                ranges.append((line, i, False))
                line = i
        return line

    def _cuts(self, a: int, b: int, offsets, afters) -> tuple[int, ...]:
        """Where runs start anew in the line [a, b): at each spaced glyph, and after one."""
        sp = self.sp
        if sp is None:
            return (0,)
        spaced = sp.marks[bisect_left(sp.marks, a):bisect_left(sp.marks, b)]
        return tuple(sorted({0, *(k - a for k in spaced if offsets[k - a]),
                             *(k - a + 1 for k in spaced if afters[k - a] and k + 1 < b)}))

    def line(self, a: int, b: int, last: bool) -> Line:
        atoms, widths, sp, plain = self.atoms, self.widths, self.sp, self.plain
        if b in self.hyphenated and not last:
            dash = atoms[b - 1]._replace(text=HYPHEN, ruby="", group=0)
            offsets = sp.before[a:b] + [0.0] if sp else None
            afters = sp.after[a:b] + [0.0] if sp else None
            return Line(atoms[a:b] + [dash], last,
                        widths[a:b] + [_width(dash.font, HYPHEN) * self.size], offsets, 0.0,
                        None, afters, False, self._cuts(a, b, offsets, afters),
                        plain[a:b] + HYPHEN, self.one)
        while b > a and plain[b - 1].isspace():
            b -= 1
        line_widths = widths[a:b]
        offsets = sp.before[a:b] if sp else None
        afters = sp.after[a:b] if sp else None
        hung = 0.0
        if sp and offsets is not None and afters is not None and b > a:  # (sp: both are)
            if sp.open_blank[a]:  # an opening bracket starts the line: half-width
                line_widths[0] -= sp.open_blank[a]
                offsets[0] -= sp.open_blank[a]
            if sp.close_blank[b - 1]:  # a closing bracket or stop ends it: half-width too
                line_widths[-1] -= sp.close_blank[b - 1]
                afters[-1] -= sp.close_blank[b - 1]
            if sp.lead and sp.tail:  # a ruby at an end reaches over no kana: room instead
                line_widths[0] += sp.lead[a]
                offsets[0] += sp.lead[a]
                line_widths[-1] += sp.tail[b - 1]
                afters[-1] += sp.tail[b - 1]
            if self.hang and plain[b - 1] in HANGING and sum(line_widths) > self.limit:
                hung = line_widths[-1]
        if sp is not None and sp.reducible and sum(line_widths) - hung > self.limit:
            self._squeeze(a, b, line_widths, offsets, afters, sum(line_widths) - hung)
        tcy = self.laid.tcy
        runs = {k - a: n for k, n in tcy.items() if a <= k < b} if tcy else None
        ruby = self.grouped and any(atom.ruby for atom in atoms[a:b])
        return Line(atoms[a:b], last, line_widths, offsets, hung, runs, afters, ruby,
                    self._cuts(a, b, offsets, afters), plain[a:b], self.one)

    def _squeeze(self, a: int, b: int, widths, offsets, afters, natural: float) -> None:
        """A line kept by squeezing (room()): the shortfall taken in JLREQ's order
        (REDUCTION), each step's blanks all alike and to their limit before the next step's;
        a blank before a glyph from before it, one after a glyph from after it."""
        sp = self.sp
        need = natural - self.limit + 1e-6
        if sp is None or need <= 0:
            return
        for befores, afts in sp.reducible:
            held = sum(befores[a + 1:b]) + sum(afts[a:b - 1])
            if held <= 0:
                continue
            share = min(1.0, need / held)
            for k in range(a, b):
                before = befores[k] * share if k > a else 0.0
                after = afts[k] * share if k < b - 1 else 0.0
                if before or after:
                    widths[k - a] -= before + after
                    offsets[k - a] -= before
                    afters[k - a] -= after
            need -= held * share
            if need <= 1e-9:
                return


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
