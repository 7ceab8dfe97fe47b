import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../../shared/types';
import { buttonStates } from './button-states';
import { DRIFT_BOTH_REASON, disabledReasons, reasonLineIndex } from './disabled-reasons';

const base = {
  state: 'degraded',
  resolverOwner: 'foreign',
  savedAt: '2026-12-01T10:00:00.000Z',
  pid: 4242,
  listeners: [],
  messages: [],
  operation: null,
} as unknown as HostDnsStatus;

describe('disabledReasons', () => {
  it('drift (degraded, their file): the banner choice is said once, not once for Start and again for Uninstall', () => {
    const lines = disabledReasons(buttonStates(base, null, null));
    expect(lines).toEqual([DRIFT_BOTH_REASON]);
    expect(lines.join(' ').split('in the banner at the top').length - 1).toBe(1);
  });

  it('walk 12 M2: a deleted /etc/resolv.conf has no choice to make: the one line says Start and Uninstall wait for Stop, naming no choice', () => {
    const gone = buttonStates({ ...base, driftGone: 'deleted' } as HostDnsStatus, null, null);
    const lines = disabledReasons(gone);
    expect(lines).toEqual(['Start and Uninstall wait until you press Stop (the banner at the top says why).']);
    expect(lines.join(' ')).not.toMatch(/choice|choose/);
    expect([reasonLineIndex(gone.start.reason, lines), reasonLineIndex(gone.uninstall.reason, lines)]).toEqual([0, 0]);
  });

  it('other reasons stay as they are, each once', () => {
    const busy = disabledReasons(buttonStates(base, null, 'start'));
    expect(busy).toEqual(['Wait: start is still running (one operation at a time).']);
    const running = disabledReasons(buttonStates({ ...base, state: 'running', resolverOwner: 'k2s' }, null, null));
    expect(running).toEqual(['Already running: stop first to start again.']);
  });
});

describe('reasonLineIndex: the line a disabled button names (aria-describedby, walk 11 L11)', () => {
  it('Start while running names its own line; drift Start and Uninstall both name the one drift line; an enabled button none', () => {
    const running = buttonStates({ ...base, state: 'running', resolverOwner: 'k2s' }, null, null);
    const lines = disabledReasons(running);
    expect(reasonLineIndex(running.start.reason, lines)).toBe(0);
    expect(reasonLineIndex(running.stop.reason, lines)).toBe(-1);
    const drift = buttonStates(base, null, null);
    const driftLines = disabledReasons(drift);
    expect([reasonLineIndex(drift.start.reason, driftLines), reasonLineIndex(drift.uninstall.reason, driftLines)]).toEqual([0, 0]);
  });
});
