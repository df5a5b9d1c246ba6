"""What a typographer changes in the text as written (`smart_quotes:`, on by default): straight
quotes and apostrophes become typographic ones, and a `~` between two numbers (a range,
1~12) becomes the mark print uses for it, on the line where ASCII's tilde sits high.

One rule for card texts and the rulebook, applied to the parsed atoms (never to markup):

- `"` opens after a space, the start of a line or an opening bracket, closes before a space,
  the end of a line or a stop, and otherwise opens and closes in turn (Japanese has no
  spaces to tell: "白手袋の" is “白手袋の”); vertical text then sets them as 〝〟.
- `'` after a letter, a digit or a stop is an apostrophe or a closing quote (’: it's,
  players', 'Go.'), otherwise an opening one (‘). After a Latin letter it is drawn as the
  font's Latin text wants it (fonts.narrow: a Japanese font's ’ has a half em of advance).
- `~` between digits is 〜 in a text with Japanese in it (1〜12枚), an en dash in one
  without (1–12 cards).

A mark the text's font cannot draw stays as it was written.
"""

from __future__ import annotations

import re

from .. import fonts
from .markup import Atom
from .opportunities import _ANY_JAPANESE as _JAPANESE  # (one pattern: 1.4 ms to compile)

_OPENS_AFTER = frozenset("([{<「『（［｛〈《【〔—–-/")
_CLOSES_BEFORE = frozenset(".,;:!?)]}>」』）］｝〉》】〕、。，．！？…—–-")
# What the text as written must hold for either function to change anything: a caller
# looks for it in the markup (a C-speed search) before it hands over the atoms.
MARKS = re.compile("[\"'~]")
FULL_WIDTH = re.compile("[\uff10-\uff5a]")
_LATIN = re.compile("[0-9A-Za-z\u00c0-\u024f]")


def _at(atoms: list[Atom], k: int) -> str:
    return atoms[k].text if 0 <= k < len(atoms) else "\n"


def typographic(atoms: list[Atom]) -> list[Atom]:
    """The atoms with straight quotes, apostrophes and ranges' tildes as a typographer sets
    them (the module's rules)."""
    if not any(a.text in "\"'~" for a in atoms):
        return atoms  # most texts: nothing to look at
    japanese = any(_JAPANESE.match(a.text) for a in atoms)
    out = list(atoms)
    opened = False
    for k, atom in enumerate(atoms):
        ch = atom.text
        if ch == "\n":
            opened = False
            continue
        before, after = _at(atoms, k - 1), _at(atoms, k + 1)
        if ch == '"':
            if before.isspace() or before in _OPENS_AFTER:
                opening = True
            elif after.isspace() or after in _CLOSES_BEFORE:
                opening = False
            else:
                opening = not opened
            opened = opening
            form = "\u201c" if opening else "\u201d"
        elif ch == "'":
            form = "\u2019" if before.isalnum() or before in _CLOSES_BEFORE else "\u2018"
            if form == "\u2019" and _LATIN.match(before) and not fonts.missing_glyphs(
                    atom.font, form):  # an apostrophe in a word: the font's Latin one
                out[k] = atom._replace(text=fonts.narrow(atom.font, form))
                continue
        elif ch == "~" and before.isdigit() and after.isdigit():
            form = "\u301c" if japanese else "\u2013"
        else:
            continue
        if not fonts.missing_glyphs(atom.font, form):
            out[k] = atom._replace(text=form)
    return out


def full_width(atoms: list[Atom]) -> list[Atom]:
    """The atoms with each full-width letter or digit that the font draws narrower than an
    em drawn by its full-width glyph (fonts.full_width); not a setting: a full-width
    character is written to be one em wide."""
    if not any("\uff10" <= a.text <= "\uff5a" for a in atoms):
        return atoms  # most texts
    return [atom._replace(text=forms[atom.text])
            if "\uff10" <= atom.text <= "\uff5a" and atom.text in (forms := fonts.full_width(
                atom.font)) else atom for atom in atoms]
