import { describe, expect, it } from 'vitest';
import { capturedQueryRow } from './to-query-row';
import type { CapturedQuery } from './pairing';
import { parserLine } from './pipeline';
import { formatExactRow } from '../../cli/print-queries';

const base: CapturedQuery = { proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'KUBERNETES.DEFAULT.svc.cluster.local', type: 'A', queryUs: Date.UTC(2026, 11, 1, 19, 0, 0) * 1000 + 123_456, rcode: 'NOERROR', answers: ['172.21.0.1'], latencyMs: 0.412, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };

describe('capturedQueryRow', () => {
  it('routes by zone, marks the health probe by its spelling, keeps µs, and is never ≈', () => {
    const r = capturedQueryRow(base, 'adguard', 'p0', ['cluster.local']);
    expect([r.name, r.route, r.zone, r.upstream, r.client, r.protocol, r.probe, r.mixed, r.latencyMs]).toEqual(['kubernetes.default.svc.cluster.local', 'cluster', 'cluster.local', '172.21.0.10:53', '127.0.0.1:41001', 'udp', true, false, 0.412]);
    expect(r.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.123456$/);
    expect(capturedQueryRow({ ...base, name: 'www.example.test', upstream: '192.0.2.53:53' }, 'dnsmasq', 'p1', ['cluster.local']).route).toBe('upstream');
    expect(capturedQueryRow({ ...base, upstream: null }, 'dnsmasq', 'p2', ['cluster.local'])).toMatchObject({ route: 'cache', zone: null, upstream: null });
    // The proxy's own REFUSED (dnsmasq with no server for the name) or SERVFAIL is no cache hit (second walk medium).
    for (const rcode of ['REFUSED', 'SERVFAIL']) expect(capturedQueryRow({ ...base, name: 'nope73.example.test', upstream: null, rcode, answers: [] }, 'dnsmasq', `p-${rcode}`, ['cluster.local']).route).toBe('proxy');
    expect(capturedQueryRow({ ...base, rcode: null, answers: [], latencyMs: null }, 'dnsmasq', 'p3', []).route).toBeNull();
  });
  it('keeps the search list recorded with the row (what a +search mark is judged by), and none when none was recorded', () => {
    expect(capturedQueryRow({ ...base, search: ['example.test', 'lan'] }, 'adguard', 'p4', []).search).toEqual(['example.test', 'lan']);
    expect('search' in capturedQueryRow(base, 'adguard', 'p5', [])).toBe(false);
    expect('search' in capturedQueryRow({ ...base, search: 'example.test' as unknown as string[] }, 'adguard', 'p6', [])).toBe(false);
  });
  it("keeps the packet's spelling for the listings (asked) beside the lower-case name zones and search compare", () => {
    const r = capturedQueryRow(base, 'adguard', 'p7', ['cluster.local']);
    expect([r.name, r.asked]).toEqual(['kubernetes.default.svc.cluster.local', 'KUBERNETES.DEFAULT.svc.cluster.local']);
    expect('asked' in capturedQueryRow({ ...base, name: 'www.example.test' }, 'adguard', 'p8', [])).toBe(false);
  });
  it('reads a row the log guard lets leave rcode, upstream and latencyMs out as null, and k2s-dns queries prints it', () => {
    // brk30: `k2s-dns queries` failed "Cannot read properties of undefined (reading 'toFixed')" on such a line.
    const line = '{"queryUs":1796668186307000,"client":"127.0.0.1:40001","listener":"127.0.0.1:53","proto":"udp","id":1,"name":"a1.example.test","type":"A","answers":[]}';
    const c = parserLine(line) as CapturedQuery;
    const r = capturedQueryRow(c, 'adguard', 'p9', ['cluster.local']);
    expect([r.rcode, r.upstream, r.latencyMs, r.route, r.zone]).toEqual([null, null, null, null, null]);
    expect(formatExactRow(r)).toMatch(/ udp A a1\.example\.test - no answer$/);
  });
});
