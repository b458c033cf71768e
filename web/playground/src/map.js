// The map: MapLibre over the release's own road tiles (/tiles/), and the
// layers the panels draw their answers into.
import * as maplibregl from './maplibre-gl.js';

const major = ['motorway', 'trunk', 'primary', 'motorway_link', 'trunk_link', 'primary_link'];
const middle = ['secondary', 'tertiary', 'secondary_link', 'tertiary_link'];
const paths = ['footway', 'path', 'cycleway', 'bridleway', 'steps', 'corridor', 'pedestrian', 'track'];

// roadLayers draws roads by class: paths dashed, then streets, then the
// main roads on top, wider as the zoom grows.
function roadLayers() {
  const width = (base) => ['interpolate', ['exponential', 1.6], ['zoom'], 8, base * 0.4, 14, base * 2, 18, base * 8];
  const road = (id, filter, color, base, extra = {}) => ({
    id, type: 'line', source: 'roads', 'source-layer': 'roads', filter,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': width(base), ...extra },
  });
  const cls = ['get', 'class'];
  return [
    road('roads-paths', ['in', cls, ['literal', paths]], '#9a8f7a', 0.6, { 'line-dasharray': [2, 1.5] }),
    road('roads-minor', ['!', ['in', cls, ['literal', [...major, ...middle, ...paths]]]], '#ffffff', 1.2),
    road('roads-middle', ['in', cls, ['literal', middle]], '#f7d77a', 1.8),
    road('roads-major', ['in', cls, ['literal', major]], '#e8945a', 2.4),
  ];
}

// operationLayers draw the road operations in force over the roads and
// under every answer: closures red, slowdowns orange and dashed.
function operationLayers() {
  const op = (id, kind, color, extra = {}) => ({
    id, type: 'line', source: 'roadops', filter: ['==', ['get', 'kind'], kind],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': ['interpolate', ['linear'], ['zoom'], 8, 3, 14, 6, 18, 12], 'line-opacity': 0.85, ...extra },
  });
  return [op('roadops-slowdown', 'slowdown', '#f08c00', { 'line-dasharray': [1.5, 1] }), op('roadops-closure', 'closure', '#d62828')];
}

/**
 * roadOperations keeps the operations layer to what is in force (the free
 * /roadops/active.geojson, asked again every 15 s), counts them in out, and
 * lets the checkbox show or hide them.
 */
export function roadOperations(map, getJSON, out, toggle) {
  async function update() {
    let fc;
    try {
      fc = await getJSON('/roadops/active.geojson');
    } catch {
      return;
    }
    map.getSource('roadops').setData(fc);
    const n = fc.features.length;
    const closed = fc.features.filter((f) => f.properties.kind === 'closure').length;
    out.textContent = !fc.served ? 'this server reads no road operations' : n === 0 ? 'none in force' : `${n} in force (${closed} closed)`;
    map.getContainer().dataset.roadops = String(n); // for tests
  }
  toggle.addEventListener('change', () => {
    for (const id of ['roadops-slowdown', 'roadops-closure']) {
      map.setLayoutProperty(id, 'visibility', toggle.checked ? 'visible' : 'none');
    }
  });
  setInterval(update, 15000);
  return update();
}

/**
 * createMap draws the release's roads in #map, framed on their bounds, or
 * on view ({center, zoom}) when a permalink gives one.
 */
export function createMap(tileJSON, view = null) {
  maplibregl.setWorkerUrl(new URL('maplibre-gl-worker.js', import.meta.url).href);
  const tiles = tileJSON.tiles.map((t) => decodeURI(new URL(t, window.location.href).href));
  const [w, s, e, n] = tileJSON.bounds;
  const map = new maplibregl.Map({
    container: 'map',
    ...(view ? { center: view.center, zoom: view.zoom } : { bounds: [[w, s], [e, n]], fitBoundsOptions: { padding: 20 } }),
    maxBounds: [[w - 1, s - 1], [e + 1, n + 1]],
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: {
        roads: {
          type: 'vector', tiles, minzoom: tileJSON.minzoom, maxzoom: tileJSON.maxzoom,
          bounds: tileJSON.bounds, attribution: tileJSON.attribution,
        },
        roadops: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
      },
      layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#efece4' } }, ...roadLayers(), ...operationLayers()],
    },
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
  map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }));
  map.getCanvas().style.cursor = 'crosshair';
  return map;
}

