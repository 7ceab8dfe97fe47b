/**
 * Issue #20, the whole exact log: readCapturedRows with a `before` cursor pages back through the
 * current file and its rotated `.1` (rows from both files, ties at the cursor kept, the start of
 * the log said only when the page reaches the first row of `.1`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCapturedRows } from './rows-reader';
import { exactQueryLog } from './exact-log';

const T0 = 1_764_000_000_000_000;
const row = (n: number, us = T0 + n * 1000) => JSON.stringify({ proto: 'udp', client: `127.0.0.1:${40000 + n}`, listener: '127.0.0.1:53', id: n, name: `q${n}.test`, type: 'A', queryUs: us, rcode: 'NOERROR', answers: [], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 });
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('readCapturedRows with before: the page older than the rows held', () => {
  let dir = '';
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  /** Rows 1..60 in queries.jsonl.1 and 61..100 in queries.jsonl. */
  async function twoFiles(): Promise<string> {
    dir = await mkdtemp(path.join(tmpdir(), 'rows-older-'));
    const file = path.join(dir, 'queries.jsonl');
    await writeFile(`${file}.1`, Array.from({ length: 60 }, (_, i) => `${row(i + 1)}\n`).join(''));
    await writeFile(file, Array.from({ length: 40 }, (_, i) => `${row(i + 61)}\n`).join(''));
    return file;
  }

  it('the newest page has oldestUs; the page before it reads across both files, up to the cursor', async () => {
    const file = await twoFiles();
    const live = await readCapturedRows(file, 30, 'adguard', []);
    expect(names(live.rows)[0]).toBe('q71.test');
    expect(live.oldestUs).toBe(T0 + 71_000);
    expect(live.complete).toBe(false);
    // Ties kept: the row at the cursor comes back (the store drops it by its key, the same in both pages).
    const older = await readCapturedRows(file, 30, 'adguard', [], live.oldestUs);
    expect(names(older.rows)).toEqual(Array.from({ length: 30 }, (_, i) => `q${i + 42}.test`));
    expect(older.rows.at(-1)!.key).toBe(live.rows[0]!.key);
    expect(older.oldestUs).toBe(T0 + 42_000);
    expect(older.complete).toBe(false);
    expect(older.files).toEqual([`${file}.1`, file]);
  });

  it('exact boundaries: a cursor just below a row leaves it out; the last page reaches the first row of .1 and says so', async () => {
    const file = await twoFiles();
    const below = await readCapturedRows(file, 10, 'adguard', [], T0 + 61_000 - 1);
    expect(names(below.rows)).toEqual(Array.from({ length: 10 }, (_, i) => `q${i + 51}.test`));
    // 12 rows at or before q12: the newest 10 of them, not yet the start.
    const near = await readCapturedRows(file, 10, 'adguard', [], T0 + 12_000);
    expect(names(near.rows)).toEqual(Array.from({ length: 10 }, (_, i) => `q${i + 3}.test`));
    expect(near.complete).toBe(false);
    const last = await readCapturedRows(file, 10, 'adguard', [], near.oldestUs! - 1);
    expect(names(last.rows)).toEqual(['q1.test', 'q2.test']);
    expect(last.complete).toBe(true);
  });

  it('a cursor older than every row: no rows, complete (the start of the log)', async () => {
    const file = await twoFiles();
    const none = await readCapturedRows(file, 10, 'adguard', [], T0);
    expect(none.rows).toEqual([]);
    expect(none.complete).toBe(true);
    expect(none.oldestUs).toBeUndefined();
    expect(none.present).toBe(true);
  });

  it('rows ordered by query time across the files (a timed-out query written late) page by that time', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rows-older-'));
    const file = path.join(dir, 'queries.jsonl');
    await writeFile(`${file}.1`, `${row(1)}\n${row(3)}\n`);
    // q2 was asked before q3 but written after it (a timeout), in the current file.
    await writeFile(file, `${row(4)}\n${row(2)}\n${row(5)}\n`);
    const page = await readCapturedRows(file, 2, 'adguard', [], T0 + 3_000);
    expect(names(page.rows)).toEqual(['q2.test', 'q3.test']);
    expect(page.complete).toBe(false);
  });

  it('logs:exact passes the cursor through (exactQueryLog before) and answers oldestUs', async () => {
    const file = await twoFiles();
    const got = await exactQueryLog(file, 5, 'adguard', async () => '/usr/bin/tcpdump', undefined, undefined, undefined, T0 + 5_000);
    expect(got).toMatchObject({ available: true, complete: true, oldestUs: T0 + 1_000 });
    expect(names(got.rows)).toEqual(['q1.test', 'q2.test', 'q3.test', 'q4.test', 'q5.test']);
  });
});
