import { afterEach, describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { startDns } from './start';
import { FIXTURE_DISCOVERY, makeTestHost } from '../../../e2e/support/test-deps';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

// Discovery is not started before preflight: its zone policy needs the host's search domains and
// the remembered allowed zones, which preflight reads.
describe('start asks the API once, in the discover step', () => {
  it('asks the API once, after save, and uses that answer in the discover step', async () => {
    const h = await makeTestHost();
    cleanups.push(h.cleanup);
    const order: string[] = [];
    h.deps.discover = async () => {
      order.push('discover called');
      return FIXTURE_DISCOVERY;
    };
    const sink = (e: LifecycleEvent) => {
      if (e.type === 'step' && e.status !== 'running') order.push(`${e.step} ${e.status}`);
    };
    const r = await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' }, sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(order.filter((o) => o === 'discover called')).toHaveLength(1);
    expect(order.indexOf('discover called')).toBeGreaterThan(order.indexOf('save done'));
    expect(order.indexOf('discover done')).toBeGreaterThan(order.indexOf('save done'));
  });

  it('asks the API nothing when the start is refused for not being root', async () => {
    const h = await makeTestHost();
    cleanups.push(h.cleanup);
    h.world.uid = 1000;
    let calls = 0;
    h.deps.discover = async () => {
      calls += 1;
      return FIXTURE_DISCOVERY;
    };
    const r = await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf' }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT' });
    expect(calls).toBe(0);
  });

  it('a discovery failure still fails the discover step, after save, and rolls back', async () => {
    const h = await makeTestHost();
    cleanups.push(h.cleanup);
    h.world.discovery = new Error('The Kubernetes API server at https://127.0.0.1:6443 did not answer within 5000 ms.');
    const steps: string[] = [];
    const r = await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf' }, (e) => {
      if (e.type === 'step' && e.status !== 'running') steps.push(`${e.step} ${e.status}`);
    });
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(steps).toEqual(['preflight done', 'save done', 'discover failed', 'rollback done']);
  });
});
