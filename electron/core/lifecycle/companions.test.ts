/**
 * Both companions (the network follower and the capture) as real detached processes with their
 * pidfiles on a temp root: the recovery of an interrupted start ends them as a normal stop
 * does, and a stop refused as BUSY (exit 3) leaves the follower running, its pidfile intact,
 * while a follow in progress (the follower holding the lock) still gives way to stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { startDns } from './start';
import { stopDns } from './stop';
import { recoverNow } from './recover';
import { LOCK_PATH, lockHeld } from './lock';
import { supervisedFollower, FOLLOW_PID_FILE } from '../host/follower';
import { supervisedCapture, CAPTURE_PID_FILE } from '../host/capture-companion';
import { CAPTURE_READY_FILE } from '../capture/capture-args';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\n';
const spawned: number[] = [];
afterEach(() => {
  // With their children: the capture's pidfile names its keeper (host/capture-keeper.ts), whose
  // companion, a child, would outlive a keeper killed alone (proc(5) /proc/PID/task/TID/children).
  const children = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  for (const pid of spawned.splice(0).flatMap((p) => [p, ...children(p)])) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/** argv of a node program running `body` then idling, recognised as `verb` (its last or 4th argument). */
const program = (body: string, verb: string) => [process.execPath, '-e', `${body};setInterval(()=>{},1000)`, verb];

/** True while /proc/PID still runs a program with `verb` in its argv (a reaped or zombie process does not). */
const runs = (pid: number, verb: string) => readFile(`/proc/${pid}/cmdline`, 'utf8').then((c) => c.split('\0').includes(verb), () => false);

