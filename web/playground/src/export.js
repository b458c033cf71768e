// Downloads of an answer: GeoJSON and GPX files made in the page (a Blob
// URL clicked), so nothing is asked of the server again.

/** download offers text as a file named name. */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const xml = (s) => String(s).replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * toGPX writes a directions answer as GPX 1.1: the waypoints as <wpt>, each
 * route as a <trk> (the best first), its line as one <trkseg>.
 */
export function toGPX(answer, points) {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="mapd playground" xmlns="http://www.topografix.com/GPX/1/1">',
    `<metadata><desc>${xml(`request_id ${answer.request_id}, data_version ${answer.data_version}`)}</desc></metadata>`];
  points.forEach((p, i) => out.push(`<wpt lat="${p.lat.toFixed(6)}" lon="${p.lng.toFixed(6)}"><name>${i + 1}</name></wpt>`));
  for (const rt of answer.routes) {
    out.push(`<trk><name>${rt.id === 0 ? 'best' : `alternative ${rt.id}`}</name><trkseg>`);
    for (const [lon, lat] of JSON.parse(rt.geometry).coordinates) {
      out.push(`<trkpt lat="${lat}" lon="${lon}"/>`);
    }
    out.push('</trkseg></trk>');
  }
  out.push('</gpx>', '');
  return out.join('\n');
}
