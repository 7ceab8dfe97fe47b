/**
 * Issue 20, one message per fact: a CoreDNS that is down is refused (ICMP port unreachable) or,
 * past the kernel's ICMP rate limit, silent — back-to-back queries read one or the other. The
 * Query tester says the one headline "does not answer" with which one as the detail; the rcode
 * badge keeps the exact rcode. A sentence of the backend's own (K2s DNS is not running…) stays.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { QueryResult } from '../../../shared/types';

vi.mock('../stores', () => ({ useHealth: (sel: (s: unknown) => unknown) => sel({ report: null }) }));

import { QueryResultCard } from './QueryResultCard';

const base: QueryResult = { server: '172.21.0.10:53', name: 'kubernetes.default.svc.cluster.local', type: 'A', rcode: 'TIMEOUT', answers: [], latencyMs: 3000, transport: 'udp' } as QueryResult;
/** The card's error line and rcode badge as shown. */
const shown = (r: QueryResult) => {
  const html = renderToStaticMarkup(<QueryResultCard result={r} />);
  const text = (id: string) => (html.match(new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`)) ?? [])[1];
  return { error: text('query-error'), rcode: text('query-rcode') };
};

describe('Query tester: a DNS server that is down reads as one fact', () => {
  it('refused or silent: "does not answer" with the detail; the badge keeps the rcode', () => {
    const silent = shown({ ...base, rcode: 'TIMEOUT', error: 'no answer from 172.21.0.10:53 over UDP', latencyMs: 3001 });
    const refused = shown({ ...base, rcode: 'ERROR', error: '172.21.0.10:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)', latencyMs: 1 });
    expect(silent.error).toBe('172.21.0.10:53 does not answer (no reply in 3001 ms)');
    expect(refused.error).toBe('172.21.0.10:53 does not answer (refused: port unreachable)');
    expect(silent.rcode).toBe('TIMEOUT');
    expect(refused.rcode).not.toBe(silent.rcode);
  });
  it("the backend's own sentence stays", () => {
    const msg = 'K2s DNS is not running, so nothing answers on 127.0.0.1:53: press Start first, or ask another target.';
    expect(shown({ ...base, server: '127.0.0.1:53', error: msg }).error).toBe(msg);
  });
});

describe('Query tester: an answer that spells the name asked with other capitals', () => {
  const noteOf = (r: QueryResult) => (renderToStaticMarkup(<QueryResultCard result={r} />).match(/data-testid="query-case-note"[^>]*>([^<]*)</) ?? [])[1]?.replace(/&#x27;/g, "'");
  it("says why, in the CLI's words (shared/answer-case.ts): the health check's spelling from the proxy's cache", () => {
    const r: QueryResult = { ...base, server: '127.0.0.1:53', rcode: 'NOERROR', latencyMs: 1, answers: [{ name: 'KUBERNETES.DEFAULT.svc.cluster.local.', type: 'A', ttl: 18, data: '172.21.0.1' }] };
    expect(noteOf(r)).toBe(
      "Note: KUBERNETES.DEFAULT.svc.cluster.local is the name asked (DNS names ignore case, RFC 4343), in the spelling of k2s-dns's health check: a cache answers with the spelling a name was first asked in.",
    );
  });
  it('none for an answer in the spelling asked', () => {
    const r: QueryResult = { ...base, rcode: 'NOERROR', latencyMs: 1, answers: [{ name: 'kubernetes.default.svc.cluster.local.', type: 'A', ttl: 30, data: '172.21.0.1' }] };
    expect(noteOf(r)).toBeUndefined();
  });
});
