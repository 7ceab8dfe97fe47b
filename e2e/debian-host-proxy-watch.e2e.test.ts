/**
 * The network follower's watch of k2s-dnsproxy on a booted Debian 13 host (systemd as PID 1,
 * e2e/bed/debian-host.ts; lifecycle/proxy-watch.ts): a stop of the proxy by another program
 * while the host points at it left the host with no DNS; now K2s DNS stops too and the original
 * comes back. A restart (a user's `systemctl restart`) and a crash systemd restarts are no stop.
 * Found by a breaker: with the watch tied to one follow, a follower killed meanwhile, a crash or a
 * restart before a stalled K2s's `systemctl stop` left the host on K2s DNS's file with no proxy.
 * The observation windows below (3 s) are three of the watch's polls (PROXY_POLL_MS): a non-event
 * is asserted over them, nothing waits on them for an event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, followerJournal, hostCli, hostGetent, hostResolver, isActive, mainPid, PLAIN_RESOLV_CONF, startWatched } from './bed/debian-host-cli';
import { engineMissing } from './bed/engines';
import { buildK2sDouble, HOST_K2S_DOUBLE } from './bed/k2s-cli-double';
import { stallSystemctl } from './bed/stalled-systemctl';
import type { Testbed } from './bed/testbed';
import { until } from './support/until';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? ((await debianHostMissing()) ?? (await buildK2sDouble())) : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: the follower's watch of k2s-dnsproxy (${why})`);
const engine = why === null && (await engineMissing('dnsproxy')) === null ? 'adguard' : 'dnsmasq';
const K2S_HEADER = '# Managed by K2s native Linux installation; restored by k2s stop or uninstall\n';

/** Observes for `ms` that `check` stays true (a non-event over the watch's polls); throws at the first false. */
async function staysFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await check())) throw new Error(`${what}: no longer so after ${ms - (end - Date.now())} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe(`the follower's watch of k2s-dnsproxy on a booted Debian 13 host (${engine})`, () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  beforeAll(async () => {
    if (why) return;
    ({ tb, h, original } = await bootPlainHost());
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  const stillRunning = async () => (await isActive(h)) === 'active' && (await isActive(h, 'k2s-dnsproxy-follow.service')) === 'active' && (await h.run(['head', '-n1', '/etc/resolv.conf'])).stdout === K2S_HEADER;

  it.skipIf(why !== null)("a user's `systemctl restart k2s-dnsproxy` and a crash systemd restarts (kill -9): K2s DNS keeps running, cluster names resolve", async () => {
    const journalBefore = await startWatched(h, engine);
    const first = await mainPid(h);
    const restart = await h.run(['systemctl', 'restart', 'k2s-dnsproxy.service']);
    expect(restart.code, restart.stderr).toBe(0);
    await until('a new proxy', 30_000, async () => (await isActive(h)) === 'active' && (await mainPid(h)) !== first);
    await staysFor('K2s DNS running after the restart', 3000, stillRunning);
    const second = await mainPid(h);
    expect((await h.run(['kill', '-9', String(second)])).code).toBe(0);
    await until('systemd restarted the proxy', 30_000, async () => (await isActive(h)) === 'active' && (await mainPid(h)) !== second);
    await staysFor('K2s DNS running after the crash', 3000, stillRunning);
    expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
    expect((await followerJournal(h)).slice(journalBefore)).not.toContain('stops too');
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);

  it.skipIf(why !== null)("a user's `systemctl stop k2s-dnsproxy`: K2s DNS stops too, the original back byte for byte (before: no DNS until `k2s-dns stop`)", async () => {
    const journalBefore = await startWatched(h, engine);
    const stop = await h.run(['systemctl', 'stop', 'k2s-dnsproxy.service']);
    expect(stop.code, stop.stderr).toBe(0);
    await until("the follower's stop", 30_000, async () => (await followerJournal(h)).slice(journalBefore).includes('OK: K2s DNS is stopped'));
    const journal = (await followerJournal(h)).slice(journalBefore);
    console.log(`systemctl stop k2s-dnsproxy →\n${journal.trim()}`);
    expect(journal).toContain('k2s-dnsproxy was stopped by another program (a `systemctl stop k2s-dnsproxy`) while this host pointed at it, which leaves no name resolving: K2s DNS stops too, and the original resolver goes back.');
    await until('the follower unit ends', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) !== 'active');
    expect(await hostResolver(h)).toBe(original);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    expect(JSON.parse((await hostCli(h, ['status', '--json'])).stdout)).toMatchObject({ state: 'stopped' });
  }, 180_000);

  it.skipIf(why !== null)("the follower killed (kill -9) while a stalled K2s's `systemctl stop` waits: the restarted follower still stops K2s DNS when that stop comes, the original back", async () => {
    const stalled = await stallSystemctl(h);
    try {
      const journalBefore = await startWatched(h, engine);
      const k2s = stalled.run([HOST_K2S_DOUBLE, 'stop'], 120_000);
      await until("the follow of K2s's restore", 30_000, async () => (await followerJournal(h)).slice(journalBefore).includes('K2s DNS followed it'));
      const follower = await mainPid(h, 'k2s-dnsproxy-follow.service');
      const before = (await followerJournal(h)).length;
      expect((await h.run(['kill', '-9', String(follower)])).code).toBe(0);
      await until('the follower restarted and watching', 30_000, async () => (await followerJournal(h)).slice(before).includes('watches the network'));
      expect((await h.run(['head', '-n1', '/etc/resolv.conf'])).stdout).toBe(K2S_HEADER);
      await stalled.release();
      const done = await k2s;
      expect(done.code, done.stderr).toBe(0);
      await until("the follower's stop", 30_000, async () => (await followerJournal(h)).slice(before).includes('OK: K2s DNS is stopped'));
      console.log(`follower killed, then K2s's stop →\n${(await followerJournal(h)).slice(before).trim()}`);
      await until('the follower unit ends', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) !== 'active');
      expect(await hostResolver(h)).toBe(original);
      expect((await h.run(['cat', '/etc/resolv.conf'])).stdout).toBe(PLAIN_RESOLV_CONF);
    } finally {
      await stalled.remove();
    }
  }, 180_000);
});
