/**
 * keepRisk: which drift choice is the default (issue 20, the walk's HIGH: a bypassing file whose
 * only nameserver 198.51.100.77 did not answer — getaddrinfo EAI_AGAIN, ENETUNREACH — still had
 * "Keep their file" as the default, which leaves no DNS).
 */
import { describe, expect, it } from 'vitest';
import { followerRefusal, keepRisk, keepRiskWords, restoredSilentWords, savedNameserversNow, silentAfterStop, verdictKeepRisk } from './drift-default';
import { verdictFix } from './health';
import { driftRoute } from './drift-route';
import { notResolverFileRefusal, resolverOwnerRefusal, startRefusesResolverFile } from './network-writer';
import type { HealthHop } from './health-report';

const LISTENERS = ['127.0.0.1', '172.19.1.1'];
const DEAD = 'nameserver 198.51.100.77\n';
const systemHop = (outcome: HealthHop['outcome'], rcode: string, reason: string | null): HealthHop => ({ id: 'system', kind: 'system', target: 'getaddrinfo', name: 'kubernetes.default.svc.cluster.local', type: 'A', outcome, ok: false, answers: [], rcode, reason, latencyMs: 3 });
const silent = systemHop('timeout', 'TIMEOUT', 'getaddrinfo was refused in 3 ms (getaddrinfo EAI_AGAIN)');

describe('keepRisk', () => {
  it('their only nameserver does not answer (a report made for this file): dead, with the nameserver and the reason', () => {
    const status = { driftRoute: driftRoute(DEAD, LISTENERS), resolverStamp: 'abc' };
    const risk = keepRisk(status, { hops: [silent], forResolver: 'abc' });
    expect(risk).toEqual({ kind: 'dead', nameservers: ['198.51.100.77'], why: 'getaddrinfo was refused in 3 ms (getaddrinfo EAI_AGAIN)' });
    expect(keepRiskWords(risk!, status.driftRoute)).toBe('Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 198.51.100.77:53, which does not answer now (getaddrinfo was refused in 3 ms (getaddrinfo EAI_AGAIN)): no name would resolve on this host.');
    for (const outcome of ['unreachable', 'error'] as const) expect(keepRisk(status, { hops: [systemHop(outcome, 'ERROR', 'connect ENETUNREACH')], forResolver: 'abc' })?.kind).toBe('dead');
  });

  it('a report about another file (or without a stamp) is not used: keep stays the default', () => {
    const status = { driftRoute: driftRoute(DEAD, LISTENERS), resolverStamp: 'abc' };
    expect(keepRisk(status, { hops: [silent], forResolver: 'older' })).toBeNull();
    expect(keepRisk(status, { hops: [silent] })).toBeNull();
    expect(keepRisk({ ...status, resolverStamp: null }, { hops: [silent], forResolver: null })).toBeNull();
  });

  it('a nameserver that replies (NXDOMAIN, SERVFAIL) answers: keep stays the default', () => {
    const status = { driftRoute: driftRoute(DEAD, LISTENERS), resolverStamp: 'abc' };
    expect(keepRisk(status, { hops: [systemHop('nxdomain', 'NXDOMAIN', null)], forResolver: 'abc' })).toBeNull();
    expect(keepRisk(status, { hops: [systemHop('servfail', 'SERVFAIL', null)], forResolver: 'abc' })).toBeNull();
  });

  it('a file still through the proxy: its failure is not their nameserver’s (no dead), and only-the-proxy is no-nameserver', () => {
    const via = { driftRoute: driftRoute('nameserver 127.0.0.1\nnameserver 192.168.1.1\n', LISTENERS), resolverStamp: 'abc' };
    expect(keepRisk(via, { hops: [silent], forResolver: 'abc' })).toBeNull();
    expect(keepRisk({ driftRoute: driftRoute('search lan\n', LISTENERS), resolverStamp: 'abc' }, null)).toEqual({ kind: 'no-nameserver' });
  });

  it('a file the follower refused for its owner (nobody, uid 65534): refused, in the owner rule’s words', () => {
    const reason = resolverOwnerRefusal({ uid: 65534, gid: 65534, mode: 0o644 })!;
    const status = { driftRoute: driftRoute('nameserver 192.168.1.1\n', LISTENERS), resolverStamp: 'abc', driftOwnerRefusal: reason };
    const risk = keepRisk(status, { hops: [systemHop('nxdomain', 'NXDOMAIN', null)], forResolver: 'abc' });
    expect(risk).toEqual({ kind: 'refused', reason });
    expect(keepRiskWords(risk!, status.driftRoute)).toBe("K2s DNS did not follow their file: it is owned by uid 65534, a user account, not root or a system account (a resolver file the network writes is root's or a system service's; K2s follows no file a user could write). Keeping it lets whoever can write it choose this host's DNS.");
  });

  it('root’s file with a nameserver that answers: no risk, keep is the default', () => {
    expect(keepRisk({ driftRoute: driftRoute('nameserver 192.168.1.1\n', LISTENERS), resolverStamp: 'abc', driftOwnerRefusal: null }, { hops: [systemHop('nxdomain', 'NXDOMAIN', null)], forResolver: 'abc' })).toBeNull();
    expect(keepRisk(null, null)).toBeNull();
  });
});

