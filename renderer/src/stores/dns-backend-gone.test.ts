/**
 * The backend goes away during an operation (Ctrl-C on `npm run sandbox` or the app; issue 20
 * low: the window kept saying "starting"): the store says how the operation ended is not known,
 * never judges it from the last status read, and marks the window lost.
 */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import { ApiError } from '../../../shared/contract';
import type { HostDnsStatus } from '../../../shared/types';
import { createDnsStore } from './dns';
import { inProcessApi } from '../../../e2e/support/in-process-api';

const GONE = 'The app backend does not answer (Failed to fetch): it was stopped or restarted. Start it again (npm start, npm run sandbox or k2s-dns ui) and open the new address it prints; each start has a new token.';

describe('dns store: backend gone during Start', () => {
  it('error and result say how start ended is not known; lost is set; the last status ("starting") is not taken for the outcome', async () => {
    const base = inProcessApi();
    const starting: HostDnsStatus = { ...(await base.dnsStatus()), state: 'starting', operation: { op: 'start', step: 'verify', pid: 77, startedAt: new Date().toISOString() } };
    let up = true;
    let store!: ReturnType<typeof createDnsStore>;
    const api: K2sDnsApi = {
      ...base,
      dnsStatus: async () => {
        if (!up) throw new ApiError('NETWORK', GONE);
        return starting;
      },
      dnsStart: async () => {
        store.getState().onEvent({ type: 'step', op: 'start', step: 'verify', status: 'running', message: 'checking', at: Date.now() });
        up = false;
        throw new ApiError('NETWORK', GONE);
      },
    };
    store = createDnsStore(api);
    await store.getState().refresh();
    expect(store.getState().status?.state).toBe('starting');
    await store.getState().start({} as never);
    const s = store.getState();
    expect(s.lost).toBe(GONE);
    expect(s.busy).toBeNull();
    expect(s.error).toBe('The answer to start was lost (Failed to fetch) and the app backend does not answer any more: how start ended is not known here.');
    expect(s.events.at(-1)).toMatchObject({ type: 'result', op: 'start', ok: false, message: 'start: its answer was lost and the app backend does not answer any more: how it ended is not known here.' });
  });
});
