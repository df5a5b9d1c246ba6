// The page's words, in its language (serve.PAGE_WORDS, translated by the server): T() gives
// one with its {values} filled in, N() the one that agrees with a count.
const WORDS = JSON.parse(document.getElementById('words').textContent);
function T(text, values = {}) {
  return (WORDS[text] || text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}
function N(one, many, n, values = {}) { return T(n === 1 ? one : many, {...values, n}); }
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
// A picture's URL carries its content's digest: an unchanged picture keeps its URL, and the
// browser its copy (served as immutable), so a save fetches only what it changed.
const src = (name, v) => '/img/' + encodeURIComponent(name).replace(/%2F/g, '/') + '?v=' +
                         (v || (state.v || {})[name] || state.version);
const img = (name, alt, v) => el('img', {src: src(name, v), alt: alt, loading: 'lazy'});
const named = (c) => Boolean(c.name) && c.name !== c.id;  // (a card without a name has its id)
let byCard = new Map();  // card id -> its problems (made once per state, not per card)
function problemsOf(id) { return byCard.get(id) || []; }
function index() {
  byCard = new Map();
  for (const p of state.problems) {  // (one said once for many cards is each card's too)
    for (const id of p.card ? [p.card] : (p.cards || [])) (byCard.get(id) || byCard.set(id, []).get(id)).push(p);
  }
  changedCards = new Set(state.changed || []);
}
let changedCards = new Set();
function visible(c) {  // search looks at the id, the name and every field's value
  const q = $('search').value.trim().toLowerCase();
  if (q && !(c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q) ||
             Object.values(c.fields).some(v => String(v).toLowerCase().includes(q)))) return false;
  if (deck && c.deck !== deck) return false;
  if ($('only-drafts').checked && !c.draft) return false;
  if ($('only-errors').checked && !problemsOf(c.id).length) return false;
  const changed = $('only-changed');
  if (changed && changed.checked && !changedCards.has(c.id)) return false;
  return true;
}
// The window's title is the game's and the page's name after it: the game's is said anew
// when game.yaml changes it (the heading too), the rest as the page was served.
const TITLE_AFTER = document.title.slice($('title').textContent.length);
function renderHeader() {
  if (state.title && $('title').textContent !== state.title) {
    $('title').textContent = state.title;
    document.title = state.title + TITLE_AFTER;
  }
  const errors = state.problems.filter(p => p.level === 'error').length;
  const drafts = state.problems.filter(p => p.check === 'draft').length;
  const others = state.problems.length - errors - drafts;
  let text = N('{n} error', '{n} errors', errors) + T(', ') + N('{n} draft', '{n} drafts', drafts);
  if (others) text += T(', ') + N('{n} other warning', '{n} other warnings', others);
  if (state.built_at) text += T(', last good build {when}', {when: state.built_at});
  $('status').textContent = text;
  if (state.building) $('status').append(' ', el('span', {class: 'building'}, T('Building…')));
  // (the background's pictures: the server says when the last is drawn, and this goes)
  else if (state.drawing) $('status').append(' ', el('span', {class: 'building'}, T('Drawing the pictures…')));
  // The banner says what is true: before the first build there are no last good cards.
  const first = state.problems.find(p => p.level === 'error');
  $('banner').hidden = state.ok || (state.building && !state.built_at);
  $('banner').textContent = (state.built_at ? T('The data has errors: these are the last good cards.')
                             : T('The data has errors: nothing has built yet.')) +
                            (first ? ' ' + first.text : '');
  const tabs = $('tabs');
  tabs.replaceChildren(...[{id: '', name: T('All decks')}, ...state.decks].map(d => {
    const b = el('button', {type: 'button', 'aria-pressed': String(d.id === deck), 'data-deck': d.id}, d.name);
    b.addEventListener('click', () => { deck = d.id; render(); });
    return b;
  }));
}
// The gallery holds the cards in sight and a few screens around them, not all of them: the
// others are places in a grid computed from the cards' sizes (every row is as tall), so a
// game of 10,000 cards costs the page what its visible cards do, and the gallery keeps its
// height whatever is in it. A small game (ALL_BELOW cards) is all in the page.
const ALL_BELOW = 200, AROUND = 2;  // screens kept above and below the one in sight
let grid = {rows: [], step: 0, height: 0};
let shown = [];  // the cards the search and filters let through, in order
function metrics() {  // a face's height (page.css's --face, smaller on a phone) and a card's
  const box = $('cards'), style = getComputedStyle(box);
  const face = parseFloat(style.getPropertyValue('--face')) || 170;
  const probe = el('figure', {class: 'card'}, el('figcaption', {}, 'Xg'));
  probe.style.visibility = 'hidden';
  box.append(probe);
  const extra = probe.getBoundingClientRect().height;  // padding and caption
  probe.remove();
  return {face: face, height: face + extra, gap: parseFloat(style.columnGap) || 14};
}
function widthOf(c, m) {  // two faces side by side, 4 px after each, and the padding
  return Math.round(2 * (m.face * (c.w_mm || 1) / (c.h_mm || 1) + 4) + 12);
}
function arrange() {  // the rows of the cards shown, for the gallery's width
  const box = $('cards'), m = metrics(), room = box.clientWidth;
  let widest = 1;
  for (const c of shown) widest = Math.max(widest, (c.w_mm || 1) / (c.h_mm || 1));
  const fits = Math.floor((room - 20) / (2 * widest));  // the faces of the widest card fit the room
  if (fits < m.face) { m.height -= m.face - Math.max(fits, 20); m.face = Math.max(fits, 20); }
  const rows = [];
  let row = null, x = 0;
  for (const c of shown) {
    const w = widthOf(c, m);
    if (!row || (x + w > room && row.length)) { row = []; rows.push(row); x = 0; }
    row.push([c, x, w]);
    x += w + m.gap;
  }
  grid = {rows: rows, m: m, step: m.height + m.gap,
          height: rows.length ? rows.length * (m.height + m.gap) - m.gap : 0};
  box.style.height = grid.height + 'px';
}
// A card's pictures are drawn at the gallery's dpi; a screen of more pixels to the CSS pixel
// (devicePixelRatio 2) takes the face drawn at the zoom's dpi instead, drawn when first
// asked (only the cards in sight are): each candidate says its pixels per displayed pixel.
function sharper(c, url) {
  const face = grid.m ? grid.m.face : 170, high = (c.h_mm || 88) / 25.4;
  const [gallery, zoomed] = state.dpi;  // (serve: GALLERY_DPI, ZOOM_DPI)
  const density = (dpi) => Math.max(0.1, high * dpi / face).toFixed(2);
  return `${url} ${density(gallery)}x, ${url.replace('/img/', '/zoom/')} ${density(zoomed)}x`;
}
function figureOf(c) {  // a card's figure, made or brought up to date
  let fig = $('card-' + c.id);
  if (!fig || !fig.classList.contains('card')) {
    fig = el('figure', {id: 'card-' + c.id, class: 'card', tabindex: '0'},
             img(c.front, c.name, c.front_v), img(c.back, T('back of {name}', {name: c.name}), c.back_v),
             el('figcaption', {}));
    fig.addEventListener('click', () => zoom(c.id));
    fig.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); zoom(c.id); } });
  } else if (fig.card === c && fig.problems === problemsOf(c.id)) return fig;  // unchanged
  fig.card = c; fig.problems = problemsOf(c.id);
  fig.dataset.deck = c.deck;
  const [front, back] = fig.querySelectorAll('img');
  for (const [image, name, v] of [[front, c.front, c.front_v], [back, c.back, c.back_v]]) {
    const url = src(name, v);
    if (image.getAttribute('src') !== url) image.setAttribute('src', url);
    const sharp = sharper(c, url);
    if (image.getAttribute('srcset') !== sharp) image.setAttribute('srcset', sharp);
  }
  fig.querySelector('figcaption').replaceChildren(  // a card without a name: its id, once
    ...(named(c) ? [el('span', {class: 'name'}, c.name), ' '] : []), el('code', {}, c.id),
    ' ×' + c.copies,
    ...(c.held ? [' ', el('span', {class: 'held'}, T('(last good version: it has errors)'))] : []));
  fig.classList.toggle('held', Boolean(c.held));
  const mine = fig.problems;
  const badge = fig.querySelector('.badge');
  if (badge) badge.remove();
  if (mine.length) {
    const level = mine.some(p => p.level === 'error') ? 'error' : 'warning';
    fig.append(el('span', {class: 'badge ' + level, title: mine.map(p => p.text).join('\n')},
                  String(mine.length)));
  }
  return fig;
}
function renderWindow() {  // the figures of the rows in sight (and AROUND screens), in order
  const box = $('cards'), {rows, step, m} = grid;
  let from = 0, to = rows.length;
  if (shown.length >= ALL_BELOW && step) {
    const top = -box.getBoundingClientRect().top, screen = window.innerHeight;
    from = Math.max(0, Math.floor((top - AROUND * screen) / step));
    to = Math.min(rows.length, Math.ceil((top + (AROUND + 1) * screen) / step));
  }
  const wanted = [];
  for (let r = from; r < to; r++) {
    for (const [c, x, w] of rows[r]) {
      const fig = figureOf(c);
      fig.style.left = x + 'px'; fig.style.top = r * step + 'px'; fig.style.width = w + 'px';
      fig.style.height = m.height + 'px';
      for (const i of fig.querySelectorAll('img')) {
        i.style.width = (w - 12) / 2 - 4 + 'px'; i.style.height = m.face + 'px';
      }
      wanted.push(fig);
    }
  }
  const keep = new Set(wanted);
  for (const fig of [...box.children]) if (!keep.has(fig)) fig.remove();
  wanted.forEach((fig, i) => { if (box.children[i] !== fig) box.insertBefore(fig, box.children[i] || null); });
}
function renderCards() {  // in place: a card that did not change keeps its node and pictures
  shown = state.cards.filter(visible);
  arrange();
  renderWindow();
  showNoMatch();
}
let pending = false;  // one look at the window per frame, however fast the scroll
function later() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; renderWindow(); });
}
window.addEventListener('scroll', later, {passive: true});
window.addEventListener('resize', () => { arrange(); later(); });
document.fonts.ready.then(() => { arrange(); renderWindow(); });  // captions in the project's font
function showNoMatch() {  // a search or filter that leaves nothing says so
  $('no-match').hidden = shown.length > 0 || !state.cards.length;
}
function place(p) {  // file:line:col, a link an editor opens where the server was told how
  const text = `${p.file}:${p.line}:${p.col}`;
  if (!state.editor || !p.file) return el('code', {}, text);
  const url = state.editor.replace('{path}', encodeURI(state.root + '/' + p.file))
    .replace('{line}', String(p.line)).replace('{col}', String(p.col));
  return el('a', {href: url, class: 'place'}, el('code', {}, text));
}
function renderReport() {  // grouped by the card's name, each problem leading to its card
  const groups = new Map();
  const named = new Map(state.cards.map(c => [c.id, c]));
  for (const p of [...state.problems].sort((a, b) => (a.level === 'error' ? 0 : 1) - (b.level === 'error' ? 0 : 1))) {
    const key = p.card ? (named.has(p.card) ? `${named.get(p.card).name} (${p.card})`
                                            : T('card {id}', {id: p.card})) : T(p.group);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(p);
  }
  if (!groups.size) { $('problems').replaceChildren(el('p', {}, T('no problems'))); return; }
  $('problems').replaceChildren(...[...groups].map(([key, list]) => {
    const errors = list.filter(p => p.level === 'error').length;
    const d = el('details', {class: 'group'}, el('summary', {},
      `${key}: ${errors ? N('{n} error', '{n} errors', errors) + T(', ') : ''}` +
      N('{n} warning', '{n} warnings', list.length - errors)));
    if (errors) d.open = true;
    d.append(el('ul', {}, ...list.map(p => {
      const item = el('li', {class: p.level}, place(p), ` ${T(p.level)}: ${p.text} [${p.check}]`);
      if (p.card && named.has(p.card)) {
        const go = el('button', {type: 'button', class: 'to-card'}, T('show the card'));
        go.addEventListener('click', () => zoom(p.card));
        item.append(' ', go);
      }
      return item;
    })));
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
const FLIP = {'long-edge': 'turned over on its long edge', 'short-edge': 'turned over on its short edge'};  // T()
function renderSheets() {  // made when the view is open: a sheet's pictures are drawn when asked
  if (view !== 'sheets') return;
  // (a sheet that decks share is under each one's tab)
  const sheets = (state.sheets || []).filter(s => !deck || s.decks.includes(deck));
  const list = $('sheet-list'), old = new Map([...list.children].map(f => [f.id, f]));
  list.replaceChildren(...sheets.map(s => {
    const fig = old.get('sheet-' + s.n) || el('figure', {class: 'sheet', id: 'sheet-' + s.n},
      img(s.front, T('sheet {n}, fronts', {n: s.n}), s.front_v),
      img(s.back, T('sheet {n}, backs', {n: s.n}), s.back_v),
      el('figcaption', {}));
    const [front, back] = fig.querySelectorAll('img');
    for (const [image, name, v] of [[front, s.front, s.front_v], [back, s.back, s.back_v]]) {
      if (image.getAttribute('src') !== src(name, v)) image.setAttribute('src', src(name, v));
    }
    const what = [s.cards && N('{n} card', '{n} cards', s.cards),
                  s.blank && N('{n} blank slot (filler cards)', '{n} blank slots (filler cards)', s.blank)];
    fig.querySelector('figcaption').textContent = T(
      'Sheet {n}: {deck}, {what}; the back page as it prints, {flip}',
      {n: s.n, deck: s.deck_names.join(T(' and ')), what: what.filter(Boolean).join(T(' and ')),
       flip: FLIP[s.duplex] ? T(FLIP[s.duplex]) : s.duplex});
    return fig;
  }));
  if (sheets.length) return;
  const errors = state.problems.some(p => p.level === 'error');
  list.replaceChildren(el('p', {}, (state.sheets || []).length ? T('This deck prints no sheets.')
    : !errors && state.building ? T('Building…')
    : T('No sheets yet: they come with a build without errors.')));
}
let view = 'cards';
const VIEWS = {cards: 'gallery', stats: 'stats', sheets: 'sheets'};  // a view's button and section
function showView(name) {
  view = name;
  for (const [key, section] of Object.entries(VIEWS)) {
    $('view-' + key).setAttribute('aria-pressed', String(name === key));
    $(section).hidden = name !== key;
  }
  renderSheets();
  if (name === 'cards') { arrange(); renderWindow(); }  // its width may have changed meanwhile
  remember();
}
for (const key of Object.keys(VIEWS)) $('view-' + key).addEventListener('click', () => showView(key));
function marked(image, changed) {  // a page that prints differently since --changes-since
  if (changed) { image.classList.add('changed'); image.title = T('changed'); }
  return image;
}
function large(name, image) {  // a rulebook or board page opens large and sharp, to be read
  return el('a', {href: '/large/' + encodeURIComponent(name).replace(/%2F/g, '/') + '?v=' +
                        ((state.v || {})[name] || state.version), target: '_blank',
                  class: 'large'}, image);
}
function renderRulebook() {
  const changed = new Set(state.changed_pages || []);
  $('rulebook').replaceChildren(...state.pages.map(p => large(p, marked(img(p, T('rulebook page')),
                                                                          changed.has(p)))));
}
function renderBoards() {
  const boards = state.boards || [];
  $('boards-section').hidden = !boards.length;
  $('boards').replaceChildren(...boards.map(b => {
    const changed = new Set(b.changed || []);
    return el('figure', {class: 'board', id: 'board-' + b.id},
              ...b.pages.map(p => large(p, marked(img(p, T('board {title}', {title: b.title})), changed.has(p)))),
              el('figcaption', {}, b.title));
  }));
}
// What prints differently since --changes-since, as of the last save: each reprinted face
// (and rulebook or board page) before and after, with its causes; made again at every save.
function renderChanges() {
  const box = $('changes');
  if (!box) return;
  const changes = state.changes || [];
  if (!changes.length) { box.replaceChildren(el('p', {}, T('Nothing printed has changed.'))); return; }
  box.replaceChildren(...changes.map(c => el('figure', {class: 'change', id: 'change-' + c.id + '-' + c.side},
    ...(c.before ? [img(c.before, T('before'))] : []), ...(c.after ? [img(c.after, T('after'))] : []),
    el('figcaption', {}, el('code', {}, c.id), ' ' + c.side,
       el('ul', {}, ...c.causes.map(cause => el('li', {}, cause)))))));
}
let opener = null;  // what had the focus when the zoom opened: it gets it back
function unzoom() {
  $('zoom').hidden = true; open = null; remember();
  if (opener) { opener.focus(); opener = null; }
}
function zoom(id) {
  const shown = state.cards.filter(visible);
  const c = state.cards.find(x => x.id === id);
  if (!c) { $('zoom').hidden = true; open = null; return; }
  if ($('zoom').hidden) opener = document.activeElement;
  open = id;
  remember();
  const size = {width: Math.round(c.w_mm * MM_PX) + 'px', height: Math.round(c.h_mm * MM_PX) + 'px'};
  const guides = $('zoom').dataset.guides === '1';  // trim, bleed, safe and boxes drawn
  const sharp = (name, alt) => el('img', {src: src(name).replace('/img/', '/zoom/') +
                                           (guides ? '&guides=1' : ''), alt: alt});
  const faces = [sharp(c.front, c.name), sharp(c.back, T('back of {name}', {name: c.name}))];
  for (const f of faces) { f.style.width = size.width; f.style.height = size.height; }
  const close = el('button', {type: 'button'}, T('Close (Esc)'));
  close.addEventListener('click', unzoom);
  const rows = Object.entries(c.fields).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v)));
  const mine = problemsOf(c.id).map(p => el('li', {}, `${T(p.level)}: ${p.text}`));
  const toggle = el('button', {type: 'button', id: 'guides', 'aria-pressed': String(guides)},
                    guides ? T('Hide guides') : T('Show guides'));
  toggle.addEventListener('click', () => {
    $('zoom').dataset.guides = guides ? '' : '1';
    zoom(id);
    $('guides').focus();
  });
  $('zoom').replaceChildren(close, toggle, el('h2', {}, `${named(c) ? `${c.name} (${c.id})` : c.id} ×${c.copies}`),
    el('p', {}, T('{w} × {h} mm, at print size; ← → for the next card', {w: c.w_mm, h: c.h_mm})),
    el('div', {class: 'faces'}, ...faces), el('table', {}, ...rows), el('ul', {}, ...mine));
  $('zoom').hidden = false;
  $('zoom').dataset.index = String(shown.findIndex(x => x.id === id));
  if (!$('zoom').contains(document.activeElement)) close.focus();  // the focus inside it
}
document.addEventListener('keydown', (e) => {
  if ($('zoom').hidden) return;
  const shown = state.cards.filter(visible);
  const at = shown.findIndex(x => x.id === open);
  if (e.key === 'Tab') {  // the focus stays in the zoom while it is open
    const inside = [...$('zoom').querySelectorAll('button, a[href], [tabindex]')];
    const i = inside.indexOf(document.activeElement);
    e.preventDefault();
    inside[(i + (e.shiftKey ? inside.length - 1 : 1)) % inside.length].focus();
  } else if (e.key === 'Escape') unzoom();
  else if (e.key === 'ArrowRight' && at >= 0) zoom(shown[(at + 1) % shown.length].id);
  else if (e.key === 'ArrowLeft' && at >= 0) zoom(shown[(at - 1 + shown.length) % shown.length].id);
});
function render() {
  // A deck removed from the game while its tab was chosen: all decks shown, not an empty page
  // (while the game does not load, its last good decks stay, and so does the choice).
  if (deck && state.decks.length && !state.decks.some(d => d.id === deck)) deck = '';
  index();
  renderHeader(); renderCards(); renderReport(); renderChanges(); renderRulebook(); renderBoards();
  renderStats();
  renderSheets();
  if (open) zoom(open);
  remember();
}
// What the page shows is in its address (#deck=…&q=…&drafts=1&problems=1&card=…): a link or
// a reload opens the same view.
function remember() {
  const parts = new URLSearchParams();
  if (deck) parts.set('deck', deck);
  if ($('search').value) parts.set('q', $('search').value);
  if ($('only-drafts').checked) parts.set('drafts', '1');
  if ($('only-errors').checked) parts.set('problems', '1');
  if (open) parts.set('card', open);
  if (view !== 'cards') parts.set('view', view);
  const hash = parts.toString() ? '#' + parts.toString() : '';
  if (location.hash !== hash) history.replaceState(null, '', location.pathname + hash);
}
function recall() {
  const parts = new URLSearchParams(location.hash.slice(1));
  deck = parts.get('deck') || '';
  $('search').value = parts.get('q') || '';
  $('only-drafts').checked = parts.get('drafts') === '1';
  $('only-errors').checked = parts.get('problems') === '1';
  open = parts.get('card');
  if (VIEWS[parts.get('view')]) showView(parts.get('view'));
}
for (const id of ['search', 'only-drafts', 'only-errors', 'only-changed']) {
  const input = $(id);
  if (input) input.addEventListener('input', () => { renderCards(); remember(); });
}
recall();
render();
// An address changed by hand, or a link to #card=… followed on the open page: its view
// (the page's own changes replace the address without this event).
window.addEventListener('hashchange', () => {
  recall();
  if (!open) $('zoom').hidden = true;
  render();
});
// The page asks the server for the next version and the server answers when there is one
// (long polling: a page with nothing new costs nothing); an unchanged state is a 304, not a
// body to parse. A server that stopped is said; one that came back (a new run) reloads the
// page, as does a page first opened before the project's fonts were known.
const fontsAtLoad = state.fonts;
const pause = (ms) => new Promise(done => setTimeout(done, ms));
let etag = `"${state.server}-${state.version}"`, away = false;  // what the page has
function merged(next) {  // what the server sent: every card, or those changed since ours
  if (!next.delta) return next;
  const mine = new Map(state.cards.map(c => [c.id, c]));  // an unchanged card: the same object
  for (const c of next.cards) mine.set(c.id, c);
  const cards = next.order.map(id => mine.get(id));
  return cards.includes(undefined) ? null : {...next, cards: cards};  // null: ask for all
}
async function follow() {
  for (;;) {
    try {
      const headers = etag ? {'If-None-Match': etag} : {};
      const started = Date.now();
      const response = await fetch('/state.json?wait=1' + (etag ? '&since=' + state.version : ''),
                                   {cache: 'no-store', headers: headers});
      const back = away;
      away = false;
      $('stopped').hidden = true;
      if (response.status === 304) {
        if (Date.now() - started < 200) await pause(700);  // a server that does not wait
        continue;
      }
      const next = merged(await response.json());
      etag = next ? response.headers.get('ETag') : null;
      if (!next) continue;
      if ((back && next.server !== state.server) || (!fontsAtLoad && next.fonts)) {
        location.reload();
        return;
      }
      if (next.version !== state.version) { state = next; render(); }  // in place: scroll kept
    } catch (e) {
      away = true;
      $('stopped').hidden = false;
      await pause(700);
    }
  }
}
follow();
