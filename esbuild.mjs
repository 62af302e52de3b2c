// Builds every bundle of the project.
//   node esbuild.mjs               extension, service and webview bundles into dist/
//   node esbuild.mjs --production  the same, minified, without source maps
//   node esbuild.mjs --tests       test files into out/test (mocha runs them from there)
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/** @type {import('esbuild').BuildOptions} */
const nodeBase = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

function walk(dir, accept) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full, accept) : accept(full) ? [full] : [];
  });
}

function productBuilds() {
  const builds = [
    { ...nodeBase, entryPoints: ['src/service/cli.ts'], outfile: 'dist/service.js' },
  ];
  if (existsSync('src/extension.ts')) {
    builds.push({ ...nodeBase, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] });
  }
  const ui = walk('src/webview-ui', (f) => /\/main\.ts$/.test(f) || /[\\/][A-Za-z-]+\.main\.ts$/.test(f));
  for (const entry of ui) {
    builds.push({
      bundle: true,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
      entryPoints: [entry],
      outfile: path.join('dist', 'webview', path.basename(entry).replace(/(\.main)?\.ts$/, '.js')),
    });
  }
  return builds;
}

function testBuilds() {
  const entries = walk('test', (f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  return [{
    ...nodeBase,
    sourcemap: true,
    minify: false,
    entryPoints: entries,
    outdir: 'out/test',
    outbase: 'test',
    packages: 'external',
    external: ['vscode'],
  }];
}

function copyAssets() {
  mkdirSync('dist', { recursive: true });
  copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');
}

// Stale test files would still run; start from an empty out/test.
if (args.has('--tests')) rmSync('out/test', { recursive: true, force: true });
const builds = args.has('--tests') ? testBuilds() : productBuilds();
if (!args.has('--tests')) copyAssets();

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching for changes…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