describe('keepRisk: a file that is no resolver file (issue 20, M6)', () => {
  it("garbage with a nameserver that answers: not-resolver, in the follower's words, one sentence", () => {
    const text = 'nameserver 192.168.1.1\nthis is a log\n';
    const reason = notResolverFileRefusal(Buffer.from(text))!;
    const status = { driftRoute: driftRoute(text, LISTENERS), resolverStamp: 'abc', driftFileRefusal: reason };
    const risk = keepRisk(status, { hops: [systemHop('nxdomain', 'NXDOMAIN', null)], forResolver: 'abc' });
    expect(risk).toEqual({ kind: 'not-resolver', reason, leavesNone: false });
    expect(keepRiskWords(risk!, status.driftRoute)).toBe('K2s DNS did not follow their file because it is not a resolver file (line "this is a log" is no resolv.conf(5) directive); keeping it leaves that file as this host\'s resolver.');
  });
  // Walk 7 H1: garbage glibc reads as naming no nameserver gets the no-nameserver warning too.
  const NONE = "K2s DNS did not follow their file because it is not text (it holds NUL bytes); keeping it leaves that file as this host's resolver. Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on this host.";
  it('NUL bytes with no nameserver line: not-resolver AND no name would resolve (banner, dialog, verdict: one rule)', () => {
    const bytes = Buffer.from('this is not\0 a resolver {{{ garbage\n');
    const status = { resolverOwner: 'foreign' as const, driftRoute: driftRoute(bytes.toString('utf8'), LISTENERS), resolverStamp: 'abc', driftFileRefusal: notResolverFileRefusal(bytes) };
    const risk = keepRisk(status, null);
    expect(risk).toEqual({ kind: 'not-resolver', reason: 'the new file is not text (it holds NUL bytes)', leavesNone: true });
    expect(keepRiskWords(risk!, status.driftRoute)).toBe(NONE);
    expect(verdictKeepRisk(status, [])?.words).toBe(NONE);
    // Walk 8 L5: a start after Keep their file refuses this file (status.startRefusal), and the fix says so.
    expect(verdictKeepRisk(status, [])?.startRefuses).toBeUndefined();
    expect(verdictKeepRisk({ ...status, startRefusal: startRefusesResolverFile(bytes) }, [])?.startRefuses).toBe(true);
  });
  it('NUL bytes whose only nameserver line glibc cannot use, and a foreign line beside such a line: the same warning', () => {
    for (const text of ['nameserver <your router or company DNS>\n\0', 'nameserver <your router>\nhello\n']) {
      const bytes = Buffer.from(text);
      const status = { driftRoute: driftRoute(text, LISTENERS), resolverStamp: 'abc', driftFileRefusal: notResolverFileRefusal(bytes) };
      expect(keepRiskWords(keepRisk(status, null)!, status.driftRoute)).toContain('no name would resolve on this host.');
    }
  });
  it("comes before no-nameserver and the owner rule: the follower's first reason is the one shown", () => {
    const text = 'hello world\n';
    const status = { driftRoute: driftRoute(text, LISTENERS), resolverStamp: 'abc', driftFileRefusal: notResolverFileRefusal(Buffer.from(text)), driftOwnerRefusal: resolverOwnerRefusal({ uid: 65534, gid: 65534, mode: 0o644 }) };
    expect(status.driftRoute.keepLeavesNone).toBe(true);
    expect(keepRisk(status, null)?.kind).toBe('not-resolver');
  });
});

