// Builds every bundle of the project.
//   node esbuild.mjs               extension, service and webview bundles into dist/
//   node esbuild.mjs --production  the same, minified, without source maps
//   node esbuild.mjs --tests       test files into out/test (mocha runs them from there)
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/** @type {import('esbuild').BuildOptions} */
const nodeBase = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

function walk(dir, accept) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name !== 'node_modules')
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full, accept) : accept(full) ? [full] : [];
    });
}

const SRC = path.resolve('src');
/** The entry of dist/lazy.js, which src/lazy/load.ts requires on first use (see src/lazy/bundle.ts). */
const LAZY = path.join(SRC, 'lazy', 'bundle');
/** The tokenizer, required by the chat's token counts on first use (src/chat/tokenCount.ts): dist/tokenizer.js. */
const TOKENIZER = path.join(SRC, 'service', 'tokenizer');
const rel = (file) => path.relative(SRC, file).replace(/\\/g, '/');
/** The modules dist/lazy.js takes from dist/extension.js (the keys of the table in src/owned.ts). */
const OWNED = new Set([...readFileSync('src/owned.ts', 'utf8').matchAll(/^\s+'([\w/]+)': \w+,$/gm)].map((m) => m[1]));

/**
 * Which bundle a module of src/webviews belongs to is its folder's: the top level (webviewPanels.ts,
 * the view types, the Space URIs) is activation's, each feature folder and panels/ are dist/lazy.js's,
 * and every page/ folder is the browser's (dist/webview/).
 */
const webviewsFolder = (file) => /^webviews\/([^/]+)\//.exec(rel(file))?.[1];
/** What activation must not load: it lives in dist/lazy.js (see src/lazy/bundle.ts). */
const heavyAtActivation = (file) =>
  /[\\/]node_modules[\\/](zod|undici|eventsource-parser)[\\/]/.test(file) ||
  /^(api\/(door|presets|schemas|client|transport)|shared\/protocol\/.*)\.ts$/.test(rel(file)) ||
  webviewsFolder(file) !== undefined;
/**
 * What the lazy bundle may hold: no module with state of the activation side (a second copy would split
 * it); the stateless names of the top level of src/webviews (view types, Space URIs) may be in both.
 */
const allowedLazy = (file) =>
  !file.startsWith(SRC) ||
  /^(lazy\/bundle|api\/.*|shared\/.*|webviews\/(viewTypes|spaceUris))\.ts$/.test(rel(file)) ||
  (webviewsFolder(file) ?? 'page') !== 'page';

/**
 * The extension is two bundles: extension.js (activation) and lazy.js (required on first use). lazy.js
 * takes the modules of src/owned.ts from the running extension.js instead of a copy, so their classes
 * and state are one. The plugin points those imports at the bundles and refuses a module in the wrong one.
 */
function splitPlugin(bundle) {
  return {
    name: `split-${bundle}`,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.namespace === 'owned') return { path: './extension.js', external: true };
        const target = path.resolve(args.resolveDir, args.path).replace(/\.[jt]s$/, '');
        if (bundle === 'extension' && target === LAZY) return { path: './lazy.js', external: true };
        if (bundle === 'lazy' && OWNED.has(rel(target))) return { path: rel(target), namespace: 'owned' };
        if (target === TOKENIZER) return { path: './tokenizer.js', external: true };
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'owned' }, (args) => ({
        contents: `module.exports = require('./extension.js').owned[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const wrong = bundle === 'extension' ? heavyAtActivation(args.path) : !allowedLazy(args.path);
        if (wrong)
          throw new Error(
            `${path.relative('.', args.path)} must not be in dist/${bundle}.js: reach it through src/lazy/, or keep it free of activation-side state.`,
          );
        return undefined;
      });
    },
  };
}

function productBuilds() {
  const builds = [
    { ...nodeBase, entryPoints: ['src/service/main.ts'], outfile: 'dist/service.js' },
    // The request log's writer thread, started by the service beside it (src/service/ledgerThread.ts).
    { ...nodeBase, entryPoints: ['src/service/ledgerWorker.ts'], outfile: 'dist/ledgerWorker.js' },
    // The PDF reader's thread, started on the first PDF (src/service/chat/pdfReading.ts).
    { ...nodeBase, entryPoints: ['src/service/pdfWorker.ts'], outfile: 'dist/pdfWorker.js' },
  ];
  if (existsSync('src/extension.ts')) {
    builds.push(
      {
        ...nodeBase,
        entryPoints: ['src/extension.ts'],
        outfile: 'dist/extension.js',
        external: ['vscode'],
        plugins: [splitPlugin('extension')],
      },
      {
        ...nodeBase,
        entryPoints: ['src/lazy/bundle.ts'],
        outfile: 'dist/lazy.js',
        external: ['vscode'],
        plugins: [splitPlugin('lazy')],
      },
      { ...nodeBase, entryPoints: ['src/service/tokenizer.ts'], outfile: 'dist/tokenizer.js' },
      { ...nodeBase, entryPoints: ['src/mcp/server.ts'], outfile: 'dist/mcp.js' },
    );
  }
  // The webviews are ES modules built together: what they share, and what a page loads only when it
  // needs it (the playground's markdown renderer, each highlighting language), are chunks beside them.
  const ui = walk('src/webviews', (f) => /[\\/]page[\\/][A-Za-z-]+\.main\.ts$/.test(f));
  builds.push({
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    splitting: true,
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: Object.fromEntries(ui.map((entry) => [path.basename(entry).replace(/\.main\.ts$/, ''), entry])),
    outdir: path.join('dist', 'webview'),
    chunkNames: 'chunks/[name]-[hash]',
    // What the browser already has, instead of the packages' own tables (see src/webviews/page/shims).
    alias: {
      entities: './src/webviews/page/shims/entities.ts',
      'punycode.js': './src/webviews/page/shims/punycode.ts',
    },
  });
  return builds;
}

function testBuilds() {
  const entries = walk('test', (f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  return [
    {
      ...nodeBase,
      sourcemap: true,
      minify: false,
      entryPoints: entries,
      outdir: 'out/test',
      outbase: 'test',
      packages: 'external',
      external: ['vscode'],
    },
  ];
}

function copyAssets() {
  // A production build starts from an empty dist/, so no source map of a development build is packaged.
  if (production) rmSync('dist', { recursive: true, force: true });
  // Webview chunks are named by their hash; old ones would pile up.
  rmSync(path.join('dist', 'webview'), { recursive: true, force: true });
  mkdirSync('dist', { recursive: true });
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
