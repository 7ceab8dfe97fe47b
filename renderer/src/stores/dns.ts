/** Host DNS domain store: status, app capabilities, the running operation and its timeline. */
import { createStore } from 'zustand/vanilla';
import { inputErrorText } from '../lib/input-error';
import { latestRequest, type RequestTicket } from '../lib/latest-request';
import type { K2sDnsApi } from '../../../shared/api';
import { ApiError, type AppInfo, type CallInput } from '../../../shared/contract';
import type { JournaledOperation, LifecycleEvent, Operation, ResultEvent, StepEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus, NetworkChangeView } from '../../../shared/types';
import { withNetworkChange } from '../lib/network-changes';
import { CADENCE_MS } from '../../../shared/cadence';
import { withOutsideWarning } from './outside-result';

/** Timeline events kept (a start has ~20; older operations are dropped beyond this). */
const MAX_EVENTS = 200;

/** Host DNS state and the lifecycle actions. `busy` enforces one operation at a time. */
export interface DnsState {
  status: HostDnsStatus | null;
  info: AppInfo | null;
  busy: JournaledOperation | null;
  events: LifecycleEvent[];
  lastResult: ResultEvent | null;
  /** Why the last Start/Stop/Uninstall call failed (e.g. refused input); cleared by the next one. */
  error: string | null;
  /**
   * Set while status reads fail (the backend is gone or does not answer): everything shown may be
   * out of date, so the verdict says so and the lifecycle buttons are off. Cleared by a good read.
   */
  lost: string | null;
  /**
   * True when the backend refused this tab's token (UNAUTHORIZED: a token of an earlier launch
   * kept by the tab); cleared by a good read. The window then shows only the token screen.
   */
  tokenRefused: boolean;
  /** Network changes status reported while this window watched (followed or drift), oldest first (lib/network-changes.ts). */
  networkChanges: NetworkChangeView[];
  refresh(): Promise<void>;
  start(input: CallInput<'dns:start'>): Promise<void>;
  stop(input: CallInput<'dns:stop'>): Promise<void>;
  uninstall(): Promise<void>;
  /** Appends a pushed lifecycle event (also from operations another client started). */
  onEvent(event: LifecycleEvent): void;
  /** Subscribes to lifecycle events; returns the unsubscribe. */
  attach(): () => void;
  /**
   * Polls `dns:status` every `intervalMs` ms (sequentially: never two requests at once) so the
   * window follows changes from any source — the CLI, another window, a crash, NetworkManager —
   * and `onChange` runs when the state, resolver owner, proxy PID or operation step changes.
   * An operation seen only in the journal (started elsewhere, or before a reload) is replayed
   * into the timeline. Returns the stop function.
   */
  watch(intervalMs?: number, onChange?: (status: HostDnsStatus) => void): () => void;
}

/** What makes a status change worth re-probing: state, owner, proxy PID, listeners, operation step. */
export function statusKey(s: HostDnsStatus | null): string {
  if (!s) return '';
  return [s.state, s.resolverOwner, s.pid ?? '-', s.listeners.map((l) => `${l.address}:${l.port}`).join(','), s.operation ? `${s.operation.op}/${s.operation.step}` : '-'].join('|');
}

/** The journal identity of an operation (its op, CLI/helper PID and start time), or null for none. */
export function operationId(o: HostDnsStatus['operation'] | undefined): string | null {
  return o ? `${o.op}/${o.pid}/${o.startedAt}` : null;
}

/**
 * True when `next` runs a proxy that a start made after `prev`'s was stopped (a stop and a start
 * both ran between two status reads, e.g. the CLI's `stop && start` fixes): another proxy PID and
 * another engine or another saved state (`savedAt`) — not one a network follow made, whose
 * `followedChange.at` is the new `savedAt` (follow.ts), nor a watchdog restart (same `savedAt`).
 */
