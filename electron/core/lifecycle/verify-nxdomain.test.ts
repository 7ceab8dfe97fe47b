/**
 * The external verify name answered NXDOMAIN by the upstream (and so by the proxy): the step's
 * `!` (shared/step-warn.ts) and the result agree — a warning UPSTREAM_NO_ADDRESS, so the CLI says
 * "OK, WITH WARNINGS", not plain "OK".
 */
import { describe, expect, it } from 'vitest';
import type { LifecycleDeps } from './deps';
import type { QueryResult } from '../../../shared/types';
import { FIXTURE_DISCOVERY } from '../../../e2e/support/test-deps';
import { stepWarns } from '../../../shared/step-warn';
import { printEvent } from '../../cli/print';
import { verifyDns } from './verify';

const CLUSTER = 'kubernetes.default.svc.cluster.local';
const reply = (name: string, server: string, rcode: string, data: string[]): QueryResult => ({ name, type: 'A', server, transport: 'udp', rcode, answers: data.map((d) => ({ name, type: 'A', ttl: 30, data: d })), latencyMs: 1 });

/** The proxy resolves the cluster name; every external name is NXDOMAIN (the upstream's and the proxy's). */
const deps = {
  now: () => 0,
  sleep: async () => undefined,
  query: async ({ name, server }: { name: string; server: string }) => (name === CLUSTER ? reply(name, server, 'NOERROR', ['172.21.0.1']) : reply(name, server, 'NXDOMAIN', [])),
  systemLookup: async (name: string) => ({ ...reply(name, 'system', 'NOERROR', ['172.21.0.1']), transport: 'getaddrinfo' as const }),
} as unknown as LifecycleDeps;

describe('verify when the upstream says NXDOMAIN for the external name', () => {
  it('passes with the warning UPSTREAM_NO_ADDRESS; the step mark and the summary line agree', async () => {
    const v = await verifyDns(deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'kubernetes.io');
    expect(v.summary).toBe(`${CLUSTER} → 172.21.0.1 through the proxy and getaddrinfo; kubernetes.io: nxdomain as from 192.0.2.53`);
    expect(stepWarns('verify', 'done', v.summary)).toBe(true);
    expect(v.warningCode).toBe('UPSTREAM_NO_ADDRESS');
    expect(v.warning).toBe('Your nameserver 192.0.2.53 answered kubernetes.io with NXDOMAIN, so it may not resolve Internet names; if kubernetes.io should resolve, check it with npx k2s-dns query kubernetes.io --server 192.0.2.53, or start again with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with the IP address of one that does) (or --verify-name NAME for a name it serves).');
    const lines: string[] = [];
    printEvent({ type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is running.', at: 0, warnings: [{ code: v.warningCode!, message: v.warning! }] } as never, false, (s) => lines.push(s));
    expect(lines[0]).toMatch(/^OK, WITH WARNINGS: /);
  });

  it('an address from the upstream: no warning', async () => {
    const ok = { ...deps, query: async ({ name, server }: { name: string; server: string }) => reply(name, server, 'NOERROR', [name === CLUSTER ? '172.21.0.1' : '198.51.100.7']) } as unknown as LifecycleDeps;
    const v = await verifyDns(ok, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test');
    expect(v).toMatchObject({ warning: null });
    expect(v.warningCode).toBeUndefined();
  });
});
