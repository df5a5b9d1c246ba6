"""Same input, same bytes: what every PDF writer in cardgen shares.

reportlab's invariant mode fixes the document's dates and ids, but it still stamps
SOURCE_DATE_EPOCH into the file when that is set. cardgen's output depends on the
project's files only, so that variable is hidden while a PDF is made.

Streams (pages, forms, fonts, pictures) are compressed with Flate alone. reportlab's
default also wraps them in ASCII85, which only a 7-bit channel needs: it makes a file
about a seventh larger and costs time to encode.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

from reportlab import rl_config


@contextlib.contextmanager
def making_pdf() -> Iterator[None]:
    """The settings every PDF of cardgen is made with, for the time it is made."""
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    ascii85, rl_config.useA85 = rl_config.useA85, 0
    try:
        yield
    finally:
        rl_config.useA85 = ascii85
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved


FIXED_DATE = "D:20000101000000+00'00'"  # reportlab's invariant date: a game without a revision
VERSION_WORD = "version "  # the document's keywords say its game's version after it


def pdf_date(revised: str) -> str:
    """A game's revision date (ISO 8601 UTC, load/revision.py) as a PDF date
    ("D:20261204210733+00'00'"); the fixed date when it has none."""
    if len(revised) < 19:
        return FIXED_DATE
    return f"D:{revised[:10].replace('-', '')}{revised[11:19].replace(':', '')}+00'00'"


def keywords(version: str) -> str:
    """The document keywords that carry a game's version ("version 1.2"; "": none)."""
    return f"{VERSION_WORD}{version}" if version else ""


def version_of(words: str) -> str:
    """The version the keywords carry (keywords()), or "" when they carry none."""
    return words[len(VERSION_WORD):] if words.startswith(VERSION_WORD) else ""
