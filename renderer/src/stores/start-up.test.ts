import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { HealthReport } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';
import { startUp, type StartUpStores } from './start-up';

/** Fake stores that log every call in order; `refresh` answers when `answer()` is called. */
function fakes(health: HealthReport | undefined) {
  const log: string[] = [];
  let answer!: () => void;
  const report = { checkedAt: 1 } as HealthReport;
  const dns = createStore(() => ({
    status: null as HostDnsStatus | null,
    refresh: () => {
      log.push('dns:status');
      return new Promise<void>((resolve) => (answer = () => {
        dns.setState({ status: { state: 'stopped', ...(health ? { health } : {}) } as HostDnsStatus });
        log.push('status answered');
        resolve();
      }));
    },
  }));
  const healthStore = createStore(() => ({
    report: null as HealthReport | null,
    offer: (r: HealthReport | undefined) => log.push(`offer ${r?.checkedAt}`),
    check: async () => {
      log.push('health:check');
      healthStore.setState({ report });
    },
  }));
  const topology = createStore(() => ({ show: (r: HealthReport) => log.push(`topology ${r.checkedAt}`) }));
  return { log, answer: () => answer(), st: { dns, health: healthStore, topology } as unknown as StartUpStores };
}

describe('startUp: one status read first, then the views', () => {
  it('sends nothing else until the status answered, then paints its verdict without a new check', async () => {
    const f = fakes({ checkedAt: 42 } as HealthReport);
    const done = startUp(f.st, () => f.log.push('views'));
    await Promise.resolve();
    expect(f.log).toEqual(['dns:status']);
    f.answer();
    await done;
    expect(f.log).toEqual(['dns:status', 'status answered', 'offer 42', 'topology 42', 'views']);
  });

  it('checks the path once (for the verdict and the Topology) when the status carried no verdict', async () => {
    const f = fakes(undefined);
    const done = startUp(f.st, () => f.log.push('views'));
    f.answer();
    await done;
    await Promise.resolve();
    expect(f.log).toEqual(['dns:status', 'status answered', 'health:check', 'views', 'topology 1']);
  });

  it('a verdict marked rechecking (older than the cadence) is painted as last known on the verdict line only (not the Topology) and checked at once, not left until the next poll', async () => {
    const f = fakes({ checkedAt: 42, rechecking: true } as HealthReport);
    const done = startUp(f.st, () => f.log.push('views'));
    f.answer();
    await done;
    await Promise.resolve();
    // The Topology is not given the last known report (its hops would paint it as current): only the judged one.
    expect(f.log).toEqual(['dns:status', 'status answered', 'offer 42', 'health:check', 'views', 'topology 1']);
  });
});
