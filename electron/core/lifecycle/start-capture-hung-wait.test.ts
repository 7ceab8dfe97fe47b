/**
 * A start after a stop whose capture companion hangs on SIGTERM (SIGSTOP): its unit stays
 * deactivating and the new companion's restart waits for systemd's TimeoutStopSec= (7-10 s with no
 * line before). start now says what it waits for, as a progress line of the service step
 * (detail.waiting, printed as `service: …`), only while preflight found the unit deactivating.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { trackedHosts, TEST_START_OPTS, withStandInCapture } from '../../../e2e/support/test-deps';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { CaptureUnitState } from '../../../shared/capture-unit-state';

const newHost = trackedHosts();

async function startWith(captureUnit: CaptureUnitState | null) {
  const h = await newHost();
  withStandInCapture(h);
  const status = h.deps.services.status.bind(h.deps.services);
  h.deps.services.status = async () => ({ ...(await status()), ...(captureUnit ? { captureUnit } : {}) });
  const events: LifecycleEvent[] = [];
  expect(await startDns(h.deps, TEST_START_OPTS, (e) => events.push(e))).toMatchObject({ ok: true });
  return events.flatMap((e) => (e.type === 'step' && e.detail?.waiting === true ? [`${e.step}: ${e.message}`] : []));
}

describe('start while the last run\'s capture companion is still stopping', () => {
  it('deactivating: one progress line of the service step naming the unit and its limit', async () => {
    expect(await startWith({ activeState: 'deactivating', subState: 'stop-sigterm', result: 'success', lastExit: null })).toEqual([
      "service: waiting for the exact query log's companion of the last run to end (k2s-dnsproxy-capture.service deactivating, stop-sigterm): systemd ends it at its TimeoutStopSec= (10 s) at the latest …",
    ]);
  });

  it('inactive or failed: no line', async () => {
    expect(await startWith(null)).toEqual([]);
    expect(await startWith({ activeState: 'failed', subState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' })).toEqual([]);
  });
});
