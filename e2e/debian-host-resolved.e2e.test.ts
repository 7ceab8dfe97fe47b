/**
 * systemd-resolved on a booted Debian 13 host (e2e/bed/debian-host.ts, systemd 257 with its real
 * systemd-resolved), both engines, three layouts × two nsswitch lines:
 * - link DNS: the external nameserver on a link (`resolvectl dns`, as NetworkManager sets it), /etc/resolv.conf → stub-resolv.conf;
 * - global DNS=: the nameserver in a resolved.conf drop-in of the site (cloud images), stub-resolv.conf;
 * - DNSStubListener=no: link DNS, /etc/resolv.conf → /run/systemd/resolve/resolv.conf.
 * While K2s DNS runs every lookup path resolves the cluster (glibc through `files dns` and
 * `files resolve [!UNAVAIL=return] dns`, `getent -s` per source, the 127.0.0.53 stub where it
 * listens, `resolvectl query`, each nameserver of /etc/resolv.conf asked directly as Go does),
 * the external nameserver's query log never sees a cluster name, no file kubelet may use names
 * a loopback address, and doctor agrees; after stop `resolvectl status` and /etc/resolv.conf
 * are byte-identical to before.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDebianHost, debianHostMissing, type DebianHost, type DiskFile } from './bed/debian-host';
import { hostCli, hostStartArgs } from './bed/debian-host-cli';
import { resolverPicture } from './support/resolver-picture';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { UPSTREAM_LINK } from './bed/netns-links';
import { runCmd } from './bed/run-cmd';
import { startTestbed, UPSTREAM_RECORDS, type Testbed } from './bed/testbed';
import { loopbackNameservers, parseResolvectlQuery } from '../shared/resolved-link';
import { parseResolvConf } from '../shared/resolv-conf';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: systemd-resolved layouts on a booted Debian 13 host (${why})`);
const dnsproxyMissing = why ? null : await engineMissing('dnsproxy');
if (dnsproxyMissing) console.warn(`skipped: systemd-resolved layouts with --engine adguard (${dnsproxyMissing})`);

/** The "external" nameserver of these hosts: its own address, so its query log is only theirs. */
const EXTERNAL = '192.0.2.54';
const CLUSTER_NAME = 'kubernetes.default.svc.cluster.local';
const KUBERNETES_IP = '172.21.0.1';
const KUBEADM_KUBELET_CONFIG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nresolvConf: /run/systemd/resolve/resolv.conf\n';
const NSSWITCH = {
  'files dns': 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\n',
  'files resolve [!UNAVAIL=return] dns': 'passwd: files\ngroup: files\nshadow: files\nhosts: files resolve [!UNAVAIL=return] dns\n',
} as const;

interface Layout {
  name: string;
  files: Record<string, DiskFile>;
  /** Link DNS, set after boot as NetworkManager would (resolvectl), or none. */
  linkDns: boolean;
  stub: boolean;
}
const STUB_LINK = { symlink: '../run/systemd/resolve/stub-resolv.conf' };
const LAYOUTS: Layout[] = [
  { name: 'link DNS', files: { '/etc/resolv.conf': STUB_LINK }, linkDns: true, stub: true },
  { name: 'global DNS= in resolved.conf', files: { '/etc/resolv.conf': STUB_LINK, '/etc/systemd/resolved.conf.d/50-site.conf': `[Resolve]\nDNS=${EXTERNAL}\n` }, linkDns: false, stub: true },
  {
    name: 'DNSStubListener=no',
    files: { '/etc/resolv.conf': { symlink: '../run/systemd/resolve/resolv.conf' }, '/etc/systemd/resolved.conf.d/50-site.conf': '[Resolve]\nDNSStubListener=no\n' },
    linkDns: true,
    stub: false,
  },
];

const cases = PROXY_ENGINES.flatMap((engine) => LAYOUTS.map((layout) => [engine, layout] as const));

