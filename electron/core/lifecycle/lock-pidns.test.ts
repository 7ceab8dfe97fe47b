/**
 * Issue 20 medium: inside a PID namespace (the sandbox) /proc/locks leaves out the lifecycle lock
 * a live CLI start holds (its taker, flock(1), has exited), so status called the running start
 * "interrupted" (degraded). The holder's own fdinfo still shows the lock, with pid 0, as measured
 * in e2e/bed/sandbox.sh on Linux 6.18: `lock:\t1: FLOCK  ADVISORY  WRITE 0 00:4a:4 0 EOF`.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, LOCK_PATH, lockHeldBy } from './lock';
import { trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/** `MM:mm:ino` of a /proc/locks row for a file's st_dev and st_ino (Linux dev_t: sysmacros.h). */
function lockId(dev: number, ino: number): string {
  const major = (dev >> 8) & 0xfff;
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
}

describe('lockHeldBy: the lock in the holder\'s fdinfo', () => {
  it('this process holds the lock: seen in its fdinfo; released: not', async () => {
    const h = await newHost();
    const lock = await acquireLock(h.deps.fs);
    try {
      expect(await lockHeldBy(h.deps.fs, process.pid)).toBe(true);
    } finally {
      await lock.release();
    }
    expect(await lockHeldBy(h.deps.fs, process.pid)).toBe(false);
  });

  it('the sandbox\'s row (pid 0) on the lock file counts; one on another file, or no such process, does not', async () => {
    const h = await newHost();
    await acquireLock(h.deps.fs).then((l) => l.release()); // creates the lock file
    const st = await stat(join(h.root, LOCK_PATH));
    const proc = await mkdtemp(join(tmpdir(), 'k2s-dns-proc-'));
    try {
      await mkdir(join(proc, '305/fdinfo'), { recursive: true });
      await writeFile(join(proc, '305/fdinfo/0'), 'pos:\t0\nflags:\t02\nmnt_id:\t12\nino:\t9\n');
      await writeFile(join(proc, '305/fdinfo/21'), `pos:\t0\nflags:\t0102001\nmnt_id:\t190\nino:\t${st.ino}\nlock:\t1: FLOCK  ADVISORY  WRITE 0 ${lockId(st.dev, st.ino)} 0 EOF\n`);
      expect(await lockHeldBy(h.deps.fs, 305, proc)).toBe(true);
      await writeFile(join(proc, '305/fdinfo/21'), `lock:\t1: FLOCK  ADVISORY  WRITE 0 ${lockId(st.dev, st.ino + 1)} 0 EOF\n`);
      expect(await lockHeldBy(h.deps.fs, 305, proc)).toBe(false);
      expect(await lockHeldBy(h.deps.fs, 306, proc)).toBe(false);
    } finally {
      await rm(proc, { recursive: true, force: true });
    }
  });
});
