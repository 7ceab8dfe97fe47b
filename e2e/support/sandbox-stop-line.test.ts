import { describe, expect, it } from 'vitest';
import { sandboxStopLine } from './sandbox-stop-line';

describe('the sandbox\'s line after Ctrl-C stopped K2s DNS (new-user walk 23)', () => {
  it('names the sandbox\'s /etc/resolv.conf it put back, never "the host resolver"', () => {
    expect(sandboxStopLine('K2s DNS is stopped; the host resolver is back as it was.')).toBe(
      "sandbox: K2s DNS is stopped; the sandbox's /etc/resolv.conf (in its private copy of /etc) is back as it was before Start. This machine's own /etc/resolv.conf was never touched.\n",
    );
  });

  it('a result naming /etc/resolv.conf says whose it is; one that changed nothing is as stop says it', () => {
    expect(sandboxStopLine('K2s DNS is stopped. Restored the saved original over the file another program wrote to /etc/resolv.conf.')).toBe(
      "sandbox: K2s DNS is stopped. Restored the saved original over the file another program wrote to /etc/resolv.conf. (That /etc/resolv.conf is the sandbox's, in its private copy of /etc. This machine's own /etc/resolv.conf was never touched.)\n",
    );
    expect(sandboxStopLine('K2s DNS is stopped; it was not running.')).toBe('sandbox: K2s DNS is stopped; it was not running.\n');
  });
});
