import { describe, expect, it } from 'vitest';
import { queryHop } from '../../../shared/health';
import { hopLine } from './health';

describe('hopLine of an upstream', () => {
  it('an upstream answering NXDOMAIN says it was asked the root zone NS, never leaving the cluster name to be guessed (walk low), and that it answers (walk15)', () => {
    const up = queryHop('upstream:10.255.255.53:53', 'upstream', { name: '.', type: 'NS', server: '10.255.255.53:53', transport: 'udp', rcode: 'NXDOMAIN', answers: [], latencyMs: 15 }, false);
    expect(hopLine(up)).toBe('upstream 10.255.255.53:53: NXDOMAIN for . (the root zone) NS in 15 ms: it answers; a local-only or split-horizon resolver need not serve the root zone');
  });

  it('an upstream answering SERVFAIL for the root zone may not resolve Internet names', () => {
    const up = queryHop('upstream:10.255.255.53:53', 'upstream', { name: '.', type: 'NS', server: '10.255.255.53:53', transport: 'udp', rcode: 'SERVFAIL', answers: [], latencyMs: 15 }, false);
    expect(hopLine(up)).toBe('upstream 10.255.255.53:53: SERVFAIL for . (the root zone) NS in 15 ms: it answers, but a working recursive resolver answers that NOERROR (RFC 1034 §4.3.1), so it may not resolve Internet names');
  });

  it('an upstream answering NOERROR is its answers, nothing more', () => {
    const up = queryHop('upstream:192.0.2.53:53', 'upstream', { name: '.', type: 'NS', server: '192.0.2.53:53', transport: 'udp', rcode: 'NOERROR', answers: [{ name: '.', type: 'NS', ttl: 60, data: 'a.root-servers.net' }], latencyMs: 4 }, false);
    expect(hopLine(up)).toBe('upstream 192.0.2.53:53: a.root-servers.net in 4 ms');
  });
});

describe('hopLine of a quick refusal (walk 12 L3)', () => {
  const gai = (error?: string, latencyMs = 9) =>
    queryHop('system', 'system', { name: 'kubernetes.default.svc.cluster.local', type: 'A', server: 'system', transport: 'udp', rcode: 'TIMEOUT', answers: [], latencyMs, ...(error ? { error } : {}) });

  it('says "refused in 9 ms" once: the reason keeps only the error after it, its parentheses whole', () => {
    const h = gai('getaddrinfo gave up at once (EAI_AGAIN): 127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable)');
    // The reason stands alone elsewhere (the drift dialog's "does not answer now (…)"), so it keeps its own words.
    expect(h.reason).toBe('getaddrinfo was refused in 9 ms (getaddrinfo gave up at once (EAI_AGAIN): 127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable))');
    expect(hopLine(h)).toBe('host apps (getaddrinfo): refused in 9 ms — getaddrinfo gave up at once (EAI_AGAIN): 127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable)');
  });

  it('without an error: the line ends at the refusal', () => {
    expect(hopLine(gai())).toBe('host apps (getaddrinfo): refused in 9 ms');
  });

  it('a real timeout keeps its reason whole', () => {
    expect(hopLine(gai('EAI_AGAIN: temporary failure', 1500))).toBe('host apps (getaddrinfo): TIMEOUT in 1500 ms — getaddrinfo did not answer in 1500 ms (EAI_AGAIN: temporary failure)');
  });
});

describe('hopLine of a DNS server that does not answer (new user, session 30)', () => {
  const q = (server: string, rcode: string, latencyMs: number, error?: string) => ({ name: 'kubernetes.default.svc.cluster.local', type: 'A' as const, server, transport: 'udp' as const, rcode, answers: [], latencyMs, ...(error ? { error } : {}) });

  it('one closed upstream port: no "refused … nothing answers" contradiction', () => {
    const up = queryHop('upstream:192.0.2.53:53', 'upstream', { ...q('192.0.2.53:53', 'ERROR', 5, '192.0.2.53:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)'), name: '.', type: 'NS' }, false);
    expect(hopLine(up)).toBe('upstream 192.0.2.53:53: does not answer (refused: port unreachable)');
    expect(up.reason).toBe('192.0.2.53:53 refuses: nothing listens on its port (ICMP port unreachable)');
  });

  it('the same CoreDNS outage read refused (status) and silent (doctor, ICMP rate-limited) names one cause, as the verdict does, and says the detail varies', () => {
    const refused = hopLine(queryHop('kube-dns', 'kube-dns', q('172.21.0.10:53', 'ERROR', 2, '172.21.0.10:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)')));
    const silent = hopLine(queryHop('kube-dns', 'kube-dns', q('172.21.0.10:53', 'TIMEOUT', 1501)));
    expect(refused).toBe('CoreDNS (kube-dns 172.21.0.10:53): does not answer (refused: port unreachable; refused or no reply varies run to run: the kernel rate-limits ICMP)');
    expect(silent).toBe('CoreDNS (kube-dns 172.21.0.10:53): does not answer (no reply in 1501 ms; refused or no reply varies run to run: the kernel rate-limits ICMP)');
  });
});
