"""Vertical writing (縦書き): which glyph each character takes in a column, and which runs of
Latin text are turned sideways whole or set across (tate-chu-yoko), in one place.

- A character the font draws differently in a column (its GSUB `vert` feature: brackets,
  dashes, 〜, 〝〟, stops, small kana, ー) is drawn upright in its vertical form
  (`upright_form`); the space it takes down the column is the form's own (the font's vmtx)
  for punctuation, whose JLREQ frame is added by spacing, and one em for the rest.
- A run of Latin letters and digits, with the `.` `,` `:` and spaces inside it (`27.1`,
  `3,000`, `No.1`, `Last Dance`), is one piece (`latin_runs`): set across as tate-chu-yoko
  when it is only digits, as many as the layout's `tcy:` allows (`10`), else turned a
  quarter turn clockwise whole, its word spaces at the Latin font's width. Kana and 、 beside
  it are never part of it and stay upright.
- What the font has no vertical form for, of the characters Japanese print turns (ROTATED:
  dashes and brackets of a Latin font), is turned on its own.
"""

from __future__ import annotations

import unicodedata

from .. import fonts
from .markup import CORNER_PUNCT, PUNCT, ROTATED, SMALL_KANA, Atom

SPACES = frozenset(" \u00a0")
# Down a column these take the room their vertical form's metrics give (their frame comes
# from JLREQ spacing); every other upright character takes one em.
_OWN_ADVANCE = PUNCT | ROTATED | CORNER_PUNCT


LATIN_MARKS = frozenset("\u2018\u2019\u201c\u201d\u2013")  # a typographer's ‘’“” and –


def is_latin(ch: str) -> bool:
    """A character of a Latin run: below U+2000 and not a space (letters, digits, . , : -),
    or a typographer's quote, apostrophe or range dash in it (it’s, 1–12)."""
    return ord(ch) < 0x2000 and not ch.isspace() or ch in LATIN_MARKS or fonts.is_alias(ch)


def upright_form(font: str, ch: str) -> fonts.Form | None:
    """The font's vertical form of `ch`, where a column draws one: not for a Latin character
    (turned with its run) nor for a kana or kanji other than the small kana, whose glyphs
    stand in a column as they are."""
    form = fonts.forms(font, "vert").get(ch)
    if form is None or is_latin(ch) or \
            (ch not in SMALL_KANA and unicodedata.category(ch) == "Lo"):
        return None
    return form


def advance(font: str, ch: str, size: float) -> float | None:
    """What an upright character in its vertical form takes down the column, or None for a
    character without one."""
    form = upright_form(font, ch)
    if form is None:
        return None
    return form.advance * size if ch in _OWN_ADVANCE else size


def latin_runs(atoms: list[Atom]) -> dict[int, int]:
    """Start -> length of each run of Latin characters (and the spaces between them) outside
    an explicit <tcy>: each is set as one piece."""
    runs: dict[int, int] = {}
    i, n = 0, len(atoms)
    while i < n:
        if atoms[i].tcy or not is_latin(atoms[i].text):
            i += 1
            continue
        j = end = i + 1
        while j < n and not atoms[j].tcy and (is_latin(atoms[j].text) or atoms[j].text in SPACES):
            j += 1
            if is_latin(atoms[j - 1].text):
                end = j
        runs[i] = end - i  # trailing spaces are not part of it
        i = end
    return runs


def tcy_runs(atoms: list[Atom], digits: int) -> dict[int, int]:
    """Tate-chu-yoko: start -> length of each explicit <tcy> run and each Latin run that is
    only ASCII digits, `digits` at most (`27` across; `27.1`, `3,000`, `100` turned whole)."""
    runs = {}
    for i, atom in enumerate(atoms):
        if atom.tcy and atom.group > 0:
            runs[i] = atom.group
    if digits:
        for start, length in latin_runs(atoms).items():
            if length <= digits and all("0" <= a.text <= "9" for a in atoms[start:start + length]):
                runs[start] = length
    return runs


def sideways_runs(atoms: list[Atom], tcy: dict[int, int]) -> dict[int, int]:
    """Start -> length of each Latin run turned sideways (those not set across)."""
    return {k: n for k, n in latin_runs(atoms).items() if k not in tcy}