describe.each(cases)('systemd-resolved on Debian 13, %s engine', (engine: ProxyEngine, layout: Layout) => {
  const skip = why !== null || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;
  let h: DebianHost;
  let external: DnsmasqServer;
  let addedExternal = false;

  beforeAll(async () => {
    if (skip) return;
    tb = await startTestbed();
    await runCmd('ip', ['addr', 'add', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]);
    addedExternal = true;
    external = await startDnsmasq({ listenAddress: EXTERNAL, port: 53, records: UPSTREAM_RECORDS, localTtl: 60, logQueries: true });
    h = await createDebianHost({
      enable: ['systemd-resolved.service'],
      files: {
        ...layout.files,
        '/etc/nsswitch.conf': NSSWITCH['files dns'],
        '/root/.kube/config': await readFile(tb.kubeconfigPath, 'utf8'),
        '/var/lib/kubelet/config.yaml': KUBEADM_KUBELET_CONFIG,
      },
    });
    await h.boot();
    const { bootMs } = await h.waitRunning();
    if (layout.linkDns) {
      const set = await h.sh(`resolvectl dns ${UPSTREAM_LINK} ${EXTERNAL} && resolvectl domain ${UPSTREAM_LINK} example.test`);
      expect(set.code, set.stderr).toBe(0);
    }
    const v = await h.versions();
    console.log(`resolved-host (${layout.name}): Debian ${v.debian}, ${v.systemd}, systemd-resolved ${v.resolved.replace(/^systemd /, '')}; booted in ${bootMs} ms`);
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await external?.stop();
    if (addedExternal) await runCmd('ip', ['addr', 'del', `${EXTERNAL}/32`, 'dev', UPSTREAM_LINK]).catch(() => undefined);
    await tb?.stop();
  }, 120_000);

  for (const nss of Object.keys(NSSWITCH) as (keyof typeof NSSWITCH)[]) {
    it.skipIf(skip)(`${layout.name}, hosts: ${nss}: every path resolves the cluster, nothing leaks, no loopback for kubelet; stop gives resolvectl status back byte for byte`, async () => {
      expect((await h.run(['sh', '-c', 'cat > /etc/nsswitch.conf'], { input: NSSWITCH[nss] })).code).toBe(0);
      const before = await resolverPicture(h);
      // Positive control: the external nameserver logs what it is asked.
      expect(await readFile(external.logFile, 'utf8')).toContain('query[A] www.example.test');

      const t0 = Date.now();
      const start = await hostCli(h, hostStartArgs(engine));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      const startMs = Date.now() - t0;
      const activate = start.events.find((e) => e.type === 'step' && e.step === 'activate' && e.status === 'done');
      expect(JSON.stringify(activate)).toContain('on k2s-proxy0 (routing-only');

      // glibc through the nsswitch line, and each DNS source of it on its own.
      const gai = await h.run(['getent', 'ahostsv4', CLUSTER_NAME], { timeoutMs: 20_000 });
      expect(gai.stdout.split('\n')[0]?.split(/\s+/)[0], gai.stderr).toBe(KUBERNETES_IP);
      for (const source of nss.includes('resolve') ? ['resolve', 'dns'] : ['dns']) {
        expect((await h.run(['getent', '-s', source, 'hosts', CLUSTER_NAME])).stdout.split(/\s+/)[0], `getent -s ${source}`).toBe(KUBERNETES_IP);
      }
      // resolved itself (what nss-resolve asks over D-Bus): answered on the K2s link.
      const rq = await h.run(['resolvectl', 'query', '-4', '--legend=no', CLUSTER_NAME]);
      expect(parseResolvectlQuery(rq.stdout), rq.stdout + rq.stderr).toEqual([{ address: KUBERNETES_IP, link: 'k2s-proxy0' }]);
      // The stub, where it listens; PTR of the cluster through it too.
      if (layout.stub) {
        expect((await h.run(['dig', '+short', '+time=2', '+tries=2', '@127.0.0.53', CLUSTER_NAME])).stdout.trim()).toBe(KUBERNETES_IP);
        expect((await h.run(['dig', '+short', '+time=2', '+tries=2', '@127.0.0.53', '-x', KUBERNETES_IP])).stdout.trim()).toBe(`${CLUSTER_NAME}.`);
      }
      // A Go-style reader: the nameservers of /etc/resolv.conf, each asked directly.
      const etcText = (await h.run(['cat', '/etc/resolv.conf'])).stdout;
      const nameservers = parseResolvConf(etcText).nameservers;
      expect(nameservers.length).toBeGreaterThan(0);
      for (const ns of nameservers) {
        expect((await h.run(['dig', '+short', '+time=2', '+tries=2', `@${ns}`, CLUSTER_NAME])).stdout.trim(), `nameserver ${ns}`).toBe(KUBERNETES_IP);
      }
      // External names still work through resolved.
      expect((await h.run(['resolvectl', 'query', '-4', '--legend=no', 'mirror.example.test'])).stdout).toContain('198.51.100.8');

      // No file kubelet may use names loopback: resolved's uplink file (kubeadm's resolvConf on
      // resolved hosts, here kubelet's effective one) never; /etc/resolv.conf only the stub.
      const uplink = (await h.run(['cat', '/run/systemd/resolve/resolv.conf'])).stdout;
      expect(loopbackNameservers(uplink), uplink).toEqual([]);
      expect(loopbackNameservers(etcText), etcText).toEqual(layout.stub ? ['127.0.0.53'] : []);
      expect((await h.run(['ls', '/etc/systemd/resolved.conf.d/'])).stdout).not.toContain('k2s');
      const status = await hostCli(h, ['status']);
      expect(status.stdout, status.stdout + status.stderr).toMatch(/^K2s DNS: running/);
      expect(status.stdout).toContain('systemd-resolved sends ~cluster.local');
      const doctor = await hostCli(h, ['doctor']);
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
      expect(doctor.stdout).not.toContain('loopback nameserver');

      // No name of a cluster zone reached the external nameserver (dnsmasq `query[TYPE] NAME from`).
      // glibc's own search-list retry after a NODATA answer (AAAA of a Service) asks for
      // `….cluster.local.example.test`, a name of the search domain's zone: that one belongs there.
      const log = await readFile(external.logFile, 'utf8');
      const asked = [...log.matchAll(/query\[\w+\] (\S+) from/g)].map((m) => m[1]!.toLowerCase().replace(/\.$/, ''));
      expect(asked.filter((n) => /(^|\.)(cluster\.local|20\.172\.in-addr\.arpa|21\.172\.in-addr\.arpa)$/.test(n))).toEqual([]);
      const searchRetries = asked.filter((n) => n.includes('.cluster.local.')).length;

      const t1 = Date.now();
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
      const stopMs = Date.now() - t1;
      const after = await resolverPicture(h);
      expect(after.etc).toBe(before.etc);
      expect(after.status).toBe(before.status);
      expect(after.uplink).toBe(before.uplink);
      console.log(`resolved-host (${engine}, ${layout.name}, ${nss}): start ${startMs} ms, stop ${stopMs} ms; /etc/resolv.conf while running: ${nameservers.join(' ')}; uplink file: ${parseResolvConf(uplink).nameservers.join(' ')}; external nameserver asked ${asked.length} names, none in a cluster zone (glibc search-list retries ${searchRetries})`);
    }, 180_000);
  }

  // Once per engine, registered for the first layout only (the other layouts report no skip):
  // systemd's own restart is reported as such.
  if (layout.name === 'link DNS') it.skipIf(skip)("while systemd restarts a failing proxy, status says 'restarting (attempt N)' with the proxy's own error; systemctl status points at the man page and host-integration.md", async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    const unitStatus = (await h.run(['systemctl', 'status', '--no-pager', 'k2s-dnsproxy.service'])).stdout;
    expect(unitStatus).toContain('Docs: man:k2s-dns(1)');
    expect(unitStatus).toContain('file:/usr/share/doc/k2s-dns/docs/host-integration.md.gz');
    // Kill the proxy and take 127.0.0.1:53 before its restart (RestartSec=1s): every attempt then fails to bind.
    const hold = await h.sh('pid=$(systemctl show -P MainPID k2s-dnsproxy); kill -9 $pid && systemd-run --unit k2s-test-holder -p Type=simple /usr/sbin/dnsmasq -k -p 53 --listen-address=127.0.0.1 --bind-interfaces --conf-file=/dev/null --user=root');
    expect(hold.code, hold.stderr).toBe(0);
    // systemd records how a run ended (ExecMainCode/ExecMainStatus) while it waits RestartSec
    // (SubState=auto-restart) and resets both when the next attempt starts (service_start() in
    // systemd's src/core/service.c; measured on 257: ExecStartPre= runs with ExecMainCode=0);
    // status then reads the exit from the journal. Status is read until it names the exit
    // (an early read may still be attempt 1), or the deadline passes; every unit state seen is kept for the failure text.
    const ASKED = /restarting \(attempt [2-9]\d*\): systemd starts it again by itself after it exited with status \d+; its log says: .*address already in use/i;
    let status = '';
    const seen = new Set<string>();
    const t0 = Date.now();
    while (Date.now() - t0 < 20_000) {
      status = (await hostCli(h, ['status'])).stdout;
      const unit = (await h.run(['systemctl', 'show', '-p', 'ActiveState,SubState,NRestarts,ExecMainCode,ExecMainStatus,Result,MainPID', 'k2s-dnsproxy.service'])).stdout;
      seen.add(`${unit.trim().split('\n').join(' ')} | ${/restarting \(attempt \d+\)[^;]*/.exec(status)?.[0] ?? 'not restarting'}`);
      if (ASKED.test(status)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const unitState = [...seen].join('\n');
    console.log(`resolved-host (${engine}): unit states seen while polling status, ${Date.now() - t0} ms:\n${unitState}`);
    expect(status, unitState).toMatch(/k2s-dnsproxy is restarting \(attempt [2-9]\d*\): systemd starts it again by itself after it exited with status \d+; its log says: .*address already in use/i);
    expect(status).not.toContain('then start');
    expect((await h.run(['systemctl', 'stop', 'k2s-test-holder'])).code).toBe(0);
    // The next attempt binds again by itself — unless the start limit (10 attempts) ran out
    // first (dnsmasq fails in milliseconds, so its 10 attempts take about 10 s): then status
    // says systemd gave up, and a start by hand brings it back.
    const t1 = Date.now();
    let active = '';
    while (Date.now() - t1 < 20_000 && (active = (await h.run(['systemctl', 'is-active', 'k2s-dnsproxy.service'])).stdout.trim()) !== 'active' && active !== 'failed') await new Promise((r) => setTimeout(r, 200));
    if (active === 'failed') {
      expect((await hostCli(h, ['status'])).stdout).toMatch(/systemd restarted k2s-dnsproxy 10 times and stopped \(its start limit\)/);
      expect((await h.sh('systemctl reset-failed k2s-dnsproxy.service && systemctl start k2s-dnsproxy.service')).code).toBe(0);
    }
    expect((await h.run(['dig', '+short', '+time=2', '+tries=3', '@127.0.0.1', CLUSTER_NAME])).stdout.trim()).toBe(KUBERNETES_IP);
    console.log(`resolved-host (${engine}): restart reported as such; ${active === 'failed' ? 'systemd gave up after 10 attempts (reported), started by hand' : `recovered by itself ${Date.now() - t1} ms after the port was free`}`);
    expect((await hostCli(h, ['stop', '--json'])).result).toMatchObject({ ok: true });
  }, 120_000);
});
