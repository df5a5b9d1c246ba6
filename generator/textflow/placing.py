"""Placing lines in a box: horizontal and vertical writing, justification, ruby (fitting.py
sets a text to fit a box, and places its lines here)."""

from __future__ import annotations

import re
from sys import intern
from itertools import accumulate
from dataclasses import dataclass


from .. import fonts
from .. import images
from ..primitives import Item, Text
from . import vertical as column
from .breaking import KEPT, _is_latin
from .opportunities import _ANY_JAPANESE
from .spacing import _AUTOSPACED, _width
from .markup import (_FONT_COLOR, CLOSING, CORNER_PUNCT, OBJECT, OPENING, ROTATED, SMALL_KANA,
                     STOPS, VERTICAL_FORMS, ZERO_WIDTH, Atom, plain_of)


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


def first_baseline(font: str, size: float, leading: float) -> float:
    """How far below the top of its box place_horizontal sets the first line's baseline:
    the line's em box centred in its leading, the baseline its ascent below the em's top
    (what a mark set beside the first line, a list's bullet, lines up with)."""
    return (leading - size) / 2 + _em(font, size)[0]


def spread(base: float, reading: float, count: int) -> float:
    """The space between the characters of a group ruby shorter than its base, spread
    across it as JLREQ sets it (3.3.7, the 1:2:1 distribution): as much between each two
    characters, half as much before the first and after the last. 0 for a reading as long
    as its base, or of one character (centred)."""
    return max(0.0, base - reading) / count if count > 1 else 0.0


def _ruby_items(atoms, starts, ends, baseline_of, size, scale, box) -> list[Item]:
    """Horizontal ruby: each reading at half the size over its base's glyphs (kept inside
    the box), its em box standing on the base's: centred, or spread across a longer base
    (spread())."""
    items: list[Item] = []
    shared: set[int] = set()  # the atoms of jukugo words whole on the line
    for i, atom in enumerate(atoms):
        if atom.word > 0 and all(k in starts and k in ends for k in range(i, i + atom.word)):
            items += _jukugo(atoms[i:i + atom.word], [starts[k] for k in range(i, i + atom.word)],
                             [ends[k] for k in range(i, i + atom.word)], baseline_of, size,
                             scale, box)
            shared.update(range(i, i + atom.word))
        # (a jukugo word the line end splits: each part's readings over it, as mono ruby)
        if i in shared or not atom.ruby or atom.group <= 0 or i + atom.group - 1 not in ends:
            continue
        rsize = size / 2
        width = fonts.string_width(atom.ruby, atom.font, rsize) * scale
        base = ends[i + atom.group - 1] - starts[i]
        gap = spread(base, width, len(atom.ruby)) if atom.group > 1 else 0.0
        middle = (starts[i] + ends[i + atom.group - 1]) / 2
        width += gap * len(atom.ruby)
        x = min(max(middle - width / 2, box.x), box.x + box.w - width)
        items.append(Text(x + gap / 2, baseline_of(atom.font, rsize), atom.ruby, atom.font,
                          rsize, atom.color, char_space=gap / scale, scale=scale))
    return items


def _jukugo(word, starts, ends, baseline_of, size, scale, box) -> list[Item]:
    """A jukugo word's readings (熟語ルビ, JLREQ 3.3.8) over a horizontal line."""
    rsize = size / 2
    widths = [fonts.string_width(a.ruby, a.font, rsize) * scale for a in word]
    xs = shared_readings(widths, starts, ends, box.x, box.x + box.w)
    return [Text(x, baseline_of(a.font, rsize), a.ruby, a.font, rsize, a.color, scale=scale)
            for x, a in zip(xs, word)]


