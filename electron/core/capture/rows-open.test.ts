import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapturedQuery } from './pairing';
import { readCapturedRows } from './rows-reader';
import { searchCapturedRows } from './rows-search';
import { createRowsIndex } from './rows-index';

const row = (id: number): CapturedQuery => ({ proto: 'udp', client: `127.0.0.1:${40000 + id}`, listener: '127.0.0.1:53', id, name: `n${id}.example.test`, type: 'A', queryUs: 1_764_615_600_000_000 + id, rcode: 'NOERROR', answers: ['198.51.100.8'], latencyMs: 0.5, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 });

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-rows-open-'));
  file = path.join(dir, 'queries.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// brk30 (sandbox): with a FIFO at queries.jsonl or queries.jsonl.1 `k2s-dns queries` hung (open(2)
// waits for a writer), and a directory there failed it with EISDIR; a link to /dev/zero is endless.
const notFiles: [string, (p: string) => void][] = [
  ['a FIFO', (p) => execFileSync('mkfifo', [p])],
  ['a link to /dev/zero', (p) => symlinkSync('/dev/zero', p)],
  ['a directory', (p) => mkdirSync(p)],
];

describe('the exact log readers read only regular files', () => {
  for (const [what, make] of notFiles) {
    it(`take ${what} as the rotated copy for a missing one`, async () => {
      writeFileSync(file, `${JSON.stringify(row(1))}\n${JSON.stringify(row(2))}\n`);
      make(`${file}.1`);
      const got = await readCapturedRows(file, 10, 'adguard', []);
      expect([got.rows.map((r) => r.name), got.files, got.complete]).toEqual([['n1.example.test', 'n2.example.test'], [file], true]);
      const older = await readCapturedRows(file, 10, 'adguard', [], row(2).queryUs, createRowsIndex(1 << 20));
      expect(older.rows.map((r) => r.name)).toEqual(['n1.example.test', 'n2.example.test']);
      const found = await searchCapturedRows(file, 'n2.example', { limit: 10, engine: 'adguard', clusterZones: [] });
      expect([found.rows.map((r) => r.name), found.search.files]).toEqual([['n2.example.test'], [file]]);
    });
    it(`take ${what} as the log for a missing one`, async () => {
      make(file);
      const got = await readCapturedRows(file, 10, 'adguard', []);
      expect([got.rows, got.present, got.files]).toEqual([[], false, []]);
      const found = await searchCapturedRows(file, 'n2', { limit: 10, engine: 'adguard', clusterZones: [] });
      expect([found.rows, found.search.files]).toEqual([[], []]);
    });
  }
});
