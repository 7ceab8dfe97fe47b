import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../shared/types';
import { formatQuery } from './print';

describe('k2s-dns query: an answer in other capitals (new-user walk: KUBERNETES.DEFAULT… came back unexplained)', () => {
  const r: QueryResult = {
    name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1:53', transport: 'udp', rcode: 'NOERROR', latencyMs: 2,
    answers: [{ name: 'KUBERNETES.DEFAULT.svc.cluster.local', type: 'A', ttl: 30, data: '172.21.0.1' }],
  };

  it("prints the answer as the server spelled it, then one note line on why", () => {
    expect(formatQuery(r).split('\n')).toEqual([
      ';; kubernetes.default.svc.cluster.local A via 127.0.0.1:53 (udp): NOERROR in 2 ms',
      'KUBERNETES.DEFAULT.svc.cluster.local\t30\tIN\tA\t172.21.0.1',
      ";; note: KUBERNETES.DEFAULT.svc.cluster.local is the name asked (DNS names ignore case, RFC 4343), in the spelling of k2s-dns's health check: a cache answers with the spelling a name was first asked in.",
    ]);
  });

  it('one note for several such answers; none for an answer spelled as asked', () => {
    const two = { ...r, answers: [...r.answers, { ...r.answers[0]!, data: '172.21.0.2' }] };
    expect(formatQuery(two).split('\n').filter((l) => l.startsWith(';; note:'))).toHaveLength(1);
    expect(formatQuery({ ...r, answers: [{ ...r.answers[0]!, name: r.name }] })).not.toContain(';; note:');
  });
});
