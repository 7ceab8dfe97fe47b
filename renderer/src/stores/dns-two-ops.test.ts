/**
 * Walk 8 M1: `k2s-dns stop && k2s-dns start …` (the CLI fixes the app prints) run while the window
 * is open. Both operations can end between two of the window's 1 s status reads; the window then
 * showed the previous start for 25 s and more, or "STOP — FAILED … stop did not finish: K2s DNS is
 * running" for a stop that succeeded (its result was judged by the state the next start left).
 * Statuses as the bed's dns:status answered them (a stop's journal reads degraded in the sandbox's
 * PID namespace, cli-ops-live), fed to the real store's status reads in order.
 */
import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { HostDnsStatus } from '../../../shared/types';
import { buildTimeline } from '../lib/timeline';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { createDnsStore, journalEvents } from './dns';

const stopped = { state: 'stopped', resolverOwner: 'original', pid: null, engine: null, savedAt: null, listeners: [], operation: null } as unknown as HostDnsStatus;
/** dnsmasq started from the window: PID 5778, the original saved at 00:10:00. */
const dnsmasq = { ...stopped, state: 'running', resolverOwner: 'k2s', pid: 5778, engine: 'dnsmasq', savedAt: '2026-12-05T00:10:00.000Z' } as HostDnsStatus;
/** What the CLI's `start --engine adguard` after its stop made: PID 6430, saved anew. */
const adguard = { ...dnsmasq, pid: 6430, engine: 'adguard', savedAt: '2026-12-05T00:20:01.000Z' } as HostDnsStatus;
/** The CLI's stop (process 6400) at its stop-service step, its restore done (journal `done`). */
const stopping = {
  ...dnsmasq,
  state: 'degraded',
  operation: { op: 'stop', step: 'stop-service', pid: 6400, startedAt: '2026-12-05T00:20:00.000Z', done: [{ step: 'restore', status: 'done', message: 'Restored /etc/resolv.conf (the original saved at 00:10:00)' }] },
} as HostDnsStatus;

/** The real dns store whose status reads answer `statuses` in order (the last one repeats); the window's own Start already ended (its result is the timeline's). */
async function window(statuses: HostDnsStatus[]) {
  let i = 0;
  const api: K2sDnsApi = { ...inProcessApi(), dnsStatus: async () => statuses[Math.min(i++, statuses.length - 1)]! };
  const store = createDnsStore(api);
  store.getState().onEvent({ type: 'result', op: 'start', ok: true, exitCode: 0, message: 'Started K2s DNS (dnsmasq, PID 5778).', at: Date.parse('2026-12-05T00:10:01.000Z') });
  for (let n = 0; n < statuses.length; n++) await store.getState().refresh();
  return store;
}

describe('stop && start from the CLI, both ended between two status reads', () => {
  it('the read before saw the stop running: the stop is done (its proxy PID is gone), then the new start is the timeline\'s operation', async () => {
    const store = await window([dnsmasq, stopping, adguard]);
    const events = store.getState().events;
    const stop = events.find((e) => e.type === 'result' && e.op === 'stop');
    expect(stop).toMatchObject({ ok: true, message: 'Stopped k2s-dnsproxy (PID 5778): stop finished (run outside this window); a start followed.' });
    const t = buildTimeline(events);
    expect(t.op).toBe('start');
    expect(t.outcome).toBe('done');
    expect(t.result?.message).toBe('Started outside this window (e.g. from the CLI): K2s DNS is running.');
    expect(events.some((e) => e.type === 'result' && !e.ok)).toBe(false);
  });

  it('neither journal was seen (running before and after): the stop and the new start are both said, the start last', async () => {
    const store = await window([dnsmasq, adguard]);
    const results = store.getState().events.filter((e) => e.type === 'result').map((e) => e.message);
    expect(results.slice(1)).toEqual(['Stopped k2s-dnsproxy (PID 5778) outside this window (e.g. from the CLI); a start followed.', 'Started outside this window (e.g. from the CLI): K2s DNS is running.']);
    expect(buildTimeline(store.getState().events)).toMatchObject({ op: 'start', outcome: 'done' });
  });

  it('the same engine after `stop --on-drift keep && start`: a new PID and a new saved state are a new start', async () => {
    const again = { ...dnsmasq, pid: 7001, savedAt: '2026-12-05T00:30:02.000Z' } as HostDnsStatus;
    const store = await window([dnsmasq, stopping, again]);
    const t = buildTimeline(store.getState().events);
    expect(t.op).toBe('start');
    expect(t.result?.message).toBe('Started outside this window (e.g. from the CLI): K2s DNS is running.');
    expect(store.getState().events.some((e) => e.type === 'result' && !e.ok)).toBe(false);
  });

  it('the next read saw the start\'s journal: the stop gets its own result, then the start is followed from its journal', () => {
    const starting = { ...stopped, state: 'degraded', operation: { op: 'start', step: 'service', pid: 6410, startedAt: '2026-12-05T00:20:01.000Z' } } as HostDnsStatus;
    const events = journalEvents(stopping, starting, [], 50_000, null, 5778);
    expect(events[0]).toMatchObject({ type: 'result', op: 'stop', ok: true, message: 'Stopped k2s-dnsproxy (PID 5778): stop finished (run outside this window); start followed.' });
    expect(events.at(-1)).toMatchObject({ type: 'step', op: 'start', step: 'service', status: 'running' });
    expect(buildTimeline(events).op).toBe('start');
  });

  it('still a failed stop when the proxy it stopped runs on (same PID, same saved state)', () => {
    expect(journalEvents(stopping, dnsmasq, [], 50_000, null, 5778)).toEqual([{ type: 'result', op: 'stop', ok: false, exitCode: 1, message: 'stop did not finish: K2s DNS is running.', at: 50_000, outside: true }]);
  });

  it('a watchdog restart (new PID, same saved state) or a network follow (new PID, savedAt = the follow\'s time) is no stop and start', () => {
    expect(journalEvents(dnsmasq, { ...dnsmasq, pid: 5900 }, [], 50_000, null, 5778)).toEqual([]);
    const at = '2026-12-05T00:15:00.000Z';
    const followed = { ...dnsmasq, pid: 5901, savedAt: at, followedChange: { at } } as unknown as HostDnsStatus;
    expect(journalEvents(dnsmasq, followed, [], 50_000, null, 5778)).toEqual([]);
  });
});
