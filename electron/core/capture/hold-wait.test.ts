import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile, rename, symlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { awaitHold, processStartTime } from './hold-wait';
import { PassThrough } from 'node:stream';
import { CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_FLAGS_FILE_FLAG, CAPTURE_HELD_FLAG, CAPTURE_HOLD_FILE, heldGoLine, holdFileText, parseHoldFile } from './capture-args';
import { runCapture } from './capture-main';
import { parseFailedFile } from './failed-file';
import type { HostFs } from '../host/host-fs';
import { createHostFs } from '../host/host-fs-node';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { CAPTURE_EXIT_CONFIG } from '../../../shared/capture-exit';

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

/**
 * A HostFs into the temp dir that allows only `real` and the failed file's read and write (its
 * directory made first): any other use fails the test — nothing else is written before the flags
 * are read and judged. `failedLine` reads that file and removes it.
 */
function flagsFs() {
  const real = createHostFs(dir);
  const refuse = (k: string) => () => {
    throw new Error(`fs.${k} used`);
  };
  const fs = new Proxy({}, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      if (k === 'real') return (p: string) => real.real(p);
      if (k === 'mkdirp') return (p: string, mode: number) => (p === K2S_PATHS.runDir ? real.mkdirp(p, mode) : refuse(`mkdirp ${p}`)());
      if (k === 'readFile') return (p: string) => (p === CAPTURE_FAILED_FILE ? real.readFile(p) : refuse(`readFile ${p}`)());
      if (k === 'writeFileAtomic') return (p: string, d: string, o: { mode: number }) => (p === CAPTURE_FAILED_FILE ? real.writeFileAtomic(p, d, o) : refuse(`writeFileAtomic ${p}`)());
      return refuse(String(k));
    },
  }) as HostFs;
  const failedLine = async () => {
    const text = await readFile(real.real(CAPTURE_FAILED_FILE), 'utf8').catch(() => '');
    await rm(real.real(CAPTURE_FAILED_FILE), { force: true });
    return parseFailedFile(text);
  };
  return { fs, failedLine };
}

