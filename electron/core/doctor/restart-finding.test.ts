/**
 * Walk 13 M1: `doctor` right after a kill -9 of the proxy, while the watchdog restarts it, said
 * the restart with "wait" (the health error) and also "K2s DNS is half started or half stopped"
 * with recover / stop + start (K2s DNS state), and with a 0666 saved original that warning
 * repeated the whole 0666 paragraph. While a restart is in progress (status's restart fields)
 * K2s DNS state says the restart and points at the wait.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WATCHDOG_NAME } from '../host/supervisor-script';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import { runDoctor } from './run-doctor';
import { checkLifecycleState } from './lifecycle-state';
import { dnsStatus } from '../lifecycle/status';
import type { DoctorFinding } from '../../../shared/doctor';

const host = useDoctorHosts();
const byId = (fs: DoctorFinding[], id: string) => fs.find((f) => f.id === id)!;

/** A started host (its original 0666) whose proxy is down (nothing answers host apps), with a live watchdog whose state file says `restarting` (restart 1). */
async function restartingHost() {
  const h = await host();
  await chmod(join(h.root, 'etc/resolv.conf'), 0o666);
  await h.start();
  h.services.running = false;
  h.world.systemAnswer = null; // host apps get no answer: /etc/resolv.conf names only the dead listener
  await mkdir(join(h.root, 'run/k2s'), { recursive: true });
  await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'state=restarting\nrestarts=1\nlast_exit=137\n');
  // A live watchdog shell (its argv as supervisor-script.ts runs it; `; :` keeps sh from exec'ing sleep).
  const dog = spawn('/bin/sh', ['-c', 'sleep 30; :', WATCHDOG_NAME], { stdio: 'ignore' });
  onTestFinished(() => void dog.kill('SIGKILL'));
  await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.pid'), `${dog.pid}\n`);
  return h;
}