def shared_readings(lengths, starts, ends, low, high) -> list[float]:
    """Where each reading of a jukugo word starts, along its line (the coordinate growing
    the way the line reads): each centred on its character as far as it can be, a longer
    one taking room over its neighbours' in the word where theirs are shorter, never two
    overlapping, all within the word (its base spaced out before, if the readings are
    longer than it) and within low..high (the box)."""
    lo, hi = starts[0], ends[-1]
    if sum(lengths) > hi - lo:  # (a line end kept the base from spacing out: centre them all)
        lo = hi = (lo + hi) / 2
        lo, hi = lo - sum(lengths) / 2, hi + sum(lengths) / 2
    xs, at = [], lo
    for w, s, e in zip(lengths, starts, ends):  # in reading order: centred, else after the last
        x = max((s + e) / 2 - w / 2, at)
        xs.append(x)
        at = x + w
    over = at - hi
    for k in range(len(xs) - 1, -1, -1):  # from the end: pulled back inside the word
        if over <= 0:
            break
        room = xs[k] - (xs[k - 1] + lengths[k - 1] if k else lo)
        pull = min(over, room)
        xs[k:] = [x - pull for x in xs[k:]]
        over -= pull
    return [min(max(x, low), high - w) for x, w in zip(xs, lengths)]


WORD_SPACE_FIRST = 0.25  # ems a word space of a mixed line may grow by before characters
AUTOSPACE_GROWTH = 0.25  # ems a Japanese-Latin space may grow by (a quarter em to a half)
LATIN_SPACE_MOST = 0.5  # ems a word space of a line of Japanese text grows by, at most


def _justified(atoms, text: str, last: bool, natural: float, box: Box, align: str,
               size: float = 0.0, autospace: bool = False, japanese: bool = False,
               across: frozenset[int] = frozenset()):
    """(the space added between characters, the width each word space gets besides its own
    or None, the gaps between characters that take no space, what each Japanese-Latin space
    grows by: {atom: points}) for a line. Justified lines fill the box in JLREQ's order
    (3.8.3): a line that is mostly Latin text between its words only (English), unless it
    is part of a `japanese` text (_mostly_japanese) and its word spaces would grow by more than
    LATIN_SPACE_MOST em each ("version 1.05" in a Japanese paragraph: then as a Japanese
    line); a Japanese line first at its word spaces (a Latin phrase in it), by up to
    WORD_SPACE_FIRST em each, then at its Japanese-Latin spaces (`autospace`; none beside
    the characters of a run set `across` down a column, which is set solid), by up to
    AUTOSPACE_GROWTH em, then between its characters evenly, but never
    inside a Latin word, before a closing bracket or a stop, nor after an opening bracket
    (no space inside brackets' frames). A line of Japanese text with nowhere else to grow
    widens its word spaces to LATIN_SPACE_MOST em, then its letters, rather than open one
    hole of several ems."""
    if align != "justify" or last or len(atoms) <= 1:
        return 0.0, None, (), {}
    gaps = text.count(" ")
    room = max(0.0, box.w - natural)
    simple = OBJECT not in text and ZERO_WIDTH.isdisjoint(text)
    if gaps and simple and _as_english(text, room / gaps, size, japanese):
        return 0.0, room / gaps, (), {}
    latin = {m.start() for m in _AUTOSPACED.finditer(text)
             if m.start() not in across and m.start() + 1 not in across} if autospace else set()
    fixed = _fixed_gaps(text, latin)
    spaces = gaps if simple else 0
    stretched = len(atoms) - 1 - len(fixed) - spaces  # a space's gap after it: its own
    word_gap = None
    if spaces:
        word_gap = min(room / spaces, WORD_SPACE_FIRST * size)
        room -= word_gap * spaces
    grow: dict[int, float] = {}
    if latin and room > 0:
        each = min(room / len(latin), AUTOSPACE_GROWTH * size)
        grow = dict.fromkeys(latin, each)
        room -= each * len(latin)
    if stretched:
        return room / stretched, word_gap, fixed, grow
    if spaces and room > 1e-9:  # nowhere else to grow: the word spaces, as far as they may
        more = room / spaces if not japanese else \
            min(room / spaces, LATIN_SPACE_MOST * size - (word_gap or 0.0))
        word_gap = (word_gap or 0.0) + more
        room -= more * spaces
    if room > 1e-9 and japanese:  # and then between the letters, as a last resort
        fixed = tuple(k for k in range(len(text) - 1) if text[k + 1] == " ")
        letters = len(atoms) - 1 - len(fixed) - spaces
        if letters > 0:
            return room / letters, word_gap, fixed, grow
    return 0.0, word_gap, (), grow


