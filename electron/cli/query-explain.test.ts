import { afterEach, describe, expect, it } from 'vitest';
import { searchExplanation } from './query-explain';
import { trackedHosts } from '../../e2e/support/test-deps';
import { setCliName } from '../../shared/fix';

const host = trackedHosts();

describe('query through the host resolver while K2s DNS is stopped (new-user walk)', () => {
  afterEach(() => setCliName('npx k2s-dns'));

  it('a cluster name: the cause is the stopped K2s DNS and the start line, not the search list', async () => {
    setCliName('k2s-dns');
    const h = await host();
    h.world.systemAnswer = null;
    const name = 'kubernetes.default.svc.cluster.local';
    const asked = await h.deps.systemQuery(name, 'A');
    const e = await searchExplanation(h.deps, name, 'A', 'system', 'udp', asked);
    expect(e?.candidates.map((c) => [c.name, c.rcode])).toEqual([[name, 'NXDOMAIN'], [`${name}.corp.example`, 'NXDOMAIN']]);
    expect(e?.lines.at(-1)).toBe("None of them resolves: K2s DNS is not running, so nothing answers for cluster.local (the host's nameservers do not serve cluster zones): run sudo k2s-dns start first.");
  });

  it('asked at a nameserver (--server IP): its answer, the search-list words as before', async () => {
    const h = await host();
    const name = 'kubernetes.default.svc.cluster.local';
    h.deps.query = async ({ name: n, server, type }) => ({ name: n, type, server, transport: 'udp', rcode: 'NXDOMAIN', answers: [], latencyMs: 1 });
    const e = await searchExplanation(h.deps, name, 'A', '192.0.2.53', 'udp');
    expect(e?.lines.at(-1)).toBe(`None of them resolves: the search list has no domain under which ${name} exists.`);
  });
});
