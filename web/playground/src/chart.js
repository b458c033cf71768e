// The elevation profile of a route: sampled along its line through
// /v1/elevation and drawn as an SVG area chart (no chart library).
const maxSamples = 100; // one credit covers 100 points

/** metres between two [lon, lat] points (spherical; plenty for a chart). */
function distance(a, b) {
  const r = 6371008.8;
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/** along returns the cumulative distance at each point of a line. */
function along(line) {
  const out = [0];
  for (let i = 1; i < line.length; i++) {
    out.push(out[i - 1] + distance(line[i - 1], line[i]));
  }
  return out;
}

/** samplePoints returns up to maxSamples points evenly spaced along line, ends included. */
export function samplePoints(line) {
  const cum = along(line);
  const total = cum[cum.length - 1];
  const n = Math.min(maxSamples, Math.max(2, line.length));
  const out = [];
  let j = 0;
  for (let i = 0; i < n; i++) {
    const d = (total * i) / (n - 1);
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

/** drawProfile draws elevations (metres or null, evenly spaced along line) in svg. */
export function drawProfile(svg, line, elevations) {
  const w = 340;
  const h = 120;
  const pad = { l: 36, r: 6, t: 6, b: 18 };
  const total = along(line).at(-1);
  const known = elevations.filter((v) => v !== null);
  svg.replaceChildren();
  if (known.length === 0) {
    svg.append(svgEl('text', { x: 10, y: 60 }, 'no elevation coverage here'));
    return;
  }
  const lo = Math.floor(Math.min(...known) / 50) * 50;
  const hi = Math.max(lo + 50, Math.ceil(Math.max(...known) / 50) * 50);
  const x = (i) => pad.l + ((w - pad.l - pad.r) * i) / (elevations.length - 1);
  const y = (v) => h - pad.b - ((h - pad.t - pad.b) * (v - lo)) / (hi - lo);
  let d = '';
  elevations.forEach((v, i) => {
    if (v !== null) {
      d += `${d === '' || elevations[i - 1] === null ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    }
  });
  svg.append(
    svgEl('path', { d, class: 'profile' }),
    svgEl('line', { x1: pad.l, y1: h - pad.b, x2: w - pad.r, y2: h - pad.b, class: 'axis' }),
    svgEl('text', { x: 2, y: y(hi) + 4 }, `${hi} m`),
    svgEl('text', { x: 2, y: y(lo) }, `${lo} m`),
    svgEl('text', { x: w - pad.r, y: h - 4, 'text-anchor': 'end' }, `${(total / 1000).toFixed(1)} km`),
  );
  svg.dataset.points = String(elevations.length);
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, String(v));
  }
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}