def _text(line) -> str:
    """A line's characters (the breaker's, else its atoms')."""
    return line.text if line.text is not None else plain_of(line.atoms)


def _mostly_japanese(lines) -> bool:
    """Whether a text (its lines) is Japanese: as many kana and kanji as Latin letters."""
    text = "".join(_text(line) for line in lines)
    if not _ANY_JAPANESE.search(text):
        return False
    return len(_ANY_JAPANESE.findall(text)) >= len(_LATIN_RUN.findall(text))


_LATIN_RUN = re.compile("[A-Za-z0-9]")


def _as_english(text: str, word_gap: float, size: float, japanese: bool) -> bool:
    """Whether a justified line is set as English (between its words only): it is mostly
    Latin, and is no part of a Japanese text or needs its word spaces to grow by
    LATIN_SPACE_MOST em at most."""
    letters = [ch for ch in text if ch != " "]
    return sum(map(_is_latin, letters)) * 2 >= len(letters) and \
        (word_gap <= LATIN_SPACE_MOST * size or not japanese)


def _fixed_gaps(text: str, latin: set[int]) -> tuple[int, ...]:
    """The gaps (after each index) a justified Japanese line adds no space to: before a
    closing bracket, a stop or a space, after an opening bracket, inside a Latin word, and
    at a Japanese-Latin space (`latin`, which grows on its own)."""
    return tuple(k for k in range(len(text) - 1)
                 if text[k + 1] in CLOSING or text[k + 1] in STOPS or text[k] in OPENING
                 or text[k + 1] == " " or _is_latin(text[k]) and _is_latin(text[k + 1])
                 or k in latin)


def _one_font(line, text, widths, offsets, x, baseline, size, space, scale) -> list[Item]:
    """A line of one font and colour, nothing to skip: one run (the usual case), or, with
    JLREQ spacing, one run from each spaced glyph to the next."""
    atoms = line.atoms
    font, color = atoms[0].font, atoms[0].color
    char_space = space / scale if space else 0.0  # (one 0.0 for every run: most are unspaced)
    if offsets is None:
        return [Text(x, baseline, text, font, size, color, char_space=char_space, scale=scale)]
    cuts = line.cuts
    starts = [0.0, *accumulate(widths)]
    # The pieces of a line cut at its punctuation recur from card to card (手札から, 枚引く。):
    # interned, the faces that hold them share one string each.
    return [Text(x + starts[s_] + s_ * space + offsets[s_], baseline, intern(text[s_:e_]),
                 font, size, color, char_space=char_space, scale=scale)
            for s_, e_ in zip(cuts, cuts[1:] + (len(atoms),))]


def _runs(line, widths, offsets, x, baseline, descent, size, space, word_gap, scale, items,
          starts: dict, ends: dict) -> None:
    """A line of several fonts or colours, inline images or word spaces: a run of text for
    each stretch of one font and colour set at its place; `starts` and `ends` get each
    glyph's extent, for its ruby."""
    run: list[Atom] = []
    run_x = expected = x
    char_space = space / scale if space else 0.0
    for k, (atom, w) in enumerate(zip(line.atoms, widths)):
        if atom.text in ZERO_WIDTH:
            continue
        glyph_x = x + (offsets[k] if offsets else 0.0)
        gap = word_gap is not None and atom.text == " "
        if gap or atom.text == OBJECT or abs(glyph_x - expected) > 1e-6 or \
                (run and (atom.font, atom.color) != (run[0].font, run[0].color)):
            if run:
                items.append(Text(run_x, baseline, plain_of(run), run[0].font,
                                  size, run[0].color, char_space=char_space, scale=scale))
            run = []
        if gap:
            x += w + word_gap
            continue
        if atom.text == OBJECT:
            items += _inline(atom, x, baseline + descent, w, size)
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
                          run[0].color, char_space=char_space, scale=scale))


def _inline(atom, x: float, y: float, w: float, h: float) -> list[Item]:
    """An inline icon's picture in its box: a monochrome SVG in the text's colour (or its
    icon's), a picture of many colours in its own unless its icon declares one."""
    recolor = atom.recolor or images.monochrome(atom.image)
    return images.placed(atom.image, x, y, w, h, "stretch", None,
                         atom.color if recolor else None)


