import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { candidateRefusal, parseSearchConfig, searchCandidates, searchWalk, svcHint, type SearchOutcome } from './search-list';

const HOST = parseSearchConfig('nameserver 192.0.2.53\nsearch corp.example lan\n');

describe('searchCandidates (glibc res_query.c __res_context_search order)', () => {
  it('kubernetes.default with ndots:1 is asked as it is first, then with each search domain', () => {
    expect(searchCandidates('kubernetes.default', HOST)).toEqual(['kubernetes.default', 'kubernetes.default.corp.example', 'kubernetes.default.lan']);
  });
  it('a pod-like ndots:5 list puts the as-is name last; a trailing dot asks only the name', () => {
    const pod = parseSearchConfig('search default.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n');
    expect(searchCandidates('kubernetes.default', pod)).toEqual(['kubernetes.default.default.svc.cluster.local', 'kubernetes.default.svc.cluster.local', 'kubernetes.default.cluster.local', 'kubernetes.default']);
    expect(searchCandidates('kubernetes.default.', pod)).toEqual(['kubernetes.default']);
  });
  it('no-tld-query drops the as-is try of a dotless name; ndots is read with atoi and capped at 15', () => {
    expect(searchCandidates('printer', parseSearchConfig('search lan\noptions no-tld-query\n'))).toEqual(['printer.lan']);
    expect(parseSearchConfig('options ndots:2.7').ndots).toBe(2);
    expect(parseSearchConfig('options ndots:99').ndots).toBe(15);
    expect(parseSearchConfig('options ndots:x').ndots).toBe(0);
  });
});

describe('searchWalk (where glibc stops)', () => {
  const rcodes = (m: Record<string, SearchOutcome>) => (n: string): SearchOutcome => m[n] ?? 'nxdomain';
  it('every candidate NXDOMAIN: all asked, result nxdomain', () => {
    const w = searchWalk('kubernetes.default', HOST, rcodes({}));
    expect(w.asked.map((s) => `${s.name} ${s.outcome}`)).toEqual(['kubernetes.default nxdomain', 'kubernetes.default.corp.example nxdomain', 'kubernetes.default.lan nxdomain']);
    expect([w.answered, w.result]).toEqual([null, 'nxdomain']);
  });
  it('stops at the first answer; NODATA and SERVFAIL go on; a timeout ends the search loop but the as-is try still follows', () => {
    expect(searchWalk('web', HOST, rcodes({ 'web.corp.example': 'servfail', 'web.lan': 'answer' })).answered).toBe('web.lan');
    const nodata = searchWalk('web', HOST, rcodes({ 'web.corp.example': 'nodata' }));
    expect([nodata.asked.length, nodata.result]).toEqual([3, 'nodata']);
    const timeout = searchWalk('web', HOST, rcodes({ 'web.corp.example': 'other' }));
    expect(timeout.asked.map((s) => s.name)).toEqual(['web.corp.example', 'web']);
  });
});

