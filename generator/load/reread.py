"""Reading a saved file again (`serve`, `watch`: keep_reads()). A save changes a file
little: one card of a 10,000-card deck. What was read is kept by file; the same text is the
same document (and the same problems), and a changed one whose change lies inside a
top-level block list's items reads only those items again, the others kept as the same
objects with their places moved by the lines added or removed. The deck check then checks
only the cards it has not found clean before (Clean). What comes out is what reading the
whole file gives (tests/test_reread.py, tests/test_incremental.py compare them over series
of edits); anything this cannot be sure of (anchors or aliases, a problem in the file, a
change outside the items, a line break other than \n) reads the whole file.
"""

from __future__ import annotations

import bisect
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from ..problems import COLUMN_BITS, Location, Report
from ..values import walk
from . import schema, yamlfile
from .yamlfile import MAX_VALUES, Document

@dataclass
class _Read:
    lines: list[str]  # the text, split at \n
    doc: Document
    problems: Report  # what reading it said
    spans: dict[str, list[tuple[int, int, int]]]  # _Converter.spans
    clean: bool  # nothing said, no anchor or alias: an item may be read again alone
    count: int  # values counted (MAX_VALUES)


_COMPLEX_KEY = re.compile(r"(-[ ]+)*[?]( |$)")  # `? key` (after an item's dash too)
_KEPT: dict[str, _Read] | None = None  # by the file's path
_KEPT_LOCK = threading.Lock()
_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def keep_reads() -> None:
    """Keep what each YAML file read (for the rest of the process), so that a file read
    again is parsed only where it changed: for `serve` and `watch`."""
    global _KEPT
    with _KEPT_LOCK:
        if _KEPT is None:
            _KEPT = {}


def keeping() -> bool:
    """Whether reads are kept (keep_reads): the same object is the same value."""
    return _KEPT is not None


def reread(text: str, file: str, report: Report, where: str) -> Document | None:
    """parse_yaml's document of `text`, read at path `where` and shown as `file`, from
    what the last read of it kept where it can."""
    lines = text.split("\n")
    with _KEPT_LOCK:
        last = (_KEPT or {}).get(where)
    if last is not None and last.doc.file != file:
        last = None
    if last is not None and last.lines == lines:
        report.extend(last.problems)
        return last.doc
    read = _patched(last, lines, file) if last is not None and last.clean else None
    if read is None:
        said = Report()
        doc, conv = yamlfile.parse_converted(text, file, said)
        report.extend(said)
        if doc is None or conv is None:
            with _KEPT_LOCK:
                (_KEPT or {}).pop(where, None)
            return doc
        clean = not said.problems and not conv.anchors and not conv.aliased and \
            _OTHER_BREAKS.search(text) is None
        read = _Read(lines, doc, said, conv.spans, clean, conv.count)
    with _KEPT_LOCK:
        if _KEPT is not None:
            _KEPT[where] = read
    return read.doc


def _patched(last: _Read, lines: list[str], file: str) -> _Read | None:
    """`last` with the items of one top-level block list that `lines` changed read again,
    or None where only reading the whole file is sure to give the same."""
    old = last.lines
    if any(_OTHER_BREAKS.search(line) for line in lines) or old[-1] != "" or lines[-1] != "":
        return None  # (a file that ends without a line break: its end is read whole)
    top = min(len(old), len(lines))
    first = 0
    while first < top and old[first] == lines[first]:
        first += 1
    same_end = 0
    while same_end < top - first and old[-1 - same_end] == lines[-1 - same_end]:
        same_end += 1
    old_end = len(old) - same_end  # the lines changed: [first, old_end) of the old text
    for key, spans in last.spans.items():
        starts = [line for line, _col, _count in spans]
        if len(starts) < 2 or not starts[0] <= first <= old_end <= starts[-1]:
            continue
        items, shift = len(starts) - 1, len(lines) - len(old)
        # from the item before the first line changed (lines added at an item's start may
        # be the end of the one before) to the last item it changed
        a = max(0, bisect.bisect_right(starts, first - 1, 0, items) - 1)
        b = max(a, bisect.bisect_left(starts, old_end, 0, items) - 1)
        while b + 1 < items and not any(line.strip() for line in
                                        lines[starts[a]:starts[b + 1] + shift]):
            b += 1  # (every item read again was removed: one more, so that a list is read)
        return _items_again(last, lines, file, key, a, b, shift)
    return None


def _only_items(last: _Read, chunk: list[str], key: str, a: int, b: int) -> bool:
    """Whether items a..b of top-level list `key` stood each on its dash's line, and the
    `chunk` of lines that replaces them holds only items of the list: read alone, under
    `key:`, they read as they do in the file."""
    spans = last.spans[key]
    items = len(spans) - 1
    start = spans[a][0]
    key_at = last.doc.key_locs.get((key,))
    head = last.lines[start]
    indent = len(head) - len(head.lstrip(" "))  # where the items' dashes stand
    if not isinstance(key_at, int) or key_at & ((1 << COLUMN_BITS) - 1) != 1 or \
            _SIMPLE_KEY.fullmatch(key) is None or start < 1 or \
            b + 1 == items and spans[-1][1] != 0:
        return False
    for line, col, _count in spans[a:min(b + 2, items)]:  # each item on its dash's line
        if last.lines[line][:col].rstrip() != " " * indent + "-":
            return False
    lead = next((w for w in chunk if w.strip() and not w.lstrip(" ").startswith("#")), "")
    if lead and not (lead.startswith(" " * indent + "- ") or lead == " " * indent + "-"):
        return False  # the first item at its dash's place (deeper, alone it reads as a list)
    for written in chunk:  # only the list's items: more indented than its dashes, or a dash
        body = written.lstrip(" ")
        deep = len(written) - len(body)
        if _COMPLEX_KEY.match(body):
            return False  # (a complex key's empty value is placed at the next token's)
        if body and not (body.startswith("#") or deep > indent or
                         deep == indent and (body.startswith("- ") or body == "-")):
            return False
    return True


