// The playground in a real browser: Debian's Chromium, headless, driven by
// Playwright. One page load: the place names and the search box, then a
// route (two clicks; fit, exports, caveat, the permalink, a dragged
// waypoint, tolls excluded and an area drawn and avoided), an isochrone (one click; the route's layers hidden) and a
// small matrix (clicks, then one Compute), each checked against the API's
// answer as the browser received it; then the permalink opened in a new
// page, and the page at 390 px wide. Any console error, page error, failed
// request or error status fails the run.
//
//   node test/browser.mjs --url http://127.0.0.1:8080/playground/ --key sk_... --out DIR
//
// Prints one JSON line of what it checked and exits 0, or prints why and exits 1.
// cmd/mapd's TestPlaygroundInABrowser runs it against a live mapd.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
    roadops: { type: 'string' }, // the id of a road operation in force, drawn as a layer
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
if (!args.url || !args.key || !args.out) {
  console.error('usage: browser.mjs --url URL --key sk_... --out DIR [--chromium PATH]');
  process.exit(2);
}

// The places clicked, well inside Andorra: Andorra la Vella to Encamp for
// the route, Escaldes for the isochrone and three towns for the matrix.
const laVella = [1.5218, 42.5063];
const encamp = [1.5800, 42.5345];
const escaldes = [1.5345, 42.5100];
const ordino = [1.5330, 42.5560];

const failures = [];
const fail = (what) => failures.push(what);

function check(cond, what) {
  if (!cond) {
    throw new Error(what);
  }
}

