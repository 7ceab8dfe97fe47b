import { describe, expect, it } from 'vitest';
import { webInvoke } from './web-invoke';

/** A fetch that fails `failures` times with the browser's network error, then answers `body`. */
function flaky(failures: number, body: unknown) {
  const calls: { url: string; auth: string | null }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, auth: new Headers(init.headers).get('authorization') });
    if (calls.length <= failures) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

const noSleep = async () => undefined;

describe('webInvoke: read-only calls survive a dropped connection, lifecycle calls never repeat', () => {
  it('doctor:run after two network failures: the third try answers, with the bearer token each time', async () => {
    const f = flaky(2, { ok: true, value: [{ id: 'port-53', severity: 'error' }] });
    expect(await webInvoke(f.fetchFn, 'tok', 'doctor:run', {}, noSleep)).toEqual({ ok: true, value: [{ id: 'port-53', severity: 'error' }] });
    expect(f.calls).toEqual(Array(3).fill({ url: '/api/doctor:run', auth: 'Bearer tok' }));
  });

  it('three failures: a NETWORK error envelope that says what to check', async () => {
    const f = flaky(3, {});
    const r = (await webInvoke(f.fetchFn, 'tok', 'dns:status', {}, noSleep)) as { ok: boolean; error: { code: string; message: string } };
    expect(r.error.code).toBe('NETWORK');
    expect(r.error.message).toBe('The app backend does not answer (Failed to fetch): it was stopped or restarted. Start it again (npm start, npm run sandbox or k2s-dns ui) and open the new address it prints; each start has a new token.');
    expect(f.calls).toHaveLength(3);
  });

  it('dns:start, dns:stop and dns:uninstall are sent once: a lost answer is reported, never repeated', async () => {
    for (const call of ['dns:start', 'dns:stop', 'dns:uninstall']) {
      const f = flaky(1, { ok: true });
      const r = (await webInvoke(f.fetchFn, 'tok', call, {}, noSleep)) as { ok: boolean; error: { code: string } };
      expect(r.error.code, call).toBe('NETWORK');
      expect(f.calls, call).toHaveLength(1);
    }
  });
});
