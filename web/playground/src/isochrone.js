// Isochrone mode: an origin clicked on the map, the budgets picked from
// presets (1 to 4), the contours drawn nested, the largest underneath.
import { hasKey, post } from './api.js';
import { marker, setData, showLayers } from './map.js';
import { busy, el, showAnswers } from './panel.js';
import { download } from './export.js';

const presets = {
  time_minutes: { values: [5, 10, 15, 20, 30, 45, 60, 90, 120], picked: [10, 20, 30], unit: 'min' },
  distance_km: { values: [1, 2, 5, 10, 20, 50, 100], picked: [2, 5, 10], unit: 'km' },
};
const maxContours = 4;
const colors = ['#2a9d8f', '#8ab17d', '#e9c46a', '#e76f51']; // nearest to farthest

export function isochroneMode(map, ui) {
  let origin = null;
  let pin = null;
  let pending = 0;
  let answer = null;

  setData(map, 'isochrone', []);
  map.addLayer({
    id: 'isochrone-fill', type: 'fill', source: 'isochrone',
    paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.3 },
  });
  map.addLayer({
    id: 'isochrone-line', type: 'line', source: 'isochrone',
    paint: { 'line-color': ['get', 'color'], 'line-width': 2 },
  });

  function budgets() {
    return [...ui.budgets.querySelectorAll('input:checked')].map((i) => Number(i.value)).sort((a, b) => a - b);
  }

  function showPresets() {
    const p = presets[ui.unit.value];
    ui.budgets.querySelectorAll('label').forEach((l) => l.remove());
    for (const v of p.values) {
      const box = el('input', null, { type: 'checkbox', value: v });
      box.checked = p.picked.includes(v);
      box.addEventListener('change', () => {
        if (budgets().length > maxContours) {
          box.checked = false;
        }
        p.picked = budgets();
        ui.changed();
        request();
      });
      const label = el('label');
      label.append(box, ` ${v} ${p.unit}`);
      ui.budgets.append(label);
    }
  }

  async function request() {
    if (origin === null || budgets().length === 0) {
      return;
    }
    const id = ++pending;
    const field = ui.unit.value;
    const req = {
      origin: [origin.lng, origin.lat],
      profile: ui.profile.value,
      contours: budgets().map((v) => ({ [field]: v })),
      ...ui.avoid.options(),
    };
    busy(ui.answers, 'Computing the isochrone');
    const r = await post('/v1/isochrone', req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [['isochrone', r]]);
    if (!r.ok) {
      setData(map, 'isochrone', []);
      return;
    }
    answer = r.body;
    ui.geojson.hidden = false;
    // Largest first, so the smaller contours are drawn over it.
    const fs = r.body.features.features.map((f, i) => ({ ...f, properties: { ...f.properties, color: colors[i % colors.length] } }));
    fs.sort((a, b) => b.properties.contour - a.properties.contour);
    setData(map, 'isochrone', fs);
    ui.legend.replaceChildren(...r.body.features.features.map((f, i) => {
      const li = el('li', `${f.properties.contour} ${f.properties.unit}`);
      li.style.setProperty('--swatch', colors[i % colors.length]);
      return li;
    }));
    document.body.dataset.isochrone = r.body.request_id; // for tests: this answer is drawn
  }

  ui.unit.addEventListener('change', () => {
    showPresets();
    ui.changed();
    request();
  });
  ui.profile.addEventListener('change', () => {
    ui.changed();
    request();
  });
  ui.geojson.addEventListener('click', () => answer && download('isochrone.geojson', 'application/geo+json', JSON.stringify(answer.features, null, 1)));
  showPresets();

  // place sets the origin, a pin that can be dragged elsewhere.
  function place(lngLat) {
    origin = lngLat;
    pin?.remove();
    pin = marker(map, lngLat, '●', '#264653', (to) => {
      origin = to;
      ui.changed();
      request();
    });
    ui.changed();
  }

  return {
    click(lngLat) {
      place(lngLat);
      request();
    },
    show(visible) {
      showLayers(map, ['isochrone-fill', 'isochrone-line'], pin ? [pin] : [], visible);
    },
    link() {
      return { profile: ui.profile.value, unit: ui.unit.value, b: budgets().join(','), pts: origin ? [origin] : [] };
    },
    restore(link) {
      if (link.get('profile') !== null && [...ui.profile.options].some((o) => o.value === link.get('profile'))) {
        ui.profile.value = link.get('profile');
      }
      if (presets[link.get('unit')]) {
        ui.unit.value = link.get('unit');
      }
      const p = presets[ui.unit.value];
      const picked = (link.get('b') ?? '').split(',').map(Number).filter((v) => p.values.includes(v)).slice(0, maxContours);
      if (picked.length > 0) {
        p.picked = picked;
      }
      showPresets();
      if (link.points.length > 0) {
        place(link.points[0]);
        if (hasKey()) {
          request();
        }
      }
    },
    keyed() {
      if (origin !== null && answer === null) {
        request();
      }
    },
    avoided() {
      if (origin !== null && hasKey()) {
        request();
      }
    },
  };
}