export function restartedBetween(prev: HostDnsStatus, next: HostDnsStatus, prevPid: number | null = prev.pid): boolean {
  if (prevPid == null || next.pid == null || prevPid === next.pid) return false;
  if (prev.engine != null && next.engine != null && prev.engine !== next.engine) return true;
  return prev.savedAt != null && next.savedAt != null && prev.savedAt !== next.savedAt && next.followedChange?.at !== next.savedAt;
}

/**
 * Timeline events for an operation seen in the journal but not in the pushed events: the steps
 * the journal says ended, with their messages (operation.done), the journal's step as running
 * (earlier steps it does not name are filled in by buildTimeline), and a result once the journal
 * is gone. Empty when the push channel already told the story.
 *
 * The operation followed is keyed by its journal identity (operationId), not by "the last
 * operation": when one ended and the next began between two reads (walk 8 M1: `k2s-dns stop &&
 * k2s-dns start …` while the window is open), the ended one gets its own result, judged by what
 * it acted on — a stop by whether the proxy it stopped (`proxyPid`, the newest PID read before
 * `next`) still runs — never by the state the next operation left (that read "stop did not
 * finish: K2s DNS is running" for a stop that succeeded). A start that also ended before `next`
 * gets its result after the stop's ("Started outside this window").
 */
