// Calls to this server's /v1 API, and the one place the key lives.
//
// The key is a module variable: it is never written to storage, a cookie or
// a URL, and goes only into the Authorization header of requests to this
// page's own origin (the Content-Security-Policy refuses any other).

let key = '';

/** setKey keeps a key for this tab; '' forgets it. */
export function setKey(k) {
  key = k;
}

/** hasKey reports whether a key is in use. */
export function hasKey() {
  return key !== '';
}

/** keyHint names the key in use without showing it: its kind and last four characters. */
export function keyHint() {
  return key === '' ? '' : `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/**
 * post sends a compute request and returns {status, ok, body, raw, path}:
 * body is the parsed JSON (an answer, or an RFC 9457 problem).
 */
export async function post(path, request) {
  const headers = { 'Content-Type': 'application/json' };
  if (key !== '') {
    headers.Authorization = `Bearer ${key}`;
  }
  const res = await fetch(path, {
    method: 'POST',
    headers,
    body: JSON.stringify(request),
    cache: 'no-store',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  });
  const raw = await res.text();
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    body = { title: 'Not JSON', detail: raw.slice(0, 500) };
  }
  return { status: res.status, ok: res.ok, body, raw, path, request };
}

/** get fetches one of the free service documents (status, tiles.json). */
export async function get(path) {
  const res = await fetch(path, { cache: 'no-store', credentials: 'omit' });
  if (!res.ok) {
    throw new Error(`GET ${path}: ${res.status}`);
  }
  return res.json();
}
