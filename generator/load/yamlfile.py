"""Read a YAML file into plain Python values, remembering where every value stood.

PyYAML's composer gives a node tree with marks; we convert it ourselves so that
duplicate keys, recursive or exploding aliases and non-string keys become located
problems instead of silent overwrites or tracebacks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..model import SourceMap
from ..problems import Location, Report

# A document may expand to at most this many values, and aliases (a reused anchor)
# to at most MAX_ALIAS_VALUES of them: a "billion laughs" alias bomb stops at once.
MAX_VALUES = 5_000_000
MAX_ALIAS_VALUES = 100_000
MAX_BYTES = 64 * 1024 * 1024  # every data file, in any format (CSV and XLSX too)
MAX_DEPTH = 100  # lists and mappings nested deeper than this are refused, located

# Plain scalars are read as YAML 1.2's core schema reads them, not as YAML 1.1 (PyYAML's
# default): only true/false are booleans (`no`, `yes`, `on` and `off` stay text: Norway's
# code is NO), integers are decimal without leading zeros (`0123` stays text, not octal
# 83; `1:30` stays text, not 90 in base 60; `0x1f` and `1_000` stay text), and a float
# is written with a dot or an exponent.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE, _FALSE = ("true", "True", "TRUE"), ("false", "False", "FALSE")
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+")
_SPECIAL = {".inf": math.inf, ".Inf": math.inf, ".INF": math.inf, "+.inf": math.inf,
            "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf,
            ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan}

Path_ = tuple  # a key path into a document: ("cards", 3, "copies")
# libyaml's parser when PyYAML has it (its wheels do): same nodes and marks, much faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"


@dataclass
class Document:
    """A parsed YAML file: its data, and the location of every value and key."""

    file: str  # as shown to the user
    data: Any
    value_locs: dict[Path_, Location] = field(default_factory=dict)
    key_locs: dict[Path_, Location] = field(default_factory=dict)

    @property
    def source(self) -> SourceMap:
        return SourceMap(self.file, self.value_locs, self.key_locs)

    def locate(self, path: Path_ = (), key: bool = False) -> Location:
        """The location of the value (or key) at `path`, or of its nearest parent."""
        return self.source.locate(path, key)


class _Converter:
    def __init__(self, file: str, report: Report, typed_keys: bool = False):
        self.file = file
        self.report = report
        self.typed_keys = typed_keys  # data tables: a key 1 stays the integer 1
        self.too_deep = False
        self.count = 0
        self.active: set[int] = set()
        self.doc = Document(file, None)
        self.too_big = False
        self.expanded: set[int] = set()  # collection nodes converted once already
        self.alias_depth = 0  # > 0 while converting a node a second time (through an alias)
        self.alias_values = 0

    def loc(self, node: yaml.Node) -> Location:
        return Location(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def convert(self, node: yaml.Node, path: Path_) -> Any:
        self.count += 1
        self.alias_values += 1 if self.alias_depth else 0
        if self.count > MAX_VALUES or self.alias_values > MAX_ALIAS_VALUES:
            if not self.too_big:
                self.too_big = True
                what = (f"aliases expand to more than {MAX_ALIAS_VALUES:,} values"
                        if self.alias_values > MAX_ALIAS_VALUES else
                        f"the document expands to more than {MAX_VALUES:,} values")
                self.report.error(f"{what}; is an anchor repeated many times?", self.loc(node),
                                  "yaml")
            return None
        locs = self.doc.value_locs
        if path not in locs:  # (a value reached again through an alias keeps its first place)
            mark = node.start_mark
            locs[path] = Location(self.file, mark.line + 1, mark.column + 1)
        if node.__class__ is yaml.ScalarNode:
            return node.value if node.tag == _STR else self.scalar(node)
        if len(path) >= MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.report.error(f"lists and mappings are nested more than {MAX_DEPTH} deep",
                                  self.loc(node), "yaml")
            return None
        if id(node) in self.active:
            self.report.error("an alias refers to itself (recursive alias)", self.loc(node), "yaml")
            return None
        self.active.add(id(node))
        again = id(node) in self.expanded
        self.expanded.add(id(node))
        self.alias_depth += again
        try:
            if self.too_big:
                return None
            if isinstance(node, yaml.SequenceNode):
                return [self.convert(item, path + (i,)) for i, item in enumerate(node.value)]
            return self.mapping(node, path)
        finally:
            self.active.discard(id(node))
            self.alias_depth -= again

    def scalar(self, node: yaml.ScalarNode) -> Any:
        """A plain scalar that YAML 1.1 took for a number, boolean or null, read by YAML
        1.2's rules instead. Strings, timestamps and anything else stay text: a date in a
        card is words."""
        return scalar_value(node.value) if not node.style else node.value

    def mapping(self, node: yaml.MappingNode, path: Path_) -> dict:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.report.error("merge keys ('<<') are not supported", self.loc(key_node), "yaml")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.report.error("a key must be a plain value, not a list or mapping",
                                  self.loc(key_node), "yaml")
                continue
            key = key_node.value
            if self.typed_keys and key_node.tag != _STR and not key_node.style:
                key = scalar_value(key)
            if key in result:
                first = self.doc.key_locs[path + (key,)]
                owner = f" in '{result['id']}'" if isinstance(result.get("id"), str) else ""
                self.report.error(
                    f"duplicate key '{key}'{owner} (first defined at line {first.line})",
                    self.loc(key_node),
                    "yaml",
                )
                continue
            key_path = path + (key,)
            self.doc.key_locs[key_path] = self.loc(key_node)
            result[key] = self.convert(value_node, key_path)
        return result


def scalar_value(text: str) -> Any:
    """A plain scalar by YAML 1.2's core schema (see _INT and _FLOAT)."""
    if _NULL.fullmatch(text):
        return None
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return _SPECIAL.get(text, text)


