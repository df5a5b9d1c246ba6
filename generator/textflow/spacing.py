"""JLREQ spacing: each character's advance, the frames of punctuation and their compression,
the quarter em between Japanese and Latin letters, what line adjustment may reduce of them
and in what order (JLREQ 3.8.2), and the room a ruby longer than its base takes."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .. import fonts
from .markup import (_KANA, _PUNCT_RE, CLOSING, MIDDLE, OBJECT, OPENING, STOPS, VERTICAL_FORMS,
                     ZERO_WIDTH, Atom, _grouped)


_FONT_WIDTHS: dict[str, dict[str, float]] = {}  # font -> character -> advance at 1 pt


def _width(font: str, ch: str) -> float:
    """A character's advance at 1 pt (TrueType widths scale linearly, no kerning)."""
    table = _FONT_WIDTHS.setdefault(font, {})
    width = table.get(ch)
    if width is None:
        width = table[ch] = fonts.string_width(ch, font, 1.0)
    return width


class Spacing(NamedTuple):
    """What JLREQ spacing and ruby add to each atom's advance, in points."""

    before: list[float]  # before the glyph (negative: a blank of the glyph's own taken away)
    after: list[float]
    open_blank: list[float]  # an opening bracket's blank before it (dropped at a line's start)
    close_blank: list[float]  # a closing bracket's, stop's or Japanese-Latin space's blank
    # after it (dropped at a line's end)
    marks: list[int]  # the atoms spaced at all (before or after), in order
    # What a line too long may take away inside it, step by step in JLREQ's order (3.8.2,
    # REDUCTION): for each step, (before each glyph, after each glyph). The space after a
    # full stop is in none of them: it is never reduced inside a line.
    reducible: tuple[tuple[list[float], list[float]], ...] = ()
    # A ruby's overhang assumed over the kana before a base starting at each atom, and after
    # one ending at it: space a line starting (ending) there adds (spacing._ruby_room).
    lead: list[float] | None = None
    tail: list[float] | None = None


# JLREQ 3.8.2's order of reduction (追い込み), each step taken to its limit before the next:
# the quarter-em Japanese-Latin spaces down to an eighth, the quarter ems around middle dots
# down to nothing, then the half-em blanks of brackets and commas down to nothing, all of a
# step's blanks alike. Full stops (。．) keep their half em inside a line.
REDUCTION = ("japanese-latin", "middle dots", "brackets and commas")
AUTOSPACE = 0.25  # ems between a Japanese and a Latin letter or digit (JLREQ 3.2, Table 1)
AUTOSPACE_MIN = 0.125  # what line adjustment may reduce it to
FULL_STOPS = frozenset("。．")
_LATIN_LETTER = "A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # (not × ÷)
_KANA_KANJI = "\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe\u3400-\u9fff々\uf900-\ufaff"
# A Japanese letter beside a Latin one: the place of a Japanese-Latin space (the first of
# the two is where it is set, after its glyph).
_IDEOGRAPHIC_SPACE = re.compile("\u3000")  # 全角スペース (cl-14): an em, in any font
_AUTOSPACED = re.compile(f"[{_KANA_KANJI}](?=[{_LATIN_LETTER}])"
                         f"|[{_LATIN_LETTER}](?=[{_KANA_KANJI}])")


def _kind(ch: str) -> str:
    return ("open" if ch in OPENING else "close" if ch in CLOSING else
            "stop" if ch in STOPS else "middle" if ch in MIDDLE else "")


