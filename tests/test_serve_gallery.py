"""`cardgen serve`'s card pictures (serve/gallery.py): the cards are published before their
pictures are drawn; a picture the page asks for is drawn at once, the others in the
background, each kept in the PNG cache and only a bounded number in memory; a cold server
and a warm one show the same pictures."""

from __future__ import annotations

import io
import shutil
import time
import urllib.request

from PIL import Image

from test_serve import _get, served


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.headers["Content-Type"] == "image/png"
        return response.read()


def _pictures(url: str, state: dict) -> dict[str, bytes]:
    """Every card face's picture as the page asks for it (its name and version)."""
    return {c[side]: _fetch(f"{url}/img/{c[side]}?v={c[side + '_v']}")
            for c in state["cards"] for side in ("front", "back")}


def _pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").tobytes() + bytes(str(im.size), "ascii")


def _drawn(url: str, seconds: float = 120) -> dict:
    """The state once the background has drawn every picture."""
    deadline = time.monotonic() + seconds
    while True:
        state = _get(url + "/state.json")
        if state.get("built_at") and not state.get("building") and not state.get("drawing"):
            return state
        assert time.monotonic() < deadline, "the pictures were not drawn"
        time.sleep(0.2)


def test_a_picture_asked_for_before_the_background_draws_it_is_that_face_drawn_at_once(
        project, monkeypatch):
    """With the background drawing nothing (held back), the cards are published all the
    same, each picture's version known; a picture asked for is drawn for that request: the
    card's face, pixel for pixel as `build --png` draws it without its bleed (and not
    another card's), not a 404 or a blank."""
    from generator import pipeline
    from generator.load import Project
    from generator.serve import gallery
    from generator.write.png import faces_to_png
    monkeypatch.setattr(gallery.Gallery, "_draw", lambda self: None)  # never draws
    outcome = pipeline.check(Project.find(), "lastdance")
    faces = pipeline.lay_out(outcome)
    fronts = {card: face for deck in faces.decks for card, face in deck.fronts.items()}
    font = faces.game.main_family.regular
    printed = dict(zip(("princess", "wizard", "prince"), faces_to_png(
        [fronts[c] for c in ("princess", "wizard", "prince")], 80, font, None, bleed=False)))
    with served("lastdance") as (url, state):
        assert state["drawing"] and len(state["cards"]) == 15
        cards = {c["id"]: c for c in state["cards"]}
        assert not list((project / "output/.cache/png").glob("*.png"))
        for card in ("princess", "wizard"):
            entry = cards[card]
            shown = _fetch(f"{url}/img/{entry['front']}?v={entry['front_v']}")
            assert _pixels(shown) == _pixels(printed[card]) != _pixels(printed["prince"])
        assert len(list((project / "output/.cache/png").glob("*.png"))) == 2  # kept on disk
        assert _get(url + "/state.json")["drawing"]  # the rest is still the background's


def test_a_cold_and_a_warm_server_show_the_same_pictures(project, monkeypatch):
    """Pictures drawn one by one as asked for (the background held back), drawn by the
    background in chunks, and read back from the cache by a second server: the same bytes;
    and the server holds no more pictures in memory than its bound."""
    from generator.serve import gallery
    cache = project / "output/.cache/png"
    draw = gallery.Gallery._draw
    monkeypatch.setattr(gallery.Gallery, "_draw", lambda self: None)
    with served("lastdance") as (url, state):
        asked = _pictures(url, state)
    monkeypatch.setattr(gallery.Gallery, "_draw", draw)
    shutil.rmtree(cache)
    with served("lastdance") as (url, state):
        drawn = _drawn(url)
        assert len(list(cache.glob("*.png"))) == len(set(asked.values()))
        background = _pictures(url, drawn)
    with served("lastdance") as (url, state):  # warm: every picture on disk
        warm = _pictures(url, _drawn(url))
    assert asked == background == warm
    assert all(data[:4] == b"\x89PNG" for data in asked.values())


