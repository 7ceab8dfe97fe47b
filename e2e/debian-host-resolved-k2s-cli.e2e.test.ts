/**
 * K2s's own `k2s uninstall` while K2s DNS runs on a
 * systemd-resolved host (link DNS, /etc/resolv.conf → stub-resolv.conf; the routing-only route on
 * k2s-proxy0). K2s deletes dns-resolver-state.json before the follower's stop reads it, so that
 * stop says "Nothing was saved" and leaves the route (~cluster.local and the reverse zones to
 * 172.19.1.1); `k2s-dns uninstall` then removes the route file without dropping the route (found
 * by a breaker at 8183b1c; the follower now holds the state it read, follow-watch.ts). Asserted: `resolvectl status` as before start, both once K2s DNS has stopped itself and after
 * `k2s-dns uninstall` (docs/host-integration.md "K2s's own `k2s stop` and `k2s uninstall` while
 * K2s DNS runs": the follower runs the rest of a stop, the systemd-resolved route included).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDebianHost, debianHostMissing, type DebianHost } from './bed/debian-host';
import { hostCli, hostStartArgs, isActive } from './bed/debian-host-cli';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { engineMissing } from './bed/engines';
import { buildK2sDouble, HOST_K2S_DOUBLE } from './bed/k2s-cli-double';
import { UPSTREAM_LINK } from './bed/netns-links';
import { runCmd } from './bed/run-cmd';
import { startTestbed, UPSTREAM_RECORDS, type Testbed } from './bed/testbed';
import { resolverPicture } from './support/resolver-picture';
import { until } from './support/until';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? ((await debianHostMissing()) ?? (await engineMissing('dnsproxy')) ?? (await buildK2sDouble())) : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: K2s's own k2s uninstall on a systemd-resolved host (${why})`);

/** The "external" nameserver of this host (link DNS of the upstream link). */
const EXTERNAL = '192.0.2.54';

describe("K2s's own `k2s uninstall` while K2s DNS runs on a systemd-resolved host (booted Debian 13)", () => {
  let tb: Testbed;
  let h: DebianHost;
  let external: DnsmasqServer;
  let added = false;
  beforeAll(async () => {
    if (why) return;
    tb = await startTestbed();
    await runCmd('ip', ['addr', 'add', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]);
    added = true;
    external = await startDnsmasq({ listenAddress: EXTERNAL, port: 53, records: UPSTREAM_RECORDS, localTtl: 60, logQueries: true });
    h = await createDebianHost({
      enable: ['systemd-resolved.service'],
      files: {
        '/etc/resolv.conf': { symlink: '../run/systemd/resolve/stub-resolv.conf' },
        '/etc/nsswitch.conf': 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\n',
        '/root/.kube/config': await readFile(tb.kubeconfigPath, 'utf8'),
      },
    });
    await h.boot();
    await h.waitRunning();
    const set = await h.sh(`resolvectl dns ${UPSTREAM_LINK} ${EXTERNAL} && resolvectl domain ${UPSTREAM_LINK} example.test`);
    expect(set.code, set.stderr).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await external?.stop();
    if (added) await runCmd('ip', ['addr', 'del', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]).catch(() => undefined);
    await tb?.stop();
  }, 120_000);

  it.skipIf(why !== null)('`k2s uninstall`, then `k2s-dns uninstall`: the link back, and no route on k2s-proxy0 left (resolvectl status as before start)', async () => {
    const before = await resolverPicture(h);
    const start = await hostCli(h, hostStartArgs('adguard'));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    await until('the follower runs', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) === 'active');
    await until('the follower watches', 30_000, async () => (await h.run(['journalctl', '-u', 'k2s-dnsproxy-follow', '-o', 'cat', '--no-pager'])).stdout.includes('watches the network'));

    const k2s = await h.run([HOST_K2S_DOUBLE, 'uninstall']);
    expect(k2s.code, k2s.stderr).toBe(0);
    await until('the follower ends', 30_000, async () => (await isActive(h, 'k2s-dnsproxy-follow.service')) !== 'active');
    const stopped = await resolverPicture(h);
    expect(stopped.etc).toBe(before.etc);
    expect(stopped.status, 'once K2s DNS stopped itself').toBe(before.status);

    const un = await hostCli(h, ['uninstall', '--json']);
    expect(un.result, un.stdout + un.stderr).toMatchObject({ ok: true });
    const after = await resolverPicture(h);
    expect(after.etc).toBe(before.etc);
    expect(after.status, 'after k2s-dns uninstall').toBe(before.status);
  }, 180_000);
});
