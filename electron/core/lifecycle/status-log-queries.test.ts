/**
 * Walk 24: the window's Logs panel showed an earlier run's rows with nothing saying the running
 * K2s DNS logs no query. status carries the running start's `--no-log-queries`
 * (HostDnsStatus.logQueries false) from its saved state; a start that logs queries, and a stop, carry none.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('status: a running start that logs no query', () => {
  it('--no-log-queries: logQueries false while it runs; absent after stop and for a start that logs', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, logQueries: false }, () => undefined)).ok).toBe(true);
    expect((await dnsStatus(h.deps, 'gui')).logQueries).toBe(false);
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect('logQueries' in (await dnsStatus(h.deps, 'gui'))).toBe(false);
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect('logQueries' in (await dnsStatus(h.deps, 'gui'))).toBe(false);
  });
});
