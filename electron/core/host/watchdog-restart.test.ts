import { describe, expect, it } from 'vitest';
import { restartInProgress, type WatchdogSnapshot } from './watchdog-restart';
import { parseWatchdogState } from './supervisor-script';

const snap = (file: string | null, more: Partial<WatchdogSnapshot> = {}): WatchdogSnapshot => ({ state: file === null ? null : parseWatchdogState(file), alive: true, recordedPid: 4041, recordedAlive: false, ...more });

describe('restartInProgress (walk 12 M1: a live watchdog that has not given up is restarting)', () => {
  it('"restarting" in the file: its count', () => {
    expect(restartInProgress(snap('restarts=2\nstate=restarting\nlast-exit=137\nlast-pid=4041\n'))).toEqual({ restarts: 2 });
  });
  it('"running" and the pidfile names a dead proxy the file does not record: the exit not written yet, the next restart', () => {
    expect(restartInProgress(snap('restarts=0\nstate=running\n'))).toEqual({ restarts: 1 });
    expect(restartInProgress(snap('restarts=1\nstate=running\nlast-exit=137\nlast-pid=3600\n'))).toEqual({ restarts: 2 });
  });
  it('"running" after the backoff (the pidfile still names the recorded dead proxy, or the new shell before its exec): the same restart', () => {
    expect(restartInProgress(snap('restarts=1\nstate=running\nlast-exit=137\nlast-pid=4041\n'))).toEqual({ restarts: 1 });
    expect(restartInProgress(snap('restarts=1\nstate=running\nlast-exit=137\nlast-pid=3600\n', { recordedAlive: true }))).toEqual({ restarts: 1 });
  });
  it('a file read mid-write or none: still restarting (restart 1 at least)', () => {
    expect(restartInProgress(snap(''))).toEqual({ restarts: 1 });
    expect(restartInProgress(snap(null, { recordedPid: null }))).toEqual({ restarts: 1 });
  });
  it('nothing restarts it when the watchdog is gone, or it gave up, exited or refused', () => {
    expect(restartInProgress(snap('restarts=1\nstate=restarting\n', { alive: false }))).toBeNull();
    for (const st of ['gave-up', 'exited', 'refused']) expect(restartInProgress(snap(`restarts=7\nstate=${st}\n`)), st).toBeNull();
  });
  it('says the in-a-row count (the one the watchdog gives up at), not the total since it began', () => {
    expect(restartInProgress(snap('restarts=9\nin-a-row=2\nstate=restarting\nlast-exit=137\nlast-pid=4041\n'))).toEqual({ restarts: 2 });
    // The exit not recorded yet: the next in the row.
    expect(restartInProgress(snap('restarts=9\nin-a-row=1\nstate=running\nlast-exit=137\nlast-pid=3600\n'))).toEqual({ restarts: 2 });
    expect(restartInProgress(snap('restarts=9\nin-a-row=1\nstate=running\nlast-exit=137\nlast-pid=4041\n'))).toEqual({ restarts: 1 });
  });
});
