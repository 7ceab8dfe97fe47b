/**
 * The tail, the follower and the log source on real engine output (fixtures/logs/): a service's
 * log file holding a quiet dnsproxy run, a verbose one and a dnsmasq run appended (what the
 * supervised service leaves after three starts), written in odd-sized pieces that split lines and
 * the multi-byte `µs`.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueryLog } from '../../../shared/query-log';
import { fixtureText } from '../../../e2e/support/log-fixtures';
import type { LogLine } from '../../../shared/types';
import { followLog } from './follow';
import { createLogSource } from './log-source';
import { readTail } from './tail';

const BYTES = Buffer.from(fixtureText('dnsproxy-quiet.log') + fixtureText('dnsproxy-verbose.log') + fixtureText('dnsmasq-verbose.log'));
const RAW = BYTES.toString('utf8').replace(/\n$/, '').split('\n');
const WAIT = { timeout: 10_000, interval: 20 };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-dns-reallogs-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('real engine logs', () => {
  it('readTail returns the last lines byte-exact, µs and tabs intact', async () => {
    const file = path.join(dir, 'tail.log');
    writeFileSync(file, BYTES);
    const res = await readTail(file, 50);
    expect(res.lines).toEqual(RAW.slice(-50));
    expect(res.offset).toBe(BYTES.length);
    const all = await readTail(file, 100_000);
    expect(all.lines).toEqual(RAW);
    expect(all.lines.some((l) => l.includes('duration=') && l.includes('µs'))).toBe(true);
  });

  it('followLog delivers every line once, in order, when the file grows in pieces that cut lines and UTF-8 sequences', async () => {
    const file = path.join(dir, 'follow.log');
    writeFileSync(file, '');
    const got: string[] = [];
    const f = followLog(file, (lines) => got.push(...lines), { pollMs: 5, startOffset: 0 });
    try {
      // Pieces of 1..997 bytes: a prime step so cuts land inside lines and inside `µ` (2 bytes).
      const mu = BYTES.indexOf(Buffer.from('µ'));
      const cuts = [mu + 1];
      for (let at = 997; at < BYTES.length; at += 997) cuts.push(at);
      let from = 0;
      for (const cut of [...cuts.sort((a, b) => a - b), BYTES.length]) {
        appendFileSync(file, BYTES.subarray(from, cut));
        from = cut;
        // Wait until the follower has read up to at least the previous complete line.
        const complete = BYTES.subarray(0, cut).toString('utf8').split('\n').length - 1;
        await expect.poll(() => got.length, WAIT).toBeGreaterThanOrEqual(complete);
      }
      await expect.poll(() => got.length, WAIT).toBe(RAW.length);
      expect(got).toEqual(RAW);
    } finally {
      f.stop();
    }
  });

  it('createLogSource: the tail parses into lines the query log turns into 28 rows over 3 runs', async () => {
    const file = path.join(dir, 'source.log');
    writeFileSync(file, BYTES);
    const src = createLogSource(file, { pollMs: 10 });
    const lines = await src.tail(5000);
    // Blank lines are skipped; every other line is there.
    expect(lines.map((l) => l.raw)).toEqual(RAW.filter((l) => l.trim() !== ''));
    const rows = buildQueryLog(lines, { clusterZones: ['cluster.local', '21.172.in-addr.arpa'] });
    expect(rows).toHaveLength(28);
    expect(new Set(rows.map((r) => r.run))).toEqual(new Set([0, 1, 2]));
    // Followed lines arrive parsed too: a new dnsmasq run appended after the tail.
    const pushed: LogLine[] = [];
    const stop = src.follow((l) => pushed.push(...l));
    try {
      appendFileSync(file, fixtureText('dnsmasq-quiet.log'));
      await expect.poll(() => pushed.length, WAIT).toBe(fixtureText('dnsmasq-quiet.log').trim().split('\n').length);
      expect(pushed[0]).toMatchObject({ level: 'INFO', fields: { process: 'dnsmasq', event: 'started', version: '2.90' } });
      expect(pushed[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    } finally {
      stop();
    }
  });
});
