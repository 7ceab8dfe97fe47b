/**
 * Issue 20, H1: a Diagnostics result taken while a CLI `stop; start` ran said "K2s DNS is
 * stopping; the path is checked again when it is done", and the panel still showed it 30 s
 * later: nothing ran the checks again. The window follows the operation from the status (its
 * journal) and runs them again once a status read shows it ended.
 */
import { describe, expect, it, vi } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { DoctorFinding } from '../../../shared/doctor';
import type { HostDnsStatus } from '../../../shared/types';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { createDiagnosticsStore } from './diagnostics';
import { followHostForDiagnostics } from './diagnostics-follow';
import { createDnsStore } from './dns';

/** The doctor's findings mid-operation, as the real backend gives them (electron/core/doctor/health.ts, port53.ts). */
const BUSY: DoctorFinding[] = [
  { id: 'health', severity: 'warn', title: 'K2s DNS is stopping; the path is checked again when it is done', meaning: 'x', fix: null, detail: { verdict: { level: 'warn', cause: 'busy' } } },
  { id: 'port-53', severity: 'info', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours) during a k2s-dns start', meaning: 'x', fix: null, detail: { pid: 11370, ours: true, operation: { op: 'start', step: 'service', pid: 11321 } } },
];
const DONE: DoctorFinding[] = [
  { id: 'health', severity: 'ok', title: 'Cluster names resolve on this host through K2s DNS', meaning: 'x', fix: null, detail: { verdict: { level: 'ok', cause: 'ok' } } },
  { id: 'port-53', severity: 'ok', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)', meaning: 'x', fix: null, detail: { pid: 11370, ours: true } },
];

/** A host whose status and doctor answers the test sets; counts doctor runs. */
async function host() {
  const base = inProcessApi({ running: true });
  const running = await base.dnsStatus();
  const world = { status: running as HostDnsStatus, findings: BUSY, doctorRuns: 0 };
  const api: K2sDnsApi = {
    ...base,
    // Each read is a new object, as each answer of the real transport is (parsed JSON).
    dnsStatus: async () => ({ ...world.status }),
    doctorRun: async () => {
      world.doctorRuns++;
      return world.findings;
    },
  };
  const dns = createDnsStore(api);
  let clock = 1_000;
  const diagnostics = createDiagnosticsStore(api, () => (clock += 1000), () => dns.getState().status?.resolverStamp ?? null);
  const off = followHostForDiagnostics(dns, diagnostics);
  const starting: HostDnsStatus = { ...running, state: 'starting', operation: { op: 'start', step: 'service', pid: 11321, startedAt: new Date(0).toISOString() } };
  return { world, dns, diagnostics, off, running, starting };
}

describe('Diagnostics taken during an operation are checked again when it ends', () => {
  it('a CLI start followed from its journal: the busy result is replaced by a fresh check once a status read shows it ended', async () => {
    const h = await host();
    h.world.status = h.starting;
    await h.dns.getState().refresh();
    await h.diagnostics.getState().run();
    expect(h.diagnostics.getState().findings).toEqual(BUSY);
    const busyAt = h.diagnostics.getState().ranAt;
    // Still starting: no run while the operation goes on.
    await h.dns.getState().refresh();
    expect(h.world.doctorRuns).toBe(1);
    // The CLI's start ends (its journal is gone): the next status read runs the checks again.
    h.world.status = h.running;
    h.world.findings = DONE;
    await h.dns.getState().refresh();
    await vi.waitFor(() => expect(h.diagnostics.getState().findings).toEqual(DONE));
    expect(h.world.doctorRuns).toBe(2);
    expect(h.diagnostics.getState().ranAt).toBeGreaterThan(busyAt!);
    // A fresh result is not run again on later reads.
    await h.dns.getState().refresh();
    await h.dns.getState().refresh();
    expect(h.world.doctorRuns).toBe(2);
    h.off();
  });

  it('an operation the window never saw (it ended between two status reads): the next read replaces the busy result', async () => {
    const h = await host();
    await h.dns.getState().refresh();
    // The doctor saw the CLI's stop; by the time its findings land the window's status shows none.
    await h.diagnostics.getState().run();
    expect(h.diagnostics.getState().findings).toEqual(BUSY);
    h.world.findings = DONE;
    await h.dns.getState().refresh();
    await vi.waitFor(() => expect(h.diagnostics.getState().findings).toEqual(DONE));
    expect(h.world.doctorRuns).toBe(2);
    h.off();
  });

  it('this window\'s own operation: nothing runs while it is busy', async () => {
    const h = await host();
    await h.dns.getState().refresh();
    await h.diagnostics.getState().run();
    h.dns.setState({ busy: 'stop' });
    await h.dns.getState().refresh();
    expect(h.world.doctorRuns).toBe(1);
    h.world.findings = DONE;
    h.dns.setState({ busy: null });
    await vi.waitFor(() => expect(h.diagnostics.getState().findings).toEqual(DONE));
    h.off();
  });

  it('findings taken with no operation in progress are not run again by status reads', async () => {
    const h = await host();
    h.world.findings = DONE;
    await h.dns.getState().refresh();
    await h.diagnostics.getState().run();
    await h.dns.getState().refresh();
    await h.dns.getState().refresh();
    expect(h.world.doctorRuns).toBe(1);
    h.off();
  });
});
