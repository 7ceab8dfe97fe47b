/**
 * Issue #20, the whole exact log: the Queries view pages back through the exact query log with
 * `logs:exact` before (Load older rows), prepends each page, keeps the pages while the live poll
 * refreshes the newest EXACT_ROWS rows, and holds the start only when an older page reached it.
 */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import { CONTRACT } from '../../../shared/contract';
import type { ExactQueryLog } from '../../../shared/query-log/exact';
import type { QueryRow } from '../../../shared/query-log/row';
import { createLogsStore, EXACT_OLDER_ROWS, EXACT_ROWS } from './logs';

const T0 = 1_764_000_000_000_000;
const mk = (n: number): QueryRow => ({ key: `cap-${T0 + n}-127.0.0.1:4000-${n}`, engine: 'adguard', time: null, client: '127.0.0.1:4000', name: `e${n}.test`, type: 'A', route: 'cache', zone: null, upstream: null, answers: [], rcode: 'NOERROR', error: null, latencyMs: 0.1, protocol: 'udp', run: 0, probe: false, mixed: false });

/** An exact log of rows 1..count (µs T0 + n), growing with `grow`; paged as the real reader pages (ties at the cursor kept). */
function fakeApi(count: number) {
  let total = count;
  const calls: { rows: number; before?: number }[] = [];
  const logsExact = async (input: { rows: number; before?: number }): Promise<ExactQueryLog> => {
    calls.push(input);
    const upTo = input.before === undefined ? total : Math.min(total, input.before - T0);
    const start = Math.max(0, upTo - input.rows);
    const rows = Array.from({ length: upTo - start }, (_, i) => mk(start + i + 1));
    return { available: true, reason: null, rows, complete: start === 0, files: ['/q.jsonl.1', '/q.jsonl'], ...(rows.length ? { oldestUs: T0 + start + 1 } : {}) };
  };
  const api = { logsExact, logsPage: async () => ({ lines: [], older: null, lost: false }), onLogLines: () => () => undefined } as unknown as K2sDnsApi;
  return { api, calls, grow: (n: number) => (total += n) };
}
const shown = (s: { exactOlder: QueryRow[]; exact: ExactQueryLog | null }) => [...s.exactOlder, ...(s.exact?.rows ?? [])].map((r) => r.name);

describe('logs store: older exact rows', () => {
  it('pages back 9,999 new rows at a time: the walk\'s 19,000-row log reaches its first row in 2 pages (was 9), then says it holds the start', async () => {
    const { api, calls } = fakeApi(19_000);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    await store.getState().loadOlderExact();
    expect(calls.at(-1)).toEqual({ rows: EXACT_OLDER_ROWS, before: T0 + 17_001 });
    expect(store.getState().exactOlder).toHaveLength(9_999);
    expect(store.getState().exactAtStart).toBe(false);
    await store.getState().loadOlderExact();
    expect(calls.at(-1)).toEqual({ rows: EXACT_OLDER_ROWS, before: T0 + 7_002 });
    expect(shown(store.getState())).toEqual(Array.from({ length: 19_000 }, (_, i) => `e${i + 1}.test`));
    expect(store.getState().exactAtStart).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('pages back to the first row of a 25,000-row log, then says it holds the start', async () => {
    const { api, calls } = fakeApi(25_000);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    expect(store.getState().exact!.rows).toHaveLength(EXACT_ROWS);
    expect(store.getState().exactAtStart).toBe(false);
    await store.getState().loadOlderExact();
    // At or before the oldest row held: it comes back too (not doubled).
    expect(calls.at(-1)).toEqual({ rows: EXACT_OLDER_ROWS, before: T0 + 23_001 });
    expect(store.getState().exactOlder).toHaveLength(9_999);
    expect(shown(store.getState())[0]).toBe('e13002.test');
    expect(store.getState().exactAtStart).toBe(false);
    await store.getState().loadOlderExact();
    expect(calls.at(-1)).toEqual({ rows: EXACT_OLDER_ROWS, before: T0 + 13_002 });
    await store.getState().loadOlderExact();
    expect(calls.at(-1)).toEqual({ rows: EXACT_OLDER_ROWS, before: T0 + 3_003 });
    const all = shown(store.getState());
    expect(all).toHaveLength(25_000);
    expect(all).toEqual(Array.from({ length: 25_000 }, (_, i) => `e${i + 1}.test`));
    expect(store.getState().exactAtStart).toBe(true);
    // At the start: no more requests.
    const n = calls.length;
    await store.getState().loadOlderExact();
    expect(calls.length).toBe(n);
  });

  it('the live poll still asks only for the newest EXACT_ROWS and keeps the paged rows, with no hole when it moves on', async () => {
    const { api, calls, grow } = fakeApi(15_000);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    await store.getState().loadOlderExact();
    grow(300);
    await store.getState().loadExact();
    expect(calls.at(-1)).toEqual({ rows: EXACT_ROWS });
    const all = shown(store.getState());
    // 3002..15300: the 300 rows pushed out of the newest page stay between the older page and it.
    expect(all).toEqual(Array.from({ length: 12_299 }, (_, i) => `e${i + 3002}.test`));
    expect(new Set(store.getState().exactOlder.map((r) => r.key)).size).toBe(store.getState().exactOlder.length);
  });

  it('a log that fits in the newest page needs no paging: nothing is asked', async () => {
    const { api, calls } = fakeApi(50);
    const store = createLogsStore(api);
    await store.getState().loadExact();
    expect(store.getState().exact!.complete).toBe(true);
    await store.getState().loadOlderExact();
    expect(calls).toEqual([{ rows: EXACT_ROWS }]);
  });

  it('the contract takes before as µs (a non-negative integer), and with text too (a filter\'s older matches, walk5 M2)', () => {
    const input = CONTRACT['logs:exact'].input;
    expect(input.safeParse({ rows: 2000, before: T0 }).success).toBe(true);
    expect(input.safeParse({ rows: 2000, before: -1 }).success).toBe(false);
    expect(input.safeParse({ rows: 2000, before: 1.5 }).success).toBe(false);
    expect(input.safeParse({ rows: 2000, before: '1' }).success).toBe(false);
    expect(input.safeParse({ rows: 2000, before: T0, text: 'x' }).success).toBe(true);
    // One older page (EXACT_OLDER_ROWS) fits the contract, no more.
    expect(input.safeParse({ rows: EXACT_OLDER_ROWS, before: T0 }).success).toBe(true);
    expect(input.safeParse({ rows: EXACT_OLDER_ROWS + 1, before: T0 }).success).toBe(false);
  });
});