def test_the_pictures_in_memory_stay_within_their_bound(project, monkeypatch):
    """A server keeps at most gallery.KEPT pictures in memory, the last asked for, and at
    most KEPT_BYTES of them (zoomed faces too); one it let go of is read back from the
    cache, the same; the Preview holds no card picture."""
    from generator.serve import Preview, build_preview, gallery, picture
    from generator.load import Project
    monkeypatch.setattr(gallery, "KEPT", 4)
    preview = Preview()
    build_preview(Project.find(), "lastdance", preview)
    names = [c[side] for c in preview.cards for side in ("front", "back")]
    first = {name: picture(preview, name) for name in names}
    assert len(preview.gallery.recent) == 4
    assert not any(name in preview.images for name in names)  # (rulebook pages only)
    again = {name: picture(preview, name) for name in reversed(names)}
    assert again == first and len(preview.gallery.recent) == 4
    from generator.serve.pictures import zoomed  # faces at 200 dpi, kept by the same bound
    fronts = [face for name, (face, _key) in preview.faces.items() if name.endswith("-front.png")]
    sharp = [zoomed(preview, face) for face in fronts[:6]]
    assert all(Image.open(io.BytesIO(z)).width > 2 * Image.open(io.BytesIO(first[names[0]])).width
               for z in sharp)
    monkeypatch.setattr(gallery, "KEPT_BYTES", 2 * max(map(len, sharp)))
    assert [zoomed(preview, face) for face in fronts[:6]] == sharp  # (from the cache folder)
    held = preview.gallery.recent
    assert sum(map(len, held.values())) == preview.gallery.held_bytes <= gallery.KEPT_BYTES
    assert 1 <= len(held) <= 2 and list(held.values())[-1] == sharp[-1]  # the last ones
    preview.gallery.close()


def test_a_reprinted_card_gets_a_new_picture_url_and_the_others_keep_theirs(project):
    """A picture's version comes from its face's identity: known before the picture is
    drawn, new for the edited card only, and for a card held at its last good version (its
    data has an error) the version and picture of that version."""
    from generator.load import Project
    from generator.serve import Preview, build_preview, picture
    preview = Preview()
    build_preview(Project.find(), "lastdance", preview)
    before = {c["id"]: (c["front_v"], picture(preview, c["front"])) for c in preview.cards}
    cards = project / "cards/lastdance/cards.yaml"
    text = cards.read_text("utf-8")
    cards.write_text(text.replace("name: 姫\n", "name: 姫君\n"), "utf-8")
    build_preview(Project.find(), "lastdance", preview)
    after = {c["id"]: (c["front_v"], picture(preview, c["front"])) for c in preview.cards}
    assert [card for card in before if before[card] != after[card]] == ["princess"]
    assert before["princess"][0] != after["princess"][0]
    assert before["princess"][1] != after["princess"][1]
    cards.write_text(text.replace("name: 姫\n", "name: 姫君\n").replace(
        "name_en: Princess\n    copies: 1\n", "name_en: Princess\n    copies: many\n"), "utf-8")
    build_preview(Project.find(), "lastdance", preview)  # an error of the princess's own
    held = next(c for c in preview.cards if c["id"] == "princess")
    assert held.get("held") and (held["front_v"], picture(preview, held["front"])) == \
        after["princess"]
    preview.gallery.close()


def test_what_the_server_holds_does_not_grow_with_each_save(project):
    """Six saves, each a new name for the princess, each picture asked for: the server
    holds the game's faces and keys and the keys of its pictures on disk, as many after
    the sixth save as after the second, and its pictures in memory within their bound."""
    from generator.load import Project
    from generator.serve import Preview, build_preview, gallery, picture
    cards = project / "cards/lastdance/cards.yaml"
    text = cards.read_text("utf-8")
    preview, sizes = Preview(), []
    for n in range(6):
        cards.write_text(text.replace("name: 姫\n", f"name: 姫{n}\n"), "utf-8")
        build_preview(Project.find(), "lastdance", preview)
        for c in preview.cards:
            picture(preview, c["front"])
        held = preview.gallery
        sizes.append((len(preview.faces), len(preview.keys), len(held.on_disk), len(held.todo),
                      len(held.asked)))
        assert len(held.recent) <= gallery.KEPT
    assert sizes[0][0] == 30 and sizes[0][2] == 16  # (15 fronts, one back shared by all)
    # (the first save lays the princess's back out again: a face object of its own, the same
    # key; then nothing grows)
    assert sizes[1:] == [sizes[1]] * 5 and sizes[1][1] <= 30, sizes
    assert len(list((project / "output/.cache/png").glob("*.png"))) == 16 + 5  # each title
    preview.gallery.close()


