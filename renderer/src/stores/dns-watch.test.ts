import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { HostDnsStatus } from '../../../shared/types';
import { createDnsStore } from './dns';
import { inProcessApi } from './in-process-api';

describe('dns store watch: onChange for changes only', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the first read sets the status without onChange; a later state change calls it once with the new status', async () => {
    const base = inProcessApi();
    const first = await base.dnsStatus();
    let current: HostDnsStatus = first;
    const api: K2sDnsApi = { ...base, dnsStatus: async () => current };
    const store = createDnsStore(api);
    const changes: string[] = [];
    const off = store.getState().watch(1000, (s) => changes.push(s.state));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().status?.state).toBe('stopped');
    expect(changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual([]); // same state: no change
    current = { ...first, state: 'running', resolverOwner: 'k2s', pid: 4242 };
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual(['running']);
    off();
  });

  it('a first success after failed reads counts as a change (the start-up load may have failed too)', async () => {
    const base = inProcessApi();
    const ok = await base.dnsStatus();
    let fail = true;
    const api: K2sDnsApi = { ...base, dnsStatus: async () => { if (fail) throw new Error('backend down'); return ok; } };
    const store = createDnsStore(api);
    const changes: string[] = [];
    const off = store.getState().watch(1000, (s) => changes.push(s.state));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().error).toBe('backend down');
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual(['stopped']);
    off();
  });
});
