import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardedArgv } from '../../../shared/root-dir-check';
import { parseWatchdogState, watchdogArgv } from './supervisor-script';

const isRoot = process.geteuid?.() === 0;
/** The check alone, as the units run it (guardedArgv) before a program that does nothing: its exit status and stderr are the check's. */
const dirsCheckArgv = (dirs: string[]) => guardedArgv(dirs, ['/bin/true']);
const dir = mkdtempSync(join(tmpdir(), 'k2s-dircheck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const check = (d: string) => {
  const argv = dirsCheckArgv([d]);
  return spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000 });
};

describe('guardedArgv: the check, then the proxy exec\'d in the same process (the systemd units\' ExecStart=)', () => {
  const run = (dirs: string[], argv: string[]) => {
    const a = guardedArgv(dirs, argv);
    return spawnSync(a[0]!, a.slice(1), { encoding: 'utf8', timeout: 10_000 });
  };

  it('safe directories: argv runs with its words as they are (spaces, a leading dash, an empty word, "--")', () => {
    const a = join(dir, 'guard a');
    const b = join(dir, 'guard-b');
    for (const d of [a, b]) mkdirSync(d, { mode: 0o755 });
    const r = run([a, join(dir, 'guard-missing'), b], ['/bin/sh', '-c', 'printf "<%s>" "$$" "$@"; echo', 'me', 'two words', '-l', '', '--']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    // The PID printed by the exec'd program: the check's own process (no new one in between).
    expect(r.stdout).toMatch(/^<\d+><two words><-l><><-->\n$/);
  });

  it('an unsafe directory anywhere in the list: exit 1 with its NOT_ROOT_OWNED line, argv never runs', () => {
    const good = join(dir, 'guard-good');
    const weak = join(dir, 'guard-weak');
    mkdirSync(good, { mode: 0o755 });
    mkdirSync(weak, { mode: 0o755 });
    chmodSync(weak, 0o777);
    const marker = join(dir, 'guard-ran');
    for (const dirs of [[weak, good], [good, weak]]) {
      const r = run(dirs, ['/bin/sh', '-c', `touch '${marker}'`]);
      expect(r).toMatchObject({ status: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^k2s-dns: NOT_ROOT_OWNED: ${weak} is writable by group or others \\(drwxrwxrwx`)) });
    }
    expect(() => readFileSync(marker)).toThrow();
  });

  it('the directories are only the first N words: a directory-looking word of argv is not checked', () => {
    const weak = join(dir, 'guard-argv-weak');
    mkdirSync(weak, { mode: 0o755 });
    chmodSync(weak, 0o777);
    const r = run([], ['/bin/echo', weak]);
    expect(r).toMatchObject({ status: 0, stdout: `${weak}\n`, stderr: '' });
  });
});

describe('the sh check the service manager runs before it (re)starts the proxy', () => {
  it('passes a real 0755 directory; refuses a group/other-writable one and a symlink with NOT_ROOT_OWNED and ls -ld; passes a missing one', () => {
    const good = join(dir, 'good');
    mkdirSync(good, { mode: 0o755 });
    expect(check(good)).toMatchObject({ status: 0, stderr: '' });
    const weak = join(dir, 'weak');
    mkdirSync(weak);
    chmodSync(weak, 0o1777);
    expect(check(weak)).toMatchObject({ status: 1, stderr: expect.stringMatching(new RegExp(`^k2s-dns: NOT_ROOT_OWNED: ${weak} is writable by group or others \\(drwxrwxrwt .* ${weak}\\); not starting the proxy`)) });
    chmodSync(weak, 0o775);
    expect(check(weak).status).toBe(1);
    const link = join(dir, 'link');
    symlinkSync(good, link);
    expect(check(link)).toMatchObject({ status: 1, stderr: expect.stringContaining(`${link} is not a real directory (lrwxrwxrwx`) });
    // Absent is nothing to redirect, and after a reboot /run/k2s is absent when systemd starts
    // the unit: refusing it left the host with no DNS at boot (the Debian 13 reboot e2e).
    expect(check(join(dir, 'missing'))).toMatchObject({ status: 0, stderr: '' });
    expect(check(join(dir, 'dangling-link-target'))).toMatchObject({ status: 0 });
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(check(join(dir, 'dangling')).status).toBe(1);
  });

  it('checks several directories with one stat, in their order: the first bad one is named, a missing one passes, a name with spaces is its own', () => {
    const a = join(dir, 'multi a');
    const b = join(dir, 'multi-b');
    const c = join(dir, 'multi-c');
    for (const d of [a, b, c]) mkdirSync(d, { mode: 0o755 });
    const run = (dirs: string[]) => {
      const argv = dirsCheckArgv(dirs);
      return spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000 });
    };
    expect(run([a, join(dir, 'multi-missing'), b, c])).toMatchObject({ status: 0, stderr: '' });
    chmodSync(c, 0o777);
    symlinkSync(a, join(dir, 'multi-link'));
    // b fine, c writable, the link after it: c is named (the first bad one in order).
    expect(run([a, b, c, join(dir, 'multi-link')])).toMatchObject({ status: 1, stderr: expect.stringMatching(new RegExp(`^k2s-dns: NOT_ROOT_OWNED: ${c} is writable by group or others \\(drwxrwxrwx`)) });
    expect(run([join(dir, 'multi-link'), c])).toMatchObject({ status: 1, stderr: expect.stringContaining(`${join(dir, 'multi-link')} is not a real directory`) });
    chmodSync(a, 0o775);
    expect(run([a, b])).toMatchObject({ status: 1, stderr: expect.stringContaining(`NOT_ROOT_OWNED: ${a} is writable by group or others`) });
    // The watchdog calls it with IFS=: (dirs_guard): the same answers.
    chmodSync(a, 0o755);
    chmodSync(c, 0o755);
    const argv = dirsCheckArgv([a, b, c]);
    expect(spawnSync('/bin/sh', ['-c', `IFS=:; ${argv[2]}`, ...argv.slice(3)], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
  });

  it('runs stat(1) once for all the directories (the watchdog runs the check on start\'s path), not twice per directory', () => {
    const shim = join(dir, 'shim');
    mkdirSync(shim, { recursive: true });
    const calls = join(dir, 'stat-calls');
    const real = spawnSync('sh', ['-c', 'command -v stat'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(shim, 'stat'), `#!/bin/sh\necho "$*" >>${JSON.stringify(calls)}\nexec ${real} "$@"\n`, { mode: 0o755 });
    const dirs = ['s1', 's2', 's3'].map((n) => join(dir, n));
    for (const d of dirs) mkdirSync(d, { mode: 0o755 });
    const argv = dirsCheckArgv(dirs);
    expect(spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { ...process.env, PATH: `${shim}:${process.env.PATH}` } })).toMatchObject({ status: 0, stderr: '' });
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(!isRoot)('refuses a directory owned by another user (skipped without root)', () => {
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign, { mode: 0o755 });
    chownSync(foreign, 12345, 12345);
    expect(check(foreign)).toMatchObject({ status: 1, stderr: expect.stringContaining(`${foreign} is owned by uid 12345, not root (drwxr-xr-x`) });
  });
});

/** Runs the real watchdog over a fake proxy `sh -c SCRIPT`; resolves with its output once it exits. */
async function runWatchdog(name: string, script: string): Promise<{ out: string; state: string; starts: number; guard: string }> {
  const base = join(dir, name);
  const guard = join(base, 'etc-k2s');
  mkdirSync(guard, { recursive: true, mode: 0o755 });
  chmodSync(base, 0o755);
  const count = join(base, 'starts');
  const argv = watchdogArgv(join(base, 'pid'), join(base, 'state'), ['/bin/sh', '-c', script, 'proxy', count, guard], [guard]);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  await new Promise((resolve) => child.once('exit', resolve));
  return { out, state: readFileSync(join(base, 'state'), 'utf8'), starts: readFileSync(count, 'utf8').split('\n').filter(Boolean).length, guard };
}

describe('the watchdog re-checks the directories before every restart', () => {
  it('control: a proxy that fails once is restarted (the test can see a restart)', async () => {
    const r = await runWatchdog('control', 'echo start >>"$1"; [ "$(wc -l <"$1")" -ge 2 ] && exit 0; exit 1');
    expect(r.starts).toBe(2);
    expect(parseWatchdogState(r.state).state).toBe('exited');
  }, 60_000);

  it('a directory made group/other-writable while the proxy ran: not restarted, state refused, NOT_ROOT_OWNED in the log', async () => {
    // The "attacker": the proxy's run makes the directory world-writable, then the proxy crashes.
    const r = await runWatchdog('attack', 'echo start >>"$1"; chmod 777 "$2"; exit 1');
    expect(r.starts).toBe(1);
    expect(parseWatchdogState(r.state)).toMatchObject({ state: 'refused', restarts: 1 });
    expect(r.out).toContain(`k2s-dns: NOT_ROOT_OWNED: ${r.guard} is writable by group or others (drwxrwxrwx`);
  }, 60_000);
});
