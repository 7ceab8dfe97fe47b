/**
 * The systemd-resolved route kept alive on a booted Debian 13 host (e2e/bed/debian-host.ts,
 * systemd 257, its real systemd-resolved and NetworkManager 1.52 with Debian's own
 * configuration), both engines. The route K2s DNS gives resolved (the KubeSwitch link
 * k2s-proxy0 as a routing-only link for the cluster zones) is runtime state of that link:
 * - the link deleted and created again (K2s's network service restarted): k2s-dnsproxy-resolved
 *   applies it again once the address is back, resolvectl and nss-resolve answer, no cluster
 *   name reaches the external nameserver;
 * - a reboot while running, the address added after boot: the same;
 * - doctor says `resolved-route` error with the fix while it is missing, ok once it is back;
 * - NetworkManager with Debian's defaults runs its generated DHCP "Wired connection" on the
 *   re-created veth: doctor's `networkmanager-kubeswitch` warns, and the user's fix
 *   (`nmcli device set k2s-proxy0 managed no`) keeps K2s's address and the route;
 * - K2s's own CLI removing only k2s-dnsproxy.service: no companion unit keeps running or starts
 *   alone (by hand or at the next boot);
 * and every stop gives `resolvectl status` (link indexes aside: the kernel numbers a re-created
 * link anew) and /etc/resolv.conf back byte for byte.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDebianHost, debianHostMissing, type DebianHost } from './bed/debian-host';
import { hostCli, hostStartArgs, isActive } from './bed/debian-host-cli';
import { resolverPicture } from './support/resolver-picture';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { KUBESWITCH_LINK, UPSTREAM_LINK } from './bed/netns-links';
import { runCmd } from './bed/run-cmd';
import { startTestbed, TESTBED_ADDRESSES, UPSTREAM_RECORDS, type Testbed } from './bed/testbed';
import { parseResolvectlQuery } from '../shared/resolved-link';
import type { DoctorFinding } from '../shared/doctor';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: the systemd-resolved route on a booted Debian 13 host (${why})`);
const dnsproxyMissing = why ? null : await engineMissing('dnsproxy');
if (dnsproxyMissing) console.warn(`skipped: the systemd-resolved route with --engine adguard (${dnsproxyMissing})`);

/** The "external" nameserver of this host: its own address, so its query log is only this host's. */
const EXTERNAL = '192.0.2.54';
const CLUSTER_NAME = 'kubernetes.default.svc.cluster.local';
const KUBERNETES_IP = '172.21.0.1';
const SWITCH_CIDR = `${TESTBED_ADDRESSES.kubeSwitch}/24`;
const NSSWITCH = 'passwd: files\ngroup: files\nshadow: files\nhosts: files resolve [!UNAVAIL=return] dns\n';
const COMPANIONS = ['k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-resolved.service'];

/** The uplink's link DNS, as NetworkManager sets it on a real uplink (the bed's uplink is the veth peer of k2s-proxy0, so it goes with it). */
async function setUplinkDns(h: DebianHost): Promise<void> {
  const set = await h.sh(`resolvectl dns ${UPSTREAM_LINK} ${EXTERNAL} && resolvectl domain ${UPSTREAM_LINK} example.test`);
  expect(set.code, set.stderr).toBe(0);
}

