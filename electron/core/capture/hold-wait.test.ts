import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile, rename, symlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awaitHold, processStartTime } from './hold-wait';
import { CAPTURE_FLAGS_FILE_FLAG, CAPTURE_HOLD_FILE, heldGoLine, holdFileText, parseHoldFile } from './capture-args';
import { runCapture } from './capture-main';
import type { HostFs } from '../host/host-fs';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'k2s-hold-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Replaced whole, as start writes it (writeFileAtomic: a sibling, then rename). */
async function putHold(file: string, text: string): Promise<void> {
  await writeFile(`${file}.new`, text);
  await rename(`${file}.new`, file);
}

/** Settles with 'pending' when `p` has not settled within `ms` (a negative check: it must not decide). */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

describe('hold file', () => {
  it('round-trips hold, go and drop; anything else is no hold', () => {
    for (const h of [{ kind: 'hold', pid: 4242, startTime: '987654' }, { kind: 'go' }, { kind: 'drop' }] as const) expect(parseHoldFile(holdFileText(h))).toEqual(h);
    expect(holdFileText({ kind: 'hold', pid: 7, startTime: '12' })).toBe('hold 7 12\n');
    for (const junk of ['', 'hold', 'hold 0 12', 'hold -1 12', 'hold 7', 'hold 7 12 x', 'hold 7 1e3', 'GO', 'go now', 'hold 12345678901 1']) expect(parseHoldFile(junk)).toBeNull();
  });

  it('processStartTime: field 22 of /proc/PID/stat, also past a command name with spaces and ")"; null for no process or a zombie', async () => {
    const self = await processStartTime('self');
    expect(self).toMatch(/^\d+$/);
    expect(await processStartTime(process.pid)).toBe(self);
    const fields = (state: string) => [state, ...Array.from({ length: 18 }, (_, i) => String(i + 4)), '555111', '23'].join(' ');
    await mkdir(path.join(dir, '77'));
    await writeFile(path.join(dir, '77', 'stat'), `77 (a) b) c) ${fields('S')}\n`);
    expect(await processStartTime(77, dir)).toBe('555111');
    await mkdir(path.join(dir, '78'));
    await writeFile(path.join(dir, '78', 'stat'), `78 (z) ${fields('Z')}\n`);
    expect(await processStartTime(78, dir)).toBeNull();
    expect(await processStartTime(79, dir)).toBeNull();
  });
});

