import { describe, expect, it } from 'vitest';
import { buildQueryLog } from '../../../shared/query-log';
import { createLogsStore, MAX_HISTORY_LINES, MAX_LOG_LINES, OLDER_PAGE_LINES } from './logs';
import type { K2sDnsApi } from '../../../shared/api';
import type { LogLine } from '../../../shared/types';
import { inProcessApi } from '../../../e2e/support/in-process-api';

// 600 user queries + 600 probes of ~24 lines each: ~29,000 lines, far past one page of 5,000.
const HISTORY = 600;

describe('logs store: the whole log', () => {
  it('pages back to the first query of a long log, newest page first, every line once', async () => {
    const logs = createLogsStore(inProcessApi({ history: HISTORY }));
    await logs.getState().loadTail();
    expect(logs.getState().lines.length).toBeLessThanOrEqual(1000);
    expect(logs.getState().older).not.toBeNull();
    const names = () => buildQueryLog(logs.getState().lines).filter((r) => !r.probe).map((r) => r.name);
    expect(names()).not.toContain('q1.history.example');
    let pages = 0;
    while (logs.getState().older && pages < 20) {
      await logs.getState().loadOlder();
      pages += 1;
    }
    expect(logs.getState().older).toBeNull();
    expect(logs.getState().atStart).toBe(true);
    const all = names().filter((n) => n.endsWith('.history.example'));
    expect(all).toHaveLength(HISTORY);
    expect(all[0]).toBe('q1.history.example');
    expect(all.at(-1)).toBe(`q${HISTORY}.history.example`);
    // History is kept on top of the live budget: a pushed line does not trim it away.
    logs.getState().append(logs.getState().lines.slice(-1));
    expect(logs.getState().lines.length).toBeGreaterThan(MAX_LOG_LINES);
  });

  it('searches the whole log, not the buffer: an old query is found with its count, probes not counted', async () => {
    const logs = createLogsStore(inProcessApi({ history: HISTORY }));
    await logs.getState().loadTail();
    await logs.getState().runSearch('q7.history.example');
    const s = logs.getState().search!;
    expect(s.result!.matches).toBeGreaterThan(0);
    const rows = buildQueryLog(s.result!.lines).filter((r) => r.name === 'q7.history.example');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.answers).toEqual(['192.0.2.10']);
    // The case-insensitive search finds the user's own kubernetes.default queries (the captured
    // dnsmasq run: 5 lines) but not the probes' lines, until they are shown.
    await logs.getState().runSearch('kubernetes.default.svc');
    expect(logs.getState().search!.result!.matches).toBe(5);
    logs.getState().setShowProbes(true);
    await logs.getState().runSearch('kubernetes.default.svc');
    expect(logs.getState().search!.result!.matches).toBeGreaterThan(5 + HISTORY);
    await logs.getState().runSearch('');
    expect(logs.getState().search).toBeNull();
  });
});

/** Plain log lines that are no query's (the cap may cut them; they are not health probes). */
function plainLines(n: number, from = 0): LogLine[] {
  return Array.from({ length: n }, (_, i) => ({ time: null, level: 'INFO' as const, message: `line ${from + i}`, fields: {}, raw: `line ${from + i}` }));
}

describe('logs store: "Start of the log" only at the first line of the oldest file', () => {
  it('a window opened on a short log is at the start, until the cap cuts its first lines', async () => {
    const logs = createLogsStore(inProcessApi());
    await logs.getState().loadTail();
    // The fake's whole log fits in one tail page: its first line is held.
    expect(logs.getState().older).toBeNull();
    expect(logs.getState().atStart).toBe(true);
    const first = logs.getState().lines[0]!.raw;
    // A long-open window: more lines arrive than the buffer keeps; the log's first lines leave it.
    logs.getState().append(plainLines(MAX_LOG_LINES));
    expect(logs.getState().lines[0]!.raw).not.toBe(first);
    expect(logs.getState().atStart).toBe(false);
    expect(logs.getState().older).toBeNull();
  });

  it('a cut drops the paging cursor too (paging from it would leave a hole)', async () => {
    const logs = createLogsStore(inProcessApi({ history: HISTORY }));
    await logs.getState().loadTail();
    expect(logs.getState().older).not.toBeNull();
    logs.getState().append(plainLines(MAX_LOG_LINES));
    expect(logs.getState().older).toBeNull();
    expect(logs.getState().atStart).toBe(false);
  });

  it('reaching the history cap is not the start of the log', async () => {
    // Every page claims more lines before it: the log is longer than the window keeps.
    let served = 0;
    const api = {
      logsPage: async () => ({ lines: plainLines(OLDER_PAGE_LINES, (served += OLDER_PAGE_LINES)), older: { ino: 1, offset: 1_000_000_000 - served }, lost: false }),
      onLogLines: () => () => undefined,
    } as unknown as K2sDnsApi;
    const logs = createLogsStore(api);
    await logs.getState().loadTail();
    let pages = 0;
    while (logs.getState().older && pages < 40) {
      await logs.getState().loadOlder();
      pages += 1;
    }
    expect(logs.getState().history).toBe(MAX_HISTORY_LINES);
    expect(logs.getState().older).toBeNull();
    expect(logs.getState().atStart).toBe(false);
  });
});
