// What routes keep off, shared by the route, isochrone and matrix modes:
// kinds of road to exclude (the request's `exclude`) and areas to avoid
// (`avoid_areas`), drawn on the map as rectangles: press "Draw area", then
// click two opposite corners. Every request of those modes carries them;
// changing them asks the current mode again.
import { setData } from './map.js';

const maxAreas = 10; // the API's limit of polygons

export function avoidControls(map, ui) {
  const areas = []; // rings, each a closed rectangle [[lng, lat] × 5]
  let corner = null; // the first corner of the rectangle being drawn
  let drawing = false;
  const listeners = [];

  map.addSource('avoid-areas', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer({ id: 'avoid-fill', type: 'fill', source: 'avoid-areas', paint: { 'fill-color': '#c0392b', 'fill-opacity': 0.15 } });
  map.addLayer({ id: 'avoid-line', type: 'line', source: 'avoid-areas', paint: { 'line-color': '#c0392b', 'line-width': 2, 'line-dasharray': [2, 1] } });

  const changed = () => {
    setData(map, 'avoid-areas', areas.map((ring) => ({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } })));
    ui.state.textContent = areas.length === 0 ? 'No area avoided.' : `${areas.length} area${areas.length > 1 ? 's' : ''} avoided.`;
    ui.clear.disabled = areas.length === 0;
    listeners.forEach((fn) => fn());
  };
  const setDrawing = (on) => {
    drawing = on;
    corner = null;
    ui.draw.setAttribute('aria-pressed', String(on));
    ui.draw.textContent = on ? 'Click two corners…' : 'Draw area';
    map.getCanvas().style.cursor = on ? 'crosshair' : '';
  };

  ui.draw.addEventListener('click', () => setDrawing(!drawing && areas.length < maxAreas));
  ui.clear.addEventListener('click', () => {
    areas.length = 0;
    setDrawing(false);
    changed();
  });
  for (const box of ui.kinds) {
    box.addEventListener('change', changed);
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
        out.avoid_areas = { type: 'MultiPolygon', coordinates: areas.map((ring) => [ring]) };
      }
      return out;
    },
    onChange(fn) {
      listeners.push(fn);
    },
  };
}
