/**
 * The capture probes' input (capture-parser.ts, parser-wakes.ts): `queries` cluster-name queries
 * as the proxy's packets, 4 Linux cooked SLL2 frames each, 10 µs apart — the client's query to
 * 127.0.0.1:53, the proxy's query to kube-dns (172.21.0.10) and its answer, the client's answer.
 */
import type { FrameSpec } from '../../e2e/support/pcap-frames';

/** The frames of `queries` queries (ids and client ports cycle: 65,536 ids, 20,000 ports). */
export function clusterQueryFrames(queries: number): FrameSpec[] {
  const frames: FrameSpec[] = [];
  let t = 1_764_600_000_000_000;
  for (let i = 0; i < queries; i++) {
    const id = i % 65536;
    const port = 40000 + (i % 20000);
    const name = ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local'][i % 3]!;
    const q = { type: 'query' as const, id, flags: 0x100, questions: [{ name, type: 'A' as const }] };
    const a = { type: 'response' as const, id, flags: 0x8180, questions: [{ name, type: 'A' as const }], answers: [{ type: 'A' as const, name, ttl: 5, data: '172.21.0.1' }] };
    frames.push(
      { src: '127.0.0.1', srcPort: port, dst: '127.0.0.1', dstPort: 53, tsUs: (t += 10), dns: q },
      { src: '172.19.1.1', srcPort: 50000, dst: '172.21.0.10', dstPort: 53, tsUs: (t += 10), dns: q },
      { src: '172.21.0.10', srcPort: 53, dst: '172.19.1.1', dstPort: 50000, tsUs: (t += 10), dns: a },
      { src: '127.0.0.1', srcPort: 53, dst: '127.0.0.1', dstPort: port, tsUs: (t += 10), dns: a },
    );
  }
  return frames;
}