export function journalEvents(prev: HostDnsStatus | null, next: HostDnsStatus, events: readonly LifecycleEvent[], now: number, busy: Operation | null = null, proxyPid: number | null = null): LifecycleEvent[] {
  // The proxy an outside stop ended, named by its PID as the CLI names it ("Stopped k2s-dnsproxy (PID N)").
  const endedPid = proxyPid ?? prev?.pid ?? null;
  const stopped = endedPid != null ? `k2s-dnsproxy (PID ${endedPid})` : 'k2s-dnsproxy';
  const last = events.at(-1);
  const op = next.operation;
  const on = (s: HostDnsStatus['state']) => s === 'running' || s === 'degraded';
  const startedOutside = (): LifecycleEvent => ({ type: 'result', op: 'start', ok: true, exitCode: 0, message: `Started outside this window (e.g. from the CLI): K2s DNS is ${next.state}.`, at: now, outside: true });
  const out: LifecycleEvent[] = [];
  const was = prev?.operation;
  // The operation followed at the last read ended: its journal is gone, or another operation's
  // is there now. Not while this window runs an operation: the journal is cleared just before
  // its own result.
  if (was && operationId(was) !== operationId(op) && busy === null && !(last?.type === 'result' && last.op === was.op)) {
    if (was.op === 'start') {
      // Followed by another operation: the start's own journal said how its steps ended.
      const ok = op ? !(was.done ?? []).some((d) => d.status === 'failed') : on(next.state);
      out.push({ type: 'result', op: 'start', ok, exitCode: ok ? 0 : 1, message: ok ? `start finished (run outside this window): K2s DNS is ${op ? `${next.state}; ${op.op} followed` : next.state}.` : `start did not finish: K2s DNS is ${next.state}.`, at: now, outside: true });
    } else {
      // The stop ended the proxy it stopped when that PID no longer runs: nothing runs, another
      // proxy runs (a start after it made it), or a start runs now and the old PID is gone.
      const gone = next.state === 'stopped' || (endedPid != null && next.pid != null && next.pid !== endedPid) || (op?.op === 'start' && (next.pid === null || next.pid !== endedPid));
      const then = op ? `; ${op.op} followed` : on(next.state) && gone ? '; a start followed' : '';
      out.push({ type: 'result', op: was.op, ok: gone, exitCode: gone ? 0 : 1, message: gone ? `Stopped ${stopped}: ${was.op} finished (run outside this window)${then || `: K2s DNS is ${next.state}`}.` : `${was.op} did not finish: K2s DNS is ${next.state}.`, at: now, outside: true });
      // A start ran and ended too before this read: it is the timeline's operation now.
      if (gone && !op && on(next.state)) out.push(startedOutside());
    }
  }
  // An operation in the journal: while it runs (starting/stopping), and also when status reads
  // it as interrupted (degraded): inside a PID namespace (the sandbox, a container) /proc/locks
  // hides the lock a live CLI holds, so a CLI start or stop shows as degraded with its journal.
  if (op) {
    // An interrupted journal while this window's own operation runs (a Stop that recovers it):
    // that operation's pushed events tell the story; a step of the old one would split it.
    if (busy !== null && next.state === 'degraded') return out;
    const since = Date.parse(op.startedAt) - 1000;
    const seen = (step: string, status?: StepEvent['status']) => events.some((e) => e.type === 'step' && e.op === op.op && e.step === step && (status === undefined || e.status === status) && e.at >= since);
    // The steps that ended before the journal's, with what they did (walk 6 L8: a CLI stop's
    // restore said only "done before this window followed the operation", not whose file it replaced).
    const ended: LifecycleEvent[] = (op.done ?? []).filter((d) => !seen(d.step, d.status)).map((d) => ({ type: 'step', op: op.op, step: d.step as StepEvent['step'], status: d.status, message: d.message, at: now }));
    const running: LifecycleEvent[] = seen(op.step) ? [] : [{ type: 'step', op: op.op, step: op.step as StepEvent['step'], status: 'running', message: `${op.op} run outside this window by k2s-dns process ${op.pid} (followed from its journal)`, at: now }];
    return [...out, ...ended, ...running];
  }
  if (was) return out;
  // A start or stop elsewhere that finished between two polls (a CLI stop takes < 1 s): no
  // journal was seen, yet the state moved between stopped and running. Not while this window
  // runs an operation (its own events tell that story) or one is pushed to it right now.
  const inFlight = busy !== null || (last !== undefined && last.type === 'step');
  if (prev && !inFlight && prev.state !== next.state) {
    const stop = on(prev.state) && next.state === 'stopped';
    // A stop that also took the proxy's config and log (kept by stop) was an uninstall (walk 5 L9:
    // a CLI uninstall showed as "STOP — DONE"): HostDnsStatus.proxyFilesLeft turned false.
    const uninstalled = stop && prev.proxyFilesLeft === true && next.proxyFilesLeft === false;
    const outside = uninstalled ? 'uninstall' : stop ? 'stop' : prev.state === 'stopped' && on(next.state) ? 'start' : null;
    // Not this window's own operation, whose result arrived just before this poll (an uninstall
    // also stops K2s DNS).
    const own = last?.type === 'result' && (last.op === outside || (outside !== 'start' && (last.op === 'uninstall' || last.op === 'stop')));
    const words = { stop: `Stopped ${stopped} outside this window (e.g. from the CLI)`, uninstall: `Uninstalled outside this window (e.g. from the CLI): stopped ${stopped} and removed the K2s-owned files`, start: 'Started outside this window (e.g. from the CLI)' };
    if (outside && !own) return [{ type: 'result', op: outside, ok: true, exitCode: 0, message: `${words[outside]}: K2s DNS is ${next.state}.`, at: now, outside: true }];
  }
  // A stop and a start that both ran between two polls, neither journal seen: the state reads
  // running both times, but another start's proxy runs now (walk 8 M1: the timeline kept the
  // previous start for 25 s and more).
  if (prev && !inFlight && on(prev.state) && on(next.state) && restartedBetween(prev, next, endedPid)) {
    return [{ type: 'result', op: 'stop', ok: true, exitCode: 0, message: `Stopped ${stopped} outside this window (e.g. from the CLI); a start followed.`, at: now, outside: true }, startedOutside()];
  }
  return [];
}

/** True when `a` and `b` are the same lifecycle event (same op, kind, time and, for steps, step and status). */
export function sameEvent(a: LifecycleEvent, b: LifecycleEvent): boolean {
  if (a.type !== b.type || a.op !== b.op || a.at !== b.at) return false;
  if (a.type === 'step' && b.type === 'step') return a.step === b.step && a.status === b.status && a.message === b.message;
  return true;
}

