/**
 * Walk 10 L7: `k2s-dns stop --on-drift keep` from the CLI left a file whose nameserver does not
 * answer; the CLI ended with exit 5 and RESOLVER_DOWN, the verdict said "No names resolve on this
 * host…", yet the window's timeline said "STOP — DONE": the result it made up for the outside stop
 * was ok, exit 0, no warnings. Statuses fed to the real store's status reads in order; the path
 * check comes a read after the stopped state (a dead nameserver's probe waits for its timeout).
 */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { HostDnsStatus } from '../../../shared/types';
import type { HealthReport, HealthVerdict } from '../../../shared/health-report';
import { statusFingerprint } from '../../../shared/health';
import { buildTimeline } from '../lib/timeline';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { createDnsStore } from './dns';

const stopped = { state: 'stopped', resolverOwner: 'original', pid: null, engine: null, savedAt: null, listeners: [], operation: null } as unknown as HostDnsStatus;
const running = { ...stopped, state: 'running', resolverOwner: 'k2s', pid: 5778, engine: 'dnsmasq', savedAt: '2026-12-05T00:10:00.000Z' } as HostDnsStatus;

/** The stopped status with a path check for it, made `ago` ms before now, whose verdict is `verdict`. */
function checked(verdict: Pick<HealthVerdict, 'level' | 'resolves' | 'cause' | 'summary' | 'action'>, ago = 0): HostDnsStatus {
  const health: HealthReport = { name: 'kubernetes.default.svc.cluster.local', domainSource: 'default', hops: [], verdict: { hopId: null, ...verdict }, checkedAt: Date.now() - ago, durationMs: 1200, forStatus: statusFingerprint(stopped) };
  return { ...stopped, health };
}
const DEAD = 'No names resolve on this host: nothing answers on 127.0.0.53:53 (/etc/resolv.conf lists only 127.0.0.53; K2s DNS is stopped)';
const noDns = checked({ level: 'error', resolves: false, cause: 'no-nameserver', summary: DEAD, action: 'fix-resolver' });

/** The real dns store whose status reads answer `statuses` in order (the last one repeats). */
async function window(statuses: HostDnsStatus[]) {
  let i = 0;
  const api: K2sDnsApi = { ...inProcessApi(), dnsStatus: async () => statuses[Math.min(i++, statuses.length - 1)]! };
  const store = createDnsStore(api);
  for (let n = 0; n < statuses.length; n++) await store.getState().refresh();
  return store;
}

describe('a stop run outside the window that left no name resolving', () => {
  it('the check after it says no name resolves: the stop is done, with warnings (RESOLVER_DOWN, exit 5), as the CLI ended', async () => {
    const store = await window([running, stopped, noDns]);
    const t = buildTimeline(store.getState().events);
    expect(t.op).toBe('stop');
    expect(t.outcome).toBe('warned');
    expect(t.result).toMatchObject({ ok: true, exitCode: 5, outside: true, warnings: [{ code: 'RESOLVER_DOWN', message: `${DEAD}, checked after this stop: see the verdict for the fix.` }] });
    // One result: the warning is added to the stop's, never a second stop.
    expect(store.getState().events.filter((e) => e.type === 'result')).toHaveLength(1);
  });

  it('the check came with the stopped state itself: the same', async () => {
    const store = await window([running, noDns]);
    expect(buildTimeline(store.getState().events)).toMatchObject({ op: 'stop', outcome: 'warned', result: { exitCode: 5 } });
  });

  it('names resolve after it (the original put back): done, exit 0, no warning', async () => {
    const ok = checked({ level: 'off', resolves: true, cause: 'ok-without-k2s', summary: 'kubernetes.default.svc.cluster.local resolves without K2s DNS', action: null });
    const store = await window([running, stopped, ok]);
    expect(buildTimeline(store.getState().events)).toMatchObject({ op: 'stop', outcome: 'done', result: { exitCode: 0 } });
    expect(buildTimeline(store.getState().events).result?.warnings).toBeUndefined();
  });

  it('a check from long before the stop (an earlier stopped time, the same fingerprint) is not the check after it', async () => {
    const store = await window([running, checked({ level: 'error', resolves: false, cause: 'no-nameserver', summary: DEAD, action: 'fix-resolver' }, 120_000)]);
    expect(buildTimeline(store.getState().events)).toMatchObject({ op: 'stop', outcome: 'done' });
  });

  it("the window's own stop keeps its own result (not made up here): untouched", async () => {
    let i = 0;
    const statuses = [running, noDns];
    const api: K2sDnsApi = { ...inProcessApi(), dnsStatus: async () => statuses[Math.min(i++, statuses.length - 1)]! };
    const store = createDnsStore(api);
    await store.getState().refresh();
    store.getState().onEvent({ type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped; the host resolver is back as it was.', at: Date.now() });
    await store.getState().refresh();
    expect(buildTimeline(store.getState().events)).toMatchObject({ outcome: 'done', result: { exitCode: 0 } });
  });
});
