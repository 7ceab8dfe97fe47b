/**
 * The interface the main process (IPC and the web bridge) talks to. backend-real.ts implements it over
 * the lifecycle library; e2e/support/backend-fake.ts implements it in memory for UI work and tests.
 * One method per contract call, derived from shared/contract.ts, receiving validated input.
 */
import type { CallName, CallOutput, CallParsed, MethodName } from '../../shared/contract';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import type { LogLine, LogReset } from '../../shared/types';

/** One method per contract call: `dnsStart(input)` for `dns:start`; input already validated. */
export type BackendMethods = {
  [K in CallName as MethodName<K>]: (input: CallParsed<K>) => Promise<CallOutput<K>>;
};

/** The app's backend: contract calls plus two subscriptions that return an unsubscribe. */
export interface AppBackend extends BackendMethods {
  /** Every step/result event of start, stop and uninstall, as they happen. */
  onLifecycleEvent(cb: (event: LifecycleEvent) => void): () => void;
  /**
   * New proxy log lines (batched); following stops when the last subscriber unsubscribes.
   * `onReset` hears that the followed log was removed, replaced or emptied (before the new file's lines).
   */
  followLogs(cb: (lines: LogLine[]) => void, onReset?: (reset: LogReset) => void): () => void;
}
