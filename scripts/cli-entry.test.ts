/**
 * The built CLI entry (scripts/build.mjs: dist/k2s-dns.mjs from electron/cli/entry.ts) loads no
 * ES module chunk before the command runs: help, version and every command of the CLI script go
 * through dist/k2s-dns-run.cjs (electron/cli/run-entry.ts), one CommonJS file, whose answers are
 * the chunks' own. A damaged one of those files (truncated, a syntax error) is said in one line
 * and the command runs without it, from the chunks — never a stack.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../shared/app-version';
import { commandUsage } from '../electron/cli/usage';

const out = mkdtempSync(join(tmpdir(), 'k2s-cli-entry-'));
const copies = mkdtempSync(join(tmpdir(), 'k2s-cli-entry-damaged-'));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(copies, { recursive: true, force: true });
});

let built: Promise<unknown> | null = null;
/** The bundles in `out`, built once for the file's tests. */
function build(): Promise<unknown> {
  built ??= (import(new URL('./build.mjs', import.meta.url).href) as Promise<{ buildBundles: (dir: string) => Promise<unknown> }>).then(({ buildBundles }) => buildBundles(out));
  return built;
}

/** A copy of the build in a directory of its own with `file` replaced by `damaged(its text)`; resolves a runner of its entry. */
async function damagedCopy(name: string, file: string, damaged: (text: string) => string) {
  await build();
  const copy = join(copies, name);
  cpSync(out, copy, { recursive: true });
  writeFileSync(join(copy, file), damaged(readFileSync(join(out, file), 'utf8')));
  return (...args: string[]) => spawnSync(process.execPath, [join(copy, 'k2s-dns.mjs'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, K2S_DNS_COMPILE_CACHE: '0' } });
}

/** The one line a file that does not load gets (electron/cli/damaged-file.ts). */
const damagedLine = (file: string) => new RegExp(`^k2s-dns: \\S+/${file.replace('.', '\\.')} does not load \\((SyntaxError|ReferenceError|Error): [^\\n]*\\); this command ran without it\\. Reinstall k2s-dns, or run \`npm run build\` in the repository\\.\\n`);

describe('the CLI entry', () => {
  it('imports no chunk at load, and answers through dist/k2s-dns-run.cjs', async () => {
    await build();
    const entry = readFileSync(join(out, 'k2s-dns.mjs'), 'utf8');
    // Static imports only (a dynamic import('./chunk-…') runs for the window's verbs alone).
    expect([...entry.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]).filter((s) => !s!.startsWith('node:'))).toEqual([]);
    expect(readFileSync(join(out, 'k2s-dns-run.cjs'), 'utf8')).toContain('runQuickOrScript');
    const run = (...args: string[]) => spawnSync(process.execPath, [join(out, 'k2s-dns.mjs'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, K2S_DNS_COMPILE_CACHE: '0' } });
    expect(run('--version')).toMatchObject({ status: 0, stdout: `k2s-dns ${APP_VERSION}\n` });
    expect(run('help', 'stop')).toMatchObject({ status: 0, stdout: commandUsage('stop') });
  }, 120_000);

  it('a truncated or syntax-broken dist/k2s-dns-run.cjs: one line says so, the command runs from the chunks with its own output and status', async () => {
    for (const [name, damage] of [['truncated', (t: string) => t.slice(0, t.length >> 1)], ['syntax', (t: string) => `${t}\n)(`]] as const) {
      const run = await damagedCopy(`run-${name}`, 'k2s-dns-run.cjs', damage);
      const version = run('--version');
      expect(version).toMatchObject({ status: 0, stdout: `k2s-dns ${APP_VERSION}\n` });
      expect(version.stderr).toMatch(damagedLine('k2s-dns-run.cjs'));
      expect(version.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      const help = run('help', 'stop');
      expect(help).toMatchObject({ status: 0, stdout: commandUsage('stop') });
      expect(help.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('a truncated dist/k2s-dns-cli.cjs: one line says so, once, and the command runs from the chunks (its usage refusal, exit 2)', async () => {
    const run = await damagedCopy('cli', 'k2s-dns-cli.cjs', (t) => t.slice(0, t.length >> 1));
    const r = run('query');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(`${lines[0]}\n`).toMatch(damagedLine('k2s-dns-cli.cjs'));
    expect(lines[1]).toMatch(/^query takes exactly one NAME\. Run .* query --help for usage\.$/);
  }, 120_000);

  it('left28 #6: a FIFO at dist/k2s-dns-run.cjs or dist/k2s-dns-cli.cjs: one line says so, the command runs from the chunks (no hang)', async () => {
    for (const file of ['k2s-dns-run.cjs', 'k2s-dns-cli.cjs']) {
      const run = await damagedCopy(`fifo-${file}`, file, (t) => t);
      const fifo = join(copies, `fifo-${file}`, file);
      rmSync(fifo);
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      // A query's usage refusal runs through both files (the runner, then the CLI script).
      const r = run('query');
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(2);
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(2);
      expect(`${lines[0]}\n`).toMatch(damagedLine(file));
      expect(lines[0]).toContain('(Error: it is not a regular file)');
      expect(lines[1]).toMatch(/^query takes exactly one NAME\. Run .* query --help for usage\.$/);
    }
  }, 240_000);

  it('tidy29: a dangling symlink at dist/k2s-dns-run.cjs or dist/k2s-dns-cli.cjs: one line names it, its target and the fallback; the command runs from the chunks', async () => {
    for (const file of ['k2s-dns-run.cjs', 'k2s-dns-cli.cjs']) {
      const run = await damagedCopy(`dangling-${file}`, file, (t) => t);
      const link = join(copies, `dangling-${file}`, file);
      rmSync(link);
      symlinkSync(`/nonexistent/${file}`, link);
      const r = run('query');
      expect(r.status).toBe(2);
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toEqual([
        `k2s-dns: ${link} is a symlink to /nonexistent/${file}, which is not there; this command runs from the ES module chunks instead. Reinstall k2s-dns, or run \`npm run build\` in the repository.`,
        expect.stringMatching(/^query takes exactly one NAME\. Run .* query --help for usage\.$/),
      ]);
    }
  }, 240_000);
});