def test_the_server_asks_for_two_malloc_arenas_before_its_threads_start(project, monkeypatch):
    """glibc's arena a thread (each request's, the builder's, the background's) kept the
    large allocations it freed: `serve` asks for two arenas first, on glibc (arenas.py)."""
    import platform

    import generator.serve as serving
    from generator.serve.arenas import fewer_arenas
    asked: list = []
    monkeypatch.setattr(serving, "fewer_arenas", lambda: asked.append(1) or fewer_arenas())
    with served("lastdance"):
        assert len(asked) == 1
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert fewer_arenas()


def test_a_picture_and_its_version_come_from_one_look(project, tmp_path, monkeypatch):
    """A page still showing picture A asks for it by A's version while the server has B;
    a build that publishes A again between the server's looks sent B's pixels under A's
    version, which the browser keeps for ever (immutable). Found by a review."""
    import threading
    from http.server import ThreadingHTTPServer
    from generator import pipeline
    from generator.load import Project
    from generator.serve import Preview, make_handler
    from generator.serve.gallery import Gallery, version
    from generator.write.png import face_keys
    faces = pipeline.lay_out(pipeline.check(Project.find(project), "lastdance"))
    a, b = [f for d in faces.decks for f in d.fronts.values()][:2]
    key_a, key_b = face_keys([a, b], 80, False)
    name = "main/x-front.png"
    preview = Preview()
    preview.gallery.use(tmp_path / "png", 80, faces.game.main_family.regular)
    preview.faces = {name: (b, key_b)}  # the server shows B
    real = Gallery.picture

    def drawn_while_a_build_publishes(self, key, face, dpi=None):
        data = real(self, key, face, dpi)
        with preview.lock:
            preview.faces = {name: (a, key_a)}  # A again, published meanwhile
        return data
    monkeypatch.setattr(Gallery, "picture", drawn_while_a_build_publishes)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler("lastdance", preview))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/img/{name}"
                                    f"?v={version(key_a)}", timeout=60) as response:
            body, kept = response.read(), response.headers["Cache-Control"]
    finally:
        server.shutdown()
        server.server_close()
    monkeypatch.setattr(Gallery, "picture", real)
    assert _pixels(body) == _pixels(preview.gallery.picture(key_b, b))  # B, as it was asked
    assert "immutable" not in kept  # (under A's version: not to be kept)


def test_a_cache_folder_that_cannot_be_written_is_said_once_in_cardgens_words(
        project, tmp_path, capsys):
    """The background's drawing into a cache folder that cannot be written (a file in its
    place) said 'internal error ... NotADirectoryError: [Errno 20] ...' at every save.
    Found by a review."""
    from generator import pipeline
    from generator.load import Project
    from generator.serve.gallery import Gallery
    from generator.write.png import face_keys
    faces = pipeline.lay_out(pipeline.check(Project.find(project), "lastdance"))
    fronts = [f for d in faces.decks for f in d.fronts.values()]
    (tmp_path / "afile").write_text("x")
    gallery = Gallery()
    gallery.use(tmp_path / "afile" / "png", 80, faces.game.main_family.regular)
    for _save in range(2):
        gallery.draw_later(list(zip(face_keys(fronts, 80, False), fronts)))
        if gallery.thread is not None:
            gallery.thread.join(120)
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [f"serve: the card pictures cannot be kept in {tmp_path}/afile/png (Not a "
                    "directory): each is drawn when the page asks for it"], said
    assert gallery.picture(face_keys(fronts[:1], 80, False)[0], fronts[0])[:4] == b"\x89PNG"


def test_the_picture_cache_is_pruned_to_its_size_oldest_first_never_the_builds(tmp_path):
    """write/png.prune: a cache folder over its budget loses its least recently written
    pictures, down to CACHE_PRUNED_TO of the budget, never one of `keep`; under it, none."""
    import os
    from generator.write import png
    cache = tmp_path / "png"
    cache.mkdir()
    for n in range(10):  # 1,000 bytes each, written one second apart: p0 the oldest
        path = cache / f"p{n}.png"
        path.write_bytes(b"x" * 1000)
        os.utime(path, ns=(n * 10**9, n * 10**9))
    (cache / "note.txt").write_bytes(b"y" * 5000)  # not a picture: not counted, not removed
    assert png.prune(cache, set(), budget=10_000) == 0
    assert png.prune(cache, {"p0", "p2"}, budget=6_000) == 6  # down to 4,800: 4 left
    assert sorted(p.name for p in cache.iterdir()) == ["note.txt", "p0.png", "p2.png",
                                                       "p8.png", "p9.png"]
    assert png.prune(tmp_path / "none", set(), budget=0) == 0
    from pathlib import Path  # the docs say the declared figures (en and ja)
    docs = Path(__file__).parent.parent / "docs"
    most = f"{png.CACHE_BYTES / 1e9:g} GB"
    left = f"{png.CACHE_BYTES * png.CACHE_PRUNED_TO / 1e9:g} GB"
    for page in (docs / "previews.md", docs / "ja" / "previews.md"):
        words = " ".join(page.read_text("utf-8").split())
        assert most in words and left in words, page


