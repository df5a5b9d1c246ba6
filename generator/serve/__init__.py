"""`cardgen serve GAME`: a live preview page on localhost.

A builder thread watches the game's files (its folder, layouts/, fonts/) and, when one
changes, validates and lays the game out again; it publishes the cards at once, then the
rulebook's and boards' pages, the statistics and the sheets. A card face's picture is drawn
when the page asks for it, or before in the background, and kept on disk by the face's
identity (gallery.py), so only changed cards are drawn; invalid data updates the report and
keeps the last good pictures. The page asks
/state.json for the next version (long polling) and is sent only the cards that changed
since the version it has; it updates itself in place.

The server binds 127.0.0.1 by default and serves only what the builder made, by name:
never a file path taken from a request.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import jinja2

from pathlib import Path

from .. import fonts, pipeline
from ..layout.memo import FaceMemo
from ..load import Project
from ..problems import DataProblems, UsageError, printable
from ..watch import changed_files, files_stamp, watch as poll
from .cards import card_entries  # the gallery's cards
from .page import as_shown, font_bytes, late_problems, page_fonts  # its fonts, its problems
from .arenas import fewer_arenas  # the server's memory with its threads
from .changes import changes_since  # the view of what prints differently
from .gallery import Gallery, version  # the cards' pictures, drawn when asked, kept on disk
from .pictures import GALLERY_DPI, ZOOM_DPI, large_page, with_guides, zoomed  # drawn apart
from .sheets import sheet_picture, sheets_of  # the Sheets view
from .stats import stats_blocks  # the Stats view
from .. import i18n
from ..i18n import N_, _



@dataclass
class Preview:
    """The last good pictures and the latest report, shared with the request handlers."""

    version: int = 0
    images: dict[str, bytes] = field(default_factory=dict)  # rulebook, board page -> PNG
    cards: list[dict] = field(default_factory=list)  # id, name, deck, copies, front, back
    pages: list[str] = field(default_factory=list)  # rulebook page image names
    boards: list[dict] = field(default_factory=list)  # id, title, page image names
    problems: list[dict] = field(default_factory=list)
    ok: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    since: str | None = None  # `--changes-since REV`: show what prints differently since REV
    changes: list[dict] = field(default_factory=list)  # id, side, causes, before, after
    lang: str = "en"  # the game's language (Game.lang), for the page's lang attribute
    title: str = ""  # the game's title as files show it (its id until it has built once)
    decks: list[dict] = field(default_factory=list)  # id, name, in order
    fonts: dict[str, Path] = field(default_factory=dict)  # served name -> TrueType file
    font_family: dict[str, str] = field(default_factory=dict)  # weight -> served name (page_fonts)
    building: bool = False  # a build is running
    stats: list[dict] = field(default_factory=list)  # the Stats view's blocks (stats_blocks)
    built_at: str = ""  # when the last good build finished, HH:MM:SS
    digests: dict[str, str] = field(default_factory=dict)  # a page's name -> its digest
    faces: dict[str, tuple] = field(default_factory=dict)  # card picture name -> (Face, key)
    font: str = ""  # the game's main font (what a zoomed face's fallback text is set in)
    root: str = ""  # the project's folder: a problem's file:line opens in an editor from it
    closing: bool = False  # the server is stopping: waiting pages are answered at once
    gallery: Gallery = field(default_factory=Gallery)  # the card faces' pictures
    game: Any = None  # the last good Game: a card laid out again with its guides, for zoom
    revs: dict[str, int] = field(default_factory=dict)  # card id -> version it last changed at
    asked: str | None = None  # the language --lang asked for (i18n), if any
    words: dict[str, str] = field(default_factory=dict)  # the page's words, in its language
    sheets: list[dict] = field(default_factory=list)  # the sheet view: n, deck, cards, pages
    sheet_pages: dict[str, tuple] = field(default_factory=dict)  # name -> (Page, identity)
    sheet_pictures: dict[str, bytes] = field(default_factory=dict)  # identity -> PNG, drawn
    memo: FaceMemo = field(default_factory=FaceMemo)  # the faces by their inputs (one builder)
    keys: dict[int, tuple] = field(default_factory=dict)  # a face's picture key (face_keys)
    stamp: tuple | None = None  # the game's files as the last build found them (watch)
    large: dict[str, tuple] = field(default_factory=dict)  # rulebook or board page -> source
    drawn_large: dict[str, bytes] = field(default_factory=dict)  # those drawn, by name

    def __post_init__(self):
        self.changed = threading.Condition(self.lock)  # a page waiting for the next version

    def bump(self) -> None:
        """A new version of what the page shows (the lock held): waiting pages hear of it."""
        self.version += 1
        self.changed.notify_all()
    server: str = field(default_factory=lambda: secrets.token_hex(6))  # this server's run


def build_preview(project: Project, game: str, preview: Preview,
                  dpi: int = GALLERY_DPI) -> None:
    from ..write.png import pdf_to_pngs  # pypdfium2 only when serving

    with preview.lock:
        preview.building = True
        preview.bump()
    preview.gallery.hold()  # the background's drawing waits until the cards are out
    try:  # (the cycle collector walked the server's every object 400 times a save, a
        with pipeline.cycle_collector_paused():  # quarter of its time at 10,000 cards)
            _build_preview(project, game, preview, dpi, pdf_to_pngs)
    finally:
        preview.gallery.release()
        with preview.lock:
            preview.building = False
            preview.bump()


def picture(preview: Preview, name: str) -> bytes | None:
    """The picture of that name: a card face's (drawn now if it is not yet), a rulebook's or
    board's page, a view's; None for a name the last build did not make."""
    return picture_and_version(preview, name)[0]


def picture_and_version(preview: Preview, name: str) -> tuple[bytes | None, str | None]:
    """picture(), and the version of that very picture (its URL's ?v=), from one look at
    what the last build made: a build published between two looks would send a newer
    picture under an older version, kept by the browser for ever."""
    with preview.lock:
        data, drawn = preview.images.get(name), preview.faces.get(name)
        current = version(drawn[1]) if drawn else preview.digests.get(name)
    if data is None and drawn is not None:
        data = preview.gallery.picture(drawn[1], drawn[0])
    return data, current





def _book_and_boards(game_, faces, outcome, images: dict, font: str, pdf_to_pngs,
                     large: dict | None = None):
    """The rulebook's pages and the boards' pages as pictures (added to `images`), and the
    rulebook's PDF (None: the game has none). `large` gets what draws each page again at
    LARGE_DPI when it is opened (large_page)."""
    pages, pdf = [], None
    large = {} if large is None else large
    if game_.rulebook is not None and outcome.rulebook_markdown is not None:
        from .. import rulebook
        book = rulebook.build(game_, faces, outcome.rulebook_markdown)
        pdf = book.pdf
        for n, image in enumerate(pdf_to_pngs(book.pdf, 60), 1):
            images[f"rulebook/page-{n}.png"] = image
            pages.append(f"rulebook/page-{n}.png")
            large[f"rulebook/page-{n}.png"] = ("pdf", book.pdf, n - 1)
    boards = []
    if faces.boards:
        from ..impose import impose_board
        from ..write.png import rasterise
        for board_face in faces.boards:
            sheets = impose_board(board_face, font, lang=game_.lang)
            names = [f"boards/{board_face.board.id}-{n}.png" for n in range(1, len(sheets) + 1)]
            images.update(zip(names, rasterise(list(sheets), 40, font)))
            large.update((name, ("page", sheet, font)) for name, sheet in zip(names, sheets))
            boards.append({"id": board_face.board.id, "title": board_face.board.name,
                           "pages": names})
    return pages, boards, pdf


AS_BEFORE = _(" (as of the last good build)")  # a draft kept while the data does not load


def _build_preview(project, game, preview, dpi, pdf_to_pngs) -> None:
    stamp = files_stamp(project, game)  # the files changed since the last build: one that
    if preview.stamp is not None:  # is not data (an image, a font) lays out every face again
        preview.memo.saved(changed_files(preview.stamp, stamp))
    preview.stamp = stamp
    outcome = pipeline.check(project, game)
    faces = pipeline.lay_out(outcome, partial=True,  # what lays out shows, errors or not;
                             memo=preview.memo)  # only the faces whose inputs changed
    declared = i18n.declared(project.cards / game / "game.yaml") or ""  # (while it fails too)
    with i18n.speaking(preview.asked, game=declared):  # the page's language: as the CLI's
        problems = as_shown(outcome.report)
        preview.words = page_words()
        kept = AS_BEFORE.shown()  # what a draft kept while the game does not load adds
    if faces is None:
        _keep_last_good(preview, problems, kept)
        return
    errors, game_ = bool(outcome.report.errors), faces.game
    # A card with an error of its own keeps its last good pictures (and says so); the others,
    # new cards too, show as they are now, while a check of the game's own fails.
    own = {c.name for c in game_.checks} | {c.name for c in game_.python_checks}
    faulty = set(outcome.report.tainted) | {
        card for p in outcome.report.errors if p.check not in own
        for card in (p.cards if p.card is None else (p.card,))}  # (one said for many: each)
    font = game_.main_family.regular
    with preview.lock:
        last = dict(preview.faces)  # the last good faces and their keys, by picture name
        before = {c["id"]: c for c in preview.cards}
    order, face_list, cards = card_entries(faces, faulty, last, before)
    # Each face's picture is known by its key before it is drawn: the cards are published
    # now, their pictures drawn when the page asks for them (or in the background, after)
    from ..write.png import face_keys
    keys = face_keys(face_list, dpi, False, known=preview.keys)
    drawn = dict(zip(order, zip(face_list, keys)))
    for c in cards:
        if c.get("held"):
            drawn[c["front"]], drawn[c["back"]] = last[c["front"]], last[c["back"]]
    for c in cards:  # a card's pictures' versions are in its entry: a new picture, a
        c["front_v"], c["back_v"] = version(drawn[c["front"]][1]), version(drawn[c["back"]][1])
    served = page_fonts(game_)
    preview.gallery.use(project.output / ".cache" / "png", dpi, font)
    with preview.lock:  # the cards first: a save shows before the rulebook is made again
        _publish_cards(preview, cards, before)
        preview.faces, preview.font = drawn, font
        if not errors:
            preview.game = game_
        preview.root = str(project.root.resolve())
        preview.problems, preview.ok = problems, not errors
        preview.lang = game_.lang
        preview.title = game_.display_title
        preview.decks = [{"id": d.deck.id, "name": d.deck.name} for d in faces.decks]
        preview.fonts = {name: fonts.file_of(name) for name in served.values()}
        preview.font_family = served
        preview.built_at = time.strftime("%H:%M:%S")
        preview.bump()
    preview.gallery.draw_later([(key, face) for face, key in drawn.values()])
    preview.gallery.release()  # (the rest is the background's to share the cores with)
    if not errors:  # else the rulebook, boards, statistics and changes of the last good build
        _publish_the_rest(project, game, preview, outcome, faces, font, pdf_to_pngs)  # stay


def _keep_last_good(preview: Preview, problems: list[dict], kept: str) -> None:
    """The game did not load: keep the last pictures and their drafts (still to decide),
    each saying so (`kept`: AS_BEFORE in the page's language)."""
    with preview.lock:
        drafts = [{**p, "message": p["message"].removesuffix(AS_BEFORE) + AS_BEFORE,
                   "text": p["text"].removesuffix(kept) + kept}
                  for p in preview.problems if p["check"] == "draft"]
        preview.problems, preview.ok = problems + drafts, False


def _publish_the_rest(project, game, preview: Preview, outcome, faces, font: str,
                      pdf_to_pngs) -> None:
    """After the cards, for a game without errors: the rulebook's and boards' pages, what
    prints differently (--changes-since), the statistics and the sheets."""
    made: dict[str, bytes] = {}
    large: dict = {}
    try:
        pages, boards, pdf = _book_and_boards(faces.game, faces, outcome, made, font,
                                              pdf_to_pngs, large)
    except DataProblems as exc:  # a rulebook past its page budget: said as a build says it
        late_problems(preview, exc.report, i18n.declared(project.cards / game / "game.yaml") or "")
        return
    changes = changes_since(project, game, preview.since, made, faces,
                            outcome.rulebook_markdown, pdf) if preview.since else []
    blocks = stats_blocks(faces.game, pipeline.statistics(outcome))
    with preview.lock:
        keys = dict(preview.keys)  # (the builder's own: a copy, as the lock is kept short)
    sheets, sheet_pages = sheets_of(faces, keys)
    with preview.lock:
        preview.digests = _digests(made, preview.images, preview.digests)
        preview.images = made
        preview.pages, preview.boards, preview.changes = pages, boards, changes
        preview.large, preview.drawn_large = large, {}
        preview.stats = blocks
        preview.sheets, preview.sheet_pages = sheets, sheet_pages


def _digests(images: dict, last: dict, known: dict) -> dict:
    """Each picture's digest (its URL's version): a picture that is the very one of the
    last build keeps the digest it had, without hashing it again."""
    return {name: known[name] if last.get(name) is data and name in known
            else hashlib.sha1(data).hexdigest()[:12] for name, data in images.items()}


def _publish_cards(preview: Preview, cards: list[dict], before: dict) -> None:
    """The new cards (the lock held), each with the version it last changed at: a page
    that has version V is sent only the cards that changed since (page_state)."""
    now = preview.version + 1  # the version this publication is (bump follows)
    preview.revs = {c["id"]: preview.revs.get(c["id"], now) if before.get(c["id"]) == c else now
                    for c in cards}
    preview.cards = cards


# The page is one Jinja2 template with autoescaping on; its state (cards, problems) travels
# as JSON (`tojson` escapes <, > and &), and the page's script builds the gallery and the
# report from it with DOM calls and textContent, never with HTML strings: a value from data
# is text wherever it shows. The Content-Security-Policy lets only the page's own script and
# style run (by a nonce made for each response), and fonts and images only from this server.
# The page, its style and its script are package files (generator/serve/static), kept as
# HTML, CSS and JavaScript; the style and script are included into the one response.
_PAGES = jinja2.Environment(loader=jinja2.PackageLoader("generator.serve", "static"),
                            autoescape=True, undefined=jinja2.StrictUndefined)
PAGE = _PAGES.get_template("page.html")


def policy(nonce: str) -> str:
    """The page's Content-Security-Policy: its own script and style (by nonce), images, fonts
    and fetches from this server, nothing else."""
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "img-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")


def page_state(preview: Preview, since: int | None = None) -> dict:
    """What the page shows, as JSON: each problem with the card it is about (if any) and its
    group (game, data, layout); the cards that changed since version `since` (the page's),
    or all of them, with the order of every card's id; the cards that print differently
    since --changes-since."""
    problems = []
    ids = {c["id"] for c in preview.cards}
    for p in preview.problems:
        card = _card_of(p, ids)
        file = p["file"]
        group = ("layout" if file.startswith("layouts/") else
                 "game" if file.endswith("game.yaml") or not file else "data")
        problems.append({**p, "card": card, "group": group})
    cards = preview.cards if since is None else [
        c for c in preview.cards if preview.revs.get(c["id"], since + 1) > since]
    where = {tuple(c["where"]) for c in preview.changes if c.get("where")}
    changed_pages = [p for n, p in enumerate(preview.pages, 1) if ("rulebook", n) in where]
    boards = [{**b, "changed": [p for n, p in enumerate(b["pages"], 1)
                                if ("board", b["id"], n) in where]} for b in preview.boards]
    return {"version": preview.version, "ok": preview.ok, "building": preview.building,
            "title": preview.title,  # (game.yaml's title: may change while the page is open)
            "server": preview.server, "fonts": bool(preview.font_family),
            # CARDGEN_EDITOR, such as vscode://file/{path}:{line}:{col}: file:line as a link
            "editor": os.environ.get("CARDGEN_EDITOR", ""), "root": preview.root,
            # an image's URL changes only when its picture does (a card's are in its entry)
            "v": preview.digests,  # (a card's are in its entry)
            "drawing": preview.gallery.remaining > 0,  # pictures still drawn in the background
            "built_at": preview.built_at, "problems": problems,
            "cards": cards, "delta": since is not None, "order": [c["id"] for c in preview.cards],
            "changed": sorted({c["id"] for c in preview.changes}),
            "since": preview.since, "changes": preview.changes,  # (the changes view, live)
            "decks": preview.decks, "pages": preview.pages, "stats": preview.stats,
            "changed_pages": changed_pages, "boards": boards, "sheets": preview.sheets,
            "dpi": [GALLERY_DPI, ZOOM_DPI]}  # a card's pictures: the gallery's, a sharp one


# The words of the page (page.html's t() and page.js's T() and N()), marked here for the
# catalogue; tests/test_i18n.py checks that every word the page says is one of them.
PAGE_WORDS = (
    N_("cardgen preview"), N_("Search cards: id, name or any value"), N_("Search cards"),
    N_("Cards"), N_("Stats"), N_("Sheets"), N_("drafts"), N_("problems"),
    N_("changed since {since}"),
    N_("The data has errors: these are the last good cards."),
    N_("The data has errors: nothing has built yet."),
    N_("The cardgen server has stopped: reconnecting…"),
    N_("No cards match the search and filters."),
    N_("Each sheet as cardgen build imposes it: its fronts, and beside it its back page as it "
      "prints on the reverse."),
    N_("Report"), N_("Changes since {since}"), N_("before"), N_("after"),
    N_("Nothing printed has changed."), N_("Rulebook"), N_("Boards"),
    N_("{n} error"), N_("{n} errors"), N_("{n} draft"), N_("{n} drafts"), N_("{n} other warning"),
    N_("{n} other warnings"), N_("{n} warning"), N_("{n} warnings"), N_(", "),
    N_(", last good build {when}"), N_("Building…"), N_("Drawing the pictures…"),
    N_("All decks"), N_("back of {name}"),
    N_("(last good version: it has errors)"), N_("card {id}"), N_("no problems"),
    N_("show the card"), N_("error"), N_("warning"), N_("game"), N_("data"), N_("layout"),
    N_("turned over on its long edge"), N_("turned over on its short edge"),
    N_("sheet {n}, fronts"), N_("sheet {n}, backs"), N_("{n} card"), N_("{n} cards"),
    N_("{n} blank slot (filler cards)"), N_("{n} blank slots (filler cards)"), N_(" and "),
    N_("Sheet {n}: {deck}, {what}; the back page as it prints, {flip}"),
    N_("No sheets yet: they come with a build without errors."), N_("changed"),
    N_("This deck prints no sheets."),
    N_("rulebook page"), N_("board {title}"), N_("Close (Esc)"), N_("Hide guides"),
    N_("Show guides"), N_("{w} × {h} mm, at print size; ← → for the next card"),
)


def page_words() -> dict[str, str]:
    """The page's words in the moment's language: English -> as the page says it (nothing
    for English, which the page says as written)."""
    lang = i18n.language()
    if lang == i18n.DEFAULT:
        return {}
    return {w.template: w.shown(lang) for w in PAGE_WORDS}


def render_page(game: str, preview: Preview, nonce: str = "") -> str:
    with preview.lock:
        words = dict(preview.words)

        def t(text: str, **values) -> str:  # page.html's words
            return words.get(text, text).format(**values)
        return PAGE.render(title=preview.title or game, version=preview.version, nonce=nonce,
                           lang=preview.lang, state=page_state(preview),
                           font_family=dict(preview.font_family), since=preview.since,
                           t=t, words=words)


def _card_of(problem: dict, ids) -> str:
    """The card of `ids` a problem is about, if any (the problem says so as data)."""
    card = problem.get("card")
    return card if isinstance(card, str) and card in ids else ""


def _since(query: str, seen: str | None, preview: Preview) -> int | None:
    """The version a page has (?since=V), if it is of this server's run and not newer than
    the server's: then it is sent only what changed since. Otherwise None: everything (a
    number of more than 18 digits too: no run counts that far, and Python reads at most
    4,300)."""
    asked = parse_qs(query).get("since", [""])[0]
    if not (asked.isascii() and asked.isdigit()) or len(asked) > 18 or \
            not (seen or "").startswith(f'"{preview.server}-'):
        return None
    return int(asked) if int(asked) <= preview.version else None


WAIT = 20.0  # seconds a page asking with ?wait is held when nothing changes (long polling)


def make_handler(game: str, preview: Preview, project: Project | None = None):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # keep the terminal for the report
            pass

        _head = False  # answering HEAD: the headers of GET, no body

        def _send(self, status: int, body: bytes, kind: str, headers: dict | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if "Cache-Control" not in (headers or {}):
                self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if not self._head and status not in (204, 304):
                self.wfile.write(body)

        def do_HEAD(self):  # what GET answers, without its body
            self._head = True
            try:
                self.do_GET()
            finally:
                self._head = False

        def do_GET(self):
            url = urlparse(self.path)
            path = unquote(url.path)
            if path == "/favicon.ico":  # the page declares none: nothing, not a 404
                self._send(204, b"", "image/x-icon", {"Cache-Control": "max-age=86400"})
            elif path == "/":
                nonce = secrets.token_urlsafe(16)
                self._send(200, render_page(game, preview, nonce).encode("utf-8"),
                           "text/html; charset=utf-8", {"Content-Security-Policy": policy(nonce)})
            elif path == "/state.json":
                seen = self.headers.get("If-None-Match")
                with preview.lock:  # with ?wait, a page that is up to date waits for news
                    deadline = time.monotonic() + WAIT
                    while "wait" in parse_qs(url.query) and not preview.closing and \
                            seen == f'"{preview.server}-{preview.version}"' and \
                            time.monotonic() < deadline:
                        preview.changed.wait(deadline - time.monotonic())
                    tag = f'"{preview.server}-{preview.version}"'
                    # same: 304; a page of this run that says its version gets what changed
                    since = _since(url.query, seen, preview)
                    state = None if seen == tag else page_state(preview, since)
                if state is None:
                    self._send(304, b"", "application/json", {"ETag": tag})
                else:
                    self._send(200, json.dumps(state, ensure_ascii=False).encode("utf-8"),
                               "application/json", {"ETag": tag})
            elif path.startswith("/fonts/") and path.endswith(".ttf"):
                name = path[len("/fonts/"):-len(".ttf")]
                with preview.lock:  # only the game's own fonts, by their registered names
                    known = name in preview.fonts
                data = font_bytes(name) if known else None
                if data is None:
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, data, "font/ttf", {"Cache-Control": "max-age=86400"})
            elif path.startswith("/zoom/"):  # a card face sharp at print size (ZOOM_DPI)
                name = path[len("/zoom/"):]
                with preview.lock:
                    drawn, game_now = preview.faces.get(name), preview.game
                face, current = (drawn[0], version(drawn[1])) if drawn else (None, None)
                if face is not None and parse_qs(url.query).get("guides") == ["1"]:
                    face = with_guides(game_now, name) or face  # trim, bleed, safe, boxes
                if face is None:
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, zoomed(preview, face), "image/png",
                               {"Cache-Control": "max-age=31536000, immutable"}
                               if parse_qs(url.query).get("v") == [current] else None)
            elif path.startswith("/large/"):  # a rulebook or board page, to read (LARGE_DPI)
                name = path[len("/large/"):]
                data = large_page(preview, name)
                if data is None:
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, data, "image/png")
            elif path.startswith("/img/"):
                name = path[len("/img/"):]
                data, current = picture_and_version(preview, name)  # by name only
                if data is None and name.startswith("sheets/"):  # drawn when first asked for
                    data, current = sheet_picture(preview, name)
                if data is None:
                    self._send(404, b"not found", "text/plain")
                else:  # asked for by its digest: the same URL is the same picture for ever
                    cached = current is not None and parse_qs(url.query).get("v") == [current]
                    self._send(200, data, "image/png", {"Cache-Control": "max-age=31536000, "
                                                        "immutable"} if cached else None)
            else:
                self._send(404, b"not found", "text/plain")

    return Handler