/** resolvectl query of the cluster name until it answers on k2s-proxy0 or `deadlineMs` passes; the ms it took, or null. */
async function waitResolvedAnswers(h: DebianHost, deadlineMs = 20_000): Promise<number | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < deadlineMs) {
    const rq = await h.run(['resolvectl', 'query', '-4', '--legend=no', '--cache=no', CLUSTER_NAME], { timeoutMs: 10_000 });
    if (rq.code === 0 && parseResolvectlQuery(rq.stdout).some((a) => a.address === KUBERNETES_IP && a.link === KUBESWITCH_LINK)) return Date.now() - t0;
    // A link without the route answers at once ("No appropriate name servers"): pace the retries.
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function doctorRoute(h: DebianHost): Promise<{ code: number | null; finding: DoctorFinding | undefined }> {
  const d = await hostCli(h, ['doctor', '--json']);
  const findings = JSON.parse(d.stdout) as DoctorFinding[];
  return { code: d.code, finding: findings.find((f) => f.id === 'resolved-route') };
}

/** What the kernel and K2s's network service do when it restarts: k2s-proxy0 deleted (the bed's veth peer with it), created, the KubeSwitch address last. */
async function recreateKubeSwitchLink(): Promise<void> {
  await runCmd('ip', ['link', 'del', KUBESWITCH_LINK]);
  await runCmd('ip', ['link', 'add', KUBESWITCH_LINK, 'type', 'veth', 'peer', 'name', UPSTREAM_LINK]);
  for (const link of [KUBESWITCH_LINK, UPSTREAM_LINK]) await runCmd('ip', ['link', 'set', link, 'up']);
  for (const cidr of [`${TESTBED_ADDRESSES.upstream}/32`, `${EXTERNAL}/32`]) await runCmd('ip', ['addr', 'add', cidr, 'dev', UPSTREAM_LINK]);
  await runCmd('ip', ['addr', 'add', SWITCH_CIDR, 'dev', KUBESWITCH_LINK]);
}

/** Names of cluster zones the external nameserver was asked (dnsmasq `query[TYPE] NAME from`). */
async function leakedClusterNames(external: DnsmasqServer): Promise<string[]> {
  const log = await readFile(external.logFile, 'utf8');
  return [...log.matchAll(/query\[\w+\] (\S+) from/g)].map((m) => m[1]!.toLowerCase().replace(/\.$/, '')).filter((n) => /(^|\.)(cluster\.local|20\.172\.in-addr\.arpa|21\.172\.in-addr\.arpa)$/.test(n));
}

describe.each(PROXY_ENGINES.map((e) => [e]))('the systemd-resolved route on Debian 13 with NetworkManager (%s engine)', (engine: ProxyEngine) => {
  const skip = why !== null || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;
  let h: DebianHost;
  let external: DnsmasqServer;
  let addedExternal = false;
  let before: Awaited<ReturnType<typeof resolverPicture>>;

  beforeAll(async () => {
    if (skip) return;
    tb = await startTestbed();
    await runCmd('ip', ['addr', 'add', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]);
    addedExternal = true;
    external = await startDnsmasq({ listenAddress: EXTERNAL, port: 53, records: UPSTREAM_RECORDS, localTtl: 60, logQueries: true });
    h = await createDebianHost({
      enable: ['systemd-resolved.service', 'NetworkManager.service'],
      files: {
        '/etc/resolv.conf': { symlink: '../run/systemd/resolve/stub-resolv.conf' },
        '/etc/nsswitch.conf': NSSWITCH,
        '/root/.kube/config': await readFile(tb.kubeconfigPath, 'utf8'),
        // The bed's other suites keep NetworkManager off every link; here it runs as Debian ships it.
        '/etc/NetworkManager/conf.d/90-k2s-bed.conf': '# emptied: NetworkManager with Debian 13 defaults\n',
      },
    });
    await h.boot();
    await h.waitRunning(120_000);
    await setUplinkDns(h);
    before = await resolverPicture(h);
    const nm = await h.sh(`NetworkManager --version; nmcli -g GENERAL.STATE device show ${KUBESWITCH_LINK}`);
    console.log(`resolved-route (${engine}): NetworkManager ${nm.stdout.trim().replace(/\n/g, ', k2s-proxy0: ')}`);
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await external?.stop();
    if (addedExternal) await runCmd('ip', ['addr', 'del', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]).catch(() => undefined);
    await tb?.stop();
  }, 120_000);

  it.skipIf(skip)('k2s-proxy0 deleted and created again: the route is back by itself once the address is, doctor says so; reverted by hand doctor says error with the fix, which works; stop restores', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await isActive(h, 'k2s-dnsproxy-resolved.service')).toBe('active');
    expect(await waitResolvedAnswers(h, 5_000)).not.toBeNull();
    const nmBefore = (await h.run(['nmcli', '-g', 'GENERAL.STATE', 'device', 'show', KUBESWITCH_LINK])).stdout.trim();

    await recreateKubeSwitchLink();
    const t0 = Date.now();
    await setUplinkDns(h);
    const ms = await waitResolvedAnswers(h);
    expect(ms, (await h.run(['journalctl', '-u', 'k2s-dnsproxy-resolved', '--no-pager'])).stdout).not.toBeNull();
    const latency = Date.now() - t0;
    expect(latency).toBeLessThan(10_000);
    // nss-resolve (glibc through the nsswitch line) and each source on its own.
    expect((await h.run(['getent', '-s', 'resolve', 'hosts', CLUSTER_NAME], { timeoutMs: 20_000 })).stdout.split(/\s+/)[0]).toBe(KUBERNETES_IP);
    expect((await h.run(['getent', 'ahostsv4', CLUSTER_NAME], { timeoutMs: 20_000 })).stdout.split(/\s+/)[0]).toBe(KUBERNETES_IP);
    expect((await h.run(['dig', '+short', '+time=2', '+tries=2', '@127.0.0.53', CLUSTER_NAME])).stdout.trim()).toBe(KUBERNETES_IP);
    const linkStatus = (await h.run(['resolvectl', 'status', KUBESWITCH_LINK, '--no-pager'])).stdout;
    expect(linkStatus).toMatch(/DNS Servers: 172\.19\.1\.1\n/);
    expect(linkStatus).toMatch(/Default Route: no/);
    const ok = await doctorRoute(h);
    expect(ok.finding, JSON.stringify(ok.finding)).toMatchObject({ severity: 'ok', title: 'systemd-resolved sends ~cluster.local ~20.172.in-addr.arpa ~21.172.in-addr.arpa to 172.19.1.1 on k2s-proxy0' });
    expect(ok.code).toBe(0);
    const nmAfter = (await h.run(['nmcli', '-g', 'GENERAL.STATE', 'device', 'show', KUBESWITCH_LINK])).stdout.trim();
    // NetworkManager (Debian defaults) took the re-created veth for a new Ethernet link and runs
    // its generated DHCP connection on it: doctor names it, and the user's fix keeps K2s's address.
    const nm = (JSON.parse((await hostCli(h, ['doctor', '--json'])).stdout) as DoctorFinding[]).find((f) => f.id === 'networkmanager-kubeswitch');
    expect(nm, JSON.stringify(nm)).toMatchObject({ severity: 'warn', title: expect.stringMatching(/^NetworkManager runs DHCP on k2s-proxy0 \(connection "Wired connection \d+"\)$/) });
    expect((await h.run(['nmcli', 'device', 'set', KUBESWITCH_LINK, 'managed', 'no'])).code).toBe(0);
    expect(await runCmd('ip', ['-o', '-4', 'addr', 'show', 'dev', KUBESWITCH_LINK])).toContain(` ${SWITCH_CIDR} `);
    expect((JSON.parse((await hostCli(h, ['doctor', '--json'])).stdout) as DoctorFinding[]).find((f) => f.id === 'networkmanager-kubeswitch')).toMatchObject({ severity: 'ok', title: expect.stringMatching(new RegExp(`^NetworkManager leaves ${KUBESWITCH_LINK} alone `)) });
    expect(await waitResolvedAnswers(h, 5_000)).not.toBeNull();

    // Missing (its unit stopped, the link reverted): doctor says error with the fix, and the fix works.
    expect((await h.sh(`systemctl stop k2s-dnsproxy-resolved && resolvectl revert ${KUBESWITCH_LINK}`)).code).toBe(0);
    const missing = await doctorRoute(h);
    expect(missing.code).toBe(1);
    expect(missing.finding).toMatchObject({ severity: 'error', title: 'systemd-resolved route on k2s-proxy0 missing' });
    expect(missing.finding!.meaning).toContain('k2s-dnsproxy-resolved.service is inactive');
    expect(missing.finding!.fix).toContain('systemctl restart k2s-dnsproxy-resolved');
    expect((await h.run(['systemctl', 'restart', 'k2s-dnsproxy-resolved'])).code).toBe(0);
    expect(await waitResolvedAnswers(h)).not.toBeNull();
    expect(await leakedClusterNames(external)).toEqual([]);

    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
    for (const u of COMPANIONS) expect(await isActive(h, u), u).not.toBe('active');
    const after = await resolverPicture(h);
    expect(after.etc).toBe(before.etc);
    expect(after.status).toBe(before.status);
    expect(after.uplink).toBe(before.uplink);
    console.log(`resolved-route (${engine}): link re-created → resolvectl answers on k2s-proxy0 ${latency} ms after the address was added; NetworkManager k2s-proxy0 ${nmBefore} → ${nmAfter}; no cluster name at the external nameserver`);
  }, 180_000);

  it.skipIf(skip)('a reboot while running, the KubeSwitch address added after boot: the route comes up by itself; stop restores', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    await h.poweroff();
    await runCmd('ip', ['addr', 'del', SWITCH_CIDR, 'dev', KUBESWITCH_LINK]);
    let latency = -1;
    try {
      await h.boot();
      await h.waitRunning(120_000);
      await setUplinkDns(h);
      expect(await isActive(h, 'k2s-dnsproxy-resolved.service')).toBe('active');
      // No address yet: nothing to route to, and doctor says what is missing.
      expect((await doctorRoute(h)).finding).toMatchObject({ severity: 'error' });
      await runCmd('ip', ['addr', 'add', SWITCH_CIDR, 'dev', KUBESWITCH_LINK]);
      const t0 = Date.now();
      expect(await waitResolvedAnswers(h), (await h.run(['journalctl', '-b', '-u', 'k2s-dnsproxy-resolved', '--no-pager'])).stdout).not.toBeNull();
      latency = Date.now() - t0;
      expect(latency).toBeLessThan(10_000);
      expect((await h.run(['getent', '-s', 'resolve', 'hosts', CLUSTER_NAME], { timeoutMs: 20_000 })).stdout.split(/\s+/)[0]).toBe(KUBERNETES_IP);
      expect((await doctorRoute(h)).finding).toMatchObject({ severity: 'ok' });
    } finally {
      const addrs = await runCmd('ip', ['-o', 'addr', 'show', 'dev', KUBESWITCH_LINK]);
      if (!addrs.includes(` ${TESTBED_ADDRESSES.kubeSwitch}/`)) await runCmd('ip', ['addr', 'add', SWITCH_CIDR, 'dev', KUBESWITCH_LINK]);
    }
    expect(await leakedClusterNames(external)).toEqual([]);
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
    const after = await resolverPicture(h);
    expect(after.etc).toBe(before.etc);
    expect(after.status).toBe(before.status);
    expect(after.uplink).toBe(before.uplink);
    console.log(`resolved-route (${engine}): after a reboot resolvectl answers on k2s-proxy0 ${latency} ms after the address was added`);
  }, 240_000);

  it.skipIf(skip)("K2s's own CLI removes only k2s-dnsproxy.service: the companion units stop with it and start neither by hand nor at the next boot", async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    for (const u of COMPANIONS) expect(await isActive(h, u), u).toBe('active');
    const removed = await h.sh('systemctl disable --now k2s-dnsproxy.service && rm /etc/systemd/system/k2s-dnsproxy.service && systemctl daemon-reload');
    expect(removed.code, removed.stderr).toBe(0);
    for (const u of COMPANIONS) {
      expect(await isActive(h, u), u).toBe('inactive');
      const byHand = await h.run(['systemctl', 'start', u]);
      expect(byHand.code, u).not.toBe(0);
      expect(byHand.stderr).toContain('Unit k2s-dnsproxy.service not found');
    }
    await h.reboot();
    for (const u of COMPANIONS) expect(await isActive(h, u), u).toBe('inactive');
    // k2s-dns still holds the saved original: its stop restores it (the unit is gone already).
    await setUplinkDns(h);
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
    const after = await resolverPicture(h);
    expect(after.etc).toBe(before.etc);
    expect(after.status).toBe(before.status);
    console.log(`resolved-route (${engine}): after K2s's removal of k2s-dnsproxy.service no companion ran, by hand or after a reboot`);
  }, 240_000);
});
