#!/usr/bin/env node
/**
 * `npm run build`: bundles what users run, with esbuild, into dist/ (git-ignored):
 *  - dist/k2s-dns.mjs          the CLI (bin/k2s-dns.mjs runs it); the web server and the
 *                              Electron main process share its chunks (dist/chunk-*.mjs), so
 *                              lazy imports (`zones`, `doctor`, `ui`, @kubernetes/client-node)
 *                              stay lazy;
 *  - dist/app-entry.mjs        the Electron main process (package.json "main");
 *  - dist/k2s-dns-helper.mjs   the privileged helper: ONE self-contained file, no chunks and no
 *                              node_modules, so it runs from a fixed root-owned path
 *                              (/usr/lib/k2s-dns, scripts/package/layout.ts);
 *  - dist/k2s-dns-capture-rows.cjs  the exact query log's packet parser (one CommonJS file, run
 *                              as an unprivileged user by electron/core/capture/capture-main.ts);
 *  - dist/k2s-dns-capture-watch.cjs  the exact query log's companion alone (one CommonJS file,
 *                              run as root by `start`: electron/core/capture/capture-program.ts);
 *  - dist/k2s-dns-snapshot.cjs  the script of the CLI's V8 startup snapshot, which the packages
 *                              build at install (electron/cli/snapshot-entry.ts);
 *  - dist/k2s-dns-run.cjs      what dist/k2s-dns.mjs runs first (help, version, and every command
 *                              of the CLI script dist/k2s-dns-cli.cjs), one small CommonJS file
 *                              (electron/cli/run-entry.ts says why);
 *  - dist/vendor-client-node.cjs  the parts of @kubernetes/client-node kube-client.ts uses, as
 *                              ONE CommonJS script that the bundle loads with a V8 code cache
 *                              (electron/core/compile-cache/): compiling it was most of the
 *                              time `start` spent loading it, and Node 20 caches no ES module;
 * each with a source map next to it (stack traces name the .ts lines when Node runs with
 * --enable-source-maps / process.setSourceMapsEnabled(true), as bin/ and the launcher do).
 * Then the renderer (vite build → out/renderer) and the Electron preload (out/preload).
 * Flags: `--bundles-only` (skip vite), `--outdir DIR` (default dist/; tests build into a temp dir).
 */
import { build, transform } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { BUNDLED_PACKAGES_FILE, packageDirs } from './bundled-packages.mjs';
import { tldtsTablesPlugin } from './tldts-tables.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * CommonJS dependencies bundled into ESM still call require()/__dirname: give them Node's own
 * (esbuild docs, "format: esm" + banner; the names are unlikely to clash with bundled code).
 */
const BANNER = [
  "import { createRequire as __k2sCreateRequire } from 'node:module';",
  "import { fileURLToPath as __k2sFileURLToPath } from 'node:url';",
  "import { dirname as __k2sDirname } from 'node:path';",
  'const require = __k2sCreateRequire(import.meta.url);',
  'const __filename = __k2sFileURLToPath(import.meta.url);',
  'const __dirname = __k2sDirname(__filename);',
].join('\n');

/** Options every bundle shares: Node 20 ESM, source maps with the .ts sources' paths. */
const COMMON = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  banner: { js: BANNER },
  logLevel: 'warning',
  metafile: true,
  // electron: provided by the Electron runtime. vite: only the preload builder's first-run
  // fallback imports it (electron/main/preload-build.ts); npm run build builds the preload itself.
  external: ['electron', 'vite'],
  // tldts's Public Suffix List tables computed here, not at every load (scripts/tldts-tables.mjs);
  // client-node's config.js without its generated index (clientNodeGenPlugin), node-fetch without
  // the whatwg-url it never uses on Node (nodeFetchUrlPlugin).
  plugins: [tldtsTablesPlugin(), clientNodeGenPlugin(), nodeFetchUrlPlugin()],
};

/**
 * @kubernetes/client-node's dist/config.js imports two names from its generated index
 * (`./gen/index.js`, which loads every generated API and model class): resolved to
 * electron/core/cluster/client-node-gen.ts, which imports them from their own modules (its doc
 * comment says why). Any other import of that index is left as it is.
 */
function clientNodeGenPlugin() {
  const shim = join(ROOT, 'electron/core/cluster/client-node-gen.ts');
  return {
    name: 'client-node-gen',
    setup(b) {
      b.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) => (/[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]config\.js$/.test(args.importer) ? { path: shim } : undefined));
    },
  };
}

