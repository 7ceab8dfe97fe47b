/**
 * Status once K2s DNS is stopped while the capture unit is not inactive (shared/capture-unit-state.ts):
 * one line and the `captureUnit` field, only then; nothing while the proxy runs (the companion's
 * own stop is said there, capture-restart.ts).
 */
import { describe, expect, it } from 'vitest';
import { dnsStatus } from './status';
import { trackedHosts } from '../../../e2e/support/test-deps';
import type { CaptureUnitState } from '../../../shared/capture-unit-state';

const newHost = trackedHosts();
const KILLED: CaptureUnitState = { activeState: 'failed', subState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' };

/** The host's manager, its status() saying `captureUnit` (and running as it was). */
async function hostWithCapture(captureUnit: CaptureUnitState | null) {
  const h = await newHost('nameserver 192.0.2.53\n');
  const status = h.deps.services.status.bind(h.deps.services);
  h.deps.services.status = async () => ({ ...(await status()), ...(captureUnit ? { captureUnit } : {}) });
  return h;
}

describe('status: the capture unit after a stop', () => {
  it('failed (killed mid-drain): one line saying its last rows may be missing, and the field', async () => {
    const h = await hostWithCapture(KILLED);
    const s = await dnsStatus(h.deps);
    expect(s.captureUnit).toEqual(KILLED);
    expect(s.messages.filter((m) => m.includes('k2s-dnsproxy-capture.service'))).toEqual(['The exact query log may miss rows of its last run: its companion ended before it wrote them all (k2s-dnsproxy-capture.service failed, Result=signal: killed by signal KILL); the next start resets it, as uninstall does.']);
  });

  it('deactivating: still writing its last rows', async () => {
    const h = await hostWithCapture({ activeState: 'deactivating', subState: 'stop-sigterm', result: 'success', lastExit: null });
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('k2s-dnsproxy-capture.service'))).toEqual(['The exact query log\'s companion is still writing its last rows (k2s-dnsproxy-capture.service deactivating, stop-sigterm); a start waits for it to end (at most its TimeoutStopSec=, 10 s).']);
  });

  it('inactive: no line, no field', async () => {
    const h = await hostWithCapture(null);
    const s = await dnsStatus(h.deps);
    expect(s.captureUnit).toBeUndefined();
    expect(s.messages.filter((m) => m.includes('k2s-dnsproxy-capture'))).toEqual([]);
  });
});