describe('savedNameserversNow (the banner claims the saved copy answers only when the report shows it)', () => {
  const up = (target: string, outcome: HealthHop['outcome'], reason: string | null): HealthHop => ({ id: `upstream:${target}`, kind: 'upstream', target: `${target}:53`, name: 'www.example.test', type: 'A', outcome, ok: outcome === 'answer', answers: [], rcode: null, reason, latencyMs: 2 });
  it('a followed network whose nameserver is gone: dead, with the reason; one reply of any rcode: answer', () => {
    const status = { resolverStamp: 'abc' };
    expect(savedNameserversNow(status, { hops: [up('192.0.2.54', 'unreachable', '192.0.2.54:53: network unreachable (ENETUNREACH)')], forResolver: 'abc' })).toEqual({ dead: '192.0.2.54:53: network unreachable (ENETUNREACH)' });
    expect(savedNameserversNow(status, { hops: [up('192.0.2.54', 'timeout', null), up('192.0.2.53', 'nxdomain', null)], forResolver: 'abc' })).toBe('answer');
  });
  it('no upstream hop, or a report for another file: nothing claimed', () => {
    expect(savedNameserversNow({ resolverStamp: 'abc' }, { hops: [silent], forResolver: 'abc' })).toBeNull();
    expect(savedNameserversNow({ resolverStamp: 'abc' }, { hops: [up('192.0.2.54', 'timeout', null)], forResolver: 'old' })).toBeNull();
  });
});

describe('followerRefusal: why the follower refused their file, whatever keepRisk put first (walk 7 M1)', () => {
  it('no resolver file, no nameserver but the proxy’s, a user-writable file; null for a file it would follow', () => {
    expect(followerRefusal({ driftFileRefusal: 'the new file is not a resolver file: line 1 is no resolv.conf(5) directive', driftRoute: driftRoute('nameserver 10.99.99.99\n', LISTENERS) })).toBe('it is not a resolver file: line 1 is no resolv.conf(5) directive');
    expect(followerRefusal({ driftRoute: driftRoute('search example\n', LISTENERS) })).toBe("it names no nameserver but K2s DNS's own listeners");
    expect(followerRefusal({ driftRoute: driftRoute('nameserver 10.99.99.99\n', LISTENERS), driftOwnerRefusal: resolverOwnerRefusal({ uid: 0, gid: 0, mode: 0o666 }) })).toBe('it is writable by every user (mode 0666); K2s follows no file a user could write — fix it with sudo chmod o-w /etc/resolv.conf');
    expect(followerRefusal({ driftRoute: driftRoute('nameserver 10.99.99.99\n', LISTENERS) })).toBeNull();
  });
});

describe('verdictKeepRisk: the drift verdict’s default, for the CLI fix (walk5 H1, M5)', () => {
  const owner = resolverOwnerRefusal({ uid: 0, gid: 0, mode: 0o666 })!;
  it('a 0666 file whose nameserver is dead: the banner’s warning (dead first), and a plain stop restores too (refused)', () => {
    const status = { resolverOwner: 'foreign' as const, driftRoute: driftRoute('nameserver 10.99.99.99\n', LISTENERS), driftOwnerRefusal: owner, resolverStamp: 'abc' };
    const r = verdictKeepRisk(status, [silent]);
    expect(r).toEqual({ words: 'Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 10.99.99.99:53, which does not answer now (getaddrinfo was refused in 3 ms (getaddrinfo EAI_AGAIN)): no name would resolve on this host.', short: 'no name would resolve on this host after it', stopRestores: true, gone: null, refused: 'it is writable by every user (mode 0666); K2s follows no file a user could write — fix it with sudo chmod o-w /etc/resolv.conf' });
  });
  it('root’s 0644 file with a dead nameserver: the banner’s default only (a plain stop keeps it)', () => {
    const status = { resolverOwner: 'foreign' as const, driftRoute: driftRoute('nameserver 10.99.99.99\n', LISTENERS), resolverStamp: 'abc' };
    expect(verdictKeepRisk(status, [silent])?.stopRestores).toBe(false);
    // Not refused by the follower: a start after Keep their file adopts a file it would have followed.
    expect(verdictKeepRisk(status, [silent])?.refused).toBeNull();
    expect(verdictKeepRisk({ ...status, resolverOwner: 'k2s' }, [silent])).toBeNull();
  });
  it("K2s's own file edited in place with nameserver 127.0.0.1 kept: Restore is the default, as for their file (breaker 10 M4)", () => {
    const edited = "# Managed by K2s native Linux installation; restored by k2s stop or uninstall\nnameserver 127.0.0.1\nsearch exinplace.example.test\n";
    const status = { resolverOwner: 'k2s' as const, resolverEdited: true, driftRoute: driftRoute(edited, LISTENERS), resolverStamp: 'abc' };
    expect(verdictKeepRisk(status, [])).toEqual({ words: 'Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on this host.', short: 'no name would resolve on this host after it', stopRestores: true, gone: null, refused: "it names no nameserver but K2s DNS's own listeners" });
    // K2s's file as K2s wrote it is no drift.
    expect(verdictKeepRisk({ ...status, resolverEdited: false }, [])).toBeNull();
  });
  it('a deleted file: gone, before no-nameserver, in words that say both choices put the original back', () => {
    const status = { resolverOwner: 'foreign' as const, driftRoute: driftRoute('', LISTENERS), driftGone: 'deleted', resolverStamp: 'absent' };
    expect(keepRisk(status, null)).toEqual({ kind: 'gone', what: 'deleted' });
    expect(verdictKeepRisk(status, [])).toEqual({ words: '/etc/resolv.conf was deleted while K2s DNS ran, so there is no file of theirs to keep: stopping K2s DNS puts your saved original back, byte for byte.', short: 'stopping puts your saved original back', stopRestores: true, gone: 'deleted', refused: null });
  });
});

