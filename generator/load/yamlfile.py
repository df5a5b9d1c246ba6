"""Read a YAML file into plain Python values, remembering where every value stood.

libyaml's parser gives events with marks; we build the values from them ourselves, so
that duplicate keys, recursive or exploding aliases and non-string keys become located
problems instead of silent overwrites or tracebacks, and no node tree is built only to be
thrown away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

import yaml

from ..model import SourceMap
from ..problems import Location, Report, packed
from ..values import MAX_DIGITS, TOO_MANY_DIGITS, too_many_digits, unprintable
from ..i18n import _
from .yamlscalars import STR, infinite, resolved, scalar, scalar_value
from .yamlwords import indenting_tab, syntax_message, unclosed_quote

# A document may expand to at most this many values, and aliases (a reused anchor)
# to at most MAX_ALIAS_VALUES of them: a "billion laughs" alias bomb stops at once.
MAX_VALUES = 5_000_000
MAX_ALIAS_VALUES = 100_000
MAX_BYTES = 64 * 1024 * 1024  # every data file, in any format (CSV and XLSX too)
MAX_DEPTH = 100  # lists and mappings nested deeper than this are refused, located

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")

Path_ = tuple  # a key path into a document: ("cards", 3, "copies")
# libyaml's parser when PyYAML has it (its wheels do): same nodes and marks, much faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Limit:
    """A list of a document that is read no further than `most` items: the value of a key
    whose reader takes at most that many (a board's routes). A longer list is said by
    `say(owner)` at the list (`owner`: the id of the mapping that holds it, if it has one),
    and the document is read no further: a million routes stop at the 5,001st, not after
    the whole file has been read and built."""

    most: int
    say: Callable[[Any], str]


ANY = None  # in a Limit's path: any item of a list ("boards", ANY, "routes")


class _Stopped(Exception):
    """A Limit was passed: the document is read no further (reported)."""


@dataclass
class Document:
    """A parsed YAML file: its data, and the location of every value and key."""

    file: str  # as shown to the user
    data: Any
    value_locs: dict[Path_, int | Location] = field(default_factory=dict)  # packed: SourceMap
    key_locs: dict[Path_, int | Location] = field(default_factory=dict)

    @cached_property
    def source(self) -> SourceMap:
        """The document's locations, as the model keeps them: one SourceMap, which every
        card of the file shares (it reads the same tables)."""
        return SourceMap(self.file, self.value_locs, self.key_locs)

    def locate(self, path: Path_ = (), key: bool = False) -> Location:
        """The location of the value (or key) at `path`, or of its nearest parent."""
        return self.source.locate(path, key)


class _Converter:
    """Builds the data and its locations straight from libyaml's events, without PyYAML's
    node tree (which, for a deck of 10,000 cards, takes a quarter of a second and 60 MB to
    build and throw away). An alias is converted again where it is used, from the events
    its anchor recorded, as the node would have been; values keep the place where they
    were written."""

    def __init__(self, file: str, report: Report, typed_keys: bool = False,
                 limits: dict[Path_, Limit] | None = None):
        self.file = file
        self.limits = limits or {}
        self.limit_keys = frozenset(path[-1] for path in self.limits if path)
        self.pending: dict[Path_, tuple[Limit, Any]] = {}  # limited lists about to be read
        self.report = report
        self.typed_keys = typed_keys  # data tables: a key 1 stays the integer 1
        self.too_deep = False
        self.count = 0
        self.doc = Document(file, None)
        self.too_big = False
        self.alias_depth = 0  # > 0 while converting an anchor's value again (through an alias)
        self.alias_values = 0
        self.anchors: dict[str, list] = {}  # anchor -> its value's events (a scalar: one)
        self.recording: list[list] = []  # the events of each anchored collection still open
        self.open: dict[str, yaml.Event] = {}  # anchors whose value is being converted -> its event
        self.replays: list = []  # recorded events being converted again, innermost last
        self.parsed: Callable[[], Any] = lambda: None  # the parser's next event
        # the next event: the parser's own, until an anchor is recorded or an alias replayed
        self.next: Callable[[], Any] = self.kept_next
        self.keys: dict[str, str] = {}  # each key's text once: a deck repeats its field names
        # each top-level key's block list: (line, column, values counted before) of each item,
        # then of its end (what reading one item again needs: _patched)
        self.spans: dict[str, list[tuple[int, int, int]]] = {}
        self.aliased = False  # an alias was used

    def loc(self, event) -> Location:
        return Location(self.file, event.start_mark.line + 1, event.start_mark.column + 1)

    def place(self, event) -> int | Location:
        """The event's place, as the location tables keep it (packed)."""
        mark = event.start_mark
        return packed(self.file, mark.line + 1, mark.column + 1)

    def kept_next(self):
        """The next event, where anchors are recorded and aliases replayed."""
        while self.replays:
            event = next(self.replays[-1], None)
            if event is not None:
                return event
            self.replays.pop()
        event = self.parsed()
        if event is None:  # (past the stream's end: never, as libyaml ends it)
            raise yaml.YAMLError("the stream ended early")
        for events in self.recording:
            events.append(event)
        return event

    def run(self, parsed: Callable[[], Any]) -> Any:
        """The single document of the stream of events that `parsed` gives one by one."""
        self.parsed = self.next = parsed
        self.next()  # StreamStart
        if isinstance(self.next(), yaml.StreamEndEvent):  # (or DocumentStart)
            return None
        first = self.next()
        if () in self.limits:  # (the document is the list)
            self.pending[()] = (self.limits[()], None)
        data = self.value(first, ())
        self.pending.clear()
        self.next()  # DocumentEnd
        event = self.next()
        if not isinstance(event, yaml.StreamEndEvent):
            raise yaml.composer.ComposerError("expected a single document in the stream",
                                              first.start_mark, "but found another document",
                                              event.start_mark)
        return data

    def start_anchor(self, event) -> None:
        """A value with an anchor begins: a scalar is recorded at once, a collection's
        events from here to its end (events read again for an alias are not recorded)."""
        if event.anchor is None or self.replays:
            return
        if event.anchor in self.anchors or event.anchor in self.open:
            first = self.open.get(event.anchor) or self.anchors[event.anchor][0]
            raise yaml.composer.ComposerError(
                "found duplicate anchor; first occurrence",
                first.start_mark,  # type: ignore[arg-type]  # C parser's Mark, unlisted by the stub
                "second occurrence", event.start_mark)
        if event.__class__ is yaml.ScalarEvent:
            self.anchors[event.anchor] = [event]
        else:
            self.recording.append([event])
            self.next = self.kept_next

    def end_anchor(self, event) -> None:
        """After the value that `event` began: its anchor, if it has one, is closed."""
        if self.recording and self.recording[-1][0] is event:
            self.anchors[event.anchor] = self.recording.pop()

    def skip(self, event) -> None:
        """Pass over the value that begins with `event`, converting nothing."""
        if event.__class__ is yaml.AliasEvent:
            return
        self.start_anchor(event)
        self.rest(event)

    def rest(self, event) -> None:
        """Pass over the rest of the value that `event` began."""
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth = 1
            while depth:
                inner = self.next()
                if inner is None:  # (past the stream's end: never, as libyaml ends it)
                    raise yaml.YAMLError("the stream ended early")
                if isinstance(inner, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                    depth += 1
                elif isinstance(inner, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                    depth -= 1
        self.end_anchor(event)

    def counted(self, event) -> bool:
        """One more value: False (reported once) past the document's budgets."""
        self.count += 1
        self.alias_values += 1 if self.alias_depth else 0
        return self.within(event)

    def within(self, event) -> bool:
        """True while the values counted are within the document's budgets; past them, False
        (and reported once)."""
        if self.count > MAX_VALUES or self.alias_values > MAX_ALIAS_VALUES:
            if not self.too_big:
                self.too_big = True
                what = (_("aliases expand to more than {MAX_ALIAS_VALUES:,} values",
                          MAX_ALIAS_VALUES=MAX_ALIAS_VALUES)
                        if self.alias_values > MAX_ALIAS_VALUES else
                        _("the document expands to more than {MAX_VALUES:,} values",
                          MAX_VALUES=MAX_VALUES))
                self.report.error(_("{what}; is an anchor repeated many times?",
                                    what=what), self.loc(event),
                                  "yaml")
            return False
        return True

    def deep(self, event, path: Path_) -> bool:
        if len(path) >= MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.report.error(_("lists and mappings are nested more than {MAX_DEPTH} deep",
                                    MAX_DEPTH=MAX_DEPTH),
                                  self.loc(event), "yaml")
            return True
        return False

    def value(self, event, path: Path_) -> Any:
        kind = event.__class__
        if kind is yaml.AliasEvent:
            return self.alias(event, path)
        if event.anchor is not None:
            self.start_anchor(event)
        count = self.count = self.count + 1
        if self.alias_depth:
            self.alias_values += 1
        if (count > MAX_VALUES or self.alias_values > MAX_ALIAS_VALUES) and \
                not self.within(event):
            self.rest(event)
            return None
        locs = self.doc.value_locs
        if path not in locs:
            mark = event.start_mark
            locs[path] = packed(self.file, mark.line + 1, mark.column + 1)
        if kind is yaml.ScalarEvent:
            value = event.value if event.style else scalar(event)  # (quoted: text, as ever)
            if not self.alias_depth and infinite(event):
                key = next((p for p in reversed(path) if isinstance(p, str)), None)
                self.report.error(_("{value}{event_value} is a number too large to be finite; "
                                    "numbers in cardgen are finite",
                                        value=key + ': ' if key else '', event_value=event.value),
                                  self.loc(event), "schema")
                return None
            if value.__class__ is str and not self.alias_depth:
                if not value.isprintable():  # (the usual text is: nothing to look at)
                    self.text(value, event, path)
                if not event.style and len(value) > MAX_DIGITS and too_many_digits(value):
                    key = next((p for p in reversed(path) if isinstance(p, str)), None)
                    self.report.error(_("{value}{n_lstrip:,} digits: {TOO_MANY_DIGITS}",
                                        value=key + ': ' if key else '',
                                        n_lstrip=len(value.lstrip('+-')),
                                        TOO_MANY_DIGITS=TOO_MANY_DIGITS), self.loc(event), "schema")
                    return None
            return value
        if self.deep(event, path):
            self.rest(event)
            return None
        anchor = event.anchor
        if anchor is not None:
            self.open.setdefault(anchor, event)
        try:
            result = self.collection(event, path)
        finally:
            if anchor is not None and self.open.get(anchor) is event:
                del self.open[anchor]
        self.end_anchor(event)
        return result

    def text(self, value: str, event, path: Path_) -> None:
        """A text value holds only text (values.unprintable), however it was written."""
        bad = unprintable(value)
        if bad is not None:
            key = next((p for p in reversed(path) if isinstance(p, str)), None)
            escaped = _(" (written as an escape in quotes)") if event.style == '"' else ""
            self.report.error(_("{value}the text holds {bad}; remove it{escaped}",
                                value=key + ': ' if key else '', bad=bad[1],
                                escaped=escaped), self.loc(event), "text")

    def collection(self, event, path: Path_):
        if isinstance(event, yaml.SequenceStartEvent):
            limited = self.pending.pop(path, None) if self.pending else None
            result: list = []
            spans: list | None = [] if len(path) == 1 and isinstance(path[0], str) and \
                not self.alias_depth and not event.flow_style else None
            item = self.next()
            while item.__class__ is not yaml.SequenceEndEvent:
                if limited is not None and len(result) == limited[0].most:
                    self.report.error(limited[0].say(limited[1]), self.loc(event), "schema")
                    raise _Stopped
                if spans is not None:
                    mark = item.start_mark
                    spans.append((mark.line, mark.column, self.count))
                result.append(self.value(item, path + (len(result),)))
                item = self.next()
            if spans is not None:
                end: Any = item.start_mark
                spans.append((end.line, end.column, self.count))
                self.spans[path[0]] = spans
            return result
        return self.mapping(path)

    def limit(self, path: Path_) -> Limit | None:
        """The Limit of the list at `path`, if it has one."""
        for pattern, limit in self.limits.items():
            if len(pattern) == len(path) and all(
                    p is ANY and isinstance(q, int) or p == q for p, q in zip(pattern, path)):
                return limit
        return None

    def alias(self, event, path: Path_) -> Any:
        """The anchored value converted again at `path`, as its node would be."""
        self.aliased = True
        recursive = event.anchor in self.open
        events = [] if recursive else self.anchors.get(event.anchor)
        if events is None:
            raise yaml.composer.ComposerError(None, None, "found undefined alias",
                                              event.start_mark)
        first = self.open[event.anchor] if recursive else events[0]
        if not self.counted(first):
            return None
        if path not in self.doc.value_locs:  # where the value was written
            self.doc.value_locs[path] = self.place(first)
        if first.__class__ is yaml.ScalarEvent:
            return scalar(first)
        if self.deep(first, path):
            return None
        if recursive:
            self.report.error(_("an alias refers to itself (recursive alias)"), self.loc(first),
                              "yaml")
            return None
        self.replays.append(iter(events[1:]))
        self.next = self.kept_next
        depth = len(self.replays)
        self.alias_depth += 1
        self.open[event.anchor] = first
        try:
            return self.collection(first, path)
        finally:
            self.alias_depth -= 1
            del self.open[event.anchor]
            del self.replays[depth - 1:]  # (read to its end, or left by an error)

    def key(self, event):
        """(where the key stands, its scalar event or None for a list or mapping): an alias
        key is its anchor's value."""
        if event.__class__ is yaml.AliasEvent:
            self.aliased = True
            first = self.open.get(event.anchor)
            if first is None:
                events = self.anchors.get(event.anchor)
                if events is None:
                    raise yaml.composer.ComposerError(None, None, "found undefined alias",
                                                      event.start_mark)
                first = events[0]
            return first, first if first.__class__ is yaml.ScalarEvent else None
        if event.__class__ is yaml.ScalarEvent:
            if event.anchor is not None:
                self.start_anchor(event)
            return event, event
        self.skip(event)
        return event, None

    def mapping(self, path: Path_) -> dict:
        result: dict[str, Any] = {}
        key_locs, keys, file = self.doc.key_locs, self.keys, self.file
        while True:
            event = self.next()
            if event.__class__ is yaml.MappingEndEvent:
                return result
            if event.__class__ is yaml.ScalarEvent and event.anchor is None:
                where = scalar = event  # (the usual key: self.key's answer)
            else:
                where, scalar = self.key(event)
            if scalar is None:
                self.report.error(_("a key must be a plain value, not a list or mapping"),
                                  self.loc(where), "yaml")
                self.skip(self.next())
                continue
            if scalar.value == "<<" and scalar.tag is None and scalar.implicit[0]:
                self.report.error(_("merge keys ('<<') are not supported"), self.loc(where), "yaml")
                self.skip(self.next())
                continue
            key = scalar.value
            if self.typed_keys and not scalar.style and resolved(scalar) != STR:
                key = scalar_value(key)
            elif type(key) is str:
                key = keys.setdefault(key, key)
            if key in result:
                first = self.doc.locate(path + (key,), key=True)
                owner = f" in '{result['id']}'" if isinstance(result.get("id"), str) else ""
                self.report.error(
                    _("duplicate key '{key}'{owner} (first defined at line {first_line})",
                      key=key, owner=owner, first_line=first.line),
                    self.loc(where),
                    "yaml",
                )
                self.skip(self.next())
                continue
            key_path = path + (key,)
            mark: Any = where.start_mark
            key_locs[key_path] = packed(file, mark.line + 1, mark.column + 1)
            if key in self.limit_keys:
                limit = self.limit(key_path)
                if limit is not None:
                    self.pending[key_path] = (limit, result.get("id"))
            result[key] = self.value(self.next(), key_path)
            if self.pending:  # (a scalar where a list is wanted: its reader says so)
                self.pending.pop(key_path, None)


def location_at(file: str, text: str | bytes, index: int) -> Location:
    """Where `text[index]` stands in `file`: a character found by searching the whole text."""
    if isinstance(text, str):
        before = text[:index]
        return Location(file, before.count("\n") + 1, index - before.rfind("\n"))
    head = text[:index]
    return Location(file, head.count(b"\n") + 1, index - head.rfind(b"\n"))


def too_large(path: Path, display: str, report: Report, limit: int = MAX_BYTES) -> bool:
    """True, and reported, when a data file (in any format) is larger than `limit`; an
    unreadable file raises OSError for the caller to report."""
    size = path.stat().st_size
    if size > limit:
        report.error(_("the file is too large ({size:,} bytes; at most {limit:,})",
                       size=size, limit=limit),
                     Location(display), "io")
    return size > limit


def _decode(raw: bytes, file: str, report: Report) -> str | None:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        report.error(
            _("the file is not UTF-8 text (byte 0x{raw:02x}); save it as UTF-8",
              raw=raw[exc.start]),
            location_at(file, raw, exc.start),
            "encoding",
        )
        return None


def parse_yaml(text: str, file: str, report: Report, typed_keys: bool = False,
               limits: dict[Path_, Limit] | None = None) -> Document | None:
    """Parse YAML text; problems go to `report` and the result is None on failure (a list
    longer than its Limit in `limits`, a path of keys and ANY, is one)."""
    return parse_converted(text, file, report, typed_keys, limits)[0]


_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines'


def _only_comments(text: str) -> bool:
    """Whether every line of `text` is blank or a comment, looked at from its start only as
    far as the first line that is neither (each line break is whitespace to str.lstrip)."""
    rest = text.lstrip()
    while rest:
        if rest[0] != "#":
            return False
        line_break = _LINE_BREAK.search(rest)
        if line_break is None:
            return True
        rest = rest[line_break.end():].lstrip()
    return True


def parse_converted(text: str, file: str, report: Report, typed_keys: bool = False,
            limits: dict[Path_, Limit] | None = None) -> tuple[Document | None, Any]:
    """parse_yaml's document, and the converter that made it (None where none ran)."""
    if _only_comments(text):
        report.error(_("the file is empty"), Location(file, 1, 1), "yaml")
        return None, None
    bad = _CONTROL.search(text)
    if bad:  # (PyYAML would say so at 1:1, with its own wording)
        report.error(_("the file holds a control character (U+{ord:04X}) that YAML does not "
                       "allow; remove it",
                           ord=ord(bad.group())), location_at(file, text, bad.start()), "yaml")
        return None, None
    problems = Report()  # a syntax error anywhere is the one problem reported
    conv = _Converter(file, problems, typed_keys, limits)
    parser = _LOADER(text)
    try:
        conv.doc.data = conv.run(parser.get_event)  # (yaml.parse's events, without its loop)
    except _Stopped:
        report.extend(problems)
        return None, None
    except yaml.MarkedYAMLError as exc:
        mark: Any = exc.problem_mark or exc.context_mark  # (or a tab: yamlwords.indenting_tab)
        problem = exc.problem or ""
        tab = indenting_tab(text, mark)
        quote = unclosed_quote(text, mark, _LOADER) if tab is None else None
        if tab is not None or "tab" in problem.lower() or "\\t" in problem or "\t" in problem:
            said = _("YAML syntax: {problem}", problem=_(
                "a tab character cannot be used for indentation; use spaces"))
            mark = tab or mark
        elif quote is not None:  # said where the quote opens, not where the text ran on to
            mark, end = quote
            said = _("YAML syntax: {problem}", problem=_(
                "the quote opened here is never closed (the text runs on to the quote at "
                "{line}:{col})", line=end.line + 1, col=end.column))
        else:  # in cardgen's words, in the run's language (not the library's English)
            said = syntax_message(problem, exc.context, exc.context_mark)
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        report.error(said, Location(file, line, col), "yaml")
        return None, None
    except yaml.YAMLError:  # composer errors without marks
        report.error(syntax_message(None, None, None), Location(file, 1, 1), "yaml")
        return None, None
    finally:
        parser.dispose()
    report.extend(problems)
    if conv.too_big or conv.too_deep:
        return None, None
    return conv.doc, conv


def load_yaml(path: Path, display: str, report: Report, typed_keys: bool = False,
              limits: dict[Path_, Limit] | None = None) -> Document | None:
    """Read and parse a YAML file. `display` is the name shown in messages; `limits`, the
    lists read no further than their budgets (parse_yaml)."""
    try:
        if too_large(path, display, report):
            return None
        raw = path.read_bytes()
    except FileNotFoundError:
        report.error(_("the file does not exist"), Location(display), "io")
        return None
    except OSError as exc:
        report.error(_("cannot read the file: {exc_strerror}",
                       exc_strerror=exc.strerror), Location(display), "io")
        return None
    text = _decode(raw, display, report)
    if text is None:
        return None
    from . import reread  # (reading a file again: its own module, which reads through this)
    if reread.keeping() and not typed_keys and not limits:
        return reread.reread(text, display, report, str(path))
    return parse_yaml(text, display, report, typed_keys, limits)
