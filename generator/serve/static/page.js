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
const src = (name) => '/img/' + encodeURIComponent(name).replace(/%2F/g, '/') + '?v=' +
                      ((state.v || {})[name] || state.version);
const img = (name, alt) => el('img', {src: src(name), alt: alt, loading: 'lazy'});  // on screen
function problemsOf(id) { return state.problems.filter(p => p.card === id); }
function visible(c) {  // search looks at the id, the name and every field's value
  const q = $('search').value.trim().toLowerCase();
  if (q && !(c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q) ||
             Object.values(c.fields).some(v => String(v).toLowerCase().includes(q)))) return false;
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
  // The banner says what is true: before the first build there are no last good cards.
  const first = state.problems.find(p => p.level === 'error');
  $('banner').hidden = state.ok || (state.building && !state.built_at);
  $('banner').textContent = (state.built_at ? 'The data has errors: these are the last good cards.'
                             : 'The data has errors: nothing has built yet.') +
                            (first ? ' ' + first.message : '');
  const tabs = $('tabs');
  tabs.replaceChildren(...[{id: '', name: 'All decks'}, ...state.decks].map(d => {
    const b = el('button', {type: 'button', 'aria-pressed': String(d.id === deck), 'data-deck': d.id}, d.name);
    b.addEventListener('click', () => { deck = d.id; render(); });
    return b;
  }));
}
function renderCards() {  // in place: a card that did not change keeps its node and pictures
  const box = $('cards'), old = new Map([...box.children].map(f => [f.id, f]));
  const figures = state.cards.map(c => {
    let fig = old.get('card-' + c.id);
    if (!fig) {
      fig = el('figure', {id: 'card-' + c.id, class: 'card', tabindex: '0'},
               img(c.front, c.name), img(c.back, 'back of ' + c.name), el('figcaption', {}));
      fig.addEventListener('click', () => zoom(c.id));
      fig.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); zoom(c.id); } });
    }
    fig.dataset.deck = c.deck;
    const [front, back] = fig.querySelectorAll('img');
    for (const [image, name] of [[front, c.front], [back, c.back]]) {
      const url = src(name);
      if (image.getAttribute('src') !== url) image.setAttribute('src', url);
    }
    fig.querySelector('figcaption').replaceChildren(el('span', {class: 'name'}, c.name), ' ',
                                                    el('code', {}, c.id), ' ×' + c.copies,
      ...(c.held ? [' ', el('span', {class: 'held'}, '(last good version: it has errors)')] : []));
    fig.classList.toggle('held', Boolean(c.held));
    const mine = problemsOf(c.id);
    const badge = fig.querySelector('.badge');
    if (badge) badge.remove();
    if (mine.length) {
      const level = mine.some(p => p.level === 'error') ? 'error' : 'warning';
      fig.append(el('span', {class: 'badge ' + level, title: mine.map(p => p.message).join('\n')},
                    String(mine.length)));
    }
    fig.hidden = !visible(c);
    return fig;
  });
  for (const [id, fig] of old) if (!state.cards.some(c => 'card-' + c.id === id)) fig.remove();
  figures.forEach((fig, i) => { if (box.children[i] !== fig) box.insertBefore(fig, box.children[i] || null); });
  showNoMatch();
}
function showNoMatch() {  // a search or filter that leaves nothing says so
  $('no-match').hidden = state.cards.some(visible) || !state.cards.length;
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
    const key = p.card ? (named.has(p.card) ? `${named.get(p.card).name} (${p.card})` : 'card ' + p.card) : p.group;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(p);
  }
  if (!groups.size) { $('problems').replaceChildren(el('p', {}, 'no problems')); return; }
  $('problems').replaceChildren(...[...groups].map(([key, list]) => {
    const errors = list.filter(p => p.level === 'error').length;
    const d = el('details', {class: 'group'}, el('summary', {},
      `${key}: ${errors ? errors + ' error' + (errors === 1 ? '' : 's') + ', ' : ''}${list.length - errors} warning${list.length - errors === 1 ? '' : 's'}`));
    if (errors) d.open = true;
    d.append(el('ul', {}, ...list.map(p => {
      const item = el('li', {class: p.level}, place(p), ` ${p.level}: ${p.message} [${p.check}]`);
      if (p.card && named.has(p.card)) {
        const go = el('button', {type: 'button', class: 'to-card'}, 'show the card');
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
function marked(image, changed) {  // a page that prints differently since --changes-since
  if (changed) { image.classList.add('changed'); image.title = 'changed'; }
  return image;
}
function renderRulebook() {
  const changed = new Set(state.changed_pages || []);
  $('rulebook').replaceChildren(...state.pages.map(p => marked(img(p, 'rulebook page'),
                                                               changed.has(p))));
}
function renderBoards() {
  const boards = state.boards || [];
  $('boards-section').hidden = !boards.length;
  $('boards').replaceChildren(...boards.map(b => {
    const changed = new Set(b.changed || []);
    return el('figure', {class: 'board', id: 'board-' + b.id},
              ...b.pages.map(p => marked(img(p, 'board ' + b.title), changed.has(p))),
              el('figcaption', {}, b.title));
  }));
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
  const faces = [sharp(c.front, c.name), sharp(c.back, 'back of ' + c.name)];
  for (const f of faces) { f.style.width = size.width; f.style.height = size.height; }
  const close = el('button', {type: 'button'}, 'Close (Esc)');
  close.addEventListener('click', unzoom);
  const rows = Object.entries(c.fields).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v)));
  const mine = problemsOf(c.id).map(p => el('li', {}, `${p.level}: ${p.message}`));
  const toggle = el('button', {type: 'button', id: 'guides', 'aria-pressed': String(guides)},
                    guides ? 'Hide guides' : 'Show guides');
  toggle.addEventListener('click', () => {
    $('zoom').dataset.guides = guides ? '' : '1';
    zoom(id);
    $('guides').focus();
  });
  $('zoom').replaceChildren(close, toggle, el('h2', {}, `${c.name} (${c.id}) ×${c.copies}`),
    el('p', {}, `${c.w_mm} × ${c.h_mm} mm, at print size; ← → for the next card`),
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
  renderHeader(); renderCards(); renderReport(); renderRulebook(); renderBoards(); renderStats();
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
}
for (const id of ['search', 'only-drafts', 'only-errors', 'only-changed']) {
  const input = $(id);
  if (input) input.addEventListener('input', () => {
    for (const c of state.cards) $('card-' + c.id).hidden = !visible(c);
    showNoMatch();
    remember();
  });
}
recall();
render();
// The page asks the server for the next version and the server answers when there is one
// (long polling: a page with nothing new costs nothing); an unchanged state is a 304, not a
// body to parse. A server that stopped is said; one that came back (a new run) reloads the
// page, as does a page first opened before the project's fonts were known.
const fontsAtLoad = state.fonts;
const pause = (ms) => new Promise(done => setTimeout(done, ms));
let etag = null, away = false;
async function follow() {
  for (;;) {
    try {
      const headers = etag ? {'If-None-Match': etag} : {};
      const started = Date.now();
      const response = await fetch('/state.json?wait=1', {cache: 'no-store', headers: headers});
      const back = away;
      away = false;
      $('stopped').hidden = true;
      if (response.status === 304) {
        if (Date.now() - started < 200) await pause(700);  // a server that does not wait
        continue;
      }
      etag = response.headers.get('ETag');
      const next = await response.json();
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
