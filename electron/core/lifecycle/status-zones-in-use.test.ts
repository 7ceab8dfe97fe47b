/**
 * Issue 20 (M2): the Zones tab of a window opened while the API does not answer shows the zones
 * the running proxy routes. status carries them from the saved plan (HostDnsStatus.zonesInUse),
 * with the kube-dns ClusterIP the proxy forwards to; after stop, neither.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('status: the zones the running proxy routes', () => {
  it('running: the saved plan\'s zones and kube-dns; stopped: none', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const s = await dnsStatus(h.deps);
    expect(s.kubeDnsIp).toBe('172.21.0.10');
    expect(s.zonesInUse?.length).toBeGreaterThan(0);
    expect(s.zonesInUse?.find((z) => z.clusterDomain)).toMatchObject({ zone: 'cluster.local', upstream: expect.stringContaining('172.21.0.10') });
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect((await dnsStatus(h.deps)).zonesInUse).toBeUndefined();
  });
});
