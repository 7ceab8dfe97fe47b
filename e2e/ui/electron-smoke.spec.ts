import { readFileSync } from 'node:fs';
import { _electron as electron, expect, test } from '@playwright/test';
import { ELECTRON_INSTALL_HINT, findElectronBinary } from '../../electron/cli/electron-binary';

/** package.json "main": the entry `npm start` (k2s-dns app) launches. */
const MAIN = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { main: string }).main;

test('Electron window opens the real entry with the hardened renderer', async () => {
  expect(MAIN).toBe('dist/app-entry.mjs');
  // findElectronBinary never triggers the download that `require('electron')` would (docs/toolchain.md "Electron").
  const found = findElectronBinary();
  const bin = found.exe;
  test.skip(bin === null, `skipped: no Electron binary: ${found.exe === null ? found.why : ''}; ${ELECTRON_INSTALL_HINT}`);
  // Exactly what `k2s-dns app` runs (electron/cli/ui.ts): the binary on the repo's bundled main (npm run build).
  const app = await electron.launch({ executablePath: bin!, args: ['.'] });
  const window = await app.firstWindow();
  await expect(window).toHaveTitle('K2s DNS');
  // The preload exposes domain methods only, never ipcRenderer.
  expect(await window.evaluate(() => typeof (window as unknown as { k2sDns?: { dnsStatus?: unknown } }).k2sDns?.dnsStatus)).toBe('function');
  expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  // The real backend answers over IPC.
  expect(await window.evaluate(async () => (await (window as unknown as { k2sDns: { appInfo(): Promise<{ platform: string }> } }).k2sDns.appInfo()).platform)).toBe(process.platform);
  await app.close();
});
