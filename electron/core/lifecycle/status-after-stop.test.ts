/**
 * `status` as a user after Stop/Uninstall: "readable by root only" only while a saved state must
 * exist (proxy running or K2s-owned resolv.conf); an absent state directory is "nothing saved";
 * an unreadable 0700 directory is said as what it is: the file's existence cannot be seen.
 * While it runs, the engine is named from the proxy's own argv (new-user walk: the window's card had none),
 * and the kube-dns address from that engine's config (0644), never K2s's default said as "not discovered".
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import type { LifecycleDeps } from './deps';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { checkHealth, UNREAD_KUBE_DNS_WHY } from '../health/check-health';
import { followsNetwork } from '../health/follows-network';
import { healthProbes } from '../health/probes';
import { hopLine } from '../doctor/hop-line';
import { renderDnsproxyConfig } from '../../../shared/dnsproxy-config';
import { testPlan } from '../../../e2e/support/test-plan';

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
    // Stop keeps the proxy's config and log, which any user sees: uninstall has files to remove.
    expect(s.ownedFilesLeft).toBe(true);
    expect(s.stateUnreadable).toBe('/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)');
    // The file in place is this host's own, as the status's resolver line says, not "original" (a saved copy's word).
    const resolver = (await checkHealth(healthProbes(h.deps))).hops.find((x) => x.kind === 'resolver')!;
    expect(hopLine(resolver)).toBe("/etc/resolv.conf: host's own (nameservers 192.0.2.53)");
    expect(resolver.reason).toBe("/etc/resolv.conf is this host's own file (nameservers 192.0.2.53): host apps do not ask k2s-dnsproxy");
  });

  it('in the window: said once, by the Saved original row (stateUnreadable), with no note repeating it (new-user walk)', async () => {
    const h = await stopped();
    asUser(h.deps);
    const s = await dnsStatus(h.deps, 'gui');
    expect(s.messages).toEqual([]);
    expect(s.stateUnreadable).toBe('/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)');
  });

  it('after Uninstall, its 0700 /var/lib/k2s left: whether a file is left there cannot be seen, so ownedFilesLeft is not said (the window keeps Uninstall)', async () => {
    const h = await stopped();
    expect((await uninstallDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(false);
    asUser(h.deps);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBeUndefined();
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

/** Runs `body` with a stand-in proxy (dnsmasq unless `engine`) whose argv carries its config argument, as the engine's args render it, reported running by the host's service. */
async function withStandInProxy(h: Awaited<ReturnType<typeof newHost>>, body: () => Promise<void>, engine: 'dnsmasq' | 'adguard' = 'dnsmasq'): Promise<void> {
  const marker = engine === 'dnsmasq' ? `--conf-file=${h.deps.fs.real(K2S_PATHS.dnsmasqConfig)}` : `--config-path=${h.deps.fs.real(K2S_PATHS.proxyConfig)}`;
  const proxy = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)', '--', '--keep-in-foreground', marker], { stdio: 'ignore' });
  try {
    await new Promise<void>((resolve, reject) => proxy.once('spawn', resolve).once('error', reject));
    h.deps.services.status = async () => ({ running: true, pid: proxy.pid! });
    await body();
  } finally {
    proxy.kill('SIGKILL');
  }
}

