/**
 * The renderer-facing API, derived from the contract: one method per call (`dnsStart(input)`)
 * plus event subscriptions. Electron's preload and the web client both build it with
 * `buildApi`, so the renderer sees one typed interface whatever transport carries it.
 */
import {
  CALL_NAMES,
  methodName,
  unwrap,
  type CallInput,
  type CallName,
  type CallOutput,
  type ContractEvents,
  type EventName,
  type MethodName,
  type NoInputCall,
} from './contract';

/** One method per contract call; calls without input may be called with no argument. */
export type ContractMethods = {
  [K in CallName as MethodName<K>]: K extends NoInputCall
    ? (input?: CallInput<K>) => Promise<CallOutput<K>>
    : (input: CallInput<K>) => Promise<CallOutput<K>>;
};

/** Event subscriptions; each returns an unsubscribe function. Callbacks get the payload only. */
export interface ContractSubscriptions {
  /** Lifecycle step/result events of start, stop and uninstall. */
  onLifecycleEvent(cb: (event: ContractEvents['lifecycle:event']) => void): () => void;
  /** New proxy log lines as they are written. */
  onLogLines(cb: (lines: ContractEvents['logs:lines']) => void): () => void;
  /** The proxy log was removed, replaced or emptied: the lines held so far are gone. */
  onLogReset(cb: (reset: ContractEvents['logs:reset']) => void): () => void;
}

/** What `window.k2sDns` (Electron) and the web client both are. */
export type K2sDnsApi = ContractMethods & ContractSubscriptions;

/** Sends one call over some transport and resolves to its raw envelope `{ok,data|error}`. */
export type Invoke = (call: CallName, input: unknown) => Promise<unknown>;
/** Subscribes to one event channel; returns an unsubscribe function. */
export type Subscribe = <E extends EventName>(event: E, cb: (payload: ContractEvents[E]) => void) => () => void;

/** Builds the typed API from a transport; envelopes with ok:false are thrown as ApiError. */
export function buildApi(invoke: Invoke, subscribe: Subscribe): K2sDnsApi {
  const methods: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const call of CALL_NAMES) {
    methods[methodName(call)] = async (input?: unknown) => unwrap(await invoke(call, input ?? {}));
  }
  const subscriptions: ContractSubscriptions = {
    onLifecycleEvent: (cb) => subscribe('lifecycle:event', cb),
    onLogLines: (cb) => subscribe('logs:lines', cb),
    onLogReset: (cb) => subscribe('logs:reset', cb),
  };
  return Object.freeze({ ...(methods as unknown as ContractMethods), ...subscriptions });
}