def _frames(kinds: dict[int, str], compress: bool = True) -> tuple[dict, dict]:
    """The blank before and after each punctuation mark, in ems: its one-em frame, with the
    blanks between neighbouring marks compressed (JLREQ 3.1.4) unless not `compress`."""
    eb = {i: (.5 if k == "open" else .25 if k == "middle" else 0.0) for i, k in kinds.items()}
    ea = {i: (0.0 if k == "open" else .25 if k == "middle" else .5) for i, k in kinds.items()}
    for i, ki in (kinds.items() if compress else ()):
        kj = kinds.get(i + 1)
        if not kj:
            continue
        if kj in ("close", "stop"):  # 」。 ）」 。」: nothing between them
            ea[i] = 0.0
        elif ki == "open":  # 「『: nothing between them
            eb[i + 1] = 0.0
        else:  # 」「 、「 」・: half an em between them at most
            ea[i], eb[i + 1] = min(.5, max(ea[i], eb[i + 1])), 0.0
    return eb, ea


RUBY_OVERHANG = 0.5  # ruby characters a reading may reach over a kana beside its base


def _overhangs(atoms: list[Atom], i: int, last: int, rsize: float) -> tuple[float, float]:
    """How far a reading over atoms[i..last] may reach over its neighbours (JLREQ 3.3.6):
    half a ruby character over a kana (not over a kanji, a mark or another base)."""
    def kana(k: int) -> bool:
        return 0 <= k < len(atoms) and atoms[k].text != "・" and not atoms[k].ruby and \
            atoms[k].group == 0 and bool(_KANA.match(atoms[k].text))
    return RUBY_OVERHANG * rsize * kana(i - 1), RUBY_OVERHANG * rsize * kana(last + 1)


def _ruby_room(atoms: list[Atom], widths: list[float], size: float, vertical: bool,
               before: list, after: list, kinds: dict, lead: list, tail: list) -> None:
    """Space out a ruby base for a reading longer than it and its overhang over the kana
    beside it, so that the reading stands centred on its base and reaches over no kanji:
    a one-character base (or a jukugo word) at its ends, a group base also between its
    characters (JLREQ's 1:2:1, half as much at the ends as between). `lead` and `tail` get
    the overhang assumed over the kana before and after a base, which a line that starts or
    ends at the base gives it back as space (no ruby reaches past a line's ends)."""
    for i, atom in enumerate(atoms):
        if atom.word > 0:  # a jukugo word: its readings share its length (JLREQ 3.3.8)
            last = i + atom.word - 1
            atom = atom._replace(ruby="".join(a.ruby for a in atoms[i:last + 1]))
        elif atom.word < 0:
            continue
        if atom.group > 0 and atom.ruby:
            last = i + max(atom.group, atom.word) - 1
            base = sum(widths[i:last + 1]) + sum(before[i:last + 1]) + sum(after[i:last + 1])
            rsize = size / 2
            ruby = len(atom.ruby) * rsize if vertical else \
                sum(_width(atom.font, ch) for ch in atom.ruby) * rsize
            excess = ruby - base
            if excess <= 0:
                continue
            left, right = _overhangs(atoms, i, last, rsize)
            group = last - i + 1 if atom.word <= 0 else 1
            if group > 1:  # spaced between its characters too: the overhang alike on both sides
                left = right = min(left, right)
            left, right = min(left, excess / 2), min(right, excess / 2)
            lead[i], tail[last] = left, right
            spread = excess - left - right  # the base's room: at its ends, and between
            end = spread / (2 * group)
            before[i] += end + (excess / 2 - left - spread / 2 if group == 1 else 0.0)
            after[last] += end + (excess / 2 - right - spread / 2 if group == 1 else 0.0)
            for k in range(i, last + 1):
                if k < last:
                    after[k] += spread / group
                kinds.setdefault(k, "")


