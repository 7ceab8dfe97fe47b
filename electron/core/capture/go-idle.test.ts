import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTOGROUP_NICE, autogroupOf, CHRT_PATHS, goIdle, goNormal, NO_CHRT_WORDS, sessionOf, setAutogroupNice, setGroupNice, treeLeaders, treeToNormal, parentOf } from './go-idle';
import { keeperArgv } from '../host/capture-keeper';
import { SCHED_IDLE, schedPolicyOf } from './sched-policy';

const dir = mkdtempSync(join(tmpdir(), 'k2s-go-idle-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A real process to switch: sleep, started at this process's priority (`session`: in a session, so an autogroup, of its own). */
async function sleeper(session = false): Promise<number> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore', detached: session });
  started.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c.pid!;
}
const policyOf = (pid: number) => schedPolicyOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
const hasChrt = CHRT_PATHS.some((p) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
});

describe('goIdle', () => {
  it.skipIf(!hasChrt)('switches running processes to SCHED_IDLE (two at once)', async () => {
    const [a, b] = [await sleeper(), await sleeper()];
    expect(policyOf(a)).not.toBe(SCHED_IDLE);
    expect(await goIdle([a, b])).toEqual({ idle: true, why: null });
    expect([policyOf(a), policyOf(b)]).toEqual([SCHED_IDLE, SCHED_IDLE]);
    // Back to normal for a stop.
    await goNormal([a, b]);
    expect([policyOf(a), policyOf(b)]).toEqual([0, 0]);
  });

  it('without chrt: says so, and the process keeps its policy', async () => {
    const a = await sleeper();
    const before = policyOf(a);
    expect(await goIdle([a], [join(dir, 'no-chrt')])).toEqual({ idle: false, why: NO_CHRT_WORDS });
    expect(policyOf(a)).toBe(before);
  });

  it("chrt failing (e.g. seccomp refusing sched_setscheduler): says chrt's own error", async () => {
    const fake = join(dir, 'chrt');
    writeFileSync(fake, "#!/bin/sh\necho \"chrt: failed to set pid $5's policy: Operation not permitted\" >&2\nexit 1\n", { mode: 0o755 });
    const a = await sleeper();
    expect(await goIdle([a], [fake])).toEqual({ idle: false, why: `chrt could not set idle priority (SCHED_IDLE): chrt: failed to set pid ${a}'s policy: Operation not permitted; the exact query log runs at normal priority and competes with DNS for the CPU.` });
  });
});

const hasAutogroup = (() => {
  try {
    return autogroupOf(readFileSync('/proc/self/autogroup', 'utf8')) !== null;
  } catch {
    return false;
  }
})();
const groupOf = (pid: number) => autogroupOf(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));

describe('autogroup nice', () => {
  it('reads the session id of a /proc/PID/stat text (field 6, past a comm with spaces and parentheses)', () => {
    expect(sessionOf('4242 (node) S 1 4242 4242 0 -1 4194560 100')).toBe(4242);
    expect(sessionOf('17 (a) b (c) S 1 17 9 0 -1')).toBe(9);
    expect(sessionOf('garbage')).toBeNull();
  });

  it('reads proc(5)\'s /proc/PID/autogroup text', () => {
    expect(autogroupOf('/autogroup-21526 nice 0\n')).toEqual({ id: '21526', nice: 0 });
    expect(autogroupOf('/autogroup-7 nice -5\n')).toEqual({ id: '7', nice: -5 });
    expect(autogroupOf('')).toBeNull();
    expect(autogroupOf('nice 19')).toBeNull();
  });

  it('writes each autogroup once, and leaves pids without the file alone', async () => {
    const proc = mkdtempSync(join(dir, 'proc-'));
    // [pid, session, autogroup]: 1 leads session 1 (2 is in it too), 3 and 4 lead their own, 5 is in session 77 (its launcher's).
    for (const [pid, session, text] of [[1, 1, '/autogroup-5 nice 0\n'], [2, 1, '/autogroup-5 nice 0\n'], [3, 3, '/autogroup-9 nice 19\n'], [4, 4, '/autogroup-11 nice 0\n'], [5, 77, '/autogroup-12 nice 0\n']] as const) {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'autogroup'), text);
      writeFileSync(join(proc, String(pid), 'stat'), `${pid} (no de) S 1 ${session} ${session} 0 -1 4194560\n`);
    }
    await setAutogroupNice([1, 2, 3, 4, 5, 404], AUTOGROUP_NICE, proc);
    const read = (pid: number) => readFileSync(join(proc, String(pid), 'autogroup'), 'utf8');
    // pid 2 shares pid 1's group (written once), pid 3's group already is at 19, pid 5's session is not the tree's, 404 has no file.
    expect([read(1), read(2), read(3), read(4), read(5)]).toEqual(['19\n', '/autogroup-5 nice 0\n', '/autogroup-9 nice 19\n', '19\n', '/autogroup-12 nice 0\n']);
    // The companion's parent (the keeper's shell) leads its session: named as a leader, its group is the tree's.
    await setAutogroupNice([5], AUTOGROUP_NICE, proc, [5, 77]);
    expect(read(5)).toBe('19\n');
  });

  it.skipIf(!hasAutogroup || !hasChrt)('goIdle puts the autogroup of a session of its own at nice 19 and goNormal back at 0 (a real process)', async () => {
    const a = await sleeper(true);
    const before = groupOf(a)!;
    expect(before.id).not.toBe(groupOf(process.pid)!.id);
    expect(before.nice).toBe(0);
    expect(await goIdle([a])).toEqual({ idle: true, why: null });
    expect(groupOf(a)).toEqual({ id: before.id, nice: 19 });
    expect(groupOf(process.pid)!.nice).toBe(0);
    await goNormal([a]);
    expect(groupOf(a)).toEqual({ id: before.id, nice: 0 });
  });

  it.skipIf(!hasAutogroup)('a process that ends between the check and the write: nothing written through its pid ("gone"), so a process that took the number is not touched', async () => {
    const a = await sleeper(true);
    const child = started.find((c) => c.pid === a)!;
    const before = groupOf(a)!;
    // Ended and reaped (Node's exit event) after the open, where a reused pid would slip in.
    const outcome = await setGroupNice(a, AUTOGROUP_NICE, '/proc', new Set(), async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      return true;
    });
    expect(outcome).toBe('gone');
    // The same call on a live process writes (the test can fail).
    const b = await sleeper(true);
    expect(await setGroupNice(b, AUTOGROUP_NICE, '/proc', new Set(), async () => true)).toBe('written');
    expect(groupOf(b)).toEqual({ id: groupOf(b)!.id, nice: AUTOGROUP_NICE });
    expect(before.nice).toBe(0);
  });

  it.skipIf(!hasAutogroup || !hasChrt)('leaves alone the autogroup of a session the pids do not lead (the launcher\'s, e.g. this test runner\'s)', async () => {
    const a = await sleeper(false);
    expect(groupOf(a)!.id).toBe(groupOf(process.pid)!.id);
    expect(await goIdle([a])).toEqual({ idle: true, why: null });
    expect(groupOf(process.pid)!.nice).toBe(0);
    await goNormal([a]);
  });
});

