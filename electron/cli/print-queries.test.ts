import { describe, expect, it } from 'vitest';
import { capturedQueryRow } from '../core/capture/to-query-row';
import { formatExactRow } from './print-queries';

describe('k2s-dns queries', () => {
  it('prints the client port, the upstream that answered and the latency; cache when none', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.412, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };
    const line = formatExactRow(capturedQueryRow(c, 'dnsmasq', 'k', ['cluster.local']));
    expect(line.replace(/^\S+ /, '')).toBe('127.0.0.1:41001 udp A web.demo.svc.cluster.local NOERROR via 172.21.0.10:53 0.41 ms 172.21.14.7');
    expect(formatExactRow(capturedQueryRow({ ...c, upstream: null }, 'dnsmasq', 'k', []))).toContain(' NOERROR cache 0.41 ms');
  });
});