describe('runCapture --flags-file: a flags file that is not a small regular file', () => {
  it('a link (even to good flags) is not followed, a FIFO is not waited on, past 64 KiB, missing: each its bad configuration (78: its unit does not restart it), said on stderr and in the failed file', async () => {
    const good = path.join(dir, 'good.flags');
    await writeFile(good, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    const { fs, failedLine } = flagsFs();
    const flags = fs.real(CAPTURE_FLAGS_FILE);
    await mkdir(path.dirname(flags), { recursive: true });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await symlink(good, flags);
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/cannot read its flags: .*capture\.flags is a symbolic link \(not followed\)/);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/^cannot read its flags: .*capture\.flags is a symbolic link \(not followed\); the next start of K2s DNS writes them/), exit: 78 });
      await rm(flags);
      execFileSync('mkfifo', [flags]);
      expect(await within(runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs'), 10_000)).toBe(CAPTURE_EXIT_CONFIG);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/capture\.flags is a FIFO/);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/capture\.flags is a FIFO/), exit: 78 });
      await rm(flags);
      await writeFile(flags, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n${'#'.repeat(70_000)}`);
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/is 70\d+ bytes, more than the 65536/);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/is 70\d+ bytes, more than the 65536/), exit: 78 });
      await rm(flags);
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/capture\.flags does not exist/);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/capture\.flags does not exist/), exit: 78 });
      // Not root (a hand run): exits the same, writes nothing in root's run dir.
      expect(await runCapture(fs, 1000, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
      expect(await failedLine()).toBeNull();
    } finally {
      err.mockRestore();
    }
  });
});

describe('runCapture --held (under its keeper, without systemd)', () => {
  it('a bad go line or bad flags in it: its bad configuration (78: its keeper does not restart it, every restart reads the same go file), said on stderr and in the failed file; not root writes nothing', async () => {
    const { fs, failedLine } = flagsFs();
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const held = async (line: string, uid = 0) => {
      const input = new PassThrough();
      const r = runCapture(fs, uid, [CAPTURE_HELD_FLAG], '/x/k2s-dns.mjs', input);
      input.end(`${line}\n`);
      return r;
    };
    try {
      expect(await held('go [not json')).toBe(CAPTURE_EXIT_CONFIG);
      expect(String(err.mock.calls.at(-1)?.[0])).toBe('k2s-dns capture-watch: not a go line: "go [not json"\n');
      expect(await failedLine()).toMatchObject({ why: 'not a go line: "go [not json"', exit: 78 });
      expect(await held('go ["--listen","127.0.0.1:53","--port","99999"]')).toBe(CAPTURE_EXIT_CONFIG);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/^bad flags in its go line: .*99999/), exit: 78 });
      expect(await held('go [not json', 1000)).toBe(CAPTURE_EXIT_CONFIG);
      expect(await failedLine()).toBeNull();
    } finally {
      err.mockRestore();
    }
  });
});

describe('runCapture --flags-file: only K2s\'s own flags file (brk31)', () => {
  it('another path (the helper under pkexec took any: root printed a root-only file\'s first line to the caller and into the failed file) is usage 2, unread, unechoed', async () => {
    const { fs, failedLine } = flagsFs();
    const secret = path.join(dir, 'secret');
    await writeFile(secret, 'root:SECRET-HASH:20000::::::\n', { mode: 0o600 });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, secret], '/x/k2s-dns.mjs')).toBe(2);
      const said = err.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain(`reads its flags only from ${fs.real(CAPTURE_FLAGS_FILE)}`);
      expect(said).not.toContain('SECRET-HASH');
      expect(await failedLine()).toBeNull();
    } finally {
      err.mockRestore();
    }
  });
});

describe('runCapture --flags-file (the systemd unit)', () => {
  const holdPath = () => path.join(dir, CAPTURE_HOLD_FILE);

  it('dropped while held: exits 0 having written nothing; a missing flags file, garbage in it or bad flags are its bad configuration (78, in the failed file), not root 3', async () => {
    const { fs, failedLine } = flagsFs();
    await mkdir(path.dirname(holdPath()), { recursive: true });
    await putHold(holdPath(), holdFileText({ kind: 'hold', pid: process.pid, startTime: (await processStartTime('self'))! }));
    const flags = fs.real(CAPTURE_FLAGS_FILE);
    await mkdir(path.dirname(flags), { recursive: true });
    const r = runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs');
    expect(await within(r, 200)).toBe('pending');
    await putHold(holdPath(), 'drop\n');
    expect(await r).toBe(0);
    expect(await failedLine()).toBeNull();
    await putHold(holdPath(), 'go\n');
    expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
    expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/capture\.flags does not exist/), exit: 78 });
    await writeFile(flags, 'rm -rf /\n');
    expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
    expect(await failedLine()).toMatchObject({ why: `${flags} holds no go line: "rm -rf /\\n"`, exit: 78 });
    await writeFile(flags, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    expect(await runCapture(fs, 1000, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(3);
    // No hold file at all (a boot): the flags are read at once.
    await rm(holdPath());
    await writeFile(flags, 'go ["--listen","127.0.0.1:53","--port","0"]\n');
    expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_CONFIG);
    expect(await failedLine()).toMatchObject({ why: `bad flags in ${flags}: port "0": need 1–65535`, exit: 78 });
  });

  it('good flags but what it needs is missing (here: the nobody account, or tcpdump itself): 1, which systemd restarts it for, said in the failed file; a stopped capture\'s line stays', async () => {
    const { fs, failedLine } = flagsFs();
    const flags = fs.real(CAPTURE_FLAGS_FILE);
    await mkdir(path.dirname(flags), { recursive: true });
    await writeFile(flags, `${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    await mkdir(path.join(dir, 'etc'), { recursive: true });
    await writeFile(path.join(dir, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(1);
      expect(await failedLine()).toMatchObject({ why: expect.stringMatching(/^(tcpdump is not installed \(looked in \/usr\/bin\/tcpdump|no nobody account in \/etc\/passwd to run the packet parser as\.$)/), exit: 1 });
      // A restart of systemd's after its capture stopped (tcpdump killed) leaves that line, which status says.
      const stopped = '2026-12-06T10:00:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n';
      await mkdir(path.dirname(path.join(dir, CAPTURE_FAILED_FILE)), { recursive: true });
      await writeFile(path.join(dir, CAPTURE_FAILED_FILE), stopped);
      expect(await runCapture(fs, 0, [CAPTURE_FLAGS_FILE_FLAG, flags], '/x/k2s-dns.mjs')).toBe(1);
      expect(await readFile(path.join(dir, CAPTURE_FAILED_FILE), 'utf8')).toBe(stopped);
    } finally {
      out.mockRestore();
    }
  });
});
