import { describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../../shared/types';
import { journalEvents, statusKey } from '../stores/dns';
import { buildTimeline, EARLIER, OUTSIDE, staleResultSuffix, timelineRows } from './timeline';

const step = (s: string, status: 'running' | 'done', at: number): LifecycleEvent => ({ type: 'step', op: 'start', step: s as 'save', status, message: `${s} ${status}`, at });

describe('timeline never goes backwards', () => {
  it('ignores a late running after done', () => {
    const t = buildTimeline([step('preflight', 'running', 1), step('preflight', 'done', 2), step('preflight', 'running', 3)]);
    expect(t.steps[0]).toMatchObject({ step: 'preflight', status: 'done', message: 'preflight done' });
  });
  it("a step's progress while it waits (verify's second running event, detail.waiting) becomes its shown message", () => {
    const waiting: LifecycleEvent = { type: 'step', op: 'start', step: 'verify', status: 'running', message: 'kubernetes.default.svc.cluster.local through the proxy not answered yet (TIMEOUT); asking again until the verify deadline, 15 s after it began …', at: 5, detail: { waiting: true } };
    const t = buildTimeline([step('preflight', 'done', 1), step('verify', 'running', 3), waiting]);
    expect(t.steps.find((s) => s.step === 'verify')).toMatchObject({ status: 'running', message: waiting.message });
  });
  it('fills the steps before the one reached as done (window attached mid-operation)', () => {
    const t = buildTimeline([step('service', 'running', 5)]);
    expect(t.steps.map((s) => `${s.step}:${s.status}`)).toEqual(['preflight:done', 'save:done', 'discover:done', 'config:done', 'service:running', 'activate:pending', 'verify:pending', 'ready:pending']);
    expect(t.steps[0]!.message).toBe(EARLIER);
    expect(t.outcome).toBe('running');
  });
});

describe('journal replay after a reload or a CLI start', () => {
  const base = { state: 'stopped', resolverOwner: 'original', pid: null, listeners: [], operation: null } as unknown as HostDnsStatus;
  const starting = { ...base, state: 'starting', operation: { op: 'start', step: 'service', pid: 77, startedAt: new Date(1000).toISOString() } } as HostDnsStatus;
  const running = { ...base, state: 'running', resolverOwner: 'k2s', pid: 78 } as HostDnsStatus;
  it('a journal step not yet in the events becomes a running step event, then a result when the journal is gone', () => {
    const first = journalEvents(base, starting, [], 5000);
    expect(first).toEqual([{ type: 'step', op: 'start', step: 'service', status: 'running', message: 'start run outside this window by k2s-dns process 77 (followed from its journal)', at: 5000 }]);
    expect(journalEvents(starting, starting, first, 6000)).toEqual([]);
    // This window's own Start: the journal is cleared just before its result arrives.
    expect(journalEvents(starting, running, first, 7000, 'start')).toEqual([]);
    const end = journalEvents(starting, running, first, 7000);
    expect(end).toMatchObject([{ type: 'result', op: 'start', ok: true, exitCode: 0, message: 'start finished (run outside this window): K2s DNS is running.' }]);
    const t = buildTimeline([...first, ...end]);
    expect(t.outcome).toBe('done');
    // New-user pass: "START — DONE" with service still spinning and verify/ready empty.
    expect(t.steps.map((s) => `${s.step}:${s.status}`)).toEqual(['preflight:done', 'save:done', 'discover:done', 'config:done', 'service:done', 'activate:done', 'verify:done', 'ready:done']);
    expect(t.steps[5]!.message).toBe(OUTSIDE);
  });
  it("walk 6 L8: a CLI stop's restore step, ended before this window saw the journal, shows what it did (operation.done), not only EARLIER", () => {
    const said = 'Someone else had changed /etc/resolv.conf; restored the original saved at 2026-12-04T21:48:45.915Z anyway, byte for byte (Restore my original).';
    const stopping = { ...running, state: 'stopping', operation: { op: 'stop', step: 'stop-service', pid: 90, startedAt: new Date(1000).toISOString(), done: [{ step: 'restore', status: 'done', message: said }] } } as HostDnsStatus;
    const seen = journalEvents(running, stopping, [], 5000);
    expect(seen).toEqual([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: said, at: 5000 },
      { type: 'step', op: 'stop', step: 'stop-service', status: 'running', message: 'stop run outside this window by k2s-dns process 90 (followed from its journal)', at: 5000 },
    ]);
    // The next poll of the same journal adds nothing; the end adds the result.
    expect(journalEvents(stopping, stopping, seen, 6000)).toEqual([]);
    const end = journalEvents(stopping, base, seen, 7000);
    const t = buildTimeline([...seen, ...end]);
    expect(t.steps.map((s) => `${s.step}:${s.status}:${s.message}`)).toEqual([`restore:done:${said}`, `stop-service:done:${seen[1]!.type === 'step' ? seen[1]!.message : ''}`]);
    expect(t.steps.some((s) => s.message === EARLIER)).toBe(false);
  });
  it('a CLI stop or start between two polls (no journal seen) becomes a result; not while this window runs an operation', () => {
    const stopped = journalEvents(running, base, [], 8000);
    // Named by the proxy PID the CLI names ("Stopped k2s-dnsproxy (PID 78)"), the last one that ran.
    expect(stopped).toMatchObject([{ type: 'result', op: 'stop', ok: true, message: 'Stopped k2s-dnsproxy (PID 78) outside this window (e.g. from the CLI): K2s DNS is stopped.' }]);
    expect(journalEvents(running, base, [], 8000, null, 91)).toMatchObject([{ message: 'Stopped k2s-dnsproxy (PID 91) outside this window (e.g. from the CLI): K2s DNS is stopped.' }]);
    expect(buildTimeline(stopped).steps.map((s) => `${s.step}:${s.status}`)).toEqual(['restore:done', 'stop-service:done']);
    expect(journalEvents(base, running, stopped, 9000)).toMatchObject([{ type: 'result', op: 'start', message: 'Started outside this window (e.g. from the CLI): K2s DNS is running.' }]);
    expect(journalEvents(running, base, [], 8000, 'stop')).toEqual([]);
    expect(journalEvents(running, base, [step('preflight', 'running', 1)], 8000)).toEqual([]);
    expect(journalEvents(running, running, [], 8000)).toEqual([]);
    // This window's Stop: its result arrived before the poll that first sees "stopped".
    const ownResult: LifecycleEvent = { type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped.', at: 7500 };
    expect(journalEvents(running, base, [ownResult], 8000)).toEqual([]);
    // CI (fresh machine): this window's Uninstall also stops K2s DNS; it was taken for a CLI stop.
    const ownUninstall: LifecycleEvent = { type: 'result', op: 'uninstall', ok: true, exitCode: 0, message: 'Uninstalled K2s DNS files.', at: 7500 };
    expect(journalEvents(running, base, [ownUninstall], 8000)).toEqual([]);
  });
  it('a CLI uninstall between two polls (the proxy config and log gone with it) is an uninstall, not a Stop (walk 5 L9)', () => {
    const before = { ...running, proxyFilesLeft: true } as HostDnsStatus;
    const gone = journalEvents(before, { ...base, proxyFilesLeft: false } as HostDnsStatus, [], 8000);
    expect(gone).toEqual([{ type: 'result', op: 'uninstall', ok: true, exitCode: 0, message: 'Uninstalled outside this window (e.g. from the CLI): stopped k2s-dnsproxy (PID 78) and removed the K2s-owned files: K2s DNS is stopped.', at: 8000, outside: true }]);
    const t = buildTimeline(gone);
    expect(t.op).toBe('uninstall');
    expect(t.steps.map((s) => `${s.step}:${s.status}`)).toEqual(['restore:done', 'stop-service:done', 'remove-files:done']);
    // A stop keeps them: still a Stop.
    expect(journalEvents(before, { ...base, proxyFilesLeft: true } as HostDnsStatus, [], 8000)).toMatchObject([{ op: 'stop' }]);
    // This window's own Uninstall is not repeated.
    const ownUninstall: LifecycleEvent = { type: 'result', op: 'uninstall', ok: true, exitCode: 0, message: 'Uninstalled K2s DNS files.', at: 7500 };
    expect(journalEvents(before, { ...base, proxyFilesLeft: false } as HostDnsStatus, [ownUninstall], 8000)).toEqual([]);
  });
  it('an uninstall seen in the journal names the proxy it stopped, as a stop does', () => {
    const uninstalling = { ...running, state: 'stopping', operation: { op: 'uninstall', step: 'restore', pid: 77, startedAt: new Date(1000).toISOString() } } as HostDnsStatus;
    expect(journalEvents(uninstalling, base, [], 9000)).toMatchObject([{ op: 'uninstall', ok: true, message: 'Stopped k2s-dnsproxy (PID 78): uninstall finished (run outside this window): K2s DNS is stopped.' }]);
  });
  it('the status key changes with state, owner, PID and the operation step', () => {
    expect(statusKey(starting)).toBe('starting|original|-||start/service');
    expect(statusKey(running)).not.toBe(statusKey({ ...running, pid: 79 }));
  });
});

describe('timeline rows: steps this window did not see are one line', () => {
  const at = (ms: number) => `t${ms}`;
  it('a CLI start between two polls: one line with the count and when it was seen, not "done outside this window" ×8', () => {
    const base = { state: 'stopped', resolverOwner: 'original', pid: null, listeners: [], operation: null } as unknown as HostDnsStatus;
    const running = { ...base, state: 'running', resolverOwner: 'k2s', pid: 78 } as HostDnsStatus;
    const t = buildTimeline(journalEvents(base, running, [], 9000));
    const rows = timelineRows(t, at);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'unseen', name: 'preflight … ready', text: '8 steps done outside this window, seen at t9000' });
    const shown = rows.map((r) => (r.kind === 'unseen' ? r.text : r.step.message)).join('\n');
    expect(shown.split(OUTSIDE).length - 1).toBe(1);
  });

  it('a window that followed a start mid-way: the earlier steps are one line, the seen ones stay rows', () => {
    const t = buildTimeline([step('service', 'running', 5000)]);
    const rows = timelineRows(t, at);
    expect(rows.map((r) => (r.kind === 'unseen' ? `${r.name}: ${r.text}` : `${r.step.step}:${r.step.status}`))).toEqual([
      `preflight … config: 4 steps ${EARLIER}, before t5000`,
      'service:running',
      'activate:pending',
      'verify:pending',
      'ready:pending',
    ]);
  });

  it('a single unseen step stays a step row', () => {
    const t = buildTimeline([step('save', 'running', 5000)]);
    expect(timelineRows(t, at)[0]).toMatchObject({ kind: 'step', step: { step: 'preflight', message: EARLIER } });
  });
});

