import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';
import { createHealthCache, statusFingerprint } from './health-cache';

const status = (state: HostDnsStatus['state'], pid: number | null = 7) => ({ state, resolverOwner: 'k2s', pid, listeners: [{ address: '127.0.0.1', port: 53 }], savedAt: 'x', operation: null }) as unknown as HostDnsStatus;
const report = (at: number): HealthReport => ({ name: 'n', domainSource: 'state', hops: [], checkedAt: at, durationMs: 1, verdict: { level: 'ok', resolves: true, cause: 'ok', hopId: null, summary: 's', action: null } });

describe('health cache', () => {
  it('runs once per state and reuses the report while it is young', async () => {
    let t = 1000;
    let runs = 0;
    const cache = createHealthCache(async () => report(t + runs++ * 0), () => t, 5000);
    expect((await cache.forStatus(status('running'), 1000))?.checkedAt).toBe(1000);
    t = 3000;
    await cache.forStatus(status('running'), 1000);
    expect(runs).toBe(1);
    t = 7000; // older than 5 s
    await cache.forStatus(status('running'), 1000);
    expect(runs).toBe(2);
    await cache.forStatus(status('running', 8), 1000); // proxy restarted: another fingerprint
    expect(runs).toBe(3);
  });
  it('joins a check in flight and gives null when it outlasts the wait', async () => {
    let release!: (r: HealthReport) => void;
    let runs = 0;
    const cache = createHealthCache(() => {
      runs++;
      return new Promise<HealthReport>((resolve) => (release = resolve));
    }, () => 0);
    expect(await cache.forStatus(status('stopped'), 20)).toBeNull();
    const fresh = cache.check(status('stopped'));
    expect(runs).toBe(1);
    release(report(0));
    expect((await fresh).verdict.cause).toBe('ok');
    expect(statusFingerprint(status('stopped'))).toBe('stopped|k2s|7|127.0.0.1:53|-|x|-');
    // The restart in progress is part of it (walk 12 M1): a report without it does not fit a status with it.
    expect(statusFingerprint({ ...status('degraded'), pid: null, watchdogRestart: { restarts: 1, max: 6 } })).toBe('degraded|k2s|-|127.0.0.1:53|-|x|watchdog 1');
    expect(statusFingerprint({ ...status('degraded'), pid: null, serviceRestart: { attempt: 5, lastExit: null, reason: null, gaveUp: true } })).toBe('degraded|k2s|-|127.0.0.1:53|-|x|systemd 5 gave up');
  });
  it('a report older than the cadence, handed out while the new check runs, is marked rechecking (new-user finding: a window opened 35 s into an outage showed the old green as current)', async () => {
    let t = 1000;
    let release: ((r: HealthReport) => void) | null = null;
    const cache = createHealthCache((): Promise<HealthReport> => (release === null ? Promise.resolve(report(t)) : new Promise((resolve) => (release = resolve))), () => t, 5000);
    const first = await cache.forStatus(status('running'), 1000);
    expect(first?.checkedAt).toBe(1000);
    expect(first?.rechecking).toBeUndefined();
    // 35 s later, the new check outlasts the wait: the old report, marked.
    t = 36_000;
    release = () => {};
    const old = await cache.forStatus(status('running'), 20);
    expect(old).toMatchObject({ checkedAt: 1000, rechecking: true });
    // The check ends: the new report, unmarked.
    release!(report(38_000));
    const fresh = await cache.check(status('running'));
    expect(fresh.checkedAt).toBe(38_000);
    expect(fresh.rechecking).toBeUndefined();
    t = 39_000;
    expect((await cache.forStatus(status('running'), 20))?.rechecking).toBeUndefined();
  });
});
