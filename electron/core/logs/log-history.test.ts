import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPage, searchLog } from './log-history';

let dir: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-log-history-'));
  log = path.join(dir, 'dnsproxy.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);
const write = (file: string, ls: string[]) => writeFileSync(file, ls.map((l) => `${l}\n`).join(''));

describe('readPage', () => {
  it('pages back through the current file into the rotated one, newest page first, to the very first line', async () => {
    write(`${log}.1`, lines(1, 250));
    write(log, lines(251, 400));
    const seen: string[][] = [];
    let page = await readPage(log, 100);
    seen.push(page.lines);
    while (page.older) {
      page = await readPage(log, 100, page.older);
      seen.push(page.lines);
    }
    expect(seen.map((p) => [p[0], p.at(-1), p.length])).toEqual([
      ['line 301', 'line 400', 100],
      ['line 201', 'line 300', 100],
      ['line 101', 'line 200', 100],
      ['line 1', 'line 100', 100],
    ]);
    expect(seen.flat()).toHaveLength(400);
    expect(new Set(seen.flat()).size).toBe(400);
    // The pages name the files that exist, oldest first.
    expect(page.files).toEqual([`${log}.1`, log]);
  });

  it('before the first rotation a page names the current file only (no .1 that does not exist)', async () => {
    write(log, lines(1, 5));
    const page = await readPage(log, 100);
    expect([page.lines.length, page.older, page.files]).toEqual([5, null, [log]]);
  });

  it('a cursor still points at the same lines after a rotation renamed the file', async () => {
    write(log, lines(1, 300));
    const first = await readPage(log, 100);
    renameSync(log, `${log}.1`);
    write(log, lines(301, 310));
    const older = await readPage(log, 100, first.older!);
    expect([older.lines[0], older.lines.at(-1)]).toEqual(['line 101', 'line 200']);
  });

  it('a missing log is an empty page with nothing older', async () => {
    expect(await readPage(log, 10)).toEqual({ lines: [], older: null, end: null, lost: false, files: [] });
  });
});

describe('searchLog', () => {
  it('counts matches over both files and returns the newest with context, skipping excluded lines', async () => {
    write(`${log}.1`, [...lines(1, 5), 'query web.demo A', ...lines(6, 9), 'probe web.demo PROBE']);
    write(log, [...lines(10, 12), 'query WEB.demo AAAA', 'line 13']);
    const r = await searchLog(log, 'web.demo', { maxLines: 100, context: 1, exclude: (l) => l.includes('PROBE') });
    expect(r.matches).toBe(2);
    expect(r.lines).toEqual(['line 5', 'query web.demo A', 'line 6', 'line 12', 'query WEB.demo AAAA', 'line 13']);
    expect(r.files).toEqual([`${log}.1`, log]);
    expect(r.truncated).toBe(false);
  });

  it('keeps only the newest maxLines lines but counts every match', async () => {
    write(log, lines(1, 1000));
    const r = await searchLog(log, 'line', { maxLines: 10, context: 0 });
    expect(r.matches).toBe(1000);
    expect(r.lines).toEqual(lines(991, 1000));
    expect(r.truncated).toBe(true);
  });

  it('searches text literally (regex characters are not special)', async () => {
    write(log, ['a.b', 'axb', '(x)']);
    expect((await searchLog(log, 'a.b', { maxLines: 10, context: 0 })).lines).toEqual(['a.b']);
    expect((await searchLog(log, '(x)', { maxLines: 10, context: 0 })).matches).toBe(1);
  });
});

describe('searchLog across read blocks', () => {
  it('finds every match and its context when lines straddle the 4 MiB reads', async () => {
    const all = Array.from({ length: 120_000 }, (_, i) => `2026/12/01 10:00:00.000000 DEBUG line ${i} ${i % 9973 === 0 ? 'NEEDLE' : 'hay'} ${'x'.repeat(i % 50)}`);
    write(log, all);
    const r = await searchLog(log, 'needle', { maxLines: 5000, context: 2 });
    const want = all.flatMap((l, i) => (l.includes('NEEDLE') ? [i] : []));
    expect(r.matches).toBe(want.length);
    const expected = [...new Set(want.flatMap((i) => [i - 2, i - 1, i, i + 1, i + 2]).filter((i) => i >= 0 && i < all.length))].sort((a, b) => a - b).map((i) => all[i]);
    expect(r.lines).toEqual(expected);
  });
});
