/**
 * A start while the proxy is being restarted (the watchdog on hosts without systemd,
 * supervisor-script.ts; systemd's own restart) is refused with what happens and what to do,
 * exit 3, nothing changed: the window's Start waits then (renderer/src/lib/button-states.ts
 * restartingReason), and the CLI's start stopped the watchdog mid-restart and started over.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WATCHDOG_NAME } from '../host/supervisor-script';
import { startDns } from './start';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/** A started host whose proxy is down and whose watchdog state file says `restarting` (restart 2). */
async function downHost() {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  h.services.running = false;
  await mkdir(join(h.root, 'run/k2s'), { recursive: true });
  await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'state=restarting\nrestarts=2\nin-a-row=2\nlast-exit=1\n');
  return h;
}

/** A live watchdog shell (its argv as supervisor-script.ts runs it) in the pidfile; killed when the test ends. */
async function liveWatchdog(root: string) {
  const dog = spawn('/bin/sh', ['-c', 'sleep 30; :', WATCHDOG_NAME], { stdio: 'ignore' });
  onTestFinished(() => void dog.kill('SIGKILL'));
  await writeFile(join(root, 'run/k2s/dnsproxy-watchdog.pid'), `${dog.pid}\n`);
}

describe('start while k2s-dnsproxy is being restarted', () => {
  it('the watchdog restarts it: refused (PROXY_RESTARTING, exit 3) with the restart and "wait, then status"; nothing changed', async () => {
    const h = await downHost();
    await liveWatchdog(h.root);
    const starts = h.services.started.length;
    const resolv = await readFile(join(h.root, 'etc/resolv.conf'), 'utf8');
    const r = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect([r.ok, r.code, r.exitCode]).toEqual([false, 'PROXY_RESTARTING', 3]);
    expect(r.message).toBe('k2s-dnsproxy is not running: the watchdog is restarting it (restart 2 of 6, 2 s after the exit); nothing changed. Wait up to 2 s, then run npx k2s-dns status: once it says running, K2s DNS runs as started; if the watchdog gives up, status says why and to start again.');
    expect([h.services.started.length, h.services.stops, await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')]).toEqual([starts, 0, resolv]);
  });

  it('systemd restarts it (auto-restart, not given up): refused the same way, with its attempt', async () => {
    const h = await downHost();
    Object.assign(h.services, { kind: 'systemd' });
    h.services.status = async () => ({ running: false, pid: null, restart: { attempt: 3, lastExit: 'exited with status 1', reason: null, gaveUp: false } });
    const r = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect([r.ok, r.code, r.exitCode]).toEqual([false, 'PROXY_RESTARTING', 3]);
    expect(r.message).toBe('k2s-dnsproxy is not running: systemd is restarting it (attempt 3); nothing changed. Wait a few seconds, then run npx k2s-dns status: once it says running, K2s DNS runs as started; if systemd gives up, status says why and what to run.');
  });

  it('nothing restarts it (the watchdog gave up, or is not alive): start runs in full and starts it again', async () => {
    const h = await downHost();
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'state=gave-up\nrestarts=6\nin-a-row=6\nlast-exit=1\n');
    await liveWatchdog(h.root);
    const gaveUp = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect([gaveUp.ok, gaveUp.exitCode, h.services.running]).toEqual([true, 0, true]);
    // A watchdog killed mid-backoff left `restarting` behind: no live one, nothing restarts it.
    const h2 = await downHost();
    const dead = await startDns(h2.deps, TEST_START_OPTS, () => undefined);
    expect([dead.ok, dead.exitCode, h2.services.running]).toEqual([true, 0, true]);
  });
});