describe('doctor while the watchdog or systemd restarts k2s-dnsproxy (walk 13 M1)', () => {
  it('the watchdog restarts it: no "half started" warning and no recover / stop + start; the health error carries the wait fix', async () => {
    const h = await restartingHost();
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const health = byId(findings, 'health');
    expect(health).toMatchObject({ severity: 'error', fix: 'wait for that restart, then run npx k2s-dns status' });
    expect(health.title).toContain('the watchdog is restarting k2s-dnsproxy (restart 1 of 6, 1 s after the exit)');
    const state = byId(findings, 'lifecycle-state');
    expect(state).toMatchObject({ severity: 'info', title: 'K2s DNS state: restarting k2s-dnsproxy', detail: { state: 'degraded', pointsAt: 'health' } });
    expect(state.meaning).toBe('K2s DNS is started and k2s-dnsproxy is not running now: the watchdog is restarting k2s-dnsproxy (restart 1 of 6, 1 s after the exit). Nothing was interrupted; the saved original and /etc/resolv.conf stay as they are.');
    expect(state.fix).toBe(`See the error "${health.title}" above: its fix is this one's.`);
    const all = findings.map((f) => `${f.title} ${f.meaning} ${f.fix ?? ''} ${f.remedy?.gui ?? ''} ${f.remedy?.cli ?? ''}`).join('\n');
    expect(all).not.toContain('half started');
    expect(all).not.toContain('recover');
    // The 0666 saved original is said by its own warning, not copied into K2s DNS state.
    const writable = byId(findings, 'resolv-writable');
    expect(writable.severity).toBe('warn');
    expect(state.meaning).not.toContain(writable.meaning);
    expect(state.meaning).not.toContain('0666');
  });

  it('the proxy answers again before the health check: the state finding itself says to wait (no pointer at an ok verdict)', async () => {
    const h = await restartingHost();
    const verdict = { level: 'ok' as const, resolves: true, cause: 'ok' as const, hopId: null, summary: 'kubernetes.default.svc.cluster.local resolves through K2s DNS', action: null };
    const health = async () => ({ name: 'kubernetes.default.svc.cluster.local', domainSource: 'state' as const, hops: [], verdict, checkedAt: 0, durationMs: 1 });
    const cli = await checkLifecycleState(await h.ctx({ health }));
    expect(cli).toMatchObject({ severity: 'info', fix: 'wait for that restart, then run npx k2s-dns status', remedy: { action: null, gui: 'Wait for that restart, it checks again by itself' } });
    expect(cli.detail).not.toHaveProperty('pointsAt');
  });

  it('systemd restarts it (before its start limit): the same; after it gave up, not a restart', async () => {
    const h = await host();
    await h.start();
    h.services.running = false;
    h.world.systemAnswer = null;
    // systemd's words for a SIGKILL (shared/systemd-show.ts); new-user walk 20 read `(attempt 1, it killed by signal KILL)`.
    let restart = { attempt: 2, lastExit: 'killed by signal KILL', reason: null, gaveUp: false };
    h.services.status = async () => ({ running: false, pid: null, restart });
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const state = byId(findings, 'lifecycle-state');
    expect(state).toMatchObject({ severity: 'info', title: 'K2s DNS state: restarting k2s-dnsproxy', detail: { pointsAt: 'health' } });
    expect(state.meaning).toContain(': systemd is restarting k2s-dnsproxy (attempt 2; the last run was killed by signal KILL).');
    expect((await dnsStatus(h.deps)).messages).toContain('k2s-dnsproxy is restarting (attempt 2): systemd starts it again by itself after it was killed by signal KILL (/var/log/dnsproxy/dnsproxy.log); wait a few seconds, then run npx k2s-dns status.');
    expect(byId(findings, 'health').fix).toBe('wait for that restart, then run npx k2s-dns status');
    expect(findings.map((f) => f.meaning).join('\n')).not.toContain('half started');
    restart = { ...restart, attempt: 5, gaveUp: true };
    expect(await checkLifecycleState(await h.ctx())).toMatchObject({ severity: 'warn', title: 'K2s DNS state: degraded' });
  });

  it('after the watchdog gave up: started and not running, nothing restarts it; fix the cause, then start (no "half started", no recover)', async () => {
    const h = await host();
    await h.start();
    h.services.running = false;
    h.world.systemAnswer = null;
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=9\nin-a-row=7\nstate=gave-up\nlast-exit=3\nlast-exit-at=1764874212\nlast-pid=35131\n');
    const state = await checkLifecycleState(await h.ctx());
    expect(state).toMatchObject({ severity: 'warn', title: 'K2s DNS state: degraded', remedy: { action: 'start' }, detail: { proxyDown: true } });
    expect(state.meaning).toMatch(/^K2s DNS is started \(the saved original is kept\) but k2s-dnsproxy is not running, and nothing restarts it: The watchdog restarted k2s-dnsproxy 6 times in a row, each run ending within 60 s, and gave up; the last run exited with status 3 /);
    expect(state.fix).toBe('Fix the cause (/var/log/dnsproxy/dnsproxy.log says why), then run `sudo npx k2s-dns start --engine dnsmasq --verify-name www.example.test`: it starts k2s-dnsproxy again and keeps your saved original.');
    expect(`${state.meaning} ${state.fix} ${state.remedy?.gui}`).not.toMatch(/half started|recover/);
  });

  it('after systemd gave up (its start limit): stop, then start, as status says', async () => {
    const h = await host();
    await h.start();
    h.services.running = false;
    h.world.systemAnswer = null;
    h.services.status = async () => ({ running: false, pid: null, restart: { attempt: 5, lastExit: 'killed by signal SEGV (core dumped)', reason: null, gaveUp: true } });
    const state = await checkLifecycleState(await h.ctx());
    expect(state).toMatchObject({ severity: 'warn', remedy: { action: 'stop', gui: 'Fix the cause (the Logs view says why), then press Stop, then Start.' } });
    expect(state.meaning).toContain('but k2s-dnsproxy is not running, and nothing restarts it: systemd restarted k2s-dnsproxy 5 times and stopped (its start limit); the last run was killed by signal SEGV (core dumped) (/var/log/dnsproxy/dnsproxy.log).');
    expect(state.fix).toBe('Fix the cause (/var/log/dnsproxy/dnsproxy.log says why), then run `sudo npx k2s-dns stop`, then `sudo npx k2s-dns start --engine dnsmasq --verify-name www.example.test`: it starts k2s-dnsproxy again and keeps your saved original.');
  });
});
