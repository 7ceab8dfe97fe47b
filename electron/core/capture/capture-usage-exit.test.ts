/**
 * A companion whose command line's flags it refuses exits 2 (CAPTURE_EXIT_USAGE) and, as root,
 * says so in its failed file with `exit=2`, so start's wait for the capture on a systemd host
 * (no keeper there to write it) ends at it instead of waiting READY_TIMEOUT_MS. Not root (3) it
 * cannot write root's run dir: nothing is written.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCapture } from './capture-main';
import { CAPTURE_FAILED_FILE } from './capture-args';
import { parseFailedFile } from './failed-file';
import { createHostFs } from '../host/host-fs-node';
import { failedRuns, READY_TIMEOUT_MS, SYSTEMD_RESTARTER, waitReady } from '../host/capture-wait';
import { CAPTURE_EXIT_NOT_ROOT, CAPTURE_EXIT_USAGE } from '../../../shared/capture-exit';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'k2s-usage-exit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BAD = ['--listen', '127.0.0.1:53', '--port', '99999'];

describe('runCapture: flags on its command line it refuses', () => {
  it('as root: exit 2, and the failed file says why with exit=2; not root: exit 3, nothing written', async () => {
    const fs = createHostFs(dir);
    const failed = fs.real(CAPTURE_FAILED_FILE);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCapture(fs, 1000, BAD, '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_NOT_ROOT);
      expect(await readFile(failed, 'utf8').catch(() => null)).toBeNull();
      expect(await runCapture(fs, 0, BAD, '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_USAGE);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/^k2s-dns capture-watch: .*99999/);
    } finally {
      err.mockRestore();
    }
    const text = await readFile(failed, 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\S+Z bad flags on its command line: .*99999.*\nexit=2\n$/);
    expect(parseFailedFile(text)).toMatchObject({ why: expect.stringMatching(/^bad flags on its command line: port "99999"/), exit: 2 });
  });

  it("ends start's wait on a systemd host: the first such run asks for a new one at once, the second ends it with its words, long before the 12 s limit", async () => {
    const fs = createHostFs(dir);
    const runDir = path.dirname(fs.real(CAPTURE_FAILED_FILE));
    const runs = failedRuns(async () => (await readFile(fs.real(CAPTURE_FAILED_FILE), 'utf8').catch(() => '')), SYSTEMD_RESTARTER);
    const checks = { isReady: async () => false, failed: runs.check, lastWords: async () => runs.last() };
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const began = performance.now();
    try {
      expect(await runCapture(fs, 0, BAD, '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_USAGE);
      expect(await waitReady(runDir, checks)).toBe('retry');
      // Start removes the file and runs the unit again (capture-companion.ts); the same flags fail the same way, at a later time.
      await rm(fs.real(CAPTURE_FAILED_FILE));
      await new Promise((r) => setTimeout(r, 5));
      expect(await runCapture(fs, 0, BAD, '/x/k2s-dns.mjs')).toBe(CAPTURE_EXIT_USAGE);
      await expect(waitReady(runDir, checks)).rejects.toMatchObject({
        name: 'CompanionFailed',
        exit: 2,
        message: expect.stringMatching(/^its companion failed 2 times in a row \(started again at once after the first\), the last exited with status 2: bad flags on its command line: port "99999"/),
      });
    } finally {
      err.mockRestore();
    }
    expect(performance.now() - began).toBeLessThan(READY_TIMEOUT_MS / 4);
  });
});