/** ensureSource adds an empty GeoJSON source once and returns it. */
export function geojsonSource(map, id) {
  if (!map.getSource(id)) {
    map.addSource(id, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  }
  return map.getSource(id);
}

/** setData replaces a GeoJSON source's features. */
export function setData(map, id, features) {
  geojsonSource(map, id).setData({ type: 'FeatureCollection', features });
}

/**
 * marker puts a labelled pin on the map and returns it (remove() takes it
 * away). With onDrag, the pin can be dragged and onDrag gets where it was
 * dropped.
 */
export function marker(map, lngLat, label, color = '#1f5fbf', onDrag = null) {
  const e = document.createElement('div');
  e.className = 'pin';
  e.textContent = label;
  e.style.background = color;
  const m = new maplibregl.Marker({ element: e, draggable: onDrag !== null }).setLngLat(lngLat).addTo(map);
  if (onDrag !== null) {
    e.title = 'drag to move';
    m.on('dragend', () => onDrag(m.getLngLat()));
  }
  return m;
}

/**
 * showLayers shows or hides a mode's layers and pins, so that the map
 * shows only the mode in use; what is hidden is kept for coming back.
 */
export function showLayers(map, layers, pins, visible) {
  for (const id of layers) {
    map.setLayoutProperty(id, 'visibility', visible ? 'visible' : 'none');
  }
  for (const p of pins) {
    p.getElement().hidden = !visible;
  }
}

/** fitLine frames a line ([lon, lat] points) on the map. */
export function fitLine(map, coords, animate = true) {
  const b = new maplibregl.LngLatBounds(coords[0], coords[0]);
  for (const c of coords) {
    b.extend(c);
  }
  map.fitBounds(b, { padding: 40, maxZoom: 16, animate });
}

/** popup shows text at a point. */
export function popup(map, lngLat, text) {
  return new maplibregl.Popup({ closeButton: false }).setLngLat(lngLat).setText(text).addTo(map);
}

/**
 * placeLabels names the release's places on the map (its own OSM place
 * nodes, from /places/labels): HTML labels, since the page has no glyphs
 * for MapLibre to draw text with. They follow the view, larger places
 * from lower zooms, and let clicks through to the map.
 */
export function placeLabels(map, getJSON) {
  let shown = new Map();
  let asked = 0;
  async function update() {
    const id = ++asked;
    const b = map.getBounds();
    const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((v) => v.toFixed(5)).join(',');
    let body;
    try {
      body = await getJSON(`/places/labels?bbox=${bbox}&zoom=${map.getZoom().toFixed(2)}`);
    } catch {
      return; // an older release without an index, or paced: no names
    }
    if (id !== asked) {
      return;
    }
    const next = new Map();
    const taken = []; // screen boxes of the labels placed, largest places first
    for (const p of body.places) {
      const k = `${p.name}|${p.lon}|${p.lat}`;
      if (!roomFor(map.project([p.lon, p.lat]), p, taken)) {
        continue;
      }
      let m = shown.get(k);
      if (!m) {
        const e = document.createElement('div');
        e.className = `place-label kind-${p.kind}`;
        e.textContent = p.name;
        m = new maplibregl.Marker({ element: e }).setLngLat([p.lon, p.lat]).addTo(map);
      }
      next.set(k, m);
    }
    for (const [k, m] of shown) {
      if (!next.has(k)) {
        m.remove();
      }
    }
    shown = next;
    map.getContainer().dataset.labels = String(shown.size); // for tests
  }
  map.on('moveend', update);
  return update();
}

// roomFor reports whether p's label, centred on pt, overlaps none of the
// boxes taken (a greedy placement: the server sends larger places first),
// and takes its box when it does not. Widths are estimated from the name's
// length at the label's font size.
function roomFor(pt, p, taken) {
  const size = p.kind === 'city' || p.kind === 'town' ? 15 : p.kind === 'street' ? 10 : 12;
  const w = (p.name.length * size * 0.55) / 2 + 2;
  const h = size / 2 + 2;
  const box = [pt.x - w, pt.y - h, pt.x + w, pt.y + h];
  if (taken.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) {
    return false;
  }
  taken.push(box);
  return true;
}

/** describeRoads tells, in the footer, what the router knows of the road under the pointer. */
export function describeRoads(map, out) {
  const layers = ['roads-paths', 'roads-minor', 'roads-middle', 'roads-major'];
  map.on('mousemove', (e) => {
    const op = map.queryRenderedFeatures(e.point, { layers: ['roadops-closure', 'roadops-slowdown'] })[0];
    if (op) {
      const p = op.properties;
      const what = p.kind === 'closure' ? 'Closed' : `Slowed${p.factor ? ` ×${p.factor}` : ''}${p.speed_kph ? ` to ${p.speed_kph} km/h` : ''}`;
      out.textContent = `${what}: ${p.reason} (${p.id}${p.valid_until ? `, until ${p.valid_until}` : ''})`;
      return;
    }
    const f = map.queryRenderedFeatures(e.point, { layers })[0];
    if (!f) {
      out.textContent = 'Point at a road to see what the router knows of it.';
      return;
    }
    const p = f.properties;
    out.textContent = `${p.name ?? 'unnamed'}${p.ref ? ` (${p.ref})` : ''}: ${p.class}, segment ${f.id}`;
  });
}
