import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

/**
 * Path of the Electron binary, found the way node_modules/electron/index.js does, but without
 * `require('electron')`: that tries to download the binary when it is missing (TOOLCHAIN.md).
 */
function electronBinary(): string | null {
  const dir = fileURLToPath(new URL('../../node_modules/electron/', import.meta.url));
  if (!existsSync(`${dir}path.txt`)) return null;
  const bin = `${dir}dist/${readFileSync(`${dir}path.txt`, 'utf8')}`;
  return existsSync(bin) ? bin : null;
}

test('Electron window opens with the hardened renderer', async () => {
  const bin = electronBinary();
  test.skip(bin === null, 'skipped: no Electron binary on this machine (TOOLCHAIN.md)');
  const app = await electron.launch({ executablePath: bin!, args: ['.'] });
  const window = await app.firstWindow();
  await expect(window).toHaveTitle('K2s DNS');
  // The preload exposes domain methods only, never ipcRenderer.
  expect(await window.evaluate(() => typeof (window as unknown as { k2sDns?: { dnsStatus?: unknown } }).k2sDns?.dnsStatus)).toBe('function');
  expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  await app.close();
});
