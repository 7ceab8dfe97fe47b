/**
 * preflight asks the service manager's status and whether systemd-resolved runs before it reads
 * and judges /etc/resolv.conf (preflight.ts hostChecks), and awaits each where its check stood.
 * A start refused before that point must leave no rejected promise unhandled (Node's default
 * for one ends the process: the window's backend and the helper would die on a refusal), and a
 * read that fails where it is awaited still fails the start with its own message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDns } from './start';
import { makeTestHost } from '../../../e2e/support/test-deps';
import type { ServiceManager } from '../host/service-manager';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };
const sink = () => undefined;

/** A test host whose service manager's status read fails (resolvedActive never rejects: it reads a failed call as "not running"). */
async function hostWithFailingStatus(resolvConf: string) {
  const h = await makeTestHost(resolvConf);
  hosts.push(h);
  h.services.status = async () => {
    throw new Error('systemctl show timed out');
  };
  return h;
}

/** Runs `f` and resolves to the reasons of promises rejected without a handler meanwhile (a macrotask later). */
async function unhandledDuring<T>(f: () => Promise<T>): Promise<{ value: T; unhandled: string[] }> {
  const unhandled: string[] = [];
  const seen = (reason: unknown) => unhandled.push(reason instanceof Error ? reason.message : String(reason));
  process.on('unhandledRejection', seen);
  try {
    const value = await f();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    return { value, unhandled };
  } finally {
    process.off('unhandledRejection', seen);
  }
}

describe('preflight\'s early service reads', () => {
  it('begin before the kubeconfig check loads the Kubernetes client (their processes run during that load)', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    const order: string[] = [];
    const status = h.services.status.bind(h.services);
    h.services.status = async () => (order.push('status'), status());
    const check = h.deps.checkKubeconfig;
    h.deps.checkKubeconfig = async (p) => (order.push('kubeconfig'), check(p));
    expect(await startDns(h.deps, opts, sink)).toMatchObject({ ok: true });
    expect(order.slice(0, 2)).toEqual(['status', 'kubeconfig']);
  });

  it("the manager's reload question for the other units (askUnits) is asked once, before preflight's status and the kubeconfig check", async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    const order: string[] = [];
    const status = h.services.status.bind(h.services);
    h.services.status = async () => (order.push('status'), status());
    (h.services as ServiceManager).askUnits = () => void order.push('askUnits');
    const check = h.deps.checkKubeconfig;
    h.deps.checkKubeconfig = async (p) => (order.push('kubeconfig'), check(p));
    expect(await startDns(h.deps, opts, sink)).toMatchObject({ ok: true });
    expect(order.slice(0, 3)).toEqual(['askUnits', 'status', 'kubeconfig']);
    expect(order.filter((o) => o === 'askUnits')).toHaveLength(1);
  });

  it('a start refused for its kubeconfig (BAD_KUBECONFIG) leaves no unhandled rejection of the reads begun before', async () => {
    const { deps } = await hostWithFailingStatus('nameserver 192.0.2.53\n');
    deps.checkKubeconfig = async () => {
      throw new Error('no such file');
    };
    const { value: r, unhandled } = await unhandledDuring(() => startDns(deps, opts, sink));
    expect(r).toMatchObject({ ok: false, code: 'BAD_KUBECONFIG', exitCode: 3 });
    expect(unhandled).toEqual([]);
  });

  it('a start refused before they are awaited (RESOLV_CONF_TOO_LARGE) leaves no unhandled rejection', async () => {
    const { deps } = await hostWithFailingStatus(`nameserver 192.0.2.53\n${'#'.repeat(99)}\n`.repeat(1000));
    const { value: r, unhandled } = await unhandledDuring(() => startDns(deps, opts, sink));
    expect(r).toMatchObject({ ok: false, code: 'RESOLV_CONF_TOO_LARGE', exitCode: 3 });
    expect(unhandled).toEqual([]);
  });

  it('a status read that fails where it is awaited fails the start with its message, nothing unhandled', async () => {
    const h = await hostWithFailingStatus('nameserver 192.0.2.53\n');
    const deps = h.deps;
    const { value: r, unhandled } = await unhandledDuring(() => startDns(deps, opts, sink));
    expect(r.ok).toBe(false);
    expect(r.message).toContain('systemctl show timed out');
    expect(unhandled).toEqual([]);
    // Refused or failed before any change: the service was never started.
    expect(h.services.started).toEqual([]);
  });
});
