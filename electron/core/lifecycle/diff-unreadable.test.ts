/**
 * `k2s-dns diff` as a user: root's 0700 state directory gives EACCES for the file whether or not
 * it exists, so the diff says what this user can know — a saved copy only when a start must have
 * made one (proxy running, K2s-owned resolv.conf), else nothing saved as far as it can tell —
 * and how to run it as root without assuming sudo is installed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setCliName } from '../../../shared/fix';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { isManagedEntry } from './preflight';
import { resolverDiff } from './diff';
import { startDns } from './start';
import { stopDns } from './stop';
import { formatResolverDiff } from '../../cli/print-diff';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import type { LifecycleDeps } from './deps';

const host = trackedHosts();
afterEach(() => setCliName('npx k2s-dns'));

/** What lstat(2) of a path below a 0700 directory of another user gives. */
const eacces = (path: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${path}'`), { code: 'EACCES', errno: -13, syscall: 'lstat', path });

/** lstat below an existing /var/lib/k2s/ fails as for uid 1000 under root's 0700 directory (existing file or not); without the directory, as lstat(2) does. */
function asUser(deps: LifecycleDeps): void {
  const fs = deps.fs;
  deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith(`${K2S_PATHS.stateDir}/`) && (await fs.lstat(K2S_PATHS.stateDir)) !== null ? Promise.reject(eacces(p)) : fs.lstat(p)) };
  deps.uid = () => 1000;
}

const ROOT_WAYS = "as root: `sudo k2s-dns diff`, or `su -c 'k2s-dns diff'` where sudo is not installed";

describe('resolverDiff when the state is root-only', () => {
  it('while K2s DNS runs: the current K2s-owned file, and savedRootOnly names the saved file, why, and the ways to run it as root (no throw: the window showed an older diff beside it)', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const asRoot = await resolverDiff(h.deps);
    asUser(h.deps);
    setCliName('k2s-dns');
    const d = await resolverDiff(h.deps);
    const said = `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid 1000; run ${ROOT_WAYS}.`;
    expect(d).toEqual({ saved: null, savedText: null, current: asRoot.current, currentText: asRoot.currentText, identical: false, changes: [], savedRootOnly: said });
    expect(d.current).toMatchObject({ kind: 'file', mode: 0o644, uid: 0 });
    expect(isManagedEntry(d.current)).toBe(true);
    expect(formatResolverDiff(d)).toBe(said);
    // Root's view: the saved original and the changes, no root-only sentence.
    expect(asRoot.saved).not.toBeNull();
    expect(asRoot.savedRootOnly).toBeUndefined();
    expect(asRoot.changes.length).toBeGreaterThan(0);
  });

  it('a K2s-owned /etc/resolv.conf with the proxy down (crashed): still root-only, not "nothing saved"', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    asUser(h.deps);
    h.services.status = async () => ({ running: false, pid: null });
    setCliName('k2s-dns');
    const d = await resolverDiff(h.deps);
    expect(d.savedRootOnly).toMatch(/^The saved original resolver is in .*, which only root can read/);
    expect(d.savedUnknown).toBeUndefined();
  });

  it('after Stop (the 0700 directory is empty): nothing saved as far as the user can tell, no claim of a root-only copy', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(await h.deps.fs.lstat(K2S_PATHS.stateDir)).not.toBeNull();
    asUser(h.deps);
    setCliName('k2s-dns');
    const d = await resolverDiff(h.deps);
    expect(d.saved).toBeNull();
    const said = `Nothing saved as far as uid 1000 can tell: k2s-dnsproxy is not running and /etc/resolv.conf is not K2s's, so it is your own file and there is nothing to compare (stop removes the saved copy). ${K2S_PATHS.stateDir} is readable by root only (0700); to be sure, run ${ROOT_WAYS}.`;
    expect(d.savedUnknown).toBe(said);
    expect(formatResolverDiff(d)).toBe(said);
  });

  it('a missing state file (ENOENT) is "nothing saved" for a user as for root', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    h.deps.uid = () => 1000;
    const d = await resolverDiff(h.deps);
    expect(d.saved).toBeNull();
    expect(d.savedUnknown).toBeUndefined();
    expect(formatResolverDiff(d)).toMatch(/^Nothing saved: K2s DNS is not running/);
  });

  it('under a wrapper that runs as root by itself: just its line, no sudo or su', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    asUser(h.deps);
    setCliName('/tmp/sb/k2s-dns', false, true);
    expect((await resolverDiff(h.deps)).savedRootOnly).toMatch(/so the diff cannot be shown to uid 1000; run as root: `\/tmp\/sb\/k2s-dns diff`\.$/);
  });

  it('any other error stays what it was', async () => {
    const h = await host();
    h.deps.fs.lstat = async () => {
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    };
    await expect(resolverDiff(h.deps)).rejects.toThrow('EIO: i/o error');
  });
});
