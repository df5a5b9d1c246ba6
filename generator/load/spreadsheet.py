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

import csv
import io
import re
from pathlib import Path
from typing import Any, Mapping

from ..problems import Location, Report
from .yamlfile import Document

_INT = re.compile(r"^\s*[+-]?\d+\s*$")
_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
BUILT_IN = {"id": {"type": "text"}, "copies": {"type": "integer"}, "blank": {"type": "boolean"},
            "back": {"type": "text"}}


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
        if isinstance(value, str) and _INT.match(value):
            return int(value)
    elif kind == "number":
        if isinstance(value, str) and _NUMBER.match(value):
            return float(value)
    elif kind == "boolean":
        text = str(value).strip().lower()
        if text in ("true", "yes", "1", "1.0"):
            return True
        if text in ("false", "no", "0", "0.0"):
            return False
    elif kind == "list":
        items = value if isinstance(value, list) else str(value).split(decl.get("separator", "|"))
        return [typed(item, decl.get("items")) for item in items if str(item).strip() != ""]
    elif kind in ("text", "card") and not isinstance(value, str):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return value


def _document(rows: list[tuple[int, list[Any]]], fields: Mapping[str, Any], where, display: str,
              report: Report) -> Document | None:
    """rows: (row number, cells), the first being the header. `where(row, col)` locates a cell."""
    if not rows or not any(str(c).strip() for c in rows[0][1] if c is not None):
        report.error("the sheet is empty: its first row must name the fields (id, name, ...)",
                     where(1, 0), "spreadsheet")
        return None
    header_row, header = rows[0]
    names = [str(h).strip() if h is not None else "" for h in header]
    doc = Document(display, {"cards": []})
    doc.value_locs[()] = where(header_row, 0)
    doc.value_locs[("cards",)] = where(header_row, 0)
    seen: dict[str, int] = {}
    for col, name in enumerate(names):
        if name and name in seen:
            report.error(f"column '{name}' appears twice (first in column {seen[name] + 1})",
                         where(header_row, col), "spreadsheet")
        seen.setdefault(name, col)
    for row, cells in rows[1:]:
        if all(c is None or str(c).strip() == "" for c in cells):
            continue  # a blank row
        i = len(doc.data["cards"])
        record: dict[str, Any] = {}
        doc.value_locs[("cards", i)] = where(row, 0)
        for col, name in enumerate(names):
            if not name or col >= len(cells) or seen.get(name) != col:
                continue
            value = typed(cells[col], BUILT_IN.get(name) or fields.get(name))
            if value is None:
                continue
            record[name] = value
            doc.value_locs[("cards", i, name)] = where(row, col)
            doc.key_locs[("cards", i, name)] = where(header_row, col)
            if isinstance(value, list):
                for j in range(len(value)):
                    doc.value_locs[("cards", i, name, j)] = where(row, col)
        doc.data["cards"].append(record)
    return doc


def load_csv(path: Path, display: str, fields: Mapping[str, Any], encoding: str | None,
             report: Report) -> Document | None:
    raw = path.read_bytes()
    if encoding:
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            report.error(f"the file cannot be read as {encoding}: {exc}", Location(display, 1, 1),
                         "encoding")
            return None
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:  # Excel saves Japanese CSV in Shift_JIS (cp932)
                text = raw.decode("cp932")
            except UnicodeDecodeError:
                report.error("the file is neither UTF-8 nor Shift_JIS (cp932) text; save it as "
                             "UTF-8 CSV or declare its encoding", Location(display, 1, 1), "encoding")
                return None
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for cells in reader:
            rows.append((reader.line_num, cells))
    except csv.Error as exc:
        report.error(f"CSV: {exc}", Location(display, reader.line_num, 1), "spreadsheet")
        return None
    return _document(rows, fields, lambda row, col: Location(display, row, col + 1), display, report)


def load_xlsx(path: Path, display: str, fields: Mapping[str, Any], worksheet: str | None,
              report: Report, where_sheet: Location) -> Document | None:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, OSError, KeyError, ValueError) as exc:
        report.error(f"the workbook cannot be read: {exc}", Location(display), "spreadsheet")
        return None
    try:
        name = worksheet or book.sheetnames[0]
        if name not in book.sheetnames:
            report.error(f"workbook {display} has no sheet '{name}' (sheets: "
                         f"{', '.join(book.sheetnames)})", where_sheet, "reference")
            return None
        sheet = book[name]
        rows = [(r, list(cells)) for r, cells in enumerate(sheet.iter_rows(values_only=True), 1)]
    finally:
        book.close()
    return _document(rows, fields,
                     lambda row, col: Location(f"{display}[{name}]!{column_letter(col)}{row}"),
                     f"{display}[{name}]", report)