def test_a_server_prunes_the_cache_once_its_pictures_are_drawn_keeping_the_games(
        project, monkeypatch):
    """Once the background has drawn a build's pictures, a cache folder over its size loses
    older pictures (another game's, an earlier layout's), never the build's own."""
    import os
    from generator.write import png
    cache = project / "output/.cache/png"
    cache.mkdir(parents=True)
    for n in range(5):  # pictures of an earlier layout, older than any the server draws
        old = cache / f"{n:064x}.png"
        old.write_bytes(b"\x89PNG" + b"x" * 200_000)
        os.utime(old, ns=(10**9, 10**9))
    monkeypatch.setattr(png, "CACHE_BYTES", 1)  # any picture more is over
    with served("lastdance") as (url, state):
        state, deadline = _drawn(url), time.monotonic() + 10
        while any((cache / f"{n:064x}.png").exists() for n in range(5)):  # (pruned after
            assert time.monotonic() < deadline, "the old pictures were kept"  # the last one)
            time.sleep(0.1)
        kept = {p.read_bytes() for p in cache.glob("*.png")}
        assert set(_pictures(url, state).values()) == kept  # and every one of the game's


def test_the_page_says_while_the_background_draws_the_pictures(project, monkeypatch):
    """The header says the pictures are still being drawn in the background (state's
    `drawing`), and says it no more once the last is drawn (the server's version bump)."""
    from generator.serve import gallery
    from test_serve import chrome, _text, _until
    draw = gallery.Gallery._draw
    monkeypatch.setattr(gallery.Gallery, "_draw", lambda self: None)  # held back: none drawn
    with served("lastdance") as (url, state):
        assert state["drawing"]
        with chrome() as browser:
            browser.get(url + "/")
            _until(lambda: "Drawing the pictures…" in _text(browser, "id", "status"),
                   "the page does not say the pictures are being drawn")
    monkeypatch.setattr(gallery.Gallery, "_draw", draw)
    with served("lastdance") as (url, state):
        with chrome() as browser:
            browser.get(url + "/")
            _drawn(url)
            _until(lambda: "last good build" in _text(browser, "id", "status") and
                   "Drawing" not in _text(browser, "id", "status"),
                   "the page still says the pictures are being drawn")


def test_a_png_build_keeps_every_picture_it_made_or_read_and_prunes_the_rest(
        project, cardgen, monkeypatch):
    """`build --png` prunes the cache once, after all its pictures (every deck's, the Tabletop
    Simulator sheets'): what it drew or read stays, even over the budget; a picture it did
    not use goes (a reviewer found each deck's call pruning the decks before it)."""
    import os
    from generator.write import png
    cache = project / "output/.cache/png"
    cache.mkdir(parents=True)
    stale = cache / ("0" * 64 + ".png")
    stale.write_bytes(b"\x89PNG" + b"x" * 1000)
    os.utime(stale, ns=(10**9, 10**9))
    monkeypatch.setattr(png, "CACHE_BYTES", 1)  # any picture more is over
    assert cardgen("build", "lastdance", "--png", "--tts").code == 0
    drawn = {p.name for p in cache.glob("*.png")}
    assert stale.name not in drawn and len(drawn) > 10
    before = {name: (cache / name).stat().st_mtime_ns for name in drawn}
    assert cardgen("build", "lastdance", "--png", "--tts").code == 0  # all read back
    assert {p.name for p in cache.glob("*.png")} == drawn  # (none drawn, none pruned)
    assert all((cache / name).stat().st_mtime_ns >= before[name] for name in drawn)
