/**
 * The import rule (docs/development.md "Code map"): which room may import which, checked over the import
 * graph of every .ts/.tsx file in the repository. Specifiers come from TypeScript's own
 * pre-processor (`ts.preProcessFile`: static, `export … from`, type-only and dynamic imports).
 *
 * Product files are every file outside e2e/ that is not a test (*.test.ts, *.spec.ts,
 * *.bench.ts, *.fixture.ts). Tests may import test support; product files may not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO, tsFilesUnder } from './lib/repo-files';

const ROOTS = ['electron', 'renderer', 'shared', 'e2e', 'scripts'];

/** npm packages the renderer may import: they run in a browser. */
const BROWSER_PACKAGES = ['react', 'react-dom', 'zustand', '@tanstack/react-virtual', 'diff', 'zod'];

/** Repo-relative paths (posix) of every .ts/.tsx file under ROOTS and at the top. */
function sourceFiles(): string[] {
  const top = readdirSync(REPO).filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'));
  return [...tsFilesUnder(ROOTS), ...top].sort();
}

const FILES = sourceFiles();
const FILE_SET = new Set(FILES);

/** One import: the importing file, the specifier as written, the repo file it resolves to (relative ones). */
interface Edge { from: string; spec: string; to?: string }

function resolveRelative(from: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((e) => base + e).find((p) => FILE_SET.has(p));
}

const EDGES: Edge[] = FILES.flatMap((from) =>
  ts.preProcessFile(readFileSync(join(REPO, from), 'utf8'), true, true).importedFiles.map(({ fileName: spec }) =>
    spec.startsWith('.') ? { from, spec, to: resolveRelative(from, spec) } : { from, spec },
  ),
);

const isTest = (f: string) => /\.(test|spec|bench|fixture)\.tsx?$/.test(f) || f.startsWith('e2e/');
/** Product code: what users run, in electron/, renderer/ and shared/ (not tests, not tooling). */
const isProduct = (f: string) => /^(electron|renderer|shared)\//.test(f) && !isTest(f);
const room = (f: string) => {
  const m = /^(electron\/(?:core|main|helper|cli|web)|renderer|shared|e2e|scripts)\//.exec(f);
  return m ? m[1]! : posix.dirname(f);
};
const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((b) => `node:${b}`)]);
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]!);
const pkgOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
const show = (e: Edge) => `${e.from} → ${e.to ?? e.spec}`;

/** The rule, one line each: an edge from a product file for which `bad` is true breaks it. */
const RULES: { name: string; bad: (e: Edge) => boolean }[] = [
  {
    name: 'renderer imports only renderer, shared and browser-safe packages',
    bad: (e) => room(e.from) === 'renderer' && (e.to ? !['renderer', 'shared'].includes(room(e.to)) : !e.spec.startsWith('.') && !BROWSER_PACKAGES.includes(pkgOf(e.spec))),
  },
  {
    name: 'shared imports only shared, and no node:*, electron or React',
    bad: (e) => room(e.from) === 'shared' && (e.to ? room(e.to) !== 'shared' : isNodeBuiltin(e.spec) || ['electron', 'react', 'react-dom'].includes(pkgOf(e.spec))),
  },
  {
    name: 'electron/core never imports renderer, electron/main, the CLI, the web bridge or e2e',
    bad: (e) => room(e.from) === 'electron/core' && e.to !== undefined && ['renderer', 'electron/main', 'electron/cli', 'electron/web', 'e2e'].includes(room(e.to)),
  },
  { name: "only electron/main imports 'electron'", bad: (e) => pkgOf(e.spec) === 'electron' && !e.to && room(e.from) !== 'electron/main' },
  {
    name: 'no product file imports test support (e2e/, tests, vitest, fast-check, @playwright/test)',
    bad: (e) => (e.to ? isTest(e.to) : ['vitest', 'fast-check', '@playwright/test'].includes(pkgOf(e.spec))),
  },
];

