import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapturedQuery } from './pairing';
import { searchCapturedRows } from './rows-search';

const row = (id: number, over: Partial<CapturedQuery> = {}): CapturedQuery => ({ proto: 'udp', client: `127.0.0.1:${40000 + id}`, listener: '127.0.0.1:53', id, name: `n${id}.example.test`, type: 'A', queryUs: 1_764_615_600_000_000 + id, rcode: 'NOERROR', answers: ['198.51.100.8'], latencyMs: 0.5, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0, ...over });
const jsonl = (rows: CapturedQuery[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-rows-search-'));
  file = path.join(dir, 'queries.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const opts = { limit: 100, engine: 'adguard' as const, clusterZones: [] };

describe('searchCapturedRows', () => {
  it('searches the rotated copy then the current file, counting every match', async () => {
    writeFileSync(`${file}.1`, jsonl([row(1, { name: 'old.web.demo' }), row(2), row(3, { answers: ['203.0.113.9'] })]));
    writeFileSync(file, jsonl([row(4, { name: 'new.WEB.demo' }), row(5, { rcode: 'NXDOMAIN', name: 'gone.example.test' })]) + 'not json\n');
    const r = await searchCapturedRows(file, 'web.demo', opts);
    expect(r.rows.map((x) => x.name)).toEqual(['old.web.demo', 'new.web.demo']);
    expect(r.search.matches).toBe(2);
    expect(r.search.truncated).toBe(false);
    expect(r.search.files).toEqual([`${file}.1`, file]);
    expect(r.search.bytesScanned).toBe(statSync(`${file}.1`).size + statSync(file).size);
    // Answers, rcode, client and upstream are searched too.
    expect((await searchCapturedRows(file, '203.0.113.9', opts)).rows.map((x) => x.client)).toEqual(['127.0.0.1:40003']);
    expect((await searchCapturedRows(file, 'nxdomain', opts)).rows.map((x) => x.name)).toEqual(['gone.example.test']);
    expect((await searchCapturedRows(file, '127.0.0.1:40002', opts)).search.matches).toBe(1);
    expect((await searchCapturedRows(file, '192.0.2.53', opts)).search.matches).toBe(5);
  });

  it('a JSON line framed as a row with a field of the wrong type (rcode 5, an answer 7) is skipped; the file is still searched to its end', async () => {
    const odd = JSON.stringify({ ...row(2), rcode: 5, answers: [7] });
    writeFileSync(file, `${jsonl([row(1, { name: 'a.web.demo' })])}${odd}\n${JSON.stringify({ ...row(3), upstream: {} })}\n${jsonl([row(4, { name: 'b.web.demo' })])}`);
    const r = await searchCapturedRows(file, 'web.demo', opts);
    expect(r.rows.map((x) => x.name)).toEqual(['a.web.demo', 'b.web.demo']);
    expect(r.search.files).toEqual([file]);
  });

  it('returns the matches in the order their queries were asked, across .1 and the current file', async () => {
    // Row 3 (in .1) timed out and was written after row 4 had been asked; row 5 was asked before row 4.
    writeFileSync(`${file}.1`, jsonl([row(4, { queryUs: 1_764_615_600_000_040 }), row(3, { queryUs: 1_764_615_600_000_030 })]));
    writeFileSync(file, jsonl([row(6, { queryUs: 1_764_615_600_000_060 }), row(5, { queryUs: 1_764_615_600_000_035 })]));
    const r = await searchCapturedRows(file, 'example.test', opts);
    expect(r.rows.map((x) => x.name)).toEqual(['n3.example.test', 'n5.example.test', 'n4.example.test', 'n6.example.test']);
  });

  it('keeps the newest `limit` matches, leaves probes out unless asked, and names only existing files', async () => {
    writeFileSync(file, jsonl([row(1), row(2), row(3), row(4, { name: 'KUBERNETES.DEFAULT.svc.cluster.local' })]));
    const r = await searchCapturedRows(file, '192.0.2.53', { ...opts, limit: 2 });
    expect(r.rows.map((x) => x.name)).toEqual(['n2.example.test', 'n3.example.test']);
    expect(r.search).toMatchObject({ matches: 3, truncated: true, files: [file] });
    expect((await searchCapturedRows(file, '192.0.2.53', { ...opts, probes: true })).search.matches).toBe(4);
    expect((await searchCapturedRows(path.join(dir, 'none.jsonl'), 'x', opts)).search).toMatchObject({ matches: 0, files: [], bytesScanned: 0 });
  });

  it('pages back through the matches with `before` (the filtered view\'s older matches, walk5 M2), with the keys the reader gives', async () => {
    writeFileSync(`${file}.1`, jsonl([row(1), row(2, { name: 'other.test' }), row(3)]));
    writeFileSync(file, jsonl([row(4), row(5), row(6)]));
    const newest = await searchCapturedRows(file, 'example.test', { ...opts, limit: 2 });
    expect(newest.rows.map((x) => x.name)).toEqual(['n5.example.test', 'n6.example.test']);
    expect(newest.oldestUs).toBe(1_764_615_600_000_005);
    expect(newest.rows[0]!.key).toBe('cap-1764615600000005-127.0.0.1:40005-5');
    expect(newest.search).toMatchObject({ matches: 5, truncated: true });
    // At or before the cursor: the boundary row comes again (dropped by key), then the older ones.
    const older = await searchCapturedRows(file, 'example.test', { ...opts, limit: 3, before: newest.oldestUs });
    expect(older.rows.map((x) => x.name)).toEqual(['n3.example.test', 'n4.example.test', 'n5.example.test']);
    expect(older.rows[2]!.key).toBe(newest.rows[0]!.key);
    expect(older.search).toMatchObject({ matches: 5, truncated: true });
    const oldest = await searchCapturedRows(file, 'example.test', { ...opts, limit: 3, before: older.oldestUs });
    expect(oldest.rows.map((x) => x.name)).toEqual(['n1.example.test', 'n3.example.test']);
    expect(oldest.search).toMatchObject({ matches: 5, truncated: false });
  });
});