/** Creates the dns store on `api`. */
export function createDnsStore(api: K2sDnsApi) {
  return createStore<DnsState>()((set, get) => {
    // Status requests: an answer to an older request that arrives after a newer one's was
    // applied is dropped (RequestTicket.claim), so the window never steps back.
    const requests = latestRequest();
    // Status reads that failed in a row (answers in request order), and whether any failed
    // before the first success (start-up's refreshAll may have failed too).
    let failures = 0;
    let failedBefore = false;
    // The watch's change callback: called for every applied change, whichever path read it.
    let onChange: ((status: HostDnsStatus) => void) | undefined;
    // The shown error is a BUSY refusal ("… while start is running"): moot once a result arrives.
    let errorIsBusy = false;
    // The status read in flight (its request number), and the request number when this window's
    // last operation ended: a read sent before that must not stand for the status after it.
    let inflight: { seq: number; promise: Promise<void> } | null = null;
    let settledAt = 0;
    // The newest proxy PID a status read showed (a restart changes it): what an outside stop ended.
    let lastProxyPid: number | null = null;
    /**
     * Reads dns:status and applies it (journal replay first) unless a later request's answer was
     * applied already, then calls the watch's change callback when the status key changed.
     * Failures set `lost` at once when the backend is gone (NETWORK, UNAUTHORIZED: restarted with
     * a new token), else after two in a row; never throws.
     */
    const readStatus = (join = false): Promise<void> => {
      // A watch tick joins the read in flight (the window's start-up refresh and the first tick
      // share one request) unless it was sent before this window's last operation ended;
      // refresh always asks anew.
      if (join && inflight && inflight.seq > settledAt) return inflight.promise;
      const ticket = requests.begin();
      const promise = readStatusNow(ticket).finally(() => {
        if (inflight?.promise === promise) inflight = null;
      });
      inflight = { seq: ticket.seq, promise };
      return promise;
    };
    const readStatusNow = async (ticket: RequestTicket): Promise<void> => {
      let next: HostDnsStatus;
      try {
        next = await api.dnsStatus();
      } catch (err) {
        if (ticket.stale()) return;
        failures++;
        failedBefore = true;
        const refused = err instanceof ApiError && err.code === 'UNAUTHORIZED';
        const gone = refused || (err instanceof ApiError && err.code === 'NETWORK');
        if (gone || failures >= 2) set({ lost: (err as Error).message, ...(refused ? { tokenRefused: true } : {}) });
        return;
      }
      if (!ticket.claim()) return;
      failures = 0;
      // Judged against the newest status, not the one before this request: this window's own
      // operation may have finished (and refreshed it) meanwhile.
      const prev = get().status;
      if (prev?.pid != null) lastProxyPid = prev.pid;
      const pidBefore = lastProxyPid;
      if (next.pid != null) lastProxyPid = next.pid;
      // The PID an outside stop ended is the newest one read before `next` (a stop's own status has none).
      const proxyPid = prev?.pid ?? pidBefore;
      for (const e of journalEvents(prev, next, get().events, Date.now(), get().busy, proxyPid)) get().onEvent(e);
      // A made-up result of an outside stop, judged by the check after it (walk 10 L7).
      const judged = withOutsideWarning(get().events, next);
      if (judged) set({ events: judged });
      if (next.state === 'stopped') lastProxyPid = null;
      set((s) => ({ status: next, lost: null, tokenRefused: false, networkChanges: withNetworkChange(s.networkChanges, next.networkChange) }));
      // A change, not the first read: the window's start-up load (App refreshAll) already covers
      // the first status — unless reads failed before it (backend down at start-up).
      if (prev === null ? failedBefore : statusKey(prev) !== statusKey(next)) onChange?.(next);
    };
    const run = async (op: JournaledOperation, call: () => Promise<ResultEvent>) => {
      if (get().busy) return; // One operation at a time, also against double clicks.
      const startedAt = Date.now();
      set({ busy: op, error: null });
      errorIsBusy = false;
      // This operation's result as the push channel delivered it, if it did: only an event that
      // arrived after this operation began (an earlier Start's result is not this Start's).
      const earlier = new Set(get().events);
      const pushedResult = () => get().events.find((e): e is ResultEvent => e.type === 'result' && e.op === op && !earlier.has(e) && e.at >= startedAt - 1000) ?? null;
      // Why the call's answer was lost (the network error), when it was.
      let lostAnswer: string | null = null;
      try {
        const result = await call();
        set({ lastResult: result });
        // The push channel may lag or be down: make sure the timeline has the result.
        if (!get().events.some((e) => e.type === 'result' && e.at === result.at && e.op === result.op)) get().onEvent(result);
      } catch (err) {
        // The call's answer was lost but the push channel told the end: that is the result.
        const pushed = pushedResult();
        if (pushed) set({ lastResult: pushed });
        else if (err instanceof ApiError && err.code === 'NETWORK') {
          lostAnswer = err.message.replace(/^The app backend does not answer \(([^)]*)\).*$/, '$1');
          set({ error: `The answer to ${op} was lost on the way (${lostAnswer}); the status shows what happened.` });
        }
        else {
          set({ error: inputErrorText((err as Error).message) });
          errorIsBusy = err instanceof ApiError && err.code === 'BUSY';
        }
      } finally {
        settledAt = requests.sent;
        // busy stays set until the status after the operation is in: cleared first, the card
        // showed the last poll's state (still "stopped" after a Start) until that read answered.
        // The refresh never throws (readStatus keeps failures in `lost`).
        await get().refresh().catch(() => undefined);
        set({ busy: null });
        // The backend is gone (the app or the sandbox was stopped): no status will show what
        // happened, and the last one read (e.g. "starting") is not the host's state any more.
        const gone = get().lost !== null;
        if (gone && lostAnswer !== null) set({ error: `The answer to ${op} was lost (${lostAnswer}) and the app backend does not answer any more: how ${op} ended is not known here.` });
        // Steps were pushed but no result came by either way: close the operation with what the
        // host's status says, so the timeline does not spin for good and refreshAll runs.
        const last = get().events.at(-1);
        if (!pushedResult() && last?.type === 'step' && last.op === op && last.at >= startedAt - 1000) {
          const state = get().status?.state ?? 'unknown';
          const ok = !gone && (op === 'start' ? state === 'running' || state === 'degraded' : state === 'stopped');
          const message = gone ? `${op}: its answer was lost and the app backend does not answer any more: how it ended is not known here.` : `${op}: its answer was lost; judged from the host's status: K2s DNS is ${state}.`;
          const result: ResultEvent = { type: 'result', op, ok, exitCode: ok ? 0 : 1, message, at: Date.now() };
          get().onEvent(result);
          set({ lastResult: result });
        }
      }
    };
    return {
      status: null,
      info: null,
      busy: null,
      events: [],
      lastResult: null,
      error: null,
      lost: null,
      tokenRefused: false,
      networkChanges: [],
      async refresh() {
        const [, info] = await Promise.all([readStatus(), get().info ? Promise.resolve(get().info) : api.appInfo().catch(() => null)]);
        if (info) set({ info });
      },
      start: (input) => run('start', () => api.dnsStart(input)),
      stop: (input) => run('stop', () => api.dnsStop(input)),
      uninstall: () => run('uninstall', () => api.dnsUninstall()),
      onEvent(event) {
        // The push channel and the operation's own answer both deliver its result (and a replay
        // may repeat steps): an event already kept is not added twice, or the timeline would
        // take the copy for a second operation.
        set((s) => (s.events.some((e) => sameEvent(e, event)) ? s : { events: [...s.events, event].slice(-MAX_EVENTS) }));
        if (event.type === 'result' && errorIsBusy) {
          errorIsBusy = false;
          set({ error: null });
        }
      },
      attach() {
        return api.onLifecycleEvent((e) => get().onEvent(e));
      },
      watch(intervalMs = CADENCE_MS.status, onChangeCb) {
        let stopped = false;
        onChange = onChangeCb;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const tick = async () => {
          await readStatus(true);
          if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
        };
        void tick();
        return () => {
          stopped = true;
          if (onChange === onChangeCb) onChange = undefined;
          clearTimeout(timer);
        };
      },
    };
  });
}
