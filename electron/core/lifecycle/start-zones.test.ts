/** Start with the zone policy and the kube-dns loop check on a temp root. */
import { afterEach, describe, expect, it } from 'vitest';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { FIXTURE_DISCOVERY, makeTestHost } from '../../../e2e/support/test-deps';
import type { ZonePolicyInput } from '../../../shared/corefile-policy';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});
const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };

describe('start: zone policy and kube-dns loop check', () => {
  it.each(['::ffff:127.0.0.1', '::ffff:7f00:1', '0.0.0.0', '::'])('refuses kube-dns at %s and rolls back to the exact original', async (ip) => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    h.world.discovery = { ...FIXTURE_DISCOVERY, kubeDnsIp: ip, zones: FIXTURE_DISCOVERY.zones.map((z) => ({ ...z, upstream: ip })) };
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(r.message).toContain(`The kube-dns ClusterIP ${ip} is`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });

  it('a cluster-supplied serviceSubnet 0.0.0.0/1 does not excuse kube-dns on a host address (only policy-accepted CIDRs do)', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    h.world.hostAddresses = ['127.0.0.1', '10.1.2.3'];
    h.world.discovery = { ...FIXTURE_DISCOVERY, kubeDnsIp: '10.1.2.3', serviceCidrs: ['0.0.0.0/1'], zones: FIXTURE_DISCOVERY.zones.map((z) => ({ ...z, upstream: '10.1.2.3' })) };
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(r.message).toContain('The kube-dns ClusterIP 10.1.2.3 is an address of this host outside the service CIDRs (none known)');
    // A private service CIDR of a sane size still covers kube-ipvs0 ClusterIPs.
    const h2 = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h2);
    h2.world.hostAddresses = ['127.0.0.1', '10.96.0.10'];
    h2.world.discovery = { ...FIXTURE_DISCOVERY, kubeDnsIp: '10.96.0.10', serviceCidrs: ['10.96.0.0/12'], zones: FIXTURE_DISCOVERY.zones.map((z) => ({ ...z, upstream: '10.96.0.10' })) };
    expect(await startDns(h2.deps, opts, () => undefined)).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('passes the search domains and --allow-zone to discovery and remembers the allowed zones in the state file', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\nsearch corp.example\n');
    hosts.push(h);
    let seen: ZonePolicyInput | undefined;
    h.deps.discover = async (_path, policy) => {
      seen = policy;
      return { ...FIXTURE_DISCOVERY, allowedZones: ['corp.example'] };
    };
    const r = await startDns(h.deps, { ...opts, allowZones: ['corp.example'] }, () => undefined);
    expect(r).toMatchObject({ ok: true });
    expect(seen).toEqual({ searchDomains: ['corp.example'], nameservers: ['192.0.2.53'], proxyListeners: ['127.0.0.1'], allowZones: ['corp.example'] });
    const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    expect(state.allowedZones).toEqual(['corp.example']);
  });
});

describe('start: verify compares the external answer data', () => {
  it('a proxy that answers the external name with another address fails verify and rolls back', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    const inner = h.deps.query;
    h.deps.query = async (q) => {
      const res = await inner(q);
      if (q.name === 'www.example.test' && q.server.startsWith('127.0.0.1') && res.rcode === 'NOERROR') {
        return { ...res, answers: [{ name: q.name, type: 'A', ttl: 30, data: '10.0.0.4' }] };
      }
      return res;
    };
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r).toMatchObject({ ok: false, code: 'VERIFY_EXTERNAL' });
    expect(r.message).toContain('www.example.test: 198.51.100.7 directly but 10.0.0.4 through the proxy (no address in common) (upstream 192.0.2.53)');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
  });
});

describe('start: the API server a root start trusted is named', () => {
  it('the discover step names the API server and context, and counts refused zones', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    h.world.discovery = { ...FIXTURE_DISCOVERY, refusedZones: [{ zone: 'test', reason: 'Corefile server block "test:53"', why: 'a top-level domain', allowable: true }] };
    const messages: string[] = [];
    await startDns(h.deps, opts, (e) => {
      if (e.type === 'step' && e.step === 'discover' && e.status === 'done') messages.push(e.message);
    });
    expect(messages).toEqual(['kube-dns 172.21.0.10, cluster domain cluster.local, 3 zones, 1 refused by the zone policy (API server http://127.0.0.1:6443, context k2s-test)']);
  });
});

describe('start: --kubeswitch takes only a private address of this host', () => {
  it.each([
    ['8.8.8.8', 'BAD_KUBESWITCH', '--kubeswitch must be a private IPv4 address assigned to this host'],
    ['127.0.0.2', 'BAD_KUBESWITCH', '--kubeswitch must be a private IPv4 address assigned to this host'],
    ['10.9.9.9', 'KUBESWITCH_NOT_ASSIGNED', "--kubeswitch 10.9.9.9 is not assigned to any interface on this host; give one of this host's private addresses (ip -4 addr), K2s's 172.19.1.1, or none."],
  ])('%s is refused (%s, exit 3) before anything is saved', async (address, code, message) => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    const r = await startDns(h.deps, { ...opts, kubeSwitch: address }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code });
    expect(r.message).toContain(message);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });

  it("K2s's 172.19.1.1 listens when assigned and is skipped (not refused) when K2s has not created it yet", async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    h.world.hostAddresses = ['127.0.0.1', '172.19.1.1'];
    const events: { step?: string; status?: string; detail?: Record<string, unknown> }[] = [];
    const r = await startDns(h.deps, { ...opts, kubeSwitch: '172.19.1.1' }, (e) => events.push(e as never));
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(events.find((e) => e.step === 'preflight' && e.status === 'done')?.detail?.['skippedListeners']).toEqual([]);
    const h2 = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h2);
    const r2 = await startDns(h2.deps, opts, () => undefined);
    expect(r2).toMatchObject({ ok: true, exitCode: 0 });
  });
});

describe('start: a plan the adguard renderer refuses fails as PROXY_CONFIG with its fix', () => {
  it('a zone whose top-level label dnsproxy rejects (built outside the zone policy) rolls back with the message', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    h.world.discovery = { ...FIXTURE_DISCOVERY, zones: [...FIXTURE_DISCOVERY.zones, { zone: 'foo.my_tld', upstream: '172.21.0.10', source: 'corefile', reason: 'r', clusterDomain: false, reverse: false }] };
    const r = await startDns(h.deps, { ...opts, engine: 'adguard' }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'PROXY_CONFIG' });
    expect(r.message).toContain('Zone "foo.my_tld" cannot be routed by AdGuard dnsproxy');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
  });
});
