"""The keys a designer may write, each declared once: its kind of value, its default, its
range or choices, its words, and whether a `defaults:` mapping may set it.

A registry's module (a board shape, an element type, the export profile) declares its keys
as `OPTIONS = Options(Option(...), ...)`. From that one declaration come:

- the JSON schema's `properties` for those keys (`Options.schema`), which the registry's
  schema part is made of (and, with it, the schema's messages);
- the values a resolver reads (`values.Reader.option`, `elements.base.Element.option`):
  the default where none is written, the value parsed by its kind's one rule, a value out
  of its range said in one wording (`values.out_of_range`);
- the defaults of the model's dataclasses (`Options.value`; tests/test_options.py checks the
  model's own fields against them);
- the docs tables of the keys, in English and in Japanese (generator/reference.py writes
  them into docs/ between generated markers; `make docs`, and a test that fails on drift).

An option's words (`doc`) are English marked with N_: the catalogue
(generator/locale/ja/LC_MESSAGES/cardgen.po) gives them in Japanese; a plug-in's own option
may give its Japanese words itself (`ja`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .i18n import N_, Message

COMMON = "cardgen:common#/$defs/"


@dataclass(frozen=True)
class Kind:
    """A kind of value: the schema fragment of a value of it, how the docs name it, and
    how a written default is read (None: as written)."""

    schema: dict
    words: Message
    parse: Callable[[Any], Any] | None = None


def _length(value: Any) -> Any:
    from .units import parse_length
    return None if value is None else parse_length(value)


def _pair(value: Any) -> Any:
    from .units import parse_length
    return tuple(parse_length(v) for v in value) if isinstance(value, (list, tuple)) \
        else (parse_length(value), 0.0)


def _color(value: Any) -> Any:
    from .colors import parse_color
    return None if value is None else parse_color(value)


def _flag(value: Any) -> bool:
    from .values import flag
    return flag(value)


def _paper_list(value: Any) -> tuple:
    """Papers: each a name of the PAPER table (as it spells it) or a [width, height] pair
    in points (the schema passed each: a name its format knows, or two lengths)."""
    from .units import paper_name
    return tuple((paper_name(p) or p) if isinstance(p, str) else _pair(p) for p in value)


# The kinds of value an option may be. A card layout's element may also write a template
# over the card where a value stands: its kinds are the `layout-` ones (element.json's defs).
KINDS: dict[str, Kind] = {
    "length": Kind({"$ref": COMMON + "length"}, N_("length"), _length),
    "size": Kind({"$ref": COMMON + "size"}, N_("[width, height]"), _pair),
    "color": Kind({"$ref": COMMON + "color"}, N_("colour"), _color),
    "flag": Kind({"$ref": COMMON + "flag"}, N_("true or false"), _flag),
    "integer": Kind({"type": "integer"}, N_("whole number")),
    "number": Kind({"type": "number"}, N_("number")),
    "choice": Kind({}, N_("one of the choices")),
    "name": Kind({"$ref": COMMON + "id"}, N_("name")),
    "text": Kind({"type": "string"}, N_("text")),
    "file": Kind({"$ref": COMMON + "file"}, N_("file")),
    # (a paper is a name or a [width, height] pair: the format checks names, and only
    # names; the pair's keys apply only to a list)
    "papers": Kind({"type": "array", "minItems": 1, "items": {
        "type": ["string", "array"], "format": "paper", "minItems": 2, "maxItems": 2,
        "items": {"$ref": COMMON + "length"},
        "x-expected": "a paper ({papers}) or a [width, height] pair of lengths"}},
        N_("list of papers (names or [width, height] pairs)"), _paper_list),
    "list": Kind({"type": "array"}, N_("list")),
    "layout-length": Kind({"$ref": "#/$defs/length"}, N_("length, % of the card, or template")),
    "layout-color": Kind({"$ref": "#/$defs/color"}, N_("colour or template")),
    "layout-flag": Kind({"type": ["boolean", "string", "integer"], "format": "layout-flag"},
                        N_("true or false, or template")),
    "layout-number": Kind({"type": ["number", "string"]}, N_("number or template")),
    "layout-integer": Kind({"type": ["integer", "string"]}, N_("whole number or template")),
    "layout-boolean": Kind({"type": ["boolean", "string"]}, N_("true or false, or template")),
    "layout-text": Kind({"type": ["string", "number"]}, N_("text or number")),
    "points": Kind({}, N_("list of [x, y] points, or template")),
    "layout-offset": Kind({"type": "array", "minItems": 2, "maxItems": 2,
                           "items": {"$ref": "#/$defs/length"}},
                          N_("[across, down]: lengths, % of the card, or templates")),
    "repeat-over": Kind({}, N_("whole number, list, or template")),
    "page": Kind({}, N_("paper or [width, height]")),
    "paper": Kind({"type": "string", "format": "paper"}, N_("paper")),
    # What game.yaml's `stats:` declares (declared.py): lists of mappings, expressions.
    "entries": Kind({"type": "array"}, N_("list of mappings")),
    "mapping": Kind({"type": "object"}, N_("mapping")),
    "expression": Kind({"type": "string", "minLength": 1}, N_("expression")),
    "loop": Kind({"$ref": "cardgen:checks#/$defs/check/properties/for"},
                 N_("path over the data, as a check's for:")),
    "integers": Kind({"type": "array", "items": {"type": "integer"}},
                     N_("list of whole numbers")),
    "names": Kind({"type": "array", "uniqueItems": True, "items": {"$ref": COMMON + "id"}},
                  N_("list of names")),
    "fields": Kind({"type": "array", "items": {"type": "string", "minLength": 1}},
                   N_("list of fields")),
    "count-or-expression": Kind({}, N_("whole number or expression")),
    "dice": Kind({}, N_("dice such as 2d6, or a number of dice with faces:")),
    "faces": Kind({}, N_("list of whole numbers, or expression")),
    # game.yaml's own keys (declared.GAME).
    "text-or-number": Kind({"type": ["string", "number"]}, N_("text or number")),
    "files": Kind({"type": "object", "additionalProperties": {"$ref": COMMON + "file"},
                   "propertyNames": {"$ref": COMMON + "id"}}, N_("mapping of names to files")),
    "palette": Kind({"type": "object", "propertyNames": {"$ref": COMMON + "id"},
                     "additionalProperties": {"$ref": COMMON + "color"}},
                    N_("mapping of names to colours")),
    "families": Kind({"$ref": "cardgen:fonts#/$defs/families"}, N_("mapping of font families")),
    "element-defaults": Kind({"$ref": COMMON + "element_defaults"},
                             N_("mapping of element keys")),
}
# The kinds whose range is how many items a list holds.
LISTS = ("entries", "integers", "names", "fields")


@dataclass(frozen=True)
class Option:
    """One key a designer may write."""

    key: str
    kind: str  # a key of KINDS
    doc: str  # what it does, in English, marked with N_
    default: Any = None  # as a designer writes it ("3mm"); None: none
    low: float | str | None = None  # its range, both ends included (a length as written)
    high: float | str | None = None
    choices: tuple = ()
    defaults: bool = False  # whether a `defaults:` mapping may set it (element styles)
    required: bool = False  # whether every such mapping must write it
    schema: dict = field(default_factory=dict)  # schema words beyond the kind's (x-expected)
    ja: str | None = None  # its words in Japanese, where the catalogue has none (a plug-in's)
    shown_default: str | None = None  # N_: the default in words, where it is not one value
    entries: "Options | None" = None  # kind "entries": the keys of each of its mappings

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option '{self.key}': no kind '{self.kind}' (options.KINDS)")
        if bool(self.choices) != (self.kind == "choice") and self.kind != "list":
            raise ValueError(f"option '{self.key}': choices go with kind 'choice'")
        if (self.entries is not None) != (self.kind == "entries"):
            raise ValueError(f"option '{self.key}': entries go with kind 'entries'")

    def fragment(self) -> dict:
        """The option's JSON schema."""
        if self.kind in LISTS:  # its range: how many items, said after its type
            kind = KINDS[self.kind].schema
            out = {"type": kind["type"],
                   **({"minItems": self.low} if self.low is not None else {}),
                   **({"maxItems": self.high} if self.high is not None else {}),
                   **{k: v for k, v in kind.items() if k != "type"}}
            if self.entries is not None:
                out["items"] = self.entries.mapping()
            return {**out, **self.schema}
        out = dict(KINDS[self.kind].schema)
        if self.choices:
            out["enum"] = list(self.choices)
        numeric = self.kind in ("integer", "number", "layout-number", "layout-integer")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option '{self.key}': a choice needs its choices")
        if numeric and self.low is not None:
            out["minimum"] = self.low
        if numeric and self.high is not None:
            out["maximum"] = self.high
        return {**out, **self.schema}

    def value(self) -> Any:
        """The default as the model holds it (a length in points, a colour's channels)."""
        parse = KINDS[self.kind].parse
        return self.default if parse is None or self.default is None else parse(self.default)

    def limits(self) -> tuple[Any, Any]:
        """(low, high) as the model holds them (a length's in points)."""
        parse = KINDS[self.kind].parse

        def one(bound: Any) -> Any:
            return parse(bound) if isinstance(bound, str) and parse is not None else bound
        return one(self.low), one(self.high)

    def words(self, lang: str) -> str:
        if lang == "ja" and self.ja:
            return self.ja
        return self.doc.shown(lang) if isinstance(self.doc, Message) else str(self.doc)