describe('awaitHold', () => {
  it('no hold file, "go" or unreadable text: go at once; "drop": drop', async () => {
    const file = path.join(dir, 'capture.hold');
    expect(await awaitHold(file)).toBe('go');
    await putHold(file, 'go\n');
    expect(await awaitHold(file)).toBe('go');
    await putHold(file, 'garbage\n');
    expect(await awaitHold(file)).toBe('go');
    await putHold(file, 'drop\n');
    expect(await awaitHold(file)).toBe('drop');
  });

  it('held by a live process: waits, and goes when the file says go (woken by inotify, not the poll)', async () => {
    const file = path.join(dir, 'capture.hold');
    await putHold(file, holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    const w = awaitHold(file, '/proc', 60_000);
    await writeFile(path.join(dir, 'other'), 'x'); // another file in the directory: still held
    expect(await within(w, 300)).toBe('pending');
    await putHold(file, 'go\n');
    expect(await within(w, 30_000)).toBe('go');
  });

  it('held, then dropped: drop', async () => {
    const file = path.join(dir, 'capture.hold');
    await putHold(file, holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    const w = awaitHold(file, '/proc', 60_000);
    expect(await within(w, 200)).toBe('pending');
    await putHold(file, 'drop\n');
    expect(await within(w, 30_000)).toBe('drop');
  });

  it('the holder ends (kill -9, nothing written): drop, found by the poll; a PID with another start time is not the holder', async () => {
    const file = path.join(dir, 'capture.hold');
    const child = spawn('/bin/sleep', ['600'], { stdio: 'ignore' });
    const ended = new Promise((r) => child.once('exit', r));
    await new Promise((r) => child.once('spawn', r));
    await putHold(file, holdFileText({ kind: 'hold', pid: child.pid!, startTime: (await processStartTime(child.pid!))! }));
    const w = awaitHold(file, '/proc', 20);
    expect(await within(w, 200)).toBe('pending');
    child.kill('SIGKILL');
    await ended;
    expect(await within(w, 30_000)).toBe('drop');
    // A reused PID: the same number, another start time.
    await putHold(file, holdFileText({ kind: 'hold', pid: process.pid, startTime: '1' }));
    expect(await awaitHold(file)).toBe('drop');
  });

  it('held past maxMs: drop', async () => {
    const file = path.join(dir, 'capture.hold');
    await putHold(file, holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    expect(await awaitHold(file, '/proc', 20, 100)).toBe('drop');
  });
});

describe('awaitHold: what it says, and a hold file that is not a file', () => {
  it('says why it ended or went past a hold it could not read; a plain go or no file says nothing', async () => {
    const file = path.join(dir, 'capture.hold');
    const said: string[] = [];
    const note = (l: string) => void said.push(l);
    expect(await awaitHold(file, '/proc', 20, 30_000, note)).toBe('go');
    await putHold(file, 'go\n');
    expect(await awaitHold(file, '/proc', 20, 30_000, note)).toBe('go');
    expect(said).toEqual([]);
    await putHold(file, 'drop\n');
    expect(await awaitHold(file, '/proc', 20, 30_000, note)).toBe('drop');
    expect(said.pop()).toMatch(/capture\.hold says drop .*exiting, nothing done/);
    // A live PID (1) named with another start time: a reused PID, not its holder.
    await putHold(file, 'hold 1 99999999999\n');
    expect(await awaitHold(file, '/proc', 20, 30_000, note)).toBe('drop');
    expect(said.pop()).toMatch(/\(PID 1, start time 99999999999 in .*capture\.hold\) is no longer running/);
    await putHold(file, holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    expect(await awaitHold(file, '/proc', 20, 100, note)).toBe('drop');
    expect(said.pop()).toMatch(new RegExp(`still held by PID ${process.pid} after 0 s`));
    await putHold(file, 'rm -rf /\n');
    expect(await awaitHold(file, '/proc', 20, 30_000, note)).toBe('go');
    expect(said.pop()).toMatch(/holds no hold \("rm -rf \/\\n"\): read as none/);
  });

  it('a FIFO there is not waited on, a link not followed, a huge file not read: each goes at once, and says so', async () => {
    const file = path.join(dir, 'capture.hold');
    const said: string[] = [];
    const note = (l: string) => void said.push(l);
    execFileSync('mkfifo', [file]);
    // Before the fix a FIFO hung its read (and so the wait) until maxMs.
    expect(await within(awaitHold(file, '/proc', 20, 60_000, note), 10_000)).toBe('go');
    expect(said.pop()).toMatch(/FIFO/);
    await rm(file);
    await writeFile(path.join(dir, 'real-hold'), holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    await symlink(path.join(dir, 'real-hold'), file);
    expect(await within(awaitHold(file, '/proc', 20, 60_000, note), 10_000)).toBe('go');
    expect(said.pop()).toMatch(/symbolic link \(not followed\)/);
    await rm(file);
    await writeFile(file, `hold ${process.pid} ${(await processStartTime('self'))!}\n${'x'.repeat(4096)}`);
    expect(await within(awaitHold(file, '/proc', 20, 60_000, note), 10_000)).toBe('go');
    expect(said.pop()).toMatch(/more than the 256/);
  });
});

describe('runCapture --flags-file: a flags file that is not a small regular file', () => {
  const fsAt = () => new Proxy({}, { get: (_t, k) => (k === 'then' ? undefined : k === 'real' ? (p: string) => path.join(dir, p) : () => { throw new Error(`fs.${String(k)} used`); }) }) as HostFs;
  it('a link (even to good flags) is not followed: 1; a FIFO is not waited on: 1; past 64 KiB: 2; each says why on stderr', async () => {
    const flags = path.join(dir, 'capture.flags');
    const good = path.join(dir, 'good.flags');
    await writeFile(good, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await symlink(good, flags);
      expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/cannot read its flags: .*capture\.flags is a symbolic link \(not followed\)/);
      await rm(flags);
      execFileSync('mkfifo', [flags]);
      expect(await within(runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs'), 10_000)).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/capture\.flags is a FIFO/);
      await rm(flags);
      await writeFile(flags, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n${'#'.repeat(70_000)}`);
      expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(2);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/is 70\d+ bytes, more than the 65536/);
      await rm(flags);
      expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/capture\.flags does not exist/);
    } finally {
      err.mockRestore();
    }
  });
});

describe('runCapture --flags-file (the systemd unit)', () => {
  /** Only `real` (into the temp dir); any other use fails the test: nothing is written before the flags are read and judged. */
  const fsAt = () => new Proxy({}, { get: (_t, k) => (k === 'then' ? undefined : k === 'real' ? (p: string) => path.join(dir, p) : () => { throw new Error(`fs.${String(k)} used`); }) }) as HostFs;
  const holdPath = () => path.join(dir, CAPTURE_HOLD_FILE);

  it('dropped while held: exits 0 having written nothing; a missing flags file is 1, garbage in it 2, not root 3', async () => {
    await mkdir(path.dirname(holdPath()), { recursive: true });
    await putHold(holdPath(), holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    const flags = path.join(dir, 'capture.flags');
    const r = runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs');
    expect(await within(r, 200)).toBe('pending');
    await putHold(holdPath(), 'drop\n');
    expect(await r).toBe(0);
    await putHold(holdPath(), 'go\n');
    expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(1);
    await writeFile(flags, 'rm -rf /\n');
    expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(2);
    await writeFile(flags, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    expect(await runCapture(fsAt(), 1000, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(3);
    // No hold file at all (a boot): the flags are read at once.
    await rm(holdPath());
    await writeFile(flags, 'go ["--listen","127.0.0.1:53","--port","0"]\n');
    expect(await runCapture(fsAt(), 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(2);
  });
});
