// The playground page: a map of the served release's roads, and four modes
// that call the /v1 API with the key typed in and draw its answers.
import { get, hasKey, keyHint, setKey } from './api.js';
import { createMap, describeRoads } from './map.js';
import { routeMode } from './route.js';
import { isochroneMode } from './isochrone.js';
import { matrixMode } from './matrix.js';
import { elevationMode } from './elevation.js';

const $ = (id) => document.getElementById(id);

// profiles are the API's (Profile in /v1/openapi.json), car first.
const profiles = ['car', 'moto', 'truck', 'bicycle', 'pedestrian', 'pedestrian_loaded'];

function keyForm() {
  const state = () => {
    $('key-state').textContent = hasKey()
      ? `Key ${keyHint()} in use, in this tab only.`
      : 'No key: the map and its roads are free, answers need a key.';
    $('key-state').classList.toggle('warning', !hasKey());
  };
  $('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const k = $('key').value.trim();
    $('key').value = ''; // the field keeps nothing once the key is taken
    setKey(k);
    state();
    if (k !== '' && !k.startsWith('sk_')) {
      $('key-state').textContent += ' Only secret keys (sk_…) may call compute endpoints.';
    }
  });
  $('forget').addEventListener('click', () => {
    setKey('');
    state();
  });
  state();
}

function tabs(modes) {
  let current = 'route';
  for (const b of document.querySelectorAll('#modes button')) {
    b.addEventListener('click', () => {
      current = b.dataset.mode;
      for (const o of document.querySelectorAll('#modes button')) {
        o.setAttribute('aria-selected', String(o === b));
      }
      for (const s of document.querySelectorAll('section.mode')) {
        s.hidden = s.id !== `mode-${current}`;
      }
    });
  }
  return () => modes[current];
}

function fillProfiles(available) {
  for (const select of document.querySelectorAll('select.profile')) {
    for (const p of profiles.filter((name) => available.includes(name))) {
      select.append(new Option(p, p));
    }
  }
}

async function start() {
  keyForm();
  const [status, tileJSON] = await Promise.all([get('/v1/status'), get('/tiles/tiles.json')]);
  $('data-version').textContent = status.data_version;
  fillProfiles(status.profiles.map((p) => p.name));
  const map = createMap(tileJSON);
  await map.once('load');
  describeRoads(map, $('road'));
  const modes = {
    route: routeMode(map, {
      profile: $('route-profile'), alternatives: $('route-alternatives'), language: $('route-language'), clear: $('route-clear'),
      summary: $('route-summary'), steps: $('steps'), stepsTitle: $('steps-title'),
      chartBox: $('route-chart'), chart: $('chart'), climb: $('chart-climb'), answers: $('route-answers'),
    }),
    isochrone: isochroneMode(map, {
      profile: $('iso-profile'), unit: $('iso-unit'), budgets: $('iso-budgets'), legend: $('iso-legend'),
      answers: $('isochrone-answers'),
    }),
    matrix: matrixMode(map, { profile: $('matrix-profile'), clear: $('matrix-clear'), table: $('matrix-table'), answers: $('matrix-answers') }),
    elevation: elevationMode(map, { value: $('elevation-value'), answers: $('elevation-answers') }),
  };
  const mode = tabs(modes);
  map.on('click', (e) => mode().click(e.lngLat));
  // For tests and the curious: the map, once its first tiles are drawn.
  window.playground = { map };
  map.once('idle', () => {
    document.body.dataset.ready = 'true';
  });
}

start().catch((err) => {
  document.body.dataset.ready = 'failed';
  console.error('playground: could not start:', err);
});
