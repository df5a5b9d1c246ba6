"""The one rule a change's words are marked by, in every output of `cardgen diff`.

A text is cut into tokens: a word of Latin letters or digits, a run of spaces, and every
other character on its own (Japanese, which has no spaces, is compared character by
character). The tokens that stayed, were taken out and were put in are the change's
runs: ("=", text), ("-", text), ("+", text). The terminal and JSON show them as the
players' changelog does (changelog.py): what was taken out ~~struck~~, what was put in
**bold**; a long text is abridged around its changes (`abridged`).
"""

from __future__ import annotations

import difflib
import html
import re
from functools import lru_cache

from ..rulebook.markdown import CJK

TOKEN = re.compile(r"[A-Za-z0-9_'’\-]+|\s+|.", re.S)
WORD = re.compile(r"\S+|\s+")  # what lies between spaces: where TOKEN's marks would not read
_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#&!])")
KEEP = 40  # characters kept of an unchanged run on each side of a change, about

Runs = list[tuple[str, str]]


def runs(old: str, new: str, token: re.Pattern = TOKEN) -> Runs:
    """The change from `old` to `new` as runs ("=", "-" or "+", text), in reading order (a
    replaced run: what was taken out, then what was put in)."""
    a, b = token.findall(old), token.findall(new)
    out: Runs = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("=", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", "".join(b[j1:j2])))
    return out


def _width(text: str) -> int:
    """How wide a text reads, in Latin characters: a Japanese one counts two."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def _head(text: str, size: int) -> str:
    """The first tokens of `text`, about `size` characters wide (a word is never cut)."""
    out = ""
    for token in TOKEN.findall(text):
        if _width(out + token) > size and out.strip():
            break
        out += token
    return out


def _tail(text: str, size: int) -> str:
    """The last tokens of `text`, about `size` characters."""
    out: list[str] = []
    length = 0
    for token in reversed(TOKEN.findall(text)):
        if length + _width(token) > size and "".join(out).strip():
            break
        out.append(token)
        length += _width(token)
    return "".join(reversed(out))


def abridged(change: Runs, keep: int = KEEP) -> Runs:
    """The runs with each unchanged one longer than its context cut to about `keep`
    characters wide beside each change, what is left out said "…"."""
    out: Runs = []
    last = len(change) - 1
    for n, (how, text) in enumerate(change):
        if how != "=" or _width(text) <= 2 * keep + 3:
            out.append((how, text))
        elif n == 0:
            out.append(("=", "…" + _tail(text, keep).lstrip()))
        elif n == last:
            out.append(("=", _head(text, keep).rstrip() + "…"))
        else:
            out.append(("=", _head(text, keep).rstrip() + " … " + _tail(text, keep).lstrip()))
    return out


def shown(change: Runs) -> str:
    """The runs as plain text marked as the changelog marks them: "Deal ~~five~~ **six**
    cards" (a space is kept outside the marks, the text one line)."""
    out: list[str] = []
    for n, (how, text) in enumerate(change):
        text = re.sub(r"\s+", " ", text)
        if how == "=" or not text.strip():
            out.append(text if how != "-" else "")
            continue
        mark = "~~" if how == "-" else "**"
        # words replaced are apart as words are ("~~five~~ **six**"), characters not
        space = " " if how == "+" and n and change[n - 1][0] == "-" and \
            re.search(r"(^|\s)$", "".join(out[:-1])) else ""
        core = text.strip()
        out.append(space + text[:len(text) - len(text.lstrip())] + mark + core + mark
                   + text[len(text.rstrip()):])
    return "".join(out).strip()


_SOFT_BETWEEN_CJK = re.compile(f"([{CJK}]) ?\n[ \t]*([{CJK}])")  # (two spaces or more
# before the line end: a hard break, Markdown's, which the rulebook keeps)


def joined_lines(lines: list[str]) -> str:
    """A paragraph's lines on one line as the rulebook sets them: a line end between two
    Japanese characters joins them, any other is a space."""
    return _SOFT_BETWEEN_CJK.sub(r"\1\2", "\n".join(lines)).replace("\n", " ")


def plain(value, markdown: bool = True) -> str:
    """A value or a paragraph as it reads, on one line; a list as its items. With
    `markdown` (the rulebook's text, which is Markdown), without its list marks and
    emphasis; a card's or the data's own text keeps every character it prints."""
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v, markdown) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v, markdown)}" for k, v in value.items())
    if value is None:
        return ""
    text = str(value)
    if markdown:  # a line end between two Japanese characters joins them, as the rulebook
        text = _SOFT_BETWEEN_CJK.sub(r"\1\2", text)  # sets it (no space: 人です。通行人)
    text = " ".join(text.split())
    if not markdown:
        return text
    text = re.sub(r"(^|\s)[-*+]\s+", r"\1", text)  # bullets (a numbered item keeps its number)
    text = re.sub(r"^\d+[.)]\s+", "", text)
    return re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text).strip()


def escaped(text: str) -> str:
    """Text as Markdown that shows it as it is: every mark Markdown reads escaped."""
    return _SPECIAL.sub(r"\\\1", text)


@lru_cache(maxsize=1)
def _renderer():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark").enable("strikethrough")


def as_markdown(change: Runs) -> str | None:
    """The runs as Markdown, the text escaped, what was taken out ~~struck~~ and what was
    put in **bold**; None where Markdown would not read a mark as one (next to
    punctuation: '**' does not open before ')' after a letter)."""
    out: list[str] = []
    reads: list[str] = []  # what it is to read as, once rendered
    marks = 0
    for how, text in change:
        if how == "=":
            out.append(escaped(text))
            reads.append(text)
        elif text.strip():
            mark = "~~" if how == "-" else "**"
            core = text.strip()
            lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
            space = " " if mark == "**" and len(out) > 1 and out[-1].endswith("~~") \
                and re.search(r"(^|\s)$", out[-2]) else ""
            out.append(f"{space}{lead}{mark}{escaped(core)}{mark}{trail}")
            reads.append(f"{space}{lead}<{mark}>{core}</{mark}>{trail}")
            marks += 1
        elif how == "+":
            out.append(text)
            reads.append(text)
    result = "".join(out)
    rendered = _renderer().renderInline(result)
    read = html.unescape(re.sub(r"<(/?)(s|strong)>", lambda m: "<{}{}>".format(
        m[1], "~~" if m[2] == "s" else "**"), rendered))
    if read != "".join(reads) or rendered.count("<s>") + rendered.count("<strong>") != marks:
        return None
    return result


def best(old: str, new: str, keep: int | None = None) -> Runs | None:
    """The change's runs by the one rule: at word (in Japanese, character) boundaries, or,
    where Markdown would not read a mark there, at the spaces around it; abridged with
    `keep`; None when neither reads (then a change is said before and after)."""
    for token in (TOKEN, WORD):
        change = runs(old, new, token)
        if keep is not None:
            change = abridged(change, keep)
        if as_markdown(change) is not None:
            return change
    return None