// Chromium on a closed network, in a new empty profile: no first-run,
// sync, component updates or other background connections, which would be
// refused and logged.
const profileDir = mkdtempSync(join(tmpdir(), 'playground-chromium-'));
const browser = await chromium.launchPersistentContext(profileDir, {
  executablePath: args.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 900 },
  deviceScaleFactor: 1,
});
const summary = {};
try {
  const origin = new URL(args.url).origin;
  const watch = (p) => {
    p.on('console', (m) => {
      if (m.type() === 'error') {
        fail(`console error: ${m.text()}`);
      }
    });
    p.on('pageerror', (e) => fail(`page error: ${e.message}`));
    p.on('requestfailed', (r) => {
      // MapLibre cancels the tiles of a view it leaves before they arrive
      // (a jump to a permalink's points, a fly to a search result): the
      // browser aborted them, the server did not fail them.
      if (r.failure()?.errorText === 'net::ERR_ABORTED' && new URL(r.url()).pathname.startsWith('/tiles/')) {
        return;
      }
      fail(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    p.on('response', (r) => {
      if (r.status() >= 400) {
        fail(`${r.request().method()} ${r.url()}: ${r.status()}`);
      }
      if (!r.url().startsWith(origin) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) {
        fail(`request outside the server: ${r.url()}`);
      }
    });
    return p;
  };
  const page = watch(await browser.newPage());

  const loaded = await page.goto(args.url);
  check(loaded?.ok(), `page load: ${loaded?.status()}`);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  check(await page.getAttribute('body', 'data-ready') === 'true', 'the page did not start');
  // settle waits for the map to stop and draw its tiles: moving it earlier
  // cancels the tile requests in flight, which would count as failures.
  const settle = (p = page) => p.waitForFunction(() => window.playground.map.areTilesLoaded() && !window.playground.map.isMoving());
  await settle();
  summary.roads = await page.evaluate(() => window.playground.map.queryRenderedFeatures({ layers: ['roads-major', 'roads-middle', 'roads-minor'] }).length);
  check(summary.roads > 0, 'no road drawn from the tiles');

  // Place names on the map, from the release's own place index.
  const labels = await page.locator('.place-label').allTextContents();
  check(labels.includes('Andorra la Vella') && labels.includes('Encamp'), `the map names ${JSON.stringify(labels.slice(0, 8))}…`);
  summary.labels = labels.length;

  // The road operation in force, drawn where it was placed, named on hover.
  if (args.roadops) {
    await page.waitForFunction(() => document.getElementById('map').dataset.roadops === '1');
    const layer = await page.evaluate(async () => (await window.playground.map.getSource('roadops').getData()).features);
    check(layer.length === 1 && layer[0].properties.id === args.roadops && layer[0].properties.kind === 'closure',
      `the operations layer holds ${JSON.stringify(layer.map((f) => f.properties))}`);
    check((await page.textContent('#roadops-state')) === '1 in force (1 closed)', 'the operations are not counted');
    const mid = layer[0].geometry.coordinates[0][Math.floor(layer[0].geometry.coordinates[0].length / 2)];
    await settle();
    await page.evaluate((c) => window.playground.map.jumpTo({ center: c, zoom: 14 }), mid);
    await settle();
    await page.waitForTimeout(200);
    const drawn = await page.evaluate(() => window.playground.map.queryRenderedFeatures({ layers: ['roadops-closure'] }).length);
    check(drawn > 0, 'the closure is not rendered');
    const box = await page.locator('#map canvas').boundingBox();
    const px = await page.evaluate((c) => window.playground.map.project(c), mid);
    await page.mouse.move(box.x + px.x, box.y + px.y);
    await page.waitForFunction(() => document.getElementById('road').textContent.startsWith('Closed: accident in the tunnel'));
    summary.roadops = { id: args.roadops, segments: layer[0].geometry.coordinates.length };
  }

  // The search box, free and keyless: a typo finds Encamp, choosing it flies there.
  const [found] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/places/search?q=Encmp')),
    page.fill('#search', 'Encmp'),
  ]);
  const results = (await found.json()).results;
  check(found.status() === 200 && results[0]?.name === 'Encamp' && found.request().headers().authorization === undefined,
    `searching "Encmp": ${found.status()} ${JSON.stringify(results.slice(0, 2))}`);
  await page.waitForFunction(() => document.body.dataset.search === 'encmp');
  check((await page.locator('#search-results li button.place span:first-child').first().textContent()) === 'Encamp', 'Encamp is not listed first');
  await settle();
  await page.locator('#search-results button.place').first().click();
  await page.waitForFunction(() => !window.playground.map.isMoving() && window.playground.map.getZoom() > 13.5);
  const centre = await page.evaluate(() => window.playground.map.getCenter().toArray());
  check(Math.abs(centre[0] - results[0].lon) < 1e-4 && Math.abs(centre[1] - results[0].lat) < 1e-4, `the map went to ${centre}, not Encamp`);
  summary.search = { query: 'Encmp', first: results[0] };
  await page.fill('#search', '');

  await page.fill('#key', args.key);
  await page.click('#key-form button[type=submit]');
  check(await page.inputValue('#key') === '', 'the key field still holds the key');
  check(await page.evaluate(() => localStorage.length + sessionStorage.length + document.cookie.length) === 0, 'the key left the tab');

  // clickAt clicks the map at a coordinate and returns the coordinate under the pixel clicked.
  const clickAt = async (lngLat) => {
    const box = await page.locator('#map canvas').boundingBox();
    const p = await page.evaluate((ll) => window.playground.map.project(ll), lngLat);
    const x = Math.round(p.x);
    const y = Math.round(p.y);
    await page.mouse.click(box.x + x, box.y + y);
    const at = await page.evaluate(([px, py]) => window.playground.map.unproject([px, py]).toArray(), [x, y]);
    return at;
  };
  const near = (a, b) => Math.abs(a[0] - b[0]) < 1e-5 && Math.abs(a[1] - b[1]) < 1e-5;

  // A route: two clicks, the line drawn, the steps listed. Zoomed in
  // first, so that the screenshot shows the streets too.
  await settle();
  await page.evaluate(() => window.playground.map.jumpTo({ center: [1.553, 42.521], zoom: 12.6 }));
  await settle();
  const a = await clickAt(laVella);
  const [directions, profile] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    page.waitForResponse((r) => r.url().endsWith('/v1/elevation')),
    clickAt(encamp).then((b) => { summary.clicked = [a, b]; }),
  ]);
  const sent = directions.request().postDataJSON();
  const answer = await directions.json();
  check(directions.status() === 200, `directions: ${directions.status()}`);
  check(sent.coordinates.length === 2 && near(sent.coordinates[0], summary.clicked[0]) && near(sent.coordinates[1], summary.clicked[1]),
    `directions asked for ${JSON.stringify(sent.coordinates)}, clicked ${JSON.stringify(summary.clicked)}`);
  await page.waitForFunction((id) => document.body.dataset.route === id, answer.request_id);
  const drawn = await page.evaluate(async () => (await window.playground.map.getSource('routes').getData()).features);
  check(drawn.length === answer.routes.length, `${drawn.length} routes drawn, ${answer.routes.length} answered`);
  for (const rt of answer.routes) {
    const line = drawn.find((f) => f.properties.id === rt.id);
    check(JSON.stringify(line?.geometry.coordinates) === JSON.stringify(JSON.parse(rt.geometry).coordinates),
      `route ${rt.id}: the drawn line is not the answer's geometry`);
  }
  const rendered = await page.evaluate(() => window.playground.map.queryRenderedFeatures({ layers: ['route-best'] }).length);
  check(rendered > 0, 'the best route is not rendered');
  const steps = await page.locator('#steps li .instruction').allTextContents();
  const wantSteps = answer.routes[0].legs.flatMap((l) => l.steps.map((s) => s.instruction));
  check(wantSteps.length > 1 && JSON.stringify(steps) === JSON.stringify(wantSteps),
    `steps listed ${JSON.stringify(steps.slice(0, 3))}…, answered ${JSON.stringify(wantSteps.slice(0, 3))}…`);
  check(await page.locator('#route-answers .request-id').first().textContent() === answer.request_id, 'the panel does not show the request_id');
  check(await page.locator('#route-answers .credits').first().textContent() === String(answer.credits_charged), 'the panel does not show credits_charged');
  check(profile.status() === 200 && Number(await page.getAttribute('#chart', 'data-points')) === (await profile.json()).elevations_m.length,
    'the elevation profile is not charted');
  summary.route = { request_id: answer.request_id, routes: answer.routes.length, steps: steps.length, distance_m: answer.routes[0].summary.distance_m };
  // The climb comes from the surface model, and says so.
  check((await page.textContent('#chart-climb')).endsWith('%*') && await page.isVisible('#chart-caveat') &&
    (await page.textContent('#chart-caveat')).includes('surface model'), 'the steepest grade has no surface-model caveat');
  await page.screenshot({ path: join(args.out, 'playground-route.png') });
  const bestLine = JSON.parse(answer.routes[0].geometry).coordinates;

  // Fit: from elsewhere, the button frames the whole best route.
  await settle();
  await page.evaluate(() => window.playground.map.jumpTo({ center: [1.70, 42.60], zoom: 15 }));
  await settle();
  await page.click('#route-fit');
  await settle();
  const framed = await page.evaluate((line) => {
    const b = window.playground.map.getBounds();
    return line.every((c) => b.contains(c));
  }, bestLine);
  check(framed, 'Fit route does not frame the route');

  // Exports, made in the page: GeoJSON and GPX of the answer's lines.
  const saved = async (button) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
  };
  const gj = await saved('#route-geojson');
  const gjDoc = JSON.parse(gj.text);
  const gjLines = gjDoc.features.filter((f) => f.geometry.type === 'LineString');
  check(gj.name === 'route.geojson' && gjLines.length === answer.routes.length &&
    JSON.stringify(gjLines[0].geometry.coordinates) === JSON.stringify(bestLine) &&
    gjDoc.features.filter((f) => f.geometry.type === 'Point').length === 2, 'the GeoJSON export is not the answer');
  const gpx = await saved('#route-gpx');
  const firstTrack = gpx.text.split('</trk>')[0];
  const trkpts = [...firstTrack.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"/g)].map((m) => [Number(m[2]), Number(m[1])]);
  check(gpx.name === 'route.gpx' && gpx.text.includes('<gpx version="1.1"') && trkpts.length === bestLine.length &&
    trkpts.every((p, i) => near(p, bestLine[i])) && (gpx.text.match(/<wpt /g) ?? []).length === 2, 'the GPX export is not the answer');
  summary.exports = { geojson_features: gjDoc.features.length, gpx_points: trkpts.length };

  // The permalink holds the query, never the key.
  const link = await page.evaluate(() => window.location.href);
  const linkPts = new URLSearchParams(new URL(link).hash.slice(1)).get('pts').split(';').map((p) => p.split(',').map(Number));
  check(link.includes('mode=route') && !link.includes(args.key) && !link.includes('sk_') && linkPts.length === 2 &&
    linkPts.every((p, i) => Math.abs(p[0] - summary.clicked[i][0]) < 2e-6 && Math.abs(p[1] - summary.clicked[i][1]) < 2e-6),
  `the permalink ${link} is not the route's`);
  summary.permalink = new URL(link).hash;

  // Each maneuver is a point on the map, at the step's location.
  const maneuvers = await page.evaluate(async () => (await window.playground.map.getSource('maneuvers').getData()).features);
  const wantAt = answer.routes[0].legs.flatMap((l) => l.steps.map((s) => s.location));
  check(maneuvers.length === wantAt.length && maneuvers.every((f, i) => near(f.geometry.coordinates, wantAt[i])),
    `${maneuvers.length} maneuvers drawn, ${wantAt.length} steps answered`);
  // The steps in another language: the same route asked again in Catalan.
  const [catalan] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    page.selectOption('#route-language', 'ca'),
  ]);
  const caAnswer = await catalan.json();
  check(catalan.request().postDataJSON().language === 'ca' && caAnswer.language === 'ca', 'the language was not asked for');
  await page.waitForFunction((id) => document.body.dataset.route === id, caAnswer.request_id);
  const caSteps = await page.locator('#steps li .instruction').allTextContents();
  check(caSteps.length > 1 && caSteps[0].startsWith('Ves cap') && caSteps.at(-1).startsWith('Has arribat'),
    `Catalan steps listed ${JSON.stringify(caSteps.slice(0, 2))}…`);
  summary.route.catalan = caSteps.length;

  // Drag the second waypoint: the route is asked again from where it was dropped.
  const pin = page.locator('.pin', { hasText: /^2$/ });
  const pinBox = await pin.boundingBox();
  const [dragged] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    (async () => {
      await page.mouse.move(pinBox.x + pinBox.width / 2, pinBox.y + pinBox.height / 2);
      await page.mouse.down();
      await page.mouse.move(pinBox.x + pinBox.width / 2 - 60, pinBox.y + pinBox.height / 2 + 40, { steps: 8 });
      await page.mouse.up();
    })(),
  ]);
  const draggedTo = dragged.request().postDataJSON().coordinates;
  const pinAt = await page.evaluate(() => window.location.hash);
  check(!near(draggedTo[1], summary.clicked[1]) && near(draggedTo[0], summary.clicked[0]) && pinAt.includes(`${draggedTo[1][0].toFixed(6)},${draggedTo[1][1].toFixed(6)}`),
    `after the drag, directions asked for ${JSON.stringify(draggedTo)} (link ${pinAt})`);
  await page.waitForFunction((id) => document.body.dataset.route === id, (await dragged.json()).request_id);
  summary.dragged = draggedTo[1];

  // Avoid: tolls excluded, then a rectangle drawn across the middle of the
  // route: each asks the route again with exclude and avoid_areas, the
  // rectangle is drawn and the new route stays out of it; clearing both asks
  // without them.
  const routed = () => page.waitForResponse((r) => r.url().endsWith('/v1/directions'));
  await page.click('#avoid summary');
  const [tolls] = await Promise.all([routed(), page.check('#avoid input[value=toll]')]);
  check(tolls.status() === 200 && JSON.stringify(tolls.request().postDataJSON().exclude) === '["toll"]',
    `excluding tolls: ${tolls.status()} ${JSON.stringify(tolls.request().postDataJSON().exclude)}`);
  await page.waitForFunction((id) => document.body.dataset.route === id, (await tolls.json()).request_id);
  const line = JSON.parse((await tolls.json()).routes[0].geometry).coordinates;
  const mid = line[Math.floor(line.length / 2)];
  const box = [mid[0] - 0.002, mid[1] - 0.0015, mid[0] + 0.002, mid[1] + 0.0015];
  await page.click('#avoid-draw');
  await clickAt([box[0], box[1]]);
  const [around] = await Promise.all([routed(), clickAt([box[2], box[3]])]);
  const aroundSent = around.request().postDataJSON();
  check(around.status() === 200 && aroundSent.avoid_areas?.type === 'MultiPolygon' && aroundSent.avoid_areas.coordinates.length === 1 &&
    JSON.stringify(aroundSent.exclude) === '["toll"]', `avoiding the rectangle: ${around.status()} ${JSON.stringify(aroundSent)}`);
  const ring = aroundSent.avoid_areas.coordinates[0][0];
  const [w, s, e, n] = [ring[0][0], ring[0][1], ring[2][0], ring[2][1]];
  const aroundLine = JSON.parse((await around.json()).routes[0].geometry).coordinates;
  check(!aroundLine.some(([x, y]) => x > w && x < e && y > s && y < n), 'the route avoiding the rectangle enters it');
  check((await page.evaluate(async () => (await window.playground.map.getSource('avoid-areas').getData()).features.length)) === 1,
    'the avoided rectangle is not drawn');
  await page.waitForFunction((id) => document.body.dataset.route === id, (await around.json()).request_id);
  const [cleared] = await Promise.all([routed(), page.click('#avoid-clear')]);
  check(cleared.request().postDataJSON().avoid_areas === undefined, 'Clear areas still sends avoid_areas');
  await page.waitForFunction((id) => document.body.dataset.route === id, (await cleared.json()).request_id);
  const [plain] = await Promise.all([routed(), page.uncheck('#avoid input[value=toll]')]);
  check(plain.request().postDataJSON().exclude === undefined, 'unchecking toll still sends exclude');
  await page.waitForFunction((id) => document.body.dataset.route === id, (await plain.json()).request_id);
  summary.avoid = { excluded: tolls.status(), avoided: around.status() };

  // An isochrone: one click, the contours drawn nested, on a map without the route.
  await page.click('#modes button[data-mode=isochrone]');
  const routeLeft = await page.evaluate(() => ({
    drawn: window.playground.map.queryRenderedFeatures({ layers: ['route-best', 'route-alternatives', 'route-maneuvers'] }).length,
    pins: [...document.querySelectorAll('.pin')].filter((p) => !p.hidden).length,
  }));
  check(routeLeft.drawn === 0 && routeLeft.pins === 0, `the route stays on the isochrone's map: ${JSON.stringify(routeLeft)}`);
  const [iso] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/isochrone')), clickAt(escaldes)]);
  const isoAnswer = await iso.json();
  check(iso.status() === 200, `isochrone: ${iso.status()}`);
  await page.waitForFunction((id) => document.body.dataset.isochrone === id, isoAnswer.request_id);
  const contours = await page.evaluate(async () => (await window.playground.map.getSource('isochrone').getData()).features);
  const answered = isoAnswer.features.features;
  check(contours.length === answered.length && answered.length === iso.request().postDataJSON().contours.length,
    `${contours.length} contours drawn, ${answered.length} answered`);
  for (const f of answered) {
    const c = contours.find((d) => d.properties.contour === f.properties.contour);
    check(JSON.stringify(c?.geometry) === JSON.stringify(f.geometry), `contour ${f.properties.contour}: the drawn polygon is not the answer's`);
  }
  check(contours.every((c, i) => i === 0 || c.properties.contour < contours[i - 1].properties.contour), 'contours are not drawn largest first');
  summary.isochrone = { request_id: isoAnswer.request_id, contours: answered.map((f) => f.properties.contour) };
  await page.waitForTimeout(300); // let the fill fade in for the screenshot
  await page.screenshot({ path: join(args.out, 'playground-isochrone.png') });

  // A matrix: six clicks ask nothing; Compute asks once, and cannot ask
  // again for the same points; the heat table is the answer's.
  await page.click('#modes button[data-mode=matrix]');
  let matrixAsked = 0;
  page.on('request', (r) => { matrixAsked += r.url().endsWith('/v1/matrix') ? 1 : 0; });
  await settle();
  await page.evaluate(() => window.playground.map.jumpTo({ center: [1.553, 42.521], zoom: 11.5 }));
  await settle();
  for (const p of [laVella, encamp, ordino, escaldes, [1.5450, 42.5450], [1.5600, 42.5200]]) {
    await clickAt(p);
  }
  check(matrixAsked === 0 && await page.textContent('#matrix-compute') === 'Compute 6×6 (4 credits)', `clicks asked ${matrixAsked} matrices`);
  const [matrix] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/matrix')), page.click('#matrix-compute')]);
  const m = await matrix.json();
  await page.waitForFunction((id) => document.body.dataset.matrix === id, m.request_id);
  const cells = await page.locator('#matrix-table td').evaluateAll((tds) => tds.map((td) => td.dataset.duration));
  check(JSON.stringify(cells) === JSON.stringify(m.durations.flat().map((v) => (v === null ? 'null' : String(v)))),
    'the heat table is not the answer\'s durations');
  check(m.credits_charged === 4, `the button said 4 credits, the answer charged ${m.credits_charged}`);
  check(matrixAsked === 1 && await page.isDisabled('#matrix-compute'), 'Compute stays enabled for the table just computed');
  const fits = await page.evaluate(() => {
    const side = document.getElementById('side');
    const heights = [...document.querySelectorAll('#matrix-table td')].map((td) => td.offsetHeight);
    return side.scrollWidth <= side.clientWidth && Math.max(...heights) === Math.min(...heights);
  });
  check(fits, 'the heat table of 6 points wraps or overflows the panel');
  summary.matrix = { request_id: m.request_id, cells: cells.length };

  // Match: the route's GPX read back as a trace (not matched: 4 credits),
  // then ten fixes clicked along Avinguda de Joan Martí (docs/matching.md)
  // and matched once on the button.
  await page.click('#modes button[data-mode=match]');
  check(await page.evaluate(() => [...document.querySelectorAll('.pin')].every((p) => p.hidden)), 'the matrix pins stay on the match map');
  await settle();
  await page.setInputFiles('#match-file', { name: 'route.gpx', mimeType: 'application/gpx+xml', buffer: Buffer.from(gpx.text) });
  await page.waitForFunction(() => document.getElementById('match-compute').textContent.includes('fixes'));
  await page.waitForTimeout(100); // the map starts framing the trace
  await settle();
  const gpxFixes = await page.evaluate(async () => (await window.playground.map.getSource('match-trace').getData()).features.filter((f) => f.geometry.type === 'Point').length);
  check(gpxFixes === trkpts.length && await page.textContent('#match-compute') === `Match ${trkpts.length} fixes (${Math.ceil(trkpts.length / 100)} credits)`,
    `the GPX loaded ${gpxFixes} fixes of ${trkpts.length}`);
  await page.click('#match-clear');
  const trace = [[1.58075, 42.53482], [1.58072, 42.53434], [1.57981, 42.53342], [1.5785, 42.533], [1.57678, 42.53286],
    [1.57533, 42.53254], [1.57386, 42.53199], [1.57282, 42.53109], [1.57206, 42.52998], [1.5711, 42.52916]];
  await page.evaluate(() => window.playground.map.jumpTo({ center: [1.5759, 42.532], zoom: 15 }));
  await settle();
  const fixed = [];
  for (const p of trace) {
    fixed.push(await clickAt(p));
  }
  check(matrixAsked === 1, 'a click in match mode asked for a matrix');
  const [matched] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/match')), page.click('#match-compute')]);
  const mAnswer = await matched.json();
  const mSent = matched.request().postDataJSON().coordinates;
  check(matched.status() === 200 && mSent.length === 10 && mSent.every((c, i) => Math.abs(c[0] - fixed[i][0]) < 1e-6 && Math.abs(c[1] - fixed[i][1]) < 1e-6),
    `match: ${matched.status()}, sent ${JSON.stringify(mSent)}`);
  await page.waitForFunction((id) => document.body.dataset.match === id, mAnswer.request_id);
  const result = await page.evaluate(async () => (await window.playground.map.getSource('match-result').getData()).features);
  const lines = result.filter((f) => f.properties.part === 'matching');
  check(lines.length === mAnswer.matchings.length && lines.every((f, i) => JSON.stringify(f.geometry) === JSON.stringify(JSON.parse(mAnswer.matchings[i].geometry))),
    'the drawn matchings are not the answer\'s');
  check(result.filter((f) => f.properties.part === 'snap').length === mAnswer.tracepoints.filter((tp) => tp !== null).length, 'a placed fix is not joined to its road');
  check(await page.evaluate(() => window.playground.map.queryRenderedFeatures({ layers: ['match-route'] }).length) > 0, 'the matching is not rendered');
  check(await page.isDisabled('#match-compute'), 'Match stays enabled for the trace just matched');
  summary.match = { request_id: mAnswer.request_id, matchings: mAnswer.matchings.length, distance_m: mAnswer.matchings[0].summary.distance_m };
  await page.screenshot({ path: join(args.out, 'playground-match.png') });
  await settle();
  await page.close();

  // The permalink in a new page: the route's waypoints and choices are back,
  // and routed as soon as a key is entered.
  const again = watch(await browser.newPage());
  await again.goto(link);
  await again.waitForSelector('body[data-ready]', { timeout: 30000 });
  check(await again.locator('.pin').count() === 2 && await again.inputValue('#route-language') === 'en', 'the permalink did not restore the waypoints');
  await again.fill('#key', args.key);
  const [restored] = await Promise.all([
    again.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    again.click('#key-form button[type=submit]'),
  ]);
  const restoredPts = restored.request().postDataJSON().coordinates;
  check(restoredPts.length === 2 && restoredPts.every((p, i) => Math.abs(p[0] - linkPts[i][0]) < 1e-9 && Math.abs(p[1] - linkPts[i][1]) < 1e-9),
    `the permalink routed ${JSON.stringify(restoredPts)}, linked ${JSON.stringify(linkPts)}`);
  await again.waitForFunction((id) => document.body.dataset.route === id, (await restored.json()).request_id);
  await settle(again);
  await again.close();

  // The truck's height (docs/vehicle.md), offered for the truck only and
  // sent as its vehicle. (The routes are the same here: the road operation
  // above closes the Envalira tunnel, which a 4.4 m truck is refused too;
  // pkg/api's TestVehicleOverHTTP checks the routing.)
  const truck = watch(await browser.newPage());
  await truck.goto(`${args.url}#mode=route&profile=truck&pts=1.686162,42.552528;1.733594,42.543642`);
  await truck.waitForSelector('body[data-ready]', { timeout: 30000 });
  check(await truck.isVisible('#route-height'), 'the height is not offered for the truck');
  await truck.fill('#key', args.key);
  const [low] = await Promise.all([
    truck.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    truck.click('#key-form button[type=submit]'),
  ]);
  await truck.fill('#route-height', '4.4');
  const [high] = await Promise.all([
    truck.waitForResponse((r) => r.url().endsWith('/v1/directions')),
    truck.locator('#route-height').dispatchEvent('change'),
  ]);
  const lowM = (await low.json()).routes[0].summary.distance_m;
  const highM = (await high.json()).routes[0].summary.distance_m;
  check(low.request().postDataJSON().vehicle === undefined && high.request().postDataJSON().vehicle?.height_m === 4.4 &&
    high.ok() && highM >= lowM, `the truck: ${lowM} m without a height, ${highM} m at 4.4 m`);
  await truck.selectOption('#route-profile', 'car');
  check(!(await truck.isVisible('#route-height')), 'the height is offered for the car');
  summary.truck = { without_m: lowM, high_m: highM };
  await settle(truck);
  await truck.close();

  // A phone, 390 px wide: nothing wider than the screen, the map on top
  // and tall enough to use, the panel below it.
  const phone = watch(await browser.newPage());
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(link);
  await phone.waitForSelector('body[data-ready]', { timeout: 30000 });
  await settle(phone);
  const layout = await phone.evaluate(() => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return { width: document.documentElement.scrollWidth, map: r('map'), side: r('side'), tabs: r('modes'), search: r('search') };
  });
  check(layout.width <= 390 && layout.map.width === 390 && layout.map.height >= 300 && layout.side.top >= layout.map.bottom - 1 &&
    layout.tabs.right <= 390 && layout.search.right <= 390, `at 390 px: ${JSON.stringify(layout)}`);
  await phone.screenshot({ path: join(args.out, 'playground-phone.png') });
  summary.phone = { map_height: Math.round(layout.map.height), page_width: layout.width };
} catch (err) {
  fail(err.message);
} finally {
  await browser.close();
  rmSync(profileDir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(JSON.stringify(summary));
