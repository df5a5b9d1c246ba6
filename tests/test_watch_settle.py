"""Saves that settle (issue 62, item 3): `watch` and `serve` read a changed file only when
its size and time have held still, or when an editor's rename has landed it whole; a file
still being written is never read (a 2.8 MB deck read half-way said "the file is empty" or
"unexpected end of stream", and the preview showed its cards vanishing)."""

from __future__ import annotations

import os
import threading
import time

from generator.load import Project


def test_a_file_written_in_slow_pieces_is_read_only_whole(project):
    from generator import pipeline
    from generator.watch import SETTLE, watch

    cards = project / "cards/lastdance/cards.yaml"
    before = cards.read_text("utf-8")
    after = before.replace("name: 姫\n", "name: 姫君\n") + "".join(
        f"# a comment that makes the file long, line {n}\n" for n in range(400))
    assert after != before
    reads: list[str] = []
    messages: list[str] = []
    stop, first = threading.Event(), threading.Event()

    def rebuild(game):
        reads.append(cards.read_text("utf-8"))
        report = pipeline.check(Project.find(project), game).report
        messages.extend(str(p.message) for p in report.errors)
        first.set()
        if reads[-1] == after:
            stop.set()

    watcher = threading.Thread(target=watch, args=(Project.find(project), ["lastdance"],
                                                   rebuild, stop),
                               kwargs={"interval": 0.02}, daemon=True)
    watcher.start()
    try:
        assert first.wait(300)
        data = after.encode("utf-8")
        pieces = 8
        step = len(data) // pieces + 1
        with open(cards, "wb") as out:  # written in place, as an editor that truncates does
            for k in range(pieces):
                out.write(data[k * step:(k + 1) * step])
                out.flush()
                os.fsync(out.fileno())
                time.sleep(SETTLE / 3)  # a pause the poller (every 0.02 s) sees many times
        assert stop.wait(300), "the finished file was never read"
    finally:
        stop.set()
        watcher.join(60)
    assert reads[0] == before and reads[-1] == after
    assert all(text in (before, after) for text in reads), \
        [len(text) for text in reads if text not in (before, after)]
    assert not [m for m in messages if "empty" in m or "end of" in m], messages


def test_an_editors_rename_is_read_at_once_and_a_new_file_in_its_place_is_not(tmp_path):
    from generator.watch import settled

    def stamp():
        return tuple(sorted((str(tmp_path), e.name, e.stat().st_mtime_ns, e.stat().st_size,
                             e.stat().st_ino) for e in os.scandir(tmp_path)))

    target = tmp_path / "cards.yaml"
    target.write_text("cards: []\n", "utf-8")
    built = stamp()
    # Written in place: read only once it has held still.
    target.write_text("cards: [{id: a}]\n", "utf-8")
    assert not settled(built, stamp(), 0.0, built)
    assert settled(built, stamp(), 10.0, built)
    built = stamp()
    # An editor's save by rename: its copy written (seen by one look), then renamed over.
    copy = tmp_path / ".cards.yaml.tmp"
    copy.write_text("cards: [{id: b}]\n", "utf-8")
    look = stamp()
    os.replace(copy, target)
    assert settled(built, stamp(), 0.0, look)
    built = stamp()
    # An editor that moves the file aside and writes a new one under its name: a new
    # inode, which may be half-written still.
    os.replace(target, tmp_path / "cards.yaml~")
    target.write_text("cards: [{id: c}", "utf-8")
    assert not settled(built, stamp(), 0.0, built)
