import { describe, expect, it } from 'vitest';
import { gaiLookup, gaiRcode, nodeLookupAll, type LookupAll } from './gai-lookup';

const failing = (code: string): LookupAll => (_name, cb) => cb(Object.assign(new Error(code), { code }), []);

describe('gaiLookup', () => {
  it('EAI_AGAIN is a temporary failure (TIMEOUT), never NXDOMAIN', async () => {
    const r = await gaiLookup('kubernetes.default.svc.cluster.local', 1000, failing('EAI_AGAIN'));
    expect(r.rcode).toBe('TIMEOUT');
    expect(r.error).toMatch(/^EAI_AGAIN: temporary failure/);
  });
  it('ENOTFOUND (EAI_NONAME) is NXDOMAIN; EAI_FAIL is ERROR', async () => {
    expect((await gaiLookup('x.test', 1000, failing('ENOTFOUND'))).rcode).toBe('NXDOMAIN');
    expect((await gaiLookup('x.test', 1000, failing('EAI_FAIL'))).rcode).toBe('ERROR');
    expect(gaiRcode(undefined).error).toBe('getaddrinfo failed: unknown error');
  });
  it('addresses become unique A/AAAA answers in order', async () => {
    const ok: LookupAll = (_n, cb) => cb(null, [{ address: '172.21.0.1', family: 4 }, { address: '172.21.0.1', family: 4 }, { address: 'fd00::1', family: 6 }]);
    const r = await gaiLookup('kubernetes.default.svc.cluster.local', 1000, ok);
    expect(r).toMatchObject({ rcode: 'NOERROR', server: 'system', transport: 'getaddrinfo' });
    expect(r.answers.map((a) => `${a.type} ${a.data}`)).toEqual(['A 172.21.0.1', 'AAAA fd00::1']);
  });
  it('a lookup that never returns is TIMEOUT after the deadline', async () => {
    const r = await gaiLookup('slow.test', 50, () => undefined);
    expect(r.rcode).toBe('TIMEOUT');
    expect(r.latencyMs).toBeGreaterThanOrEqual(45);
  });
  it('the real getaddrinfo answers localhost from /etc/hosts', async () => {
    const r = await gaiLookup('localhost', 5000, nodeLookupAll);
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers.map((a) => a.data)).toContain('127.0.0.1');
  });
});
