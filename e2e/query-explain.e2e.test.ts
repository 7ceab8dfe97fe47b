/**
 * `k2s-dns query` explains an NXDOMAIN for a relative name with the host's real search list and
 * ndots (resolv.conf(5)): the test bed's original says `search example.test` (ndots 1 by
 * default), K2s DNS runs, and each candidate glibc asks is asked for real at the same target
 * and printed with its rcode; a `.svc` name gets the hint that the cluster zone is
 * svc.cluster.local and the search list decides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: query-explain e2e runs only inside e2e/bed/sandbox.sh (as root)');

describe.skipIf(!inSandbox)('k2s-dns query explains NXDOMAIN for short and .svc names', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
    await tb.setResolvLayout('file');
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
  }, 120_000);
  afterAll(async () => {
    if (tb) await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  });

  it('kubernetes.default via the system resolver: asked as it is, then with example.test; both NXDOMAIN', async () => {
    const r = await k2sDns(['query', 'kubernetes.default']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^;; kubernetes\.default A via system \(getaddrinfo\): NXDOMAIN in [\d.]+ ms$/);
    expect(lines[1]).toBe(';; error: EAI_NONAME: the nameserver says the name does not exist');
    expect(lines.slice(2)).toEqual([
      ';; /etc/resolv.conf has search example.test, glibc\'s default ndots:1 (resolv.conf(5)), so glibc asks for kubernetes.default, in order:',
      ';;   1. kubernetes.default → NXDOMAIN',
      ';;   2. kubernetes.default.example.test → NXDOMAIN',
      ';; None of them resolves: the search list has no domain under which kubernetes.default exists. Cluster names need their full form here, e.g. kubernetes.default.svc.cluster.local.',
    ]);
    expect(r.code).toBe(0);
  });

  it('example.com via the system resolver: an Internet name that does not exist, with no cluster form suggested (walk 18 M3)', async () => {
    const r = await k2sDns(['query', 'example.com']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^;; example\.com A via system \(getaddrinfo\): NXDOMAIN in [\d.]+ ms$/);
    expect(lines.at(-1)).toBe(';; None of them resolves: the search list has no domain under which example.com exists. example.com is an Internet name (under the public suffix .com), not a cluster one, and the nameserver says it does not exist (NXDOMAIN).');
    expect(r.stdout).not.toContain('svc.cluster.local');
  });

  it('web.demo.svc through the proxy, --json: the candidates with their real rcodes and the .svc hint', async () => {
    const r = await k2sDns(['query', 'web.demo.svc', '--server', 'proxy', '--json']);
    const j = JSON.parse(r.stdout) as { rcode: string; searchList: { search: string[]; ndots: number; candidates: { name: string; rcode: string; answers: string[] }[]; lines: string[] } };
    expect(j.rcode).toBe('NXDOMAIN');
    expect(j.searchList).toMatchObject({ search: ['example.test'], ndots: 1 });
    expect(j.searchList.candidates).toEqual([
      { name: 'web.demo.svc', rcode: 'NXDOMAIN', answers: [] },
      { name: 'web.demo.svc.example.test', rcode: 'NXDOMAIN', answers: [] },
    ]);
    expect(j.searchList.lines.at(-1)).toBe('web.demo.svc ends in .svc, but the cluster zone is svc.cluster.local: the name resolves only through a search list with cluster.local (pods get "search <namespace>.svc.cluster.local svc.cluster.local cluster.local" from kubelet), and this host\'s search list (example.test) has not — ask web.demo.svc.cluster.local, or add cluster.local to the search list.');
    // The full name the hint gives resolves through the same proxy.
    const full = await k2sDns(['query', 'web.demo.svc.cluster.local', '--server', 'proxy', '--json']);
    expect(JSON.parse(full.stdout)).toMatchObject({ rcode: 'NOERROR', answers: [{ data: '172.21.14.7' }] });
  });

  it('an answered name gets no explanation', async () => {
    const r = await k2sDns(['query', 'kubernetes.default.svc.cluster.local']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stdout).not.toContain('glibc asks');
  });
});
