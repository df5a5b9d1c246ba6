"""The language cardgen writes in: English, or Japanese.

What cardgen writes for people (messages, the print guide, the preview page, the
comments of `cardgen new`) is written in English in the code, marked for translation:

    report.error(_("card '{card}': {field} is TBD (draft)", card=card.id, field=name), ...)

`_` returns a `Message`: a str holding the English text (so that it is compared, sorted
and stored as before), which also keeps its English template and its values. Where the
message is shown, `shown()` gives it in the language of the moment, from the catalogue
generator/locale/<lang>/LC_MESSAGES/cardgen.po (gettext's format: Babel extracts the
templates from the code with `make messages`; tests/test_i18n.py fails on a template the
catalogue does not translate). Values that are Messages themselves are shown in the
same language; other values as they are (a game's own words are never translated).

The language, one rule for every command (`language()`): `--lang` on the command line;
else the user's locale where it is a language with a catalogue (LC_ALL, LC_MESSAGES or
LANG: ja_JP.UTF-8); else the game's `lang:`, read from its game.yaml's own line
(`declared`), so that it holds while a file of the game does not load; else English. A
command over several games says what concerns one game in that game's language, and what
concerns the run in the language the games share (`shared`), English where they differ.
"""

from __future__ import annotations

import contextlib
import os
import re
import string
import unicodedata
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Iterator

LANGS = ("en", "ja")  # English is the code's own; the others have a catalogue
DEFAULT = "en"
LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "cardgen"

_asked: ContextVar[str | None] = ContextVar("cardgen_lang_asked", default=None)  # --lang
_game: ContextVar[str | None] = ContextVar("cardgen_lang_game", default=None)  # lang: of a game
_PLACE = re.compile(r"\{(\w+)[^{}]*\}")
_printed: ContextVar[str | None] = ContextVar("cardgen_lang_printed", default=None)


