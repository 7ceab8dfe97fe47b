/**
 * New-user pass item 5: while the watchdog (hosts without systemd) restarts the proxy, status
 * said "stop && start" and called a refusal in 10 ms "TIMEOUT in 10 ms".
 */
import { proxyExitSentence } from '../../../shared/proxy-exit';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { WATCHDOG_NAME } from '../host/supervisor-script';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { healthVerdict, queryHop, verdictLine, type HealthHop } from '../../../shared/health';
import { hopLine } from '../doctor/health';

const newHost = trackedHosts();
const opts = TEST_START_OPTS;
// The fixes start again as the test start ran: with its verify name (shared/running-start.ts).

/** A started host whose proxy is down and whose watchdog state file says `restarting` (restart 2). */
async function restartingHost() {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
  h.services.running = false;
  await mkdir(join(h.root, 'run/k2s'), { recursive: true });
  await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'state=restarting\nrestarts=2\nlast_exit=1\n');
  return h;
}

describe('status while the watchdog restarts the proxy', () => {
  it('says "the watchdog is restarting it (restart N of 6)", not stop && start', async () => {
    const h = await restartingHost();
    // A live watchdog shell (its argv as supervisor-script.ts runs it; `; :` keeps sh from exec'ing sleep).
    const dog = spawn('/bin/sh', ['-c', 'sleep 30; :', WATCHDOG_NAME], { stdio: 'ignore' });
    onTestFinished(() => void dog.kill('SIGKILL'));
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.pid'), `${dog.pid}\n`);
    const s = await dnsStatus(h.deps);
    expect(s.watchdogRestart).toEqual({ restarts: 2, max: 6 });
    expect(s.messages).toContain('k2s-dnsproxy is not running: the watchdog is restarting it (restart 2 of 6, 2 s after the exit); wait up to 2 s, then run npx k2s-dns status.');
    expect(s.messages.join('\n')).not.toMatch(/stop/);
  });

  /** A live watchdog shell (as in the first test) recorded in its pidfile; killed when the test ends. */
  async function liveWatchdog(root: string) {
    const dog = spawn('/bin/sh', ['-c', 'sleep 30; :', WATCHDOG_NAME], { stdio: 'ignore' });
    onTestFinished(() => void dog.kill('SIGKILL'));
    await writeFile(join(root, 'run/k2s/dnsproxy-watchdog.pid'), `${dog.pid}\n`);
    return dog;
  }
  /** A PID that no process has any more. */
  const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

  // Walk 12 M1: between the proxy's death and the watchdog's `restarting` line (and again from the
  // end of its backoff until the new proxy's exec) the state file says `running`; the window said
  // "nothing restarts it — press Start" then. The live watchdog is the fact, not the file's word.
  it('the proxy just died, the watchdog has not written "restarting" yet: restart 1 of 6, never "press Start" or "nothing restarts it" (walk 12 M1)', async () => {
    const h = await restartingHost();
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=0\nstate=running\n');
    const dead = deadPid();
    await writeFile(join(h.root, 'run/k2s/dnsproxy.pid'), `${dead}\n`);
    await liveWatchdog(h.root);
    const s = await dnsStatus(h.deps, 'gui');
    expect(s.pid).toBeNull();
    expect(s.watchdogRestart).toEqual({ restarts: 1, max: 6 });
    expect(s.messages).toContain('k2s-dnsproxy is not running: the watchdog is restarting it (restart 1 of 6, 1 s after the exit); wait up to 1 s.');
    expect(s.messages.join('\n')).not.toContain('press Start');
    // The verdict from this same status waits for the watchdog.
    const listener = queryHop('listener:127.0.0.1:53', 'listener', { name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1:53', transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 1, error: 'ECONNREFUSED' });
    const resolver: HealthHop = { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s', ok: true, answers: ['127.0.0.1'], rcode: null, reason: null, latencyMs: null };
    const v = healthVerdict({ hops: [resolver, listener], state: s.state, interrupted: false, watchdogRestart: s.watchdogRestart ?? null, proxyPid: s.pid });
    expect(v).toMatchObject({ cause: 'proxy-down', action: 'wait-watchdog' });
    expect(v.summary).toContain('the watchdog is restarting k2s-dnsproxy (restart 1 of 6, 1 s after the exit)');
    expect(v.summary).not.toContain('nothing restarts it');
  });

  it('the backoff is over and the new proxy not exec\'d yet (the file says "running" again): still restart 1 of 6 (walk 12 M1)', async () => {
    const h = await restartingHost();
    const dead = deadPid();
    // As supervisor-script.ts writes it after its sleep, before it spawns the new proxy.
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), `restarts=1\nstate=running\nlast-exit=137\nlast-exit-at=1764615012\nlast-pid=${dead}\n`);
    await writeFile(join(h.root, 'run/k2s/dnsproxy.pid'), `${dead}\n`);
    const dog = await liveWatchdog(h.root);
    let s = await dnsStatus(h.deps, 'gui');
    expect(s.watchdogRestart).toEqual({ restarts: 1, max: 6 });
    expect(s.messages.join('\n')).not.toContain('not running although');
    // The new proxy's shell has written its PID but not exec'd yet: the same restart.
    await writeFile(join(h.root, 'run/k2s/dnsproxy.pid'), `${dog.pid}\n`);
    s = await dnsStatus(h.deps, 'gui');
    expect(s.watchdogRestart).toEqual({ restarts: 1, max: 6 });
  });

  it('a live watchdog that gave up, exited or refused restarts nothing: no watchdogRestart', async () => {
    const h = await restartingHost();
    await liveWatchdog(h.root);
    for (const state of ['gave-up', 'exited', 'refused']) {
      await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), `restarts=7\nstate=${state}\n`);
      expect((await dnsStatus(h.deps)).watchdogRestart, state).toBeUndefined();
    }
  });

  it('the watchdog gave up: status says so, with its limit and the last exit, and Start as the fix (third walk low)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    h.services.running = false;
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    // As supervisor-script.ts writes it after the 7th quick failure.
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=7\nstate=gave-up\nlast-exit=137\nlast-exit-at=1764874212\nlast-pid=35131\n');
    const s = await dnsStatus(h.deps);
    expect(s.messages).toContain("The watchdog restarted k2s-dnsproxy 6 times in a row, each run ending within 60 s, and gave up; the last run was killed by signal KILL (exit status 137) (/var/log/dnsproxy/dnsproxy.log says why). Fix that cause; then, to start k2s-dnsproxy again (your saved original is kept), run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.");
    expect(s.messages.join('\n')).not.toContain('not running although K2s DNS was started');
  });

  it('a proxy ended with a plain kill (exit 0) is not restarted, and status says so and when (walk 14: "nothing restarts it", no why)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    h.services.running = false;
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    // As supervisor-script.ts writes it when the proxy exits 0.
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=0\nin-a-row=0\nstate=exited\nlast-exit=0\nlast-exit-at=1764874212\nlast-pid=217\n');
    const s = await dnsStatus(h.deps);
    expect(s.proxyExit).toEqual({ pid: 217, at: '2025-12-04T18:50:12.000Z', how: 'exited cleanly (status 0, as after a plain kill or SIGTERM), which the watchdog does not restart: only a failure is restarted', restartedBy: 'watchdog' });
    expect(proxyExitSentence(s, 0, () => '18:50:12')).toBe('At 18:50:12 k2s-dnsproxy (PID 217) exited cleanly (status 0, as after a plain kill or SIGTERM), which the watchdog does not restart: only a failure is restarted; it is not running.');
    expect(s.messages.join('\n')).toContain("to start k2s-dnsproxy again (your saved original is kept), run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.");
  });

  it('a state file left "restarting" by a watchdog that is gone is not believed: the advice is stop, then start', async () => {
    const h = await restartingHost();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.pid'), `${gone}\n`);
    const s = await dnsStatus(h.deps);
    expect(s.watchdogRestart).toBeUndefined();
    expect(s.messages.join('\n')).toContain("to start k2s-dnsproxy again (your saved original is kept), run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.");
  });

  it('without a restarting watchdog the advice is start alone, which repairs a dead proxy (issue 20 low: not "stop, then start")', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    h.services.running = false;
    const s = await dnsStatus(h.deps);
    expect(s.watchdogRestart).toBeUndefined();
    expect(s.messages.join('\n')).toContain("to start k2s-dnsproxy again (your saved original is kept), run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.");
    expect(s.messages.join('\n')).not.toContain('stop');
    // …and it does: start alone runs the proxy again, the saved original kept.
    const savedAt = s.savedAt;
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    const after = await dnsStatus(h.deps);
    expect(after.state).toBe('running');
    expect(after.savedAt).toBe(savedAt);
  });

  it('after a crash the watchdog restarted from: proxyExit names the dead PID, when and how (the window\'s timeline)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=1\nstate=running\nlast-exit=137\nlast-exit-at=1764615012\nlast-pid=1234\n');
    const s = await dnsStatus(h.deps);
    expect(s.proxyExit).toEqual({ pid: 1234, at: '2025-12-01T18:50:12.000Z', how: 'killed by signal KILL (exit status 137)', restartedBy: 'watchdog' });
    expect(s.watchdogRestart).toBeUndefined();
  });

  it('proxy and watchdog killed after a healed crash: proxyExit is the current outage\'s (the pidfile\'s PID), not the healed PID 1234 (issue 20.2)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    // The watchdog restarted 1234 as 1240 (its record), then 1240 and the watchdog were killed: the file stays as it was.
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=1\nstate=running\nlast-exit=137\nlast-exit-at=1764615012\nlast-pid=1234\n');
    await writeFile(join(h.root, 'run/k2s/dnsproxy.pid'), '1240\n');
    h.services.running = false;
    const s = await dnsStatus(h.deps);
    expect(s.proxyExit).toEqual({ pid: 1240, at: null, how: 'ended together with its watchdog, so neither when nor how was recorded', restartedBy: 'watchdog' });
    // While the proxy still runs as 1240, the record of 1234's crash is the one to show.
    h.services.running = true;
    expect((await dnsStatus(h.deps)).proxyExit).toMatchObject({ pid: 1234, at: '2025-12-01T18:50:12.000Z' });
  });

  it('systemd hosts: after systemd restarted the proxy, proxyExit comes from its journal entry (how, when; no PID)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    const at = Date.parse('2026-12-01T18:50:12.345Z');
    // What systemd-service.ts status() reports then (systemd-restart-status.test.ts).
    h.services.status = async () => ({ running: true, pid: 1240, restart: null, restarted: { how: 'killed by signal KILL', at, restarts: 1 } });
    Object.assign(h.services, { kind: 'systemd' });
    const s = await dnsStatus(h.deps);
    expect(s.proxyExit).toEqual({ pid: null, at: '2026-12-01T18:50:12.345Z', how: 'killed by signal KILL', restartedBy: 'systemd' });
  });

  it('the verdict waits for the watchdog, and a TIMEOUT in 10 ms reads "refused"', () => {
    const listener = queryHop('listener:127.0.0.1:53', 'listener', { name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1:53', transport: 'udp', rcode: 'TIMEOUT', answers: [], latencyMs: 2000, error: 'no answer' });
    const system = queryHop('system', 'system', { name: 'kubernetes.default.svc.cluster.local', type: 'A', server: 'system', transport: 'udp', rcode: 'TIMEOUT', answers: [], latencyMs: 10, error: 'EAI_AGAIN: temporary failure' });
    const resolver: HealthHop = { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s', ok: true, answers: ['127.0.0.1'], rcode: null, reason: null, latencyMs: null };
    const hops = [system, resolver, listener];
    const v = healthVerdict({ hops, state: 'degraded', interrupted: false, watchdogRestart: { restarts: 2, max: 6 } });
    expect(v).toMatchObject({ cause: 'proxy-down', action: 'wait-watchdog' });
    expect(verdictLine(v, 'cli')).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53; the watchdog is restarting k2s-dnsproxy (restart 2 of 6, 2 s after the exit) — wait for that restart, then run npx k2s-dns status');
    expect(healthVerdict({ hops, state: 'degraded', interrupted: false }).action).toBe('restart');
    // The last restart waits the back-off's longest, 30 s (shared/watchdog-backoff.ts), not "a few seconds"; the window's words too.
    const last = healthVerdict({ hops, state: 'degraded', interrupted: false, watchdogRestart: { restarts: 6, max: 6 } });
    expect(verdictLine(last, 'gui')).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53; the watchdog is restarting k2s-dnsproxy (restart 6 of 6, 30 s after the exit) — Wait for that restart, it checks again by itself');
    expect(hopLine(system)).toBe('host apps (getaddrinfo): refused in 10 ms — EAI_AGAIN: temporary failure');
    // A silent DNS server: the verdict's headline, with which way it was silent (shared/probe-failure.ts silenceDetail).
    expect(hopLine(listener)).toBe('k2s-dnsproxy on 127.0.0.1:53: does not answer (no reply in 2000 ms)');
  });
});
