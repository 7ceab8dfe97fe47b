import { describe, expect, it } from 'vitest';
import { dispatch } from './dispatch';
import { createFakeBackend } from '../../e2e/support/backend-fake';
import type { LifecycleEvent } from '../../shared/lifecycle-events';

describe('dispatch', () => {
  it('returns data from the backend for a valid call', async () => {
    const b = createFakeBackend();
    const r = await dispatch(b, 'zones:list', {});
    expect(r.ok).toBe(true);
    const zones = (r as { data: { zones: { zone: string; upstream: string }[] } }).data.zones;
    expect(zones.map((z) => `${z.zone} → ${z.upstream}`)).toEqual([
      'cluster.local → 172.21.0.10',
      '21.172.in-addr.arpa → 172.21.0.10',
      '20.172.in-addr.arpa → 172.21.0.10',
    ]);
  });

  it('treats an undefined payload of an input-less call as {}', async () => {
    const r = await dispatch(createFakeBackend(), 'cluster:status', undefined);
    expect(r).toMatchObject({ ok: true, data: { state: 'ok', version: 'v1.33.3', kubeDnsIp: '172.21.0.10' } });
  });

  it('rejects unknown calls, including prototype names', async () => {
    const b = createFakeBackend();
    expect(await dispatch(b, 'dns:format', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    expect(await dispatch(b, '__proto__', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('rejects unknown fields and too long names with a message naming the field', async () => {
    const b = createFakeBackend();
    const r1 = await dispatch(b, 'dns:stop', { onDrift: 'keep', force: true });
    expect(r1).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Invalid input for dns:stop: Unrecognized key: "force".' } });
    const r2 = await dispatch(b, 'query:run', { name: 'a'.repeat(300), type: 'A', target: 'proxy', transport: 'udp' });
    expect(r2).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect((r2 as { error: { message: string } }).error.message).toMatch(/^Invalid input for query:run: name: Too big: expected string to have <=253 characters/);
  });

  it('only queries servers from the targets list', async () => {
    const b = createFakeBackend({ running: true });
    const bad = await dispatch(b, 'query:run', { name: 'example.com', type: 'A', target: '8.8.8.8:53', transport: 'udp' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const good = await dispatch(b, 'query:run', { name: 'kubernetes.default.svc.cluster.local', type: 'A', target: '172.21.0.10:53', transport: 'tcp' });
    expect(good).toMatchObject({ ok: true, data: { rcode: 'NOERROR', server: '172.21.0.10:53', answers: [{ data: '172.21.0.1', ttl: 30 }] } });
  });

  it('runs one lifecycle operation at a time', async () => {
    const b = createFakeBackend({ stepDelayMs: 1 });
    const events: LifecycleEvent[] = [];
    b.onLifecycleEvent((e) => events.push(e));
    const first = dispatch(b, 'dns:start', { engine: 'dnsmasq' });
    const second = await dispatch(b, 'dns:stop', {});
    expect(second).toEqual({ ok: false, error: { code: 'BUSY', message: 'Cannot run dns:stop while dns:start is running; wait for it to finish.' } });
    expect(await first).toMatchObject({ ok: true, data: { type: 'result', op: 'start', ok: true, exitCode: 0 } });
    const done = events.filter((e) => e.type === 'step' && e.status === 'done').map((e) => (e.type === 'step' ? e.step : ''));
    expect(done).toEqual(['preflight', 'save', 'discover', 'config', 'service', 'activate', 'verify', 'ready']);
    expect(await dispatch(b, 'dns:status', {})).toMatchObject({ ok: true, data: { state: 'running', engine: 'adguard', listeners: [{ address: '127.0.0.1', port: 53 }] } });
  });

  it('passes backend error codes through as data', async () => {
    const b = createFakeBackend();
    b.clusterStatus = async () => {
      throw Object.assign(new Error('No kubeconfig at /root/.kube/config: run k2s install or pass --kubeconfig.'), { code: 'NO_KUBECONFIG' });
    };
    expect(await dispatch(b, 'cluster:status', {})).toEqual({
      ok: false,
      error: { code: 'NO_KUBECONFIG', message: 'No kubeconfig at /root/.kube/config: run k2s install or pass --kubeconfig.' },
    });
  });

  it('reports a rollback with the failing step', async () => {
    const b = createFakeBackend({ stepDelayMs: 1, failAt: 'verify' });
    const events: LifecycleEvent[] = [];
    b.onLifecycleEvent((e) => events.push(e));
    const r = await dispatch(b, 'dns:start', {});
    expect(r).toMatchObject({ ok: true, data: { ok: false, exitCode: 1, code: 'VERIFY_FAILED' } });
    expect(events.find((e) => e.type === 'step' && e.status === 'failed')).toMatchObject({ step: 'verify' });
    expect(events.some((e) => e.type === 'step' && e.step === 'rollback' && e.status === 'done')).toBe(true);
    expect(await dispatch(b, 'dns:status', {})).toMatchObject({ ok: true, data: { state: 'stopped', resolverOwner: 'original' } });
  });
});
