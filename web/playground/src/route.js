// Route mode: waypoints clicked on the map, the routes drawn (the best on
// top of its alternatives), a summary per route, the best route's steps in
// the chosen language with each maneuver drawn on the map (a point at its
// location; hovering or clicking a step shows it), and its elevation
// profile. Waypoints can be dragged; the routes can be framed on the map and
// downloaded as GeoJSON or GPX.
import { hasKey, post } from './api.js';
import { fitLine, setData, marker, popup, showLayers } from './map.js';
import { busy, el, formatDistance, formatDuration, showAnswers } from './panel.js';
import { drawProfile, samplePoints } from './chart.js';
import { download, toGPX } from './export.js';

const maxWaypoints = 50;

export function routeMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0; // answers to older clicks are dropped
  let answer = null; // the last directions answer drawn
  const layers = ['route-alternatives', 'route-best', 'route-maneuvers'];

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
    ui.tools.hidden = true;
    answer = null;
    ui.changed();
  }

  // addPoint pins a waypoint that can be dragged elsewhere (routed again).
  function addPoint(lngLat) {
    const i = points.length;
    points.push(lngLat);
    pins.push(marker(map, lngLat, String(i + 1), '#1f5fbf', (to) => {
      points[i] = to;
      ui.changed();
      if (points.length >= 2) {
        request();
      }
    }));
  }

  async function request(fit = false) {
    const id = ++pending;
    const req = {
      coordinates: points.map((p) => [p.lng, p.lat]),
      profile: ui.profile.value,
      include_steps: true,
      geometry_format: 'geojson',
      language: ui.language.value,
      ...ui.avoid.options(),
    };
    if (points.length === 2) { // alternatives are for two waypoints
      req.alternatives = Number(ui.alternatives.value);
    }
    if (ui.profile.value === 'truck' && ui.height.value !== '') { // the truck's vehicle (docs/vehicle.md)
      req.vehicle = { height_m: Number(ui.height.value) };
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
    answer = r.body;
    ui.tools.hidden = false;
    const routes = r.body.routes;
    // Alternatives first, so that the best route is drawn last, on top.
    const features = routes.map((rt) => ({ type: 'Feature', properties: { id: rt.id }, geometry: JSON.parse(rt.geometry) }));
    setData(map, 'routes', features);
    showSummary(ui.summary, routes);
    showSteps(map, ui, routes[0]);
    showAnswers(ui.answers, replies);
    if (fit) {
      fitLine(map, features[0].geometry.coordinates);
    }
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
      // Both the climb and the chart read the surface model (SRTM, 30 m,
      // with buildings and trees): a bridge, tunnel or cutting reads as a
      // slope, so a car route may show "steepest 31 %" on a road that has
      // no such grade. Say so beside the figures.
      ui.climb.textContent = c ? `Climb ${Math.round(c.ascent_m)} m, descent ${Math.round(c.descent_m)} m, steepest ${(c.max_grade * 100).toFixed(1)} %*` : '';
      ui.caveat.hidden = !c;
    }
    document.body.dataset.route = r.body.request_id; // for tests: this answer is drawn
  }

  const again = (enough) => () => {
    ui.changed();
    if (enough()) {
      request();
    }
  };
  ui.clear.addEventListener('click', clear);
  // The height applies to the truck only: shown for it, sent for it.
  const showHeight = () => { ui.heightLabel.hidden = ui.profile.value !== 'truck'; };
  ui.profile.addEventListener('change', showHeight);
  ui.profile.addEventListener('change', again(() => points.length >= 2));
  ui.height.addEventListener('change', again(() => points.length >= 2 && ui.profile.value === 'truck'));
  ui.alternatives.addEventListener('change', again(() => points.length === 2));
  ui.language.addEventListener('change', again(() => points.length >= 2));
  ui.fit.addEventListener('click', () => answer && fitLine(map, JSON.parse(answer.routes[0].geometry).coordinates));
  ui.geojson.addEventListener('click', () => answer && download('route.geojson', 'application/geo+json', JSON.stringify(routeGeoJSON(answer, points), null, 1)));
  ui.gpx.addEventListener('click', () => answer && download('route.gpx', 'application/gpx+xml', toGPX(answer, points)));

  return {
    click(lngLat) {
      if (points.length >= maxWaypoints) {
        return;
      }
      addPoint(lngLat);
      ui.changed();
      if (points.length >= 2) {
        request();
      }
    },
    clear,
    show(visible) {
      showLayers(map, layers, pins, visible);
    },
    // link is the mode's part of the permalink.
    link() {
      return { profile: ui.profile.value, alt: ui.alternatives.value, lang: ui.language.value, pts: points };
    },
    // restore puts back the waypoints and choices of a permalink, and routes
    // them at once if a key is in use (else when one is entered: keyed).
    restore(link) {
      setSelect(ui.profile, link.get('profile'));
      showHeight();
      setSelect(ui.alternatives, link.get('alt'));
      setSelect(ui.language, link.get('lang'));
      link.points.slice(0, maxWaypoints).forEach(addPoint);
      if (points.length >= 2 && hasKey()) {
        request(true);
      }
    },
    keyed() {
      if (points.length >= 2 && answer === null) {
        request(true);
      }
    },
    // avoided routes again under what is now avoided (avoid.js).
    avoided() {
      if (points.length >= 2 && hasKey()) {
        request();
      }
    },
  };
}

function setSelect(select, value) {
  if (value !== null && [...select.options].some((o) => o.value === value)) {
    select.value = value;
  }
}

// routeGeoJSON is the answer as a FeatureCollection: each route as a
// LineString with its summary, the waypoints as Points.
function routeGeoJSON(answer, points) {
  const routes = answer.routes.map((rt) => ({
    type: 'Feature',
    properties: { route: rt.id === 0 ? 'best' : `alternative ${rt.id}`, distance_m: rt.summary.distance_m, duration_s: rt.summary.duration_s },
    geometry: JSON.parse(rt.geometry),
  }));
  const stops = points.map((p, i) => ({
    type: 'Feature', properties: { waypoint: i + 1 }, geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
  }));
  return {
    type: 'FeatureCollection',
    properties: { request_id: answer.request_id, data_version: answer.data_version },
    features: [...routes, ...stops],
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
