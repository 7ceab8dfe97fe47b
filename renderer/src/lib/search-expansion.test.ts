import { describe, expect, it } from 'vitest';
import type { QueryRow } from '../../../shared/query-log/row';
import { searchExpansions } from './search-expansion';

let seq = 0;
/** An exact-log row (as to-query-row.ts makes it) asked at `t` seconds past a fixed minute. */
function row(name: string, t: number, over: Partial<QueryRow> = {}): QueryRow {
  return {
    key: `cap-${seq++}`, engine: 'adguard', time: `2026-12-04T12:00:${String(t).padStart(2, '0')}.000000`, client: '127.0.0.1:41000', name, type: 'A', route: 'upstream', zone: null,
    upstream: '192.0.2.53:53', answers: [], rcode: 'NXDOMAIN', error: null, latencyMs: 0.4, protocol: 'udp', run: 0, probe: false, mixed: false, ...over,
  };
}

describe('searchExpansions: a row is an expansion only when its client asked the shorter name and the domain was searched then', () => {
  it('the walk\'s rows: kubernetes.default.svc.cluster.local A and AAAA from one client port are full names, with search example.test and then example.test lan', () => {
    const client = '127.0.0.1:53211';
    const full = (type: string, t: number, search: string[]) => row('kubernetes.default.svc.cluster.local', t, { client, type, search, route: 'cluster', zone: 'cluster.local', rcode: 'NOERROR', answers: ['172.21.0.1'] });
    // Other clients' walks put kubernetes.default and kubernetes.default.svc in the log (the old code took them as bases).
    const others = [
      row('kubernetes.default', 1, { client: '127.0.0.1:40001', search: ['example.test'] }),
      row('kubernetes.default.example.test', 1, { client: '127.0.0.1:40001', search: ['example.test'] }),
      row('kubernetes.default.svc', 5, { client: '127.0.0.1:40002', search: ['example.test', 'lan'] }),
      row('kubernetes.default.svc.lan', 5, { client: '127.0.0.1:40002', search: ['example.test', 'lan'] }),
    ];
    const before = [full('A', 2, ['example.test']), full('AAAA', 2, ['example.test'])];
    const after = [full('A', 6, ['example.test', 'lan']), full('AAAA', 6, ['example.test', 'lan'])];
    // Even the same socket asking the shorter names does not make cluster.local or svc.cluster.local a search domain.
    const sameSocket = [row('kubernetes.default', 7, { client, search: ['example.test', 'lan'] }), row('kubernetes.default.svc', 7, { client, search: ['example.test', 'lan'] })];
    const rows = [...others, ...before, ...after, ...sameSocket];
    const m = searchExpansions(rows);
    for (const r of [...before, ...after]) expect(m.get(r.key), `${r.type} at ${r.time}`).toBeUndefined();
    // The same with any subset of rows held or shown (a filter on the client port, a search's result).
    expect(searchExpansions(before.concat(after)).size).toBe(0);
    expect(searchExpansions(rows.filter((r) => r.client === client), rows).size).toBe(0);
    // The real walks of the other clients are marked, with the domain that was searched.
    expect(m.get(others[1]!.key)).toEqual({ base: 'kubernetes.default', domain: 'example.test' });
    expect(m.get(others[3]!.key)).toEqual({ base: 'kubernetes.default.svc', domain: 'lan' });
    expect(m.size).toBe(2);
  });

  it('web then web.example.test from one client with search example.test: the expansion keeps its mark, under any filter', () => {
    const base = row('web', 10, { search: ['example.test'] });
    const exp = row('web.example.test', 10, { search: ['example.test'], rcode: 'NOERROR', answers: ['192.0.2.8'] });
    // Another client address asking the same long name is not that walk's.
    const noise = row('web.example.test', 11, { client: '10.0.0.7:41999', search: ['example.test'] });
    expect([...searchExpansions([base, exp, noise])]).toEqual([[exp.key, { base: 'web', domain: 'example.test' }]]);
    // A filter showing the expansion alone: the base is among the rows held.
    expect([...searchExpansions([exp], [base, exp, noise])]).toEqual([[exp.key, { base: 'web', domain: 'example.test' }]]);
    // glibc asks a short name's expansions before the name itself: either order counts.
    const early = row('db.example.test', 12, { search: ['example.test'] });
    expect(searchExpansions([early, row('db', 12, { search: ['example.test'] })]).get(early.key)).toEqual({ base: 'db', domain: 'example.test' });
  });

  it('marks the expansion of a name that already ends in the search domain (the third walk\'s pair)', () => {
    const a = row('early-marker-ui3.example.test', 20, { search: ['example.test'] });
    const b = row('early-marker-ui3.example.test.example.test', 20, { search: ['example.test'] });
    expect([...searchExpansions([a, b])]).toEqual([[b.key, { base: 'early-marker-ui3.example.test', domain: 'example.test' }]]);
  });

  it('one walk from a new port per name (glibc closes its socket after each query): still marked, by the client address', () => {
    const base = row('kubernetes.default', 40, { client: '127.0.0.1:50001', search: ['example.test'] });
    const exp = row('kubernetes.default.example.test', 40, { client: '127.0.0.1:50002', search: ['example.test'] });
    expect([...searchExpansions([base, exp])]).toEqual([[exp.key, { base: 'kubernetes.default', domain: 'example.test' }]]);
  });

  it('no facts, no mark: no recorded search list, a domain not searched, another client address, too far apart', () => {
    const base = row('web', 30, { search: ['example.test'] });
    expect(searchExpansions([base, row('web.example.test', 30)]).size).toBe(0);
    expect(searchExpansions([base, row('web.example.test', 30, { search: ['lan'] })]).size).toBe(0);
    expect(searchExpansions([base, row('web.example.test', 30, { search: ['example.test'], client: '172.19.1.5:41001' })]).size).toBe(0);
    expect(searchExpansions([row('web', 0), row('web.example.test', 30, { search: ['example.test'], time: '2026-12-04T12:05:00.000000' })]).size).toBe(0);
  });
  it('the window is SEARCH_WALK_MS either side, inclusive, among many askings of the base by one address (found by time, issue 20)', () => {
    const at = (iso: string) => ({ time: `2026-12-04T${iso}.000000` });
    // The address asked `web` every 2 s from 12:00:00 to 12:03:58; the expansion is judged against the one nearest in time.
    const many = Array.from({ length: 120 }, (_, i) => row('web', 0, at(`12:0${Math.floor((i * 2) / 60)}:${String((i * 2) % 60).padStart(2, '0')}`)));
    const exp = row('web.example.test', 0, { ...at('12:05:00'), search: ['example.test'] });
    // The newest `web` is 12:03:58, 62 s before: outside the window.
    expect(searchExpansions([...many, exp]).size).toBe(0);
    // Exactly 60 s apart, before or after: inside.
    expect(searchExpansions([row('WEB', 0, at('12:04:00')), exp]).get(exp.key)).toEqual({ base: 'WEB', domain: 'example.test' });
    expect(searchExpansions([exp, row('web', 0, at('12:06:00'))]).get(exp.key)).toEqual({ base: 'web', domain: 'example.test' });
    // The base among context rows (a search result's held rows) counts too; a base with no time never does.
    expect(searchExpansions([exp], [...many, row('web', 0, at('12:05:30'))]).size).toBe(1);
    expect(searchExpansions([exp, row('web', 0, { time: null })]).size).toBe(0);
  });
});
