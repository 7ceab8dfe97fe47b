import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapturedQuery } from '../capture/pairing';
import { scanLiveLoops } from './live-loop-scan';

describe('scanLiveLoops with the exact query log', () => {
  it('finds a pod asking one question 25 times in a second from the packet rows when the engine logs no queries', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-loop-'));
    try {
      const t0 = Date.now() * 1000;
      const row = (i: number): CapturedQuery => ({ proto: 'udp', client: `172.20.0.5:${30000 + i}`, listener: '172.19.1.1:53', id: i, name: 'corp.internal', type: 'A', queryUs: t0 + i * 40_000, rcode: 'SERVFAIL', answers: [], latencyMs: 2, upstream: '172.21.0.10:53', upstreamRcode: 'SERVFAIL', upstreamLatencyMs: 1.5, retries: 0 });
      writeFileSync(path.join(dir, 'dnsproxy.log'), '2026/12/01 22:00:00.000001 INFO dnsproxy starting version=v0.83.1\n');
      writeFileSync(path.join(dir, 'queries.jsonl'), Array.from({ length: 25 }, (_, i) => `${JSON.stringify(row(i))}\n`).join(''));
      const got = await scanLiveLoops(path.join(dir, 'dnsproxy.log'), ['cluster.local']);
      expect(got?.lines).toBe(26);
      expect(got?.loops.map((l) => [l.name, l.type])).toEqual([['corp.internal', 'A']]);
      rmSync(path.join(dir, 'queries.jsonl'));
      expect((await scanLiveLoops(path.join(dir, 'dnsproxy.log'), ['cluster.local']))?.loops).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
