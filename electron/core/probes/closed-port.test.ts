/**
 * Walk 6 L3: with nothing listening on a loopback port, getaddrinfo's hop said "refused in 5 ms …
 * refuses: nothing listens on its port (ICMP port unreachable)" while the listener and upstream probes of the same run said
 * "TIMEOUT in 1500 ms — … did not answer in 1500 ms". The probes' UDP socket is connected now, so
 * the ICMP port unreachable comes back as ECONNREFUSED at once; every probe says the same words.
 * Real sockets on 127.0.0.1 (a port bound, then closed, so nothing listens there).
 */
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { hopGot, queryHop } from '../../../shared/health';
import { hopLine } from '../doctor/health';
import { queryDns } from './dns-query';
import { probeLookup } from './probe-lookup';

/** A UDP port on 127.0.0.1 that nothing listens on: bound by the kernel's choice, then closed. */
async function closedUdpPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', () => resolve()));
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('a UDP probe of a closed loopback port', () => {
  it('is refused at once (ERROR, port unreachable), not a TIMEOUT at the deadline', async () => {
    const port = await closedUdpPort();
    const r = await queryDns({ name: 'KUBERNETES.DEFAULT.svc.cluster.local', type: 'A', server: `127.0.0.1:${port}`, timeoutMs: 1500 });
    expect(r.rcode).toBe('ERROR');
    expect(r.error).toBe(`127.0.0.1:${port} refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)`);
    // Generous for a loaded 2-core host; a timeout would be 1500.
    expect(r.latencyMs).toBeLessThan(750);
  });

  it("as a listener hop: `refused`, in the same words as getaddrinfo's hop", async () => {
    const port = await closedUdpPort();
    const r = await queryDns({ name: 'KUBERNETES.DEFAULT.svc.cluster.local', type: 'A', server: `127.0.0.1:${port}`, timeoutMs: 1500 });
    const hop = queryHop(`listener:127.0.0.1:${port}`, 'listener', r);
    expect(hop.outcome).toBe('unreachable');
    expect(hop.reason).toBe(`127.0.0.1:${port} refuses: nothing listens on its port (ICMP port unreachable)`);
    expect(hopGot(hop)).toBe('refused');
    expect(hopLine(hop)).toBe(`k2s-dnsproxy on 127.0.0.1:${port}: does not answer (refused: port unreachable)`);
    // An upstream hop (any reply counts there) reads the same.
    const up = queryHop('upstream:0', 'upstream', r, false);
    expect(hopLine(up)).toMatch(/: does not answer \(refused: port unreachable\)$/);
  });

  it("getaddrinfo's probe asks the file's nameserver again through the same socket kind: refused at once, one wording", async () => {
    const port = await closedUdpPort();
    // getent failed at once (exit 2, as glibc does on the refusal); the file's nameserver is the closed port.
    const started = performance.now();
    const r = await probeLookup('KUBERNETES.DEFAULT.svc.cluster.local', 4000, {
      exec: { run: async () => ({ code: 2, stdout: '', stderr: '' }) },
      query: (q) => queryDns({ ...q, server: `127.0.0.1:${port}` }),
      resolvConfText: async () => 'nameserver 127.0.0.1\n',
    });
    expect(r.rcode).toBe('TIMEOUT');
    expect(r.error).toBe('getaddrinfo gave up at once (EAI_AGAIN): 127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable)');
    // No second, longer question: a refusal is final (before: 500 ms, then 1500 ms more of silence).
    expect(performance.now() - started).toBeLessThan(750);
    const hop = queryHop('system', 'system', r);
    expect(hopLine(hop)).toMatch(/^host apps \(getaddrinfo\): refused in \d+ ms — getaddrinfo gave up at once \(EAI_AGAIN\): 127\.0\.0\.1:53 refuses: nothing listens on its port \(ICMP port unreachable\)$/);
  });
});
