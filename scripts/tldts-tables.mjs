/**
 * Build step for tldts (pinned in package.json): its CommonJS file derives three lookup tables
 * of the Public Suffix List trie (edgeOffset, edgeHash, wildcardEdge) in a loop when the module
 * loads — by its own comment "a single ~1ms pass at first import"; in a fresh CLI process the
 * loop runs cold, 2.6–3 ms of every `start`'s discover step (measured with --cpu-prof on the test
 * bed and with a timed load from a V8 code cache). This plugin runs that loop once at build time,
 * on the package's own data and code, and puts its results into the bundle as typed-array
 * literals (about 0.1 ms to build at load). The rest of the file, the lookup included, is
 * unchanged. A tldts whose file no longer holds the loop exactly as below fails the build
 * (update TABLES_LOOP after reading the new source); scripts/tldts-tables.test.ts checks the
 * patched module answers as the package does.
 */
import { readFile } from 'node:fs/promises';
import vm from 'node:vm';

/** The derivation in tldts 7.5.4 dist/cjs/index.js, character for character. */
export const TABLES_LOOP = `const edgeOffset = new Uint32Array(numberOfEdges);
const edgeHash = new Uint32Array(numberOfEdges);
const wildcardEdge = new Int32Array(numberOfNodes).fill(-1);
for (let node = 0, offset = 0; node < numberOfNodes; node += 1) {
    for (let edge = edgeStart[node]; edge < edgeStart[node + 1]; edge += 1) {
        edgeOffset[edge] = offset;
        const end = offset + edgeLength[edge];
        let hash = 5381;
        for (let i = end - 1; i >= offset; i -= 1) {
            hash = (hash * 33) ^ labelText.charCodeAt(i);
        }
        edgeHash[edge] = hash >>> 0;
        if (edgeLength[edge] === 1 &&
            labelText.charCodeAt(offset) === 42 /* '*' */) {
            wildcardEdge[node] = edge;
        }
        offset = end;
    }
}
`;

/** The file tldts's package entry loads (its `main`). */
export const TLDTS_FILE = /[\\/]node_modules[\\/]tldts[\\/]dist[\\/]cjs[\\/]index\.js$/;

/**
 * `source` (tldts's dist/cjs/index.js) with TABLES_LOOP replaced by the tables it computes:
 * the file's own code up to the end of the loop runs in a fresh V8 context and the three arrays
 * are read back. Throws when the loop is not in the file exactly once.
 */
export function precomputeTldtsTables(source) {
  const at = source.indexOf(TABLES_LOOP);
  if (at < 0 || source.indexOf(TABLES_LOOP, at + 1) >= 0) {
    throw new Error('tldts: its dist/cjs/index.js no longer holds the table loop scripts/tldts-tables.mjs replaces; read the new source and update TABLES_LOOP (or drop the plugin).');
  }
  const upToLoop = source.slice(0, at + TABLES_LOOP.length);
  const run = vm.runInNewContext(`(function (exports, require, module) {\n${upToLoop}\nreturn { edgeOffset, edgeHash, wildcardEdge };\n})`, {});
  const t = run({}, () => {
    throw new Error('tldts: its table code required a module');
  }, { exports: {} });
  const literal = (name, type, a) => `const ${name} = /*#__PURE__*/ new ${type}([${Array.from(a).join(',')}]);\n`;
  const tables = `// Computed at build time from the loop this replaced (scripts/tldts-tables.mjs).\n${literal('edgeOffset', 'Uint32Array', t.edgeOffset)}${literal('edgeHash', 'Uint32Array', t.edgeHash)}${literal('wildcardEdge', 'Int32Array', t.wildcardEdge)}`;
  return source.slice(0, at) + tables + source.slice(at + TABLES_LOOP.length);
}

/** esbuild plugin: tldts's file with its tables computed (precomputeTldtsTables). */
export function tldtsTablesPlugin() {
  return {
    name: 'tldts-tables',
    setup(b) {
      b.onLoad({ filter: TLDTS_FILE }, async (args) => ({ contents: precomputeTldtsTables(await readFile(args.path, 'utf8')), loader: 'js' }));
    },
  };
}
