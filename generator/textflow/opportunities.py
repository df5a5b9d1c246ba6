"""Where a line may break: a text's unbreakable units (UAX #14 break opportunities, ICU's
strict Japanese line breaking), grouped into BudouX's phrases (文節) where lines break between
phrases, and the Japanese words of a mostly English text, which an English line keeps whole."""

from __future__ import annotations

import re
from functools import lru_cache

from icu4py.breakers import LineBreaker
from icu4py.locale import Locale


_STRICT = Locale("ja@lb=strict")  # strict kinsoku: small kana and ー never start a line


@lru_cache(maxsize=1)
def _phrases():
    import budoux
    return budoux.load_default_japanese_parser()


PREFIXES = "おご"  # honorific prefixes: a phrase may start with one before a kanji (お茶)


def _is_kanji(ch: str) -> bool:
    """A kanji or 々 (compared by code point: a pattern of these ranges costs 1.4 ms to
    compile at every start)."""
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or ch == "々"


def phrases(plain: str) -> list[str]:
    """The text's phrases (文節), as BudouX finds them, with one correction: a phrase that
    starts with a single hiragana before a kanji gives it to the phrase before, whose
    particle or ending it is. BudouX's model, trained on modern prose, cuts classical and
    poetic Japanese there (名に／し負は／ば逢坂山の becomes 名にし／負はば／逢坂山の)."""
    out: list[str] = []
    for chunk in _phrases().parse(plain):
        if out and len(chunk) > 1 and "\u3041" <= chunk[0] <= "\u309f" and \
                chunk[0] not in PREFIXES and _is_kanji(chunk[1]):
            out[-1] += chunk[0]
            chunk = chunk[1:]
        out.append(chunk)
    return out


_JAPANESE_LETTERS = "\u3041-\u30ff\u3400-\u9fff々\uf900-\ufaff"
_ANY_JAPANESE = re.compile(f"[{_JAPANESE_LETTERS}]")
_JAPANESE_RUNS = re.compile(f"[{_JAPANESE_LETTERS}]{{2,}}")
_SPACES = re.compile(r"\s")
# _is_latin, for a whole text: a character below U+2000 that is not a space (written so, not
# as [^\s\u2000-\U0010ffff], whose range re marks code point by code point: 2.3 ms to compile)
_LATIN_LETTERS = re.compile(r"[\x00-\u1fff](?<!\s)")


def _is_japanese(ch: str) -> bool:
    """A kana or kanji (with ー, ・ and 々): a letter of a Japanese word."""
    return _ANY_JAPANESE.fullmatch(ch) is not None


def _japanese_words(plain: str, start: int) -> set[int]:
    """In a text that is mostly Latin (English with Japanese words in it), the places inside
    a Japanese word, `start` added: there an English line does not break (Wallflower (壁の花),
    not (壁の|花)), as it does not inside a Latin word, unless the word is longer than the line."""
    if not _ANY_JAPANESE.search(plain):  # most texts: no scan of their letters one by one
        return set()
    letters = len(plain) - len(_SPACES.findall(plain))  # (\s is str.isspace, and the
    if len(_LATIN_LETTERS.findall(plain)) * 2 < letters:  # Latin class is _is_latin's)
        return set()
    return {start + k for run in _JAPANESE_RUNS.finditer(plain)
            for k in range(run.start() + 1, run.end())}


def _unit_bounds(plain: str, start: int, phrase: bool) -> list[list[tuple[int, int]]]:
    """The text's unbreakable units (UAX #14 break opportunities, ICU strict) as index
    ranges, `start` added. Each group is a list of ICU units: one, or, with `phrase`, the
    ICU units of a BudouX phrase, kept together on a line when it fits (and broken inside
    when it does not); in a mostly Latin text, a Japanese word is such a group too."""
    icu: list[tuple[int, int]] = []
    if len(plain.encode("utf-16-le", "surrogatepass")) == 2 * len(plain):
        # no character beyond the BMP: ICU's UTF-16 offsets are the string's own indices
        icu = [(start + s, start + e) for s, e in LineBreaker(plain, _STRICT).segments()] \
            if plain else []
    else:
        at = start
        for unit in LineBreaker(plain, _STRICT):
            icu.append((at, at + len(unit)))
            at += len(unit)
    words = _japanese_words(plain, start)
    if not phrase and not words:
        return [[u] for u in icu]
    ends: set[int] = {u[1] for u in icu} if not phrase else set()
    at = start
    for chunk in phrases(plain) if phrase else ():
        at += len(chunk)
        ends.add(at)
    ends -= words
    grouped: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for bounds in icu:
        current.append(bounds)
        if bounds[1] in ends:  # a phrase may end here: break opportunities only at its ends
            grouped.append(current)
            current = []
    if current:
        grouped.append(current)
    return grouped
