/**
 * `k2s-dns query --server coredns` on a host where no start discovered the cluster's kube-dns
 * address asks K2s's default 172.21.0.10 and says it is a guess (new-user walk: it asked it as if
 * known); once a start saved the discovered address, that one is asked and no guess is said.
 * The test bed's CoreDNS answers on 172.21.0.10 in its namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: query-coredns-guess e2e runs only inside e2e/bed/sandbox.sh (as root)');

const NAME = 'kubernetes.default.svc.cluster.local';

describe.skipIf(!inSandbox)('k2s-dns query --server coredns says when its address is a guess', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
    await tb.setResolvLayout('file');
  }, 120_000);
  afterAll(async () => {
    if (tb) await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  });

  it('no start yet: the answer from 172.21.0.10, then the line that it is K2s\'s default, a guess', async () => {
    const r = await k2sDns(['query', NAME, '--server', 'coredns']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^;; kubernetes\.default\.svc\.cluster\.local A via 172\.21\.0\.10:53 \(udp\): NOERROR in [\d.]+ ms$/);
    expect(r.stdout).toContain('172.21.0.1');
    expect(lines.at(-1)).toMatch(/^;; 172\.21\.0\.10 is K2s's default kube-dns address, a guess: no K2s DNS state is saved on this host \(a start saves the address it discovers, a stop removes it\); (?:npx )?k2s-dns zones shows the cluster's own \(--server IP asks another\)\.$/);
    expect(r.code).toBe(0);
  });

  it('after a start: the address it discovered, and no guess said; --json never carries the line', async () => {
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    const r = await k2sDns(['query', NAME, '--server', 'coredns']);
    expect(r.stdout).toMatch(/^;; kubernetes\.default\.svc\.cluster\.local A via 172\.21\.0\.10:53 \(udp\): NOERROR in [\d.]+ ms\n/);
    expect(r.stdout).not.toContain('a guess');
    const json = await k2sDns(['query', NAME, '--server', 'coredns', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ rcode: 'NOERROR', server: '172.21.0.10:53' });
  });
});