def _punctuation(plain: str, kinds: dict[int, str], widths: list[float], size: float,
                 grid: bool, out: tuple[list[float], ...],
                 steps: tuple[tuple[list[float], list[float]], ...]) -> None:
    """Each punctuation mark's blanks before and after its glyph (less the blank its own
    advance holds), and what of them line adjustment may reduce, step by step (REDUCTION)."""
    before, after, open_blank, close_blank = out
    eb, ea = _frames(kinds, compress=not grid)
    for i, k in kinds.items():
        spare = max(0.0, widths[i] / size - .5)  # blank the glyph's own advance holds
        own_b, own_a = ((spare, 0.0) if k == "open" else (0.0, spare) if k != "middle"
                        else (spare / 2, spare / 2))
        before[i], after[i] = (eb[i] - own_b) * size, (ea[i] - own_a) * size
        if grid:
            continue
        if k == "open":
            open_blank[i] = steps[2][0][i] = eb[i] * size
        elif k == "middle":
            steps[1][0][i], steps[1][1][i] = eb[i] * size, ea[i] * size
        else:
            close_blank[i] = ea[i] * size
            if plain[i] not in FULL_STOPS:
                steps[2][1][i] = close_blank[i]


def _latin_spaces(plain: str, size: float, tcy: dict[int, int] | None, kinds: dict[int, str],
                  after: list[float], close_blank: list[float],
                  steps: tuple[tuple[list[float], list[float]], ...]) -> None:
    """The quarter em between a Japanese and a Latin letter or digit, reducible to an eighth
    (REDUCTION's first step); none beside a run set across (`tcy`, JLREQ 3.2.5)."""
    across = {k for start, length in (tcy or {}).items() for k in range(start, start + length)}
    for m in _AUTOSPACED.finditer(plain):
        i = m.start()
        if i in across or i + 1 in across:
            continue
        after[i] += AUTOSPACE * size
        close_blank[i] += AUTOSPACE * size
        steps[0][1][i] = (AUTOSPACE - AUTOSPACE_MIN) * size
        kinds.setdefault(i, "")


def _spacing(atoms: list[Atom], widths: list[float], size: float, vertical: bool,
             plain: str, grid: bool = False, tcy: dict[int, int] | None = None) -> Spacing:
    """JLREQ's punctuation frames and their compression (3.1.4, in a line), the quarter em
    between a Japanese and a Latin letter or digit (in vertical text beside a Latin run
    turned sideways, not one set across, `tcy`: JLREQ 3.2.5 sets that solid), what line adjustment
    may reduce of them (Spacing.reducible), and the room a ruby longer than its base needs
    beyond its overhang over neighbouring kana. On a character grid (`grid`, ベタ組み) every
    full-width character takes exactly one em, its glyph centred in it, and the frames are
    neither compressed nor halved at a line's ends; half-width characters keep their own
    widths."""
    n = len(atoms)
    before, after = [0.0] * n, [0.0] * n
    open_blank, close_blank = [0.0] * n, [0.0] * n
    if vertical:
        plain = "".join(VERTICAL_FORMS.get(ch, ch) for ch in plain)
    kinds = {m.start(): _kind(m.group()) for m in _PUNCT_RE.finditer(plain)}
    steps = tuple(([0.0] * n, [0.0] * n) for _ in REDUCTION) if not grid else ()
    _punctuation(plain, kinds, widths, size, grid, (before, after, open_blank, close_blank), steps)
    if grid and not vertical:
        for i, ch in enumerate(plain):
            if i not in kinds and ch not in ZERO_WIDTH and ch != OBJECT and \
                    unicodedata.east_asian_width(ch) in "WF":
                before[i] = after[i] = (size - widths[i]) / 2
    elif not grid:
        for m in _IDEOGRAPHIC_SPACE.finditer(plain) if not vertical else ():  # one em, in
            i = m.start()  # any font (down a column it is one already)
            after[i] += size - widths[i]
            kinds.setdefault(i, "")
        _latin_spaces(plain, size, tcy, kinds, after, close_blank, steps)
    lead = tail = None
    if _grouped(atoms):
        lead, tail = [0.0] * n, [0.0] * n
        _ruby_room(atoms, widths, size, vertical, before, after, kinds, lead, tail)
    # (every mark, spaced or not: a squeeze may move the glyph of one its own blank holds)
    marks = sorted(k for k in range(n) if before[k] or after[k]) if grid else sorted(kinds)
    return Spacing(before, after, open_blank, close_blank, marks, steps, lead, tail)
