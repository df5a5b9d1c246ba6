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
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

import jinja2

from pathlib import Path

from . import fonts, pipeline
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
    decks: list[dict] = field(default_factory=list)  # id, name, in order
    fonts: dict[str, Path] = field(default_factory=dict)  # served name -> TrueType file
    font_family: dict[str, str] = field(default_factory=dict)  # weight -> served name
    building: bool = False  # a build is running
    stats: list[dict] = field(default_factory=list)  # the Stats view's blocks (stats_blocks)
    built_at: str = ""  # when the last good build finished, HH:MM:SS


def build_preview(project: Project, game: str, preview: Preview, dpi: int = 80) -> None:
    from .write.png import faces_to_png, pdf_to_pngs  # pypdfium2 only when serving

    with preview.lock:
        preview.building = True
        preview.version += 1
    try:
        _build_preview(project, game, preview, dpi, faces_to_png, pdf_to_pngs)
    finally:
        with preview.lock:
            preview.building = False
            preview.version += 1


def _build_preview(project, game, preview, dpi, faces_to_png, pdf_to_pngs) -> None:
    outcome = pipeline.check(project, game)
    faces = pipeline.lay_out(outcome)
    problems = [p.as_dict() for p in outcome.report.sorted()]
    if faces is None:
        with preview.lock:  # keep the last good pictures
            preview.problems, preview.ok = problems, False
        return
    game_ = faces.game
    font = game_.main_family.regular
    order, face_list, cards = [], [], []
    for deck in faces.decks:
        for card in deck.deck.cards:
            face = deck.fronts[card.id]
            entry = {"id": card.id, "deck": deck.deck.id, "copies": card.copies,
                     "name": str(card.fields.get("name", card.id)),
                     "w_mm": round(face.width / 72 * 25.4, 2),
                     "h_mm": round(face.height / 72 * 25.4, 2),
                     "draft": bool(card.drafts()),
                     "fields": {k: str(v) for k, v in card.fields.items()}}
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
    blocks = stats_blocks(game_, pipeline.statistics(outcome))
    family = game_.main_family
    served = {weight: name for weight, name in (("regular", family.regular), ("bold", family.bold))
              if fonts.file_of(name) is not None}
    with preview.lock:
        preview.images, preview.cards, preview.pages = images, cards, pages
        preview.problems, preview.ok = problems, True
        preview.lang = game_.lang
        preview.changes = changes
        preview.stats = blocks
        preview.decks = [{"id": d.deck.id, "name": d.deck.name} for d in faces.decks]
        preview.fonts = {name: fonts.file_of(name) for name in served.values()}
        preview.font_family = served
        preview.built_at = time.strftime("%H:%M:%S")


# SVG presentation attributes that reportlab's SVG renderer writes as `style`: the page's
# Content-Security-Policy allows no inline style, so they travel as attributes.
_SVG_STYLE = {"fill", "fill-rule", "fill-opacity", "stroke", "stroke-width", "stroke-linecap",
              "stroke-linejoin", "stroke-dasharray", "stroke-opacity", "font-family",
              "font-size", "font-weight", "text-anchor", "clip-path"}
_SVG_TAGS = {"svg", "g", "path", "rect", "text", "line", "polyline", "polygon", "circle",
             "ellipse", "clipPath", "title", "desc"}


def svg_tree(text: str) -> list:
    """A chart's SVG as a tree of [tag, attributes, children or text] for the page to build
    with DOM calls: only drawing elements and attributes, never markup or script; a value
    from data is the text of a <text> element. Text takes the page's font, the game's own."""
    import xml.etree.ElementTree as ET

    def convert(node) -> list:
        tag = node.tag.split("}")[-1]
        attrs = {}
        for key, value in node.attrib.items():
            key = key.split("}")[-1]
            if key == "style":
                for part in value.split(";"):
                    name, _, val = part.partition(":")
                    name, val = name.strip(), val.strip()
                    if name in _SVG_STYLE and val:
                        attrs[name] = val
            elif not key.startswith("on") and key != "href":
                attrs[key] = value
        if "font-family" in attrs:
            attrs["font-family"] = "cardgen-main, sans-serif"
        if tag == "text":
            return [tag, attrs, node.text or ""]
        return [tag, attrs, [convert(child) for child in node
                             if child.tag.split("}")[-1] in _SVG_TAGS - {"title", "desc"}]]
    return convert(ET.fromstring(text))


