/**
 * The proxy's watchdog (supervisor-script.ts) and the capture's keeper (capture-keeper.ts), run for
 * real: a stop (SIGTERM) ends them without reading the clock after their child exits — `date` is a
 * process each `k2s-dns stop` would wait for (issue #21); a restart reads it once for the exit's
 * time and uses that for the run's length. A `date` on PATH counts its runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchdogArgv } from './supervisor-script';
import { keeperArgv } from './capture-keeper';

const dir = mkdtempSync(join(tmpdir(), 'k2s-stop-no-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `argv` with a counting `date` first on PATH until `running` holds, then SIGTERMs it; resolves the runs of date before and after the SIGTERM, and its exit status. */
async function stopped(name: string, argv: string[], running: () => boolean): Promise<{ before: number; after: number; code: number | null }> {
  const bin = join(dir, `${name}-bin`);
  mkdirSync(bin);
  const runs = join(dir, `${name}.date-runs`);
  writeFileSync(join(bin, 'date'), `#!/bin/sh\necho run >>"${runs}"\nexec /bin/date "$@"\n`, { mode: 0o755 });
  const count = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').filter(Boolean).length : 0);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Running, and its clock read of the child's start (began=…) begun: the stop comes after it.
  const deadline = Date.now() + 10_000;
  while (!(running() && count() > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(running()).toBe(true);
  const before = count();
  child.kill('SIGTERM');
  const code = await exited;
  return { before, after: count(), code };
}

describe('a stop reads no clock after the child exits', () => {
  it('the watchdog: its proxy ended by the stop, no date run', async () => {
    const pid = join(dir, 'wd.pid');
    const argv = watchdogArgv(pid, join(dir, 'wd.state'), ['/bin/sleep', '30'], [], 'k2s-dns start');
    const r = await stopped('wd', argv, () => existsSync(pid));
    expect(r.before).toBeGreaterThan(0);
    expect(r.after).toBe(r.before);
    expect(r.code).toBe(0);
  });

  it('the keeper: its companion ended by the stop, no date run', async () => {
    const pid = join(dir, 'keeper.pid');
    const started = join(dir, 'keeper.companion-began');
    const argv = keeperArgv(pid, join(dir, 'keeper.state'), join(dir, 'keeper.go'), ['/bin/sh', '-c', `echo began >"${started}"; exec /bin/sleep 30`]);
    const r = await stopped('keeper', argv, () => existsSync(started));
    expect(r.before).toBeGreaterThan(0);
    expect(r.after).toBe(r.before);
    expect(r.code).toBe(0);
  });
});

describe('a restart reads the clock once for the exit', () => {
  it('the watchdog: a proxy that fails once, then runs — began, ended, the restart line, the restart\'s began: four date runs', async () => {
    const pid = join(dir, 'wd-restart.pid');
    const failed = join(dir, 'wd-restart.failed');
    const second = join(dir, 'wd-restart.second');
    // First run: exit 1 (restarted after the first back-off step); second run: keeps running.
    const proxy = ['/bin/sh', '-c', `if [ -e "${failed}" ]; then echo >"${second}"; exec /bin/sleep 30; fi; echo >"${failed}"; exit 1`];
    const r = await stopped('wd-restart', watchdogArgv(pid, join(dir, 'wd-restart.state'), proxy, [], 'k2s-dns start'), () => existsSync(second));
    // The restart's began=$(date) runs even when the stop comes before it (sh runs a trap between commands).
    expect(r.after).toBe(4);
    expect(r.code).toBe(0);
  });
});
