// Route mode: waypoints clicked on the map, the routes drawn (the best on
// top of its alternatives), a summary per route, the best route's steps in
// the chosen language with each maneuver drawn on the map (a point at its
// location; hovering or clicking a step shows it), and its elevation
// profile.
import { post } from './api.js';
import { setData, marker, popup } from './map.js';
import { busy, el, formatDistance, formatDuration, showAnswers } from './panel.js';
import { drawProfile, samplePoints } from './chart.js';

const maxWaypoints = 50;

export function routeMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0; // answers to older clicks are dropped

  map.addLayer({
    id: 'route-alternatives', type: 'line', source: setSource(map, 'routes'),
    filter: ['>', ['get', 'id'], 0],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#7d8da6', 'line-width': 5, 'line-opacity': 0.8 },
  });
  map.addLayer({
    id: 'route-best', type: 'line', source: 'routes', filter: ['==', ['get', 'id'], 0],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#1f5fbf', 'line-width': 6 },
  });
  map.addLayer({
    id: 'route-maneuvers', type: 'circle', source: setSource(map, 'maneuvers'),
    paint: {
      'circle-radius': ['case', ['boolean', ['get', 'chosen'], false], 8, 5],
      'circle-color': '#ffffff', 'circle-stroke-color': '#1f5fbf', 'circle-stroke-width': 3,
    },
  });

  function clear() {
    points.length = 0;
    pins.splice(0).forEach((p) => p.remove());
    pending++;
    setData(map, 'routes', []);
    setData(map, 'maneuvers', []);
    ui.summary.replaceChildren();
    ui.steps.replaceChildren();
    ui.stepsTitle.hidden = true;
    ui.chartBox.hidden = true;
    ui.answers.replaceChildren();
  }

  async function request() {
    const id = ++pending;
    const req = {
      coordinates: points.map((p) => [p.lng, p.lat]),
      profile: ui.profile.value,
      include_steps: true,
      geometry_format: 'geojson',
      language: ui.language.value,
    };
    if (points.length === 2) { // alternatives are for two waypoints
      req.alternatives = Number(ui.alternatives.value);
    }
    busy(ui.answers, 'Routing');
    const r = await post('/v1/directions', req);
    if (id !== pending) {
      return;
    }
    const replies = [['directions', r]];
    if (!r.ok) {
      setData(map, 'routes', []);
      showAnswers(ui.answers, replies);
      return;
    }
    const routes = r.body.routes;
    // Alternatives first, so that the best route is drawn last, on top.
    const features = routes.map((rt) => ({ type: 'Feature', properties: { id: rt.id }, geometry: JSON.parse(rt.geometry) }));
    setData(map, 'routes', features);
    showSummary(ui.summary, routes);
    showSteps(map, ui, routes[0]);
    showAnswers(ui.answers, replies);
    const profile = await post('/v1/elevation', { coordinates: samplePoints(features[0].geometry.coordinates) });
    if (id !== pending) {
      return;
    }
    replies.push(['elevation profile', profile]);
    showAnswers(ui.answers, replies);
    if (profile.ok) {
      ui.chartBox.hidden = false;
      drawProfile(ui.chart, features[0].geometry.coordinates, profile.body.elevations_m);
      const c = routes[0].elevation;
      ui.climb.textContent = c ? `Climb ${Math.round(c.ascent_m)} m, descent ${Math.round(c.descent_m)} m, steepest ${(c.max_grade * 100).toFixed(1)} %` : '';
    }
    document.body.dataset.route = r.body.request_id; // for tests: this answer is drawn
  }

  ui.clear.addEventListener('click', clear);
  ui.profile.addEventListener('change', () => points.length >= 2 && request());
  ui.alternatives.addEventListener('change', () => points.length === 2 && request());
  ui.language.addEventListener('change', () => points.length >= 2 && request());

  return {
    click(lngLat) {
      if (points.length >= maxWaypoints) {
        return;
      }
      points.push(lngLat);
      pins.push(marker(map, lngLat, String(points.length)));
      if (points.length >= 2) {
        request();
      }
    },
    clear,
  };
}

function setSource(map, id) {
  setData(map, id, []);
  return id;
}

function showSummary(table, routes) {
  table.replaceChildren(el('tr'));
  table.firstChild.append(el('th', 'route'), el('th', 'distance'), el('th', 'time'), el('th', 'km/h'));
  for (const rt of routes) {
    const tr = el('tr', null, { class: rt.id === 0 ? 'best' : 'alternative' });
    const s = rt.summary;
    tr.append(el('td', rt.id === 0 ? 'best' : `alternative ${rt.id}`), el('td', formatDistance(s.distance_m)),
      el('td', formatDuration(s.duration_s)), el('td', s.average_speed_kph === null ? '—' : s.average_speed_kph.toFixed(0)));
    table.append(tr);
  }
}

// showSteps lists the best route's steps and draws each maneuver where it
// happens; hovering a step enlarges its point, clicking it centres the map
// there and shows the instruction.
function showSteps(map, ui, best) {
  ui.steps.replaceChildren();
  const points = [];
  best.legs.forEach((leg, i) => {
    for (const s of leg.steps ?? []) {
      const li = el('li', null, { 'data-leg': i, 'data-maneuver': s.maneuver ?? '' });
      li.append(el('span', s.instruction, { class: 'instruction' }),
        el('span', `${formatDistance(s.distance_m)} · ${formatDuration(s.duration_s)}`, { class: 'note' }));
      ui.steps.append(li);
      if (!s.location) {
        continue;
      }
      const n = points.length;
      points.push({ type: 'Feature', properties: { step: n, chosen: false }, geometry: { type: 'Point', coordinates: s.location } });
      const choose = (chosen) => {
        points.forEach((p) => { p.properties.chosen = chosen && p.properties.step === n; });
        setData(map, 'maneuvers', points);
      };
      li.addEventListener('mouseenter', () => choose(true));
      li.addEventListener('mouseleave', () => choose(false));
      li.addEventListener('click', () => {
        map.easeTo({ center: s.location, zoom: Math.max(map.getZoom(), 16) });
        popup(map, s.location, s.instruction);
      });
    }
  });
  setData(map, 'maneuvers', points);
  ui.stepsTitle.hidden = false;
}