describe('status as a user while K2s DNS runs', () => {
  it("the network follower it sees running says the start follows the network, so the upstream-down verdict names the network's nameservers as root's does (new user, session 30)", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, engine: 'dnsmasq' }, () => undefined)).ok).toBe(true);
    let alive = true;
    h.deps.followerWatch = { running: async () => alive, pid: async () => (alive ? 5150 : null) };
    expect(followsNetwork(await dnsStatus(h.deps))).toBe(true);
    asUser(h.deps);
    await withStandInProxy(h, async () => {
      const s = await dnsStatus(h.deps);
      expect(s.onNetworkChange).toBeUndefined();
      expect(s.follower).toEqual({ running: true, pid: 5150 });
      expect(followsNetwork(s)).toBe(true);
      // Not running: keep, or a follower down — a user cannot tell; nothing is said of it.
      alive = false;
      const down = await dnsStatus(h.deps);
      expect(down.follower ?? null).toBeNull();
      expect(followsNetwork(down)).toBe(false);
      expect(down.messages.filter((m) => m.startsWith('The network follower'))).toEqual([]);
    });
    expect(followsNetwork({ onNetworkChange: 'keep', follower: { running: true, pid: 1 } })).toBe(false);
  });

  it("the kube-dns address is the one the running proxy's config (0644) routes the cluster zones to, said plainly; with no config, K2s's default said as unread, never \"not discovered\"", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, engine: 'dnsmasq' }, () => undefined)).ok).toBe(true);
    // Another ClusterIP than K2s's default in the config start wrote: the address comes from it, not from a default.
    const config = h.deps.fs.real(K2S_PATHS.dnsmasqConfig);
    await writeFile(config, (await readFile(config, 'utf8')).replaceAll('/172.21.0.10\n', '/10.96.0.10\n'));
    asUser(h.deps);
    await withStandInProxy(h, async () => {
      const s = await dnsStatus(h.deps);
      expect(s).toMatchObject({ state: 'running', engine: 'dnsmasq', kubeDnsIp: '10.96.0.10', clusterDomain: null, listeners: [], upstreams: [] });
      expect(s.stateUnreadable).toMatch(/is readable by root only/);
      // The upstreams (its plain server= lines), marked as the config's; dnsmasq's listeners are in no file.
      expect(s.configFacts).toMatchObject({ file: K2S_PATHS.dnsmasqConfig, listeners: [], upstreams: ['192.0.2.53'] });
      expect(s.configFacts?.zones).toContainEqual({ zone: 'cluster.local', upstream: '10.96.0.10' });
      // The note names only what the config does not give (new user: it said listeners and upstreams were not shown).
      expect(s.messages).toContainEqual(expect.stringMatching(/^\/var\/lib\/k2s\/dns-resolver-state\.json is readable by root only, so its details \(saved original, listeners\) are not shown; they are shown as root: .* The upstreams shown are read from the running proxy's config \/etc\/k2s\/dnsmasq\.conf \(readable by all\)\.$/));
      const hop = (await checkHealth(healthProbes(h.deps), { kubeconfigFound: false })).hops.find((x) => x.kind === 'kube-dns')!;
      expect(hop.addressFrom).toEqual({ source: 'discovered', why: null });
      expect(hopLine(hop)).toMatch(/^CoreDNS \(kube-dns 10\.96\.0\.10:53\): /);
      // No config to read: K2s's default, and why the discovered one is not shown — no kubeconfig is involved.
      await rm(config);
      const unread = (await checkHealth(healthProbes(h.deps), { kubeconfigFound: false })).hops.find((x) => x.kind === 'kube-dns')!;
      expect(unread.addressFrom).toEqual({ source: 'unread', why: UNREAD_KUBE_DNS_WHY });
      expect(hopLine(unread)).toMatch(/^CoreDNS \(kube-dns 172\.21\.0\.10:53, K2s's default: the address start discovered is in the saved state, which only root reads\): /);
    });
  });

  it("AdGuard dnsproxy: its config's listeners and default upstreams, marked as the config's (new user: 'not known' beside a 0644 config)", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, engine: 'dnsmasq' }, () => undefined)).ok).toBe(true);
    // The file AdGuard dnsproxy's start writes (this bed runs no dnsproxy), 0644 as start writes it.
    await writeFile(h.deps.fs.real(K2S_PATHS.proxyConfig), renderDnsproxyConfig(testPlan({ listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], upstreams: ['192.0.2.53', '192.0.2.9'] })), { mode: 0o644 });
    asUser(h.deps);
    await withStandInProxy(h, async () => {
      const s = await dnsStatus(h.deps, 'gui');
      expect(s).toMatchObject({ engine: 'adguard', listeners: [], upstreams: [], kubeDnsIp: '172.21.0.10' });
      expect(s.configFacts).toMatchObject({ file: K2S_PATHS.proxyConfig, listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], upstreams: ['192.0.2.53', '192.0.2.9'] });
      expect(s.configFacts?.zones).toContainEqual({ zone: 'cluster.local', upstream: '172.21.0.10' });
      expect(s.messages).toContainEqual("/var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original) are not shown; K2s DNS itself is not affected; Start, Stop and Uninstall still work (they run as root through polkit). The listeners and upstreams shown are read from the running proxy's config /etc/k2s/dnsproxy.yaml (readable by all).");
    }, 'adguard');
  });

  it("names the engine from the running proxy's argv (/proc/PID/cmdline, readable by any user), not from the root-only state", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, engine: 'dnsmasq' }, () => undefined)).ok).toBe(true);
    asUser(h.deps);
    await withStandInProxy(h, async () => {
      const s = await dnsStatus(h.deps, 'gui');
      expect(s.stateUnreadable).toMatch(/is readable by root only/);
      expect(s.engine).toBe('dnsmasq');
      // A PID whose argv names no engine's config: unknown, never a guess.
      h.deps.services.status = async () => ({ running: true, pid: process.pid });
      expect((await dnsStatus(h.deps, 'gui')).engine).toBeNull();
    });
  });
});
