/**
 * The web bridge answers a permission state of K2s's own root-only files as a state the window
 * shows: HTTP 200 with its `ok: false` envelope (README: "answered 200 with its ok: false
 * envelope, so the browser logs no failed request"), never a 500 — the package trial's
 * `logs:page` as a user not in group adm; `resolver:diff` as a user answers its diff (savedRootOnly).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeBackend } from '../../e2e/support/backend-fake';
import { TEST_START_OPTS, trackedHosts } from '../../e2e/support/test-deps';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { setCliName } from '../../shared/fix';
import { resolverDiff } from '../core/lifecycle/diff';
import { startDns } from '../core/lifecycle/start';
import type { LifecycleDeps } from '../core/lifecycle/deps';
import { logReadError } from '../core/logs/tail';
import type { AppBackend } from '../core/backend';
import { startWebServer } from './server';

const host = trackedHosts();
afterEach(() => setCliName('npx k2s-dns'));

const eacces = (p: string) => Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES' });

/** lstat below /var/lib/k2s/ fails as for uid 1000 under root's 0700 directory. */
function asUser(deps: LifecycleDeps): void {
  const fs = deps.fs;
  deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith(`${K2S_PATHS.stateDir}/`) ? Promise.reject(eacces(p)) : fs.lstat(p)) };
  deps.uid = () => 1000;
}

/** POSTs `call` with `input` to a web bridge on `backend`; its status and JSON body. */
async function call(backend: AppBackend, name: string, input: unknown = {}): Promise<{ status: number; body: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'k2s-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>k2s-dns</title>');
  const server = await startWebServer({ backend, staticDir: dir });
  try {
    const port = new URL(server.url).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, body: JSON.stringify(input) });
    return { status: res.status, body: await res.json() };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the web bridge and root-only files of K2s', () => {
  it('resolver:diff as a user while K2s DNS runs: 200 with the diff (the current file, savedRootOnly), no error envelope', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    asUser(h.deps);
    setCliName('k2s-dns');
    const r = await call({ ...createFakeBackend({ stepDelayMs: 1 }), resolverDiff: () => resolverDiff(h.deps) }, 'resolver:diff');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      data: {
        saved: null,
        current: { kind: 'file', mode: 0o644 },
        savedRootOnly: `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid 1000; run as root: \`sudo k2s-dns diff\`, or \`su -c 'k2s-dns diff'\` where sudo is not installed.`,
      },
    });
  });

  it('logs:page as a user outside group adm: 200 with the LOG_UNREADABLE envelope', async () => {
    const backend = { ...createFakeBackend({ stepDelayMs: 1 }), logsPage: async () => Promise.reject(logReadError(K2S_PATHS.log, eacces(K2S_PATHS.log))) };
    const r = await call(backend, 'logs:page', { lines: 200 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: false,
      error: {
        code: 'LOG_UNREADABLE',
        message: `Cannot read the proxy log ${K2S_PATHS.log}: permission denied (it is readable by root and the group adm only). Add your user to adm (\`sudo usermod -aG adm $USER\`, then log out and in again), or read it as root (\`sudo tail -f ${K2S_PATHS.log}\`).`,
      },
    });
  });

  it('a fault without a code of its own stays a 500 (BACKEND_ERROR)', async () => {
    const backend = { ...createFakeBackend({ stepDelayMs: 1 }), logsPage: async () => Promise.reject(logReadError(K2S_PATHS.log, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }))) };
    const r = await call(backend, 'logs:page', { lines: 200 });
    expect(r.status).toBe(500);
    expect((r.body as { error: { code: string } }).error.code).toBe('BACKEND_ERROR');
  });
});
