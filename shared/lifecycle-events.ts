/**
 * Progress events of the host DNS lifecycle. The CLI prints them (`--json`: one JSON object a
 * line), the helper streams them to the main process, and the UI draws its step timeline from
 * them. The final event of every operation is a `result`.
 */
import { EXIT } from './error-codes';

/** Steps of start, in order; stop/uninstall use `restore`, `stop-service`, `remove-files`. */
export const START_STEPS = [
  'preflight',
  'save',
  'discover',
  'config',
  'service',
  'activate',
  'verify',
  'ready',
] as const;

/** Any lifecycle step name. */
export type StepName =
  | (typeof START_STEPS)[number]
  | 'restore'
  | 'stop-service'
  | 'remove-files'
  | 'rollback'
  | 'recover';

/**
 * The operations that write the lifecycle journal (electron/core/lifecycle/journal.ts) and that
 * the window runs (its Start, Stop and Uninstall buttons).
 */
export type JournaledOperation = 'start' | 'stop' | 'uninstall';

/**
 * Lifecycle operations: the journaled ones and `recover` (CLI only: `k2s-dns recover` finishes
 * or rolls back an interrupted one; its steps are reported under the interrupted operation, so
 * only its own result, e.g. its NOT_ROOT refusal, carries `op: 'recover'`).
 */
export type Operation = JournaledOperation | 'recover';

/** Exit codes of `k2s-dns` and the helper: shared/error-codes.ts, with each code's status. */
export { EXIT };

/** A step started, finished, failed or was skipped. `message` is one sentence for people. */
export interface StepEvent {
  type: 'step';
  op: Operation;
  step: StepName;
  status: 'running' | 'done' | 'failed' | 'skipped';
  message: string;
  /** ms since the Unix epoch. */
  at: number;
  /**
   * Extra facts for the UI (listeners, zones count, upstreams …). `waiting: true` on a second
   * `running` event of a step: its progress while it waits (verify asking a check again until its
   * deadline), the message saying what it waits for; the CLI prints it on stderr.
   */
  detail?: Record<string, unknown>;
}

/** Final event: outcome of the operation. `error` names the cause and the fix. */
export interface ResultEvent {
  type: 'result';
  op: Operation;
  ok: boolean;
  exitCode: number;
  message: string;
  /** Machine-readable error code when !ok, e.g. `PORT_IN_USE`, `NO_ENGINE`, `NOT_ROOT` (shared/error-codes.ts). */
  code?: string;
  /**
   * Done, but not all green: what the user must still know or do, each with a stable code and
   * a sentence naming the fix (e.g. `UPSTREAM_UNVERIFIED`, `RUN_DIR_FULL`). Absent when none.
   */
  warnings?: ResultWarning[];
  at: number;
  /**
   * True for a result the window made up from status reads for an operation run outside it (the
   * CLI, another window: renderer/src/stores/dns.ts journalEvents), not the operation's own: its
   * exit status and warnings are judged from the host after it (stores/outside-result.ts).
   */
  outside?: boolean;
}

/** One warning of a result: a stable code and one sentence with the fix. */
export interface ResultWarning {
  /** shared/error-codes.ts */
  code: string;
  message: string;
}

/** Any lifecycle event. */
export type LifecycleEvent = StepEvent | ResultEvent;
