/** Host DNS domain store: status, app capabilities, the running operation and its timeline. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { AppInfo, CallInput } from '../../../shared/contract';
import type { LifecycleEvent, Operation, ResultEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../../shared/types';

/** Timeline events kept (a start has ~20; older operations are dropped beyond this). */
const MAX_EVENTS = 200;

/** Host DNS state and the lifecycle actions. `busy` enforces one operation at a time. */
export interface DnsState {
  status: HostDnsStatus | null;
  info: AppInfo | null;
  busy: Operation | null;
  events: LifecycleEvent[];
  lastResult: ResultEvent | null;
  error: string | null;
  refresh(): Promise<void>;
  start(input: CallInput<'dns:start'>): Promise<void>;
  stop(input: CallInput<'dns:stop'>): Promise<void>;
  uninstall(): Promise<void>;
  /** Appends a pushed lifecycle event (also from operations another client started). */
  onEvent(event: LifecycleEvent): void;
  /** Subscribes to lifecycle events; returns the unsubscribe. */
  attach(): () => void;
}

/** Creates the dns store on `api`. */
export function createDnsStore(api: K2sDnsApi) {
  return createStore<DnsState>()((set, get) => {
    const run = async (op: Operation, call: () => Promise<ResultEvent>) => {
      if (get().busy) return; // One operation at a time, also against double clicks.
      set({ busy: op, error: null });
      try {
        const result = await call();
        set({ lastResult: result });
        // The push channel may lag or be down: make sure the timeline has the result.
        if (!get().events.some((e) => e.type === 'result' && e.at === result.at && e.op === result.op)) get().onEvent(result);
      } catch (err) {
        set({ error: (err as Error).message });
      } finally {
        set({ busy: null });
        await get().refresh();
      }
    };
    return {
      status: null,
      info: null,
      busy: null,
      events: [],
      lastResult: null,
      error: null,
      async refresh() {
        try {
          const [status, info] = await Promise.all([api.dnsStatus(), get().info ? Promise.resolve(get().info!) : api.appInfo()]);
          set({ status, info });
        } catch (err) {
          set({ error: (err as Error).message });
        }
      },
      start: (input) => run('start', () => api.dnsStart(input)),
      stop: (input) => run('stop', () => api.dnsStop(input)),
      uninstall: () => run('uninstall', () => api.dnsUninstall()),
      onEvent(event) {
        set((s) => ({ events: [...s.events, event].slice(-MAX_EVENTS) }));
      },
      attach() {
        return api.onLifecycleEvent((e) => get().onEvent(e));
      },
    };
  });
}
