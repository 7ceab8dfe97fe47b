/**
 * Concurrent queries in dnsproxy's verbose log (new-user pass 2026-12-01: a row showed another
 * query's client and answer). v0.83.1's records carry no request id, so rows built from
 * interleaved records are marked `mixed`; rows from records one query after another are not.
 * The records are the real capture's (fixtures/logs/health-probe/dnsproxy.log) with the client,
 * DNS id, name and answer replaced.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';
import { buildQueryLog } from './query-log';

const CAPTURE = readFileSync(new URL('../fixtures/logs/health-probe/dnsproxy.log', import.meta.url), 'utf8').split('\n');
/** The one query of the capture: from `handling new packet` to the last `out` record. */
const first = CAPTURE.findIndex((l) => l.includes('handling new packet'));
const last = CAPTURE.findIndex((l) => l.includes('out prefix=dnsproxy line_num=12'));
const QUERY = CAPTURE.slice(first, last + 1).map((l) => l.slice('2026/12/01 04:13:55.257107 '.length));
const START = CAPTURE.slice(0, first);

/** The capture's query as `client` asking `name` A (DNS id `id`), answered `answer`; records without time. */
function query(client: string, id: number, name: string, answer: string): string[] {
  return QUERY.map((r) =>
    r.replace('127.0.0.1:36938', client).replaceAll('12186', String(id)).replaceAll('KUBERNETES.DEFAULT.svc.cluster.local', name).replace('10.0.0.1', answer),
  );
}

/** Records stamped 1 µs apart from 04:13:56.000000, in the order given. */
function stamped(records: string[]): string[] {
  return records.map((r, i) => `2026/12/01 04:13:56.${String(i).padStart(6, '0')} ${r}`);
}

const rowsOf = (lines: string[]) => buildQueryLog([...START, ...lines].map((l) => parseLogLine(l))).map((r) => `${r.client} ${r.name} ${r.answers.join(',')} ${r.mixed}`);

describe('dnsproxy queries logged concurrently are marked mixed', () => {
  const a = query('127.0.0.1:1111', 101, 'a.example.test', '192.0.2.1');
  const b = query('127.0.0.1:2222', 202, 'b.example.test', '192.0.2.2');

  it('one after another: each row has its own client and answer, none mixed', () => {
    expect(rowsOf(stamped([...a, ...b]))).toEqual(['127.0.0.1:1111 a.example.test 192.0.2.1 false', '127.0.0.1:2222 b.example.test 192.0.2.2 false']);
  });

  it('one after another a second apart: not mixed (a finished message is no rival)', () => {
    const late = stamped(b).map((l) => l.replace('04:13:56.', '04:13:57.'));
    expect(rowsOf([...stamped(a), ...late]).map((r) => r.endsWith('false'))).toEqual([true, true]);
  });

  it('the real captures (queries one after another) have no mixed row', () => {
    for (const name of ['dnsproxy-verbose', 'dnsproxy-quiet']) {
      const text = readFileSync(new URL(`../fixtures/logs/${name}.log`, import.meta.url), 'utf8');
      const rows = buildQueryLog(text.split('\n').filter((l) => l !== '').map((l) => parseLogLine(l)));
      expect(rows.filter((r) => r.mixed).map((r) => r.name), name).toEqual([]);
    }
  });

  it('records interleaved one by one: both rows are marked mixed', () => {
    const interleaved = a.flatMap((r, i) => [r, b[i]!]);
    const rows = rowsOf(stamped(interleaved));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.endsWith(' true'))).toBe(true);
  });
});
