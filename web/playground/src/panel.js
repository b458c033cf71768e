// The answer box every panel shows: status, request_id, credits_charged,
// data_version and the raw JSON, or the problem the server answered.

/** el makes an element with text and attributes. */
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) {
    e.textContent = String(text);
  }
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, v);
  }
  return e;
}

/** showAnswer replaces the contents of box with one answer per reply, labelled. */
export function showAnswers(box, replies) {
  box.replaceChildren(...replies.map(([label, r]) => answer(label, r)));
}

function answer(label, r) {
  const div = el('div', null, { class: r.ok ? 'answer ok' : 'answer problem', 'data-path': r.path });
  div.append(el('h3', `${label}: ${r.status} ${r.ok ? 'OK' : r.body.title ?? ''}`));
  const dl = el('dl');
  const row = (k, v, cls) => {
    dl.append(el('dt', k), el('dd', v ?? '—', { class: cls }));
  };
  if (r.ok) {
    row('request_id', r.body.request_id, 'request-id');
    row('credits_charged', r.body.credits_charged, 'credits');
    row('data_version', r.body.data_version, 'data-version');
  } else {
    row('instance', r.body.instance, 'request-id');
    row('detail', r.body.detail);
    for (const fe of r.body.errors ?? []) {
      row(fe.field, fe.message);
    }
    if (r.status === 401) {
      row('hint', 'Enter a secret key (sk_…) above.');
    }
  }
  div.append(dl);
  const details = el('details');
  details.append(el('summary', 'raw JSON'), el('pre', JSON.stringify(r.body, null, 2), { class: 'raw' }));
  div.append(details);
  return div;
}

/** busy marks a panel as waiting for an answer. */
export function busy(box, what) {
  box.replaceChildren(el('p', `${what}…`, { class: 'note' }));
}

/** formatDuration writes seconds as h:mm or m min s. */
export function formatDuration(s) {
  if (s === null || s === undefined) {
    return '—';
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.round((s % 3600) / 60);
    return `${h} h ${String(m).padStart(2, '0')}`;
  }
  if (s >= 60) {
    return `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')}`;
  }
  return `${Math.round(s)} s`;
}

/** formatDistance writes metres as m or km. */
export function formatDistance(m) {
  if (m === null || m === undefined) {
    return '—';
  }
  return m >= 1000 ? `${(m / 1000).toFixed(m >= 10000 ? 1 : 2)} km` : `${Math.round(m)} m`;
}
