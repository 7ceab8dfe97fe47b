/**
 * Electron main process: one window, hardened, with the contract's IPC handlers. No logic here.
 * The composition root calls `startDesktop` with the real backend (the lifecycle library);
 * the fake backend is never used here.
 */
import { app, BrowserWindow, ipcMain, session } from 'electron';
import { pathToFileURL } from 'node:url';
import type { AppBackend } from '../core/backend';
import { forwardEvents, registerIpc, trustedSender } from './ipc';
import { contentSecurityPolicy } from '../web/static';

/** Paths of the built renderer page and the bundled preload script (absolute). */
export interface DesktopPaths {
  indexHtml: string;
  preload: string;
}

/** Opens the app window on `backend`; resolves when the page is loaded. */
export async function startDesktop(backend: AppBackend, paths: DesktopPaths): Promise<void> {
  await app.whenReady();
  // CSP via response headers also covers file:// loads, unlike a <meta> the page could drop.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy(null)] } });
  });
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'K2s DNS',
    webPreferences: { preload: paths.preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  });
  // The window shows our page only: no popups, no navigation away.
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  const removeIpc = registerIpc({
    ipcMain,
    backend,
    isTrustedSender: trustedSender(new Set([win.webContents.id]), pathToFileURL(paths.indexHtml).href),
  });
  const stopEvents = forwardEvents(backend, (channel, payload) => win.webContents.send(channel, payload));
  win.on('closed', () => {
    stopEvents();
    removeIpc();
  });
  app.on('window-all-closed', () => app.quit());
  await win.loadFile(paths.indexHtml);
}
