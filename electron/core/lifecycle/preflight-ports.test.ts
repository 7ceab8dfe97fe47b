/**
 * preflight's port 53 check: every listener and protocol looked at at once (each is a bind,
 * host/port-holder.ts), judged in their order, so the refusal still names the first held one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDns } from './start';
import { makeTestHost, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});
const quiet = () => undefined;

describe('preflight: port holders', () => {
  it('asks about every listener and protocol before the first answer is in', async () => {
    const h = await makeTestHost();
    hosts.push(h);
    let inFlight = 0;
    let most = 0;
    const asked: string[] = [];
    h.deps.portHolder = async (port, proto, address) => {
      asked.push(`${address}:${port}/${proto}`);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return null;
    };
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(most).toBe(asked.length);
  });

  it('names the first held one in listener and protocol order, whichever answered first', async () => {
    const h = await makeTestHost();
    hosts.push(h);
    h.deps.portHolder = async (_port, proto) => {
      // tcp answers first; udp, asked first, is the one named.
      if (proto === 'udp') await new Promise((r) => setTimeout(r, 20));
      return { pid: proto === 'udp' ? 812 : 813, command: proto === 'udp' ? '/usr/sbin/dnsmasq' : '/usr/sbin/named' };
    };
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'PORT_IN_USE' });
    expect(r.message).toContain('/udp');
    expect(r.message).toContain('dnsmasq');
  });
});
