// The search box: the release's own places and streets, from the free,
// paced /places/search of this server (no key, no credits). Typing asks
// after a pause; a result flies the map there, and "+" adds it as a point
// of the current mode.
import { get } from './api.js';
import { el } from './panel.js';

const pause = 250; // ms after the last key before asking
const zoomFor = { city: 13, town: 14, village: 15, street: 17 };

export function searchBox(map, ui, addPoint) {
  let timer = 0;
  let asked = 0;

  async function search() {
    const q = ui.input.value.trim();
    const id = ++asked;
    if (q === '') {
      ui.results.replaceChildren();
      return;
    }
    let body;
    try {
      body = await get(`/places/search?q=${encodeURIComponent(q.slice(0, 64))}&limit=8`);
    } catch (err) {
      ui.results.replaceChildren(el('li', `search unavailable: ${err.message}`, { class: 'note' }));
      return;
    }
    if (id !== asked) {
      return;
    }
    if (body.results.length === 0) {
      ui.results.replaceChildren(el('li', `no place or street matches "${body.query}"`, { class: 'note' }));
      return;
    }
    ui.results.replaceChildren(...body.results.map(result));
    document.body.dataset.search = body.query; // for tests: these results are listed
  }

  function result(p) {
    const li = el('li', null, { 'data-kind': p.kind });
    const go = el('button', null, { type: 'button', class: 'place' });
    go.append(el('span', p.name), el('span', ` ${p.kind}${p.near ? `, ${p.near}` : ''}`, { class: 'note' }));
    go.addEventListener('click', () => {
      map.flyTo({ center: [p.lon, p.lat], zoom: zoomFor[p.kind] ?? 15.5, duration: 600 });
      ui.results.replaceChildren();
      ui.input.value = p.name;
    });
    const add = el('button', '+', { type: 'button', class: 'add', title: 'add as a point of this mode' });
    add.addEventListener('click', () => addPoint({ lng: p.lon, lat: p.lat }));
    li.append(go, add);
    return li;
  }

  ui.input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, pause);
  });
  ui.form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    search();
  });
}
