// Elevation mode: the surface elevation of a clicked point.
import { post } from './api.js';
import { popup } from './map.js';
import { busy, showAnswers } from './panel.js';

export function elevationMode(map, ui) {
  let shown = null;
  let pending = 0;
  return {
    async click(lngLat) {
      const id = ++pending;
      busy(ui.answers, 'Sampling');
      const r = await post('/v1/elevation', { coordinates: [[lngLat.lng, lngLat.lat]] });
      if (id !== pending) {
        return;
      }
      showAnswers(ui.answers, [['elevation', r]]);
      shown?.remove();
      if (!r.ok) {
        ui.value.textContent = '';
        return;
      }
      const v = r.body.elevations_m[0];
      const text = v === null ? 'outside elevation coverage' : `${Math.round(v)} m above sea level`;
      ui.value.textContent = text;
      shown = popup(map, lngLat, text);
      document.body.dataset.elevation = r.body.request_id; // for tests: this answer is shown
    },
  };
}
