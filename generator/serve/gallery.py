"""The gallery's pictures: each card face's picture, by its key (write/png.face_key: the
face's identity and the resolution), drawn when the page first asks for it, or before that
in the background, and kept in the PNG cache folder (output/.cache/png), as `build --png`
keeps its own. The cards are published as soon as they are laid out: a picture's URL
carries its key's version, known before it is drawn, so the page asks for a picture that
does not exist yet, and it is drawn at once for that request (a request never waits for the
background's drawing of the others). The server holds the faces (incremental layout keeps
them anyway), the keys of the pictures it knows are on disk, and at most KEPT pictures in
memory, whatever the game's size; the pictures themselves are read from disk."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict
from pathlib import Path

KEPT = 256  # pictures held in memory, the last asked for (a screen of cards, and more)
KEPT_BYTES = 16 << 20  # and at most so many bytes of them (a zoomed face is 100-200 KB)
FIRST = 16  # faces in the background's first chunks: the first screen's soonest


def version(key: str) -> str:
    """A picture's version in its URL, from its key: known before it is drawn, new when the
    face prints differently (or is drawn another way)."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


class Gallery:
    """The card faces' pictures of one server: `draw_later` hands it a build's faces, in the
    gallery's order, for the background to draw; `picture` gives one at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.recent: OrderedDict[str, bytes] = OrderedDict()  # key -> PNG, at most KEPT
        self.held_bytes = 0  # the bytes of `recent`'s pictures, at most KEPT_BYTES
        self.on_disk: set[str] = set()  # the keys whose pictures are in the cache folder
        self.asked: dict = {}  # key -> face: asked for by requests, not drawn yet
        self.drawing = threading.Lock()  # held by the request drawing what is asked
        self.todo: list = []  # (key, face) still to draw, in the gallery's order
        self.job = 0  # the build whose faces `todo` holds
        self.wake = threading.Condition(self.lock)
        self.thread: threading.Thread | None = None
        self.cache: Path | None = None
        self.keys: set[str] = set()  # the pictures of the faces last handed over
        self.dpi, self.font = 0, ""
        self.closing = False
        self.said_unwritable = False  # the cache folder could not be written: said once
        self.held = False  # a build runs: the background waits (hold, release)
        self.done = lambda: None  # told when the background has drawn everything

    def picture(self, key: str, face, dpi: int | None = None) -> bytes:
        """A face's picture (at the gallery's dpi, or `dpi`: `key` is its face_key at it):
        from memory, from the cache folder, or drawn now (and kept). Pictures asked for at
        once (a screen of them) are drawn together, by the first request that finds none
        being drawn: one PDF for each resolution, one font read, not one per request."""
        data = self._kept(key)
        if data is not None:
            return data
        with self.lock:
            self.asked.setdefault(key, (face, dpi or self.dpi))
        with self.drawing:  # (one batch at a time: the others wait for it, a screen's worth)
            data = self._kept(key, read=False)
            if data is None:
                with self.lock:
                    batch, self.asked = self.asked, {}
                    cache, font = self.cache, self.font
                    batch.setdefault(key, (face, dpi or self.dpi))  # (drawn, let go of since)
                from ..write.png import face_page, keep, rasterise
                drawn: dict[str, bytes] = {}
                for each in sorted({d for _f, d in batch.values()}):
                    group = {k: f for k, (f, d) in batch.items() if d == each}
                    drawn.update(zip(group, rasterise([face_page(f, False)
                                                       for f in group.values()], each, font)))
                for k, png in drawn.items():
                    try:
                        if cache is not None:
                            keep(cache, k, png)
                    except OSError:  # (a folder that cannot be written: shown, not kept)
                        cache = None
                    self._remember(k, png, cache is not None)
                data = drawn[key]
        return data

    def _kept(self, key: str, read: bool = True) -> bytes | None:
        """A picture from memory, or (`read`) from the cache folder."""
        with self.lock:
            data = self.recent.get(key)
            if data is not None:
                self.recent.move_to_end(key)
                return data
            cache = self.cache
        if cache is None or not read and key not in self.on_disk:
            return None
        try:
            data = (cache / f"{key}.png").read_bytes()
        except OSError:  # not drawn yet (or removed since: drawn again)
            return None
        self._remember(key, data, True)
        return data

    def _remember(self, key: str, data: bytes, on_disk: bool) -> None:
        with self.lock:
            if on_disk:
                self.on_disk.add(key)
            if key not in self.recent:
                self.held_bytes += len(data)
            self.recent[key] = data
            self.recent.move_to_end(key)
            while len(self.recent) > KEPT or self.held_bytes > KEPT_BYTES:
                self.held_bytes -= len(self.recent.popitem(last=False)[1])

    def use(self, cache: Path | None, dpi: int, font: str) -> None:
        """Where a build's pictures are kept, at what resolution, in what font (the game's
        main one, for text without a font of its own): set before its cards are shown."""
        with self.lock:
            self.cache, self.dpi, self.font = cache, dpi, font

    def draw_later(self, pairs: list) -> None:
        """A build's faces ((key, face), in the gallery's order): those not drawn yet are
        drawn in the background, on every core, in that order (what a newer build hands
        over replaces what is left of this one)."""
        with self.lock:
            cache, known = self.cache, set(self.on_disk)
        if cache is None:
            return
        todo, seen, found = [], set(known), set()
        for key, face in pairs:  # (the files looked at without the lock: requests go on)
            if key in seen:
                continue
            seen.add(key)
            if (cache / f"{key}.png").is_file():  # (drawn by an earlier run, or build)
                found.add(key)
            else:
                todo.append((key, face))
        with self.lock:
            self.keys = {key for key, _face in pairs}  # the build's: never pruned (prune)
            self.on_disk = (self.on_disk | found) & self.keys  # the game's
            self.todo, self.job = [p for p in todo if p[0] not in self.on_disk], self.job + 1
            if self.todo and self.thread is None:  # (a thread while there is something to draw)
                self.thread = threading.Thread(target=self._draw, daemon=True)
                self.thread.start()
            self.wake.notify_all()

    @property
    def remaining(self) -> int:
        """Pictures still to draw in the background."""
        with self.lock:
            return len(self.todo)

    def hold(self) -> None:
        """A build starts: the background draws no further chunk until `release` (a save
        has the cores first)."""
        with self.lock:
            self.held = True

    def release(self) -> None:
        with self.lock:
            self.held = False
            self.wake.notify_all()

    def close(self) -> None:
        """The server stops: the background stops after the chunks under way."""
        with self.lock:
            self.closing = True
            self.wake.notify_all()

    def _draw(self) -> None:
        while True:
            with self.lock:
                while self.held and self.todo and not self.closing:
                    self.wake.wait()
                if self.closing or not self.todo:  # (draw_later starts another)
                    self.thread = None
                    return
                job = self.job
                todo = [pair for pair in self.todo if pair[0] not in self.on_disk]
            # a small first chunk (the first screen, unless the page has asked for it
            # itself), then the rest on every core
            try:
                drew = self._drew(job, todo[:FIRST]) and self._drew(job, todo[FIRST:])
            except OSError as exc:  # the cache folder cannot be written: said once, and the
                self._unwritable(exc)  # pictures are drawn when the page asks (not kept)
                drew = True
            except Exception as exc:  # a bug: said, and the pictures are drawn when asked
                from ..problems import printable
                print(f"serve: internal error drawing the pictures: {type(exc).__name__}: "
                      f"{printable(str(exc))}", file=sys.stderr, flush=True)
                drew = True
            if drew:
                with self.lock:
                    if self.job == job:
                        self.todo = []  # (what was drawn meanwhile by requests too)
                        finished = True
                    else:
                        finished = False
                if finished:
                    self._prune()
                    self.done()

    def _prune(self) -> None:
        """The cache folder kept within its size (write/png.prune), the build's pictures
        kept, once the background has drawn them all."""
        from ..write.png import prune
        with self.lock:
            cache, keys = self.cache, set(self.keys)
        if cache is not None:
            prune(cache, keys)

    def _unwritable(self, exc: OSError) -> None:
        """The cache folder cannot be written (read-only, full, a file in its place): said
        once a server, in cardgen's words with the system's reason."""
        if self.said_unwritable:
            return
        self.said_unwritable = True
        from ..i18n import _
        print(_("serve: the card pictures cannot be kept in {folder} ({reason}): each is "
                "drawn when the page asks for it", folder=self.cache,
                reason=exc.strerror or type(exc).__name__).shown(), file=sys.stderr, flush=True)

    def _drew(self, job: int, pairs: list) -> bool:
        """Draw `pairs` into the cache folder; False if stopped first (a newer build, a
        build running, the server stopping)."""
        from contextlib import closing

        from ..write.png import draw_into
        with self.lock:
            cache, dpi, font = self.cache, self.dpi, self.font
        if cache is None or not pairs:
            return cache is not None
        with closing(draw_into(cache, pairs, dpi, font, bleed=False)) as chunks:
            for keys in chunks:
                with self.lock:
                    self.on_disk.update(keys)
                    if self.job == job:
                        drawn = set(keys)
                        self.todo = [p for p in self.todo if p[0] not in drawn]
                    if self.closing or self.job != job or self.held:
                        return False
        return True
