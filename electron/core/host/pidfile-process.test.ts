/**
 * pidfileProcess with real detached processes on a temp root: the program runs only once its
 * pid is recorded, so a starter that never records it (killed, or the pidfile write failing)
 * leaves no untracked root process behind; a recorded one runs under the recorded pid.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostFs } from './host-fs';
import { pidfileProcess } from './pidfile-process';
import { FOLLOW_LOG, FOLLOW_PID_FILE, isFollowerArgv } from './follower';
import { trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const spawned: number[] = [];
afterEach(() => {
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

/** Live pids whose /proc cmdline holds `token` (zombies have none). */
async function pidsWith(token: string): Promise<number[]> {
  const pids: number[] = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    if ((await readFile(`/proc/${d}/cmdline`, 'utf8').catch(() => '')).includes(token)) pids.push(Number(d));
  }
  return pids;
}

/** A follower-like node program that writes its pid to `marker` at once, then idles; `token` marks its argv. */
const program = (marker: string, token: string) => [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, String(process.pid));setInterval(()=>{},1000)`, token, 'follow-watch'];
const spec = { pidFile: FOLLOW_PID_FILE, logFile: FOLLOW_LOG, isOwnArgv: isFollowerArgv, stopWaitMs: 2000 };

describe('pidfileProcess start', () => {
  it('runs the program under the pid it recorded (same pid, its own argv), and stop ends it', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const p = pidfileProcess(h.deps.fs, spec);
    await p.start(program(marker, token));
    const pid = Number((await readFile(h.deps.fs.real(FOLLOW_PID_FILE), 'utf8')).trim());
    spawned.push(pid);
    for (let i = 0; i < 300 && !(await readFile(marker, 'utf8').catch(() => '')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(Number(await readFile(marker, 'utf8'))).toBe(pid);
    expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1)).toEqual(program(marker, token));
    expect(await p.pid()).toBe(pid);
    await p.stop();
    expect(await pidsWith(token)).toEqual([]);
  });

  it('a starter that cannot record the pid (killed, or the pidfile write failing) leaves no process running the program', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const fs: HostFs = { ...h.deps.fs, writeFileAtomic: async (p, ...rest) => (p === FOLLOW_PID_FILE ? Promise.reject(new Error('killed before the pidfile')) : h.deps.fs.writeFileAtomic(p, ...rest)) };
    await expect(pidfileProcess(fs, spec).start(program(marker, token))).rejects.toThrow(/killed before the pidfile/);
    await new Promise((r) => setTimeout(r, 700));
    const left = await pidsWith(token);
    spawned.push(...left);
    expect(left).toEqual([]);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });
});
