import { describe, expect, it } from 'vitest';
import { captureUnitState, captureUnitWords, lastRowsMayBeMissing } from './capture-unit-state';

describe('captureUnitState / captureUnitWords', () => {
  it('says nothing for an inactive or unknown unit', () => {
    expect(captureUnitState({ activeState: 'inactive', subState: 'dead', result: 'success', lastExit: 'exited with status 0' })).toBeNull();
    expect(captureUnitState({ activeState: 'unknown', subState: 'unknown', result: 'unknown', lastExit: null })).toBeNull();
    // A start in progress runs its capture before the proxy: no line for that moment.
    expect(captureUnitState({ activeState: 'active', subState: 'running', result: 'success', lastExit: null })).toBeNull();
    expect(captureUnitState({ activeState: 'activating', subState: 'auto-restart', result: 'exit-code', lastExit: 'exited with status 1' })).toBeNull();
  });

  it('a companion killed mid-drain: failed, Result=signal, its last rows may be missing', () => {
    const s = captureUnitState({ activeState: 'failed', subState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' })!;
    expect(lastRowsMayBeMissing(s)).toBe(true);
    expect(captureUnitWords(s)).toBe('The exact query log may miss rows of its last run: its companion ended before it wrote them all (k2s-dnsproxy-capture.service failed, Result=signal: killed by signal KILL); the next start resets it.');
  });

  it('a companion still draining (or hung on SIGTERM): deactivating, what a start waits for', () => {
    const s = captureUnitState({ activeState: 'deactivating', subState: 'stop-sigterm', result: 'success', lastExit: null })!;
    expect(lastRowsMayBeMissing(s)).toBe(false);
    expect(captureUnitWords(s)).toBe('The exact query log\'s companion is still writing its last rows (k2s-dnsproxy-capture.service deactivating, stop-sigterm); a start waits for it to end (at most its TimeoutStopSec=, 10 s).');
  });
});
