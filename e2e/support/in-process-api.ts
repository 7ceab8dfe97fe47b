/**
 * Test helper: the renderer API wired straight to the shared dispatch and the fake backend
 * (no transport), so store tests exercise the real contract validation.
 */
import { buildApi, type K2sDnsApi } from '../../shared/api';
import type { ContractEvents, EventName } from '../../shared/contract';
import { createFakeBackend, type FakeBackendOptions } from './backend-fake';
import { dispatch } from '../../electron/core/dispatch';

/** A K2sDnsApi over an in-memory fake backend with `opts`. */
export function inProcessApi(opts: FakeBackendOptions = {}): K2sDnsApi {
  const backend = createFakeBackend({ stepDelayMs: 1, ...opts });
  return buildApi(
    (call, input) => dispatch(backend, call, input),
    <E extends EventName>(event: E, cb: (p: ContractEvents[E]) => void) =>
      event === 'lifecycle:event'
        ? backend.onLifecycleEvent(cb as (p: ContractEvents['lifecycle:event']) => void)
        : event === 'logs:reset'
          ? backend.followLogs(() => undefined, cb as (p: ContractEvents['logs:reset']) => void)
          : backend.followLogs(cb as (p: ContractEvents['logs:lines']) => void),
  );
}