// New-user walk (sandbox): `nameserver 127.0.0.1` + an unreachable nameserver. The one rule a plain
// stop, the banner's default and status's fix share: would any nameserver of their file answer once K2s DNS stopped?
describe('silentAfterStop: the drift default\'s one rule', () => {
  const MIXED = 'nameserver 127.0.0.1\nnameserver 192.0.2.77\n';
  const ownAndDead = [{ nameserver: '127.0.0.1', own: true }, { nameserver: '192.0.2.77', own: false, answered: false }];
  const ownAndAlive = [{ nameserver: '127.0.0.1', own: true }, { nameserver: '192.0.2.77', own: false, answered: true }];

  it('only K2s DNS\'s listeners and a nameserver that did not answer: restore, and why in one clause', () => {
    expect(silentAfterStop(ownAndDead)).toBe("127.0.0.1 is K2s DNS's own listener; 192.0.2.77 did not answer");
    expect(restoredSilentWords(silentAfterStop(ownAndDead)!)).toBe("Restored your original: their file's nameservers would not answer once K2s DNS stopped (127.0.0.1 is K2s DNS's own listener; 192.0.2.77 did not answer); --on-drift keep would have kept theirs.");
  });

  it('a nameserver that answers, or one not asked: keep (null)', () => {
    expect(silentAfterStop(ownAndAlive)).toBeNull();
    expect(silentAfterStop([{ nameserver: '127.0.0.1', own: true }, { nameserver: '192.0.2.77', own: false }])).toBeNull();
    expect(silentAfterStop([])).toBeNull();
  });

  it('the banner (keepRisk) and status (verdictKeepRisk, verdictFix) apply it to a report made for this file', () => {
    const status = { resolverOwner: 'foreign' as const, driftRoute: driftRoute(MIXED, LISTENERS), resolverStamp: 'abc' };
    // getaddrinfo still answers (127.0.0.1 is first: through K2s DNS), as in the walk.
    const answered = systemHop('answer', 'NOERROR', null);
    const risk = keepRisk(status, { hops: [answered], forResolver: 'abc', theirNameservers: ownAndDead });
    expect(risk).toEqual({ kind: 'dead', nameservers: ['127.0.0.1', '192.0.2.77'], why: "127.0.0.1 is K2s DNS's own listener; 192.0.2.77 did not answer", afterStop: true });
    expect(keepRiskWords(risk!, status.driftRoute)).toBe("Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 127.0.0.1:53 and 192.0.2.77:53, where nothing would answer then (127.0.0.1 is K2s DNS's own listener; 192.0.2.77 did not answer): no name would resolve on this host.");
    expect(keepRisk(status, { hops: [answered], forResolver: 'abc', theirNameservers: ownAndAlive })).toBeNull();
    // A report about another file is not used.
    expect(keepRisk(status, { hops: [answered], forResolver: 'older', theirNameservers: ownAndDead })).toBeNull();
    // status: a plain stop applies the same rule, so Restore is "the default", never "the banner's default" only.
    const v = verdictKeepRisk(status, [answered], ownAndDead);
    expect(v?.stopRestores).toBe(true);
    expect(verdictFix({ action: 'restore-via', keepRisk: v! }, 'cli')).toBe('nothing is broken now; to end the drift: sudo npx k2s-dns stop --on-drift restore (the default; not --on-drift keep: no name would resolve on this host after it)');
    // Their other nameserver answers: Keep their file is the default everywhere, and status says so.
    expect(verdictKeepRisk(status, [answered], ownAndAlive)).toBeNull();
    expect(verdictFix({ action: 'restore-via' }, 'cli')).toBe('nothing is broken now; to end the drift: "Keep their file" (the default): sudo npx k2s-dns stop --on-drift keep; or "Restore my original": sudo npx k2s-dns stop --on-drift restore');
  });
});
