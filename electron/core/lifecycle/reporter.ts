import type { LifecycleEvent, Operation, ResultWarning, StepName } from '../../../shared/lifecycle-events';
import { messageOf } from './errors';

/** Receives every lifecycle event as it happens (CLI printer, helper stream, UI). */
export type EventSink = (event: LifecycleEvent) => void;

/**
 * Emits step events for one operation. `run` wraps a step: `running` first, then `done` with
 * the message the step returns, or `failed` with the error's message (and rethrows).
 */
export class StepReporter {
  /**
   * @param beforeStep runs before each step's `running` event: the journal write that must
   *   precede the step's host changes
   */
  constructor(
    private readonly op: Operation,
    private readonly sink: EventSink,
    private readonly now: () => number,
    private readonly beforeStep?: (step: StepName) => Promise<void>,
  ) {}

  /** Emits one step event. */
  emit(step: StepName, status: 'running' | 'done' | 'failed' | 'skipped', message: string, detail?: Record<string, unknown>): void {
    this.sink({ type: 'step', op: this.op, step, status, message, at: this.now(), ...(detail ? { detail } : {}) });
  }

  /** Runs `fn` as step `step`; its resolved `{ message, detail }` becomes the `done` event. */
  async run<T>(step: StepName, running: string, fn: () => Promise<{ value: T; message: string; detail?: Record<string, unknown> }>): Promise<T> {
    try {
      await this.beforeStep?.(step);
      this.emit(step, 'running', running);
      const { value, message, detail } = await fn();
      this.emit(step, 'done', message, detail);
      return value;
    } catch (err) {
      this.emit(step, 'failed', messageOf(err));
      throw err;
    }
  }

  /** Emits the final result event (`warnings` only when there are some). */
  result(ok: boolean, exitCode: number, message: string, code?: string, warnings: ResultWarning[] = []): void {
    this.sink({ type: 'result', op: this.op, ok, exitCode, message, at: this.now(), ...(code ? { code } : {}), ...(warnings.length ? { warnings } : {}) });
  }
}
