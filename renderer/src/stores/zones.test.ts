/** Zones store: refused zones and the user's allows go through the real contract. */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterDiscovery } from '../../../shared/types';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { createZonesStore } from './zones';

describe('zones store allows', () => {
  it('sends the allowed zones with zones:list, seeds them from the running start, and un-allows', async () => {
    const base = inProcessApi({ running: true });
    const calls: unknown[] = [];
    const api: K2sDnsApi = {
      ...base,
      async zonesList(input) {
        calls.push(input);
        const d: ClusterDiscovery = await base.zonesList({});
        return { ...d, allowedZones: input?.allowZones ?? ['corp.example'], refusedZones: [{ zone: 'test', reason: 'Corefile server block "test:53"', why: 'a top-level domain', allowable: true }] };
      },
    };
    const zones = createZonesStore(api);
    await zones.getState().refresh();
    expect(zones.getState().allowZones).toEqual(['corp.example']);
    await zones.getState().setAllowed('test', true);
    expect(calls.at(-1)).toEqual({ allowZones: ['corp.example', 'test'] });
    await zones.getState().setAllowed('corp.example', false);
    expect(calls.at(-1)).toEqual({ allowZones: ['test'] });
  });

  // Helper review: a slow first load answering after the user ticked a zone reset the allows to
  // the empty list it had been asked with, so the next Start left the zone out.
  it('a tick made while the first load is in flight survives that load answering last', async () => {
    const base = inProcessApi({ running: true });
    const d: ClusterDiscovery = await base.zonesList({});
    const answers: ((d: ClusterDiscovery) => void)[] = [];
    const api: K2sDnsApi = { ...base, zonesList: () => new Promise<ClusterDiscovery>((r) => answers.push(r)) };
    const zones = createZonesStore(api);
    const first = zones.getState().refresh();
    const tick = zones.getState().setAllowed('test', true);
    await Promise.resolve();
    answers[1]!({ ...d, allowedZones: ['test'] });
    await tick;
    answers[0]!({ ...d, allowedZones: [] });
    await first;
    expect(zones.getState().allowZones).toEqual(['test']);
    expect(zones.getState().discovery?.allowedZones).toEqual(['test']);
  });

  it('the contract refuses an allow that is not a zone name', async () => {
    const api = inProcessApi({ running: true });
    await expect(api.zonesList({ allowZones: ['Bad Zone'] })).rejects.toThrow();
    await expect(api.dnsStart({ allowZones: ['x'.repeat(64)] })).rejects.toThrow();
  });
});