def watch(project: Project, game: str, preview: Preview, stop: threading.Event,
          report=None) -> None:
    """Rebuild the preview whenever the game's files change, until `stop` is set (the same
    poller as `cardgen watch`). An internal error keeps the last good cards."""

    def rebuild(_game: str) -> None:
        build_preview(project, game, preview)
        if report:
            report(preview)

    def failed(_game: str, exc: Exception) -> None:
        with preview.lock:
            preview.problems = [{"file": "", "line": 0, "col": 0, "level": "error",
                                 "message": f"internal error: {printable(str(exc))}",
                                 "check": "internal"}]
            preview.ok = False
            preview.bump()
        if report:
            report(preview)

    poll(project, [game], rebuild, stop, failed)  # at watch.POLL, as cardgen watch looks


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    lang: str | None = None  # the language the command speaks in

    def handle_error(self, request, client_address):
        """One line, not socketserver's traceback: a browser that closes a connection early
        (a reload, a closed tab) is ordinary."""
        exc = sys.exc_info()[1]
        with i18n.speaking(self.lang):  # (a thread of its own: the command's language)
            if isinstance(exc, (ConnectionError, TimeoutError)):
                said = _("serve: a browser closed its connection early ({address})",
                         address=client_address[0])
            else:
                said = _("serve: internal error answering {address}: {kind}: {exc}",
                         address=client_address[0], kind=type(exc).__name__,
                         exc=printable(str(exc)))
            print(said.shown(), file=sys.stderr, flush=True)