# A kept paragraph's lines (breaking.KEPT: their ids, a hint) are the same objects in every
# text that has it; set at the same place in the same box, a line's runs are the same: each
# is placed once, the faces sharing its (immutable) runs. The value holds the line, so that
# its id is not reused while the key stands.
_PLACED: dict[tuple, tuple] = {}
PLACED_KEPT = 5000  # lines placed and kept at most (then it starts again)
# Any other line of one font and colour without ruby is keyed by all its runs are made of:
# its characters, font and colour, advances, glyph offsets, cuts, hang and place. Texts that
# differ share lines (a distinct card text's first line is often another card's), and such a
# line's characters seen a second time at its place (_RUNS_SEEN: hashes, a hint), it is kept
# and placed once: the faces share its runs. Both are cleared when full: the lines are data's.
_RUNS: dict[tuple, list] = {}
RUNS_KEPT = 1000  # lines (each key holds its advances: a few kB)
_RUNS_SEEN: set[int] = set()
RUNS_SEEN = 20000


def place_horizontal(lines, size, lh, box: Box, align, valign, base_font, scale: float = 1.0,
                     ruby_room: float = 0.0) -> list[Item]:
    """Each line's runs of text at its baseline; `scale` condenses the glyphs (長体) and their
    advances; `ruby_room` is kept above the first line for its ruby."""
    items: list[Item] = []
    block = len(lines) * lh + ruby_room
    top = {"top": box.y + box.h, "middle": box.y + (box.h + block) / 2,
           "bottom": box.y + block}[valign] - ruby_room
    ascent, descent = _em(base_font, size)
    japanese = align == "justify" and _mostly_japanese(lines)
    for i, line in enumerate(lines):
        em_top = top - i * lh - (lh - size) / 2
        if id(line) not in KEPT:
            if line.one and line.atoms and not line.ruby and line.text is not None and \
                    OBJECT not in line.text:
                items += _shared_runs(line, em_top, size, box, align, ascent, descent, scale,
                                      japanese)
            else:
                items += _line_runs(line, em_top, size, box, align, ascent, descent, scale,
                                    japanese)
            continue
        key = (id(line), em_top, size, box.x, box.w, align, base_font, scale, japanese)
        done = _PLACED.get(key)
        if done is None:
            if len(_PLACED) >= PLACED_KEPT:
                _PLACED.clear()
            done = _PLACED[key] = (line, _line_runs(line, em_top, size, box, align, ascent,
                                                    descent, scale, japanese))
        items += done[1]
    return items


def _shared_runs(line, em_top, size, box: Box, align, ascent, descent, scale,
                 japanese) -> list[Item]:
    """A line's runs (_line_runs), kept for a line of one font and colour seen again (_RUNS)."""
    first = line.atoms[0]
    place = (line.text, first.font, first.color, em_top, size, box.x, box.w, align, ascent,
             descent, scale, japanese)
    seen = hash(place)  # (most lines are seen once: their advances are not copied for a key)
    if seen not in _RUNS_SEEN:
        if len(_RUNS_SEEN) >= RUNS_SEEN:
            _RUNS_SEEN.clear()
        _RUNS_SEEN.add(seen)
        return _line_runs(line, em_top, size, box, align, ascent, descent, scale, japanese)
    key = (place, tuple(line.widths), None if line.offsets is None else tuple(line.offsets),
           line.hang, line.last, line.cuts)
    done = _RUNS.get(key)
    if done is None:
        if len(_RUNS) >= RUNS_KEPT:
            _RUNS.clear()
        done = _RUNS[key] = _line_runs(line, em_top, size, box, align, ascent, descent, scale,
                                       japanese)
    return done


