/**
 * `status` as a user after Stop/Uninstall: "readable by root only" only while a saved state must
 * exist (proxy running or K2s-owned resolv.conf); an absent state directory is "nothing saved";
 * an unreadable 0700 directory is said as what it is: the file's existence cannot be seen.
 */
import { describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import type { LifecycleDeps } from './deps';

const newHost = trackedHosts();
const denied = (p: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${p}'`), { code: 'EACCES' });

/** lstat below an existing /var/lib/k2s/ fails as for a user under root's 0700 directory; without it, ENOENT (null) as lstat(2). */
function asUser(deps: LifecycleDeps): void {
  const fs = deps.fs;
  deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') && (await fs.lstat('/var/lib/k2s')) !== null ? Promise.reject(denied(p)) : fs.lstat(p)) };
  deps.uid = () => 1000;
}

async function stopped() {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
  return h;
}

describe('status as a user after Stop', () => {
  it('a 0700 state directory: says the file cannot be seen, not that it is readable by root only', async () => {
    const h = await stopped();
    asUser(h.deps);
    const s = await dnsStatus(h.deps);
    expect(s.state).toBe('stopped');
    expect(s.messages).toEqual([
      '/var/lib/k2s is readable by root only (0700), so uid 1000 cannot see whether it still holds a saved state; the proxy is not running and /etc/resolv.conf is not K2s\'s, so most likely nothing is saved (Stop removes the file); to be sure, run as root: `sudo npx k2s-dns status`, or `su -c \'npx k2s-dns status\'` where sudo is not installed.',
    ]);
    expect(s.messages.join(' ')).not.toContain('dns-resolver-state.json is readable by root only');
    expect(s.stateUnreadable).toBe('/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf');
  });

  it('after Uninstall (no /var/lib/k2s): nothing saved, no message', async () => {
    const h = await stopped();
    await rm(join(h.root, 'var/lib/k2s'), { recursive: true, force: true });
    asUser(h.deps);
    const s = await dnsStatus(h.deps);
    expect(s).toMatchObject({ state: 'stopped', messages: [] });
    expect(s.stateUnreadable).toBeUndefined();
  });
});
