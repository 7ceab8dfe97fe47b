import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunFile, RUN_FILE_MAX_BYTES } from './run-file';
import { exactQueryLog } from './exact-log';
import { captureStopped, deadCompanionPid } from './capture-stopped';
import { companionRuns } from '../../cli/queries-wait';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-run-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// mend30: the unwritten, missed, ready and failed files were read with a plain readFile: a FIFO
// there made `k2s-dns queries` and status wait for a writer (fifo(7)); a link to /dev/zero is endless.
const notFiles: [string, (p: string) => void][] = [
  ['a FIFO', (p) => execFileSync('mkfifo', [p])],
  ['a link to /dev/zero', (p) => symlinkSync('/dev/zero', p)],
  ['a directory', (p) => mkdirSync(p)],
  ['a file past the bound', (p) => writeFileSync(p, 'x'.repeat(RUN_FILE_MAX_BYTES + 1))],
];

describe('readRunFile', () => {
  it('reads a regular file', async () => {
    const f = path.join(dir, 'capture.ready');
    writeFileSync(f, '4242\n');
    expect(await readRunFile(f)).toBe('4242\n');
    expect(await readRunFile(path.join(dir, 'gone'))).toBeNull();
  });
  for (const [what, make] of notFiles) {
    it(`takes ${what} as missing`, async () => {
      const f = path.join(dir, 'capture.unwritten');
      make(f);
      expect(await readRunFile(f)).toBeNull();
    });
  }
});

describe('the exact log\'s state files are read as readRunFile reads them', () => {
  for (const [what, make] of notFiles) {
    it(`${what} at the unwritten, missed, ready or failed file: read as missing, not waited on`, async () => {
      const rows = path.join(dir, 'queries.jsonl');
      writeFileSync(rows, '');
      const files = { unwritten: path.join(dir, 'capture.unwritten'), missed: path.join(dir, 'capture.missed'), ready: path.join(dir, 'capture.ready'), failed: path.join(dir, 'capture.failed') };
      for (const f of Object.values(files)) make(f);
      const log = await exactQueryLog(rows, 10, 'adguard', async () => '/usr/bin/tcpdump', { failed: files.failed, ready: files.ready, missed: files.missed }, undefined, files.unwritten);
      expect(log).toMatchObject({ available: true, reason: null, rows: [] });
      expect(log).not.toHaveProperty('unwritten');
      expect(log).not.toHaveProperty('missed');
      expect(await captureStopped({ failed: files.failed, ready: files.ready })).toBeNull();
      expect(await deadCompanionPid(files.ready)).toBeNull();
      expect(await companionRuns(files.ready)).toBe(false);
    });
  }
});