/** The pid a pidfile of the temp root names (asserted to be a live process running `verb`). */
async function livePid(h: { root: string }, pidFile: string, verb: string): Promise<number> {
  // Polled by a 10 s deadline: on a busy machine the pidfile can still name the process it replaced.
  let pid = 0;
  for (const end = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 20))) {
    pid = Number((await readFile(`${h.root}${pidFile}`, 'utf8').catch(() => '')).trim());
    if ((pid > 0 && (await runs(pid, verb))) || Date.now() > end) break;
  }
  spawned.push(pid);
  expect((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')).toContain(verb);
  return pid;
}

/**
 * A started host whose follower holds the lifecycle lock with its PID noted, as a follow in
 * progress does (lock.ts: flock(1) on its own descriptor, then the note). Polled up to 10 s (a
 * busy 2-core machine starts node and flock slowly), then required.
 */
async function followerHoldingLock() {
  const h = await newHost(ORIGINAL);
  const lock = JSON.stringify(h.deps.fs.real(LOCK_PATH));
  const takeLock = `const fs=require('fs');const fd=fs.openSync(${lock},'a+');require('child_process').spawnSync('flock',['-x','3'],{stdio:['ignore','ignore','inherit',fd]});fs.writeFileSync(${lock},process.pid+'\\n')`;
  h.deps.follower = { manager: supervisedFollower(h.deps.fs), argv: program('', 'follow-watch') };
  expect((await startDns(h.deps, TEST_START_OPTS, quiet)).ok).toBe(true);
  await h.deps.follower.manager.start(program(takeLock, 'follow-watch'));
  const follower = await livePid(h, FOLLOW_PID_FILE, 'follow-watch');
  const noted = async () => (await readFile(h.deps.fs.real(LOCK_PATH), 'utf8').catch(() => '')).trim() === String(follower);
  for (const end = Date.now() + 10_000; Date.now() < end && !(await noted()); ) await new Promise((r) => setTimeout(r, 10));
  expect(await noted()).toBe(true);
  return { h, follower };
}

/** A host running K2s DNS with a real follower and capture companion (detached, pidfiles in its /run/k2s). */
async function runningHost() {
  const h = await newHost(ORIGINAL);
  const follower = supervisedFollower(h.deps.fs);
  const capture = supervisedCapture(h.deps.fs);
  const ready = JSON.stringify(h.deps.fs.real(CAPTURE_READY_FILE));
  h.deps.follower = { manager: follower, argv: program('', 'follow-watch') };
  h.deps.capture = { manager: capture, argv: program(`require('fs').writeFileSync(${ready}, '')`, 'capture-watch'), tcpdump: '/usr/bin/tcpdump' };
  expect((await startDns(h.deps, TEST_START_OPTS, quiet)).ok).toBe(true);
  return { h, follower: await livePid(h, FOLLOW_PID_FILE, 'follow-watch'), capture: await livePid(h, CAPTURE_PID_FILE, 'capture-watch') };
}

/** A pid no process has: a child that already exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('recovery of an interrupted start ends both companions', () => {
  for (const how of ['status (implicit recover)', 'stop'] as const) {
    it(`killed during "service", recovered by ${how}: the follower and the capture are gone, the original is back`, async () => {
      const { h, follower, capture } = await runningHost();
      // kill -9 of the start: its journal names a dead pid and the step it was in.
      await writeFile(`${h.root}${K2S_PATHS.journal}`, JSON.stringify({ version: 1, op: 'start', step: 'service', pid: deadPid(), startedAt: '2026-12-04T13:00:00.000Z', updatedAt: '2026-12-04T13:00:01.000Z' }));
      if (how === 'stop') expect((await stopDns(h.deps, {}, quiet)).message).toMatch(/^Recovered an interrupted start \(killed during "service"\): rolled back/);
      else expect(await recoverNow(h.deps, quiet)).toMatch(/^Recovered an interrupted start \(killed during "service"\): rolled back; the original resolver is back and k2s-dnsproxy is stopped\.$/);
      expect(await runs(follower, 'follow-watch')).toBe(false);
      expect(await runs(capture, 'capture-watch')).toBe(false);
      await expect(readFile(`${h.root}${FOLLOW_PID_FILE}`)).rejects.toThrow(/ENOENT/);
      await expect(readFile(`${h.root}${CAPTURE_PID_FILE}`)).rejects.toThrow(/ENOENT/);
      expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
    });
  }
});

describe('the implicit recovery and a follow in progress', () => {
  it('status (recoverNow) while the follower holds the lock for its look: ends it and rolls the start back, not BUSY', async () => {
    const { h, follower } = await followerHoldingLock();
    // The journal of a start killed in verify (a dead pid), found while that look holds the lock.
    await writeFile(`${h.root}${K2S_PATHS.journal}`, JSON.stringify({ version: 1, op: 'start', step: 'verify', pid: deadPid(), startedAt: '2026-12-04T13:00:00.000Z', updatedAt: '2026-12-04T13:00:01.000Z' }));
    expect(await recoverNow(h.deps, quiet)).toBe('Recovered an interrupted start (killed during "verify"): rolled back; the original resolver is back and k2s-dnsproxy is stopped.');
    expect(await runs(follower, 'follow-watch')).toBe(false);
    await expect(readFile(`${h.root}${K2S_PATHS.journal}`)).rejects.toThrow(/ENOENT/);
    expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
  });

  it('another holder of the lock (not the follower): still BUSY, the follower keeps running and the journal stays', async () => {
    const { h, follower } = await runningHost();
    const holder = spawn('flock', ['--exclusive', h.deps.fs.real(LOCK_PATH), 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    await new Promise((r) => holder.stdout!.once('data', r));
    try {
      await writeFile(`${h.root}${K2S_PATHS.journal}`, JSON.stringify({ version: 1, op: 'start', step: 'verify', pid: deadPid(), startedAt: '2026-12-04T13:00:00.000Z', updatedAt: '2026-12-04T13:00:01.000Z' }));
      await expect(recoverNow(h.deps, quiet)).rejects.toMatchObject({ code: 'BUSY' });
      expect(await livePid(h, FOLLOW_PID_FILE, 'follow-watch')).toBe(follower);
      expect(JSON.parse(await readFile(`${h.root}${K2S_PATHS.journal}`, 'utf8'))).toMatchObject({ op: 'start', step: 'verify' });
    } finally {
      process.kill(-holder.pid!, 'SIGKILL');
    }
  });
});

describe('stop and the lifecycle lock', () => {
  it('refused as BUSY (another operation holds the lock): nothing changed, the same follower still runs', async () => {
    const { h, follower, capture } = await runningHost();
    // `( flock -x 9; sleep 60 ) 9>lock`: flock(1) keeps the lock for the sleep of its own group.
    const holder = spawn('flock', ['--exclusive', h.deps.fs.real(LOCK_PATH), 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    await new Promise((r) => holder.stdout!.once('data', r));
    try {
      const r = await stopDns(h.deps, {}, quiet);
      expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'BUSY' });
      expect(await livePid(h, FOLLOW_PID_FILE, 'follow-watch')).toBe(follower);
      expect(await livePid(h, CAPTURE_PID_FILE, 'capture-watch')).toBe(capture);
      expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).not.toBe(ORIGINAL);
    } finally {
      process.kill(-holder.pid!, 'SIGKILL');
    }
    // The kernel drops the lock once the killed group's last descriptor is closed.
    for (let i = 0; i < 300 && (await lockHeld(h.deps.fs)); i++) await new Promise((r) => setTimeout(r, 10));
    expect((await stopDns(h.deps, {}, quiet)).ok).toBe(true);
    expect(await runs(follower, 'follow-watch')).toBe(false);
    expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
  });

  it('a follow in progress (the follower holds the lock, its PID noted) gives way: stop ends it and completes', async () => {
    const { h, follower } = await followerHoldingLock();
    const r = await stopDns(h.deps, {}, quiet);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await runs(follower, 'follow-watch')).toBe(false);
    expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
  });

  it('the follower locked but has not noted its PID yet (a moment): stop waits for the note, then ends it', async () => {
    const h = await newHost(ORIGINAL);
    const lock = JSON.stringify(h.deps.fs.real(LOCK_PATH));
    const lateNote = `const fs=require('fs');const fd=fs.openSync(${lock},'a+');require('child_process').spawnSync('flock',['-x','3'],{stdio:['ignore','ignore','inherit',fd]});fs.ftruncateSync(fd,0);setTimeout(()=>fs.writeFileSync(${lock},process.pid+'\\n'),300)`;
    h.deps.follower = { manager: supervisedFollower(h.deps.fs), argv: program('', 'follow-watch') };
    expect((await startDns(h.deps, TEST_START_OPTS, quiet)).ok).toBe(true);
    await h.deps.follower.manager.start(program(lateNote, 'follow-watch'));
    const follower = await livePid(h, FOLLOW_PID_FILE, 'follow-watch');
    for (const end = Date.now() + 10_000; Date.now() < end && !(await lockHeld(h.deps.fs)); ) await new Promise((r) => setTimeout(r, 10));
    expect(await lockHeld(h.deps.fs)).toBe(true);
    expect(await stopDns(h.deps, {}, quiet)).toMatchObject({ ok: true, exitCode: 0 });
    expect(await runs(follower, 'follow-watch')).toBe(false);
    expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
  });
});

describe('recover --force', () => {
  it('with no journal: ends both companions too', async () => {
    const { h, follower, capture } = await runningHost();
    expect(await recoverNow(h.deps, quiet, { force: true })).toMatch(/^Forced recovery: /);
    expect(await runs(follower, 'follow-watch')).toBe(false);
    expect(await runs(capture, 'capture-watch')).toBe(false);
    expect(await readFile(`${h.root}/etc/resolv.conf`, 'utf8')).toBe(ORIGINAL);
  });
});