describe('import rule', () => {
  it('sees the repository (sanity: files and edges found)', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(EDGES.length).toBeGreaterThan(1000);
    expect(FILES).toContain('electron/core/lifecycle/start.ts');
  });

  it('every relative import resolves to a file in the repository', () => {
    // A plain-JS module (.mjs, for scripts that run without tsx, e.g. scripts/build.mjs) counts when the file is there.
    const plainJs = (e: Edge) => e.spec.endsWith('.mjs') && existsSync(join(REPO, posix.dirname(e.from), e.spec));
    const bad = EDGES.filter((e) => e.spec.startsWith('.') && !e.to && !/\.(css|svg|json)$/.test(e.spec) && !plainJs(e));
    expect(bad.map(show)).toEqual([]);
  });

  for (const rule of RULES) {
    it(rule.name, () => {
      expect(EDGES.filter((e) => isProduct(e.from) && rule.bad(e)).map(show)).toEqual([]);
    });
  }

  it('each rule catches the import it is for (synthetic edges)', () => {
    const caught = (e: Edge) => RULES.filter((r) => r.bad(e)).map((r) => r.name);
    expect(caught({ from: 'renderer/src/stores/dns.ts', spec: '../../../electron/core/dispatch', to: 'electron/core/dispatch.ts' })).toHaveLength(1);
    expect(caught({ from: 'renderer/src/stores/dns.ts', spec: 'node:fs' })).toHaveLength(1);
    expect(caught({ from: 'shared/types.ts', spec: 'node:path' })).toHaveLength(1);
    expect(caught({ from: 'shared/types.ts', spec: 'react' })).toHaveLength(1);
    expect(caught({ from: 'electron/core/lifecycle/start.ts', spec: '../../main/ipc', to: 'electron/main/ipc.ts' })).toHaveLength(1);
    expect(caught({ from: 'electron/cli/main.ts', spec: 'electron' })).toHaveLength(1);
    expect(caught({ from: 'electron/web/server.ts', spec: '../../e2e/support/backend-fake', to: 'e2e/support/backend-fake.ts' })).toHaveLength(1);
    expect(caught({ from: 'electron/core/lifecycle/start.ts', spec: 'vitest' })).toHaveLength(1);
    expect(caught({ from: 'electron/main/main.ts', spec: 'electron' })).toEqual([]);
    expect(caught({ from: 'electron/cli/main.ts', spec: '../core/lifecycle/start', to: 'electron/core/lifecycle/start.ts' })).toEqual([]);
  });

  it('the import graph has no cycle', () => {
    const next = new Map<string, string[]>();
    for (const e of EDGES) if (e.to) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const t of next.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...path.slice(path.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) visit(t, [...path, t]);
      }
      state.set(f, 'done');
    };
    for (const f of FILES) if (!state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
  });
  // The CLI runs as one bundled script from a V8 code cache (scripts/build.mjs buildCliScript):
  // esbuild turns a relative import() into a function call, but a builtin's import() stays one,
  // and V8 then throws "A dynamic import callback was not specified". Builtins are imported statically.
  it('no product file under electron/ or shared/ imports a Node builtin dynamically', () => {
    const dynamicBuiltin = /\bimport\(\s*['"]((?:node:)?[a-z_/]+)['"]\s*\)/g;
    const found = FILES.filter((f) => /^(electron|shared)\//.test(f) && isProduct(f)).flatMap((f) =>
      [...readFileSync(join(REPO, f), 'utf8').matchAll(dynamicBuiltin)].filter((m) => isNodeBuiltin(m[1]!)).map((m) => `${f}: ${m[0]}`),
    );
    expect(found).toEqual([]);
    expect([..."const x = await import('node:fs/promises');".matchAll(dynamicBuiltin)].map((m) => isNodeBuiltin(m[1]!))).toEqual([true]);
  });
});
