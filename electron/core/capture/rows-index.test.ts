/**
 * Issue 20, "Load older rows" cost ~2.5 s a page: every older page (`logs:exact` with before)
 * parsed both files of the exact log whole again. The index keeps their rows parsed and parses
 * only what was appended since; its pages equal a fresh read's.
 */
import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCapturedRows } from './rows-reader';
import { createRowsIndex } from './rows-index';

const T0 = 1_764_000_000_000_000;
const row = (n: number, us = T0 + n * 1000) => `${JSON.stringify({ proto: 'udp', client: `127.0.0.1:${40000 + n}`, listener: '127.0.0.1:53', id: n, name: `q${n}.test`, type: 'A', queryUs: us, rcode: 'NOERROR', answers: [], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 })}\n`;
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => row(from + i)).join('');
const names = (r: { name: string }[]) => r.map((x) => x.name);

describe('createRowsIndex: older pages of the exact log parse each line once', () => {
  let dir = '';
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('pages without a change parse nothing; appended rows are parsed alone and join in query order; a rotation parses again', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rows-index-'));
    const file = path.join(dir, 'queries.jsonl');
    await writeFile(`${file}.1`, rows(1, 60));
    await writeFile(file, rows(61, 100));
    const index = createRowsIndex(2 ** 20);
    const p1 = await readCapturedRows(file, 30, 'adguard', [], T0 + 71_000, index);
    expect(names(p1.rows)).toEqual(Array.from({ length: 30 }, (_, i) => `q${i + 42}.test`));
    expect(index.parsedLines).toBe(100);
    // The next pages, no file changed: no line parsed again (main parsed all 100 for each).
    const p2 = await readCapturedRows(file, 30, 'adguard', [], p1.oldestUs!, index);
    expect(names(p2.rows)).toEqual(Array.from({ length: 30 }, (_, i) => `q${i + 13}.test`));
    const p3 = await readCapturedRows(file, 30, 'adguard', [], p2.oldestUs!, index);
    expect(names(p3.rows)).toEqual(Array.from({ length: 13 }, (_, i) => `q${i + 1}.test`));
    expect(p3.complete).toBe(true);
    expect(index.parsedLines).toBe(100);
    // Traffic meanwhile: 2 rows appended, one a timeout asked before q100 (written late).
    await appendFile(file, row(101) + row(150, T0 + 99_500));
    const p4 = await readCapturedRows(file, 3, 'adguard', [], T0 + 200_000, index);
    expect(index.parsedLines).toBe(102);
    expect(names(p4.rows)).toEqual(['q150.test', 'q100.test', 'q101.test']);
    // The same page as a fresh read (no index) gives.
    expect(p4).toEqual(await readCapturedRows(file, 3, 'adguard', [], T0 + 200_000));
    // Rotation: the current file becomes .1 (new inode for both names), a new current file starts.
    await rename(file, `${file}.1`);
    await writeFile(file, rows(102, 103));
    const p5 = await readCapturedRows(file, 100, 'adguard', [], T0 + 200_000, index);
    expect(names(p5.rows).slice(0, 3)).toEqual(['q61.test', 'q62.test', 'q63.test']);
    expect(p5.rows.at(-1)!.name).toBe('q103.test');
    expect(p5.rows).toHaveLength(44);
    expect(p5.complete).toBe(true);
    expect(index.parsedLines).toBe(102 + 42 + 2);
  });

  it('a file replaced by a shorter one, or emptied, is parsed again; clear() drops what is kept', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rows-index-'));
    const file = path.join(dir, 'queries.jsonl');
    await writeFile(file, rows(1, 10));
    const index = createRowsIndex(2 ** 20);
    expect((await index.rows(file)).sorted).toHaveLength(10);
    await writeFile(file, rows(20, 22));
    expect((await index.rows(file)).sorted.map((r) => r.queryUs)).toEqual([T0 + 20_000, T0 + 21_000, T0 + 22_000]);
    await writeFile(file, '');
    expect((await index.rows(file)).sorted).toEqual([]);
    index.clear();
    await writeFile(file, rows(1, 2));
    expect((await index.rows(file)).sorted).toHaveLength(2);
    expect(index.parsedLines).toBe(10 + 3 + 2);
  });

  it('lines that are no row (a cut line, the counts line, foreign text) are skipped: a page still holds `limit` rows and says the start only at the first row', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rows-index-'));
    const file = path.join(dir, 'queries.jsonl');
    const cut = row(3).slice(0, 40);
    await writeFile(`${file}.1`, `not json\n${row(1)}${row(2)}{"counts":{"received":5}}\n${cut}"queryUs":${T0 + 2_500},\n${row(4)}`);
    await writeFile(file, row(5));
    const index = createRowsIndex(2 ** 20);
    const p1 = await readCapturedRows(file, 2, 'adguard', [], T0 + 5_000, index);
    expect(names(p1.rows)).toEqual(['q4.test', 'q5.test']);
    expect(p1.complete).toBe(false);
    const p2 = await readCapturedRows(file, 2, 'adguard', [], T0 + 3_000, index);
    expect(names(p2.rows)).toEqual(['q1.test', 'q2.test']);
    // Only foreign lines precede q1: this page begins the log.
    expect(p2.complete).toBe(true);
    expect(p2).toEqual(await readCapturedRows(file, 2, 'adguard', [], T0 + 3_000));
  });
});
