import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { HostDnsStatus } from '../../../shared/types';
import { ApiError } from '../../../shared/contract';
import { createDnsStore } from './dns';
import { displayState } from '../lib/display-state';
import { inProcessApi } from '../../../e2e/support/in-process-api';

describe('dns store watch: onChange for changes only', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the first read sets the status without onChange; a later state change calls it once with the new status', async () => {
    const base = inProcessApi();
    const first = await base.dnsStatus();
    let current: HostDnsStatus = first;
    const api: K2sDnsApi = { ...base, dnsStatus: async () => current };
    const store = createDnsStore(api);
    const changes: string[] = [];
    const off = store.getState().watch(1000, (s) => changes.push(s.state));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().status?.state).toBe('stopped');
    expect(changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual([]); // same state: no change
    current = { ...first, state: 'running', resolverOwner: 'k2s', pid: 4242 };
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual(['running']);
    off();
  });

  it('a first success after failed reads counts as a change (the start-up load may have failed too)', async () => {
    const base = inProcessApi();
    const ok = await base.dnsStatus();
    let fail = true;
    const api: K2sDnsApi = { ...base, dnsStatus: async () => { if (fail) throw new ApiError('NETWORK', 'backend down'); return ok; } };
    const store = createDnsStore(api);
    const changes: string[] = [];
    const off = store.getState().watch(1000, (s) => changes.push(s.state));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().lost).toBe('backend down');
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(changes).toEqual(['stopped']);
    off();
  });

  // CI on a fresh machine: a poll sent while this window's Uninstall ran answered "stopped" after
  // the operation had finished and refreshed the status; judged against the status read before
  // the request (running), it added "Stopped outside this window" over the uninstall timeline.
  it('a poll in flight while the window\'s own operation finishes adds no outside result', async () => {
    const base = inProcessApi();
    const stoppedStatus = await base.dnsStatus();
    let current: HostDnsStatus = { ...stoppedStatus, state: 'running', resolverOwner: 'k2s', pid: 4242 };
    let hold: Promise<void> | null = null; // while set, status reads wait for it
    let releaseHold = () => {};
    let finishUninstall = () => {};
    const api: K2sDnsApi = {
      ...base,
      dnsStatus: async () => {
        if (hold) await hold;
        return current;
      },
      dnsUninstall: async () => {
        await new Promise<void>((r) => (finishUninstall = r));
        current = stoppedStatus;
        return { type: 'result', op: 'uninstall', ok: true, exitCode: 0, message: 'Uninstalled K2s DNS files.', at: 1 };
      },
    };
    const store = createDnsStore(api);
    const off = store.getState().watch(1000);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().status?.state).toBe('running');
    const op = store.getState().uninstall();
    hold = new Promise<void>((r) => (releaseHold = r));
    await vi.advanceTimersByTimeAsync(1000); // the poll goes out (and waits) while the uninstall runs
    hold = null; // the operation's own refresh answers at once
    finishUninstall();
    await op; // result recorded, busy cleared, status refreshed to stopped
    expect(store.getState().status?.state).toBe('stopped');
    releaseHold(); // now the held poll answers "stopped"
    await vi.advanceTimersByTimeAsync(0);
    const results = store.getState().events.flatMap((e) => (e.type === 'result' ? [`${e.op}: ${e.message}`] : []));
    expect(results).toEqual(['uninstall: Uninstalled K2s DNS files.']);
    off();
  });

  // Helper review: an older status request answering after a newer one stepped the window back.
  it('an answer to an older status request that arrives after a newer one is dropped', async () => {
    const base = inProcessApi();
    const stoppedStatus = await base.dnsStatus();
    const runningStatus: HostDnsStatus = { ...stoppedStatus, state: 'running', resolverOwner: 'k2s', pid: 4242 };
    const answers: ((s: HostDnsStatus) => void)[] = [];
    const api: K2sDnsApi = { ...base, dnsStatus: () => new Promise<HostDnsStatus>((r) => answers.push(r)) };
    const store = createDnsStore(api);
    const older = store.getState().refresh();
    const newer = store.getState().refresh();
    await vi.advanceTimersByTimeAsync(0);
    answers[1]!(runningStatus); // the newer request answers first…
    await newer;
    answers[0]!(stoppedStatus); // …the older one last
    await older;
    expect(store.getState().status?.state).toBe('running');
  });

  it('a result delivered twice (push channel and the call itself) is kept once', () => {
    const store = createDnsStore(inProcessApi());
    const result = { type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is running.', at: 5 } as const;
    store.getState().onEvent(result);
    store.getState().onEvent({ ...result });
    store.getState().onEvent({ ...result, at: 6 });
    expect(store.getState().events.map((e) => e.at)).toEqual([5, 6]);
  });

  // Adversarial pass: one failed status read (a 500) turned every button off for a second.
  it('one failed read is not "lost"; two in a row are, and the next good read clears it', async () => {
    const base = inProcessApi();
    const ok = await base.dnsStatus();
    let fail = false;
    const api: K2sDnsApi = { ...base, dnsStatus: async () => { if (fail) throw new ApiError('BACKEND_ERROR', 'status boom'); return ok; } };
    const store = createDnsStore(api);
    const off = store.getState().watch(1000);
    await vi.advanceTimersByTimeAsync(0);
    fail = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().lost).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().lost).toBe('status boom');
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().lost).toBeNull();
    off();
  });

  // Walk 6 L4: a tab with a token of an earlier launch drew the app with empty panels.
  it('a refused token (UNAUTHORIZED) sets tokenRefused at once (the window shows the token screen); a NETWORK failure does not; a good read clears it', async () => {
    const base = inProcessApi();
    const ok = await base.dnsStatus();
    let fail: ApiError | null = new ApiError('UNAUTHORIZED', 'Missing or wrong token: open the URL that `k2s-dns ui` printed (it ends in #token=…).');
    const api: K2sDnsApi = { ...base, dnsStatus: async () => { if (fail) throw fail; return ok; } };
    const store = createDnsStore(api);
    expect(store.getState().tokenRefused).toBe(false);
    const off = store.getState().watch(1000);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().tokenRefused).toBe(true);
    fail = null;
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().tokenRefused).toBe(false);
    fail = new ApiError('NETWORK', 'backend down');
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().lost).toBe('backend down');
    expect(store.getState().tokenRefused).toBe(false);
    off();
  });

  // Adversarial pass: the Start call's answer was lost (connection reset) after the push channel
  // had delivered the steps but not the result: the timeline spun for good and nothing refreshed.
  it('steps pushed, answer lost, no result: the operation is closed from the status and lastResult set', async () => {
    const base = inProcessApi();
    const stoppedStatus = await base.dnsStatus();
    let current = stoppedStatus;
    const api: K2sDnsApi = {
      ...base,
      dnsStatus: async () => current,
      dnsStart: async () => {
        store.getState().onEvent({ type: 'step', op: 'start', step: 'preflight', status: 'done', message: 'ok', at: Date.now() });
        current = { ...stoppedStatus, state: 'running', resolverOwner: 'k2s', pid: 4242 };
        throw new ApiError('NETWORK', 'The app backend does not answer (Failed to fetch): it was stopped or restarted.');
      },
    };
    const store = createDnsStore(api);
    await store.getState().start({});
    const s = store.getState();
    expect(s.error).toBe('The answer to start was lost on the way (Failed to fetch); the status shows what happened.');
    expect(s.lastResult).toMatchObject({ type: 'result', op: 'start', ok: true, message: "start: its answer was lost; judged from the host's status: K2s DNS is running." });
    expect(s.events.at(-1)).toBe(s.lastResult);
  });

  it('answer lost but the push channel delivered the result: that result counts, no error', async () => {
    const base = inProcessApi();
    const api: K2sDnsApi = {
      ...base,
      dnsStop: async () => {
        store.getState().onEvent({ type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped.', at: Date.now() });
        throw new ApiError('NETWORK', 'The app backend does not answer (Failed to fetch): it was stopped or restarted.');
      },
    };
    const store = createDnsStore(api);
    await store.getState().stop({});
    expect(store.getState().error).toBeNull();
    expect(store.getState().lastResult).toMatchObject({ op: 'stop', message: 'K2s DNS is stopped.' });
    expect(store.getState().events.filter((e) => e.type === 'result')).toHaveLength(1);
  });

  // Adversarial pass: a BUSY refusal stayed on the card after the other operation had finished.
  it('a BUSY refusal is cleared when the running operation\'s result arrives', async () => {
    const base = inProcessApi();
    const api: K2sDnsApi = { ...base, dnsStart: async () => { throw new ApiError('BUSY', 'Cannot run dns:start while dns:start is running; wait for it to finish.'); } };
    const store = createDnsStore(api);
    await store.getState().start({});
    expect(store.getState().error).toBe('Cannot run dns:start while dns:start is running; wait for it to finish.');
    store.getState().onEvent({ type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is running.', at: 99 });
    expect(store.getState().error).toBeNull();
  });
});


describe('dns store: no "stopped" flash after Start', () => {
  it('the card goes from starting to the status read after the result, never back to the poll before it', async () => {
    const base = inProcessApi();
    const stopped = await base.dnsStatus();
    let current: HostDnsStatus = stopped;
    let release = () => {};
    let holdNext = false;
    const api: K2sDnsApi = {
      ...base,
      dnsStatus: async () => {
        // The read after Start's result is slow (a busy backend): it answers when released.
        if (holdNext) {
          holdNext = false;
          await new Promise<void>((r) => (release = r));
        }
        return current;
      },
      dnsStart: async () => {
        current = { ...stopped, state: 'running', resolverOwner: 'k2s', pid: 4242 };
        holdNext = true;
        return { type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is running.', at: 1 };
      },
    };
    const store = createDnsStore(api);
    await store.getState().refresh();
    const shown: string[] = [];
    const off = store.subscribe((s) => shown.push(displayState(s.status!.state, s.busy)));
    const op = store.getState().start({});
    await vi.waitFor(() => expect(holdNext).toBe(false));
    // The result is in, the status read after it is not: the card still says starting.
    expect(store.getState().lastResult?.ok).toBe(true);
    expect(displayState(store.getState().status!.state, store.getState().busy)).toBe('starting');
    release();
    await op;
    off();
    expect(shown.filter((s, i) => s !== shown[i - 1])).toEqual(['starting', 'running']);
  });
});
