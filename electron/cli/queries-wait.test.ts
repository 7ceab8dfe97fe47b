/**
 * `k2s-dns queries` with nothing to show while the capture runs waits for the rows file to change
 * (queries-wait.ts): a query answered just before it is still in the kernel's open ring block
 * (it printed no row ~1 s after a dig). Clock and file changes injected; the watch and the
 * companion check on real files.
 */
import { appendFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandUsage } from './usage';
import { captureDrained, companionRuns, fileChanged, newestRowStale, readUntilShown, ROWS_WAIT_MS, rowTimeMs } from './queries-wait';
import { BLOCK_TIMEOUT_MS } from '../core/capture/tcpdump-argv';

/** A fake clock and file: each change the wait waits for advances the clock by `step` ms and appends one read result. */
function fakeLog(results: number[], step: number) {
  let t = 0;
  let i = 0;
  const waits: number[] = [];
  return {
    read: async () => results[Math.min(i, results.length - 1)]!,
    changed: async (ms: number) => {
      waits.push(ms);
      t += Math.min(step, ms);
      i += 1;
    },
    now: () => t,
    waits,
  };
}

describe('readUntilShown', () => {
  it('reads once when there is something to show, or when no wait is allowed (no capture running)', async () => {
    const shown = fakeLog([3], 100);
    expect(await readUntilShown(shown.read, (n) => n > 0, shown.changed, shown.now)).toBe(3);
    expect(shown.waits).toEqual([]);
    const stopped = fakeLog([0, 5], 100);
    expect(await readUntilShown(stopped.read, (n) => n > 0, stopped.changed, stopped.now, 0)).toBe(0);
    expect(stopped.waits).toEqual([]);
  });

  it('reads again after each change of the file until a row shows, each wait bounded by what is left', async () => {
    // The first change is a batch with no row to show (a health check, hidden), the second brings one.
    const log = fakeLog([0, 0, 2], 300);
    expect(await readUntilShown(log.read, (n) => n > 0, log.changed, log.now, 1500)).toBe(2);
    expect(log.waits).toEqual([1500, 1200]);
  });

  it('gives up at the deadline with the last read', async () => {
    const log = fakeLog([0], 700);
    expect(await readUntilShown(log.read, (n) => n > 0, log.changed, log.now, 1500)).toBe(0);
    expect(log.waits).toEqual([1500, 800, 100]);
  });

  it('waits one ring block timeout and half a second for the idle-priority parser; the help says so', () => {
    expect(ROWS_WAIT_MS).toBe(BLOCK_TIMEOUT_MS + 500);
    expect(commandUsage('queries').replace(/\s+/g, ' ')).toContain(`up to ${BLOCK_TIMEOUT_MS / 1000} s after its answer (later while the host is busy): while the capture runs, with none to print yet or a newest row older than ${BLOCK_TIMEOUT_MS / 1000} s, it waits up to ${ROWS_WAIT_MS / 1000} s for the file to change; --no-wait reads it once.`);
    expect(commandUsage('queries')).toContain('k2s-dns queries [--lines N] [--probes] [--no-wait] [--json]');
  });
});

/** A row asked at local time `hh:mm:ss.ffffff` on 2026-12-06 (QueryRow.time's form). */
const at = (clock: string) => ({ time: `2026-12-06T${clock}` });
/** That local time in ms since the epoch. */
const ms = (clock: string) => new Date(2026, 11, 6, Number(clock.slice(0, 2)), Number(clock.slice(3, 5)), Number(clock.slice(6, 8)), Number(clock.slice(9, 12))).getTime();

describe('newestRowStale: rows to print, but the newest older than a ring block timeout', () => {
  it('reads the row time as local time to the ms', () => {
    expect(rowTimeMs('2026-12-06T16:40:01.123456')).toBe(ms('16:40:01.123'));
    expect(rowTimeMs(null)).toBeNull();
    expect(rowTimeMs('not a time')).toBeNull();
  });

  it('stale when the newest row was asked more than BLOCK_TIMEOUT_MS before the command, fresh within it; only the newest counts', () => {
    const asked = ms('16:40:05.000');
    expect(newestRowStale([at('16:40:04.100000'), at('16:40:03.500000')], asked)).toBe(true);
    expect(newestRowStale([at('16:39:00.000000'), at('16:40:04.100000')], asked)).toBe(false);
    expect(newestRowStale([at('16:40:03.999000')], asked)).toBe(true);
    expect(newestRowStale([at('16:40:04.000000')], asked)).toBe(false);
    // None, or one without a time: nothing tells that the block was handed over.
    expect(newestRowStale([], asked)).toBe(true);
    expect(newestRowStale([{ time: null }], asked)).toBe(true);
  });

  it('with readUntilShown: rows whose newest is stale are read again at the file\'s change, until the just-answered row is in', async () => {
    const asked = ms('16:40:05.000');
    const old = [at('16:40:02.000000')];
    const log = fakeLog([0, 1], 400);
    const reads = [old, [...old, at('16:40:04.800000')]];
    const rows = await readUntilShown(async () => reads[Math.min(log.waits.length, 1)]!, (r) => r.length > 0 && !newestRowStale(r, asked), log.changed, log.now, ROWS_WAIT_MS);
    expect(rows.map((r) => r.time)).toEqual(['2026-12-06T16:40:02.000000', '2026-12-06T16:40:04.800000']);
    expect(log.waits).toEqual([ROWS_WAIT_MS]);
  });
});

describe('fileChanged and companionRuns on real files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k2s-dns-qwait-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('resolves on a write to the file, long before its bound', async () => {
    const file = join(dir, 'queries.jsonl');
    await writeFile(file, '');
    const t0 = performance.now();
    const changed = fileChanged(file, 30_000);
    await appendFile(file, '{"row":1}\n');
    await changed;
    // The bound is 30 s: ending under 10 s proves the write ended it (a busy 2-core host's inotify is far faster).
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('resolves after its bound when the file cannot be watched (missing)', async () => {
    const t0 = performance.now();
    await fileChanged(join(dir, 'absent.jsonl'), 50);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
  });

  it("companionRuns: only a ready file naming a live capture-watch process counts", async () => {
    const proc = join(dir, 'proc');
    await mkdir(join(proc, '4321'), { recursive: true });
    await mkdir(join(proc, '4322'), { recursive: true });
    await writeFile(join(proc, '4321', 'cmdline'), '/usr/bin/node\0/usr/lib/k2s-dns/dist/k2s-dns-cli.cjs\0capture-watch\0--flags-file\0/etc/k2s/capture.flags\0');
    await writeFile(join(proc, '4322', 'cmdline'), '/usr/sbin/dnsmasq\0--keep-in-foreground\0');
    const ready = join(dir, 'capture.ready');
    await writeFile(ready, '4321\n');
    expect(await companionRuns(ready, proc)).toBe(true);
    await writeFile(ready, '4322\n');
    expect(await companionRuns(ready, proc)).toBe(false);
    await writeFile(ready, '4399\n');
    expect(await companionRuns(ready, proc)).toBe(false);
    expect(await companionRuns(join(dir, 'no-ready'), proc)).toBe(false);
  });

  it('captureDrained waits while the capture unit\'s cgroup is populated (a stopped companion still draining), until cgroup.events says populated 0; at once when empty or missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'captured-drained-'));
    try {
      const events = join(dir, 'cgroup.events');
      await captureDrained(join(dir, 'missing'), 60_000);
      await writeFile(events, 'populated 0\nfrozen 0\n');
      await captureDrained(events, 60_000);
      await writeFile(events, 'populated 1\nfrozen 0\n');
      let done = false;
      const waiting = captureDrained(events, 60_000).then(() => (done = true));
      // Still populated after a change that keeps it so: still waiting.
      await new Promise((r) => setTimeout(r, 50));
      await writeFile(events, 'populated 1\nfrozen 0\n');
      await new Promise((r) => setTimeout(r, 50));
      expect(done).toBe(false);
      await writeFile(events, 'populated 0\nfrozen 0\n');
      await waiting;
      expect(done).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
