/**
 * lockPastFollower with a follower ended by a signal (systemd's Follower.kill: no stop job,
 * which would deadlock with the proxy restart the follow waits for): a real process holds the
 * lifecycle lock with its PID noted, as a follow in progress does. On SIGTERM it finishes that
 * follow first (the lock is taken once it lets go, no stop job, no SIGKILL); a follow that does
 * not end is SIGKILLed after the wait and the kernel frees its lock. systemdFollower.kill's one
 * systemctl call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { FOLLOW_END_WAIT_MS, lockPastFollower } from './companions';
import { startDns } from './start';
import { stopDns } from './stop';
import { acquireLock, LOCK_PATH } from './lock';
import { systemdFollower, type Follower } from '../host/follower';
import type { Exec } from '../host/exec';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/**
 * A follower process holding the lock with its PID noted (lock.ts: flock(1) on its own
 * descriptor, then the note); on SIGTERM `onTerm` (node source). Resolves once the note names it
 * (10 s bound: node and flock start slowly on a busy 2-core machine).
 */
async function followerHoldingLock(h: Awaited<ReturnType<typeof newHost>>, onTerm: string) {
  await (await acquireLock(h.deps.fs)).release(); // makes /run/k2s as stop would
  const lock = JSON.stringify(h.deps.fs.real(LOCK_PATH));
  const body = `const fs=require('fs');const fd=fs.openSync(${lock},'a+');require('child_process').spawnSync('flock',['-x','3'],{stdio:['ignore','ignore','inherit',fd]});fs.writeFileSync(${lock},process.pid+'\\n');process.on('SIGTERM',()=>{${onTerm}});setInterval(()=>{},1000)`;
  const child = spawn(process.execPath, ['-e', body, 'follow-watch'], { stdio: 'ignore' });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const noted = async () => (await readFile(h.deps.fs.real(LOCK_PATH), 'utf8').catch(() => '')).trim() === String(child.pid);
  for (const end = Date.now() + 10_000; Date.now() < end && !(await noted()); ) await new Promise((r) => setTimeout(r, 10));
  expect(await noted()).toBe(true);
  const calls: string[] = [];
  const manager: Follower = {
    start: async () => void calls.push('start'),
    stop: async () => void calls.push('stop'),
    pid: async () => (child.exitCode === null && child.signalCode === null ? child.pid! : null),
    kill: async (signal) => {
      calls.push(signal);
      child.kill(signal);
    },
  };
  h.deps.follower = { manager, argv: ['/usr/bin/node', 'entry', 'follow-watch'] };
  return { calls, exited };
}

describe('lockPastFollower: a follow in progress ended by a signal (systemd)', () => {
  it('SIGTERM only, no stop job: the follow finishes, lets go of the lock, and the lock is stop\'s', async () => {
    const h = await newHost();
    // The follow finishing: the lock held 300 ms more after SIGTERM, let go, then the process ends.
    const { calls, exited } = await followerHoldingLock(h, `setTimeout(()=>{fs.ftruncateSync(fd,0);fs.closeSync(fd);process.exit(0)},300)`);
    const t0 = Date.now();
    const lock = await lockPastFollower(h.deps, 'stop', 5000);
    const tookMs = Date.now() - t0;
    expect(lock.withoutLock).toBeNull();
    expect(calls).toEqual(['SIGTERM']);
    expect(await exited).toEqual({ code: 0, signal: null });
    // Taken after the follow's 300 ms, well before the 5 s wait's end.
    expect(tookMs).toBeGreaterThanOrEqual(300);
    expect(tookMs).toBeLessThan(5000);
    expect(lock.followKilledAfterMs).toBeNull();
    await lock.release();
  });

  it('a follow that does not end (SIGTERM ignored): SIGKILL after the wait, the kernel frees the lock, stop takes it', async () => {
    const h = await newHost();
    const { calls, exited } = await followerHoldingLock(h, '');
    const t0 = Date.now();
    const lock = await lockPastFollower(h.deps, 'stop', 400);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(calls).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(lock.withoutLock).toBeNull();
    expect(lock.followKilledAfterMs).toBe(400);
    await lock.release();
  });

  it(`stop past a follow that does not end, the proxy down in that follow's restart: its stop-service line says so, not "was not running" (SIGKILL after FOLLOW_END_WAIT_MS, ${FOLLOW_END_WAIT_MS} ms)`, async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true });
    // The follow's engine restart under way: the proxy stopped, not started again yet.
    await h.services.stop();
    const { calls, exited } = await followerHoldingLock(h, '');
    const steps: string[] = [];
    const r = await stopDns(h.deps, {}, (e) => void (e.type === 'step' && e.status !== 'running' && steps.push(`${e.step}: ${e.message}`)));
    expect(calls.slice(0, 2)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(r).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is stopped; the host resolver is back as it was.' });
    expect(steps).toContain(`stop-service: k2s-dnsproxy was being restarted by the network follower as this stop began (a follow not done within ${FOLLOW_END_WAIT_MS / 1000} s, its process killed with SIGKILL); it is stopped now.`);
    expect(steps.join('\n')).not.toContain('k2s-dnsproxy was not running.');
  });
});

describe('systemdFollower.kill', () => {
  it('one `systemctl kill` of the unit\'s main process (no job queued); a failed one throws with its stderr', async () => {
    const h = await newHost();
    const calls: string[][] = [];
    let code = 0;
    const exec: Exec = { run: async (file, args) => (calls.push([file, ...args]), { code, stdout: '', stderr: code ? 'Failed to kill unit k2s-dnsproxy-follow.service: No main process to kill\n' : '' }) };
    const follower = systemdFollower(h.deps.fs, exec);
    await follower.kill!('SIGTERM');
    await follower.kill!('SIGKILL');
    expect(calls).toEqual([
      ['systemctl', 'kill', '--kill-who=main', '--signal=SIGTERM', 'k2s-dnsproxy-follow.service'],
      ['systemctl', 'kill', '--kill-who=main', '--signal=SIGKILL', 'k2s-dnsproxy-follow.service'],
    ]);
    code = 1;
    await expect(follower.kill!('SIGTERM')).rejects.toThrow('systemctl kill --kill-who=main --signal=SIGTERM k2s-dnsproxy-follow.service failed (Failed to kill unit k2s-dnsproxy-follow.service: No main process to kill); see "journalctl -u k2s-dnsproxy-follow.service".');
  });
});
