// The playground in a real browser: Debian's Chromium, headless, driven by
// Playwright. One page load, then a route (two clicks), an isochrone (one
// click) and a small matrix (three clicks), each checked against the API's
// answer as the browser received it. Any console error, page error, failed
// request or error status fails the run.
//
//   node test/browser.mjs --url http://127.0.0.1:8080/playground/ --key sk_... --out DIR
//
// Prints one JSON line of what it checked and exits 0, or prints why and exits 1.
// cmd/mapd's TestPlaygroundInABrowser runs it against a live mapd.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
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
  const page = await browser.newPage();
  const origin = new URL(args.url).origin;
  page.on('console', (m) => {
    if (m.type() === 'error') {
      fail(`console error: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  page.on('requestfailed', (r) => fail(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) {
      fail(`${r.request().method()} ${r.url()}: ${r.status()}`);
    }
    if (!r.url().startsWith(origin) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) {
      fail(`request outside the server: ${r.url()}`);
    }
  });

  const loaded = await page.goto(args.url);
  check(loaded?.ok(), `page load: ${loaded?.status()}`);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  check(await page.getAttribute('body', 'data-ready') === 'true', 'the page did not start');
  summary.roads = await page.evaluate(() => window.playground.map.queryRenderedFeatures({ layers: ['roads-major', 'roads-middle', 'roads-minor'] }).length);
  check(summary.roads > 0, 'no road drawn from the tiles');

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
  await page.evaluate(() => window.playground.map.jumpTo({ center: [1.553, 42.521], zoom: 12.6 }));
  await page.waitForFunction(() => window.playground.map.areTilesLoaded());
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
  await page.screenshot({ path: join(args.out, 'playground-route.png') });

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

  // An isochrone: one click, the contours drawn nested.
  await page.click('#modes button[data-mode=isochrone]');
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

  // A matrix: three clicks, the heat table filled from the answer.
  await page.click('#modes button[data-mode=matrix]');
  let matrix;
  for (const p of [laVella, encamp, ordino]) {
    [matrix] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/matrix')), clickAt(p)]);
  }
  const m = await matrix.json();
  await page.waitForFunction((id) => document.body.dataset.matrix === id, m.request_id);
  const cells = await page.locator('#matrix-table td').evaluateAll((tds) => tds.map((td) => td.dataset.duration));
  check(JSON.stringify(cells) === JSON.stringify(m.durations.flat().map((v) => (v === null ? 'null' : String(v)))),
    'the heat table is not the answer\'s durations');
  summary.matrix = { request_id: m.request_id, cells: cells.length };
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
