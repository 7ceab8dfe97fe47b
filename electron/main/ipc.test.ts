import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { CALL_NAMES } from '../../shared/contract';
import { createFakeBackend } from '../../e2e/support/backend-fake';
import { forwardEvents, registerIpc, trustedSender } from './ipc';

type Handler = (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>;

/** A stand-in for ipcMain: records handlers (Electron itself cannot run here, docs/toolchain.md "Electron"). */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel: string, fn: Handler) => void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

/** A sender event for webContents `id`, from its main frame at `url` unless `iframe`. */
function event(id: number, url: string, iframe = false): IpcMainInvokeEvent {
  const mainFrame = { url };
  return { sender: { id, mainFrame }, senderFrame: iframe ? { url } : mainFrame } as unknown as IpcMainInvokeEvent;
}

const APP = 'file:///opt/k2s-dns/out/renderer/index.html';

describe('registerIpc', () => {
  it('registers exactly one handler per contract call and removes them', () => {
    const ipc = fakeIpcMain();
    const remove = registerIpc({ ipcMain: ipc as never, backend: createFakeBackend(), isTrustedSender: () => true });
    expect([...ipc.handlers.keys()]).toEqual(CALL_NAMES);
    remove();
    expect(ipc.handlers.size).toBe(0);
  });

  it('validates and dispatches trusted calls, refuses untrusted senders', async () => {
    const ipc = fakeIpcMain();
    registerIpc({ ipcMain: ipc as never, backend: createFakeBackend(), isTrustedSender: trustedSender(new Set([7]), APP) });
    const targets = ipc.handlers.get('query:targets')!;
    expect(await targets(event(7, APP), {})).toMatchObject({ ok: true, data: [{ id: 'system' }, { id: 'proxy', server: '127.0.0.1:53' }, { id: 'coredns', server: '172.21.0.10:53' }, { id: '192.168.178.1:53' }] });
    const refused = { ok: false, error: { code: 'FORBIDDEN', message: 'Call refused: it did not come from the app window; reload the app.' } };
    expect(await targets(event(8, APP), {})).toEqual(refused);
    expect(await targets(event(7, APP, true), {})).toEqual(refused);
    expect(await targets(event(7, 'https://evil.example/'), {})).toEqual(refused);
    expect(await ipc.handlers.get('logs:tail')!(event(7, APP), { lines: 99999 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('forwardEvents', () => {
  it('sends lifecycle events on lifecycle:event and stops after unsubscribe', async () => {
    const backend = createFakeBackend({ stepDelayMs: 1 });
    const sent: [string, unknown][] = [];
    const stop = forwardEvents(backend, (ch, p) => sent.push([ch, p]));
    await backend.dnsStop({});
    expect(sent).toEqual([['lifecycle:event', expect.objectContaining({ type: 'result', op: 'stop', ok: true, message: 'K2s DNS was not running; nothing to stop.' })]]);
    stop();
    await backend.dnsStop({});
    expect(sent).toHaveLength(1);
  });
});
