import { EXIT } from '../../../shared/lifecycle-events';
import type { ErrorCode } from '../../../shared/error-codes';

/**
 * A lifecycle failure with a stable machine code and the exit status it maps to.
 * `refused` (exit 3): a precondition failed and nothing on the host was changed.
 * `failed` (exit 1): a step failed after host changes; they were rolled back.
 */
export class LifecycleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'LifecycleError';
  }
}

/** A precondition failed; nothing changed (exit 3). `message` names the cause and the fix. */
export function refused(code: ErrorCode, message: string): LifecycleError {
  return new LifecycleError(code, message, EXIT.refused);
}

/** A step failed; the caller rolls back (exit 1). `message` names the cause and the fix. */
export function failed(code: ErrorCode, message: string): LifecycleError {
  return new LifecycleError(code, message, EXIT.failedRolledBack);
}

/** One-sentence message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
