/**
 * K2s's own CLI against a running K2s DNS on a booted Debian 13 host (e2e/bed/debian-host.ts):
 * `k2s stop` and `k2s uninstall` restore /etc/resolv.conf from dns-resolver-state.json (the file
 * both tools share) and stop k2s-dnsproxy. tools/k2s-cli-double (Go, built here) does what K2s's
 * CLI does for that, decoding the state file with Go's encoding/json into K2s's own field names;
 * before K2s DNS wrote K2s's members (host/k2s-cli-state.ts) that left an empty /etc/resolv.conf
 * of mode 0000 and no DNS. Asserted: the host's original back byte for byte (mode, owner),
 * external names resolving through it, and K2s DNS stopped too by its follower (units down and
 * unlinked, no saved state), both engines' unit being the one K2s stops; a network that writes the
 * original's bytes again while the proxy runs is still followed (after follow.ts ORIGINAL_BACK_WAIT_MS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, followerJournal, hostCli, hostGetent, hostResolver, isActive, PLAIN_RESOLV_CONF, startWatched } from './bed/debian-host-cli';
import { engineMissing } from './bed/engines';
import { buildK2sDouble, HOST_K2S_DOUBLE } from './bed/k2s-cli-double';
import type { Testbed } from './bed/testbed';
import { until } from './support/until';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? ((await debianHostMissing()) ?? (await buildK2sDouble())) : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: K2s's own k2s stop / k2s uninstall against a running K2s DNS (${why})`);
// K2s runs AdGuard dnsproxy; dnsmasq where it was not built.
const engine = why === null && (await engineMissing('dnsproxy')) === null ? 'adguard' : 'dnsmasq';

const STATE = '/var/lib/k2s/dns-resolver-state.json';
const UNITS = ['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-follow.service'];

describe(`K2s's own CLI against a running K2s DNS on a booted Debian 13 host (${engine})`, () => {
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

  it.skipIf(why !== null)('`k2s stop`: the original back byte for byte, external names resolve, and K2s DNS stops too (units down and unlinked, no saved state)', async () => {
    const journalBefore = await startWatched(h, engine);

    const k2s = await h.run([HOST_K2S_DOUBLE, 'stop']);
    expect(k2s.code, k2s.stderr).toBe(0);

    // The follower ends K2s DNS (it may have followed K2s's restore before K2s stopped the
    // proxy: then its stop puts the original back): its journal's stop result, then its unit down.
    const ms = await until("the follower's stop", 30_000, async () => (await followerJournal(h)).slice(journalBefore).includes('OK: K2s DNS is stopped'));
    const lines = (await followerJournal(h)).slice(journalBefore);
    console.log(`debian-host-k2s-cli (${engine}): k2s stop → K2s DNS stopped by its follower after ${ms} ms:\n${lines.trim()}`);
    expect(lines).toMatch(/k2s-dnsproxy was stopped, both by another program \(K2s's own `k2s stop` and `k2s uninstall` do both\): K2s DNS stops too/);
    await until('the follower unit ends', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) !== 'active');
    for (const u of UNITS) {
      expect(await isActive(h, u), u).not.toBe('active');
      expect((await h.run(['systemctl', 'is-enabled', u])).stdout.trim(), u).not.toBe('enabled');
    }
    expect((await h.run(['test', '-e', STATE])).code).not.toBe(0);
    // The original, byte for byte, and names resolve through it.
    expect(await hostResolver(h)).toBe(original);
    expect((await h.run(['cat', '/etc/resolv.conf'])).stdout).toBe(PLAIN_RESOLV_CONF);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    const status = await hostCli(h, ['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'stopped' });
  }, 180_000);

  it.skipIf(why !== null)('`k2s uninstall`: the original back byte for byte, K2s removes the state and the unit; K2s DNS stops, and `k2s-dns uninstall` removes the rest', async () => {
    const journalBefore = await startWatched(h, engine);

    const k2s = await h.run([HOST_K2S_DOUBLE, 'uninstall']);
    expect(k2s.code, k2s.stderr).toBe(0);
    await until("the follower's stop", 30_000, async () => (await followerJournal(h)).slice(journalBefore).includes('OK: K2s DNS is stopped'));
    console.log(`debian-host-k2s-cli (${engine}): k2s uninstall →\n${(await followerJournal(h)).slice(journalBefore).trim()}`);
    await until('the follower unit ends', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) !== 'active');
    expect(await hostResolver(h)).toBe(original);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    const un = await hostCli(h, ['uninstall', '--json']);
    expect(un.result, un.stdout + un.stderr).toMatchObject({ ok: true, exitCode: 0 });
    for (const f of ['/etc/systemd/system/k2s-dnsproxy-follow.service', '/etc/systemd/system/k2s-dnsproxy-capture.service', STATE]) expect((await h.run(['test', '-e', f])).code, f).not.toBe(0);
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);

  it.skipIf(why !== null)("the network writes the original's very bytes again while the proxy runs: followed (not a stop), the host pointed at K2s DNS again", async () => {
    const journalBefore = await startWatched(h, engine);
    // As NetworkManager writes: a temp file renamed over it.
    const w = await h.sh(`printf '${PLAIN_RESOLV_CONF.replace(/\n/g, '\\n')}' > /etc/.resolv.conf.nm && chmod 644 /etc/.resolv.conf.nm && mv /etc/.resolv.conf.nm /etc/resolv.conf`);
    expect(w.code, w.stderr).toBe(0);
    await until('the follow', 30_000, async () => (await followerJournal(h)).slice(journalBefore).includes('K2s DNS followed it'));
    expect((await h.run(['head', '-n1', '/etc/resolv.conf'])).stdout).toBe('# Managed by K2s native Linux installation; restored by k2s stop or uninstall\n');
    expect(await isActive(h)).toBe('active');
    expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);
});
