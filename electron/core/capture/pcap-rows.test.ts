/** The capture parser on pcap streams shaped as tcpdump -i any writes them (SLL2; e2e/support/pcap-frames.ts). */
import { describe, expect, it } from 'vitest';
import type { Packet } from 'dns-packet';
import { frame, pcapHeader, pcapOf, record, type FrameSpec } from '../../../e2e/support/pcap-frames';
import { PcapRows } from './pcap-rows';
import type { CapturedQuery } from './pairing';
import { segmentOf } from './frame';
import { tcpdumpArgv } from './tcpdump-argv';

const LISTENER = { addr: '127.0.0.1', port: 53 };
const KUBE_DNS = { addr: '172.21.0.10', port: 53 };
const query = (id: number, name: string, type = 'A'): Packet => ({ type: 'query', id, flags: 0x100, questions: [{ name, type: type as 'A' }] });
const answer = (id: number, name: string, data: string[], rcode = 0): Packet => ({ type: 'response', id, flags: 0x8180 | rcode, questions: [{ name, type: 'A' }], answers: data.map((d) => ({ type: 'A', name, ttl: 5, data: d })) });

/** A client query and the proxy's answer, with an upstream exchange (proxy port 40000, same id as dnsproxy does) in between. */
function exchange(t: number, clientPort: number, id: number, name: string, data: string[], rcode = 0, upId = id, proto: 'udp' | 'tcp' = 'udp'): FrameSpec[] {
  return [
    { proto, src: '127.0.0.1', srcPort: clientPort, dst: LISTENER.addr, dstPort: LISTENER.port, tsUs: t, dns: query(id, name) },
    { src: '172.19.1.1', srcPort: 40000 + (clientPort % 1000), dst: KUBE_DNS.addr, dstPort: KUBE_DNS.port, tsUs: t + 100, dns: query(upId, name) },
    { src: KUBE_DNS.addr, srcPort: KUBE_DNS.port, dst: '172.19.1.1', dstPort: 40000 + (clientPort % 1000), tsUs: t + 900, dns: answer(upId, name, data, rcode) },
    { proto, src: LISTENER.addr, srcPort: LISTENER.port, dst: '127.0.0.1', dstPort: clientPort, tsUs: t + 1000, dns: answer(id, name, data, rcode) },
  ];
}

function rowsOf(bytes: Uint8Array, chunk = bytes.length): { rows: CapturedQuery[]; parser: PcapRows } {
  const rows: CapturedQuery[] = [];
  const parser = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: (r) => rows.push(r) });
  for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
  parser.end();
  return { rows, parser };
}
const cells = (rows: CapturedQuery[]) => rows.map((r) => [r.proto, r.client, r.id, r.name, r.rcode, r.answers.join(','), r.upstream, r.latencyMs, r.upstreamLatencyMs]);

