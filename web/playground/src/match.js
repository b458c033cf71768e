// Match mode: a GPS trace, clicked fix by fix on the map or read from a GPX
// file, matched to the roads it drove (/v1/match). The trace is drawn
// dashed, each matching in green over it, and each fix joined to where it
// was placed. Like the matrix, it is asked for (and charged: a credit per
// 100 fixes) only on its button, and only once per trace and profile.
import { post } from './api.js';
import { fitLine, setData, showLayers } from './map.js';
import { busy, el, formatDistance, formatDuration, showAnswers } from './panel.js';

const maxFixes = 2000;
const linkFixes = 100; // longer traces stay out of the address
const layers = ['match-trace', 'match-fixes', 'match-snaps', 'match-route'];

export function matchMode(map, ui) {
  let fixes = []; // {lng, lat, t}: t seconds since 1970, or null
  let pending = 0;
  let computed = '';

  setData(map, 'match-trace', []);
  setData(map, 'match-result', []);
  map.addLayer({ id: 'match-trace', type: 'line', source: 'match-trace', filter: ['==', ['geometry-type'], 'LineString'],
    paint: { 'line-color': '#555', 'line-width': 2, 'line-dasharray': [2, 2] } });
  map.addLayer({ id: 'match-route', type: 'line', source: 'match-result', filter: ['==', ['get', 'part'], 'matching'],
    layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#2b9348', 'line-width': 6, 'line-opacity': 0.85 } });
  map.addLayer({ id: 'match-snaps', type: 'line', source: 'match-result', filter: ['==', ['get', 'part'], 'snap'],
    paint: { 'line-color': '#c1121f', 'line-width': 1.5 } });
  map.addLayer({ id: 'match-fixes', type: 'circle', source: 'match-trace', filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 4, 'circle-color': ['case', ['get', 'dropped'], '#c1121f', '#ffffff'], 'circle-stroke-color': '#555', 'circle-stroke-width': 1.5 } });

  function asked() {
    const req = { coordinates: fixes.map((f) => [+f.lng.toFixed(6), +f.lat.toFixed(6)]), profile: ui.profile.value, geometry_format: 'geojson' };
    if (fixes.length > 0 && fixes.every((f) => f.t !== null)) {
      req.timestamps = fixes.map((f) => f.t);
    }
    return req;
  }

  function drawTrace(dropped = new Set()) {
    const pts = fixes.map((f, i) => ({ type: 'Feature', properties: { dropped: dropped.has(i) }, geometry: { type: 'Point', coordinates: [f.lng, f.lat] } }));
    const line = fixes.length >= 2 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: fixes.map((f) => [f.lng, f.lat]) } }] : [];
    setData(map, 'match-trace', [...line, ...pts]);
  }

  function changed() {
    const n = fixes.length;
    ui.compute.disabled = n < 2 || JSON.stringify(asked()) === computed;
    ui.compute.textContent = n < 2 ? 'Match' : `Match ${n} fixes (${Math.ceil(n / 100)} credit${n > 100 ? 's' : ''})`;
    ui.changed();
  }

  function clear() {
    fixes = [];
    pending++;
    computed = '';
    drawTrace();
    setData(map, 'match-result', []);
    ui.summary.replaceChildren();
    ui.answers.replaceChildren();
    changed();
  }

  async function request() {
    const id = ++pending;
    const req = asked();
    busy(ui.answers, 'Matching the trace');
    const r = await post('/v1/match', req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [['match', r]]);
    if (!r.ok) {
      setData(map, 'match-result', []);
      changed();
      return;
    }
    computed = JSON.stringify(req);
    const b = r.body;
    const routes = b.matchings.map((m, i) => ({ type: 'Feature', properties: { part: 'matching', matching: i }, geometry: JSON.parse(m.geometry) }));
    const snaps = [];
    const dropped = new Set();
    b.tracepoints.forEach((tp, i) => {
      if (tp === null) {
        dropped.add(i);
        return;
      }
      snaps.push({ type: 'Feature', properties: { part: 'snap', fix: i }, geometry: { type: 'LineString', coordinates: [[fixes[i].lng, fixes[i].lat], tp.location] } });
    });
    setData(map, 'match-result', [...routes, ...snaps]);
    drawTrace(dropped);
    showSummary(ui.summary, b, dropped.size);
    document.body.dataset.match = b.request_id; // for tests: this answer is drawn
    changed();
  }

  ui.compute.addEventListener('click', request);
  ui.clear.addEventListener('click', clear);
  ui.profile.addEventListener('change', changed);
  ui.file.addEventListener('change', async () => {
    const file = ui.file.files[0];
    if (!file) {
      return;
    }
    const read = readGPX(await file.text());
    ui.file.value = '';
    if (read.length < 2) {
      ui.answers.replaceChildren(el('p', `${file.name}: no track of 2 or more points (GPX <trkpt> or <rtept>)`, { class: 'note' }));
      return;
    }
    clear();
    fixes = read.slice(0, maxFixes);
    drawTrace();
    fitLine(map, fixes.map((f) => [f.lng, f.lat]));
    changed();
  });
  changed();

  return {
    click(lngLat) {
      if (fixes.length >= maxFixes) {
        return;
      }
      fixes.push({ lng: lngLat.lng, lat: lngLat.lat, t: null });
      drawTrace();
      changed();
    },
    show(visible) {
      showLayers(map, layers, [], visible);
    },
    link() {
      return { profile: ui.profile.value, pts: fixes.length <= linkFixes ? fixes : [] };
    },
    restore(link) {
      if (link.get('profile') !== null && [...ui.profile.options].some((o) => o.value === link.get('profile'))) {
        ui.profile.value = link.get('profile');
      }
      fixes = link.points.slice(0, maxFixes).map((p) => ({ ...p, t: null }));
      drawTrace();
      changed();
    },
    keyed() {}, // a trace is matched only when asked for
  };
}

function showSummary(table, b, dropped) {
  table.replaceChildren(el('tr'));
  table.firstChild.append(el('th', 'matching'), el('th', 'distance'), el('th', 'time'), el('th', 'confidence'));
  b.matchings.forEach((m, i) => {
    const tr = el('tr');
    tr.append(el('td', String(i + 1)), el('td', formatDistance(m.summary.distance_m)), el('td', formatDuration(m.summary.duration_s)),
      el('td', m.confidence.toFixed(2)));
    table.append(tr);
  });
  const tr = el('tr');
  tr.append(el('td', `GPS error ${b.gps_error_m} m; ${dropped} of ${b.tracepoints.length} fixes dropped`, { colspan: '4', class: 'note' }));
  table.append(tr);
}

// readGPX reads a GPX file's track (or route) points, with their times
// when every point has one.
function readGPX(text) {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  let pts = [...doc.getElementsByTagName('trkpt')];
  if (pts.length === 0) {
    pts = [...doc.getElementsByTagName('rtept')];
  }
  const out = pts.map((p) => {
    const time = p.getElementsByTagName('time')[0]?.textContent;
    const t = time ? Date.parse(time) / 1000 : NaN;
    return { lng: Number(p.getAttribute('lon')), lat: Number(p.getAttribute('lat')), t: Number.isFinite(t) ? t : null };
  }).filter((f) => Number.isFinite(f.lng) && Number.isFinite(f.lat));
  if (out.some((f) => f.t === null)) {
    out.forEach((f) => { f.t = null; });
  }
  return out;
}
