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
      fig.append(el('span', {class: 'badge ' + level, title: mine.map(p => p.message).join('\n')},
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
  renderHeader(); renderCards(); renderReport(); renderRulebook(); renderBoards(); renderStats();
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
