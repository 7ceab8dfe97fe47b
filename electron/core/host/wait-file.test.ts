import { mkdtempSync, rmSync, writeFileSync, renameSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForFile } from './wait-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'k2s-wait-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('waitForFile', () => {
  it('is woken by inotify when the file is renamed into place (no poll in a minute could have seen it)', async () => {
    const file = join(dir, 'capture.ready');
    let asked = 0;
    let firstAnswered!: () => void;
    const first = new Promise<void>((r) => (firstAnswered = r));
    const exists = async () => {
      const yes = existsSync(file);
      if (++asked === 1) firstAnswered();
      return yes;
    };
    const waiting = waitForFile(exists, dir, 10_000, 60_000);
    await first;
    // As writeFileAtomic writes it: a temp name, then rename(2).
    writeFileSync(join(dir, '.capture.ready.tmp'), '1\n');
    renameSync(join(dir, '.capture.ready.tmp'), file);
    expect(await waiting).toBe(true);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('true at once when the file is there; false at the deadline when it never comes; a failing check counts as not there', async () => {
    writeFileSync(join(dir, 'x'), '');
    expect(await waitForFile(async () => existsSync(join(dir, 'x')), dir, 10_000, 60_000)).toBe(true);
    expect(await waitForFile(async () => existsSync(join(dir, 'never')), dir, 50, 10)).toBe(false);
    expect(await waitForFile(async () => { throw new Error('EACCES'); }, dir, 50, 10)).toBe(false);
  });

  it('a directory that cannot be watched falls back to the poll', async () => {
    let n = 0;
    expect(await waitForFile(async () => ++n >= 3, join(dir, 'missing'), 10_000, 5)).toBe(true);
    expect(n).toBe(3);
  });

  it('an abort ends the wait with false at once (long before its deadline); one aborted already waits not at all', async () => {
    const ac = new AbortController();
    let asked = 0;
    const waiting = waitForFile(async () => (++asked === 1 && ac.abort(), false), dir, 60_000, 60_000, ac.signal);
    expect(await waiting).toBe(false);
    expect(asked).toBe(1);
    expect(await waitForFile(async () => false, dir, 60_000, 60_000, AbortSignal.abort())).toBe(false);
  });
});
