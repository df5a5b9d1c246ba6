"""A YAML syntax error in cardgen's words, in the run's language, said at its cause.

libyaml (and PyYAML where it is missing) says what it could not read in English words of
its own ("did not find expected ',' or ']'", "while parsing a flow sequence"): shown as
they are, they were the English in a Japanese run that a YAML mistake let in. Here each
problem and each context the parsers give is said as cardgen says it (marked for
translation); one that this table does not know is said in general words, never the
library's.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import yaml

from ..i18n import N_, Message, _

# (the beginnings of the library's words, libyaml's and PyYAML's, for one problem) -> ours
_PROBLEMS: tuple[tuple[tuple[str, ...], Message], ...] = (
    (("did not find expected ',' or ']'", "expected ',' or ']'"),
     N_("a ',' or the closing ']' is missing")),
    (("did not find expected ',' or '}'", "expected ',' or '}'"),
     N_("a ',' or the closing brace is missing")),
    (("could not find expected ':'",), N_("the ':' after a key is missing")),
    (("mapping values are not allowed",),
     N_("a ': ' cannot stand here (quote a value that has ': ' in it)")),
    (("did not find expected key", "expected <block end>"),
     N_("a key was expected here (is the line indented as the ones above it?)")),
    (("did not find expected '-' indicator",),
     N_("a list item ('- ') was expected here (is the line indented as the ones above it?)")),
    (("block sequence entries are not allowed", "sequence entries are not allowed"),
     N_("a list item ('- ') cannot stand here")),
    (("mapping keys are not allowed",), N_("a '? ' key cannot stand here")),
    (("found character that cannot start any token", "found character"),
     N_("a value cannot begin with this character (quote the value)")),
    (("found unexpected end of stream",), N_("the file ends before the quote is closed")),
    (("found unknown escape character",),
     N_("an unknown escape after '\\' in a double-quoted text (write '\\\\' for a '\\')")),
    (("did not find expected node content", "expected the node content"),
     N_("a value was expected here")),
    (("did not find expected alphabetic or numeric character",
      "expected alphabetic or numeric character"),
     N_("a name must follow '&' or '*' (quote a value that begins with one)")),
    (("did not find expected comment or line break", "expected a comment or a line break"),
     N_("only a comment may follow here on the line")),
    (("found undefined tag handle",), N_("a tag ('!') cardgen does not know")),
    (("found unexpected document indicator", "found unexpected document separator"),
     N_("a '---' or '...' line inside a quoted text")),
    (("did not find expected <document start>", "expected '<document start>'"),
     N_("the document ends here, but more follows (a line indented too little?)")),
    (("but found another document",), N_("a second document ('---') in a file of one")),
    (("found duplicate anchor", "second occurrence"), N_("an anchor ('&') given twice")),
    (("found undefined alias",), N_("an alias ('*') to an anchor not given before it")),
)

# the library's context (what it was reading, from where) -> ours, said with its place
_CONTEXTS: dict[str, Message] = {
    "while parsing a flow sequence": N_("in the [ ] list that starts at {line}:{col}"),
    "while parsing a flow mapping": N_("in the mapping in braces that starts at {line}:{col}"),
    "while parsing a block mapping": N_("in the mapping that starts at {line}:{col}"),
    "while parsing a block collection": N_("in the list that starts at {line}:{col}"),
    "while scanning a simple key": N_("after the key at {line}:{col}"),
    "while scanning a quoted scalar": N_("in the quoted text that starts at {line}:{col}"),
    "while parsing a quoted scalar": N_("in the quoted text that starts at {line}:{col}"),
    "while scanning a double-quoted scalar":
        N_("in the quoted text that starts at {line}:{col}"),
    "while scanning a block scalar": N_("in the | or > text that starts at {line}:{col}"),
    "while scanning an anchor": N_("in the anchor at {line}:{col}"),
    "while scanning an alias": N_("in the alias at {line}:{col}"),
    "while parsing a node": N_("in the value at {line}:{col}"),
    "while parsing a flow node": N_("in the value at {line}:{col}"),
    "while parsing a block node": N_("in the value at {line}:{col}"),
    "expected a single document in the stream": N_("after the document at {line}:{col}"),
    "found duplicate anchor; first occurrence": N_("first given at {line}:{col}"),
}


def problem_words(problem: str | None) -> Message:
    """The library's problem, as cardgen says it."""
    for beginnings, ours in _PROBLEMS:
        if problem and problem.startswith(beginnings):
            return ours
    return _("this cannot be read as YAML")


def syntax_message(problem: str | None, context: str | None, where) -> Message:
    """The whole message: the problem, and what was being read from where (a mark)."""
    said = problem_words(problem)
    ours = _CONTEXTS.get(context or "")
    if ours is None or where is None:
        return _("YAML syntax: {problem}", problem=said)
    return _("YAML syntax: {problem} ({context})", problem=said, context=Message(
        ours.template, {"line": where.line + 1, "col": where.column + 1}))


# Where a syntax error is said: at its cause, where the library found it later (a quote
# never closed) or said it in words that hide it (a tab in an indent).
_LIKE_AN_ENTRY = re.compile(r"\s*(?:- |[\w-]+: )")
_OPENS_A_VALUE = re.compile(r"\s*(?:(?:-\s+)+(?:[\w-]+:\s+)?|[\w-]+:\s+)")  # `- `, `key: `


class _Mark(NamedTuple):
    line: int  # from 0, as the library's marks
    column: int


def indenting_tab(text: str, mark) -> _Mark | None:
    """The first tab in the indent of the line a syntax error is on, where there is one
    (libyaml says only that a character "cannot start any token", at the line's start)."""
    if mark is None:
        return None
    lines = text.split("\n", mark.line + 1)
    if mark.line >= len(lines):
        return None
    line = lines[mark.line]
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    if "\t" not in indent or mark.column > len(indent):
        return None
    return _Mark(mark.line, indent.index("\t"))


def unclosed_quote(text: str, mark, loader) -> tuple[Any, Any] | None:
    """(its start, its end) when a syntax error comes on the line where a quoted text that
    ran over lines ended: a quote never closed on its line takes in the lines after it up
    to the next quote of its kind, and the error is found there, lines below the cause."""
    if mark is None:
        return None
    found = None
    try:
        for token in yaml.scan(text, Loader=loader):
            start, end = token.start_mark, token.end_mark
            if start.line > mark.line:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') and \
                    start.line < end.line:
                found = (start, end)
    except yaml.YAMLError:
        pass
    if found is None or found[1].line != mark.line:
        return None
    # (a text quoted over lines on purpose holds no line that reads as a key or a list item,
    # and the quote that ended it opens a value of its own: `answer: "` ends a runaway text)
    taken = text.split("\n", found[1].line + 1)[found[0].line + 1:found[1].line + 1]
    before = taken[-1][:found[1].column - 1] if taken else ""
    if _OPENS_A_VALUE.fullmatch(before) is None:
        return None
    return found if any(_LIKE_AN_ENTRY.match(line) for line in taken) else None
