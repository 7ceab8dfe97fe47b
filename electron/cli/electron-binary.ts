import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Electron executable from node_modules/electron, or null when none was downloaded
 * (electron ≥ 45 has no postinstall download; `node node_modules/electron/install.js` fetches
 * it, which fails on machines without access to GitHub). Checks path.txt and the file itself;
 * never triggers a download.
 */
export function electronBinary(): string | null {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
    return existsSync(p) ? p : null;
  }
  try {
    const pkg = createRequire(import.meta.url).resolve('electron/package.json');
    const dir = dirname(pkg);
    const pathTxt = join(dir, 'path.txt');
    if (!existsSync(pathTxt)) return null;
    const exe = join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim());
    return existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}
