import { describe, expect, it } from 'vitest';
import { displayState } from './display-state';

describe('displayState', () => {
  it('says starting/stopping while this window runs the operation, else the polled state', () => {
    expect(displayState('stopped', 'start')).toBe('starting');
    expect(displayState('running', 'stop')).toBe('stopping');
    expect(displayState('running', 'uninstall')).toBe('stopping');
    expect(displayState('degraded', null)).toBe('degraded');
    expect(displayState('starting', null)).toBe('starting');
  });
});
