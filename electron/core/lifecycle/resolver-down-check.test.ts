/**
 * Stop's RESOLVER_DOWN check (resolver-down-check.ts) and `k2s-dns status`'s exit 5 are one rule
 * (shared/status-exit.ts resolverDownWords): on the same host state and the same answers, stop
 * finds "no name resolves" exactly when status exits 5, with the verdict's own summary.
 */
import { describe, expect, it } from 'vitest';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';
import type { HealthProbes } from '../health/check-health';
import { statusWithHealth } from '../health/status-with-health';
import { resolverDownMayHold, resolverDownWords, STATUS_EXIT, statusExitCode } from '../../../shared/status-exit';
import { resolverDownFrom } from './resolver-down-check';

const STATES: HostDnsStatus['state'][] = ['running', 'stopped', 'degraded', 'starting', 'stopping'];

/** A status in `state`; stopped ones carry no engine, listener or saved original (what status gives after a stop). */
function status(state: HostDnsStatus['state']): HostDnsStatus {
  const base: HostDnsStatus = {
    state, engine: 'adguard', engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [],
    resolverOwner: 'k2s', upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10',
    savedAt: '2026-12-01T00:00:00.000Z', savedBy: 'k2s-dns', pid: 4242, messages: [],
  };
  return state === 'stopped' ? { ...base, engine: null, listeners: [], resolverOwner: 'original', upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, pid: null } : base;
}

/** Probes over one world: `dead` — the kept file names 127.0.0.1 and 192.0.2.99, nothing answers; else every name resolves. */
function probes(state: HostDnsStatus['state'], dead: boolean, asked: string[]): HealthProbes {
  const ok = (name: string, server: string): QueryResult => ({ name, type: 'A', server, transport: 'udp', rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 5, data: '172.21.0.1' }], latencyMs: 1 });
  const down = (name: string, server: string): QueryResult => ({ name, type: 'A', server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 1, error: server.startsWith('192.0.2.99') ? 'connect ENETUNREACH' : 'recvmsg ECONNREFUSED' });
  return {
    status: async () => status(state),
    resolvConfText: async () => (dead ? 'nameserver 127.0.0.1\nnameserver 192.0.2.99\n' : state === 'stopped' ? 'nameserver 192.0.2.53\n' : '# Managed by K2s\nnameserver 127.0.0.1\n'),
    query: async (q) => {
      asked.push(`${q.server} ${q.name}`);
      return dead ? down(q.name, q.server) : ok(q.name, q.server);
    },
    lookup: async (name) => {
      asked.push(`getaddrinfo ${name}`);
      return dead
        ? { name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'TIMEOUT', answers: [], latencyMs: 3, error: 'getaddrinfo gave up at once (EAI_AGAIN)' }
        : { ...ok(name, 'system'), transport: 'getaddrinfo' };
    },
    now: () => 0,
  };
}

describe("stop's RESOLVER_DOWN and status's exit 5: one rule", () => {
  for (const state of STATES) {
    for (const dead of [true, false]) {
      it(`${state}, ${dead ? 'no nameserver answers' : 'names resolve'}: stop finds it down exactly when status exits 5`, async () => {
        const folded = await statusWithHealth(probes(state, dead, []), 'cli');
        const exit = statusExitCode(folded);
        const asked: string[] = [];
        const stop = await resolverDownFrom(probes(state, dead, asked));
        // Only a stopped host whose own resolver answers nothing is resolver-down (walk 6 L2, breaker 10 M3).
        expect(exit === STATUS_EXIT.resolverDown).toBe(state === 'stopped' && dead);
        expect(stop).toBe(exit === STATUS_EXIT.resolverDown ? folded.health!.verdict.summary : null);
        // No probe at all where the rule cannot hold: a stop pays for the check only when stopped.
        if (state !== 'stopped') expect(asked).toEqual([]);
      });
    }
  }

  it('the stopped, dead case in words: the verdict status prints, which stop warns with', async () => {
    expect(await resolverDownFrom(probes('stopped', true, []))).toMatch(/^No names resolve on this host: none of the nameservers in \/etc\/resolv\.conf answers \(.*\); K2s DNS is stopped, so this is the host's own resolver$/);
  });

  it('the rule itself: resolverDownWords holds exactly where statusExitCode is 5, for every state and verdict level', () => {
    for (const state of STATES) {
      expect(resolverDownMayHold(state)).toBe(state === 'stopped');
      for (const level of ['ok', 'warn', 'error', 'off'] as const) {
        const s = { state, health: { verdict: { level, resolves: level !== 'error', cause: 'ok' as const, hopId: null, summary: `summary ${level}`, action: null } } };
        expect(resolverDownWords(s)).toBe(state === 'stopped' && level === 'error' ? 'summary error' : null);
        expect(statusExitCode(s) === 5).toBe(resolverDownWords(s) !== null);
      }
      expect(resolverDownWords({ state })).toBeNull();
    }
  });
});
