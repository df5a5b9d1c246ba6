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
too. A kana or kanji beside a Latin letter or digit is a quarter em from it (down a column,
beside a Latin run turned sideways, not one set across). A line a little too long squeezes
in JLREQ's order (3.8.2: the Japanese-Latin spaces to an eighth, middle dots, then brackets
and commas), never the half em after a full stop inside it. Ruby is set at half the size,
centred on its base; a reading longer than its base may overhang a neighbouring kana by
half a ruby character (never a kanji, nor past a line's ends), and the base is spaced out
for the rest. Lines never break inside a ruby base or a tate-chu-yoko run.
"""

from __future__ import annotations

from .breaking import HYPHEN, Laid, Line, break_lines, content_widths
from .spacing import Spacing
from .markup import (OBJECT, Atom, Atoms, DoesNotFit, MarkupError, MissingGlyphs, Style,
                     font_for, parse, plain_of)
from .placing import Box, first_baseline, place_horizontal, place_vertical
from .fitting import set_text
from . import typography
from .typography import full_width, typographic

# The text engine's parts: markup.py (text into atoms), spacing.py (JLREQ spacing),
# opportunities.py (where a line may break: UAX #14, phrases), breaking.py (atoms into lines),
# vertical.py (what a column draws upright, turned or across), typography.py (quotes and
# ranges as a typographer sets them), placing.py (lines into a box), fitting.py (setting a
# text to fit a box).
__all__ = ["font_for", "HYPHEN", "OBJECT", "Atom", "Atoms", "Box", "DoesNotFit", "Laid", "Line",
           "MarkupError", "MissingGlyphs", "Spacing", "Style", "break_lines", "content_widths",
           "parse", "first_baseline", "place_horizontal", "place_vertical", "plain_of", "set_text",
           "full_width", "typographic", "typography"]
