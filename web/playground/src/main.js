// The playground page: a map of the served release's roads and places, a
// search box, and five modes that call the /v1 API with the key typed in
// and draw its answers. The map shows the mode in use only; the address
// holds the mode's query (link.js).
import { get, hasKey, keyHint, setKey } from './api.js';
import { createMap, describeRoads, fitLine, placeLabels, roadOperations } from './map.js';
import { routeMode } from './route.js';
import { isochroneMode } from './isochrone.js';
import { matrixMode } from './matrix.js';
import { elevationMode } from './elevation.js';
import { matchMode } from './match.js';
import { avoidControls } from './avoid.js';
import { searchBox } from './search.js';
import { readLink, writeLink } from './link.js';

const $ = (id) => document.getElementById(id);

// profiles are the API's (Profile in /v1/openapi.json), car first.
const profiles = ['car', 'moto', 'truck', 'bicycle', 'pedestrian', 'pedestrian_loaded'];

function keyForm(onKey) {
  const state = () => {
    $('key-state').textContent = hasKey()
      ? `Key ${keyHint()} in use, in this tab only.`
      : 'No key: the map, names and search are free; answers need a key.';
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
    if (k !== '') {
      onKey();
    }
  });
  $('forget').addEventListener('click', () => {
    setKey('');
    state();
  });
  state();
}

// tabs switches modes: the one left hides its layers and pins, the one
// chosen shows its own, so the map holds one mode's answers at a time.
function tabs(modes, changed) {
  let current = 'route';
  const select = (name) => {
    modes[current].show(false);
    current = name;
    modes[current].show(true);
    for (const o of document.querySelectorAll('#modes button')) {
      o.setAttribute('aria-selected', String(o.dataset.mode === current));
    }
    for (const s of document.querySelectorAll('section.mode')) {
      s.hidden = s.id !== `mode-${current}`;
    }
    document.body.dataset.mode = current;
  };
  for (const b of document.querySelectorAll('#modes button')) {
    b.addEventListener('click', () => {
      select(b.dataset.mode);
      changed();
    });
  }
  return { current: () => current, select };
}

function fillProfiles(available) {
  for (const select of document.querySelectorAll('select.profile')) {
    for (const p of profiles.filter((name) => available.includes(name))) {
      select.append(new Option(p, p));
    }
  }
}

function makeModes(map, changed, avoid) {
  return {
    route: routeMode(map, {
      profile: $('route-profile'), alternatives: $('route-alternatives'), language: $('route-language'), clear: $('route-clear'),
      height: $('route-height'), heightLabel: $('route-height-label'),
      summary: $('route-summary'), steps: $('steps'), stepsTitle: $('steps-title'), tools: $('route-tools'),
      fit: $('route-fit'), geojson: $('route-geojson'), gpx: $('route-gpx'), caveat: $('chart-caveat'),
      chartBox: $('route-chart'), chart: $('chart'), climb: $('chart-climb'), answers: $('route-answers'), changed, avoid,
    }),
    isochrone: isochroneMode(map, {
      profile: $('iso-profile'), unit: $('iso-unit'), budgets: $('iso-budgets'), legend: $('iso-legend'),
      geojson: $('iso-geojson'), answers: $('isochrone-answers'), changed, avoid,
    }),
    matrix: matrixMode(map, {
      profile: $('matrix-profile'), clear: $('matrix-clear'), compute: $('matrix-compute'), table: $('matrix-table'),
      answers: $('matrix-answers'), changed, avoid,
    }),
    elevation: elevationMode(map, { value: $('elevation-value'), answers: $('elevation-answers'), changed }),
    match: matchMode(map, {
      profile: $('match-profile'), compute: $('match-compute'), clear: $('match-clear'), file: $('match-file'),
      summary: $('match-summary'), answers: $('match-answers'), changed,
    }),
  };
}

async function start() {
  const [status, tileJSON] = await Promise.all([get('/v1/status'), get('/tiles/tiles.json')]);
  $('data-version').textContent = status.data_version;
  fillProfiles(status.profiles.map((p) => p.name));
  const link = readLink();
  const map = createMap(tileJSON, link.view);
  await map.once('load');
  describeRoads(map, $('road'));
  let restoring = true; // the link is not rewritten while it is read
  const changed = () => !restoring && writeLink(tab.current(), modes[tab.current()].link(), map);
  const avoid = avoidControls(map, {
    kinds: [...document.querySelectorAll('#avoid input[name=exclude]')], draw: $('avoid-draw'), clear: $('avoid-clear'),
    state: $('avoid-state'),
  });
  const modes = makeModes(map, changed, avoid);
  const tab = tabs(modes, changed);
  avoid.onChange(() => modes[tab.current()].avoided?.());
  for (const name of Object.keys(modes)) {
    modes[name].show(name === 'route');
  }
  keyForm(() => modes[tab.current()].keyed());
  searchBox(map, { form: $('search-form'), input: $('search'), results: $('search-results') }, (p) => modes[tab.current()].click(p));
  map.on('click', (e) => (avoid.drawing() ? avoid.click(e.lngLat) : modes[tab.current()].click(e.lngLat)));
  map.on('moveend', changed);
  if (modes[link.get('mode')]) {
    tab.select(link.get('mode'));
    modes[link.get('mode')].restore(link);
    // A link opened on a smaller screen may leave its points out of view.
    const b = map.getBounds();
    if (link.points.some((p) => !b.contains([p.lng, p.lat]))) {
      fitLine(map, link.points.map((p) => [p.lng, p.lat]), false);
    }
  }
  restoring = false;
  changed();
  await Promise.all([placeLabels(map, get), roadOperations(map, get, $('roadops-state'), $('roadops-show'))]);
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
