import { promises as fsp, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cutMarker, LINE_MAX_BYTES } from './line-buffer';
import { readTail, TAIL_CHUNK_BYTES } from './tail';
import { logFiles } from './log-history';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-dns-tail-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** dnsproxy-style line number `i`, fixed width so the file size is predictable. */
function logLine(i: number): string {
  return `2026/11/29 15:04:05.${String(i % 1_000_000).padStart(6, '0')} DEBUG handling query id=${String(i).padStart(8, '0')} question="web.demo.svc.cluster.local. IN A"`;
}

/** Writes `count` lines of logLine to `file` in ~1 MiB writes; returns the byte size. */
function writeBigLog(file: string, count: number): number {
  const fd = openSync(file, 'w');
  let size = 0;
  let block: string[] = [];
  for (let i = 1; i <= count; i++) {
    block.push(logLine(i));
    if (block.length === 8000 || i === count) {
      const buf = Buffer.from(block.join('\n') + '\n');
      writeSync(fd, buf);
      size += buf.length;
      block = [];
    }
  }
  closeSync(fd);
  return size;
}

describe('readTail on a 50 MB log', () => {
  it('returns exactly the last 100 lines and reads under 1 MiB', async () => {
    const file = path.join(dir, 'big.log');
    const count = 500_000;
    const size = writeBigLog(file, count);
    expect(size).toBeGreaterThan(50_000_000);

    // Count bytes at the FileHandle itself, independent of readTail's own bookkeeping.
    const probe = await fsp.open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> };
    await probe.close();
    const realRead = proto.read;
    let spiedBytes = 0;
    const spy = vi.spyOn(proto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const res = await realRead.apply(this, args);
      spiedBytes += res.bytesRead;
      return res;
    });

    const res = await readTail(file, 100);
    expect(res.lines).toHaveLength(100);
    expect(res.lines[0]).toBe(logLine(count - 99));
    expect(res.lines[99]).toBe(logLine(count));
    expect(res.lines).toEqual(Array.from({ length: 100 }, (_, k) => logLine(count - 99 + k)));
    expect(res.offset).toBe(size);
    expect(res.ino).toBe(statSync(file).ino);
    // 100 lines of ~100 bytes fit in one 64 KiB chunk.
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spiedBytes).toBe(TAIL_CHUNK_BYTES);
    expect(res.bytesRead).toBe(spiedBytes);
    expect(spiedBytes).toBeLessThan(1024 * 1024);
  });
});

describe('readTail edge cases', () => {
  it('gives [] and offset 0 for a missing file, [] and offset 0 for an empty one', async () => {
    await expect(readTail(path.join(dir, 'nope.log'), 10)).resolves.toEqual({ lines: [], offset: 0, ino: null, bytesRead: 0 });
    const empty = path.join(dir, 'empty.log');
    writeFileSync(empty, '');
    await expect(readTail(empty, 10)).resolves.toEqual({ lines: [], offset: 0, ino: statSync(empty).ino, bytesRead: 0 });
  });

  it('includes a last line without LF and strips CRLF', async () => {
    const file = path.join(dir, 'crlf.log');
    writeFileSync(file, 'one\r\ntwo\r\nthree');
    const res = await readTail(file, 2);
    expect(res.lines).toEqual(['two', 'three']);
    expect(res.offset).toBe(15);
    await expect(readTail(file, 10)).resolves.toMatchObject({ lines: ['one', 'two', 'three'] });
  });

  it('keeps blank lines and returns everything when the file has fewer lines', async () => {
    const file = path.join(dir, 'short.log');
    writeFileSync(file, 'a\n\nb\n');
    await expect(readTail(file, 50)).resolves.toMatchObject({ lines: ['a', '', 'b'], offset: 5 });
    await expect(readTail(file, 1)).resolves.toMatchObject({ lines: ['b'] });
    await expect(readTail(file, 0)).resolves.toMatchObject({ lines: [], offset: 5 });
  });

  it('decodes invalid UTF-8 as U+FFFD and keeps a character split across chunks whole', async () => {
    const file = path.join(dir, 'utf8.log');
    // '€' is E2 82 AC; place it so the 64 KiB chunk boundary (from the end) cuts it in two.
    const tailPart = Buffer.from('\u20ac end\n' + 'x'.repeat(TAIL_CHUNK_BYTES - 8) + '\n');
    const boundary = tailPart.length - TAIL_CHUNK_BYTES; // index inside tailPart where the last chunk starts
    expect(boundary).toBe(1); // the chunk starts after E2, in the middle of '€'
    writeFileSync(file, Buffer.concat([Buffer.from('bad \xff\xfe bytes\n', 'latin1'), tailPart]));
    const res = await readTail(file, 3);
    expect(res.lines).toEqual(['bad \ufffd\ufffd bytes', '\u20ac end', 'x'.repeat(TAIL_CHUNK_BYTES - 8)]);
  });

  it('stops at maxBytes and drops the incomplete first line', async () => {
    const file = path.join(dir, 'capped.log');
    writeFileSync(file, 'y'.repeat(300_000) + '\nlast1\nlast2\n');
    const res = await readTail(file, 10, { maxBytes: 100_000 });
    expect(res.bytesRead).toBe(100_000);
    expect(res.lines).toEqual(['last1', 'last2']);
  });

  it('cuts a line over 64 KiB with a marker', async () => {
    const file = path.join(dir, 'long.log');
    writeFileSync(file, 'start\n' + 'z'.repeat(LINE_MAX_BYTES + 10) + '\nend\n');
    const res = await readTail(file, 3);
    expect(res.lines).toEqual(['start', 'z'.repeat(LINE_MAX_BYTES) + cutMarker(10), 'end']);
  });

  it('refuses a FIFO at once, and the file set a FIFO or a link to /dev/zero (brk30: the open waited for a writer)', async () => {
    const fifo = path.join(dir, 'fifo.log');
    execFileSync('mkfifo', [fifo]);
    await expect(readTail(fifo, 10)).rejects.toThrow(`Cannot read the proxy log ${fifo}: it is a FIFO (named pipe), not a file`);
    await expect(logFiles(fifo)).rejects.toThrow(`Cannot read the proxy log ${fifo}: it is a FIFO (named pipe), not a file`);
    const zero = path.join(dir, 'zero.log');
    symlinkSync('/dev/zero', zero);
    await expect(logFiles(zero)).rejects.toThrow(`Cannot read the proxy log ${zero}: it is not a regular file`);
  });

  it('refuses a directory with the cause and the fix', async () => {
    await expect(readTail(dir, 10)).rejects.toThrow(/is a directory; point the log path at the proxy's log file/);
  });
});