def stats_blocks(game, counted) -> list[dict]:
    """The Stats view: headings, charts (the stats PDF's own, as SVG), tables and lines."""
    from .draw.charts import svg
    from .stats import pictures, show
    font = fonts.ensure(game.main_family.regular)
    chart = lambda c: {"kind": "chart", "title": c.title,  # noqa: E731
                       "svg": svg_tree(svg(c, font, 640))}
    blocks: list[dict] = []
    for deck in counted.decks:
        blocks.append({"kind": "heading", "text": f"{deck.name} ({deck.id}): "
                       f"{show.plural(deck.total, 'card')}, {show.plural(deck.kinds, 'kind')}",
                       "deck": deck.id})
        for c in deck.crosses:
            if not any(any(row) for row in c.cells):
                blocks.append({"kind": "text", "text": f"{c.title}: no values yet"})
                continue
            blocks.append(chart(pictures.cross_chart(c)))
            head, *rows = show.cross_rows(c)
            blocks.append({"kind": "table", "head": head, "rows": rows})
        for d in deck.distributions:
            if d.total:
                blocks.append(chart(pictures.distribution_chart(d, deck)))
            else:
                blocks.append({"kind": "text", "text": show.distribution_line(d)})
    for t in counted.tables:
        blocks.append({"kind": "heading", "text": t.name, "deck": t.deck})
        if not t.labels:
            blocks.append({"kind": "text", "text": "no items yet"})
            continue
        blocks.append(chart(pictures.table_chart(t)))
        head, *rows = show.table_rows(t)
        blocks.append({"kind": "table", "head": head, "rows": rows})
    groups = pictures.questions(counted)
    if groups:
        blocks.append({"kind": "heading", "text": "Draw odds", "deck": ""})
    for answers in groups:
        blocks.append(chart(pictures.odds_chart(answers)))
        blocks += [{"kind": "text", "text": show.answer_line(a)} for a in answers]
    current = ""
    for block in blocks:  # each block belongs to the deck of the heading above it
        current = block.get("deck", current)
        block["deck"] = current
    return blocks


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


