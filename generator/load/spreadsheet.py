"""Decks kept in spreadsheets: CSV files and XLSX sheets, read as located documents.

The first row names the fields (`id`, `copies`, `name`, ...); every further row is a
card. Cells are typed by the deck's field declarations ("3" becomes 3 where the
field is an integer; a list field is split on its declared `separator`, `|` by
default); an empty cell is a missing value. The result is the same located
Document a YAML deck file gives, so every later check reports a bad cell the
spreadsheet way: `cards/x/cards.csv:7:3` (row, column) or
`cards/x/cards.xlsx[Sheet1]!C7`.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import re
from pathlib import Path
from typing import Any, Mapping

from ..model import CARD_KEYS
from ..values import TOO_MANY_DIGITS, flag, is_flag, too_many_digits, unprintable, whole_number
from ..problems import Location, Report
from .yamlfile import MAX_BYTES, Document, location_at, too_large
from ..i18n import _, _n

MAX_ROWS = 50_000  # rows of one sheet (a deck); a game of several sheets may hold more cards
MAX_XLSX_BYTES = 256 * 1024 * 1024  # a workbook's parts, uncompressed

_INT = re.compile(r"^\s*[+-]?\d+\s*$")
_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
# the built-in columns' types
BUILT_IN = dict(zip(CARD_KEYS, ({"type": "text"}, {"type": "integer"}, {"type": "boolean"},
                                {"type": "text"}, {"type": "boolean"})))


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def typed(value: Any, decl: Mapping[str, Any] | None) -> Any:
    """A cell's value as its field declares it; a value that does not convert stays as it
    is, so that the schema check reports it at its cell."""
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        value = value.date().isoformat() if isinstance(value, datetime.datetime) and \
            value.time() == datetime.time() else value.isoformat()  # a date cell reads as its date
    if isinstance(value, str):
        value = value.strip()
    if value is None or value == "":
        return None
    if value == "TBD" or not decl:
        return value
    kind = decl.get("type")
    if kind == "integer":
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and _INT.match(value) and whole_number(value) is not None:
            return whole_number(value)
    elif kind == "number":
        if isinstance(value, str) and _NUMBER.match(value):
            return float(value)
    elif kind == "boolean":
        if is_flag(value):  # the one rule for true and false (values.flag)
            return flag(value)
    elif kind == "list":
        items = value if isinstance(value, list) else str(value).split(decl.get("separator", "|"))
        return [typed(item, decl.get("items")) for item in items if str(item).strip() != ""]
    elif kind in ("text", "card") and not isinstance(value, str):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return value


def _header(names: list[str], header_row: int, where, report: Report) -> tuple[dict, int]:
    """Each field name's first column (a name twice is an error at its second), and how many
    columns the header names (empty cells at its end name nothing)."""
    seen: dict[str, int] = {}
    for col, name in enumerate(names):
        if name and name in seen:
            report.error(_("column '{name}' appears twice (first in column {n})",
                           name=name, n=seen[name] + 1),
                         where(header_row, col), "spreadsheet")
        seen.setdefault(name, col)
    width = len(names)
    while width and not names[width - 1]:
        width -= 1
    return seen, width


def _check_width(row: int, cells: list, width: int, strict_width: bool, where,
                 report: Report) -> None:
    """A row with values beyond the header's columns, or (strict) fewer cells than it."""
    extra = [col for col in range(width, len(cells)) if cells[col] is not None
             and str(cells[col]).strip() != ""]
    if extra:
        report.error(_("this row has a value in column {n}, but the header names {counted} (a "
                       "comma too many, or a column without a name?)", n=extra[0] + 1,
                       counted=_n('{n} column', '{n} columns', width)), where(row, extra[0]),
                     "spreadsheet")
    elif strict_width and len(cells) < width:
        report.error(_("this row has {counted}, but the header names {width} columns (a missing "
                       "comma?)", counted=_n("{n} cell", "{n} cells", len(cells)), width=width),
                     where(row, max(0, len(cells) - 1)), "spreadsheet")


