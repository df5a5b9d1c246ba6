"""pdfium (pypdfium2), the renderer every picture is drawn by, is not thread-safe: two
threads in it at once crash the process (a segmentation fault, no Python error). The
preview's builder, its background drawing and its requests all draw pictures, each in a
thread of its own; so every use of pypdfium2 in cardgen goes through `opened`, which holds
one lock while a document is open (tests/test_architecture.py: no other module imports
pypdfium2). Worker processes (write/png.py's pool) each have a pdfium of their own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LOCK = threading.RLock()


@contextmanager
def opened(data: bytes | None = None) -> Iterator[Any]:
    """A PDF document opened by pdfium from `data` (a new empty one for None), closed
    after; no other thread uses pdfium meanwhile. What is drawn from it is to be made
    into Python's own objects (PIL images, bytes) before the block ends."""
    import pypdfium2  # (only where pictures are drawn)
    with LOCK:
        document = pypdfium2.PdfDocument.new() if data is None else pypdfium2.PdfDocument(data)
        try:
            yield document
        finally:
            document.close()
