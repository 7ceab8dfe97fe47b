import { describe, expect, it } from 'vitest';
import { healthVerdict, queryHop, type HealthHop } from '../../../shared/health';
import type { QueryResult } from '../../../shared/types';
import { driftLead } from './drift-lead';

const r = (server: string, rcode: string, answers: string[] = []): QueryResult => ({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server, transport: server === 'system' ? 'getaddrinfo' : 'udp', rcode, answers: answers.map((data) => ({ name: 'x.', type: 'A', ttl: 5, data })), latencyMs: 3 });
const foreign: HealthHop = { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'foreign', ok: false, answers: ['192.0.2.53'], rcode: null, reason: 'rewritten', latencyMs: null };

describe('drift banner and verdict say the same', () => {
  it('"do not resolve" under a verdict that says so, "still resolve" under one that says it resolves', () => {
    for (const [system, word] of [[r('system', 'NXDOMAIN'), 'do not resolve'], [r('system', 'NOERROR', ['172.21.0.1']), 'still resolve']] as const) {
      const v = healthVerdict({ hops: [queryHop('system', 'system', system), foreign, queryHop('listener:127.0.0.1:53', 'listener', r('127.0.0.1:53', 'NOERROR', ['172.21.0.1']))], state: 'degraded', interrupted: false });
      expect(v.cause).toBe('drift');
      expect(driftLead(v.resolves)).toContain(word);
      expect(driftLead(v.resolves)).not.toContain('may no longer');
    }
  });
});