def _line_runs(line, em_top, size, box: Box, align, ascent, descent, scale,
               japanese) -> list[Item]:
    """A line's runs of text (and inline pictures, ruby), its em box's top at `em_top`."""
    atoms, widths, offsets = line.atoms, line.widths, line.offsets
    if scale != 1.0:
        widths = [w * scale for w in widths]
        offsets = [o * scale for o in offsets] if offsets else None
    baseline = em_top - ascent
    natural = sum(widths) - line.hang * scale
    text = _text(line)
    space, word_gap, fixed, grow = _justified(atoms, text, line.last, natural, box, align,
                                              size, autospace=True, japanese=japanese)
    x = {"left": box.x, "justify": box.x, "center": box.x + (box.w - natural) / 2,
         "right": box.x + box.w - natural}[align]
    if fixed and space or grow:  # a gap that takes no space: its glyphs' advance less
        widths = list(widths)  # the space; a Japanese-Latin space grown
        for k in fixed:
            widths[k] -= space
        for k, more in grow.items():
            widths[k] += more
    if word_gap is None and atoms and not line.ruby and not (fixed and space) and \
            (line.one or len(set(map(_FONT_COLOR, atoms))) == 1) \
            and OBJECT not in text and ZERO_WIDTH.isdisjoint(text):
        return _one_font(line, text, widths, offsets, x, baseline, size, space, scale)
    items: list[Item] = []
    starts: dict[int, float] = {}
    ends: dict[int, float] = {}
    _runs(line, widths, offsets, x, baseline, descent, size, space, word_gap, scale, items,
          starts, ends)
    if line.ruby:
        items += _ruby_items(atoms, starts, ends,
                             lambda font, rsize: em_top - _em(font, rsize)[1], size, scale,
                             box)
    return items


def _column_gaps(line, length: float, size: float) -> dict[int, float]:
    """What a justified vertical line adds after each of its characters to fill `length`:
    the rules of a justified horizontal line (_justified: its word spaces, then its
    Japanese-Latin spaces beside a run turned sideways, then its characters), the gaps
    inside a tate-chu-yoko run and before a character that takes no room left out."""
    atoms = line.atoms
    text = plain_of(atoms)
    natural = sum(line.widths)
    if line.last or len(atoms) <= 1 or natural >= length:
        return {}
    across = frozenset(k + j for k, run in (line.tcy or {}).items() for j in range(run))
    space, word_gap, fixed, grow = _justified(atoms, text, line.last, natural,
                                              Box(0, 0, length, 0), "justify", size,
                                              autospace=True, across=across)
    spaces = {k: word_gap for k, atom in enumerate(atoms) if atom.text == " "} \
        if word_gap is not None else {}
    extra = {**spaces, **grow}
    if not space:  # between words and at Japanese-Latin spaces only, or nowhere
        return extra
    inside = {k + j for k, run in (line.tcy or {}).items() for j in range(run - 1)}
    gaps = [k for k in range(len(atoms) - 1) if k not in fixed and k not in inside
            and k not in extra and atoms[k + 1].text not in ZERO_WIDTH]
    room = length - natural - sum(extra.values())
    if not gaps or room <= 0:
        return extra
    return {**extra, **dict.fromkeys(gaps, room / len(gaps))}


def place_vertical(lines, size, lh, box: Box, align, valign, base_font,
                   ruby_room: float = 0.0, justify: bool = False) -> list[Item]:
    """Columns from the right; `ruby_room` is kept right of the first column for its ruby.
    With `justify`, every line but a paragraph's last runs the column's whole length, spaced
    out as a justified horizontal line is (JLREQ: never inside brackets' frames)."""
    items: list[Item] = []
    block = len(lines) * lh + ruby_room
    right = {"right": box.x + box.w, "center": box.x + (box.w + block) / 2,
             "left": box.x + block, "justify": box.x + box.w}[align] - ruby_room
    ascent, descent = _em(base_font, size)
    for i, line in enumerate(lines):
        atoms, advances = line.atoms, line.widths
        offsets, runs = line.offsets, line.tcy or {}
        cx = right - i * lh - lh / 2
        extra = _column_gaps(line, box.h, size) if justify else {}
        length = sum(advances) + sum(extra.values())
        y = {"top": box.y + box.h, "middle": box.y + (box.h + length) / 2,
             "bottom": box.y + length}[valign]
        spans: dict[int, tuple[float, float]] = {}  # ruby base atom -> (glyph top, glyph end)
        sideways = column.sideways_runs(atoms, runs)
        skip = 0
        for k, (atom, adv) in enumerate(zip(atoms, advances)):
            top = y - (offsets[k] if offsets else 0.0)  # the glyph's em cell starts here
            y -= adv + extra.get(k, 0.0)
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
            if k in sideways:  # a Latin run, turned clockwise whole: its baseline runs down
                skip = sideways[k] - 1
                items += _sideways(atoms[k:k + sideways[k]], advances[k:k + sideways[k]],
                                   extra, k, top, cx - (ascent + descent) / 2, size, spans)
                continue
            form = VERTICAL_FORMS.get(ch)
            if form and not fonts.missing_glyphs(atom.font, form):
                ch = form
            upright = column.upright_form(atom.font, ch)
            if ch == OBJECT:
                items += _inline(atom, cx - size / 2, top - size, size, size)
                spans[k] = (top, top - size)
            elif upright is not None:  # the font's vertical form, drawn as it stands
                w = fonts.string_width(upright.char, atom.font, size)
                items.append(Text(cx - w / 2, top - size - descent, upright.char, atom.font,
                                  size, atom.color))
                spans[k] = (top, top - adv)
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
        items += _vertical_ruby(atoms, spans, cx + size / 2, size, box)
    return items


