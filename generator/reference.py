"""The docs' tables of options, in English and Japanese, made from their declarations
(options.py): `make docs` (python -m generator.reference) writes them into the docs
between generated markers, and tests/test_options.py fails when a page is not what its
declarations make.

A marked section in a page:

    <!-- options: board-grid -->
    (the table of the grid shape's keys, generated)
    <!-- /options -->

names a group of `groups()`; `<!-- options-list: element-defaults -->` is the list of keys a
`defaults:` mapping may set, as `key`, `key`, ...
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from .i18n import N_, Message
from .options import KINDS, Option, Options

DOCS = Path(__file__).resolve().parent.parent / "docs"
_SECTION = re.compile(r"(<!-- (options|options-list): ([\w-]+) -->\n)(.*?)(<!-- /options -->)",
                      re.S)
HEAD = {"en": ("key", "value", "default", "meaning"), "ja": ("キー", "値", "既定値", "意味")}
_RANGE = N_("{kind}, {low} to {high}")
_AT_LEAST = N_("{kind}, at least {low}")
_AT_MOST = N_("{kind}, at most {high}")


def groups() -> dict[str, Options]:
    """Every declared group of options, by the name the docs' markers give it: what is
    registered now (a test's own shape or element type too)."""
    from . import elements
    from .boards import BOARD, SHAPES
    from .formats import PROFILE
    from .options import options_of
    from .declared import GROUPS
    found = {"export-profile": PROFILE, "board": BOARD, **GROUPS}
    found.update({f"board-{name}": options_of(m) for name, m in SHAPES.items()})
    found.update({f"board-{name}-route": m.ROUTE for name, m in SHAPES.items()
                  if isinstance(getattr(m, "ROUTE", None), Options)})  # a route's own keys
    found["element"] = elements.COMMON
    found["element-repeat"] = elements.REPEAT
    found.update({f"element-{name}": options_of(m) for name, m in elements.TYPES.items()})
    return {name: options for name, options in found.items() if len(options)}


def default_keys() -> list[str]:
    """The keys a layout's or a game's `defaults:` may set: those declared so."""
    from .elements import default_keys as keys
    return keys()


def _said(text: Any, lang: str) -> str:
    return text.shown(lang) if isinstance(text, Message) else str(text)


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    return str(value)


def _default(option: Option, lang: str) -> str:
    if option.shown_default is not None:
        return _said(option.shown_default, lang)
    if option.key in _format_defaults() and _is_profile_key(option):
        by = _format_defaults()[option.key]
        return ("、" if lang == "ja" else ", ").join(f"{fmt} `{_written(v)}`"
                                                    for fmt, v in by.items())
    if option.default is None or option.default == "":
        return ""
    return f"`{_written(option.default)}`"


def _is_profile_key(option: Option) -> bool:
    """Whether the option is an export profile's own key (whose default each format gives),
    not another group's of the same name (a board layout's `color`)."""
    from .formats import PROFILE
    return option.key in PROFILE and PROFILE[option.key] is option


def _format_defaults() -> dict[str, dict]:
    """The export formats' own defaults of a profile's keys, by key and format."""
    from .formats import FORMATS, PROFILE
    out: dict[str, dict] = {}
    for key in PROFILE.options:
        by = {name: m.DEFAULTS.get(key, PROFILE[key].default) for name, m in FORMATS.items()}
        if any(key in m.DEFAULTS for m in FORMATS.values()):
            out[key] = by
    return out


def _value(option: Option, lang: str) -> str:
    if option.choices:
        return ("、" if lang == "ja" else ", ").join(f"`{c}`" for c in option.choices)
    kind = _said(KINDS[option.kind].words, lang)
    low, high = option.low, option.high
    if low is not None and high is not None:
        return Message(_RANGE, {"kind": kind, "low": _written(low),
                                "high": _written(high)}).shown(lang)
    if low is not None:
        return Message(_AT_LEAST, {"kind": kind, "low": _written(low)}).shown(lang)
    if high is not None:
        return Message(_AT_MOST, {"kind": kind, "high": _written(high)}).shown(lang)
    return kind


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(options: Options, lang: str) -> str:
    """The Markdown table of a group's keys in `lang`."""
    lines = ["| " + " | ".join(HEAD[lang]) + " |", "|---|---|---|---|"]
    for option in options:
        lines.append("| " + " | ".join(_cell(c) for c in (
            f"`{option.key}`", _value(option, lang), _default(option, lang),
            option.words(lang))) + " |")
    return "\n".join(lines) + "\n"


def listed(name: str, lang: str) -> str:
    if name != "element-defaults":
        raise KeyError(name)
    return ", ".join(f"`{k}`" for k in default_keys()) + "\n"


def filled(text: str, lang: str) -> str:
    """A page's text with each marked section made from the declarations."""
    known = groups()

    def section(m: re.Match) -> str:
        kind, name = m[2], m[3]
        body = listed(name, lang) if kind == "options-list" else \
            "\n" + table(known[name], lang) + "\n"
        return m[1] + body + m[5]
    return _SECTION.sub(section, text)


def pages(docs: Path = DOCS) -> list[tuple[Path, str]]:
    """Every docs page with a marked section, and its language."""
    found = [(p, "en") for p in sorted(docs.glob("*.md"))] + \
        [(p, "ja") for p in sorted((docs / "ja").glob("*.md"))]
    return [(p, lang) for p, lang in found if _SECTION.search(p.read_text("utf-8"))]


def stale(docs: Path = DOCS) -> list[Path]:
    """The pages whose marked sections are not what the declarations make."""
    return [p for p, lang in pages(docs) if filled(p.read_text("utf-8"), lang) !=
            p.read_text("utf-8")]


def main(argv: list[str] | None = None) -> int:
    """Write the tables into the pages (`--check`: only say which are stale)."""
    args = sys.argv[1:] if argv is None else argv
    if "--check" in args:
        old = stale()
        for page in old:
            print(f"{page}: its generated tables are stale (make docs)")
        return 1 if old else 0
    for page, lang in pages():
        text = page.read_text("utf-8")
        new = filled(text, lang)
        if new != text:
            page.write_text(new, "utf-8")
            print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
