// Elevation mode: the surface elevation of a clicked point.
import { hasKey, post } from './api.js';
import { popup } from './map.js';
import { busy, showAnswers } from './panel.js';

export function elevationMode(map, ui) {
  let shown = null;
  let pending = 0;
  let at = null;
  let answered = false;
  const mode = {
    async click(lngLat) {
      at = lngLat;
      ui.changed();
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
      answered = true;
      const v = r.body.elevations_m[0];
      const text = v === null ? 'outside elevation coverage' : `${Math.round(v)} m above sea level`;
      ui.value.textContent = text;
      shown = popup(map, lngLat, text);
      document.body.dataset.elevation = r.body.request_id; // for tests: this answer is shown
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
    },
  };
  return mode;
}
