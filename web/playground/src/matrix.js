// Matrix mode: points clicked on the map, every pair's time and distance
// in a heat table (rows are sources, columns targets). Clicks and drags
// only place the points: the table is asked for, and charged, when
// "Compute" is pressed, and only when the points or profile changed.
import { post } from './api.js';
import { marker, showLayers } from './map.js';
import { busy, el, formatDistance, formatDuration, showAnswers } from './panel.js';

const maxPoints = 10; // 100 elements: 10 credits

export function matrixMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0;
  let computed = ''; // the request last answered, to compute each table once

  const name = (i) => String.fromCharCode(65 + i);

  function clear() {
    points.length = 0;
    pins.splice(0).forEach((p) => p.remove());
    pending++;
    ui.table.replaceChildren();
    ui.answers.replaceChildren();
    computed = '';
    changed();
  }

  function asked() {
    const coords = points.map((p) => [+p.lng.toFixed(6), +p.lat.toFixed(6)]);
    return { sources: coords, targets: coords, profile: ui.profile.value, ...ui.avoid.options() };
  }

  // changed updates the button: what a table of these points would cost
  // (a credit per 10 cells), disabled when there is nothing new to ask.
  function changed() {
    const n = points.length;
    ui.compute.disabled = n < 2 || JSON.stringify(asked()) === computed;
    ui.compute.textContent = n < 2 ? 'Compute' : `Compute ${n}×${n} (${Math.ceil((n * n) / 10)} credits)`;
    ui.changed();
  }

  async function request() {
    const id = ++pending;
    const req = asked();
    busy(ui.answers, 'Computing the matrix');
    const r = await post('/v1/matrix', req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [['matrix', r]]);
    if (r.ok) {
      computed = JSON.stringify(req);
      heatTable(ui.table, r.body, name);
      document.body.dataset.matrix = r.body.request_id; // for tests: this answer is drawn
    }
    changed();
  }

  function addPoint(lngLat) {
    const i = points.length;
    points.push(lngLat);
    pins.push(marker(map, lngLat, name(i), '#6a4c93', (to) => {
      points[i] = to;
      changed();
    }));
  }

  ui.clear.addEventListener('click', clear);
  ui.profile.addEventListener('change', changed);
  ui.compute.addEventListener('click', request);
  changed();

  return {
    click(lngLat) {
      if (points.length >= maxPoints) {
        return;
      }
      addPoint(lngLat);
      changed();
    },
    clear,
    show(visible) {
      showLayers(map, [], pins, visible);
    },
    link() {
      return { profile: ui.profile.value, pts: points };
    },
    restore(link) {
      if (link.get('profile') !== null && [...ui.profile.options].some((o) => o.value === link.get('profile'))) {
        ui.profile.value = link.get('profile');
      }
      link.points.slice(0, maxPoints).forEach(addPoint);
      changed();
    },
    keyed() {}, // a table is computed only when asked for
    avoided: () => changed(), // the Compute button says a new table may be asked for
  };
}

// heatTable colours each cell by its duration, from the shortest (green)
// to the longest (red) off the diagonal.
function heatTable(table, body, name) {
  const all = body.durations.flat().filter((v) => v !== null && v > 0);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const head = el('tr');
  head.append(el('th', 'from \\ to'), ...body.durations.map((_, j) => el('th', name(j))));
  const rows = body.durations.map((row, i) => {
    const tr = el('tr');
    tr.append(el('th', name(i)));
    row.forEach((v, j) => {
      const td = el('td', null, { 'data-duration': v === null ? 'null' : String(v) });
      td.append(el('span', formatDuration(v)), el('span', formatDistance(body.distances[i][j]), { class: 'note' }));
      if (v !== null && hi > lo) {
        const f = Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
        td.style.background = `hsl(${Math.round(120 * (1 - f))} 65% 80%)`;
      }
      tr.append(td);
    });
    return tr;
  });
  table.replaceChildren(head, ...rows);
}