describe('properties over generated names and search lists', () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
  const nameArb = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
  const cfgArb = fc.record({ search: fc.array(fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')), { maxLength: 4 }), ndots: fc.integer({ min: 0, max: 15 }), noTldQuery: fc.boolean() });
  const outcomeArb = fc.constantFrom<SearchOutcome>('answer', 'nodata', 'nxdomain', 'servfail', 'other');
  it('with every candidate failing, the walk asks exactly searchCandidates; the as-is name is asked once at most, first iff dots ≥ ndots', () => {
    fc.assert(
      fc.property(nameArb, cfgArb, fc.constantFrom<SearchOutcome>('nxdomain', 'nodata', 'servfail'), (name, cfg, fail) => {
        const plan = searchCandidates(name, cfg);
        expect(searchWalk(name, cfg, () => fail).asked.map((s) => s.name)).toEqual(plan);
        const dots = name.split('.').length - 1;
        expect(plan.filter((n) => n === name && !cfg.search.some((d) => `${name}.${d}` === n)).length).toBeLessThanOrEqual(1);
        if (dots >= cfg.ndots) expect(plan[0]).toBe(name);
        expect(plan.slice(dots >= cfg.ndots ? 1 : 0, (dots >= cfg.ndots ? 1 : 0) + cfg.search.length)).toEqual(cfg.search.map((d) => `${name}.${d}`));
      }),
      { numRuns: 300 },
    );
  });
  it('for any outcomes: the asked names are a subsequence of the plan, nothing is asked after an answer, and the answer is the first answered candidate', () => {
    fc.assert(
      fc.property(nameArb, cfgArb, fc.array(outcomeArb, { minLength: 8, maxLength: 8 }), (name, cfg, outs) => {
        const plan = searchCandidates(name, cfg);
        const outcomeOf = (n: string) => outs[plan.indexOf(n) % outs.length]!;
        const w = searchWalk(name, cfg, outcomeOf);
        let at = 0;
        for (const s of w.asked) {
          at = plan.indexOf(s.name, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at++;
        }
        const firstAnswer = w.asked.findIndex((s) => s.outcome === 'answer');
        expect(firstAnswer === -1 ? w.asked.length : firstAnswer + 1).toBe(w.asked.length);
        expect(w.answered).toBe(firstAnswer === -1 ? null : w.asked[firstAnswer]!.name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('svcHint', () => {
  it('my.ns.svc: names svc.cluster.local and says the search list decides', () => {
    expect(svcHint('my.ns.svc', HOST, 'cluster.local')).toBe('my.ns.svc ends in .svc, but the cluster zone is svc.cluster.local: the name resolves only through a search list with cluster.local (pods get "search <namespace>.svc.cluster.local svc.cluster.local cluster.local" from kubelet), and this host\'s search list (corp.example lan) has not — ask my.ns.svc.cluster.local, or add cluster.local to the search list.');
    expect(svcHint('my.ns.svc', parseSearchConfig('search cluster.local\n'), 'cluster.local')).toBe('my.ns.svc ends in .svc; the cluster zone is svc.cluster.local, and the search list has cluster.local, so glibc also asks my.ns.svc.cluster.local.');
    expect(svcHint('kubernetes.default', HOST, 'cluster.local')).toBeNull();
  });
});

describe('parseSearchConfig: a search domain with a leading dot', () => {
  it('glibc drops the leading dot before appending it: .corp.example searches corp.example, . stays out', () => {
    const cfg = parseSearchConfig('search .corp.example . lan.\nnameserver 192.0.2.53\n');
    expect(cfg.search).toEqual(['corp.example', 'lan']);
    expect(searchCandidates('web', cfg)).toEqual(['web.corp.example', 'web.lan', 'web']);
  });
});

describe('a search domain glibc cannot put into a query (measured: glibc 2.36 getaddrinfo)', () => {
  const cfg = parseSearchConfig('nameserver 192.0.2.53\nsearch a.example corp..example b.example\n');
  it('corp..example: web.a.example is asked, the empty-label candidate is never sent and ends the search list, then the name as it is', () => {
    expect(searchCandidates('web', cfg)).toEqual(['web.a.example', 'web']);
    const walk = searchWalk('web', cfg, () => 'nxdomain');
    expect(walk.asked).toEqual([
      { name: 'web.a.example', outcome: 'nxdomain' },
      { name: 'web.corp..example', outcome: 'unsendable' },
      { name: 'web', outcome: 'nxdomain' },
    ]);
  });
  it('an outcome callback is never called for an unsendable name', () => {
    const called: string[] = [];
    searchWalk('web', cfg, (n) => (called.push(n), 'nxdomain'));
    expect(called).toEqual(['web.a.example', 'web']);
  });
  it('candidateRefusal: empty label, a 64-octet label (UTF-8 octets count), over 255 octets on the wire; a non-ASCII domain is sendable', () => {
    expect(candidateRefusal('web.corp..example')).toMatch(/empty label/);
    expect(candidateRefusal(`${'a'.repeat(64)}.example`)).toMatch(/longer than 63 octets/);
    expect(candidateRefusal(`${'é'.repeat(32)}.example`)).toMatch(/longer than 63 octets/); // 64 octets in UTF-8
    expect(candidateRefusal(`${'é'.repeat(31)}.example`)).toBeNull();
    expect(candidateRefusal(Array.from({ length: 5 }, () => 'a'.repeat(63)).join('.'))).toMatch(/321 octets on the wire/);
    expect(candidateRefusal('web.bé.example')).toBeNull();
    expect(searchCandidates('web', parseSearchConfig('search bé.example\n'))).toEqual(['web.bé.example', 'web']);
  });
});