describe('treeLeaders', () => {
  /** A fake /proc with `pid`'s cmdline (NUL-separated, as the kernel writes it). */
  const procWith = (pid: number, argv: readonly string[]) => {
    const proc = mkdtempSync(join(dir, 'leaders-'));
    mkdirSync(join(proc, String(pid)));
    writeFileSync(join(proc, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
    return proc;
  };
  const companion = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held'];

  it('names the parent only when it is the keeper shell: a root login shell that leads its session is not the tree\'s', async () => {
    // Its keeper (capture-keeper.ts): its session is the tree's.
    expect(await treeLeaders(500, 400, procWith(400, keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', companion)))).toEqual([500, 400]);
    // `k2s-dns capture-watch …` typed into an ssh login (bash leads that session): only the companion's own session.
    expect(await treeLeaders(500, 400, procWith(400, ['-bash']))).toEqual([500]);
    // sudo, a parent gone (reparented to PID 1: systemd, whose unit made the companion a session leader), unreadable.
    expect(await treeLeaders(500, 400, procWith(400, ['sudo', 'k2s-dns', 'capture-watch']))).toEqual([500]);
    expect(await treeLeaders(500, 1, procWith(1, ['/sbin/init']))).toEqual([500]);
    expect(await treeLeaders(500, 400, join(dir, 'no-proc'))).toEqual([500]);
  });

  it.skipIf(!hasAutogroup)('a real login-like shell leading its own session: the tree under it leaves that session\'s autogroup alone', async () => {
    // A detached sh (a session leader, as a login shell) whose child is the "companion".
    const shell = spawn('/bin/sh', ['-c', 'sleep 60 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    started.push(shell);
    const shellPid = await new Promise<number>((r) => shell.once('spawn', () => r(shell.pid!)));
    // Its child's pid, the shell's first line.
    const child = await new Promise<number>((r) => shell.stdout!.once('data', (b: Buffer) => r(Number(b.toString().trim()))));
    expect(sessionOf(readFileSync(`/proc/${child}/stat`, 'utf8'))).toBe(shellPid);
    const before = groupOf(shellPid)!;
    try {
      await setAutogroupNice([child], AUTOGROUP_NICE, '/proc', await treeLeaders(child, shellPid));
      expect(groupOf(shellPid)).toEqual(before);
    } finally {
      // Restored (it is this test's own session, but keep it as it was).
      writeFileSync(`/proc/${shellPid}/autogroup`, `${before.nice}\n`);
      process.kill(-shellPid, 'SIGKILL');
    }
  });

  it('treeToNormal: only a companion\'s own group (a reused pid, another program, is left as it is); parentOf past a comm with spaces', async () => {
    expect(parentOf('17 (a) b (c) S 400 17 9 0 -1')).toBe(400);
    expect(parentOf('garbage')).toBeNull();
    const proc = mkdtempSync(join(dir, 'normal-'));
    for (const [pid, argv] of [[600, ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held']], [601, ['/usr/bin/python3', 'server.py']]] as const) {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
      writeFileSync(join(proc, String(pid), 'stat'), `${pid} (x y) S 1 ${pid} ${pid} 0 -1\n`);
      writeFileSync(join(proc, String(pid), 'autogroup'), '/autogroup-3 nice 19\n');
    }
    await treeToNormal(600, proc);
    await treeToNormal(601, proc);
    await treeToNormal(null, proc);
    expect([readFileSync(join(proc, '600', 'autogroup'), 'utf8'), readFileSync(join(proc, '601', 'autogroup'), 'utf8')]).toEqual(['0\n', '/autogroup-3 nice 19\n']);
  });
});
