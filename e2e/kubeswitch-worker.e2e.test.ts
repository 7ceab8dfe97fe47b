/**
 * KubeSwitch from a worker: a second network namespace on 172.19.1.0/24 (a future Linux or
 * Windows worker node in K2s) asks the K2s proxy on 172.19.1.1:53 over UDP and TCP. Cluster
 * names and PTRs come from CoreDNS, external names and the LAN PTR from the original
 * nameserver — for both proxy engines. The worker (172.19.1.50) is a private client, so
 * dnsproxy's private-rDNS path serves it (docs/engines.md "Private PTR").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineArgs, engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { clusterLanChecks, digIn, parseDig } from './bed/cluster-lan-checks';
import { startTestbed, type Testbed, type Worker } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: KubeSwitch worker e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped: KubeSwitch worker with --engine adguard (${dnsproxyMissing})`);

describe.skipIf(!inSandbox)('KubeSwitch worker → 172.19.1.1:53', () => {
  let tb: Testbed;
  let worker: Worker;
  beforeAll(async () => {
    tb = await startTestbed();
    worker = await tb.addWorker();
  });
  afterEach(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
  });
  afterAll(async () => {
    await tb?.stop();
  });

  // A missing dnsproxy skips its case (reported as skipped, never as passed).
  for (const engine of PROXY_ENGINES as readonly ProxyEngine[]) it.skipIf(engine === 'adguard' && !!dnsproxyMissing)(`${engine}: cluster names via CoreDNS, external names and the LAN PTR via the original nameserver, UDP and TCP`, async () => {
    const before = await tb.snapshotResolver();
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const dig = digIn(worker);
    for (const transport of ['udp', 'tcp'] as const) {
      const a = await dig({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '172.19.1.1', transport });
      expect(a).toMatchObject({ rcode: 'NOERROR', answers: [{ data: '172.21.0.1' }] });
      const nx = await dig({ name: 'nope.default.svc.cluster.local', type: 'A', server: '172.19.1.1', transport });
      expect(nx.rcode).toBe('NXDOMAIN');
    }
    // Different ClusterIPs per transport: the proxy's cache must not hide the trip to CoreDNS.
    await clusterLanChecks(tb, '172.19.1.1', 'udp', '172.21.14.7', dig);
    await clusterLanChecks(tb, '172.19.1.1', 'tcp', '172.21.0.1', dig);
    expect((await k2sDns(['stop', '--json'])).code).toBe(0);
    expect(await tb.snapshotResolver()).toEqual(before);
    // Proxy gone: the worker's query gets no answer.
    const after = await dig({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '172.19.1.1', transport: 'udp' });
    expect(after.rcode).not.toBe('NOERROR');
  });

  it('parseDig reads the status and answers the way queryDns reports them', () => {
    const out = [
      ';; Got answer:',
      ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 4711',
      ';; flags: qr rd ra; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1',
      '',
      '20.1.168.192.in-addr.arpa. 60\tIN\tPTR\tprinter.example.test.',
      '',
    ].join('\n');
    expect(parseDig(out)).toEqual({ rcode: 'NOERROR', answers: [{ ttl: 60, data: 'printer.example.test' }] });
  });
});
