import { afterEach, describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { startDns } from './start';
import { makeTestHost } from '../../../e2e/support/test-deps';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

async function host(resolv?: string) {
  const h = await makeTestHost(resolv);
  hosts.push(h);
  return h;
}

const sink = (_e: LifecycleEvent) => undefined;
const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };
const badKubeconfig = async (p: string) => {
  throw new Error(`The kubeconfig ${p} has no current context with a cluster.`);
};

describe('preflight: the kubeconfig check runs beside the host checks', () => {
  it('a bad kubeconfig still wins over a later refusal (the loop in resolv.conf), exit 3, nothing saved', async () => {
    const loop = await host('nameserver 127.0.0.1\n');
    expect(await startDns(loop.deps, opts, sink)).toMatchObject({ exitCode: 3, code: 'UPSTREAM_LOOP' });
    const h = await host('nameserver 127.0.0.1\n');
    h.deps.checkKubeconfig = badKubeconfig;
    const r = await startDns(h.deps, opts, sink);
    expect(r).toMatchObject({ exitCode: 3, code: 'BAD_KUBECONFIG' });
    expect(r.message).toContain('/etc/kubernetes/admin.conf has no current context');
  });

  it('a missing engine still wins over a bad kubeconfig (NO_ENGINE is checked first)', async () => {
    const h = await host();
    h.deps.checkKubeconfig = badKubeconfig;
    const r = await startDns(h.deps, { ...opts, engine: 'adguard', dnsproxyPath: '/nonexistent/dnsproxy' }, sink);
    expect(r).toMatchObject({ exitCode: 3, code: 'NO_ENGINE' });
  });

  it('the host checks run while the kubeconfig check is still loading (they overlap, not queue)', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    let hostChecked!: () => void;
    const hostCheckSeen = new Promise<'host checks ran first'>((resolve) => (hostChecked = () => resolve('host checks ran first')));
    const mountinfo = h.deps.mountinfo;
    h.deps.mountinfo = () => {
      hostChecked();
      return mountinfo();
    };
    let order = '';
    h.deps.checkKubeconfig = async () => {
      // Settles when a host check reads /proc/self/mountinfo, or after 5 s (then they queued).
      order = await Promise.race([hostCheckSeen, new Promise<string>((resolve) => setTimeout(() => resolve('kubeconfig check waited alone'), 5000))]);
    };
    const r = await startDns(h.deps, opts, sink);
    expect(order).toBe('host checks ran first');
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
  }, 20_000);
});