def _record(doc: Document, i: int, row: int, cells: list, names: list, seen: dict,
            fields: Mapping[str, Any], header_row: int, where, problems: Report) -> dict:
    """One row as a card's record, each value typed as its field declares and located at
    its cell (its key at the header's)."""
    record: dict[str, Any] = {}
    doc.value_locs[("cards", i)] = where(row, 0)
    for col, name in enumerate(names):
        if not name or col >= len(cells) or seen.get(name) != col:
            continue
        cell = cells[col]
        if cell.__class__ is str:
            bad = unprintable(cell)
            if bad is not None:  # raw in the file, or from a formula (=CHAR(27))
                problems.error(_("{name}: the cell holds {bad}; remove it",
                                 name=name, bad=bad[1]), where(row, col),
                               "text")
            elif too_many_digits(cell):
                problems.error(_("{name}: {n_lstrip:,} digits: {TOO_MANY_DIGITS}",
                                 name=name, n_lstrip=len(cell.strip().lstrip('+-')),
                                 TOO_MANY_DIGITS=TOO_MANY_DIGITS), where(row, col), "schema")
                continue
        value = typed(cell, BUILT_IN.get(name) or fields.get(name))
        if value is None:
            continue
        record[name] = value
        doc.value_locs[("cards", i, name)] = where(row, col)
        doc.key_locs[("cards", i, name)] = where(header_row, col)
        if isinstance(value, list):
            for j in range(len(value)):
                doc.value_locs[("cards", i, name, j)] = where(row, col)
    return record


def _document(rows: list[tuple[int, list[Any]]], fields: Mapping[str, Any], where, display: str,
              report: Report, strict_width: bool = False) -> Document | None:
    """rows: (row number, cells), the first being the header. `where(row, col)` locates a cell."""
    if not rows or not any(str(c).strip() for c in rows[0][1] if c is not None):
        report.error(_("the sheet is empty: its first row must name the fields (id, name, ...)"),
                     where(1, 0), "spreadsheet")
        return None
    header_row, header = rows[0]
    names = [str(h).strip() if h is not None else "" for h in header]
    doc = Document(display, {"cards": []})
    doc.value_locs[()] = where(header_row, 0)
    doc.value_locs[("cards",)] = where(header_row, 0)
    seen, width = _header(names, header_row, where, report)
    if "id" not in seen:  # a header of other words: every row would be a card without an id
        shown = ", ".join("'" + "".join(c if c.isprintable() else "?" for c in n[:20]) + "'"
                          for n in names[:4] if n) + (", ..." if len(names) > 4 else "")
        report.error(_("the first row names no 'id' column ({shown}); it must name the fields "
                       "(id, name, ...): is the header row missing, or the file in another "
                       "encoding than it is read in?",
                           shown=shown), where(header_row, 0), "spreadsheet")
        return None
    for row, cells in rows[1:]:
        if all(c is None or str(c).strip() == "" for c in cells):
            continue  # a blank row
        _check_width(row, cells, width, strict_width, where, report)
        i = len(doc.data["cards"])
        doc.data["cards"].append(_record(doc, i, row, cells, names, seen, fields, header_row,
                                         where, report))
    return doc


