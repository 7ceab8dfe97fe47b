/**
 * Regression: a link-local kube-dns ClusterIP (fe80::1) ran to the 15 s verify deadline; it is
 * refused before the proxy starts, with why, and everything is rolled back.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { clusterIpRefusal } from './preflight';
import { startDns } from './start';
import { FIXTURE_DISCOVERY, trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const hosts = trackedHosts();

describe('non-routable kube-dns ClusterIPs', () => {
  it('refuses link-local, multicast, reserved and "this network" addresses, IPv4-mapped too; accepts ClusterIPs', () => {
    expect(clusterIpRefusal('fe80::1')).toMatch(/^The kube-dns ClusterIP fe80::1 is IPv6 link-local \(RFC 4291 §2\.5\.6/);
    expect(clusterIpRefusal('febf::1')).toMatch(/link-local/);
    expect(clusterIpRefusal('fe80::1%eth0')).toMatch(/scope id/);
    expect(clusterIpRefusal('169.254.169.254')).toMatch(/IPv4 link-local/);
    expect(clusterIpRefusal('::ffff:169.254.0.1')).toMatch(/IPv4 link-local/);
    expect(clusterIpRefusal('ff02::fb')).toMatch(/multicast/);
    expect(clusterIpRefusal('224.0.0.251')).toMatch(/multicast/);
    expect(clusterIpRefusal('255.255.255.255')).toMatch(/reserved or broadcast/);
    expect(clusterIpRefusal('0.1.2.3')).toMatch(/this network/);
    expect(clusterIpRefusal('kube-dns')).toMatch(/is not an IP address/);
    for (const ok of ['172.21.0.10', '10.96.0.10', 'fd00:10:96::a', '2001:db8::a', 'fd00::1']) expect(clusterIpRefusal(ok)).toBeNull();
  });

  it('start with kube-dns at fe80::1: DISCOVERY_FAILED naming it, no service started, no verify, resolver back', async () => {
    const h = await hosts('nameserver 192.0.2.53\n');
    h.world.discovery = { ...FIXTURE_DISCOVERY, kubeDnsIp: 'fe80::1' };
    const events: LifecycleEvent[] = [];
    const r = await startDns(h.deps, TEST_START_OPTS, (e) => events.push(e));
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(r.message).toContain('The kube-dns ClusterIP fe80::1 is IPv6 link-local');
    expect(h.services.started).toEqual([]);
    expect(events.some((e) => e.type === 'step' && e.step === 'verify')).toBe(false);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
  });
});
