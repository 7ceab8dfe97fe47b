import { describe, expect, it } from 'vitest';
import { ApiError, CALL_NAMES, CONTRACT, isCallName, methodName, unwrap } from './contract';
import { buildApi } from './api';

describe('contract', () => {
  it('lists every call with a derived method name', () => {
    expect(CALL_NAMES).toEqual([
      'cluster:status', 'dns:status', 'dns:start', 'dns:stop', 'dns:uninstall', 'zones:list',
      'resolver:diff', 'query:run', 'query:targets', 'logs:tail', 'logs:page', 'logs:search', 'logs:exact', 'app:info', 'doctor:run', 'health:check',
    ]);
    expect(CALL_NAMES.map(methodName)).toEqual([
      'clusterStatus', 'dnsStatus', 'dnsStart', 'dnsStop', 'dnsUninstall', 'zonesList',
      'resolverDiff', 'queryRun', 'queryTargets', 'logsTail', 'logsPage', 'logsSearch', 'logsExact', 'appInfo', 'doctorRun', 'healthCheck',
    ]);
  });

  it('does not treat prototype keys as calls', () => {
    expect(isCallName('__proto__')).toBe(false);
    expect(isCallName('toString')).toBe(false);
    expect(isCallName('dns:start')).toBe(true);
  });

  it('rejects unknown fields (strict) on every call', () => {
    for (const call of CALL_NAMES) {
      const r = CONTRACT[call].input.safeParse({ evil: 1 });
      expect(r.success, call).toBe(false);
      expect(r.error!.issues.map((i) => i.code), call).toContain('unrecognized_keys');
    }
  });

  it('validates query:run names, types, targets and transports', () => {
    const q = CONTRACT['query:run'].input;
    const ok = { name: 'kubernetes.default.svc.cluster.local', type: 'A', target: 'proxy', transport: 'udp' };
    expect(q.parse(ok)).toEqual(ok);
    expect(q.safeParse({ ...ok, name: 'a'.repeat(254) }).error!.issues[0]!.message).toBe('Too big: expected string to have <=253 characters');
    expect(q.safeParse({ ...ok, name: 'x; rm -rf /' }).success).toBe(false);
    expect(q.safeParse({ ...ok, type: 'ANY' }).success).toBe(false);
    expect(q.safeParse({ ...ok, transport: 'doh' }).success).toBe(false);
    expect(q.safeParse({ ...ok, target: '192.168.178.1:53' }).success).toBe(true);
    expect(q.safeParse({ ...ok, target: '[fd00::1]:53' }).success).toBe(true);
    expect(q.safeParse({ ...ok, target: 'evil.example.com' }).success).toBe(false);
    expect(q.safeParse({ ...ok, name: '.' , type: 'NS' }).success).toBe(true);
  });

  it('validates dns:start and logs:tail bounds', () => {
    const s = CONTRACT['dns:start'].input;
    expect(s.parse({ engine: 'dnsmasq', kubeSwitch: 'none' })).toEqual({ engine: 'dnsmasq', kubeSwitch: 'none' });
    expect(s.safeParse({ kubeSwitch: '172.19.1.256' }).success).toBe(false);
    // Regression: the page can never name a kubeconfig path (main accepted one).
    expect(s.safeParse({ kubeconfig: '/root/.kube/config' }).success).toBe(false);
    expect(CONTRACT['zones:list'].input.safeParse({ kubeconfig: '/home/eve/evil-kubeconfig' }).success).toBe(false);
    expect(s.safeParse({ engine: 'unbound' }).success).toBe(false);
    const t = CONTRACT['logs:tail'].input;
    expect(t.safeParse({ lines: 5000 }).success).toBe(true);
    expect(t.safeParse({ lines: 5001 }).success).toBe(false);
    expect(t.safeParse({ lines: 0 }).success).toBe(false);
    expect(t.safeParse({ lines: 1.5 }).success).toBe(false);
  });

  it('unwraps envelopes and rebuilds ApiError', () => {
    expect(unwrap({ ok: true, data: 42 })).toBe(42);
    expect(() => unwrap({ ok: false, error: { code: 'BUSY', message: 'wait' } })).toThrow(ApiError);
    expect(() => unwrap({ ok: false, error: { code: 'BUSY', message: 'wait' } })).toThrow('wait');
    expect(() => unwrap('garbage')).toThrow('malformed reply');
  });

  it('buildApi sends {} for input-less calls and throws typed errors', async () => {
    const sent: [string, unknown][] = [];
    const api = buildApi(
      async (call, input) => {
        sent.push([call, input]);
        return call === 'dns:stop' ? { ok: false, error: { code: 'BUSY', message: 'Cannot stop now.' } } : { ok: true, data: call };
      },
      () => () => {},
    );
    expect(await api.dnsStatus()).toBe('dns:status');
    expect(await api.logsTail({ lines: 10 })).toBe('logs:tail');
    await expect(api.dnsStop({})).rejects.toThrow('Cannot stop now.');
    await expect(api.dnsStop({})).rejects.toMatchObject({ name: 'ApiError', code: 'BUSY' });
    expect(sent.slice(0, 2)).toEqual([['dns:status', {}], ['logs:tail', { lines: 10 }]]);
  });
});

describe('logs:page and logs:search inputs', () => {
  it('bounds the page and search sizes and refuses a multi-line search text', () => {
    const page = CONTRACT['logs:page'].input;
    expect(page.safeParse({ lines: 5000, before: { ino: 12, offset: 0 } }).success).toBe(true);
    expect(page.safeParse({ lines: 5001 }).success).toBe(false);
    expect(page.safeParse({ lines: 10, before: { ino: -1, offset: 0 } }).success).toBe(false);
    const search = CONTRACT['logs:search'].input;
    expect(search.safeParse({ text: 'web.demo', lines: 100, context: 30 }).success).toBe(true);
    expect(search.safeParse({ text: 'a\nb', lines: 100, context: 30 }).success).toBe(false);
    expect(search.safeParse({ text: '', lines: 100, context: 30 }).success).toBe(false);
    expect(search.safeParse({ text: 'x', lines: 100, context: 51 }).success).toBe(false);
  });
});
