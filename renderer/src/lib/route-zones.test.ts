/** Walk 10 M2: with the API down the Query tester's route said "matches no cluster zone" for a name CoreDNS answered. */
import { describe, expect, it } from 'vitest';
import { routeZones, routeZonesNote } from './route-zones';
import { matchRoute } from './route';
import type { ZoneRoute } from '../../../shared/types';

const zone = (z: string, upstream: string, clusterDomain = false): ZoneRoute => ({ zone: z, upstream, source: 'corefile', reason: 'test', clusterDomain, reverse: false });
const RUNNING = [zone('cluster.local', '172.21.0.10:53', true)];
const DISCOVERED = [zone('cluster.local', '172.21.0.10:53', true), zone('corp.example', '10.0.0.53:53')];
const NAME = 'kubernetes.default.svc.cluster.local';

describe('routeZones', () => {
  it('API down, nothing discovered: the running proxy’s zones, said so; the name matches cluster.local', () => {
    const z = routeZones(null, 'Cannot reach the Kubernetes API', { state: 'degraded', zonesInUse: RUNNING });
    expect(z).toEqual({ zones: RUNNING, from: 'running', apiDown: true });
    expect(routeZonesNote(z)).toBe('(zones of the running proxy; the API does not answer)');
    expect(matchRoute(NAME, 'A', z.zones, ['192.0.2.53'])).toEqual({ name: NAME, zone: 'cluster.local', upstream: '172.21.0.10:53', clusterDomain: true });
  });
  it('API down after a discovery: the running proxy’s zones over the stale discovery', () => {
    expect(routeZones({ zones: DISCOVERED }, 'Cannot reach the Kubernetes API', { state: 'running', zonesInUse: RUNNING })).toEqual({ zones: RUNNING, from: 'running', apiDown: true });
  });
  it('API answers: the discovered zones, no note', () => {
    const z = routeZones({ zones: DISCOVERED }, null, { state: 'running', zonesInUse: RUNNING });
    expect(z).toEqual({ zones: DISCOVERED, from: 'discovery', apiDown: false });
    expect(routeZonesNote(z)).toBeNull();
  });
  it('not read yet: the running proxy’s, said so without blaming the API', () => {
    const z = routeZones(null, null, { state: 'running', zonesInUse: RUNNING });
    expect(routeZonesNote(z)).toBe('(zones of the running proxy; not read from the API yet)');
  });
  it('stopped: the proxy routes nothing; the last discovery is last known, else none', () => {
    expect(routeZones({ zones: DISCOVERED }, 'down', { state: 'stopped', zonesInUse: RUNNING })).toEqual({ zones: DISCOVERED, from: 'last-known', apiDown: true });
    expect(routeZonesNote({ from: 'last-known', apiDown: true })).toBe('(zones last read from the API; it does not answer now)');
    expect(routeZones(null, 'down', { state: 'stopped' })).toEqual({ zones: [], from: 'none', apiDown: true });
    expect(routeZones(null, 'down', null).from).toBe('none');
  });
  it('a user who cannot read the saved plan, the API down: the zones the running proxy\'s config routes, said so (tidy30: "matches no cluster zone")', () => {
    const configFacts = { file: '/etc/k2s/dnsproxy.yaml', listeners: [], upstreams: ['192.0.2.53'], zones: [{ zone: 'cluster.local', upstream: '172.21.0.10:53' }, { zone: '21.172.in-addr.arpa', upstream: '172.21.0.10:53' }] };
    const z = routeZones(null, 'Cannot reach the Kubernetes API', { state: 'running', configFacts, clusterDomain: null });
    expect(z).toEqual({ zones: [{ zone: 'cluster.local', upstream: '172.21.0.10:53', clusterDomain: false }, { zone: '21.172.in-addr.arpa', upstream: '172.21.0.10:53', clusterDomain: false }], from: 'config', apiDown: true, file: '/etc/k2s/dnsproxy.yaml' });
    expect(routeZonesNote(z)).toBe('(zones of the running proxy, read from its config /etc/k2s/dnsproxy.yaml; the API does not answer)');
    expect(matchRoute(NAME, 'A', z.zones, configFacts.upstreams)).toEqual({ name: NAME, zone: 'cluster.local', upstream: '172.21.0.10:53', clusterDomain: false });
    expect(matchRoute('172.21.0.1', 'PTR', z.zones, configFacts.upstreams)).toMatchObject({ zone: '21.172.in-addr.arpa', upstream: '172.21.0.10:53' });
    // The cluster domain, when status knows it, is said as such; over a stale discovery too.
    expect(routeZones({ zones: DISCOVERED }, 'down', { state: 'degraded', configFacts, clusterDomain: 'cluster.local' }).zones[0]).toEqual({ zone: 'cluster.local', upstream: '172.21.0.10:53', clusterDomain: true });
    // The saved plan first; the API's zones while it answers; nothing of a stopped proxy.
    expect(routeZones(null, 'down', { state: 'running', zonesInUse: RUNNING, configFacts }).from).toBe('running');
    expect(routeZones({ zones: DISCOVERED }, null, { state: 'running', configFacts }).from).toBe('discovery');
    expect(routeZones(null, 'down', { state: 'stopped', configFacts }).from).toBe('none');
    expect(routeZonesNote({ from: 'config', apiDown: false, file: '/etc/k2s/dnsmasq.conf' })).toBe('(zones of the running proxy, read from its config /etc/k2s/dnsmasq.conf; not read from the API yet)');
  });
});