describe('staleResultSuffix: a green result under a later red or amber verdict', () => {
  const ok = (at: number): LifecycleEvent => ({ type: 'result', op: 'start', ok: true, exitCode: 0, message: 'done', at });
  it('a start that ran its steps: "no longer so"', () => {
    const t = buildTimeline([step('preflight', 'done', 1), step('save', 'done', 2), ok(3)]);
    expect(staleResultSuffix(t)).toBe(' — no longer so: see the verdict above.');
  });
  it('a Stop or Uninstall that completed has no suffix: "the resolver is back" stays true under a "stopped" verdict (walk 5 M6)', () => {
    for (const op of ['stop', 'uninstall'] as const) {
      const events: LifecycleEvent[] = [
        { type: 'step', op, step: 'restore', status: 'done', message: 'Restored the original saved at 2026-12-04T19:05:45.674Z, byte for byte.', at: 1 },
        { type: 'step', op, step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy (PID 4242).', at: 2 },
        { type: 'result', op, ok: true, exitCode: 0, message: 'K2s DNS is stopped; the host resolver is back as it was.', at: 3 },
      ];
      expect(staleResultSuffix(buildTimeline(events))).toBeNull();
    }
  });
  it('a start that found K2s DNS running (its steps skipped) never was so: Start changed nothing', () => {
    const skipped: LifecycleEvent = { type: 'step', op: 'start', step: 'save', status: 'skipped', message: 'K2s DNS is already running: nothing to do.', at: 2 };
    const t = buildTimeline([step('preflight', 'done', 1), skipped, step('ready', 'done', 3), ok(4)]);
    expect(staleResultSuffix(t)).toBe(' — Start found K2s DNS running and changed nothing; what is wrong is in the verdict above.');
  });
});

describe('a start that changed nothing (issue 20 low: "START — DONE" while degraded)', () => {
  it('K2s DNS already running (save skipped): outcome unchanged, never done', () => {
    const ev = (s: string, status: 'done' | 'skipped', message: string, at: number): LifecycleEvent => ({ type: 'step', op: 'start', step: s as 'save', status, message, at });
    const events: LifecycleEvent[] = [
      ev('preflight', 'done', 'adguard at /usr/bin/dnsproxy', 1),
      ...['save', 'discover', 'config', 'service', 'activate', 'verify'].map((s, i) => ev(s, 'skipped', 'K2s DNS is already running: nothing to do.', 2 + i)),
      ev('ready', 'done', 'K2s DNS is already running; the saved original resolver was kept.', 9),
      { type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.', at: 10 },
    ];
    expect(buildTimeline(events).outcome).toBe('unchanged');
    // A start that ran its steps is done.
    const ran = events.map((e) => (e.type === 'step' && e.status === 'skipped' ? { ...e, status: 'done' as const } : e));
    expect(buildTimeline(ran).outcome).toBe('done');
  });
});

// Walk 9 M2: Keep their file that leaves no name resolving ends with the warning RESOLVER_DOWN
// (exit 5): the window's heading is "done, with warnings", never a green "done".
describe('a stop that kept a file leaving no DNS', () => {
  it('is "warned", with the restore step and the result warning shown', () => {
    const t = buildTimeline([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: 'Kept the /etc/resolv.conf someone else wrote while K2s ran (…). No name resolves on this host now: nothing answers on 127.0.0.1:53 (…).', at: 1 },
      { type: 'step', op: 'stop', step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy (PID 5).', at: 2 },
      { type: 'result', op: 'stop', ok: true, exitCode: 5, message: 'K2s DNS is stopped. Kept …', warnings: [{ code: 'RESOLVER_DOWN', message: 'No name resolves on this host now: …' }], at: 3 },
    ]);
    expect(t.outcome).toBe('warned');
  });
});

describe("recover's own result (only the CLI's NOT_ROOT refusal says op recover)", () => {
  it('is a refused recover with no steps: its planned step is never reached', () => {
    const t = buildTimeline([{ type: 'result', op: 'recover', ok: false, exitCode: 3, code: 'NOT_ROOT', message: 'run it as root', at: 1 }]);
    expect({ op: t.op, outcome: t.outcome, steps: t.steps, failed: t.failed }).toEqual({ op: 'recover', outcome: 'refused', steps: [], failed: null });
  });
});
