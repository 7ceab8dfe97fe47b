import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runsIdle, SCHED_IDLE, schedPolicyOf } from './sched-policy';

// /proc/PID/stat of a `cat` run under `chrt --idle 0` (policy 5, the 41st field), and one at SCHED_OTHER (0).
const IDLE_CAT = '31834 (cat) R 31833 31828 29064 0 -1 4194304 76 0 0 0 0 0 0 0 20 0 1 0 168861 3133440 390 18446744073709551615 94484564869120 94484564889001 140725761965168 0 0 0 0 0 0 0 0 0 17 1 0 5 0 0 0 94484564905008 94484564906624 94484750704640 140725761968822 140725761968842 140725761968842 140725761970155 0';
const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const OTHER_CAT = IDLE_CAT.replace(' 17 1 0 5 ', ' 17 1 0 0 ');

describe('schedPolicyOf', () => {
  it('reads field 41 (policy): 5 under chrt --idle, 0 at normal priority', () => {
    expect(schedPolicyOf(IDLE_CAT)).toBe(SCHED_IDLE);
    expect(schedPolicyOf(OTHER_CAT)).toBe(0);
  });
  it('counts fields after the last ")": a comm with spaces and parentheses does not shift them', () => {
    expect(schedPolicyOf(IDLE_CAT.replace('(cat)', '(a ) b (c))'))).toBe(SCHED_IDLE);
  });
  it('is null for text that is no stat line', () => {
    expect(schedPolicyOf('')).toBeNull();
    expect(schedPolicyOf('12 (x) R 1 2')).toBeNull();
  });
  it.skipIf(!hasChrt)('reads a real process: cat under chrt --idle 0 reports SCHED_IDLE, and under chrt --other 0 SCHED_OTHER', () => {
    expect(schedPolicyOf(execFileSync('chrt', ['--idle', '0', 'cat', '/proc/self/stat'], { encoding: 'utf8' }))).toBe(SCHED_IDLE);
    expect(schedPolicyOf(execFileSync('chrt', ['--other', '0', 'cat', '/proc/self/stat'], { encoding: 'utf8' }))).toBe(0);
  });
  it('runsIdle is false when /proc cannot say', async () => {
    expect(await runsIdle('/nonexistent/stat')).toBe(false);
  });
});
