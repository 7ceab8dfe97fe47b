/**
 * Validate-and-dispatch shared by the Electron IPC handlers and the web bridge: the one door
 * every renderer request passes. Never throws; always resolves to an Envelope.
 */
import {
  CONTRACT,
  describeIssues,
  isCallName,
  methodName,
  LIFECYCLE_CALLS,
  type CallName,
  type Envelope,
} from '../../shared/contract';
import type { AppBackend } from './backend';

/** Lifecycle call in flight per backend. WeakMap: a backend dropped by tests is not kept alive. */
const running = new WeakMap<AppBackend, CallName>();

/**
 * Parses `payload` (from `unknown`) against the contract schema of `call` and calls the backend.
 * Errors as data: UNKNOWN_CALL, INVALID_INPUT (with the zod messages), BUSY, or the backend's
 * own `code` (else BACKEND_ERROR) with its message.
 */
export async function dispatch(backend: AppBackend, call: string, payload: unknown): Promise<Envelope<unknown>> {
  if (!isCallName(call)) {
    return fail('UNKNOWN_CALL', `Unknown call "${call.slice(0, 64)}": use one of ${Object.keys(CONTRACT).join(', ')}.`);
  }
  const parsed = CONTRACT[call].input.safeParse(payload === undefined || payload === null ? {} : payload);
  if (!parsed.success) {
    return fail('INVALID_INPUT', `Invalid input for ${call}: ${describeIssues(parsed.error)}.`);
  }
  const input = parsed.data as Record<string, unknown>;
  try {
    if (call === 'query:run') {
      // Only servers the backend offers: the renderer must not turn the app into a DNS client
      // for arbitrary addresses.
      const targets = await backend.queryTargets({});
      const target = String(input.target);
      if (!targets.some((t) => t.id === target || t.server === target)) {
        return fail('INVALID_INPUT', `Invalid input for query:run: target "${target}" is not in the targets list; pick one from query:targets.`);
      }
    }
    if (LIFECYCLE_CALLS.has(call)) {
      const busy = running.get(backend);
      if (busy) return fail('BUSY', `Cannot run ${call} while ${busy} is running; wait for it to finish.`);
      running.set(backend, call);
    }
    try {
      const method = backend[methodName(call)] as (arg: unknown) => Promise<unknown>;
      return { ok: true, data: await method.call(backend, input) };
    } finally {
      if (LIFECYCLE_CALLS.has(call)) running.delete(backend);
    }
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const code = typeof e?.code === 'string' ? e.code : 'BACKEND_ERROR';
    const message = typeof e?.message === 'string' ? e.message : String(err);
    return fail(code, message);
  }
}

/** Builds an error envelope. */
function fail(code: string, message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}
