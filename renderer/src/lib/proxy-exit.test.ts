import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../../shared/types';
import { exitStatusWords } from '../../../shared/exit-status';
import { clockTime } from './last-known';
import { proxyExitLine, withCurrentPid } from './proxy-exit';

const at = Date.parse('2026-12-01T18:50:12Z');
const exit = { pid: 1234, at: new Date(at).toISOString(), how: exitStatusWords(137), restartedBy: 'watchdog' as const };
const running = { state: 'running', pid: 1240, proxyExit: exit } as unknown as HostDnsStatus;
const STEP = 'k2s-dnsproxy (dnsmasq, PID 1234) answers on 127.0.0.1:53';

describe('a proxy crash and restart in the timeline', () => {
  it('sh exit statuses in words: 128 + N is signal N', () => {
    expect(exitStatusWords(137)).toBe('killed by signal KILL (exit status 137)');
    expect(exitStatusWords(139)).toBe('killed by signal SEGV (exit status 139)');
    expect(exitStatusWords(1)).toBe('exited with status 1');
  });
  it('says when, how and the new PID', () => {
    expect(proxyExitLine(running, at - 60_000)).toBe(`At ${clockTime(at)} k2s-dnsproxy (PID 1234) was killed by signal KILL (exit status 137); the watchdog restarted it as PID 1240.`);
    expect(proxyExitLine({ ...running, pid: null, watchdogRestart: { restarts: 1, max: 6 } }, at - 60_000)).toBe(`At ${clockTime(at)} k2s-dnsproxy (PID 1234) was killed by signal KILL (exit status 137); the watchdog is restarting it.`);
  });
  it('an exit before the start shown is not this run', () => {
    expect(proxyExitLine(running, at + 5000)).toBeNull();
    expect(proxyExitLine({ ...running, proxyExit: null }, 0)).toBeNull();
  });
  it('the step naming the proxy PID names the one that runs now, not the dead one', () => {
    expect(withCurrentPid(STEP, running)).toBe(`k2s-dnsproxy (dnsmasq, PID 1240 since a restart at ${clockTime(at)}) answers on 127.0.0.1:53`);
    expect(withCurrentPid(STEP, { ...running, pid: null })).toBe(`k2s-dnsproxy (dnsmasq, PID 1234 ended at ${clockTime(at)}) answers on 127.0.0.1:53`);
    expect(withCurrentPid(STEP, { ...running, pid: 1234 })).toBe(STEP);
    expect(withCurrentPid(STEP, { ...running, proxyExit: null })).toBe(STEP);
  });
  it('systemd hosts: the exit read from the journal (no PID in it) and the PID systemd restarted it as', () => {
    const sd = { state: 'running', pid: 1240, proxyExit: { pid: null, at: new Date(at).toISOString(), how: 'killed by signal KILL', restartedBy: 'systemd' as const } } as unknown as HostDnsStatus;
    expect(proxyExitLine(sd, at - 60_000)).toBe(`At ${clockTime(at)} k2s-dnsproxy was killed by signal KILL; systemd restarted it as PID 1240.`);
    expect(withCurrentPid(STEP, sd)).toBe(`k2s-dnsproxy (dnsmasq, PID 1240 since a restart at ${clockTime(at)}) answers on 127.0.0.1:53`);
  });
  it('proxy and watchdog killed after a healed crash: the line names the PID that ended last, not the healed one (issue 20.2)', () => {
    const both = { state: 'degraded', pid: null, proxyExit: { pid: 1240, at: null, how: 'ended together with its watchdog, so neither when nor how was recorded', restartedBy: 'watchdog' as const } } as unknown as HostDnsStatus;
    expect(proxyExitLine(both, at + 60_000)).toBe('k2s-dnsproxy (PID 1240) ended together with its watchdog, so neither when nor how was recorded; it is not running and nothing restarts it.');
    expect(withCurrentPid(STEP, both)).toBe('k2s-dnsproxy (dnsmasq, PID 1240 ended) answers on 127.0.0.1:53');
  });
});
