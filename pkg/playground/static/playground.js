// src/api.js
var key = "";
function setKey(k) {
  key = k;
}
function hasKey() {
  return key !== "";
}
function keyHint() {
  return key === "" ? "" : `${key.slice(0, 3)}…${key.slice(-4)}`;
}
async function post(path, request) {
  const headers = { "Content-Type": "application/json" };
  if (key !== "") {
    headers.Authorization = `Bearer ${key}`;
  }
  const res = await fetch(path, {
    method: "POST",
    headers,
    body: JSON.stringify(request),
    cache: "no-store",
    credentials: "omit",
    referrerPolicy: "no-referrer"
  });
  const raw = await res.text();
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    body = { title: "Not JSON", detail: raw.slice(0, 500) };
  }
  return { status: res.status, ok: res.ok, body, raw, path, request };
}
async function get(path) {
  const res = await fetch(path, { cache: "no-store", credentials: "omit" });
  if (!res.ok) {
    throw new Error(`GET ${path}: ${res.status}`);
  }
  return res.json();
}

// src/map.js
import * as maplibregl from "./maplibre-gl.js";
var major = ["motorway", "trunk", "primary", "motorway_link", "trunk_link", "primary_link"];
var middle = ["secondary", "tertiary", "secondary_link", "tertiary_link"];
var paths = ["footway", "path", "cycleway", "bridleway", "steps", "corridor", "pedestrian", "track"];
function roadLayers() {
  const width = (base) => ["interpolate", ["exponential", 1.6], ["zoom"], 8, base * 0.4, 14, base * 2, 18, base * 8];
  const road = (id, filter, color, base, extra = {}) => ({
    id,
    type: "line",
    source: "roads",
    "source-layer": "roads",
    filter,
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": color, "line-width": width(base), ...extra }
  });
  const cls = ["get", "class"];
  return [
    road("roads-paths", ["in", cls, ["literal", paths]], "#9a8f7a", 0.6, { "line-dasharray": [2, 1.5] }),
    road("roads-minor", ["!", ["in", cls, ["literal", [...major, ...middle, ...paths]]]], "#ffffff", 1.2),
    road("roads-middle", ["in", cls, ["literal", middle]], "#f7d77a", 1.8),
    road("roads-major", ["in", cls, ["literal", major]], "#e8945a", 2.4)
  ];
}
function operationLayers() {
  const op = (id, kind, color, extra = {}) => ({
    id,
    type: "line",
    source: "roadops",
    filter: ["==", ["get", "kind"], kind],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": color, "line-width": ["interpolate", ["linear"], ["zoom"], 8, 3, 14, 6, 18, 12], "line-opacity": 0.85, ...extra }
  });
  return [op("roadops-slowdown", "slowdown", "#f08c00", { "line-dasharray": [1.5, 1] }), op("roadops-closure", "closure", "#d62828")];
}
function roadOperations(map, getJSON, out, toggle) {
  async function update() {
    let fc;
    try {
      fc = await getJSON("/roadops/active.geojson");
    } catch {
      return;
    }
    map.getSource("roadops").setData(fc);
    const n = fc.features.length;
    const closed = fc.features.filter((f) => f.properties.kind === "closure").length;
    out.textContent = !fc.served ? "this server reads no road operations" : n === 0 ? "none in force" : `${n} in force (${closed} closed)`;
    map.getContainer().dataset.roadops = String(n);
  }
  toggle.addEventListener("change", () => {
    for (const id of ["roadops-slowdown", "roadops-closure"]) {
      map.setLayoutProperty(id, "visibility", toggle.checked ? "visible" : "none");
    }
  });
  setInterval(update, 15e3);
  return update();
}
function createMap(tileJSON, view = null) {
  maplibregl.setWorkerUrl(new URL("maplibre-gl-worker.js", import.meta.url).href);
  const tiles = tileJSON.tiles.map((t) => decodeURI(new URL(t, window.location.href).href));
  const [w, s, e, n] = tileJSON.bounds;
  const map = new maplibregl.Map({
    container: "map",
    ...view ? { center: view.center, zoom: view.zoom } : { bounds: [[w, s], [e, n]], fitBoundsOptions: { padding: 20 } },
    maxBounds: [[w - 1, s - 1], [e + 1, n + 1]],
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: {
        roads: {
          type: "vector",
          tiles,
          minzoom: tileJSON.minzoom,
          maxzoom: tileJSON.maxzoom,
          bounds: tileJSON.bounds,
          attribution: tileJSON.attribution
        },
        roadops: { type: "geojson", data: { type: "FeatureCollection", features: [] } }
      },
      layers: [{ id: "land", type: "background", paint: { "background-color": "#efece4" } }, ...roadLayers(), ...operationLayers()]
    }
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
  map.addControl(new maplibregl.ScaleControl({ unit: "metric" }));
  map.getCanvas().style.cursor = "crosshair";
  return map;
}
function geojsonSource(map, id) {
  if (!map.getSource(id)) {
    map.addSource(id, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  }
  return map.getSource(id);
}
function setData(map, id, features) {
  geojsonSource(map, id).setData({ type: "FeatureCollection", features });
}
function marker(map, lngLat, label, color = "#1f5fbf", onDrag = null) {
  const e = document.createElement("div");
  e.className = "pin";
  e.textContent = label;
  e.style.background = color;
  const m = new maplibregl.Marker({ element: e, draggable: onDrag !== null }).setLngLat(lngLat).addTo(map);
  if (onDrag !== null) {
    e.title = "drag to move";
    m.on("dragend", () => onDrag(m.getLngLat()));
  }
  return m;
}
function showLayers(map, layers2, pins, visible) {
  for (const id of layers2) {
    map.setLayoutProperty(id, "visibility", visible ? "visible" : "none");
  }
  for (const p of pins) {
    p.getElement().hidden = !visible;
  }
}
function fitLine(map, coords, animate = true) {
  const b = new maplibregl.LngLatBounds(coords[0], coords[0]);
  for (const c of coords) {
    b.extend(c);
  }
  map.fitBounds(b, { padding: 40, maxZoom: 16, animate });
}
function popup(map, lngLat, text) {
  return new maplibregl.Popup({ closeButton: false }).setLngLat(lngLat).setText(text).addTo(map);
}
function placeLabels(map, getJSON) {
  let shown = /* @__PURE__ */ new Map();
  let asked = 0;
  async function update() {
    const id = ++asked;
    const b = map.getBounds();
    const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((v) => v.toFixed(5)).join(",");
    let body;
    try {
      body = await getJSON(`/places/labels?bbox=${bbox}&zoom=${map.getZoom().toFixed(2)}`);
    } catch {
      return;
    }
    if (id !== asked) {
      return;
    }
    const next = /* @__PURE__ */ new Map();
    const taken = [];
    for (const p of body.places) {
      const k = `${p.name}|${p.lon}|${p.lat}`;
      if (!roomFor(map.project([p.lon, p.lat]), p, taken)) {
        continue;
      }
      let m = shown.get(k);
      if (!m) {
        const e = document.createElement("div");
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
    map.getContainer().dataset.labels = String(shown.size);
  }
  map.on("moveend", update);
  return update();
}
function roomFor(pt, p, taken) {
  const size = p.kind === "city" || p.kind === "town" ? 15 : p.kind === "street" ? 10 : 12;
  const w = p.name.length * size * 0.55 / 2 + 2;
  const h = size / 2 + 2;
  const box = [pt.x - w, pt.y - h, pt.x + w, pt.y + h];
  if (taken.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) {
    return false;
  }
  taken.push(box);
  return true;
}
function describeRoads(map, out) {
  const layers2 = ["roads-paths", "roads-minor", "roads-middle", "roads-major"];
  map.on("mousemove", (e) => {
    const op = map.queryRenderedFeatures(e.point, { layers: ["roadops-closure", "roadops-slowdown"] })[0];
    if (op) {
      const p2 = op.properties;
      const what = p2.kind === "closure" ? "Closed" : `Slowed${p2.factor ? ` ×${p2.factor}` : ""}${p2.speed_kph ? ` to ${p2.speed_kph} km/h` : ""}`;
      out.textContent = `${what}: ${p2.reason} (${p2.id}${p2.valid_until ? `, until ${p2.valid_until}` : ""})`;
      return;
    }
    const f = map.queryRenderedFeatures(e.point, { layers: layers2 })[0];
    if (!f) {
      out.textContent = "Point at a road to see what the router knows of it.";
      return;
    }
    const p = f.properties;
    out.textContent = `${p.name ?? "unnamed"}${p.ref ? ` (${p.ref})` : ""}: ${p.class}, segment ${f.id}`;
  });
}

// src/panel.js
function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== void 0 && text !== null) {
    e.textContent = String(text);
  }
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, v);
  }
  return e;
}
function showAnswers(box, replies) {
  box.replaceChildren(...replies.map(([label, r]) => answer(label, r)));
}
function answer(label, r) {
  const div = el("div", null, { class: r.ok ? "answer ok" : "answer problem", "data-path": r.path });
  div.append(el("h3", `${label}: ${r.status} ${r.ok ? "OK" : r.body.title ?? ""}`));
  const dl = el("dl");
  const row = (k, v, cls) => {
    dl.append(el("dt", k), el("dd", v ?? "—", { class: cls }));
  };
  if (r.ok) {
    row("request_id", r.body.request_id, "request-id");
    row("credits_charged", r.body.credits_charged, "credits");
    row("data_version", r.body.data_version, "data-version");
  } else {
    row("instance", r.body.instance, "request-id");
    row("detail", r.body.detail);
    for (const fe of r.body.errors ?? []) {
      row(fe.field, fe.message);
    }
    if (r.status === 401) {
      row("hint", "Enter a secret key (sk_…) above.");
    }
  }
  div.append(dl);
  const details = el("details");
  details.append(el("summary", "raw JSON"), el("pre", JSON.stringify(r.body, null, 2), { class: "raw" }));
  div.append(details);
  return div;
}
function busy(box, what) {
  box.replaceChildren(el("p", `${what}…`, { class: "note" }));
}
function formatDuration(s) {
  if (s === null || s === void 0) {
    return "—";
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.round(s % 3600 / 60);
    return `${h} h ${String(m).padStart(2, "0")}`;
  }
  if (s >= 60) {
    return `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, "0")}`;
  }
  return `${Math.round(s)} s`;
}
function formatDistance(m) {
  if (m === null || m === void 0) {
    return "—";
  }
  return m >= 1e3 ? `${(m / 1e3).toFixed(m >= 1e4 ? 1 : 2)} km` : `${Math.round(m)} m`;
}