def from_environment(environ=None) -> str | None:
    """The language of the user's locale, as gettext reads it (the first of LC_ALL,
    LC_MESSAGES and LANG that is set): "ja" for ja_JP.UTF-8, None for a language cardgen
    has no catalogue for."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            code = value.split(".")[0].split("_")[0].split("@")[0].lower()
            return code if code in LANGS else None
    return None


_DECLARED = re.compile(r"""^lang:[ \t]*(["']?)([a-z]{2})\1[ \t]*(?:#.*)?$""", re.M)
_DECLARED_BYTES = 1 << 20  # a game.yaml is read for its lang: line up to this far


def declared(game_yaml: Path) -> str | None:
    """The language a game.yaml declares (`lang: ja` at the top level), read from its line,
    not from its parsed YAML: it holds while the file, or another file of the game, has a
    mistake. None where it declares none cardgen speaks, or cannot be read."""
    try:
        with open(game_yaml, "rb") as f:
            text = f.read(_DECLARED_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    found = _DECLARED.search(text)
    return found[2] if found and found[2] in LANGS else None


def shared(langs) -> str | None:
    """The language several games share (their `declared` ones), None where they differ or
    one declares none: what a command over them says about the whole run is in it."""
    found = set(langs)
    return found.pop() if len(found) == 1 else None


def asked() -> str | None:
    """The language the command line asked for (--lang), if it did: what a thread of its
    own (the preview server's builds) speaks in, as the command does."""
    return _asked.get()


def language() -> str:
    """The language of the moment."""
    printed = _printed.get()
    if printed:  # what a PDF prints: the game's language, whoever builds it
        return printed
    asked = _asked.get()
    if asked:
        return asked
    local = from_environment()
    if local and local != DEFAULT:  # an English or C locale is no choice: the game's decides
        return local
    game = _game.get()
    return game if game in LANGS else DEFAULT


@contextlib.contextmanager
def speaking(asked: str | None = None, game: str | None = None) -> Iterator[None]:
    """Within: `asked` (the command line's --lang) or, where it is None, the one that is
    asked already; `game`: the language the game declares."""
    tokens = [_game.set(game)] if game is not None else []
    asked_token = _asked.set(asked) if asked else None
    try:
        yield
    finally:
        if asked_token is not None:
            _asked.reset(asked_token)
        for token in tokens:
            _game.reset(token)


@contextlib.contextmanager
def printing(lang: str) -> Iterator[None]:
    """Within: the words cardgen prints on a page (the stats PDF's) in `lang`, the game's
    language (Game.lang), whatever the command line or the locale asks for: a PDF is the
    same whoever builds it, and is set in the game's fonts, which are the game's language's."""
    token = _printed.set(lang if lang in LANGS else DEFAULT)
    try:
        yield
    finally:
        _printed.reset(token)


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """The translations of a language: English template -> its translation (an empty
    mapping for English)."""
    if lang == DEFAULT:
        return {}
    from babel.messages.pofile import read_po
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        read = read_po(f, locale=lang)
    found: dict[str, str] = {}
    for m in read:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):  # singular and plural: Japanese says both alike
            first = m.string[0] if isinstance(m.string, tuple) and m.string else m.string
            if isinstance(first, str) and first:
                for english in m.id:
                    found[english] = first
        elif isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            found[m.id] = m.string
    return found


def _show(value, lang: str):
    if isinstance(value, BaseException):  # an error raised with a Message says it
        value = said(value)
    return value.shown(lang) if isinstance(value, Message) else value


def said(exc: BaseException):
    """What an exception says: the Message it was raised with (so that it is shown in the
    language it is shown in), else its text."""
    args = exc.args
    if len(args) == 1 and isinstance(args[0], Message):
        return args[0]
    return str(exc)


_FORMATTER = string.Formatter()
_CLOSING, _OPENING = tuple("」』）】"), tuple("「『（【")


def _filled(template: str, values: dict) -> str:
    """A translation filled with its values. A space the translation puts between a value
    and a Japanese word goes where the value is set off by its own brackets: 「three」と, not
    「three」 と (a Japanese bracket carries its own space; the translation cannot know
    whether a value comes quoted)."""
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        if out and out[-1].endswith(_CLOSING) and literal[:1] == " " and literal[1:2] > "\x7f":
            literal = literal[1:]
        out.append(literal)
        if field is None:
            continue
        value = _FORMATTER.convert_field(_FORMATTER.get_field(field, (), values)[0], conversion)
        text = _FORMATTER.format_field(value, spec or "")
        if text.startswith(_OPENING) and literal[-1:] == " " and literal[-2:-1] > "\x7f":
            out[-1] = literal[:-1]
        out.append(text)
    return "".join(out)


class Message(str):
    """A message in English (its str), with what it takes to say it in another language."""

    template: str
    values: dict | None  # None: a word that whoever shows it fills in (N_)

    def __new__(cls, template: str, values: dict | None):
        text = template if values is None else template.format(**values)
        self = super().__new__(cls, text)
        self.template, self.values = template, values
        return self

    def shown(self, lang: str | None = None) -> str:
        lang = lang or language()
        if lang == DEFAULT:
            return str.__str__(self)
        translated = catalogue(lang).get(self.template, self.template)
        if self.values is None:  # a word that whoever shows it fills in (N_)
            return translated
        values = {k: _show(v, lang) for k, v in self.values.items()}
        return _filled(translated, values)

    def __reduce__(self):  # a Message crosses processes as a Message (build workers)
        return Message, (self.template, self.values)


class Joined(Message):
    """Texts joined by `sep`, each shown in the language it is shown in (a diff's causes)."""

    sep: str
    items: list

    def __new__(cls, sep: str, items):
        items = list(items)
        self = str.__new__(cls, sep.join(map(str, items)))
        self.template, self.values, self.sep, self.items = sep, {}, sep, items
        return self

    def shown(self, lang: str | None = None) -> str:
        return self.sep.join(_show(item, lang or language()) for item in self.items)

    def __reduce__(self):
        return Joined, (self.sep, self.items)


class Worded(Message):
    """A text of the schemas (an `x-expected`), its `{word}`s filled from `words` (values.WORDS)
    and its other braces left as written ("{first: ID, last: ID}"); translated whole, then
    filled with the words shown in the same language."""

    _WORD = re.compile(r"\{([a-z-]+)\}")
    values: dict  # the words the template uses, always given

    def __new__(cls, template: str, words: dict):
        used = {m[1]: words[m[1]] for m in cls._WORD.finditer(template) if m[1] in words}
        self = str.__new__(cls, cls._fill(template, used, None))
        self.template, self.values = template, used
        return self

    @classmethod
    def _fill(cls, text: str, words: dict, lang: str | None) -> str:
        def word(m):
            if m[1] not in words:
                return m[0]
            return str(_show(words[m[1]], lang) if lang else words[m[1]])
        return cls._WORD.sub(word, text)

    def shown(self, lang: str | None = None) -> str:
        lang = lang or language()
        if lang == DEFAULT:
            return str.__str__(self)
        return self._fill(catalogue(lang).get(self.template, self.template), self.values, lang)

    def __reduce__(self):
        return Worded, (self.template, self.values)


class Listed(Message):
    """Items as a message lists them: "mm, cm, in or pt" in English, "mm、cm、in、pt" in
    Japanese (the sentence around says whether it means any or all of them)."""

    items: list
    last: str | None

    def __new__(cls, items, last: str | None = "or"):  # None: a, b, c (counts, a list)
        items = list(items)
        english = [str(i) for i in items]
        text = ", ".join(english) if last is None or len(english) < 2 else \
            f"{', '.join(english[:-1])} {last} {english[-1]}"
        self = str.__new__(cls, text)
        self.template, self.values, self.items, self.last = text, {}, items, last
        return self

    def shown(self, lang: str | None = None) -> str:
        lang = lang or language()
        if lang == DEFAULT:
            return str.__str__(self)
        return "、".join(str(_show(item, lang)) for item in self.items)

    def __reduce__(self):
        return Listed, (self.items, self.last)


def named(name: str) -> Message:
    """A name cardgen's own files give a thing (a shipped sheet preset's `name:`), said in
    the language of the moment where the catalogue has it (`extract_names` puts it there),
    as written otherwise (a designer's own preset)."""
    return Message(name, None)


def extract_names(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the `name:` line of cardgen's shipped YAML files
    (babel.cfg: the sheet presets), so that the catalogue translates those names."""
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        if line.startswith("name:"):
            text = line.partition(":")[2].strip()
            yield number, None, text.strip("\"'") if text[:1] in "\"'" else text, []


def _(template: str, **values) -> Message:
    """`template` (English, with {named} values) marked for translation."""
    return Message(template, values)


def N_(template: str) -> Message:
    """`template` marked for translation as it is, its {values} left for whoever shows it
    to fill in (the preview page's script)."""
    return Message(template, None)


def _n(one: str, many: str, n: int, **values) -> Message:
    """`one` or `many` by the count `n` (given to the template as {n}), marked for
    translation: "{n} card" / "{n} cards" (Japanese says both alike: "{n} 枚")."""
    return Message(one if n == 1 else many, {"n": n, **values})


def shown(text) -> str:
    """Any text as the moment's language shows it: a Message translated, a str as it is."""
    return text.shown() if isinstance(text, Message) else str(text)


def columns(text: str) -> int:
    """The columns a terminal gives a text: two for a wide (East Asian) character."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def places(template: str) -> set[str]:
    """The names of the values a template takes: a translation takes the same."""
    return set(_PLACE.findall(template))
