/**
 * Preload (sandboxed, context-isolated): exposes `window.k2sDns`, the typed API derived from the
 * contract. Only domain methods: no ipcRenderer, no channel argument, and listener callbacks
 * get the payload only (never the IPC event, which would leak `sender`).
 * Must be bundled (forge's vite plugin) since sandboxed preloads cannot require local files.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildApi } from '../../shared/api';

const api = buildApi(
  (call, input) => ipcRenderer.invoke(call, input),
  (event, cb) => {
    const listener = (_event: IpcRendererEvent, payload: unknown) => cb(payload as never);
    ipcRenderer.on(event, listener);
    return () => void ipcRenderer.removeListener(event, listener);
  },
);

contextBridge.exposeInMainWorld('k2sDns', api);
