import { afterEach, describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { startDns } from '../lifecycle/start';
import { makeTestHost } from '../../../e2e/support/test-deps';
import { hopLine } from '../doctor/hop-line';
import { checkHealth, kubeDnsFrom, UNREAD_KUBE_DNS_WHY } from './check-health';
import { healthProbes } from './probes';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});
const sink = (_e: LifecycleEvent) => undefined;

describe("the kube-dns hop says when its address is K2s's default, not discovered", () => {
  it('stopped with no kubeconfig: the default, labelled as one, and addressFrom says so in --json', async () => {
    const h = await makeTestHost();
    hosts.push(h);
    const r = await checkHealth(healthProbes(h.deps), { kubeconfigFound: false });
    const hop = r.hops.find((x) => x.kind === 'kube-dns')!;
    expect(hop.addressFrom).toEqual({ source: 'default', why: 'no kubeconfig' });
    expect(hopLine(hop)).toBe("CoreDNS (kube-dns 172.21.0.10:53, K2s's default: not discovered — no kubeconfig): not in use: K2s DNS is stopped");
  });

  it("stopped, the window's cluster discovery read kube-dns: the hop is that address, said as read from the cluster (new-user report: it said not discovered beside the Cluster card's read)", async () => {
    const h = await makeTestHost();
    hosts.push(h);
    const r = await checkHealth(healthProbes(h.deps), { kubeconfigFound: true, clusterKubeDnsIp: '10.43.0.10' });
    const hop = r.hops.find((x) => x.kind === 'kube-dns')!;
    expect(hop.addressFrom).toEqual({ source: 'cluster', why: null });
    expect(hopLine(hop)).toBe('CoreDNS (kube-dns 10.43.0.10:53, read from the cluster): not in use: K2s DNS is stopped');
    // Without a cluster read (the CLI's status): K2s's default, as before.
    const cli = (await checkHealth(healthProbes(h.deps), { kubeconfigFound: true })).hops.find((x) => x.kind === 'kube-dns')!;
    expect(hopLine(cli)).toBe("CoreDNS (kube-dns 172.21.0.10:53, K2s's default: not read while stopped — start reads it from the cluster): not in use: K2s DNS is stopped");
  });

  it('running: the ClusterIP start discovered is said plainly', async () => {
    const h = await makeTestHost();
    hosts.push(h);
    expect((await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' }, sink)).ok).toBe(true);
    const r = await checkHealth(healthProbes(h.deps), { kubeconfigFound: true });
    const hop = r.hops.find((x) => x.kind === 'kube-dns')!;
    expect(hop.addressFrom).toEqual({ source: 'discovered', why: null });
    expect(hopLine(hop)).toMatch(/^CoreDNS \(kube-dns 172\.21\.0\.10:53\): /);
  });

  it('kubeDnsFrom: why nothing was discovered', () => {
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'stopped' }, true)).toEqual({ source: 'default', why: 'start reads it from the cluster' });
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'running' }, undefined)).toEqual({ source: 'default', why: 'not in the saved state' });
    expect(kubeDnsFrom({ kubeDnsIp: '10.43.0.10', state: 'running' }, false)).toEqual({ source: 'discovered', why: null });
    // A cluster read counts while stopped only (a running proxy routes to what its start saved).
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'stopped' }, true, '172.21.0.10')).toEqual({ source: 'cluster', why: null });
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'running' }, true, '172.21.0.10')).toEqual({ source: 'default', why: 'not in the saved state' });
    // A user while K2s DNS runs: start discovered it, in a state only root reads — no kubeconfig is involved.
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'running', stateUnreadable: 'root only' }, false)).toEqual({ source: 'unread', why: UNREAD_KUBE_DNS_WHY });
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'degraded', stateUnreadable: 'root only' }, true)).toEqual({ source: 'unread', why: UNREAD_KUBE_DNS_WHY });
    // Stopped, what root's directory holds does not matter: a start reads it from the cluster.
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'stopped', stateUnreadable: 'root only' }, false)).toEqual({ source: 'default', why: 'no kubeconfig' });
    expect(kubeDnsFrom({ kubeDnsIp: null, state: 'stopped', stateUnreadable: 'root only' }, true)).toEqual({ source: 'default', why: 'start reads it from the cluster' });
  });
});
