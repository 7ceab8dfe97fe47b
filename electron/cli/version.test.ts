import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../shared/app-version';
import { main } from './main';
import { USAGE } from './usage';
import { quickAnswer } from './quick-answer';

describe('k2s-dns --version', () => {
  it('main prints `k2s-dns VERSION` and exits 0, for --version and version alike', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((s: string) => (lines.push(String(s)), true)) as typeof process.stdout.write);
    try {
      expect(await main(['--version'])).toBe(0);
      expect(await main(['version'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(lines.join('')).toBe(`k2s-dns ${APP_VERSION}\nk2s-dns ${APP_VERSION}\n`);
    expect(USAGE).toContain('k2s-dns --version');
  });

  it('--json prints one JSON object (new-user walk: plain text, though README says every command takes --json), main and the entry alike', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((s: string) => (lines.push(String(s)), true)) as typeof process.stdout.write);
    try {
      expect(await main(['--version', '--json'])).toBe(0);
      expect(await main(['version', '--json'])).toBe(0);
      expect(quickAnswer(['--version', '--json'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const printed = lines.join('').split('\n');
    expect(printed.slice(0, 3).map((l) => JSON.parse(l))).toEqual(Array(3).fill({ name: 'k2s-dns', version: APP_VERSION }));
    expect(printed[3]).toBe('');
  });

  it('the entry answers it before loading any command (tsx, as the sources run)', () => {
    const entry = fileURLToPath(new URL('./entry.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, '--version'], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: `k2s-dns ${APP_VERSION}\n` });
  }, 70_000);
});