def _sideways(run, advances, extra, first: int, top: float, x: float, size: float,
              spans: dict) -> list[Item]:
    """A Latin run in a column, turned clockwise as one piece from `top` (a new piece only
    where its font or colour changes, or a justified line widens a word space)."""
    items: list[Item] = []
    piece: list[Atom] = []
    start = y = top
    for j, (atom, adv) in enumerate(zip(run, advances)):
        if piece and (atom.font, atom.color) != (piece[0].font, piece[0].color):
            items.append(Text(x, start, plain_of(piece), piece[0].font, size, piece[0].color,
                              rotate=-90))
            piece = []
        if not piece:
            start = y
        piece.append(atom)
        spans[first + j] = (y, y - adv)
        y -= adv
        gap = extra.get(first + j, 0.0)
        if gap:
            items.append(Text(x, start, plain_of(piece), atom.font, size, atom.color,
                              rotate=-90))
            piece = []
            y -= gap
    if piece:
        items.append(Text(x, start, plain_of(piece), piece[0].font, size, piece[0].color,
                          rotate=-90))
    return items


def _vertical_ruby(atoms, spans, x, size, box) -> list[Item]:
    """Ruby right of a column (from `x`), upright, down the column: each reading centred on
    its base or spread across a longer one (spread()); a jukugo word's readings share the
    word (shared_readings, measured down the column)."""
    rsize = size / 2
    items: list[Item] = []

    def reading(text: str, font, color, ry: float, gap: float = 0.0) -> None:
        rdescent = _em(font, rsize)[1]
        for ch in text:
            w = fonts.string_width(ch, font, rsize)
            items.append(Text(x + (rsize - w) / 2, ry - rsize - rdescent, ch, font, rsize, color))
            ry -= rsize + gap
    shared: set[int] = set()  # the atoms of jukugo words whole in the column
    for k, atom in enumerate(atoms):
        if atom.word > 0 and all(j in spans for j in range(k, k + atom.word)):
            word = atoms[k:k + atom.word]
            downs = shared_readings([len(a.ruby) * rsize for a in word],
                                    [-spans[j][0] for j in range(k, k + atom.word)],
                                    [-spans[j][1] for j in range(k, k + atom.word)],
                                    -(box.y + box.h), -box.y)
            for a, down in zip(word, downs):
                reading(a.ruby, a.font, a.color, -down)
            shared.update(range(k, k + atom.word))
        if k in shared or not atom.ruby or atom.group <= 0 or k not in spans:
            continue
        end = spans.get(k + atom.group - 1, spans[k])[1]
        gap = spread(spans[k][0] - end, len(atom.ruby) * rsize, len(atom.ruby)) \
            if atom.group > 1 else 0.0
        length = len(atom.ruby) * (rsize + gap)
        ry = min(max((spans[k][0] + end) / 2 + length / 2, box.y + length), box.y + box.h)
        reading(atom.ruby, atom.font, atom.color, ry - gap / 2, gap)
    return items