/**
 * node-fetch 2's `require('whatwg-url')` resolved to electron/core/cluster/whatwg-url-node.ts
 * (Node's own URL; its doc comment says why node-fetch never used the package on Node). Other
 * importers of whatwg-url are left as they are.
 */
function nodeFetchUrlPlugin() {
  const shim = join(ROOT, 'electron/core/cluster/whatwg-url-node.ts');
  return {
    name: 'node-fetch-url',
    setup(b) {
      b.onResolve({ filter: /^whatwg-url$/ }, (args) => (/[\\/]node_modules[\\/]node-fetch[\\/]lib[\\/]/.test(args.importer) ? { path: shim } : undefined));
    },
  };
}

/** A vendor script: the module of ours that re-exports a package's parts, and the script's file name. */
const CLIENT_NODE = { module: 'electron/core/cluster/client-node-parts.ts', file: 'vendor-client-node.cjs' };

/**
 * Builds `v.module` alone into `outdir/v.file`: CommonJS (a vm.Script can carry a V8 code
 * cache; an ES module cannot on Node 20), minified whitespace and syntax (not names: stack
 * frames keep the library's function names), no source map (frames inside the library name
 * the script). Resolves to the names it exports (read by loading it here once).
 */
async function buildVendorScript(outdir, v) {
  const outfile = join(outdir, v.file);
  await build({ ...COMMON, banner: undefined, sourcemap: false, format: 'cjs', entryPoints: [v.module], outfile, minifyWhitespace: true, minifySyntax: true, charset: 'ascii', metafile: false });
  return { names: Object.keys(createRequire(import.meta.url)(outfile)).sort() };
}

/**
 * In the app bundle, `v.module` becomes a module that loads `v.file` through the code cache
 * (electron/core/compile-cache/vendor.ts) and re-exports `names`: kube-client.ts imports it
 * as it is, and the helper bundle (no plugin) keeps the library inline.
 */
