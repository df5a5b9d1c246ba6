"""A template's syntax error in a designer's words, at its cause (`in_words`): Jinja2 says
"Unexpected end of template. Jinja was looking for the following tags: 'endfor' or 'else'"
at the line where the template's last piece starts; this says `{% for %} is never closed`
at the line that opens it. Jinja2's own words only where no rule here knows the error."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from .i18n import N_, Listed, _

if TYPE_CHECKING:
    import jinja2


@lru_cache(maxsize=1)
def _lexer():
    """Jinja2's lexer (the sandbox's delimiters are Jinja2's own: its tokens alike), made at
    the first syntax error: Jinja2 is imported where a template needs it (sandbox_env)."""
    import jinja2
    return jinja2.Environment()


# Jinja2's names of the tokens its syntax errors say it expected or found, as a template
# writes them; and the tags that open a block, with the tag that ends each.
_TOKEN_WORDS = {"end of print statement": "}}", "end of statement block": "%}",
                "end of template": N_("the end of the template"), "name": N_("a name"),
                "integer": N_("a number"), "float": N_("a number"), "string": N_("a text")}
_BLOCKS = ("for", "if", "macro", "call", "filter", "block", "with", "autoescape", "trans", "set")
# The tags the sandbox has (Jinja2's own, no extension), and their end tags: what a hint offers.
_TAGS = ("for", "if", "elif", "else", "macro", "call", "filter", "block", "with", "set",
         "include", "import", "from", "extends", "raw", "autoescape")
_ENDS = tuple(f"end{tag}" for tag in ("for", "if", "macro", "call", "filter", "block", "with",
                                      "set", "raw", "autoescape"))
_ENDS_BLOCK = re.compile(r"Unexpected end of template\..*innermost block that needs to be "
                         r"closed is '(\w+)'", re.S)
_UNKNOWN_TAG = re.compile(r"Encountered unknown tag '(\w+)'\.(?:.*innermost block that needs "
                          r"to be closed is '(\w+)')?", re.S)
_EXPECTED = re.compile(r"expected token '([^']+)', got '([^']*)'")
_ENDS_INSIDE = re.compile(r"unexpected end of template, expected '([^']+)'")
_WANTED = re.compile(r"Expected an expression, got '([^']+)'")
_UNEXPECTED = re.compile(r"unexpected (?:char )?(['\"])(.+?)\1")


def _token(name: str) -> str:
    return _TOKEN_WORDS.get(name, name)


def _open_blocks(source: str, before: int | None = None) -> list[tuple[str, int]]:
    """The blocks ({% for %}, {% if %} ...) open at the template's end (or at line `before`),
    innermost last, each with the line it opens at: what Jinja2's "unexpected end of
    template" does not say. A `{% set x = ... %}` opens none; one the lexer cannot read ends
    the scan."""
    from jinja2 import TemplateSyntaxError
    stack: list[tuple[str, int]] = []
    tokens = iter(_lexer().lex(source))
    try:
        for line, kind, value in tokens:
            if before is not None and line >= before:
                break
            if kind != "block_begin":
                continue
            line, kind, value = next(t for t in tokens if t[1] != "whitespace")
            if kind != "name":
                continue
            if value in _BLOCKS:
                rest = []
                for token in tokens:
                    if token[1] == "block_end":
                        break
                    rest.append(token[1])
                if value != "set" or "assign" not in rest:
                    stack.append((value, line))
            elif value.startswith("end") and stack and stack[-1][0] == value[3:]:
                stack.pop()
    except (TemplateSyntaxError, StopIteration):
        pass
    return stack


def _unknown_tag(found: str, inner: str | None, text: str, source: str, line: int) -> str:
    """Jinja2's "Encountered unknown tag" in words: a real end tag closing a block that is
    not the innermost (or none), else or elif outside their block, or a tag that does not
    exist, with the one meant (of those the sandbox has, and the end Jinja2 looked for)."""
    if found in _ENDS and inner:  # a real end tag, closing a block not the innermost
        inside = _open_blocks(source, line + 1)
        opened_at = inside[-1][1] if inside and inside[-1][0] == inner else None
        if opened_at:
            return _("{found} does not close {opened} (line {at}): end that block first, with "
                     "{end}", found=f"{{% {found} %}}", opened=f"{{% {inner} %}}",
                     at=opened_at, end=f"{{% end{inner} %}}")
        return _("{found} does not close {opened}: end that block first, with {end}",
                 found=f"{{% {found} %}}", opened=f"{{% {inner} %}}", end=f"{{% end{inner} %}}")
    if found in _ENDS:
        return _("{found} closes no block: no {opened} is open here",
                 found=f"{{% {found} %}}", opened=f"{{% {found[3:]} %}}")
    if found in ("else", "elif"):  # a real tag, outside the block it belongs in
        return _("{found} is out of place: it belongs inside {opened}", found=f"{{% {found} %}}",
                 opened=_("{if_} ... {endif}", if_="{% if %}", endif="{% endif %}")
                 if found == "elif" else Listed(["{% if %}", "{% for %}"], "or"))
    wanted = re.findall(r"'(\w+)'", text.partition(".")[2])  # (what Jinja2 looked for here)
    close = difflib.get_close_matches(found, [*([f"end{inner}"] if inner else []), *wanted,
                                              *_TAGS, *_ENDS], 1)
    if close:
        return _("there is no tag {found} (did you mean {hint}?)", found=f"{{% {found} %}}",
                 hint=f"{{% {close[0]} %}}")
    return _("there is no tag {found}", found=f"{{% {found} %}}")


def in_words(source: str, exc: jinja2.TemplateSyntaxError,
             otherwise: Callable[[str], str] = str) -> tuple[str, int]:
    """A template's syntax error in a designer's words, and the line of its cause (1 on):
    an unclosed block is said at the line that opens it (Jinja2 says where the template
    ends), a stray end tag names the block still open. Jinja2's own words where no rule here
    knows the error (through `otherwise`: sandbox.in_words words some of them)."""
    text, line = exc.message or "", exc.lineno or 1
    match = _ENDS_BLOCK.search(text)
    if match:
        opened = [b for b in _open_blocks(source) if b[0] == match[1]]
        if opened:
            tag, line = opened[-1]
            return _("{opened} is never closed: end it with {end}", opened=f"{{% {tag} %}}",
                     end=f"{{% end{tag} %}}"), line
    match = _UNKNOWN_TAG.search(text)
    if match:
        return _unknown_tag(match[1], match[2], text, source, line), line
    match = _EXPECTED.search(text)
    if match:
        return _("expected {expected} here, not {got}", expected=_token(match[1]),
                 got=_token(match[2]) if match[2] in _TOKEN_WORDS else f"'{match[2]}'"), line
    match = _ENDS_INSIDE.search(text)
    if match:
        return _("it ends before its closing {expected}", expected=_token(match[1])), line
    match = _WANTED.search(text)
    if match:
        return _("a value is missing before {got}", got=_token(match[1])), line
    if "Missing end of comment tag" in text:
        return _("a comment ({opened}) is never closed with {end}", opened="{#",
                 end="#}"), source.count("\n", 0, max(source.rfind("{#"), 0)) + 1
    if "Missing end of raw directive" in text:
        return _("{opened} is never closed: end it with {end}", opened="{% raw %}",
                 end="{% endraw %}"), source.count("\n", 0, max(source.rfind("{% raw"), 0)) + 1
    match = _UNEXPECTED.search(text)
    if match and match[2] == "end of template":
        return _("it stops where more is wanted (a value after an operator, a closing "
                 "bracket or quote)"), line
    if match and match[2] in _TOKEN_WORDS:  # (a name, the end of a tag: Jinja2's words)
        return _("a value is missing before {got}", got=_token(match[2])), line
    if match and match[2] in "'\"":
        return _("a text opened with {quote} is never closed with another", quote=match[2]), line
    if match:
        return _("'{char}' cannot stand here", char=match[2]), line
    return otherwise(text), line
