"""`cardgen serve GAME`: a live preview page on localhost.

A builder thread watches the game's files (its folder, layouts/, fonts/) and, when one
changes, validates and lays the game out again, rasterising card faces (cached by
content, so only changed cards are drawn) and the rulebook's pages. The results are held
in memory; invalid data updates the report and keeps the last good pictures. The page
polls /state.json and reloads itself when a new build is ready.

The server binds 127.0.0.1 by default and serves only what the builder made, by name:
never a file path taken from a request.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

import jinja2

from . import pipeline
from .load import Project
from .problems import UsageError, printable
from .watch import watch as poll

POLL = 0.4  # seconds between looks at the files


@dataclass
class Preview:
    """The last good pictures and the latest report, shared with the request handlers."""

    version: int = 0
    images: dict[str, bytes] = field(default_factory=dict)  # name -> PNG
    cards: list[dict] = field(default_factory=list)  # id, name, deck, copies, front, back
    pages: list[str] = field(default_factory=list)  # rulebook page image names
    problems: list[dict] = field(default_factory=list)
    ok: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    since: str | None = None  # `--changes-since REV`: show what prints differently since REV
    changes: list[dict] = field(default_factory=list)  # id, side, causes, before, after
    lang: str = "en"  # the game's language (Game.lang), for the page's lang attribute


def build_preview(project: Project, game: str, preview: Preview, dpi: int = 80) -> None:
    from .write.png import faces_to_png, pdf_to_pngs  # pypdfium2 only when serving

    outcome = pipeline.check(project, game)
    faces = pipeline.lay_out(outcome)
    problems = [p.as_dict() for p in outcome.report.sorted()]
    if faces is None:
        with preview.lock:  # keep the last good pictures
            preview.problems, preview.ok = problems, False
            preview.version += 1
        return
    game_ = faces.game
    font = game_.main_family.regular
    order, face_list, cards = [], [], []
    for deck in faces.decks:
        for card in deck.deck.cards:
            entry = {"id": card.id, "deck": deck.deck.id, "copies": card.copies,
                     "name": str(card.fields.get("name", card.id))}
            for side, face in (("front", deck.fronts[card.id]), ("back", deck.backs[card.id])):
                entry[side] = f"{deck.deck.id}/{card.id}-{side}.png"
                order.append(entry[side])
                face_list.append(face)
            cards.append(entry)
    cache = project.output / ".cache" / "png"
    images = dict(zip(order, faces_to_png(face_list, dpi, font, cache, bleed=False)))
    pages = []
    if game_.rulebook is not None and outcome.rulebook_markdown is not None:
        from . import rulebook
        book = rulebook.build(game_, faces, outcome.rulebook_markdown)
        for n, image in enumerate(pdf_to_pngs(book.pdf, 60), 1):
            images[f"rulebook/page-{n}.png"] = image
            pages.append(f"rulebook/page-{n}.png")
    changes = _changes(project, game, preview.since, images) if preview.since else []
    with preview.lock:
        preview.images, preview.cards, preview.pages = images, cards, pages
        preview.problems, preview.ok = problems, True
        preview.lang = game_.lang
        preview.changes = changes
        preview.version += 1


def _outlined(png: bytes, regions) -> bytes:
    import io

    from PIL import Image as PILImage
    from PIL import ImageDraw
    with PILImage.open(io.BytesIO(png)) as im:
        im = im.convert("RGB")
        draw = ImageDraw.Draw(im)
        for x, y, w, h in regions:
            draw.rectangle([x * im.width - 1, y * im.height - 1, (x + w) * im.width + 1,
                            (y + h) * im.height + 1], outline=(217, 26, 26), width=2)
        out = io.BytesIO()
        im.save(out, "PNG")
        return out.getvalue()


def _changes(project: Project, game: str, since: str, images: dict) -> list[dict]:
    """The reprinted faces since a revision, before and after, their changes outlined: the
    same diff and the same regions as `cardgen diff --visual`."""
    from .diff import diff_game
    from .problems import CardgenError
    from .write.changes import changed_regions
    try:
        diff = diff_game(project, game, since, visual=True)
    except CardgenError as exc:
        return [{"id": "", "side": "", "causes": [f"cannot compare with {since}: {exc}"],
                 "before": "", "after": ""}]
    out = []
    for reprint in diff.reprinted:
        for side in reprint.sides:
            before, after = diff.rasters[reprint.new.id, side]
            regions = changed_regions(before, after)
            names = (f"changes/{reprint.new.id}-{side}-before.png",
                     f"changes/{reprint.new.id}-{side}-after.png")
            images[names[0]], images[names[1]] = _outlined(before, regions), _outlined(after, regions)
            out.append({"id": reprint.new.id, "side": side, "causes": reprint.causes,
                        "before": names[0], "after": names[1]})
    return out


# The page is a Jinja2 template with autoescaping on: every value from data (ids, names,
# messages, file names) is escaped in text, attributes and URLs. The Content-Security-Policy
# lets only the page's own script and style run, by a nonce made for each response, so a
# script that data smuggled in would not run even if escaping failed.
_PAGES = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
PAGE = _PAGES.from_string("""<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }} — cardgen preview</title>
<style nonce="{{ nonce }}">
body { font-family: sans-serif; margin: 1.5em; background: #f4f2ee; color: #222; }
.cards { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; background: white; padding: 6px; border-radius: 4px; }
figure img { height: 170px; margin-right: 4px; }
figcaption { font-size: 13px; }
.problems li.error { color: #b00; } .problems li.warning { color: #8a6d00; }
.rulebook img { width: 280px; margin: 4px; border: 1px solid #ccc; }
.stale { background: #fdd; padding: .5em; }
.changes figure { display: inline-block; background: white; padding: 6px; margin: 4px; }
.changes img { height: 150px; margin-right: 4px; }
</style></head>
<body data-version="{{ version }}">
<h1>{{ title }}</h1>
{% if not ok %}<p class="stale">The data has errors: these are the last good cards.</p>{% endif %}
<h2>Report</h2><ul class="problems">
{%- for p in problems %}
<li class="{{ p.level }}"><a href="#{{ p.anchor | urlencode }}">{{ p.file }}:{{ p.line }}:{{ p.col }}</a>
{{ p.level }}: {{ p.message }} [{{ p.check }}]</li>
{%- else %}<li>no problems</li>{% endfor %}</ul>
<h2>Cards</h2><div class="cards">
{%- for c in cards %}
<figure id="card-{{ c.id }}" class="card"><img src="/img/{{ c.front | urlencode }}?v={{ version }}" alt="{{ c.name }}"><img
 src="/img/{{ c.back | urlencode }}?v={{ version }}" alt="back of {{ c.name }}">
<figcaption><span class="name">{{ c.name }}</span> <code>{{ c.id }}</code> ×{{ c.copies }}</figcaption></figure>
{%- endfor %}</div>
{% if since %}<h2>Changes since {{ since }}</h2><div class="changes">
{%- for c in changes %}
<figure class="change" id="change-{{ c.id }}-{{ c.side }}">{% if c.before %}<img
 src="/img/{{ c.before | urlencode }}?v={{ version }}" alt="before"><img
 src="/img/{{ c.after | urlencode }}?v={{ version }}" alt="after">{% endif %}
<figcaption><code>{{ c.id }}</code> {{ c.side }}<ul>{% for cause in c.causes %}<li>{{ cause }}</li>{% endfor %}</ul></figcaption></figure>
{%- else %}<p>Nothing printed has changed.</p>{% endfor %}</div>{% endif %}
<h2>Rulebook</h2><div class="rulebook">
{%- for p in pages %}<img src="/img/{{ p | urlencode }}?v={{ version }}" alt="rulebook page">{% endfor %}</div>
<script nonce="{{ nonce }}">
const shown = {{ version }};
setInterval(async () => {
  try {
    const state = await (await fetch('/state.json', {cache: 'no-store'})).json();
    if (state.version !== shown) location.reload();
  } catch (e) {}
}, 700);
</script>
</body></html>
""")


def policy(nonce: str) -> str:
    """The page's Content-Security-Policy: its own script and style (by nonce), images and
    fetches from this server, nothing else."""
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


def render_page(game: str, preview: Preview, nonce: str = "") -> str:
    with preview.lock:
        problems = [{**p, "anchor": _anchor(p, preview.cards)} for p in preview.problems]
        return PAGE.render(title=game, version=preview.version, ok=preview.ok, nonce=nonce,
                           lang=preview.lang,
                           problems=problems, cards=list(preview.cards), pages=list(preview.pages),
                           since=preview.since, changes=list(preview.changes))


def _anchor(problem: dict, cards: list[dict]) -> str:
    """The card a problem is about, if its message names one."""
    for c in cards:
        if f"card '{c['id']}'" in problem["message"]:
            return f"card-{c['id']}"
    return ""


def make_handler(game: str, preview: Preview):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # keep the terminal for the report
            pass

        def _send(self, status: int, body: bytes, kind: str, headers: dict | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = unquote(urlparse(self.path).path)
            if path == "/":
                nonce = secrets.token_urlsafe(16)
                self._send(200, render_page(game, preview, nonce).encode("utf-8"),
                           "text/html; charset=utf-8", {"Content-Security-Policy": policy(nonce)})
            elif path == "/state.json":
                with preview.lock:
                    state = {"version": preview.version, "ok": preview.ok,
                             "cards": len(preview.cards), "problems": preview.problems}
                self._send(200, json.dumps(state, ensure_ascii=False).encode("utf-8"),
                           "application/json")
            elif path.startswith("/img/"):
                with preview.lock:
                    data = preview.images.get(path[len("/img/"):])  # by name only
                if data is None:
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, data, "image/png")
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
            preview.version += 1
        if report:
            report(preview)

    poll(project, [game], rebuild, stop, failed, POLL)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """One line, not socketserver's traceback: a browser that closes a connection early
        (a reload, a closed tab) is ordinary."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            print(f"serve: a browser closed its connection early ({client_address[0]})",
                  file=sys.stderr, flush=True)
        else:
            print(f"serve: internal error answering {client_address[0]}: "
                  f"{type(exc).__name__}: {printable(str(exc))}", file=sys.stderr, flush=True)


def serve(project: Project, game: str, host: str = "127.0.0.1", port: int = 8000,
          ready=None, stop: threading.Event | None = None, report=None,
          since: str | None = None) -> None:
    """Serve until `stop` is set (or the process is interrupted). `ready` is called with the
    bound address; `report` after every rebuild, with the Preview; `since`, a git revision,
    adds a view of every face that prints differently since it."""
    preview = Preview(since=since)
    stop = stop or threading.Event()
    try:
        server = _Server((host, port), make_handler(game, preview))
    except OSError as exc:
        import errno
        why = "is in use (is another cardgen serve running?)" if exc.errno == errno.EADDRINUSE \
            else f"cannot be opened ({exc.strerror})"
        raise UsageError(f"port {port} on {host} {why}; pass --port N") from None
    builder = threading.Thread(target=watch, args=(project, game, preview, stop, report),
                               daemon=True)
    builder.start()
    if ready:
        ready(server.server_address)
    threading.Thread(target=lambda: (stop.wait(), server.shutdown()), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        server.server_close()