describe('capture parser', () => {
  it('pairs two concurrent queries for the same name by client port and id, each with its upstream and latency', () => {
    const t = 1_764_600_000_000_000;
    // Two clients ask the same name at the same µs with the same id; their answers differ (the row must not mix them).
    const a = exchange(t, 50001, 7, 'web.demo.svc.cluster.local', ['172.21.14.7']);
    const b = exchange(t + 10, 50002, 7, 'web.demo.svc.cluster.local', ['172.21.14.8'], 0, 9);
    const bytes = pcapOf([a[0]!, b[0]!, a[1]!, b[1]!, b[2]!, a[2]!, b[3]!, a[3]!]);
    for (const chunk of [bytes.length, 1, 7, 100]) {
      expect(cells(rowsOf(bytes, chunk).rows)).toEqual([
        ['udp', '127.0.0.1:50002', 7, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.8', '172.21.0.10:53', 1, 0.8],
        ['udp', '127.0.0.1:50001', 7, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', '172.21.0.10:53', 1, 0.8],
      ]);
    }
  });

  it('reads rcodes, TCP (length prefix, segments cut anywhere), IPv6 clients, and a cache answer (no exchange)', () => {
    const t = 1_764_600_000_000_000;
    const nx = exchange(t, 50003, 11, 'nothere.default.svc.cluster.local', [], 3);
    const tcp = exchange(t + 5000, 50004, 12, 'kubernetes.default.svc.cluster.local', ['172.21.0.1'], 0, 12, 'tcp');
    const cached: FrameSpec[] = [
      { src: '::1', srcPort: 50005, dst: '::1', dstPort: 53, tsUs: t + 9000, dns: query(13, 'kubernetes.default.svc.cluster.local') },
      { src: '::1', srcPort: 53, dst: '::1', dstPort: 50005, tsUs: t + 9040, dns: answer(13, 'kubernetes.default.svc.cluster.local', ['172.21.0.1']) },
    ];
    const rows: CapturedQuery[] = [];
    const parser = new PcapRows({ listeners: ['127.0.0.1:53', '[::1]:53'], onRow: (r) => rows.push(r) });
    parser.push(pcapOf([...nx, tcp[1]!, tcp[2]!, ...cached]));
    // The TCP query in two segments (cut inside the length prefix), then the answer.
    const q = frame(tcp[0]!);
    const payload = [...q.slice(20 + 20 + 20)];
    parser.push(record(t + 5000, frame({ ...tcp[0]!, seq: 1 }, payload.slice(0, 1))));
    parser.push(record(t + 5001, frame({ ...tcp[0]!, seq: 2 }, payload.slice(1))));
    parser.push(record(t + 6000, frame(tcp[3]!)));
    parser.end();
    expect(cells(rows)).toEqual([
      ['udp', '127.0.0.1:50003', 11, 'nothere.default.svc.cluster.local', 'NXDOMAIN', '', '172.21.0.10:53', 1, 0.8],
      ['udp', '[::1]:50005', 13, 'kubernetes.default.svc.cluster.local', 'NOERROR', '172.21.0.1', null, 0.04, null],
      // Its query counts from the segment that completed it (1 µs after the first).
      ['tcp', '127.0.0.1:50004', 12, 'kubernetes.default.svc.cluster.local', 'NOERROR', '172.21.0.1', '172.21.0.10:53', 0.999, 0.8],
    ]);
    expect(parser.counts).toMatchObject({ notDns: 0, rows: 3 });
  });

  it('an answer with the right ports but another id, or another question, pairs with nothing', () => {
    const t = 1_764_600_000_000_000;
    const [q, , , a] = exchange(t, 50006, 21, 'a.example', ['192.0.2.1']);
    const wrongId = { ...a!, dns: answer(22, 'a.example', ['192.0.2.66']) };
    const wrongName = { ...a!, dns: answer(21, 'b.example', ['192.0.2.66']) };
    const { rows } = rowsOf(pcapOf([q!, wrongId, wrongName]));
    // Flushed at the end unanswered: rcode null, no answers.
    expect(cells(rows)).toEqual([['udp', '127.0.0.1:50006', 21, 'a.example', null, '', null, null, null]]);
  });

  it("the stop's block-fill datagrams (UDP to 127.0.0.1 on the fill port) are counted apart, never a row, even when they parse as DNS", () => {
    const fill = { src: '127.0.0.1', srcPort: 40555, dst: '127.0.0.1', dstPort: 40555, dns: query(9, 'fill.example') };
    const bytes = pcapOf([...exchange(1_000, 50001, 11, 'a.example', ['192.0.2.1']), { ...fill, tsUs: 3_000 }, { ...fill, tsUs: 3_001 }]);
    const rows: CapturedQuery[] = [];
    const parser = new PcapRows({ listeners: ['127.0.0.1:53'], fillPort: 40555, onRow: (r) => rows.push(r) });
    parser.push(bytes);
    parser.end();
    expect(rows.map((r) => r.name)).toEqual(['a.example']);
    expect(parser.counts).toEqual({ frames: 6, notSegment: 0, notDns: 0, messages: 4, rows: 1, fill: 2 });
    // The same port to another address is no fill datagram.
    const other = new PcapRows({ listeners: ['127.0.0.1:53'], fillPort: 40555, onRow: () => {} });
    other.push(pcapOf([{ ...fill, dst: '127.0.0.2', tsUs: 1 }]));
    expect(other.counts.fill).toBeUndefined();
    expect(other.counts.messages).toBe(1);
  });

  it("another program's datagrams to the fill port are fill too (never a row), counted as fillOthers (breaker10 L3)", () => {
    const own = { src: '127.0.0.1', srcPort: 40555, dst: '127.0.0.1', dstPort: 40555, dns: query(9, 'fill.example') };
    const foreign = { ...own, srcPort: 51000, dns: query(10, 'fake.example') };
    const rows: CapturedQuery[] = [];
    const parser = new PcapRows({ listeners: ['127.0.0.1:53'], fillPort: 40555, onRow: (r) => rows.push(r) });
    parser.push(pcapOf([...exchange(1_000, 50001, 11, 'a.example', ['192.0.2.1']), { ...foreign, tsUs: 2_000 }, { ...foreign, tsUs: 2_001 }, { ...foreign, tsUs: 2_002 }, { ...own, tsUs: 3_000 }]));
    parser.end();
    expect(rows.map((r) => r.name)).toEqual(['a.example']);
    expect(parser.counts).toEqual({ frames: 8, notSegment: 0, notDns: 0, messages: 4, rows: 1, fill: 4, fillOthers: 3 });
  });

  it('frames of other protocols, IPv4 fragments and cut frames give no segment', () => {
    const f = frame({ src: '127.0.0.1', srcPort: 1, dst: '127.0.0.1', dstPort: 53, tsUs: 0, dns: query(1, 'x') });
    expect(segmentOf(276, f)?.dstPort).toBe(53);
    const frag = Uint8Array.from(f);
    frag[20 + 6] = 0x20; // MF set
    expect(segmentOf(276, frag)).toBeNull();
    expect(segmentOf(276, f.subarray(0, 30))).toBeNull();
    expect(segmentOf(999, f)).toBeNull();
    expect(() => new PcapRows({ listeners: [], onRow: () => {} }).push(Uint8Array.from([1, 2, 3, 4, ...pcapHeader().slice(4)]))).toThrow(/not a pcap stream/);
  });

  it('tcpdump argv: capture as root, drop to the user, pcap to stdout per packet, only the given ports', () => {
    expect(tcpdumpArgv({ iface: 'any', ports: [53, 5353, 53], user: 'k2s-dns' })).toEqual(['-i', 'any', '-y', 'LINUX_SLL2', '-n', '-s', '4200', '-B', '2048', '-U', '-w', '-', '-Z', 'k2s-dns', '(port 53 or port 5353) and not (outbound and ifindex 1)']);
    expect(() => tcpdumpArgv({ iface: 'any; rm', ports: [53], user: 'x' })).toThrow(/not plain/);
    expect(() => tcpdumpArgv({ iface: 'any', ports: [0], user: 'x' })).toThrow(/1–65535/);
    // The stop's block fill (block-fill.ts): datagrams to its port on 127.0.0.1 are captured too.
    expect(tcpdumpArgv({ iface: 'any', ports: [53], user: 'nobody', fillPort: 40555 }).at(-1)).toBe('(port 53 or (udp and dst host 127.0.0.1 and dst port 40555)) and not (outbound and ifindex 1)');
    expect(() => tcpdumpArgv({ iface: 'any', ports: [53], user: 'x', fillPort: 70000 })).toThrow(/fill port/);
  });
});