# The page is one Jinja2 template with autoescaping on; its state (cards, problems) travels
# as JSON (`tojson` escapes <, > and &), and the page's script builds the gallery and the
# report from it with DOM calls and textContent, never with HTML strings: a value from data
# is text wherever it shows. The Content-Security-Policy lets only the page's own script and
# style run (by a nonce made for each response), and fonts and images only from this server.
_PAGES = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
PAGE = _PAGES.from_string("""<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }} — cardgen preview</title>
<style nonce="{{ nonce }}">
{%- for weight, name in font_family.items() %}
@font-face { font-family: "cardgen-main"; font-weight: {{ 700 if weight == "bold" else 400 }};
  src: url("/fonts/{{ name | urlencode }}.ttf") format("truetype"); }
{%- endfor %}
body { font-family: "cardgen-main", sans-serif; margin: 0; background: #f4f2ee; color: #222; }
header { position: sticky; top: 0; z-index: 2; background: #2b2f3a; color: white;
  padding: .6em 1.2em; display: flex; gap: 1.2em; align-items: center; flex-wrap: wrap; }
header h1 { font-size: 1.1em; margin: 0; } header .status { opacity: .9; }
header .building { color: #ffd479; }
button, input { font: inherit; }  /* the project's font for labels from data (deck names) */
header input[type=search] { padding: .3em .5em; min-width: 14em; }
header label { font-size: .9em; }
main { padding: 1em 1.2em; }
.banner { background: #fdd; color: #700; padding: .6em 1.2em; }
.tabs button { border: 1px solid #999; background: white; padding: .25em .7em; cursor: pointer; }
.tabs button[aria-pressed="true"] { background: #2b2f3a; color: white; }
.cards { display: flex; flex-wrap: wrap; gap: 14px; margin-top: .8em; }
figure.card { margin: 0; background: white; padding: 6px; border-radius: 4px; position: relative;
  cursor: pointer; }
figure.card img { height: 170px; margin-right: 4px; }
figure.card[hidden] { display: none; }
figcaption { font-size: 13px; }
.badge { position: absolute; top: 2px; right: 2px; border-radius: 9px; padding: 0 .5em;
  font-size: 12px; color: white; }
.badge.error { background: #b00; } .badge.warning { background: #a07800; }
details.group { margin: .3em 0; } details.group summary { cursor: pointer; }
.problems li.error { color: #b00; } .problems li.warning { color: #8a6d00; }
.rulebook img { width: 280px; margin: 4px; border: 1px solid #ccc; }
.changes figure { display: inline-block; background: white; padding: 6px; margin: 4px; }
.changes img { height: 150px; margin-right: 4px; }
#zoom { position: fixed; inset: 0; background: rgba(20,20,24,.85); z-index: 5; overflow: auto;
  color: white; padding: 1.5em; }
#zoom[hidden] { display: none; }
#zoom .faces { display: flex; gap: 16px; flex-wrap: wrap; }
#zoom .faces img { display: block; background: white; }
#zoom table { background: white; color: #222; margin-top: 1em; border-collapse: collapse; }
#zoom td, #zoom th { border: 1px solid #ccc; padding: .2em .5em; text-align: left; }
#zoom button { float: right; }
#stats figure { background: white; margin: .6em 0; padding: 8px; display: inline-block; }
#stats figure svg { display: block; max-width: 100%; height: auto; }
#stats table { background: white; border-collapse: collapse; margin: .3em 0 1em; font-size: 13px; }
#stats td, #stats th { border: 1px solid #ccc; padding: .15em .5em; text-align: right; }
#stats td:first-child, #stats th:first-child { text-align: left; }
</style></head>
<body data-version="{{ version }}">
<header><h1>{{ title }}</h1><span class="status" id="status"></span>
<input id="search" type="search" placeholder="Search cards by id or name" aria-label="Search cards">
<span class="tabs" id="views"><button type="button" id="view-cards" aria-pressed="true">Cards</button><button
 type="button" id="view-stats" aria-pressed="false">Stats</button></span>
<span class="tabs" id="tabs"></span>
<label><input type="checkbox" id="only-drafts"> drafts</label>
<label><input type="checkbox" id="only-errors"> problems</label>
{% if since %}<label><input type="checkbox" id="only-changed"> changed since {{ since }}</label>{% endif %}
</header>
<div class="banner" id="banner" hidden>The data has errors: these are the last good cards.</div>
<main>
<section id="gallery"><div class="cards" id="cards"></div></section>
<section id="stats" hidden><h2>Stats</h2><div id="stats-blocks"></div></section>
<section id="report"><h2>Report</h2><div class="problems" id="problems"></div></section>
{% if since %}<section><h2>Changes since {{ since }}</h2><div class="changes">
{%- for c in changes %}
<figure class="change" id="change-{{ c.id }}-{{ c.side }}">{% if c.before %}<img
 src="/img/{{ c.before | urlencode }}?v={{ version }}" alt="before"><img
 src="/img/{{ c.after | urlencode }}?v={{ version }}" alt="after">{% endif %}
<figcaption><code>{{ c.id }}</code> {{ c.side }}<ul>{% for cause in c.causes %}<li>{{ cause }}</li>{% endfor %}</ul></figcaption></figure>
{%- else %}<p>Nothing printed has changed.</p>{% endfor %}</div></section>{% endif %}
<section><h2>Rulebook</h2><div class="rulebook" id="rulebook"></div></section>
</main>
<div id="zoom" hidden role="dialog" aria-modal="true"></div>
<script type="application/json" id="state">{{ state | tojson }}</script>
<script nonce="{{ nonce }}">
const MM_PX = 96 / 25.4;  // CSS pixels per millimetre: a card at print size
let state = JSON.parse(document.getElementById('state').textContent);
let deck = '', open = null;
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}
const img = (name, alt) => el('img', {src: '/img/' + encodeURIComponent(name).replace(/%2F/g, '/') +
                                       '?v=' + state.version, alt: alt});
function problemsOf(id) { return state.problems.filter(p => p.card === id); }
function visible(c) {
  const q = $('search').value.trim().toLowerCase();
  if (q && !(c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q))) return false;
  if (deck && c.deck !== deck) return false;
  if ($('only-drafts').checked && !c.draft) return false;
  if ($('only-errors').checked && !problemsOf(c.id).length) return false;
  const changed = $('only-changed');
  if (changed && changed.checked && !c.changed) return false;
  return true;
}
function renderHeader() {
  const errors = state.problems.filter(p => p.level === 'error').length;
  const drafts = state.problems.filter(p => p.check === 'draft').length;
  const others = state.problems.length - errors - drafts;
  let text = `${errors} error${errors === 1 ? '' : 's'}, ${drafts} draft${drafts === 1 ? '' : 's'}`;
  if (others) text += `, ${others} other warning${others === 1 ? '' : 's'}`;
  if (state.built_at) text += `, last good build ${state.built_at}`;
  $('status').textContent = text;
  if (state.building) $('status').append(' ', el('span', {class: 'building'}, 'Building…'));
  $('banner').hidden = state.ok;
  const tabs = $('tabs');
  tabs.replaceChildren(...[{id: '', name: 'All decks'}, ...state.decks].map(d => {
    const b = el('button', {type: 'button', 'aria-pressed': String(d.id === deck), 'data-deck': d.id}, d.name);
    b.addEventListener('click', () => { deck = d.id; render(); });
    return b;
  }));
}
function renderCards() {
  $('cards').replaceChildren(...state.cards.map(c => {
    const mine = problemsOf(c.id);
    const fig = el('figure', {id: 'card-' + c.id, class: 'card', tabindex: '0', 'data-deck': c.deck},
      img(c.front, c.name), img(c.back, 'back of ' + c.name),
      el('figcaption', {}, el('span', {class: 'name'}, c.name), ' ', el('code', {}, c.id), ' ×' + c.copies));
    if (mine.length) {
      const level = mine.some(p => p.level === 'error') ? 'error' : 'warning';
      fig.append(el('span', {class: 'badge ' + level, title: mine.map(p => p.message).join('\\n')},
                    String(mine.length)));
    }
    fig.hidden = !visible(c);
    fig.addEventListener('click', () => zoom(c.id));
    fig.addEventListener('keydown', (e) => { if (e.key === 'Enter') zoom(c.id); });
    return fig;
  }));
}
function renderReport() {
  const groups = new Map();
  for (const p of [...state.problems].sort((a, b) => (a.level === 'error' ? 0 : 1) - (b.level === 'error' ? 0 : 1))) {
    const key = p.card ? 'card ' + p.card : p.group;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(p);
  }
  if (!groups.size) { $('problems').replaceChildren(el('p', {}, 'no problems')); return; }
  $('problems').replaceChildren(...[...groups].map(([key, list]) => {
    const errors = list.filter(p => p.level === 'error').length;
    const d = el('details', {class: 'group'}, el('summary', {},
      `${key}: ${errors ? errors + ' error' + (errors === 1 ? '' : 's') + ', ' : ''}${list.length - errors} warning${list.length - errors === 1 ? '' : 's'}`));
    if (errors) d.open = true;
    d.append(el('ul', {}, ...list.map(p => el('li', {class: p.level},
      el('code', {}, `${p.file}:${p.line}:${p.col}`), ` ${p.level}: ${p.message} [${p.check}]`))));
    return d;
  }));
}
const SVG_NS = 'http://www.w3.org/2000/svg';
function svgNode([tag, attrs, body]) {  // a chart, built from its tree: attributes and text only
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (typeof body === 'string') node.textContent = body;
  else for (const child of body) node.append(svgNode(child));
  return node;
}
function renderStats() {
  const shown = state.stats.filter(b => !deck || !b.deck || b.deck === deck);  // the deck tab
  $('stats-blocks').replaceChildren(...shown.map(b => {
    if (b.kind === 'heading') return el('h3', {}, b.text);
    if (b.kind === 'text') return el('p', {}, b.text);
    if (b.kind === 'chart') return el('figure', {class: 'chart', 'aria-label': b.title}, svgNode(b.svg));
    const head = el('tr', {}, ...b.head.map(h => el('th', {}, h)));
    return el('table', {}, head, ...b.rows.map(r => el('tr', {}, ...r.map(c => el('td', {}, c)))));
  }));
}
let view = 'cards';
function showView(name) {
  view = name;
  $('view-cards').setAttribute('aria-pressed', String(name === 'cards'));
  $('view-stats').setAttribute('aria-pressed', String(name === 'stats'));
  $('gallery').hidden = name !== 'cards';
  $('stats').hidden = name !== 'stats';
}
$('view-cards').addEventListener('click', () => showView('cards'));
$('view-stats').addEventListener('click', () => showView('stats'));
function renderRulebook() {
  $('rulebook').replaceChildren(...state.pages.map(p => img(p, 'rulebook page')));
}
function zoom(id) {
  const shown = state.cards.filter(visible);
  const c = state.cards.find(x => x.id === id);
  if (!c) { $('zoom').hidden = true; open = null; return; }
  open = id;
  const size = {width: Math.round(c.w_mm * MM_PX) + 'px', height: Math.round(c.h_mm * MM_PX) + 'px'};
  const faces = [img(c.front, c.name), img(c.back, 'back of ' + c.name)];
  for (const f of faces) { f.style.width = size.width; f.style.height = size.height; }
  const close = el('button', {type: 'button'}, 'Close (Esc)');
  close.addEventListener('click', () => { $('zoom').hidden = true; open = null; });
  const rows = Object.entries(c.fields).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v)));
  const mine = problemsOf(c.id).map(p => el('li', {}, `${p.level}: ${p.message}`));
  $('zoom').replaceChildren(close, el('h2', {}, `${c.name} (${c.id}) ×${c.copies}`),
    el('p', {}, `${c.w_mm} × ${c.h_mm} mm, at print size; ← → for the next card`),
    el('div', {class: 'faces'}, ...faces), el('table', {}, ...rows), el('ul', {}, ...mine));
  $('zoom').hidden = false;
  $('zoom').dataset.index = String(shown.findIndex(x => x.id === id));
}
document.addEventListener('keydown', (e) => {
  if ($('zoom').hidden) return;
  const shown = state.cards.filter(visible);
  const at = shown.findIndex(x => x.id === open);
  if (e.key === 'Escape') { $('zoom').hidden = true; open = null; }
  else if (e.key === 'ArrowRight' && at >= 0) zoom(shown[(at + 1) % shown.length].id);
  else if (e.key === 'ArrowLeft' && at >= 0) zoom(shown[(at - 1 + shown.length) % shown.length].id);
});
function render() {
  renderHeader(); renderCards(); renderReport(); renderRulebook(); renderStats();
  if (open) zoom(open);
}
for (const id of ['search', 'only-drafts', 'only-errors', 'only-changed']) {
  const input = $(id);
  if (input) input.addEventListener('input', () => { for (const c of state.cards) $('card-' + c.id).hidden = !visible(c); });
}
render();
setInterval(async () => {
  try {
    const next = await (await fetch('/state.json', {cache: 'no-store'})).json();
    if (next.version !== state.version) { state = next; render(); }  // in place: scroll kept
  } catch (e) {}
}, 700);
</script>
</body></html>
""")


