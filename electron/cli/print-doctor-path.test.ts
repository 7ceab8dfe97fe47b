import { afterEach, describe, expect, it } from 'vitest';
import { startDns } from '../core/lifecycle/start';
import { makeTestHost } from '../../e2e/support/test-deps';
import { runDoctor } from '../core/doctor/run-doctor';
import type { HealthHop } from '../../shared/health';
import { formatDoctor, wrapText } from './print-doctor';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

describe("doctor's CoreDNS-down error reads in short lines (walk 16)", () => {
  it('the finding first, then a wrapped why: with one hop per line, the CD bit said once; --json keeps each full reason', async () => {
    const h = await makeTestHost();
    hosts.push(h);
    expect((await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' }, () => undefined)).ok).toBe(true);
    const query = h.deps.query;
    // CoreDNS down; the proxy's first reply to the probe is dnsproxy's merged bare NOERROR, its re-ask SERVFAIL.
    h.deps.query = async (q) => (q.server.startsWith('172.21.0.10') ? { ...(await query(q)), rcode: 'TIMEOUT', answers: [], error: 'no reply in 1500 ms', latencyMs: 1500 } : q.server.startsWith('127.0.0.1') ? { ...(await query(q)), rcode: 'SERVFAIL', answers: [], recheck: { rcode: 'NOERROR', latencyMs: 4 } } : query(q));
    h.world.systemAnswer = null;
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const text = formatDoctor(findings);
    const block = text.split('\n\n')[1]!.split('\n');
    expect(block[0]).toBe('ERROR  Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer (no reply in 1500 ms)');
    expect(block[1]).toBe('       why: The path of kubernetes.default.svc.cluster.local, hop by hop:');
    expect(block.filter((l) => /^ {9}[✓✗!–] /.test(l)).map((l) => l.trim().split(' (')[0]!.split(':')[0])).toEqual([
      '✗ host apps',
      '✓ /etc/resolv.conf',
      '✗ k2s-dnsproxy on 127.0.0.1',
      '– k2s-dnsproxy on 172.19.1.1',
      '✗ CoreDNS',
      '✓ upstream 192.0.2.53',
    ]);
    // The title (the finding) is one line; the why: paragraph under it is wrapped.
    expect(block.slice(1).filter((l) => !l.includes('fix: ')).every((l) => l.length <= 100)).toBe(true);
    expect(text.match(/CD bit/g)).toHaveLength(1);
    expect(block.some((l) => l.startsWith('       details: a first reply with no record and no SOA is what AdGuard dnsproxy sends'))).toBe(true);
    const health = findings.find((f) => f.id === 'health')!;
    const hops = (health.detail as { hops: HealthHop[] }).hops;
    expect(hops.find((x) => x.id === 'listener:127.0.0.1:53')!.reason).toContain('(CD bit: not merged, not from the cache): SERVFAIL');
  });

  it('wrapText breaks at spaces within 100 columns and leaves a line with a command whole', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const lines = wrapText(words, '  ', '    ');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(words);
    expect(wrapText(`run \`${words}\``, '  ', '    ')).toEqual([`  run \`${words}\``]);
  });
});
