/**
 * `k2s-dns diff` as a user while K2s DNS runs (the saved copy is in root's 0700 directory): a
 * documented state (README "exit status", STATE_UNREADABLE), so its sentence alone on stderr —
 * new user: it began "k2s-dns diff failed:" — with exit 1 kept; `--json` prints the diff (the
 * current file and `savedRootOnly`). Root's diff is unchanged. The real resolverDiff on a test
 * host; main's printing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMain as run } from './run-main.fixture';
import { setCliName } from '../../shared/fix';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { TEST_START_OPTS, trackedHosts } from '../../e2e/support/test-deps';
import { startDns } from '../core/lifecycle/start';
import type { LifecycleDeps } from '../core/lifecycle/deps';

const current = vi.hoisted(() => ({ deps: null as LifecycleDeps | null }));
vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => current.deps }));

const host = trackedHosts();
afterEach(() => setCliName('npx k2s-dns'));

/** lstat below /var/lib/k2s/ fails as for uid 1000 under root's 0700 directory. */
function asUser(deps: LifecycleDeps): void {
  const fs = deps.fs;
  const eacces = (p: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${p}'`), { code: 'EACCES' });
  deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith(`${K2S_PATHS.stateDir}/`) ? Promise.reject(eacces(p)) : fs.lstat(p)) };
  deps.uid = () => 1000;
}

/** K2s DNS started as root on a test host, then main's deps as uid 1000. */
async function runningAsUser(): Promise<void> {
  const h = await host('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  asUser(h.deps);
  current.deps = h.deps;
  setCliName('k2s-dns');
}

const SAID = `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid 1000; run as root: \`sudo k2s-dns diff\`, or \`su -c 'k2s-dns diff'\` where sudo is not installed.`;

describe('k2s-dns diff as a user while K2s DNS runs', () => {
  it('prints the root-only sentence alone on stderr (no "k2s-dns diff failed:"), exit 1', async () => {
    await runningAsUser();
    expect(await run(['diff'])).toEqual({ code: 1, stdout: '', stderr: `${SAID}\n` });
  });

  it('--json: the current K2s-owned file with savedRootOnly, exit 1', async () => {
    await runningAsUser();
    const r = await run(['diff', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ saved: null, savedText: null, identical: false, changes: [], savedRootOnly: SAID, current: { kind: 'file', mode: 0o644 } });
    expect(d.currentText).toMatch(/^# Managed by K2s native Linux installation;[^]*\nnameserver 127\.0\.0\.1\n$/);
  });

  it('as root: the diff as before, exit 0', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    current.deps = h.deps;
    const r = await run(['diff']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('-nameserver 192.0.2.53\n');
    expect(r.stdout).not.toContain('root can read');
  });
});
