"""The rulebook's Markdown reader: markdown-it-py's CommonMark with tables, HTML (for
cardgen's markers) and CJK-friendly emphasis, which Japanese text needs."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.parser_inline import ParserInline
from markdown_it.rules_inline.state_inline import Scanned, StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType

# CJK ideographs, kana and full-width forms, as the inside of a regular expression's class
CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_CHAR = re.compile("[A-Za-z0-9]")
_TAGS = re.compile("<[^<>]*>")
INDENT = "\u3000"  # an ideographic space: one em, as a Japanese writer sets a paragraph in


def indented(markup: str) -> str:
    """A paragraph's markup set in by one em (字下げ, JLREQ 3.1.5) if it is mostly Japanese
    (an opening bracket keeps its blank after the indent; `2番は…` is set in too) and is not
    set in already."""
    plain = _TAGS.sub("", markup)
    cjk = len(_CJK_CHAR.findall(plain))
    if plain.startswith(INDENT) or not cjk or cjk < len(_LATIN_CHAR.findall(plain)):
        return markup
    return INDENT + markup


def _is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


class _CJKFriendlyState(StateInline):
    """CommonMark's emphasis rules, with the CJK-friendly amendment: a `**` or `*` next to
    punctuation may still open (close) emphasis when a Japanese or Chinese character is on
    its other side, as in `して**＋30点**を獲得`. Japanese puts no spaces between words, so
    the rule that asks for one (meant for English) left the asterisks in the text."""

    def scanDelims(self, start: int, canSplitWord: bool) -> Scanned:
        pos, maximum, marker = start, self.posMax, self.src[start]
        last = self.src[start - 1] if start > 0 else " "
        while pos < maximum and self.src[pos] == marker:
            pos += 1
        following = self.src[pos] if pos < maximum else " "
        last_punct = isMdAsciiPunct(ord(last)) or isPunctChar(last)
        next_punct = isMdAsciiPunct(ord(following)) or isPunctChar(following)
        last_space, next_space = isWhiteSpace(ord(last)), isWhiteSpace(ord(following))
        left = not (next_space or (next_punct and not (last_space or last_punct
                                                       or _is_cjk(last))))
        right = not (last_space or (last_punct and not (next_space or next_punct
                                                        or _is_cjk(following))))
        can_open = left and (canSplitWord or not right or last_punct)
        can_close = right and (canSplitWord or not left or next_punct)
        return Scanned(can_open, can_close, pos - start)


class _CJKFriendlyInline(ParserInline):
    """markdown-it's inline parser, parsing with the state above and with the rules of
    `configured` (the parser a MarkdownIt made and configured, whose place it takes)."""

    def __init__(self, configured: ParserInline) -> None:
        super().__init__()
        vars(self).update(vars(configured))

    def parse(self, src: str, md: MarkdownIt, env: EnvType, tokens: list[Token]) -> list[Token]:
        state = _CJKFriendlyState(src, md, env, tokens)  # ParserInline.parse's, but this state
        self.tokenize(state)
        for rule in self.ruler2.getRules(""):
            rule(state)
        return state.tokens


def markdown() -> MarkdownIt:
    """The rulebook's Markdown: CommonMark with tables, HTML (for cardgen's markers) and
    CJK-friendly emphasis. (Quotes are set by the text's own rule, textflow.typography, as
    card texts are.)"""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.inline = _CJKFriendlyInline(md.inline)
    return md
