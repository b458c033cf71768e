// Builds the playground page into pkg/playground/static (or the directory
// given as the first argument), where mapd compiles it in. The output is
// committed; scripts/web-check rebuilds it elsewhere and compares, so run
// `npm run build` (or scripts/web-build) after changing anything in src/.
//
//   maplibre-gl.js         MapLibre GL JS, as its package ships it, minified
//   maplibre-gl-worker.js  MapLibre's web worker
//   playground.js          the page's code (src/*.js), readable, importing ./maplibre-gl.js
//   playground.css         MapLibre's styles and the page's
//   index.html             the page
//
// MapLibre stays out of playground.js so that a change to the page changes
// a few kilobytes of the repository, not a megabyte.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, '../../pkg/playground/static'));
const maplibre = join(here, 'node_modules/maplibre-gl/dist');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const common = { absWorkingDir: here, bundle: true, logLevel: 'warning', target: 'es2022', charset: 'utf8', legalComments: 'eof' };
await esbuild.build({ ...common, entryPoints: [join(maplibre, 'maplibre-gl.mjs')], outfile: join(out, 'maplibre-gl.js'), format: 'esm', minify: true });
await esbuild.build({ ...common, entryPoints: [join(maplibre, 'maplibre-gl-worker.mjs')], outfile: join(out, 'maplibre-gl-worker.js'), format: 'esm', minify: true });
await esbuild.build({ ...common, entryPoints: [join(here, 'src/main.js')], outfile: join(out, 'playground.js'), format: 'esm', external: ['./maplibre-gl.js'] });
await esbuild.build({ ...common, entryPoints: [join(here, 'src/playground.css')], outfile: join(out, 'playground.css'), minify: true });
copyFileSync(join(here, 'src/index.html'), join(out, 'index.html'));