# Byte order marks, and what each says the file is.
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"),
         (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_KANA = re.compile(r"[\u3041-\u30ff\uff66-\uff9f]")  # hiragana, katakana, half-width katakana


# Codecs Python calls text encodings that no file is saved in: `undefined` fails whatever
# it reads (an internal error once), punycode and idna read a domain name, the escape codecs
# a Python string literal (their own errors are no UnicodeDecodeError either).
_NOT_FILE_ENCODINGS = {"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape"}


def text_codec(name: str) -> str | None:
    """The codec Python knows by `name` (cp1252, latin-1, mac_roman, utf-16, ...), if it is
    one a text file is saved in; None otherwise (an unknown name, base64, zlib, punycode)."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_FILE_ENCODINGS:
        return None
    return info.name


def _undecodable(display: str, raw: bytes, exc: UnicodeDecodeError, codec: str) -> tuple:
    """The message and location of the first byte `codec` cannot decode: its row, and its
    column counted in the characters before it on that row."""
    start = exc.start
    line_start = raw.rfind(b"\n", 0, start) + 1
    column = len(raw[line_start:start].decode(codec, errors="replace")) + 1
    where = Location(display, raw.count(b"\n", 0, start) + 1, column)
    return _("byte 0x{byte:02X} is not {codec} text", byte=raw[start], codec=codec), where


def _decode_as(raw: bytes, codec: str, shown: str, display: str, report: Report,
               why: str) -> str | None:
    """The bytes in a codec the file must be in; a byte it cannot read is reported where it
    stands, saying `why` the file had to be in it."""
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        message, where = _undecodable(display, raw, exc, shown)
        report.error(_("{message}, {why}", message=message, why=why), where, "encoding")
        return None


_BOM_NAMES = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-32": "UTF-32"}


def decode_text(raw: bytes, display: str, encoding: str | None, report: Report) -> str | None:
    """A text file's bytes as text: in the encoding its deck declares, or else found: a BOM
    (UTF-8, UTF-16, UTF-32), UTF-8, Shift_JIS (cp932, as Japanese Excel saves CSV) where
    the text reads as Japanese, then Windows-1252 (cp1252, as US Excel saves CSV)."""
    if encoding:
        codec = text_codec(encoding)
        if codec is None:  # not a text encoding: reported at the key by the game's schema
            return None
        for bom, marked in _BOMS:
            if raw.startswith(bom):
                family = marked.removesuffix("-sig")  # utf-8, utf-16, utf-32
                if not codec.startswith(family):  # (was "utf_" for each: a UTF-8 mark
                    # declared utf-16 was read as UTF-8, whatever the deck said)
                    report.error(_("the file starts with a {BOM_NAMES} byte order mark, but the "
                                   "deck declares encoding: {encoding}, which would read the "
                                   "mark as text; declare encoding: {lower} (or save the file "
                                   "without the mark)",
                                       BOM_NAMES=_BOM_NAMES[marked], encoding=encoding,
                                       lower=_BOM_NAMES[marked].lower()), Location(display, 1, 1),
                                 "encoding")
                    return None
                return _decode_as(raw, marked, encoding, display, report,
                                  _("though the deck declares encoding: {encoding}",
                                    encoding=encoding))
        return _decode_as(raw, codec, encoding, display, report,
                          _("but the deck declares encoding: {encoding}; declare the encoding the "
                            "file was saved in", encoding=encoding))
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return _decode_as(raw, codec, codec, display, report,
                              _("though the file starts with a {codec} byte order mark",
                                codec=codec))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        japanese = raw.decode("cp932")
    except UnicodeDecodeError:
        japanese = None
    try:
        western = raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        western, failed = None, exc
    # A cp1252 file may happen to decode as cp932 too (é followed by a letter is a kanji):
    # take cp932 when the text has kana, as Japanese text does, or when cp1252 cannot read it.
    if japanese is not None and (western is None or _KANA.search(japanese)):
        return japanese
    if western is not None:
        return western
    message, where = _undecodable(display, raw, failed, "cp1252")
    report.error(_("{message}, and the file is not UTF-8 or Shift_JIS (cp932) either; save it as "
                   "UTF-8, or declare its encoding in the deck (encoding: latin-1, mac_roman, "
                   "...)", message=message),
                 where, "encoding")
    return None


def load_csv(path: Path, display: str, fields: Mapping[str, Any], encoding: str | None,
             report: Report) -> Document | None:
    """Strict CSV: a quote left open, and a row with more or fewer cells than the header,
    are errors at their row, never a silently shifted or swallowed card."""
    if too_large(path, display, report, MAX_BYTES):
        return None
    raw = path.read_bytes()
    text = decode_text(raw, display, encoding, report)
    if text is None:
        return None
    if "\x00" in text:
        report.error(_("the file holds a NUL character: it is not a text file (was a spreadsheet "
                       "saved as CSV?)"), location_at(display, text, text.index("\x00")),
                     "spreadsheet")
        return None
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    started = 1  # the line the record being read starts on
    try:
        for cells in reader:
            rows.append((started, cells))
            started = reader.line_num + 1
            if len(rows) > MAX_ROWS:
                report.error(_("more than {MAX_ROWS:,} rows",
                               MAX_ROWS=MAX_ROWS), Location(display, started, 1),
                             "spreadsheet")
                return None
    except csv.Error as exc:
        rest = "".join(text.splitlines(keepends=True)[started - 1:])
        if rest.count('"') % 2:  # the record's quotes do not pair up: one is never closed
            report.error(_("a quote (\") opened here is never closed, so the rest of the file "
                           "would be one cell"), Location(display, started, 1), "spreadsheet")
        else:
            report.error(_("the CSV cannot be read here ({exc})",
                           exc=exc), Location(display, started, 1),
                         "spreadsheet")
        return None
    return _document(rows, fields, lambda row, col: Location(display, row, col + 1), display,
                     report, strict_width=True)


def _unsaved_formulas(path, name: str, rows: list) -> list[tuple[int, int]]:
    """(row, column) of formula cells that have no saved value: read as empty, they would
    be reported as missing fields."""
    if not any(c is None for _, cells in rows for c in cells):
        return []
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=False)
    try:
        found = []
        for (r, values), cells in zip(rows, book[name].iter_rows(values_only=True)):
            for c, (value, cell) in enumerate(zip(values, cells)):
                if value is None and isinstance(cell, str) and cell.startswith("="):
                    found.append((r, c))
        return found
    finally:
        book.close()


# A character XML cannot hold, as a workbook writes it in a cell (ECMA-376 ST_Xstring):
# `_x001B_` for ESCAPE, `_x000D_` for a carriage return, `_x005F_` for a `_` that would
# otherwise start one. Only these are read back: `_x0041_` typed as text stays as typed.
_XSTRING = re.compile(r"_x([0-9A-Fa-f]{4})_")
_RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _xstring(text: str) -> str:
    if "_x" not in text:
        return text

    def character(match: re.Match) -> str:
        code = int(match.group(1), 16)
        escaped = code == 0x5F or code < 0x20 or 0x7F <= code <= 0x9F or code >= 0xFFFE
        return chr(code) if escaped else match.group(0)
    return _XSTRING.sub(character, text)


def _controls_escaped(path: Path):
    """The workbook, or, where a part holds a raw control byte (which no XML may hold, so
    no reader reads the sheet), an in-memory copy with each written as its escape: the
    cell is then read, and its control character reported at the cell as any other."""
    import zipfile
    with zipfile.ZipFile(path) as archive:
        found = False
        for info in archive.infolist():
            if info.filename.endswith(".xml"):
                with archive.open(info) as part:
                    while chunk := part.read(1 << 20):
                        if _RAW_CONTROL.search(chunk):
                            found = True
                            break
            if found:
                break
        if not found:
            return path
        copy = io.BytesIO()
        with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                data = archive.read(info)
                if info.filename.endswith(".xml"):
                    data = _RAW_CONTROL.sub(lambda m: b"_x%04X_" % m.group(0)[0], data)
                out.writestr(info, data)
    copy.seek(0)
    return copy


def load_xlsx(path: Path, display: str, fields: Mapping[str, Any], worksheet: str | None,
              report: Report, where_sheet: Location) -> Document | None:
    import zipfile

    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    if too_large(path, display, report, MAX_BYTES):
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            inflated = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError):
        report.error(_("the file is not an Excel workbook (.xlsx is a zip archive; was a CSV "
                       "renamed?)"), Location(display), "spreadsheet")
        return None
    if inflated > MAX_XLSX_BYTES:
        report.error(_("the workbook unpacks to {inflated:,} bytes; at most {MAX_XLSX_BYTES:,}",
                       inflated=inflated, MAX_XLSX_BYTES=MAX_XLSX_BYTES),
                     Location(display), "spreadsheet")
        return None
    try:
        source = _controls_escaped(path)  # raw control bytes: told at their cells, below
        book = openpyxl.load_workbook(source, read_only=True, data_only=True)
    except (InvalidFileException, OSError, KeyError, ValueError, zipfile.BadZipFile):
        report.error(_("the workbook cannot be read (is it an .xlsx saved by a spreadsheet "
                       "program?)"), Location(display), "spreadsheet")
        return None
    try:
        name = worksheet or book.sheetnames[0]
        if name not in book.sheetnames:
            report.error(_("workbook {display} has no sheet '{name}' (sheets: {join})",
                           display=display, name=name,
                           join=', '.join(book.sheetnames)), where_sheet, "reference")
            return None
        sheet = book[name]
        rows = []
        for r, cells in enumerate(sheet.iter_rows(values_only=True), 1):
            rows.append((r, [_xstring(c) if c.__class__ is str else c for c in cells]))
            if r > MAX_ROWS:
                report.error(_("more than {MAX_ROWS:,} rows", MAX_ROWS=MAX_ROWS),
                             Location(f"{display}[{name}]!A{r}"), "spreadsheet")
                return None
        formulas = _unsaved_formulas(source, name, rows)
    except Exception:  # openpyxl raises many kinds for damaged sheets
        report.error(_("the sheet cannot be read (is the workbook damaged?)"), where_sheet,
                     "spreadsheet")
        return None
    finally:
        book.close()
    for r, c in formulas:
        report.error(_("this cell holds a formula whose value was never saved (open the workbook "
                       "in a spreadsheet program and save it)"),
                     Location(f"{display}[{name}]!{column_letter(c)}{r}"), "spreadsheet")
    if formulas:
        return None
    return _document(rows, fields,
                     lambda row, col: Location(f"{display}[{name}]!{column_letter(col)}{row}"),
                     f"{display}[{name}]", report)
