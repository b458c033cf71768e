// Matrix mode: points clicked on the map, every pair's time and distance
// in a heat table (rows are sources, columns targets).
import { post } from './api.js';
import { marker } from './map.js';
import { busy, el, formatDistance, formatDuration, showAnswers } from './panel.js';

const maxPoints = 10; // 100 elements: 10 credits

export function matrixMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0;

  const name = (i) => String.fromCharCode(65 + i);

  function clear() {
    points.length = 0;
    pins.splice(0).forEach((p) => p.remove());
    pending++;
    ui.table.replaceChildren();
    ui.answers.replaceChildren();
  }

  async function request() {
    const id = ++pending;
    const coords = points.map((p) => [p.lng, p.lat]);
    busy(ui.answers, 'Computing the matrix');
    const r = await post('/v1/matrix', { sources: coords, targets: coords, profile: ui.profile.value });
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [['matrix', r]]);
    if (r.ok) {
      heatTable(ui.table, r.body, name);
      document.body.dataset.matrix = r.body.request_id; // for tests: this answer is drawn
    }
  }

  ui.clear.addEventListener('click', clear);
  ui.profile.addEventListener('change', () => points.length > 0 && request());

  return {
    click(lngLat) {
      if (points.length >= maxPoints) {
        return;
      }
      points.push(lngLat);
      pins.push(marker(map, lngLat, name(points.length - 1), '#6a4c93'));
      request();
    },
    clear,
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
