import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCachedScript, usableCacheDir, type LoadedScript } from './script-cache';

/**
 * loadCachedScript in a fresh Node process, as each CLI run is: within one process V8 answers a
 * second compile of the same source from its in-memory compilation cache and never looks at
 * the cache file, so a test of the file (hit, corrupt) needs a process of its own.
 */
function loadInChild(file: string, cacheDir: string): LoadedScript {
  const mod = JSON.stringify(fileURLToPath(new URL('./script-cache.ts', import.meta.url)));
  const code = `const { loadCachedScript } = await import(${mod}); process.stdout.write(JSON.stringify(loadCachedScript(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, ${euid})));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as LoadedScript;
}

const euid = process.geteuid?.() ?? -1;
const asRoot = euid === 0;
let tmp: string;
let script: string;
let dir: string;

/** The one cache file in `dir` (its path), or undefined. */
const cacheFile = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache')).map((f) => join(dir, f))[0];

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-cc-'));
  script = join(tmp, 'vendor-x.cjs');
  // A script with enough functions for V8 to cache, exporting values the test checks.
  writeFileSync(script, `const path = require('node:path');\nfunction add(a, b) { return a + b; }\nexports.sum = add(20, 22);\nexports.base = path.basename(__filename);\nmodule.exports.self = this === module.exports;\n`);
  dir = join(tmp, 'home', '.cache', 'k2s-dns');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('loadCachedScript', () => {
  it('runs the script as CommonJS; the first load writes a 0600 cache in a 0700 directory, the second uses it', () => {
    const first = loadCachedScript(script, dir, euid);
    expect(first).toEqual({ exports: { sum: 42, base: 'vendor-x.cjs', self: true }, cache: 'written' });
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    const file = cacheFile()!;
    expect(file).toMatch(/vendor-x\.cjs\.[0-9a-f]{16}\.v8cache$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).uid).toBe(euid);
    expect(loadInChild(script, dir)).toEqual({ exports: { sum: 42, base: 'vendor-x.cjs', self: true }, cache: 'hit' });
  });

  it('a corrupt cache is ignored (V8 rejects it): the script still runs, and the cache is rewritten', () => {
    loadInChild(script, dir);
    const file = cacheFile()!;
    const good = readFileSync(file);
    writeFileSync(file, Buffer.from('not a V8 code cache at all'.repeat(40)));
    expect(loadInChild(script, dir)).toEqual({ exports: { sum: 42, base: 'vendor-x.cjs', self: true }, cache: 'rejected' });
    expect(readFileSync(cacheFile()!).length).toBe(good.length);
    expect(loadInChild(script, dir).cache).toBe('hit');
  });

  it('a rebuilt script gets a new cache file and the old one is removed', () => {
    loadCachedScript(script, dir, euid);
    const old = cacheFile()!;
    writeFileSync(script, 'exports.sum = 7;\n');
    expect(loadCachedScript(script, dir, euid)).toEqual({ exports: { sum: 7 }, cache: 'written' });
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8cache'))).toHaveLength(1);
    expect(cacheFile()).not.toBe(old);
  });

  it('a group- or world-writable cache directory is not used: nothing read, nothing written', () => {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    expect(loadCachedScript(script, dir, euid)).toEqual({ exports: { sum: 42, base: 'vendor-x.cjs', self: true }, cache: 'off' });
    expect(readdirSync(dir)).toEqual([]);
    expect(usableCacheDir(dir, euid)).toBeNull();
  });

  it('a symlink at the cache directory\'s name is not followed', () => {
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(join(tmp, 'home', '.cache'), { recursive: true });
    symlinkSync(elsewhere, dir);
    expect(loadCachedScript(script, dir, euid).cache).toBe('off');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a script with UTF-8 text keeps its characters', () => {
    writeFileSync(script, "exports.text = 'Grüße → ✓';\n");
    expect(loadCachedScript(script, dir, euid).exports).toEqual({ text: 'Grüße → ✓' });
  });

  it('named caches written at exit (CacheOptions): none during the run, one per name after it, each used by the next run of its name', () => {
    const mod = JSON.stringify(fileURLToPath(new URL('./script-cache.ts', import.meta.url)));
    const run = (name: string): { during: string[]; cache: string } => {
      const code = `import { readdirSync } from 'node:fs'; const { loadCachedScript } = await import(${mod}); const r = loadCachedScript(${JSON.stringify(script)}, ${JSON.stringify(dir)}, ${euid}, { name: ${JSON.stringify(name)}, writeAt: 'exit' }); process.stdout.write(JSON.stringify({ during: readdirSync(${JSON.stringify(dir)}), cache: r.cache }));`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as { during: string[]; cache: string };
    };
    expect(run('vendor-x.cjs.start')).toEqual({ during: [], cache: 'written' });
    const names = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache')).map((f) => f.replace(/\.[0-9a-f]{16}\.v8cache$/, '')).sort();
    expect(names()).toEqual(['vendor-x.cjs.start']);
    expect(run('vendor-x.cjs.start').cache).toBe('hit');
    expect(run('vendor-x.cjs.stop')).toEqual({ during: [expect.stringMatching(/^vendor-x\.cjs\.start\.[0-9a-f]{16}\.v8cache$/)], cache: 'written' });
    expect(names()).toEqual(['vendor-x.cjs.start', 'vendor-x.cjs.stop']);
  });

  it('keepIf (CacheOptions): a short run (help, a refusal) leaves no cache; the next run that did the work writes it, with the functions it ran', () => {
    // A "command" whose work is a function the short path never calls: V8 compiles it lazily, so
    // only a run that called it has it in the cache.
    const body = Array.from({ length: 60 }, (_, i) => `  t += String(i * ${i + 1}).length;`).join('\n');
    writeFileSync(script, `exports.work = function work(n) {\n  let t = 0;\n  for (let i = 0; i < n; i++) {\n${body}\n  }\n  return t;\n};\n`);
    const mod = JSON.stringify(fileURLToPath(new URL('./script-cache.ts', import.meta.url)));
    /** One run: calls work() when `real`, exits with `code`; keepIf keeps status 0 only unless `always`. */
    const run = (real: boolean, code: number, always = false): string => {
      const keep = always ? '() => true' : '(c) => c === 0';
      const src = `const { loadCachedScript } = await import(${mod}); const r = loadCachedScript(${JSON.stringify(script)}, ${JSON.stringify(dir)}, ${euid}, { name: 'vendor-x.cjs.stop', writeAt: 'exit', keepIf: ${keep} }); if (${real}) r.exports.work(3); process.stdout.write(r.cache); process.exitCode = ${code};`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', src], { encoding: 'utf8' });
      if (r.status !== code) throw new Error(`child failed (${r.status}): ${r.stderr}`);
      return r.stdout;
    };
    // What the old rule (write on any miss) kept from a short run, for comparison.
    expect(run(false, 0, true)).toBe('written');
    const shortSize = statSync(cacheFile()!).size;
    rmSync(cacheFile()!);
    expect(run(false, 3)).toBe('written');
    expect(cacheFile()).toBeUndefined();
    expect(run(true, 0)).toBe('written');
    const file = cacheFile()!;
    const full = readFileSync(file);
    expect(full.length).toBeGreaterThan(shortSize);
    // Later runs read it; a short one does not replace it.
    expect(run(false, 3)).toBe('hit');
    expect(run(true, 0)).toBe('hit');
    expect(readFileSync(cacheFile()!).equals(full)).toBe(true);
  });

  it('null directory: runs without a cache', () => {
    expect(loadCachedScript(script, null, euid)).toEqual({ exports: { sum: 42, base: 'vendor-x.cjs', self: true }, cache: 'off' });
  });

  it.runIf(asRoot)('root: a directory or cache file owned by another user is never trusted (code cache is code)', () => {
    loadCachedScript(script, dir, 0);
    const file = cacheFile()!;
    chownSync(file, 1234, 1234);
    // Another user's file is not read: treated as missing, and replaced by root's own.
    expect(loadCachedScript(script, dir, 0).cache).toBe('written');
    expect(statSync(cacheFile()!).uid).toBe(0);
    chownSync(dir, 1234, 1234);
    expect(loadCachedScript(script, dir, 0).cache).toBe('off');
  });
  if (!asRoot) it('skipped: the other-owner case needs root to chown (runs as root in CI)', () => undefined);
});
