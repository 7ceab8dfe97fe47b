/**
 * Electron IPC wiring: one `ipcMain.handle` per contract call (validated by the shared
 * dispatch) and forwarding of backend events to the window. Electron is imported for types
 * only, so this runs and is tested in plain Node.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { CALL_NAMES, type ContractEvents, type EventName } from '../../shared/contract';
import type { AppBackend } from '../core/backend';
import { dispatch } from '../core/dispatch';

/** What registerIpc needs: the handler registry, the backend and the sender check. */
export interface IpcDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  backend: AppBackend;
  /** True when the invoking frame is our own top-level renderer page. */
  isTrustedSender(event: IpcMainInvokeEvent): boolean;
}

/** Registers a handler per contract call; returns a function that removes them all. */
export function registerIpc(deps: IpcDeps): () => void {
  for (const call of CALL_NAMES) {
    deps.ipcMain.handle(call, async (event, payload: unknown) => {
      // Drop calls from frames we did not create (iframes, other windows, navigated pages):
      // Fiddle's ipc.ts does the same.
      if (!deps.isTrustedSender(event)) {
        return { ok: false, error: { code: 'FORBIDDEN', message: 'Call refused: it did not come from the app window; reload the app.' } };
      }
      return dispatch(deps.backend, call, payload);
    });
  }
  return () => {
    for (const call of CALL_NAMES) deps.ipcMain.removeHandler(call);
  };
}

/**
 * Trusts a sender when it is one of `webContentsIds`, the frame is that page's main frame (not
 * an iframe) and its URL starts with `appUrlPrefix` (e.g. the file:// URL of index.html).
 */
export function trustedSender(webContentsIds: ReadonlySet<number>, appUrlPrefix: string): (event: IpcMainInvokeEvent) => boolean {
  return (event) => {
    const frame = event.senderFrame;
    if (!frame || !webContentsIds.has(event.sender.id)) return false;
    if (frame !== event.sender.mainFrame) return false;
    return frame.url.startsWith(appUrlPrefix);
  };
}

/** Forwards backend events to `send(channel, payload)`; returns an unsubscribe. */
export function forwardEvents(
  backend: AppBackend,
  send: <E extends EventName>(channel: E, payload: ContractEvents[E]) => void,
): () => void {
  const offLifecycle = backend.onLifecycleEvent((e) => send('lifecycle:event', e));
  const offLogs = backend.followLogs((lines) => send('logs:lines', lines), (reset) => send('logs:reset', reset));
  return () => {
    offLifecycle();
    offLogs();
  };
}
