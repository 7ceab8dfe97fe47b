import { describe, expect, it } from 'vitest';
import { desktopSkipped } from './main';

describe("npm run package's line without an Electron binary", () => {
  // New-user walk: it said none "can be downloaded here", which nothing had tried.
  it('says what was found and what gets the binary, nothing about the network', () => {
    const line = desktopSkipped('node_modules/electron holds no Electron binary (no path.txt: npm ci does not download it)');
    expect(line).toBe(
      "skipped: k2s-dns-desktop (electron-forge make needs an Electron binary): node_modules/electron holds no Electron binary (no path.txt: npm ci does not download it); `node node_modules/electron/install.js` downloads it (from GitHub's Electron releases, or $ELECTRON_MIRROR), then run npm run package again",
    );
    expect(line).not.toMatch(/can(not|'t)? be downloaded|here/);
  });
});