// src/chart.js
var maxSamples = 100;
function distance(a, b) {
  const r = 63710088e-1;
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}
function along(line) {
  const out = [0];
  for (let i = 1; i < line.length; i++) {
    out.push(out[i - 1] + distance(line[i - 1], line[i]));
  }
  return out;
}
function samplePoints(line) {
  const cum = along(line);
  const total = cum[cum.length - 1];
  const n = Math.min(maxSamples, Math.max(2, line.length));
  const out = [];
  let j = 0;
  for (let i = 0; i < n; i++) {
    const d = total * i / (n - 1);
    while (j < line.length - 2 && cum[j + 1] < d) {
      j++;
    }
    const span = cum[j + 1] - cum[j];
    const f = span > 0 ? Math.min(1, Math.max(0, (d - cum[j]) / span)) : 0;
    const a = line[j];
    const b = line[j + 1] ?? a;
    out.push([+(a[0] + f * (b[0] - a[0])).toFixed(6), +(a[1] + f * (b[1] - a[1])).toFixed(6)]);
  }
  return out;
}
function drawProfile(svg, line, elevations) {
  const w = 340;
  const h = 120;
  const pad = { l: 36, r: 6, t: 6, b: 18 };
  const total = along(line).at(-1);
  const known = elevations.filter((v) => v !== null);
  svg.replaceChildren();
  if (known.length === 0) {
    svg.append(svgEl("text", { x: 10, y: 60 }, "no elevation coverage here"));
    return;
  }
  const lo = Math.floor(Math.min(...known) / 50) * 50;
  const hi = Math.max(lo + 50, Math.ceil(Math.max(...known) / 50) * 50);
  const x = (i) => pad.l + (w - pad.l - pad.r) * i / (elevations.length - 1);
  const y = (v) => h - pad.b - (h - pad.t - pad.b) * (v - lo) / (hi - lo);
  let d = "";
  elevations.forEach((v, i) => {
    if (v !== null) {
      d += `${d === "" || elevations[i - 1] === null ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    }
  });
  svg.append(
    svgEl("path", { d, class: "profile" }),
    svgEl("line", { x1: pad.l, y1: h - pad.b, x2: w - pad.r, y2: h - pad.b, class: "axis" }),
    svgEl("text", { x: 2, y: y(hi) + 4 }, `${hi} m`),
    svgEl("text", { x: 2, y: y(lo) }, `${lo} m`),
    svgEl("text", { x: w - pad.r, y: h - 4, "text-anchor": "end" }, `${(total / 1e3).toFixed(1)} km`)
  );
  svg.dataset.points = String(elevations.length);
}
function svgEl(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, String(v));
  }
  if (text !== void 0) {
    e.textContent = text;
  }
  return e;
}

// src/export.js
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1e3);
}
var xml = (s) => String(s).replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
function toGPX(answer2, points) {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="mapd playground" xmlns="http://www.topografix.com/GPX/1/1">',
    `<metadata><desc>${xml(`request_id ${answer2.request_id}, data_version ${answer2.data_version}`)}</desc></metadata>`
  ];
  points.forEach((p, i) => out.push(`<wpt lat="${p.lat.toFixed(6)}" lon="${p.lng.toFixed(6)}"><name>${i + 1}</name></wpt>`));
  for (const rt of answer2.routes) {
    out.push(`<trk><name>${rt.id === 0 ? "best" : `alternative ${rt.id}`}</name><trkseg>`);
    for (const [lon, lat] of JSON.parse(rt.geometry).coordinates) {
      out.push(`<trkpt lat="${lat}" lon="${lon}"/>`);
    }
    out.push("</trkseg></trk>");
  }
  out.push("</gpx>", "");
  return out.join("\n");
}

// src/route.js
var maxWaypoints = 50;
function routeMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0;
  let answer2 = null;
  const layers2 = ["route-alternatives", "route-best", "route-maneuvers"];
  map.addLayer({
    id: "route-alternatives",
    type: "line",
    source: setSource(map, "routes"),
    filter: [">", ["get", "id"], 0],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#7d8da6", "line-width": 5, "line-opacity": 0.8 }
  });
  map.addLayer({
    id: "route-best",
    type: "line",
    source: "routes",
    filter: ["==", ["get", "id"], 0],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#1f5fbf", "line-width": 6 }
  });
  map.addLayer({
    id: "route-maneuvers",
    type: "circle",
    source: setSource(map, "maneuvers"),
    paint: {
      "circle-radius": ["case", ["boolean", ["get", "chosen"], false], 8, 5],
      "circle-color": "#ffffff",
      "circle-stroke-color": "#1f5fbf",
      "circle-stroke-width": 3
    }
  });
  function clear() {
    points.length = 0;
    pins.splice(0).forEach((p) => p.remove());
    pending++;
    setData(map, "routes", []);
    setData(map, "maneuvers", []);
    ui.summary.replaceChildren();
    ui.steps.replaceChildren();
    ui.stepsTitle.hidden = true;
    ui.chartBox.hidden = true;
    ui.answers.replaceChildren();
    ui.tools.hidden = true;
    answer2 = null;
    ui.changed();
  }
  function addPoint(lngLat) {
    const i = points.length;
    points.push(lngLat);
    pins.push(marker(map, lngLat, String(i + 1), "#1f5fbf", (to) => {
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
      geometry_format: "geojson",
      language: ui.language.value,
      ...ui.avoid.options()
    };
    if (points.length === 2) {
      req.alternatives = Number(ui.alternatives.value);
    }
    if (ui.profile.value === "truck" && ui.height.value !== "") {
      req.vehicle = { height_m: Number(ui.height.value) };
    }
    busy(ui.answers, "Routing");
    const r = await post("/v1/directions", req);
    if (id !== pending) {
      return;
    }
    const replies = [["directions", r]];
    if (!r.ok) {
      setData(map, "routes", []);
      showAnswers(ui.answers, replies);
      return;
    }
    answer2 = r.body;
    ui.tools.hidden = false;
    const routes = r.body.routes;
    const features = routes.map((rt) => ({ type: "Feature", properties: { id: rt.id }, geometry: JSON.parse(rt.geometry) }));
    setData(map, "routes", features);
    showSummary(ui.summary, routes);
    showSteps(map, ui, routes[0]);
    showAnswers(ui.answers, replies);
    if (fit) {
      fitLine(map, features[0].geometry.coordinates);
    }
    const profile = await post("/v1/elevation", { coordinates: samplePoints(features[0].geometry.coordinates) });
    if (id !== pending) {
      return;
    }
    replies.push(["elevation profile", profile]);
    showAnswers(ui.answers, replies);
    if (profile.ok) {
      ui.chartBox.hidden = false;
      drawProfile(ui.chart, features[0].geometry.coordinates, profile.body.elevations_m);
      const c = routes[0].elevation;
      ui.climb.textContent = c ? `Climb ${Math.round(c.ascent_m)} m, descent ${Math.round(c.descent_m)} m, steepest ${(c.max_grade * 100).toFixed(1)} %*` : "";
      ui.caveat.hidden = !c;
    }
    document.body.dataset.route = r.body.request_id;
  }
  const again = (enough) => () => {
    ui.changed();
    if (enough()) {
      request();
    }
  };
  ui.clear.addEventListener("click", clear);
  const showHeight = () => {
    ui.heightLabel.hidden = ui.profile.value !== "truck";
  };
  ui.profile.addEventListener("change", showHeight);
  ui.profile.addEventListener("change", again(() => points.length >= 2));
  ui.height.addEventListener("change", again(() => points.length >= 2 && ui.profile.value === "truck"));
  ui.alternatives.addEventListener("change", again(() => points.length === 2));
  ui.language.addEventListener("change", again(() => points.length >= 2));
  ui.fit.addEventListener("click", () => answer2 && fitLine(map, JSON.parse(answer2.routes[0].geometry).coordinates));
  ui.geojson.addEventListener("click", () => answer2 && download("route.geojson", "application/geo+json", JSON.stringify(routeGeoJSON(answer2, points), null, 1)));
  ui.gpx.addEventListener("click", () => answer2 && download("route.gpx", "application/gpx+xml", toGPX(answer2, points)));
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
      showLayers(map, layers2, pins, visible);
    },
    // link is the mode's part of the permalink.
    link() {
      return { profile: ui.profile.value, alt: ui.alternatives.value, lang: ui.language.value, pts: points };
    },
    // restore puts back the waypoints and choices of a permalink, and routes
    // them at once if a key is in use (else when one is entered: keyed).
    restore(link) {
      setSelect(ui.profile, link.get("profile"));
      showHeight();
      setSelect(ui.alternatives, link.get("alt"));
      setSelect(ui.language, link.get("lang"));
      link.points.slice(0, maxWaypoints).forEach(addPoint);
      if (points.length >= 2 && hasKey()) {
        request(true);
      }
    },
    keyed() {
      if (points.length >= 2 && answer2 === null) {
        request(true);
      }
    },
    // avoided routes again under what is now avoided (avoid.js).
    avoided() {
      if (points.length >= 2 && hasKey()) {
        request();
      }
    }
  };
}
function setSelect(select, value) {
  if (value !== null && [...select.options].some((o) => o.value === value)) {
    select.value = value;
  }
}
function routeGeoJSON(answer2, points) {
  const routes = answer2.routes.map((rt) => ({
    type: "Feature",
    properties: { route: rt.id === 0 ? "best" : `alternative ${rt.id}`, distance_m: rt.summary.distance_m, duration_s: rt.summary.duration_s },
    geometry: JSON.parse(rt.geometry)
  }));
  const stops = points.map((p, i) => ({
    type: "Feature",
    properties: { waypoint: i + 1 },
    geometry: { type: "Point", coordinates: [p.lng, p.lat] }
  }));
  return {
    type: "FeatureCollection",
    properties: { request_id: answer2.request_id, data_version: answer2.data_version },
    features: [...routes, ...stops]
  };
}
function setSource(map, id) {
  setData(map, id, []);
  return id;
}
function showSummary(table, routes) {
  table.replaceChildren(el("tr"));
  table.firstChild.append(el("th", "route"), el("th", "distance"), el("th", "time"), el("th", "km/h"));
  for (const rt of routes) {
    const tr = el("tr", null, { class: rt.id === 0 ? "best" : "alternative" });
    const s = rt.summary;
    tr.append(
      el("td", rt.id === 0 ? "best" : `alternative ${rt.id}`),
      el("td", formatDistance(s.distance_m)),
      el("td", formatDuration(s.duration_s)),
      el("td", s.average_speed_kph === null ? "—" : s.average_speed_kph.toFixed(0))
    );
    table.append(tr);
  }
}
function showSteps(map, ui, best) {
  ui.steps.replaceChildren();
  const points = [];
  best.legs.forEach((leg, i) => {
    for (const s of leg.steps ?? []) {
      const li = el("li", null, { "data-leg": i, "data-maneuver": s.maneuver ?? "" });
      li.append(
        el("span", s.instruction, { class: "instruction" }),
        el("span", `${formatDistance(s.distance_m)} · ${formatDuration(s.duration_s)}`, { class: "note" })
      );
      ui.steps.append(li);
      if (!s.location) {
        continue;
      }
      const n = points.length;
      points.push({ type: "Feature", properties: { step: n, chosen: false }, geometry: { type: "Point", coordinates: s.location } });
      const choose = (chosen) => {
        points.forEach((p) => {
          p.properties.chosen = chosen && p.properties.step === n;
        });
        setData(map, "maneuvers", points);
      };
      li.addEventListener("mouseenter", () => choose(true));
      li.addEventListener("mouseleave", () => choose(false));
      li.addEventListener("click", () => {
        map.easeTo({ center: s.location, zoom: Math.max(map.getZoom(), 16) });
        popup(map, s.location, s.instruction);
      });
    }
  });
  setData(map, "maneuvers", points);
  ui.stepsTitle.hidden = false;
}

// src/isochrone.js
var presets = {
  time_minutes: { values: [5, 10, 15, 20, 30, 45, 60, 90, 120], picked: [10, 20, 30], unit: "min" },
  distance_km: { values: [1, 2, 5, 10, 20, 50, 100], picked: [2, 5, 10], unit: "km" }
};
var maxContours = 4;
var colors = ["#2a9d8f", "#8ab17d", "#e9c46a", "#e76f51"];
function isochroneMode(map, ui) {
  let origin = null;
  let pin = null;
  let pending = 0;
  let answer2 = null;
  setData(map, "isochrone", []);
  map.addLayer({
    id: "isochrone-fill",
    type: "fill",
    source: "isochrone",
    paint: { "fill-color": ["get", "color"], "fill-opacity": 0.3 }
  });
  map.addLayer({
    id: "isochrone-line",
    type: "line",
    source: "isochrone",
    paint: { "line-color": ["get", "color"], "line-width": 2 }
  });
  function budgets() {
    return [...ui.budgets.querySelectorAll("input:checked")].map((i) => Number(i.value)).sort((a, b) => a - b);
  }
  function showPresets() {
    const p = presets[ui.unit.value];
    ui.budgets.querySelectorAll("label").forEach((l) => l.remove());
    for (const v of p.values) {
      const box = el("input", null, { type: "checkbox", value: v });
      box.checked = p.picked.includes(v);
      box.addEventListener("change", () => {
        if (budgets().length > maxContours) {
          box.checked = false;
        }
        p.picked = budgets();
        ui.changed();
        request();
      });
      const label = el("label");
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
      ...ui.avoid.options()
    };
    busy(ui.answers, "Computing the isochrone");
    const r = await post("/v1/isochrone", req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [["isochrone", r]]);
    if (!r.ok) {
      setData(map, "isochrone", []);
      return;
    }
    answer2 = r.body;
    ui.geojson.hidden = false;
    const fs = r.body.features.features.map((f, i) => ({ ...f, properties: { ...f.properties, color: colors[i % colors.length] } }));
    fs.sort((a, b) => b.properties.contour - a.properties.contour);
    setData(map, "isochrone", fs);
    ui.legend.replaceChildren(...r.body.features.features.map((f, i) => {
      const li = el("li", `${f.properties.contour} ${f.properties.unit}`);
      li.style.setProperty("--swatch", colors[i % colors.length]);
      return li;
    }));
    document.body.dataset.isochrone = r.body.request_id;
  }
  ui.unit.addEventListener("change", () => {
    showPresets();
    ui.changed();
    request();
  });
  ui.profile.addEventListener("change", () => {
    ui.changed();
    request();
  });
  ui.geojson.addEventListener("click", () => answer2 && download("isochrone.geojson", "application/geo+json", JSON.stringify(answer2.features, null, 1)));
  showPresets();
  function place(lngLat) {
    origin = lngLat;
    pin?.remove();
    pin = marker(map, lngLat, "●", "#264653", (to) => {
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
      showLayers(map, ["isochrone-fill", "isochrone-line"], pin ? [pin] : [], visible);
    },
    link() {
      return { profile: ui.profile.value, unit: ui.unit.value, b: budgets().join(","), pts: origin ? [origin] : [] };
    },
    restore(link) {
      if (link.get("profile") !== null && [...ui.profile.options].some((o) => o.value === link.get("profile"))) {
        ui.profile.value = link.get("profile");
      }
      if (presets[link.get("unit")]) {
        ui.unit.value = link.get("unit");
      }
      const p = presets[ui.unit.value];
      const picked = (link.get("b") ?? "").split(",").map(Number).filter((v) => p.values.includes(v)).slice(0, maxContours);
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
      if (origin !== null && answer2 === null) {
        request();
      }
    },
    avoided() {
      if (origin !== null && hasKey()) {
        request();
      }
    }
  };
}

// src/matrix.js
var maxPoints = 10;
function matrixMode(map, ui) {
  const points = [];
  const pins = [];
  let pending = 0;
  let computed = "";
  const name = (i) => String.fromCharCode(65 + i);
  function clear() {
    points.length = 0;
    pins.splice(0).forEach((p) => p.remove());
    pending++;
    ui.table.replaceChildren();
    ui.answers.replaceChildren();
    computed = "";
    changed();
  }
  function asked() {
    const coords = points.map((p) => [+p.lng.toFixed(6), +p.lat.toFixed(6)]);
    return { sources: coords, targets: coords, profile: ui.profile.value, ...ui.avoid.options() };
  }
  function changed() {
    const n = points.length;
    ui.compute.disabled = n < 2 || JSON.stringify(asked()) === computed;
    ui.compute.textContent = n < 2 ? "Compute" : `Compute ${n}×${n} (${Math.ceil(n * n / 10)} credits)`;
    ui.changed();
  }
  async function request() {
    const id = ++pending;
    const req = asked();
    busy(ui.answers, "Computing the matrix");
    const r = await post("/v1/matrix", req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [["matrix", r]]);
    if (r.ok) {
      computed = JSON.stringify(req);
      heatTable(ui.table, r.body, name);
      document.body.dataset.matrix = r.body.request_id;
    }
    changed();
  }
  function addPoint(lngLat) {
    const i = points.length;
    points.push(lngLat);
    pins.push(marker(map, lngLat, name(i), "#6a4c93", (to) => {
      points[i] = to;
      changed();
    }));
  }
  ui.clear.addEventListener("click", clear);
  ui.profile.addEventListener("change", changed);
  ui.compute.addEventListener("click", request);
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
      if (link.get("profile") !== null && [...ui.profile.options].some((o) => o.value === link.get("profile"))) {
        ui.profile.value = link.get("profile");
      }
      link.points.slice(0, maxPoints).forEach(addPoint);
      changed();
    },
    keyed() {
    },
    // a table is computed only when asked for
    avoided: () => changed()
    // the Compute button says a new table may be asked for
  };
}
function heatTable(table, body, name) {
  const all = body.durations.flat().filter((v) => v !== null && v > 0);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const head = el("tr");
  head.append(el("th", "from \\ to"), ...body.durations.map((_, j) => el("th", name(j))));
  const rows = body.durations.map((row, i) => {
    const tr = el("tr");
    tr.append(el("th", name(i)));
    row.forEach((v, j) => {
      const td = el("td", null, { "data-duration": v === null ? "null" : String(v) });
      td.append(el("span", formatDuration(v)), el("span", formatDistance(body.distances[i][j]), { class: "note" }));
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

// src/elevation.js
function elevationMode(map, ui) {
  let shown = null;
  let pending = 0;
  let at = null;
  let answered = false;
  const mode = {
    async click(lngLat) {
      at = lngLat;
      ui.changed();
      const id = ++pending;
      busy(ui.answers, "Sampling");
      const r = await post("/v1/elevation", { coordinates: [[lngLat.lng, lngLat.lat]] });
      if (id !== pending) {
        return;
      }
      showAnswers(ui.answers, [["elevation", r]]);
      shown?.remove();
      if (!r.ok) {
        ui.value.textContent = "";
        return;
      }
      answered = true;
      const v = r.body.elevations_m[0];
      const text = v === null ? "outside elevation coverage" : `${Math.round(v)} m above sea level`;
      ui.value.textContent = text;
      shown = popup(map, lngLat, text);
      document.body.dataset.elevation = r.body.request_id;
    },
    show(visible) {
      if (shown) {
        shown.getElement().hidden = !visible;
      }
    },
    link() {
      return { pts: at ? [at] : [] };
    },
    restore(link) {
      at = link.points[0] ?? null;
      if (at && hasKey()) {
        mode.click(at);
      }
    },
    keyed() {
      if (at && !answered) {
        mode.click(at);
      }
    }
  };
  return mode;
}

// src/match.js
var maxFixes = 2e3;
var linkFixes = 100;
var layers = ["match-trace", "match-fixes", "match-snaps", "match-route"];
function matchMode(map, ui) {
  let fixes = [];
  let pending = 0;
  let computed = "";
  setData(map, "match-trace", []);
  setData(map, "match-result", []);
  map.addLayer({
    id: "match-trace",
    type: "line",
    source: "match-trace",
    filter: ["==", ["geometry-type"], "LineString"],
    paint: { "line-color": "#555", "line-width": 2, "line-dasharray": [2, 2] }
  });
  map.addLayer({
    id: "match-route",
    type: "line",
    source: "match-result",
    filter: ["==", ["get", "part"], "matching"],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#2b9348", "line-width": 6, "line-opacity": 0.85 }
  });
  map.addLayer({
    id: "match-snaps",
    type: "line",
    source: "match-result",
    filter: ["==", ["get", "part"], "snap"],
    paint: { "line-color": "#c1121f", "line-width": 1.5 }
  });
  map.addLayer({
    id: "match-fixes",
    type: "circle",
    source: "match-trace",
    filter: ["==", ["geometry-type"], "Point"],
    paint: { "circle-radius": 4, "circle-color": ["case", ["get", "dropped"], "#c1121f", "#ffffff"], "circle-stroke-color": "#555", "circle-stroke-width": 1.5 }
  });
  function asked() {
    const req = { coordinates: fixes.map((f) => [+f.lng.toFixed(6), +f.lat.toFixed(6)]), profile: ui.profile.value, geometry_format: "geojson" };
    if (fixes.length > 0 && fixes.every((f) => f.t !== null)) {
      req.timestamps = fixes.map((f) => f.t);
    }
    return req;
  }
  function drawTrace(dropped = /* @__PURE__ */ new Set()) {
    const pts = fixes.map((f, i) => ({ type: "Feature", properties: { dropped: dropped.has(i) }, geometry: { type: "Point", coordinates: [f.lng, f.lat] } }));
    const line = fixes.length >= 2 ? [{ type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: fixes.map((f) => [f.lng, f.lat]) } }] : [];
    setData(map, "match-trace", [...line, ...pts]);
  }
  function changed() {
    const n = fixes.length;
    ui.compute.disabled = n < 2 || JSON.stringify(asked()) === computed;
    ui.compute.textContent = n < 2 ? "Match" : `Match ${n} fixes (${Math.ceil(n / 100)} credit${n > 100 ? "s" : ""})`;
    ui.changed();
  }
  function clear() {
    fixes = [];
    pending++;
    computed = "";
    drawTrace();
    setData(map, "match-result", []);
    ui.summary.replaceChildren();
    ui.answers.replaceChildren();
    changed();
  }
  async function request() {
    const id = ++pending;
    const req = asked();
    busy(ui.answers, "Matching the trace");
    const r = await post("/v1/match", req);
    if (id !== pending) {
      return;
    }
    showAnswers(ui.answers, [["match", r]]);
    if (!r.ok) {
      setData(map, "match-result", []);
      changed();
      return;
    }
    computed = JSON.stringify(req);
    const b = r.body;
    const routes = b.matchings.map((m, i) => ({ type: "Feature", properties: { part: "matching", matching: i }, geometry: JSON.parse(m.geometry) }));
    const snaps = [];
    const dropped = /* @__PURE__ */ new Set();
    b.tracepoints.forEach((tp, i) => {
      if (tp === null) {
        dropped.add(i);
        return;
      }
      snaps.push({ type: "Feature", properties: { part: "snap", fix: i }, geometry: { type: "LineString", coordinates: [[fixes[i].lng, fixes[i].lat], tp.location] } });
    });
    setData(map, "match-result", [...routes, ...snaps]);
    drawTrace(dropped);
    showSummary2(ui.summary, b, dropped.size);
    document.body.dataset.match = b.request_id;
    changed();
  }
  ui.compute.addEventListener("click", request);
  ui.clear.addEventListener("click", clear);
  ui.profile.addEventListener("change", changed);
  ui.file.addEventListener("change", async () => {
    const file = ui.file.files[0];
    if (!file) {
      return;
    }
    const read = readGPX(await file.text());
    ui.file.value = "";
    if (read.length < 2) {
      ui.answers.replaceChildren(el("p", `${file.name}: no track of 2 or more points (GPX <trkpt> or <rtept>)`, { class: "note" }));
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
      if (link.get("profile") !== null && [...ui.profile.options].some((o) => o.value === link.get("profile"))) {
        ui.profile.value = link.get("profile");
      }
      fixes = link.points.slice(0, maxFixes).map((p) => ({ ...p, t: null }));
      drawTrace();
      changed();
    },
    keyed() {
    }
    // a trace is matched only when asked for
  };
}
function showSummary2(table, b, dropped) {
  table.replaceChildren(el("tr"));
  table.firstChild.append(el("th", "matching"), el("th", "distance"), el("th", "time"), el("th", "confidence"));
  b.matchings.forEach((m, i) => {
    const tr2 = el("tr");
    tr2.append(
      el("td", String(i + 1)),
      el("td", formatDistance(m.summary.distance_m)),
      el("td", formatDuration(m.summary.duration_s)),
      el("td", m.confidence.toFixed(2))
    );
    table.append(tr2);
  });
  const tr = el("tr");
  tr.append(el("td", `GPS error ${b.gps_error_m} m; ${dropped} of ${b.tracepoints.length} fixes dropped`, { colspan: "4", class: "note" }));
  table.append(tr);
}
function readGPX(text) {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  let pts = [...doc.getElementsByTagName("trkpt")];
  if (pts.length === 0) {
    pts = [...doc.getElementsByTagName("rtept")];
  }
  const out = pts.map((p) => {
    const time = p.getElementsByTagName("time")[0]?.textContent;
    const t = time ? Date.parse(time) / 1e3 : NaN;
    return { lng: Number(p.getAttribute("lon")), lat: Number(p.getAttribute("lat")), t: Number.isFinite(t) ? t : null };
  }).filter((f) => Number.isFinite(f.lng) && Number.isFinite(f.lat));
  if (out.some((f) => f.t === null)) {
    out.forEach((f) => {
      f.t = null;
    });
  }
  return out;
}

// src/avoid.js
var maxAreas = 10;
function avoidControls(map, ui) {
  const areas = [];
  let corner = null;
  let drawing = false;
  const listeners = [];
  map.addSource("avoid-areas", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({ id: "avoid-fill", type: "fill", source: "avoid-areas", paint: { "fill-color": "#c0392b", "fill-opacity": 0.15 } });
  map.addLayer({ id: "avoid-line", type: "line", source: "avoid-areas", paint: { "line-color": "#c0392b", "line-width": 2, "line-dasharray": [2, 1] } });
  const changed = () => {
    setData(map, "avoid-areas", areas.map((ring) => ({ type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [ring] } })));
    ui.state.textContent = areas.length === 0 ? "No area avoided." : `${areas.length} area${areas.length > 1 ? "s" : ""} avoided.`;
    ui.clear.disabled = areas.length === 0;
    listeners.forEach((fn) => fn());
  };
  const setDrawing = (on) => {
    drawing = on;
    corner = null;
    ui.draw.setAttribute("aria-pressed", String(on));
    ui.draw.textContent = on ? "Click two corners…" : "Draw area";
    map.getCanvas().style.cursor = on ? "crosshair" : "";
  };
  ui.draw.addEventListener("click", () => setDrawing(!drawing && areas.length < maxAreas));
  ui.clear.addEventListener("click", () => {
    areas.length = 0;
    setDrawing(false);
    changed();
  });
  for (const box of ui.kinds) {
    box.addEventListener("change", changed);
  }
  changed();
  return {
    // drawing reports whether map clicks are corners of an area, not points of the mode.
    drawing: () => drawing,
    click(lngLat) {
      if (corner === null) {
        corner = lngLat;
        return;
      }
      const [w, e] = [Math.min(corner.lng, lngLat.lng), Math.max(corner.lng, lngLat.lng)];
      const [s, n] = [Math.min(corner.lat, lngLat.lat), Math.max(corner.lat, lngLat.lat)];
      areas.push([[w, s], [e, s], [e, n], [w, n], [w, s]]);
      setDrawing(false);
      changed();
    },
    // options are the request members for what is avoided, none when nothing is.
    options() {
      const out = {};
      const kinds = ui.kinds.filter((b) => b.checked).map((b) => b.value);
      if (kinds.length > 0) {
        out.exclude = kinds;
      }
      if (areas.length > 0) {
        out.avoid_areas = { type: "MultiPolygon", coordinates: areas.map((ring) => [ring]) };
      }
      return out;
    },
    onChange(fn) {
      listeners.push(fn);
    }
  };
}

// src/search.js
var pause = 250;
var zoomFor = { city: 13, town: 14, village: 15, street: 17 };
function searchBox(map, ui, addPoint) {
  let timer = 0;
  let asked = 0;
  async function search() {
    const q = ui.input.value.trim();
    const id = ++asked;
    if (q === "") {
      ui.results.replaceChildren();
      return;
    }
    let body;
    try {
      body = await get(`/places/search?q=${encodeURIComponent(q.slice(0, 64))}&limit=8`);
    } catch (err) {
      ui.results.replaceChildren(el("li", `search unavailable: ${err.message}`, { class: "note" }));
      return;
    }
    if (id !== asked) {
      return;
    }
    if (body.results.length === 0) {
      ui.results.replaceChildren(el("li", `no place or street matches "${body.query}"`, { class: "note" }));
      return;
    }
    ui.results.replaceChildren(...body.results.map(result));
    document.body.dataset.search = body.query;
  }
  function result(p) {
    const li = el("li", null, { "data-kind": p.kind });
    const go = el("button", null, { type: "button", class: "place" });
    go.append(el("span", p.name), el("span", ` ${p.kind}${p.near ? `, ${p.near}` : ""}`, { class: "note" }));
    go.addEventListener("click", () => {
      map.flyTo({ center: [p.lon, p.lat], zoom: zoomFor[p.kind] ?? 15.5, duration: 600 });
      ui.results.replaceChildren();
      ui.input.value = p.name;
    });
    const add = el("button", "+", { type: "button", class: "add", title: "add as a point of this mode" });
    add.addEventListener("click", () => addPoint({ lng: p.lon, lat: p.lat }));
    li.append(go, add);
    return li;
  }
  ui.input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, pause);
  });
  ui.form.addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    search();
  });
}

// src/link.js
function readLink() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  params.points = (params.get("pts") ?? "").split(";").map((p) => p.split(",").map(Number)).filter((p) => p.length === 2 && p.every(Number.isFinite) && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90).map(([lng, lat]) => ({ lng, lat }));
  const at = (params.get("at") ?? "").split("/").map(Number);
  params.view = at.length === 3 && at.every(Number.isFinite) ? { zoom: at[0], center: [at[2], at[1]] } : null;
  return params;
}
function writeLink(mode, state, map) {
  const params = new URLSearchParams({ mode });
  for (const [k, v] of Object.entries(state)) {
    if (k === "pts") {
      if (v.length > 0) {
        params.set("pts", v.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(";"));
      }
    } else if (v !== "" && v !== null && v !== void 0) {
      params.set(k, v);
    }
  }
  const c = map.getCenter();
  params.set("at", `${map.getZoom().toFixed(2)}/${c.lat.toFixed(5)}/${c.lng.toFixed(5)}`);
  const hash = params.toString().replaceAll("%2C", ",").replaceAll("%3B", ";").replaceAll("%2F", "/");
  window.history.replaceState(null, "", `#${hash}`);
}

// src/main.js
var $ = (id) => document.getElementById(id);
var profiles = ["car", "moto", "truck", "bicycle", "pedestrian", "pedestrian_loaded"];
function keyForm(onKey) {
  const state = () => {
    $("key-state").textContent = hasKey() ? `Key ${keyHint()} in use, in this tab only.` : "No key: the map, names and search are free; answers need a key.";
    $("key-state").classList.toggle("warning", !hasKey());
  };
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const k = $("key").value.trim();
    $("key").value = "";
    setKey(k);
    state();
    if (k !== "" && !k.startsWith("sk_")) {
      $("key-state").textContent += " Only secret keys (sk_…) may call compute endpoints.";
    }
    if (k !== "") {
      onKey();
    }
  });
  $("forget").addEventListener("click", () => {
    setKey("");
    state();
  });
  state();
}
function tabs(modes, changed) {
  let current = "route";
  const select = (name) => {
    modes[current].show(false);
    current = name;
    modes[current].show(true);
    for (const o of document.querySelectorAll("#modes button")) {
      o.setAttribute("aria-selected", String(o.dataset.mode === current));
    }
    for (const s of document.querySelectorAll("section.mode")) {
      s.hidden = s.id !== `mode-${current}`;
    }
    document.body.dataset.mode = current;
  };
  for (const b of document.querySelectorAll("#modes button")) {
    b.addEventListener("click", () => {
      select(b.dataset.mode);
      changed();
    });
  }
  return { current: () => current, select };
}
function fillProfiles(available) {
  for (const select of document.querySelectorAll("select.profile")) {
    for (const p of profiles.filter((name) => available.includes(name))) {
      select.append(new Option(p, p));
    }
  }
}
function makeModes(map, changed, avoid) {
  return {
    route: routeMode(map, {
      profile: $("route-profile"),
      alternatives: $("route-alternatives"),
      language: $("route-language"),
      clear: $("route-clear"),
      height: $("route-height"),
      heightLabel: $("route-height-label"),
      summary: $("route-summary"),
      steps: $("steps"),
      stepsTitle: $("steps-title"),
      tools: $("route-tools"),
      fit: $("route-fit"),
      geojson: $("route-geojson"),
      gpx: $("route-gpx"),
      caveat: $("chart-caveat"),
      chartBox: $("route-chart"),
      chart: $("chart"),
      climb: $("chart-climb"),
      answers: $("route-answers"),
      changed,
      avoid
    }),
    isochrone: isochroneMode(map, {
      profile: $("iso-profile"),
      unit: $("iso-unit"),
      budgets: $("iso-budgets"),
      legend: $("iso-legend"),
      geojson: $("iso-geojson"),
      answers: $("isochrone-answers"),
      changed,
      avoid
    }),
    matrix: matrixMode(map, {
      profile: $("matrix-profile"),
      clear: $("matrix-clear"),
      compute: $("matrix-compute"),
      table: $("matrix-table"),
      answers: $("matrix-answers"),
      changed,
      avoid
    }),
    elevation: elevationMode(map, { value: $("elevation-value"), answers: $("elevation-answers"), changed }),
    match: matchMode(map, {
      profile: $("match-profile"),
      compute: $("match-compute"),
      clear: $("match-clear"),
      file: $("match-file"),
      summary: $("match-summary"),
      answers: $("match-answers"),
      changed
    })
  };
}
async function start() {
  const [status, tileJSON] = await Promise.all([get("/v1/status"), get("/tiles/tiles.json")]);
  $("data-version").textContent = status.data_version;
  fillProfiles(status.profiles.map((p) => p.name));
  const link = readLink();
  const map = createMap(tileJSON, link.view);
  await map.once("load");
  describeRoads(map, $("road"));
  let restoring = true;
  const changed = () => !restoring && writeLink(tab.current(), modes[tab.current()].link(), map);
  const avoid = avoidControls(map, {
    kinds: [...document.querySelectorAll("#avoid input[name=exclude]")],
    draw: $("avoid-draw"),
    clear: $("avoid-clear"),
    state: $("avoid-state")
  });
  const modes = makeModes(map, changed, avoid);
  const tab = tabs(modes, changed);
  avoid.onChange(() => modes[tab.current()].avoided?.());
  for (const name of Object.keys(modes)) {
    modes[name].show(name === "route");
  }
  keyForm(() => modes[tab.current()].keyed());
  searchBox(map, { form: $("search-form"), input: $("search"), results: $("search-results") }, (p) => modes[tab.current()].click(p));
  map.on("click", (e) => avoid.drawing() ? avoid.click(e.lngLat) : modes[tab.current()].click(e.lngLat));
  map.on("moveend", changed);
  if (modes[link.get("mode")]) {
    tab.select(link.get("mode"));
    modes[link.get("mode")].restore(link);
    const b = map.getBounds();
    if (link.points.some((p) => !b.contains([p.lng, p.lat]))) {
      fitLine(map, link.points.map((p) => [p.lng, p.lat]), false);
    }
  }
  restoring = false;
  changed();
  await Promise.all([placeLabels(map, get), roadOperations(map, get, $("roadops-state"), $("roadops-show"))]);
  window.playground = { map };
  map.once("idle", () => {
    document.body.dataset.ready = "true";
  });
}
start().catch((err) => {
  document.body.dataset.ready = "failed";
  console.error("playground: could not start:", err);
});
