/**
 * The watchdog's and the keeper's back-off, from one place: the numbers the scripts sleep and the
 * waits the texts say (walk finding: "restart 6 of 6 — wait a few seconds" for a 30 s wait).
 */
import { describe, expect, it } from 'vitest';
import { watchdogDelayS, watchdogRestartWords, watchdogWaitWords } from '../../../shared/watchdog-backoff';
import { WATCHDOG_SCRIPT } from './supervisor-script';
import { KEEPER_SCRIPT } from './capture-keeper';
import { restartingRefusal } from '../lifecycle/proxy-restarting';

describe('watchdog back-off', () => {
  it('restart N sleeps 1, 2, 4, 8, 16, then 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(watchdogDelayS)).toEqual([1, 2, 4, 8, 16, 30, 30]);
    expect(watchdogRestartWords({ restarts: 6, max: 6 })).toBe('restart 6 of 6, 30 s after the exit');
    expect(watchdogWaitWords(6)).toBe('wait up to 30 s');
  });

  it('both scripts start at 1 s and cap at 30 s, the numbers the texts say', () => {
    for (const script of [WATCHDOG_SCRIPT, KEEPER_SCRIPT]) {
      expect(script).toContain('restarts=0; delay=1;');
      expect(script).toContain('delay=$((delay * 2)); [ "$delay" -gt 30 ] && delay=30');
    }
  });

  it("start's refusal during the last restart says the real wait", () => {
    expect(restartingRefusal({ by: 'watchdog', restarts: 6, max: 6 })).toBe('k2s-dnsproxy is not running: the watchdog is restarting it (restart 6 of 6, 30 s after the exit); nothing changed. Wait up to 30 s, then run npx k2s-dns status: once it says running, K2s DNS runs as started; if the watchdog gives up, status says why and to start again.');
  });
});