function vendorScriptPlugin(v, names) {
  const target = join(ROOT, v.module);
  const loader = JSON.stringify(join(ROOT, 'electron/core/compile-cache/vendor.ts'));
  return {
    name: 'k2s-vendor-script',
    setup(b) {
      b.onResolve({ filter: /client-node-parts(\.ts)?$/ }, (args) => (resolve(args.resolveDir, args.path.replace(/\.ts$/, '')) + '.ts' === target ? { path: v.file, namespace: 'k2s-vendor' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'k2s-vendor' }, () => ({
        resolveDir: ROOT,
        loader: 'js',
        contents: [`import { loadVendorScript } from ${loader};`, `const m = loadVendorScript(${JSON.stringify(v.file)}, import.meta.url);`, ...names.map((n) => `export const ${n} = m.${n};`)].join('\n'),
      }));
    },
  };
}

/** Builds the helper's one file into `outdir`; resolves to esbuild's metafile. */
export async function buildHelper(outdir = join(ROOT, 'dist')) {
  return (await build({ ...COMMON, entryPoints: ['electron/helper/entry.ts'], outfile: join(outdir, 'k2s-dns-helper.mjs') })).metafile;
}

/**
 * Slims the chunks that are third-party code (≥ 90 % of their bytes, and at most 1 KiB of our own
 * modules: a chunk with more of ours, e.g. kube-client.ts beside js-yaml, keeps its map so a stack
 * through it still names our .ts lines), e.g. the @kubernetes/client-node chunk (~4 MB), which
 * `start` and the cluster views load:
 *  - drops their source map: with source maps on, Node parses each loaded chunk's map and
 *    measures every line of the chunk (source_map_cache lineLengths: ~165 ms of a 2.3 s `start`
 *    on the busy 2-core test bed, CPU profile). Stack frames in our own .ts stay mapped; frames
 *    inside those libraries name the chunk;
 *  - minifies their whitespace and syntax (not their names: stack frames keep the libraries'
 *    function names): about half the bytes Node reads, decodes and V8 scans on every load.
 * The helper keeps its one map (it is one file).
 */
async function slimVendorChunks(metafile) {
  for (const [file, o] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.mjs') || !o.bytes) continue;
    const vendor = Object.entries(o.inputs).reduce((n, [input, v]) => n + (input.includes('node_modules/') ? v.bytesInOutput : 0), 0);
    const ours = Object.entries(o.inputs).reduce((n, [input, v]) => n + (input.includes('node_modules/') || input.includes(':') ? 0 : v.bytesInOutput), 0);
    if (vendor / o.bytes < 0.9 || ours > 1024) continue;
    const path = join(ROOT, file);
    const text = (await readFile(path, 'utf8')).replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n');
    const slim = await transform(text, { format: 'esm', target: 'node20', minifyWhitespace: true, minifySyntax: true, legalComments: 'none', charset: 'ascii' });
    await writeFile(path, slim.code);
    await rm(`${path}.map`, { force: true });
  }
}

/**
 * A CommonJS bundle whose import.meta.url is its own file's URL (esbuild leaves import.meta empty
 * in CommonJS): the CLI script, its runner and the capture companion find files next to themselves.
 */
const CJS_OWN_URL = {
  format: 'cjs',
  define: { 'import.meta.url': '__k2sImportMetaUrl' },
  banner: { js: "var __k2sImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * Builds the CLI as ONE CommonJS script, `outdir`/k2s-dns-cli.cjs (electron/cli/cli-script.ts),
 * which dist/k2s-dns.mjs runs with a V8 code cache for every verb but the window's
 * (electron/core/compile-cache/cli-script.ts). Nothing split: the command's dynamic imports
 * become functions run when called (esbuild), so a command still evaluates only what it uses,
 * and the cache spares compiling it. import.meta.url is the script's own URL (app-root.ts,
 * capture-main.ts look for files next to it). Whitespace and syntax minified as the vendor
 * scripts (names kept for stack frames), ASCII so the loader decodes it as latin1; no source
 * map (K2S_DNS_DEBUG=1 runs the chunks, whose maps name the .ts lines).
 * @kubernetes/client-node is not in it: as in the chunks, kube-client.ts loads
 * dist/vendor-client-node.cjs (its own code cache) when a command first needs it, so `stop`
 * and `status` never read, decode or deserialize its ~1.5 MB (of ~3.3 MB the script was with
 * it: reading and decoding the script were ~40 ms of a stop's CPU, CPU profile). `vendorNames`:
 * the vendor script's export names when it is built already (else it is built here).
 */
export async function buildCliScript(outdir = join(ROOT, 'dist'), vendorNames) {
  const names = vendorNames ?? (await buildVendorScript(outdir, CLIENT_NODE)).names;
  return (
    await build({
      ...COMMON,
      plugins: [...COMMON.plugins, vendorScriptPlugin(CLIENT_NODE, names)],
      ...CJS_OWN_URL,
      sourcemap: false,
      entryPoints: ['electron/cli/cli-script.ts'],
      outfile: join(outdir, 'k2s-dns-cli.cjs'),
      minifyWhitespace: true,
      minifySyntax: true,
      charset: 'ascii',
    })
  ).metafile;
}

/**
 * Builds what dist/k2s-dns.mjs runs first into `outdir`/k2s-dns-run.cjs (electron/cli/run-entry.ts:
 * help, version and every command of the CLI script): CommonJS, so Node loads it without its ES
 * module loader; import.meta.url is the file's own URL (the CLI script is looked for next to it),
 * as in the CLI script.
 */
export async function buildRunEntry(outdir = join(ROOT, 'dist')) {
  return (
    await build({
      ...COMMON,
      ...CJS_OWN_URL,
      sourcemap: false,
      entryPoints: ['electron/cli/run-entry.ts'],
      outfile: join(outdir, 'k2s-dns-run.cjs'),
      minifyWhitespace: true,
      minifySyntax: true,
    })
  ).metafile;
}

/** Builds the packet parser's one file into `outdir` (CommonJS: no banner, nothing lazy). */
export async function buildCaptureParser(outdir = join(ROOT, 'dist')) {
  return (await build({ ...COMMON, format: 'cjs', banner: {}, entryPoints: ['electron/core/capture/rows-main.ts'], outfile: join(outdir, 'k2s-dns-capture-rows.cjs') })).metafile;
}

/**
 * Builds the capture companion's one file into `outdir` (electron/core/capture/capture-watch-entry.ts):
 * CommonJS, so Node loads it without its ES module loader; import.meta.url is the file's own URL
 * (capture-main.ts finds the parser bundle next to it), as in the CLI script.
 */
export async function buildCaptureWatch(outdir = join(ROOT, 'dist')) {
  return (
    await build({
      ...COMMON,
      ...CJS_OWN_URL,
      entryPoints: ['electron/core/capture/capture-watch-entry.ts'],
      outfile: join(outdir, 'k2s-dns-capture-watch.cjs'),
    })
  ).metafile;
}

/**
 * Builds the script of the CLI's V8 startup snapshot into `outdir`/k2s-dns-snapshot.cjs
 * (electron/cli/snapshot-entry.ts; the packages run it through `node --build-snapshot` at
 * install, resources/packaging/k2s-dns-snapshot). CommonJS: a snapshot's script is one file that
 * loads only Node's builtins. Its imports stay functions called at run time, so none of the
 * CLI's code runs while the blob is built.
 */
export async function buildSnapshotEntry(outdir = join(ROOT, 'dist')) {
  return (await build({ ...COMMON, format: 'cjs', banner: {}, sourcemap: false, entryPoints: ['electron/cli/snapshot-entry.ts'], outfile: join(outdir, 'k2s-dns-snapshot.cjs') })).metafile;
}

/** Builds every bundle into `outdir`; resolves to esbuild's metafiles (inputs, output bytes). */
export async function buildBundles(outdir = join(ROOT, 'dist')) {
  await rm(outdir, { recursive: true, force: true });
  const vendor = await buildVendorScript(outdir, CLIENT_NODE);
  const [app, helper, parser, cli, captureWatch, snapshot, runEntry] = await Promise.all([
    build({
      ...COMMON,
      plugins: [...COMMON.plugins, vendorScriptPlugin(CLIENT_NODE, vendor.names)],
      entryPoints: [
        { in: 'electron/cli/entry.ts', out: 'k2s-dns' },
        { in: 'electron/main/app-main.ts', out: 'app-entry' },
      ],
      outdir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      chunkNames: 'chunk-[hash]',
    }),
    buildHelper(outdir),
    buildCaptureParser(outdir),
    buildCliScript(outdir, vendor.names),
    buildCaptureWatch(outdir),
    buildSnapshotEntry(outdir),
    buildRunEntry(outdir),
  ]);
  await slimVendorChunks(app.metafile);
  // What npm packages the bundles hold, for the package's copyright file (scripts/bundled-packages.mjs).
  const inputs = [...Object.keys(app.metafile.inputs), ...Object.keys(helper.inputs), ...Object.keys(parser.inputs), ...Object.keys(cli.inputs), ...Object.keys(captureWatch.inputs), ...Object.keys(snapshot.inputs), ...Object.keys(runEntry.inputs)];
  await writeFile(join(outdir, BUNDLED_PACKAGES_FILE), `${JSON.stringify(packageDirs(inputs), null, 1)}\n`);
  return { app: app.metafile, helper, cli };
}

/** Runs a node script in the repo; throws when it fails. Returns its stdout when `quiet` (then not printed). */
function node(args, quiet = false) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['inherit', quiet ? 'pipe' : 'inherit', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${r.status})`);
  return r.stdout ?? '';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--outdir');
  const outdir = at >= 0 ? resolve(args[at + 1]) : undefined;
  const t0 = performance.now();
  const meta = await buildBundles(outdir);
  const bytes = (m) => Object.values(m.outputs).filter((o) => !o.entryPoint && o.bytes).reduce((n, o) => n + o.bytes, 0);
  const sizes = Object.entries(meta.helper.outputs).filter(([f]) => f.endsWith('.mjs')).map(([f, o]) => `${f} ${(o.bytes / 1024).toFixed(0)} KiB`);
  process.stdout.write(`build: bundles in ${Math.round(performance.now() - t0)} ms (${sizes.join(', ')}; app ${(bytes(meta.app) / 1024).toFixed(0)} KiB in ${Object.keys(meta.app.outputs).filter((f) => f.endsWith('.mjs')).length} files)\n`);
  if (!args.includes('--bundles-only')) {
    node(['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']);
    // preload-build.ts prints the bundle's absolute path (for its other callers): say it as one build line instead.
    const preload = node(['--import', 'tsx', 'electron/main/preload-build.ts'], true).trim();
    process.stdout.write(`build: renderer in out/renderer, preload in ${relative(ROOT, preload) || preload}\n`);
  }
}