def location_at(file: str, text: str | bytes, index: int) -> Location:
    """Where `text[index]` stands in `file`: a character found by searching the whole text."""
    newline = "\n" if isinstance(text, str) else b"\n"
    before = text[:index]
    return Location(file, before.count(newline) + 1, index - before.rfind(newline))


def too_large(path: Path, display: str, report: Report, limit: int = MAX_BYTES) -> bool:
    """True, and reported, when a data file (in any format) is larger than `limit`; an
    unreadable file raises OSError for the caller to report."""
    size = path.stat().st_size
    if size > limit:
        report.error(f"the file is too large ({size:,} bytes; at most {limit:,})",
                     Location(display), "io")
    return size > limit


def _decode(raw: bytes, file: str, report: Report) -> str | None:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        report.error(
            f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
            location_at(file, raw, exc.start),
            "encoding",
        )
        return None


def parse_yaml(text: str, file: str, report: Report, typed_keys: bool = False) -> Document | None:
    """Parse YAML text; problems go to `report` and the result is None on failure."""
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ):
        report.error("the file is empty", Location(file, 1, 1), "yaml")
        return None
    bad = _CONTROL.search(text)
    if bad:  # (PyYAML would say so at 1:1, with its own wording)
        report.error(f"the file holds a control character (U+{ord(bad.group()):04X}) that YAML "
                     "does not allow; remove it", location_at(file, text, bad.start()), "yaml")
        return None
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "invalid YAML"
        if "tab" in problem.lower() or "\\t" in problem or "\t" in problem:
            problem = "a tab character cannot be used for indentation; use spaces"
        elif exc.context:
            where = exc.context_mark
            started = f" that starts at {where.line + 1}:{where.column + 1}" if where else ""
            problem = f"{problem} ({exc.context}{started})"
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        report.error(f"YAML syntax: {problem}", Location(file, line, col), "yaml")
        return None
    except yaml.YAMLError as exc:  # composer errors without marks
        report.error(f"YAML syntax: {exc}", Location(file, 1, 1), "yaml")
        return None
    conv = _Converter(file, report, typed_keys)
    conv.doc.data = conv.convert(node, ())
    if conv.too_big or conv.too_deep:
        return None
    return conv.doc


def load_yaml(path: Path, display: str, report: Report, typed_keys: bool = False) -> Document | None:
    """Read and parse a YAML file. `display` is the name shown in messages."""
    try:
        if too_large(path, display, report):
            return None
        raw = path.read_bytes()
    except FileNotFoundError:
        report.error("the file does not exist", Location(display), "io")
        return None
    except OSError as exc:
        report.error(f"cannot read the file: {exc.strerror}", Location(display), "io")
        return None
    text = _decode(raw, display, report)
    if text is None:
        return None
    return parse_yaml(text, display, report, typed_keys)
