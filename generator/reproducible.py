"""Same input, same bytes: what every PDF writer in cardgen shares.

reportlab's invariant mode fixes the document's dates and ids, but it still stamps
SOURCE_DATE_EPOCH into the file when that is set. cardgen's output depends on the
project's files only, so that variable is hidden while a PDF is made.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator


@contextlib.contextmanager
def no_source_date_epoch() -> Iterator[None]:
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved
