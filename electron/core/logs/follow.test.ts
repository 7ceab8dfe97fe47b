import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FOLLOW_MAX_BYTES_PER_POLL, followLog, type DirWatch, type Follower } from './follow';
import { cutMarker, LINE_MAX_BYTES } from './line-buffer';
import { readTail } from './tail';

const POLL_MS = 20;
const WAIT = { timeout: 5_000, interval: 10 };

let dir: string;
let n = 0;
const running: Follower[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-dns-follow-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const f of running.splice(0)) f.stop();
});

/** A fresh log path per test. */
function logPath(): string {
  n += 1;
  return path.join(dir, `dnsproxy-${n}.log`);
}

/**
 * How the follower learns of changes: the directory's inotify events, with a safety read far
 * beyond every wait here (so a missed event fails the test), or a plain read every POLL_MS.
 */
const MODES = [
  { mode: 'woken by inotify on the directory', wake: { safetyPollMs: 600_000 } },
  { mode: 'reading every pollMs (no watch)', wake: { watch: null } },
] as const;

describe.each(MODES)('followLog, $mode', ({ wake }) => {
/** Starts a follower that records every batch. */
function record(file: string, opts: Parameters<typeof followLog>[2] = {}): { batches: string[][]; lines: () => string[]; f: Follower } {
  const batches: string[][] = [];
  const f = followLog(file, (lines) => batches.push(lines), { pollMs: POLL_MS, ...wake, ...opts });
  running.push(f);
  return { batches, lines: () => batches.flat(), f };
}

  it('delivers only lines appended after it started, in order, with exact text', async () => {
    const file = logPath();
    writeFileSync(file, 'before 1\nbefore 2\n');
    const rec = record(file);
    appendFileSync(file, '2026/11/29 15:04:05.000001 INFO listening to udp addr=127.0.0.1:53\n');
    appendFileSync(file, '2026/11/29 15:04:05.000002 INFO listening to tcp addr=127.0.0.1:53\r\n');
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(2), WAIT);
    expect(rec.lines()).toEqual([
      '2026/11/29 15:04:05.000001 INFO listening to udp addr=127.0.0.1:53',
      '2026/11/29 15:04:05.000002 INFO listening to tcp addr=127.0.0.1:53',
    ]);
    // Batched: a burst written before one poll arrives as one callback.
    appendFileSync(file, Array.from({ length: 500 }, (_, i) => `burst ${i}`).join('\n') + '\n');
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(502), WAIT);
    expect(rec.lines().slice(2)).toEqual(Array.from({ length: 500 }, (_, i) => `burst ${i}`));
    expect(rec.batches.length).toBeLessThanOrEqual(4);
  });

  it('reads a 3 MiB burst in batches of at most 1 MiB each, all lines in order', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    const lines = Array.from({ length: 30_000 }, (_, i) => `query id=${String(i).padStart(6, '0')} ${'p'.repeat(90)}`);
    appendFileSync(file, lines.join('\n') + '\n'); // 30 000 × 107 bytes (LF included) ≈ 3.06 MiB
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(lines.length), WAIT);
    expect(rec.lines()).toEqual(lines);
    expect(rec.batches.length).toBeGreaterThanOrEqual(3);
    for (const batch of rec.batches) expect(batch.length * 107).toBeLessThanOrEqual(FOLLOW_MAX_BYTES_PER_POLL + 107);
  });

  it('holds a partial line until its LF arrives', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    appendFileSync(file, 'first\npar');
    // The poll that delivered "first" has read "par" too, and must have held it back.
    await vi.waitFor(() => expect(rec.batches).toEqual([['first']]), WAIT);
    appendFileSync(file, 'tial id=7\n');
    await vi.waitFor(() => expect(rec.batches).toEqual([['first'], ['partial id=7']]), WAIT);
  });

  it('cuts a line over 64 KiB with a marker and keeps going', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    appendFileSync(file, 'q'.repeat(LINE_MAX_BYTES + 4096) + '\nafter\n');
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(2), WAIT);
    expect(rec.lines()).toEqual(['q'.repeat(LINE_MAX_BYTES) + cutMarker(4096), 'after']);
  });

  it('starts over at 0 after truncation', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    appendFileSync(file, `${'old line '.repeat(10)}\n${'old line '.repeat(10)}\n`);
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(2), WAIT);
    // copytruncate: the file shrinks to 0, then the writer appends shorter content.
    truncateSync(file, 0);
    appendFileSync(file, 'new 1\nnew 2\n');
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(4), WAIT);
    expect(rec.lines().slice(2)).toEqual(['new 1', 'new 2']);
  });

  it('on rotation reads the rest of the old file, then the new file from 0', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    appendFileSync(file, 'old 1\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['old 1']), WAIT);
    const oldIno = statSync(file).ino;
    // logrotate: last lines into the old file, rename it away, a new file takes the name.
    appendFileSync(file, 'old 2\nold 3\n');
    renameSync(file, `${file}.1`);
    writeFileSync(`${file}.new`, 'new 1\nnew 2\n');
    renameSync(`${file}.new`, file);
    expect(statSync(file).ino).not.toBe(oldIno);
    await vi.waitFor(() => expect(rec.lines()).toHaveLength(5), WAIT);
    expect(rec.lines()).toEqual(['old 1', 'old 2', 'old 3', 'new 1', 'new 2']);
    appendFileSync(file, 'new 3\n');
    await vi.waitFor(() => expect(rec.lines().at(-1)).toBe('new 3'), WAIT);
    expect(rec.lines()).toHaveLength(6);
  });

  /** Starts a follower that records lines and resets in one sequence (`reset:<reason>`). */
  function recordResets(file: string): { seq: string[]; resets: () => string[] } {
    const seq: string[] = [];
    const f = followLog(file, (lines) => seq.push(...lines), { pollMs: POLL_MS, ...wake, onReset: (why) => seq.push(`reset:${why}`) });
    running.push(f);
    return { seq, resets: () => seq.filter((l) => l.startsWith('reset:')) };
  }

  it('says the log was removed (Uninstall) before the next file\'s lines, once', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = recordResets(file);
    appendFileSync(file, 'old 1\nold 2\n');
    await vi.waitFor(() => expect(rec.seq).toEqual(['old 1', 'old 2']), WAIT);
    unlinkSync(file);
    await vi.waitFor(() => expect(rec.seq).toEqual(['old 1', 'old 2', 'reset:removed']), WAIT);
    // The next Start's new log: its lines come after the reset, nothing is said twice.
    writeFileSync(file, 'new 1\n');
    await vi.waitFor(() => expect(rec.seq).toEqual(['old 1', 'old 2', 'reset:removed', 'new 1']), WAIT);
  });

  it('says the log was replaced when another file takes its name and the old one is not `.1`', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = recordResets(file);
    appendFileSync(file, 'old 1\n');
    await vi.waitFor(() => expect(rec.seq).toEqual(['old 1']), WAIT);
    appendFileSync(file, 'old 2\n');
    writeFileSync(`${file}.new`, 'new 1\n');
    renameSync(`${file}.new`, file);
    await vi.waitFor(() => expect(rec.seq).toEqual(['old 1', 'old 2', 'reset:replaced', 'new 1']), WAIT);
  });

  it('a rotation (rename to `.1`, or copytruncate with the copy in `.1`) is no reset; a truncate without a copy is', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = recordResets(file);
    appendFileSync(file, 'a 1\n');
    await vi.waitFor(() => expect(rec.seq).toEqual(['a 1']), WAIT);
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'b 1\nb 2\n');
    await vi.waitFor(() => expect(rec.seq).toEqual(['a 1', 'b 1', 'b 2']), WAIT);
    // copytruncate (query-log.ts rotateLogIfOver): the copy first, then the truncate.
    rmSync(`${file}.1`);
    writeFileSync(`${file}.1`, 'b 1\nb 2\n');
    truncateSync(file, 0);
    appendFileSync(file, 'c\n');
    await vi.waitFor(() => expect(rec.seq.at(-1)).toBe('c'), WAIT);
    // Emptied with no copy holding its lines: a reset.
    rmSync(`${file}.1`);
    appendFileSync(file, 'c 2\nc 3\n');
    await vi.waitFor(() => expect(rec.seq.at(-1)).toBe('c 3'), WAIT);
    truncateSync(file, 0);
    appendFileSync(file, 'd\n');
    await vi.waitFor(() => expect(rec.seq.at(-1)).toBe('d'), WAIT);
    expect(rec.seq).toEqual(['a 1', 'b 1', 'b 2', 'c', 'c 2', 'c 3', 'reset:truncated', 'd']);
  });

  it('waits for a missing file, reads it from 0 once created, and again after delete + create', async () => {
    const file = logPath();
    const rec = record(file);
    writeFileSync(file, 'created 1\ncreated 2\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['created 1', 'created 2']), WAIT);
    unlinkSync(file);
    writeFileSync(file, 'again 1\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['created 1', 'created 2', 'again 1']), WAIT);
  });

  it('a FIFO at the log path is said once and skipped (never opened blocking); a file in its place is read from 0', async () => {
    const file = logPath();
    execFileSync('mkfifo', [file]);
    const errors: string[] = [];
    let opened = 0;
    const rec = record(file, { onError: (e) => errors.push(e.message), onOpen: () => (opened += 1) });
    await vi.waitFor(() => expect(errors).toEqual([`Cannot read the proxy log ${file}: it is a FIFO (named pipe), not a file; replace it with the proxy's log file (rm it, then restart the proxy).`]), WAIT);
    expect(opened).toBe(0);
    unlinkSync(file);
    writeFileSync(file, 'after the fifo\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['after the fifo']), WAIT);
    expect(errors).toHaveLength(1);
    // The file opened: a log source's reporter hears the problem is over (log-source.ts, read-problems.ts).
    expect(opened).toBe(1);
  });

  it('continues at readTail’s offset with no gap, and from 0 when the inode changed', async () => {
    const file = logPath();
    writeFileSync(file, 'a\nb\n');
    const tail = await readTail(file, 10);
    expect(tail.lines).toEqual(['a', 'b']);
    appendFileSync(file, 'c\n'); // appended between the tail and the follow
    const rec = record(file, { startOffset: tail.offset, startIno: tail.ino });
    await vi.waitFor(() => expect(rec.lines()).toEqual(['c']), WAIT);

    const other = record(file, { startOffset: tail.offset, startIno: (tail.ino ?? 0) + 1 });
    await vi.waitFor(() => expect(other.lines()).toEqual(['a', 'b', 'c']), WAIT);
  });

  it('calls back no more after stop()', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const rec = record(file);
    appendFileSync(file, 'one\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['one']), WAIT);
    rec.f.stop();
    appendFileSync(file, 'two\n');
    // A second follower from offset 0 is the clock: once it has seen "two" and polled twice
    // more, the stopped one had every chance to deliver it too.
    const witness = record(file, { startOffset: 0 });
    await vi.waitFor(() => expect(witness.lines()).toEqual(['one', 'two']), WAIT);
    appendFileSync(file, 'three\n');
    await vi.waitFor(() => expect(witness.lines()).toEqual(['one', 'two', 'three']), WAIT);
    expect(rec.lines()).toEqual(['one']);
  });

  it('follows a file whose directory does not exist yet (watched through its parent)', async () => {
    const sub = path.join(dir, `later-${n++}`, 'deeper');
    const file = path.join(sub, 'dnsproxy.log');
    const rec = record(file);
    mkdirSync(sub, { recursive: true });
    writeFileSync(file, 'first 1\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['first 1']), WAIT);
    appendFileSync(file, 'next 2\n');
    await vi.waitFor(() => expect(rec.lines()).toEqual(['first 1', 'next 2']), WAIT);
  });
});

describe('followLog wake-ups', () => {
  it('reads on an event for its own file name only, and on the safety read when no event comes', async () => {
    const file = path.join(dir, `fake-watch-${n++}.log`);
    writeFileSync(file, '');
    let fire: ((name: string | null) => void) | null = null;
    const watch: DirWatch = (d, onEvent) => {
      expect(d).toBe(dir);
      fire = onEvent;
      return () => undefined;
    };
    const batches: string[][] = [];
    const f = followLog(file, (l) => batches.push(l), { pollMs: POLL_MS, safetyPollMs: 600_000, watch });
    running.push(f);
    await vi.waitFor(() => expect(fire).not.toBeNull(), WAIT);
    appendFileSync(file, 'one\n');
    fire!(path.basename(file));
    await vi.waitFor(() => expect(batches.flat()).toEqual(['one']), WAIT);
    // Another entry's event does not read this file: a second follower on a real watch is the clock.
    appendFileSync(file, 'two\n');
    fire!('other.log');
    const witness = followLog(file, () => undefined, { pollMs: POLL_MS, startOffset: 0 });
    running.push(witness);
    const seen: string[] = [];
    const w2 = followLog(file, (l) => seen.push(...l), { pollMs: POLL_MS, startOffset: 0, watch: null });
    running.push(w2);
    await vi.waitFor(() => expect(seen).toEqual(['one', 'two']), WAIT);
    appendFileSync(file, 'three\n');
    await vi.waitFor(() => expect(seen).toEqual(['one', 'two', 'three']), WAIT);
    expect(batches.flat()).toEqual(['one']);
    fire!(null); // an event without a name (overflow): read
    await vi.waitFor(() => expect(batches.flat()).toEqual(['one', 'two', 'three']), WAIT);
  });

  it('falls back to reading every pollMs when the directory cannot be watched', async () => {
    const file = path.join(dir, `no-watch-${n++}.log`);
    writeFileSync(file, '');
    const watch: DirWatch = () => {
      throw Object.assign(new Error('ENOSPC: no inotify watches left'), { code: 'ENOSPC' });
    };
    const batches: string[][] = [];
    const f = followLog(file, (l) => batches.push(l), { pollMs: POLL_MS, safetyPollMs: 600_000, watch });
    running.push(f);
    appendFileSync(file, 'seen anyway\n');
    await vi.waitFor(() => expect(batches.flat()).toEqual(['seen anyway']), WAIT);
  });
});
