/**
 * A user who cannot read root's saved state while K2s DNS runs (new-user report, session 30: with
 * the upstream down `status` as nobody said "running", rc 0, doctor 0 errors, the window green):
 * the hops probe the listeners and upstreams the running proxy's config names, marked so, and
 * the verdict is root's.
 */
import { describe, expect, it } from 'vitest';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';
import { checkHealth, pathTargets, type HealthProbes } from './check-health';

const CONFIG = '/etc/k2s/dnsproxy.yaml';

/** Status as status.ts gives it to uid 65534 while an AdGuard proxy runs. */
function userStatus(facts: HostDnsStatus['configFacts'] | undefined): HostDnsStatus {
  return { state: 'running', engine: 'adguard', engineVersion: null, pid: 812, listeners: [], skippedListeners: [], resolverOwner: 'k2s', upstreams: [], clusterDomain: null, kubeDnsIp: '172.21.0.10', savedAt: null, savedBy: null, messages: [], operation: null, proxyFilesLeft: true, resolverStamp: 'x', stateUnreadable: 'root only', ...(facts ? { configFacts: facts } : {}) } as unknown as HostDnsStatus;
}

const FACTS = { file: CONFIG, listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], upstreams: ['192.0.2.53'], zones: [] };

/** Every server answers the cluster name; `down` times out. */
function probes(status: HostDnsStatus, down: string[]): HealthProbes & { asked: string[] } {
  const asked: string[] = [];
  const answer = (name: string, server: string): QueryResult => ({ name, type: 'A', server, rcode: 'NOERROR', answers: ['172.21.0.1'], latencyMs: 2 }) as unknown as QueryResult;
  return {
    asked,
    status: async () => status,
    resolvConfText: async () => '# k2s-dns\nnameserver 127.0.0.1\n',
    lookup: async (name) => answer(name, 'getaddrinfo'),
    query: async ({ name, server }) => {
      asked.push(server);
      return down.includes(server) ? ({ name, type: 'NS', server, rcode: 'TIMEOUT', answers: [], latencyMs: null, error: 'no answer within 1500 ms' } as unknown as QueryResult) : answer(name, server);
    },
    now: () => 1_000,
  };
}

describe("a user's health path: listeners and upstreams from the running proxy's config", () => {
  it('upstream down: the upstream hop fails and the verdict is upstream-down, as root sees it', async () => {
    const p = probes(userStatus(FACTS), ['192.0.2.53:53']);
    const r = await checkHealth(p);
    expect(p.asked).toEqual(expect.arrayContaining(['127.0.0.1:53', '172.19.1.1:53', '192.0.2.53:53']));
    expect(r.hops.filter((h) => h.kind === 'listener' || h.kind === 'upstream').map((h) => `${h.id} ${h.outcome} ${h.fromConfig}`)).toEqual([
      `listener:127.0.0.1:53 answer ${CONFIG}`,
      `listener:172.19.1.1:53 answer ${CONFIG}`,
      `upstream:192.0.2.53 timeout ${CONFIG}`,
    ]);
    expect(r.verdict).toMatchObject({ level: 'error', cause: 'upstream-down' });
  });

  it('upstream up: ok, and the state-reading path has no config mark', async () => {
    expect((await checkHealth(probes(userStatus(FACTS), []))).verdict.level).toBe('ok');
    const root = { ...userStatus(undefined), stateUnreadable: undefined, listeners: [{ address: '127.0.0.1', port: 53 }], upstreams: ['192.0.2.53'] } as HostDnsStatus;
    const r = await checkHealth(probes(root, ['192.0.2.53:53']));
    expect(r.verdict.cause).toBe('upstream-down');
    expect(r.hops.some((h) => h.fromConfig !== undefined)).toBe(false);
  });

  it('pathTargets: the config only for a user while the proxy runs and the state gave none', () => {
    expect(pathTargets(userStatus(FACTS))).toEqual({ listeners: FACTS.listeners, upstreams: ['192.0.2.53'], fromConfig: CONFIG });
    expect(pathTargets({ ...userStatus(FACTS), state: 'stopped' })).toEqual({ listeners: [], upstreams: [], fromConfig: null });
    expect(pathTargets(userStatus(undefined))).toEqual({ listeners: [], upstreams: [], fromConfig: null });
  });
});
