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
import { FOLLOW_LOG, FOLLOW_PID_FILE, isFollowerArgv, supervisedFollower } from './follower';
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

/**
 * A held program as the capture companion is (CAPTURE_HELD_FLAG): node that reads one line of
 * stdin, then writes `<pid> <line>` to `marker` and idles; at EOF without a line it exits at once.
 */
const heldProgram = (marker: string, token: string) => [
  process.execPath,
  '-e',
  `let t='';process.stdin.on('data',(d)=>{t+=d;const i=t.indexOf('\\n');if(i>=0){process.stdin.destroy();require('fs').writeFileSync(${JSON.stringify(marker)},process.pid+' '+t.slice(0,i));setInterval(()=>{},1000);}});process.stdin.on('end',()=>{if(!t.includes('\\n'))process.exit(0);});`,
  token,
  'follow-watch',
];

describe('pidfileProcess prepare (a process started ahead of its job, held)', () => {
  it('runs before its pid is recorded (without NODE_EXTRA_CA_CERTS: it makes no TLS connection); startHeld records that pid, then lets it go with its line', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const p = pidfileProcess(h.deps.fs, spec);
    const was = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    const held = await p.prepare(heldProgram(marker, token)).finally(() => (was === undefined ? delete process.env.NODE_EXTRA_CA_CERTS : (process.env.NODE_EXTRA_CA_CERTS = was)));
    spawned.push(held.pid);
    expect(await pidsWith(token)).toEqual([held.pid]);
    const environ = (await readFile(`/proc/${held.pid}/environ`, 'utf8')).split('\0');
    expect(environ.filter((e) => e.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
    expect(environ).toContain(`PATH=${process.env.PATH}`);
    expect(await h.deps.fs.lstat(FOLLOW_PID_FILE)).toBeNull();
    await p.startHeld(held, 'go ["--port","53"]');
    expect(Number((await readFile(h.deps.fs.real(FOLLOW_PID_FILE), 'utf8')).trim())).toBe(held.pid);
    await expect.poll(() => readFile(marker, 'utf8').catch(() => ''), { timeout: 10_000 }).toBe(`${held.pid} go ["--port","53"]`);
    expect(await p.pid()).toBe(held.pid);
    held.drop(); // let go already: no effect
    await p.stop();
    expect(await pidsWith(token)).toEqual([]);
  });

  it('dropped (or its starter gone: stdin ends), it exits having done nothing and nothing was recorded', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const p = pidfileProcess(h.deps.fs, spec);
    const held = await p.prepare(heldProgram(marker, token));
    spawned.push(held.pid);
    held.drop();
    await expect.poll(() => held.exited(), { timeout: 10_000 }).toBe(true);
    expect(await pidsWith(token)).toEqual([]);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
    expect(await h.deps.fs.lstat(FOLLOW_PID_FILE)).toBeNull();
    await expect(p.startHeld(held, 'go []')).rejects.toThrow(/exited before it was let go/);
  });

  it('a pidfile that cannot be written drops it: no process is left running the program', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const fs: HostFs = { ...h.deps.fs, writeFileAtomic: async (p, ...rest) => (p === FOLLOW_PID_FILE ? Promise.reject(new Error('no room for the pidfile')) : h.deps.fs.writeFileAtomic(p, ...rest)) };
    const p = pidfileProcess(fs, spec);
    const held = await p.prepare(heldProgram(marker, token));
    spawned.push(held.pid);
    await expect(p.startHeld(held, 'go []')).rejects.toThrow(/no room for the pidfile/);
    await expect.poll(() => held.exited(), { timeout: 10_000 }).toBe(true);
    expect(await pidsWith(token)).toEqual([]);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });
});

describe('supervisedFollower prepare (the follower spawned held behind the HOLD_BACK shell)', () => {
  it('a held follower is a shell waiting for "go" with no pidfile; startHeld records that pid and the program runs under it', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const f = supervisedFollower(h.deps.fs);
    const held = await f.prepare!(program(marker, token));
    spawned.push(held.pid);
    expect((await readFile(`/proc/${held.pid}/cmdline`, 'utf8')).split('\0')[0]).toBe('/bin/sh');
    expect(await h.deps.fs.lstat(FOLLOW_PID_FILE)).toBeNull();
    await f.startHeld!(held);
    expect(Number((await readFile(h.deps.fs.real(FOLLOW_PID_FILE), 'utf8')).trim())).toBe(held.pid);
    for (let i = 0; i < 300 && !(await readFile(marker, 'utf8').catch(() => '')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(Number(await readFile(marker, 'utf8'))).toBe(held.pid);
    expect((await readFile(`/proc/${held.pid}/cmdline`, 'utf8')).split('\0').slice(0, -1)).toEqual(program(marker, token));
    expect(await f.pid!()).toBe(held.pid);
    await f.stop();
    expect(await pidsWith(token)).toEqual([]);
  });

  it('dropped, the held shell exits without running the program and nothing is recorded', async () => {
    const h = await newHost();
    const token = `k2s-test-${randomBytes(6).toString('hex')}`;
    const marker = join(h.root, 'marker');
    const f = supervisedFollower(h.deps.fs);
    const held = await f.prepare!(program(marker, token));
    spawned.push(held.pid);
    held.drop();
    for (let i = 0; i < 500 && !held.exited(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(held.exited()).toBe(true);
    expect(await readFile(marker, 'utf8').catch(() => 'never ran')).toBe('never ran');
    expect(await h.deps.fs.lstat(FOLLOW_PID_FILE)).toBeNull();
    expect(await pidsWith(token)).toEqual([]);
  });
});
