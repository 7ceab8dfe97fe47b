/**
 * The built CLI entry (scripts/build.mjs: dist/k2s-dns.mjs from electron/cli/entry.ts) loads no
 * ES module chunk before the command runs: help, version and every command of the CLI script go
 * through dist/k2s-dns-run.cjs (electron/cli/run-entry.ts), one CommonJS file, whose answers are
 * the chunks' own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../shared/app-version';
import { commandUsage } from '../electron/cli/usage';

const out = mkdtempSync(join(tmpdir(), 'k2s-cli-entry-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the CLI entry', () => {
  it('imports no chunk at load, and answers through dist/k2s-dns-run.cjs', async () => {
    const { buildBundles } = (await import(new URL('./build.mjs', import.meta.url).href)) as { buildBundles: (dir: string) => Promise<unknown> };
    await buildBundles(out);
    const entry = readFileSync(join(out, 'k2s-dns.mjs'), 'utf8');
    // Static imports only (a dynamic import('./chunk-…') runs for the window's verbs alone).
    expect([...entry.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]).filter((s) => !s!.startsWith('node:'))).toEqual([]);
    expect(readFileSync(join(out, 'k2s-dns-run.cjs'), 'utf8')).toContain('runQuickOrScript');
    const run = (...args: string[]) => spawnSync(process.execPath, [join(out, 'k2s-dns.mjs'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, K2S_DNS_COMPILE_CACHE: '0' } });
    expect(run('--version')).toMatchObject({ status: 0, stdout: `k2s-dns ${APP_VERSION}\n` });
    expect(run('help', 'stop')).toMatchObject({ status: 0, stdout: commandUsage('stop') });
  }, 120_000);
});
