// The permalink: the mode, its choices, its points and the map's view in
// the URL's fragment (#mode=route&profile=car&pts=1.5218,42.5063;1.58,42.5345&at=12.6/42.521/1.553),
// rewritten in place as they change, so that copying the address shares
// the query. Never the key: it is not part of any mode's link.

/** readLink parses the fragment: URLSearchParams plus points as {lng, lat}. */
export function readLink() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  params.points = (params.get('pts') ?? '').split(';').map((p) => p.split(',').map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isFinite) && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90)
    .map(([lng, lat]) => ({ lng, lat }));
  const at = (params.get('at') ?? '').split('/').map(Number);
  params.view = at.length === 3 && at.every(Number.isFinite) ? { zoom: at[0], center: [at[2], at[1]] } : null;
  return params;
}

/** writeLink puts the mode's state and the map's view in the fragment. */
export function writeLink(mode, state, map) {
  const params = new URLSearchParams({ mode });
  for (const [k, v] of Object.entries(state)) {
    if (k === 'pts') {
      if (v.length > 0) {
        params.set('pts', v.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';'));
      }
    } else if (v !== '' && v !== null && v !== undefined) {
      params.set(k, v);
    }
  }
  const c = map.getCenter();
  params.set('at', `${map.getZoom().toFixed(2)}/${c.lat.toFixed(5)}/${c.lng.toFixed(5)}`);
  // Commas and semicolons read better unescaped, and are valid in a fragment.
  const hash = params.toString().replaceAll('%2C', ',').replaceAll('%3B', ';').replaceAll('%2F', '/');
  window.history.replaceState(null, '', `#${hash}`);
}