class Options:
    """The keys of one registry's module (or of one kind of file), in the order the docs
    list them."""

    def __init__(self, *options: Option, schema: dict | None = None):
        self.options = {o.key: o for o in options}
        if len(self.options) != len(options):
            raise ValueError("an option is declared twice")
        self.extra = schema or {}  # schema words of their mapping beyond its keys (oneOf)

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options.values())

    def __getitem__(self, key: str) -> Option:
        return self.options[key]

    def __contains__(self, key: object) -> bool:
        return key in self.options

    def __len__(self) -> int:
        return len(self.options)

    def __add__(self, other: "Options") -> "Options":
        return Options(*self, *other)

    def value(self, key: str) -> Any:
        """The default of `key` as the model holds it."""
        return self.options[key].value()

    def limits(self, key: str) -> tuple[Any, Any]:
        """The range of `key` as the model holds it."""
        return self.options[key].limits()

    def properties(self) -> dict:
        return {o.key: o.fragment() for o in self}

    def schema(self) -> dict:
        """The schema part of these keys: their `properties`, and those `required`."""
        required = [o.key for o in self if o.required]
        return {"properties": self.properties(), **({"required": required} if required else {})}

    def mapping(self) -> dict:
        """The schema of a mapping of these keys and no others (an entry of a list)."""
        required = [o.key for o in self if o.required]
        return {"type": "object", **({"required": required} if required else {}),
                "additionalProperties": False, "properties": self.properties(), **self.extra}

    def written(self, data: dict) -> dict:
        """A mapping as written (its schema checked), each declared key's default where
        none is written: what a resolver reads through the declarations."""
        return {o.key: data[o.key] if o.key in data else o.value() for o in self}

    def default_keys(self) -> list[str]:
        """The keys a `defaults:` mapping may set."""
        return [o.key for o in self if o.defaults]


def schema_of(module) -> dict:
    """A registry module's own schema part: its OPTIONS' (and its SCHEMA's words beyond
    them, for a module that declares keys no option kind says)."""
    declared = getattr(module, "OPTIONS", None)
    written = getattr(module, "SCHEMA", None) or {}
    if declared is None:
        return written
    made = declared.schema()
    return {**written, **made, "properties": {**written.get("properties", {}),
                                              **made["properties"]}}


def options_of(module) -> Options:
    return getattr(module, "OPTIONS", None) or Options()
