/**
 * Issue 20 (walk 7 L3), every view live or labelled: after the Kubernetes API answered again the
 * Cluster card took ~12 s to say Reachable while it said "this card asks again every 3 s". A
 * request to an API that stopped answering waits up to its 5 s timeout (kube-client.ts), and the
 * poll skipped every tick while it was in flight; an answer of an older request was dropped
 * while a newer one was in flight. Now the card asks on every tick and shows the first answer
 * that comes: Reachable within one cadence + one request after the API answers again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterStatus } from '../../../shared/types';
import { CADENCE_MS } from '../../../shared/cadence';
import { fakeClusterStatus, fakeUnreachableCluster } from '../../../e2e/support/backend-fake-data';
import { startPoll } from '../lib/poll-loop';
import { createClusterStore } from './cluster';

/** The backend's timeout for each API request while the API does not answer (kube-client.ts DEFAULT_TIMEOUT_MS). */
const HUNG_MS = 5000;
/** How long an answering API takes here (a busy machine's request). */
const ANSWER_MS = 400;

/** An API whose clusterStatus hangs HUNG_MS then says unreachable while `up` is false, else answers ok after ANSWER_MS. */
function flakyApi(isUp: () => boolean): { api: K2sDnsApi; asked: () => number } {
  let asked = 0;
  const api = {
    clusterStatus: () => {
      asked++;
      const up = isUp();
      return new Promise<ClusterStatus>((resolve) =>
        setTimeout(() => resolve((up ? fakeClusterStatus() : fakeUnreachableCluster()) as ClusterStatus), up ? ANSWER_MS : HUNG_MS),
      );
    },
  } as unknown as K2sDnsApi;
  return { api, asked: () => asked };
}

describe('Cluster card recovers within one cadence + one request once the API answers again', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks on every tick while a request to the stopped API is in flight, and shows the first answer', async () => {
    let up = false;
    const { api, asked } = flakyApi(() => up);
    const store = createClusterStore(api, () => Date.now());
    const loop = startPoll(() => store.getState().refresh(), CADENCE_MS.cluster, () => true, { overlap: true });
    await vi.advanceTimersByTimeAsync(CADENCE_MS.cluster); // tick 1: hangs (API down)
    await vi.advanceTimersByTimeAsync(1); // the request is sent
    up = true; // the API answers again just after the ask
    const backAt = Date.now();
    await vi.advanceTimersByTimeAsync(CADENCE_MS.cluster + ANSWER_MS);
    expect(asked()).toBe(2); // tick 2 asked although tick 1's request was in flight
    expect(store.getState().status?.state).toBe('ok');
    expect(Date.now() - backAt).toBeLessThanOrEqual(CADENCE_MS.cluster + ANSWER_MS);
    // Tick 1's request times out later: the card does not step back to Unreachable.
    await vi.advanceTimersByTimeAsync(HUNG_MS);
    expect(store.getState().status?.state).toBe('ok');
    loop.stop();
  });

  it('an older request answering while a newer one is in flight is shown (not dropped)', async () => {
    let calls = 0;
    const api = {
      clusterStatus: () =>
        new Promise<ClusterStatus>((resolve) => {
          calls++;
          // The first asks an API that answers in 100 ms; the second one that hangs for the timeout.
          if (calls === 1) setTimeout(() => resolve(fakeClusterStatus() as ClusterStatus), 100);
          else setTimeout(() => resolve(fakeUnreachableCluster() as ClusterStatus), HUNG_MS);
        }),
    } as unknown as K2sDnsApi;
    const store = createClusterStore(api, () => Date.now());
    void store.getState().refresh();
    await vi.advanceTimersByTimeAsync(50);
    void store.getState().refresh();
    await vi.advanceTimersByTimeAsync(100);
    expect(store.getState().status?.state).toBe('ok');
    expect(store.getState().answeredAt).toBe(Date.now() - 50);
    expect(store.getState().loading).toBe(true); // the second is still out
  });

  it('a poll without overlap still skips ticks while a run is in flight (the other views)', async () => {
    let runs = 0;
    const loop = startPoll(() => { runs++; return new Promise((r) => setTimeout(r, HUNG_MS)); }, CADENCE_MS.cluster, () => true);
    await vi.advanceTimersByTimeAsync(CADENCE_MS.cluster * 2 + 1);
    expect(runs).toBe(1);
    loop.stop();
  });
});
