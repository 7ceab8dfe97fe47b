import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from './electron-binary';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A stand-in node_modules/electron folder. */
function electronDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'k2sdns-electron-'));
  dirs.push(d);
  return d;
}

describe('findElectronBinary', () => {
  it('after npm ci (no path.txt): says the binary was never downloaded', () => {
    expect(findElectronBinary({}, electronDir())).toEqual({ exe: null, why: 'node_modules/electron holds no Electron binary (no path.txt: npm ci does not download it)' });
  });

  it('path.txt naming a missing file: says which file', () => {
    const d = electronDir();
    writeFileSync(join(d, 'path.txt'), 'electron');
    expect(findElectronBinary({}, d)).toEqual({ exe: null, why: 'node_modules/electron/path.txt names dist/electron, which does not exist (an interrupted download?)' });
  });

  it('a downloaded binary: its path', () => {
    const d = electronDir();
    writeFileSync(join(d, 'path.txt'), 'electron');
    mkdirSync(join(d, 'dist'));
    writeFileSync(join(d, 'dist/electron'), '');
    expect(findElectronBinary({}, d)).toEqual({ exe: join(d, 'dist/electron') });
  });

  it('ELECTRON_OVERRIDE_DIST_PATH: that folder only', () => {
    const d = electronDir();
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: d }, '/nonexistent')).toEqual({ exe: null, why: `ELECTRON_OVERRIDE_DIST_PATH is set but ${join(d, 'electron')} does not exist` });
    writeFileSync(join(d, 'electron'), '');
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: d }, '/nonexistent')).toEqual({ exe: join(d, 'electron') });
  });
});
