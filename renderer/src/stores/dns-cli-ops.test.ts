/**
 * Issue 20 medium, "the Host DNS timeline goes stale after a CLI start or stop": every CLI start
 * and stop the status poll sees becomes the timeline's latest operation, also when status reads
 * the CLI's journal as interrupted (`degraded`: in the sandbox's PID namespace /proc/locks hides
 * the CLI's lock), as the sandbox's real backend reported it (e2e/ui/cli-ops-live.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../../shared/types';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { buildTimeline } from '../lib/timeline';
import { journalEvents } from './dns';

const stopped = { state: 'stopped', resolverOwner: 'original', pid: null, listeners: [], operation: null } as unknown as HostDnsStatus;
const running = { ...stopped, state: 'running', resolverOwner: 'k2s', pid: 260 } as HostDnsStatus;
const journal = (op: 'start' | 'stop', step: string, pid: number) => ({ op, step, pid, startedAt: new Date(10_000).toISOString() });

/** Feeds statuses in order through journalEvents as the store does (the last proxy PID seen names a stop); returns the events kept. */
function follow(statuses: HostDnsStatus[], events: LifecycleEvent[] = []): LifecycleEvent[] {
  let prev: HostDnsStatus | null = null;
  let now = 20_000;
  let lastPid: number | null = null;
  for (const next of statuses) {
    lastPid = next.pid ?? prev?.pid ?? lastPid;
    events = [...events, ...journalEvents(prev, next, events, (now += 1000), null, next.state === 'stopped' ? lastPid : null)];
    prev = next;
  }
  return events;
}

describe('CLI operations seen as degraded + journal (the sandbox, statuses as dns:status answered them)', () => {
  it('a CLI stop after a CLI start: the timeline shows the stop, not the start before it', () => {
    const started = follow([stopped, running]);
    expect(buildTimeline(started)).toMatchObject({ op: 'start', outcome: 'done' });
    const stopping = { ...stopped, state: 'degraded', operation: journal('stop', 'stop-service', 305) } as HostDnsStatus;
    const events = follow([running, stopping, stopped], started);
    const t = buildTimeline(events);
    expect(t.op).toBe('stop');
    expect(t.outcome).toBe('done');
    expect(t.result?.message).toBe('Stopped k2s-dnsproxy (PID 260): stop finished (run outside this window): K2s DNS is stopped.');
    expect(t.steps.find((s) => s.step === 'stop-service')?.message).toBe('stop run outside this window by k2s-dns process 305 (followed from its journal)');
  });

  it('a CLI start after a CLI stop: the timeline shows the start', () => {
    const earlier = follow([running, stopped]);
    expect(buildTimeline(earlier).op).toBe('stop');
    const starting = { ...running, state: 'degraded', pid: 353, operation: journal('start', 'service', 327) } as HostDnsStatus;
    const t = buildTimeline(follow([stopped, starting, { ...running, pid: 353 }], earlier));
    expect(t.op).toBe('start');
    expect(t.outcome).toBe('done');
    expect(t.result?.message).toBe('start finished (run outside this window): K2s DNS is running.');
  });

  it('an interrupted journal while this window\'s own Stop runs adds nothing (the Stop\'s own events tell it)', () => {
    const interrupted = { ...running, state: 'degraded', operation: journal('start', 'activate', 77) } as HostDnsStatus;
    expect(journalEvents(running, interrupted, [], 30_000, 'stop')).toEqual([]);
  });
});
