import { describe, expect, it } from 'vitest';
import { SIGNAL_ECHO_MS, stillStoppingLine, stopSignals } from './stop-notice';

describe('stopSignals', () => {
  it("counts npm's forwarded copy of a Ctrl-C as the same press, and a later press as again", () => {
    let t = 5000;
    const kind = stopSignals(() => t);
    expect(kind()).toBe('first');
    t += 3; // npm's copy
    expect(kind()).toBe('echo');
    t += 2000; // the user presses again
    expect(kind()).toBe('again');
    t += 1; // and npm's copy of that one
    expect(kind()).toBe('echo');
    t += SIGNAL_ECHO_MS;
    expect(kind()).toBe('again');
  });
});

describe('stillStoppingLine', () => {
  it('says how long and what for, on one line', () => {
    expect(stillStoppingLine(2345, 'the inside: stopping the test bed')).toBe('Still stopping (2.3 s so far): waiting for the inside: stopping the test bed.\n');
  });
});