def policy(nonce: str) -> str:
    """The page's Content-Security-Policy: its own script and style (by nonce), images, fonts
    and fetches from this server, nothing else."""
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "img-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")


def page_state(preview: Preview) -> dict:
    """What the page shows, as JSON: each problem with the card it is about (if any) and its
    group (game, data, layout), each card with its problems' count and whether it changed."""
    changed = {c["id"] for c in preview.changes}
    problems = []
    for p in preview.problems:
        card = _card_of(p, preview.cards)
        file = p["file"]
        group = ("layout" if file.startswith("layouts/") else
                 "game" if file.endswith("game.yaml") or not file else "data")
        problems.append({**p, "card": card, "group": group})
    cards = [{**c, "changed": c["id"] in changed} for c in preview.cards]
    return {"version": preview.version, "ok": preview.ok, "building": preview.building,
            "built_at": preview.built_at, "cards": cards, "problems": problems,
            "decks": preview.decks, "pages": preview.pages, "stats": preview.stats}


def render_page(game: str, preview: Preview, nonce: str = "") -> str:
    with preview.lock:
        return PAGE.render(title=game, version=preview.version, nonce=nonce, lang=preview.lang,
                           state=page_state(preview), font_family=dict(preview.font_family),
                           since=preview.since, changes=list(preview.changes))


def _card_of(problem: dict, cards: list[dict]) -> str:
    """The card a problem is about, if its message names one."""
    for c in cards:
        if f"card '{c['id']}'" in problem["message"]:
            return c["id"]
    return ""


def make_handler(game: str, preview: Preview):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # keep the terminal for the report
            pass

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
            self.wfile.write(body)

        def do_GET(self):
            path = unquote(urlparse(self.path).path)
            if path == "/":
                nonce = secrets.token_urlsafe(16)
                self._send(200, render_page(game, preview, nonce).encode("utf-8"),
                           "text/html; charset=utf-8", {"Content-Security-Policy": policy(nonce)})
            elif path == "/state.json":
                with preview.lock:
                    state = page_state(preview)
                self._send(200, json.dumps(state, ensure_ascii=False).encode("utf-8"),
                           "application/json")
            elif path.startswith("/fonts/") and path.endswith(".ttf"):
                with preview.lock:  # only the game's own fonts, by their registered names
                    file = preview.fonts.get(path[len("/fonts/"):-len(".ttf")])
                if file is None:
                    self._send(404, b"not found", "text/plain")
                else:
                    self._send(200, file.read_bytes(), "font/ttf",
                               {"Cache-Control": "max-age=86400"})
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
