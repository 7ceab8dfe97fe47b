/**
 * `status` as a user after Stop/Uninstall: "readable by root only" only while a saved state must
 * exist (proxy running or K2s-owned resolv.conf); an absent state directory is "nothing saved";
 * an unreadable 0700 directory is said as what it is: the file's existence cannot be seen.
 * While it runs, the engine is named from the proxy's own argv (new-user walk: the window's card had none).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import type { LifecycleDeps } from './deps';
import { K2S_PATHS } from '../../../shared/k2s-paths';

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
    expect(s.stateUnreadable).toBe('/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)');
  });

  it('in the window: said once, by the Saved original row (stateUnreadable), with no note repeating it (new-user walk)', async () => {
    const h = await stopped();
    asUser(h.deps);
    const s = await dnsStatus(h.deps, 'gui');
    expect(s.messages).toEqual([]);
    expect(s.stateUnreadable).toBe('/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)');
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

describe('status as a user while K2s DNS runs', () => {
  it("names the engine from the running proxy's argv (/proc/PID/cmdline, readable by any user), not from the root-only state", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, engine: 'dnsmasq' }, () => undefined)).ok).toBe(true);
    asUser(h.deps);
    // A stand-in proxy process whose argv carries dnsmasq's config argument, as the engine's args render it.
    const proxy = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)', '--', '--keep-in-foreground', `--conf-file=${h.deps.fs.real(K2S_PATHS.dnsmasqConfig)}`], { stdio: 'ignore' });
    try {
      await new Promise<void>((resolve, reject) => proxy.once('spawn', resolve).once('error', reject));
      h.deps.services.status = async () => ({ running: true, pid: proxy.pid! });
      const s = await dnsStatus(h.deps, 'gui');
      expect(s.stateUnreadable).toMatch(/is readable by root only/);
      expect(s.engine).toBe('dnsmasq');
      // A PID whose argv names no engine's config: unknown, never a guess.
      h.deps.services.status = async () => ({ running: true, pid: process.pid });
      expect((await dnsStatus(h.deps, 'gui')).engine).toBeNull();
    } finally {
      proxy.kill('SIGKILL');
    }
  });
});