def serve(project: Project, game: str, host: str = "127.0.0.1", port: int = 8000,
          ready=None, stop: threading.Event | None = None, report=None,
          since: str | None = None) -> None:
    """Serve until `stop` is set (or the process is interrupted). `ready` is called with the
    bound address; `report` after every rebuild, with the Preview; `since`, a git revision,
    adds a view of every face that prints differently since it."""
    fewer_arenas()  # (before the threads start: arenas.py)
    preview = Preview(since=since, asked=i18n.asked(), words=page_words())
    stop = stop or threading.Event()
    try:
        server = _Server((host, port), make_handler(game, preview, project))
    except OSError as exc:
        import errno
        # (whole sentences, not one sentence with a piece put in: Japanese joins them otherwise)
        said = _("port {port} on {host} is in use (is another cardgen serve running?); pass "
                 "--port N", port=port, host=host) if exc.errno == errno.EADDRINUSE \
            else _("port {port} on {host} cannot be opened ({exc_strerror}); pass --port N",
                   port=port, host=host, exc_strerror=exc.strerror)
        raise UsageError(said) from None
    server.lang = i18n.language()

    def drawn() -> None:  # the background has drawn every picture: pages hear of it
        with preview.lock:
            preview.bump()
    preview.gallery.done = drawn
    builder = threading.Thread(target=watch, args=(project, game, preview, stop, report),
                               daemon=True)
    builder.start()
    if ready:
        ready(server.server_address)

    def stop_serving() -> None:  # once stop is set (Ctrl-C, or the caller's own stop)
        stop.wait()
        server.shutdown()
    threading.Thread(target=stop_serving, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        with preview.lock:  # pages waiting for news hear at once, and find the server gone
            preview.closing = True
            preview.changed.notify_all()
        preview.gallery.close()
        server.server_close()
