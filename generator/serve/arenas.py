"""The server's memory and glibc's malloc arenas. glibc gives a thread that allocates
while another holds an arena an arena of its own, up to eight a core, and each keeps what
its large allocations freed for later: a server's threads (one a request, the builder,
the background's drawing) each held their own copy of the memory of a page's state (5 MB
of JSON at 10,000 cards, the page itself 7 MB) and of the pictures' batches. Measured by
benchmarks/preview.py's run at 10,000 distinct cards: a peak of 340 MB with glibc's
arenas, 266 MB with two. So `serve` asks for two (mallopt M_ARENA_MAX) before it starts
its threads; where the C library is not glibc's (macOS, Windows, musl) nothing is asked."""

from __future__ import annotations

import ctypes
import platform
import sys

M_ARENA_MAX = -8  # glibc's malloc.h
ARENAS = 2


def fewer_arenas() -> bool:
    """At most ARENAS malloc arenas for this process, on glibc; True if it was set."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt(M_ARENA_MAX, ARENAS) == 1
