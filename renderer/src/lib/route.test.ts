import { describe, expect, it } from 'vitest';
import { matchRoute, queryWireName } from './route';
import type { ZoneRoute } from '../../../shared/types';

const zone = (z: string, upstream: string, clusterDomain = false): ZoneRoute => ({
  zone: z,
  upstream,
  source: 'corefile',
  reason: 'test',
  clusterDomain,
  reverse: z.endsWith('.arpa'),
});
const ZONES = [zone('cluster.local', '172.21.0.10:53', true), zone('21.172.in-addr.arpa', '172.21.0.10:53'), zone('svc.cluster.local', '172.21.0.11:53')];

describe('matchRoute', () => {
  it('picks the longest matching zone', () => {
    expect(matchRoute('web.demo.svc.cluster.local', 'A', ZONES, ['192.0.2.53'])).toEqual({
      name: 'web.demo.svc.cluster.local',
      zone: 'svc.cluster.local',
      upstream: '172.21.0.11:53',
      clusterDomain: false,
    });
    expect(matchRoute('Cluster.Local.', 'SOA', ZONES, [])).toMatchObject({ name: 'cluster.local', zone: 'cluster.local', clusterDomain: true });
  });

  it('does not match a label that only ends with the zone text', () => {
    expect(matchRoute('evilcluster.local', 'A', ZONES, ['192.0.2.53'])).toEqual({ name: 'evilcluster.local', zone: null, upstream: '192.0.2.53', clusterDomain: false });
  });

  it('turns an IP into its reverse name for PTR', () => {
    expect(matchRoute('172.21.0.1', 'PTR', ZONES, [])).toMatchObject({ name: '1.0.21.172.in-addr.arpa', zone: '21.172.in-addr.arpa', upstream: '172.21.0.10:53' });
    expect(queryWireName('fd00::1', 'PTR')).toBe(`1.${'0.'.repeat(29)}d.f.ip6.arpa`);
    // Only PTR: an A query for a dotted quad is asked as is.
    expect(queryWireName('172.21.0.1', 'A')).toBe('172.21.0.1');
  });
});