def _items_again(last: _Read, lines: list[str], file: str, key: str, a: int, b: int,
                 shift: int) -> _Read | None:
    """Items a..b of top-level list `key` read again from `lines` (`shift`: lines added),
    or None where that is not sure to read as the whole file does."""
    spans = last.spans[key]
    start, end_line = spans[a][0], spans[b + 1][0]
    chunk = lines[start:end_line + shift]
    if not _only_items(last, chunk, key, a, b):
        return None
    said = Report()
    text = "\n" * (start - 1) + key + ":\n" + "\n".join(chunk) + "\n"
    doc, conv = yamlfile.parse_converted(text, file, said)
    if doc is None or conv is None or said.problems or conv.anchors or conv.aliased or \
            not isinstance(doc.data, dict) or list(doc.data) != [key] or \
            not isinstance(doc.data[key], list) or key not in conv.spans:
        return None
    new_spans = conv.spans[key]
    added = (new_spans[-1][2] - new_spans[0][2]) - (spans[b + 1][2] - spans[a][2])  # values
    if last.count + added > MAX_VALUES:
        return None
    moved = len(doc.data[key]) - (b + 1 - a)  # items

    def later(where):  # a place after the items read again, moved by the lines added
        if not shift:
            return where
        return where + (shift << COLUMN_BITS) if isinstance(where, int) else \
            Location(where.file, where.line + shift, where.col)

    def table(old: dict, new: dict) -> dict:
        if not shift and not moved:  # (the items stay where they were: only theirs change)
            out = dict(old)
            for i in range(a, b + 1):
                for path, _value in walk(last.doc.data[key][i], (key, i)):
                    out.pop(path, None)
            out.update(((key, path[1] + a) + path[2:], where) for path, where in new.items()
                       if len(path) > 1 and path[0] == key)
            return out
        before: dict = {}
        after: dict = {}
        for path, where in old.items():
            if len(path) > 1 and path[0] == key and path[1].__class__ is int:
                if path[1] < a:
                    before[path] = where
                elif path[1] > b:
                    after[(key, path[1] + moved) + path[2:]] = later(where)
            elif (where >> COLUMN_BITS if isinstance(where, int) else where.line) > end_line:
                after[path] = later(where)
            else:
                before[path] = where
        for path, where in new.items():
            if len(path) > 1 and path[0] == key:
                before[(key, path[1] + a) + path[2:]] = where
        before.update(after)
        return before

    data = dict(last.doc.data)
    data[key] = last.doc.data[key][:a] + doc.data[key] + last.doc.data[key][b + 1:]
    made = Document(file, data, table(last.doc.value_locs, doc.value_locs),
                    table(last.doc.key_locs, doc.key_locs))
    if a == 0 and (key,) in doc.value_locs:  # the list starts where its first item now does
        made.value_locs[(key,)] = doc.value_locs[(key,)]
    moved_spans = dict(last.spans)
    for other, its in last.spans.items():
        if other != key and its and its[0][0] >= end_line:
            moved_spans[other] = [(line + shift, col, count + added) for line, col, count in its]
    moved_spans[key] = spans[:a] + [
        (line, col, count - new_spans[0][2] + spans[a][2]) for line, col, count
        in new_spans[:-1]] + [(line + shift, col, count + added) for line, col, count
                              in spans[b + 1:]]
    return _Read(lines, made, said, moved_spans, True, last.count + added)


_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass
class Only:
    """An instance whose list `key` holds only the items at `indices` of the document's
    list (the others known clean: checked before, unchanged): its errors are said at the
    document's items (schema.report_errors' `renumbered`), and `bad` receives the
    document's index of every item with one."""

    key: str
    indices: list[int]
    bad: set[int] = field(default_factory=set)

    def renumbered(self, errors):
        for error in errors:  # (an error's context hangs from it: renumbered with it)
            path = error.path
            if len(path) > 1 and path[0] == self.key and isinstance(path[1], int):
                path[1] = self.indices[path[1]]
                self.bad.add(path[1])
            yield error


class Clean:
    """The items of a document's list that a validator found clean, by identity: an item
    read again unchanged is the same object (yamlfile.keep_reads), and is not checked
    again (`serve`, `watch`: a save of one card checks that card)."""

    def __init__(self, validator: schema.Checker) -> None:
        self.validator = validator  # the one that found them clean
        self.items: dict[int, Any] = {}  # id -> the item (held: its id stays its own)


def check(doc: Document, validator: schema.Checker, report: Report, context,
          paths: list | None, about, clean: Clean | None, items: str) -> bool:
    """schema.check of a whole document, where the items of its list `items` that `clean`
    found clean before are not checked again; `clean` learns the items it has now."""
    listed = doc.data.get(items) if clean is not None and isinstance(doc.data, dict) else None
    if clean is None or not isinstance(listed, list):
        return schema.check(doc, validator, report, context, paths, about=about)
    if clean.validator is not validator:
        raise ValueError("items found clean by another validator")  # (a bug: say so)
    only = Only(items, [i for i, item in enumerate(listed) if id(item) not in clean.items])
    instance = {**doc.data, items: [listed[i] for i in only.indices]}
    result = schema.report_errors(instance, validator, report,
                                  lambda p, key: doc.locate(p, key), context, paths=paths,
                                  about=about, renumbered=only.renumbered)
    clean.items = {id(item): item for i, item in enumerate(listed) if i not in only.bad}
    return result
