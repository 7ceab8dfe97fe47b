import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What `findElectronBinary` found: the executable, or why there is none (one clause, no advice). */
export type ElectronBinary = { exe: string } | { exe: null; why: string };

/** What gets the binary where it is missing: electron's own installer (@electron/get; GitHub's releases or $ELECTRON_MIRROR). */
export const ELECTRON_INSTALL_HINT = '`node node_modules/electron/install.js` downloads it (from GitHub\'s Electron releases, or $ELECTRON_MIRROR)';

/**
 * The Electron executable from node_modules/electron, or why there is none: electron ≥ 45's npm
 * package has no postinstall download (node_modules/electron/package.json has no scripts), so
 * after `npm ci` there is no path.txt until `node node_modules/electron/install.js` has run;
 * path.txt names the executable under dist/ (install.js, extractFile). ELECTRON_OVERRIDE_DIST_PATH
 * replaces dist/ (node_modules/electron/index.js). Reads files only; never starts a download (as
 * `require('electron')` would) and so says nothing about the network. `electronDir` is the
 * electron package's folder (default: resolved from here).
 */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env, electronDir?: string): ElectronBinary {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
    return existsSync(p) ? { exe: p } : { exe: null, why: `ELECTRON_OVERRIDE_DIST_PATH is set but ${p} does not exist` };
  }
  let dir = electronDir;
  if (dir === undefined) {
    try {
      dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    } catch {
      return { exe: null, why: 'the electron npm package is not installed (npm ci installs it)' };
    }
  }
  const pathTxt = join(dir, 'path.txt');
  if (!existsSync(pathTxt)) return { exe: null, why: 'node_modules/electron holds no Electron binary (no path.txt: npm ci does not download it)' };
  const name = readFileSync(pathTxt, 'utf8').trim();
  const exe = join(dir, 'dist', name);
  return existsSync(exe) ? { exe } : { exe: null, why: `node_modules/electron/path.txt names dist/${name}, which does not exist (an interrupted download?)` };
}
