import { describe, expect, it } from 'vitest';
import { queryHop } from '../../../shared/health';
import { hopLine } from './health';

describe('hopLine of an upstream', () => {
  it('an upstream answering NXDOMAIN says it was asked the root zone NS, never leaving the cluster name to be guessed (walk low)', () => {
    const up = queryHop('upstream:10.255.255.53:53', 'upstream', { name: '.', type: 'NS', server: '10.255.255.53:53', transport: 'udp', rcode: 'NXDOMAIN', answers: [], latencyMs: 15 }, false);
    expect(hopLine(up)).toBe('upstream 10.255.255.53:53: NXDOMAIN for . (the root zone) NS in 15 ms: it answers, but a working recursive resolver answers that NOERROR, so it may not resolve Internet names');
  });

  it('an upstream answering NOERROR is its answers, nothing more', () => {
    const up = queryHop('upstream:192.0.2.53:53', 'upstream', { name: '.', type: 'NS', server: '192.0.2.53:53', transport: 'udp', rcode: 'NOERROR', answers: [{ name: '.', type: 'NS', ttl: 60, data: 'a.root-servers.net' }], latencyMs: 4 }, false);
    expect(hopLine(up)).toBe('upstream 192.0.2.53:53: a.root-servers.net in 4 ms');
  });
});
