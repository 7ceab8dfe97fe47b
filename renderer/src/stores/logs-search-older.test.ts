/**
 * Walk5 M2: a filter in the Queries view said "2362 matching queries … showing the newest" and
 * the 362 older matches could not be reached. The store pages back through the matches with
 * `logs:exact` text + before, as the unfiltered view pages through the rows.
 */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { ExactQueryLog } from '../../../shared/query-log/exact';
import type { QueryRow } from '../../../shared/query-log/row';
import { createLogsStore, EXACT_ROWS } from './logs';

const T0 = 1_764_000_000_000_000;
const mk = (n: number): QueryRow => ({ key: `cap-${T0 + n}-127.0.0.1:4000-${n}`, engine: 'adguard', time: null, client: '127.0.0.1:4000', name: `m${n}.kubernetes.test`, type: 'A', route: 'cache', zone: null, upstream: null, answers: [], rcode: 'NOERROR', error: null, latencyMs: 0.1, protocol: 'udp', run: 0, probe: false, mixed: false });

/** 2362 matches (µs T0 + n), searched as rows-search.ts does: the newest `rows` at or before `before`, ties kept. */
function fakeApi(matches: number) {
  const calls: { rows: number; text?: string; before?: number; probes?: boolean }[] = [];
  const logsExact = async (input: { rows: number; text?: string; before?: number }): Promise<ExactQueryLog> => {
    calls.push(input);
    if (input.text === undefined) return { available: true, reason: null, rows: [mk(matches)], complete: false, files: ['/q.jsonl'], oldestUs: T0 + matches };
    const upTo = input.before === undefined ? matches : Math.min(matches, input.before - T0);
    const start = Math.max(0, upTo - input.rows);
    const rows = Array.from({ length: upTo - start }, (_, i) => mk(start + i + 1));
    return { available: true, reason: null, rows, ...(rows.length ? { oldestUs: T0 + start + 1 } : {}), search: { text: input.text, matches, truncated: start > 0, bytesScanned: 3 << 20, files: ['/q.jsonl'], tookMs: 125 } };
  };
  const api = { logsExact, logsPage: async () => ({ lines: [], older: null, lost: false }), onLogLines: () => () => undefined } as unknown as K2sDnsApi;
  return { api, calls };
}

describe('logs store: older matches of a filter (walk5 M2)', () => {
  it('loads the 362 older matches of 2362 above the newest 2000, without doubles, then asks no more', async () => {
    const { api, calls } = fakeApi(2362);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    store.getState().setView('queries');
    await store.getState().runSearch('kubernetes');
    expect(store.getState().search!.exact!.rows).toHaveLength(EXACT_ROWS);
    expect(store.getState().search!.exact!.search!.truncated).toBe(true);
    await store.getState().loadOlderMatches();
    expect(calls.at(-1)).toEqual({ rows: EXACT_ROWS + 1, text: 'kubernetes', probes: false, before: T0 + 363 });
    const s = store.getState().search!;
    expect(s.loadingOlder).toBe(false);
    expect(s.exact!.rows.map((r) => r.name)).toEqual(Array.from({ length: 2362 }, (_, i) => `m${i + 1}.kubernetes.test`));
    expect(s.exact!.search).toMatchObject({ matches: 2362, truncated: false });
    const n = calls.length;
    await store.getState().loadOlderMatches();
    expect(calls.length).toBe(n);
  });

  it('a page that arrives after the filter changed is dropped', async () => {
    const { api } = fakeApi(2362);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    store.getState().setView('queries');
    await store.getState().runSearch('kubernetes');
    const paging = store.getState().loadOlderMatches();
    await store.getState().runSearch('other');
    await paging;
    expect(store.getState().search!.text).toBe('other');
    expect(store.getState().search!.exact!.rows).toHaveLength(EXACT_ROWS);
  });
});
