import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedFileText, parseFailedFile } from '../capture/failed-file';
import { CompanionFailed, FAILED_RUNS_MAX, failedRuns, KEEPER_RESTARTER, waitReady, type FailedRun } from './capture-wait';

describe('failedRuns: what a failure of the companion means for start', () => {
  it('the end at once for a status its unit does not restart it for (78); for status 1 a new run first, the end at the second failed run; nothing for no file or a line seen already', async () => {
    let text = '';
    const runs = failedRuns(async () => text);
    expect(await runs.check()).toBeNull();
    expect(runs.last()).toBe('');
    text = failedFileText(new Date('2026-12-06T10:00:00.000Z'), 'tcpdump exited (exited with status 1): any: transient', 1);
    expect(await runs.check()).toEqual({ retry: true });
    // Read again at the next wake: the same run, nothing new.
    expect(await runs.check()).toBeNull();
    expect(runs.last()).toBe('tcpdump exited (exited with status 1): any: transient');
    text = failedFileText(new Date('2026-12-06T10:00:00.500Z'), 'tcpdump exited (exited with status 1): any: transient', 1);
    expect(FAILED_RUNS_MAX).toBe(2);
    expect(await runs.check()).toEqual({ retry: false, why: 'its companion failed 2 times in a row (started again at once after the first), the last exited with status 1: tcpdump exited (exited with status 1): any: transient', exit: 1 });
    const once = failedRuns(async () => failedFileText(new Date('2026-12-06T10:00:00.000Z'), '/etc/k2s/capture.flags holds no go line: "x"', 78));
    expect(await once.check()).toEqual({ retry: false, why: 'its companion exited with status 78, which systemd does not restart it for: /etc/k2s/capture.flags holds no go line: "x"', exit: 78 });
  });

  it('under its keeper (no systemd): the same decisions, in the keeper\'s words (its restart 1 s after a first failure; no restart for 78)', async () => {
    let text = failedFileText(new Date('2026-12-06T10:00:00.000Z'), 'tcpdump exited (exited with status 1): stub refused', 1);
    const runs = failedRuns(async () => text, KEEPER_RESTARTER);
    expect(await runs.check()).toEqual({ retry: true });
    text = failedFileText(new Date('2026-12-06T10:00:01.600Z'), 'tcpdump exited (exited with status 1): stub refused', 1);
    expect(await runs.check()).toEqual({ retry: false, why: 'its companion failed 2 times in a row (restarted by its keeper 1 s after the first), the last exited with status 1: tcpdump exited (exited with status 1): stub refused', exit: 1 });
    const bad = failedRuns(async () => failedFileText(new Date('2026-12-06T10:00:00.000Z'), 'not a go line: "x"', 78), KEEPER_RESTARTER);
    expect(await bad.check()).toEqual({ retry: false, why: 'its companion exited with status 78, which its keeper does not restart it for: not a go line: "x"', exit: 78 });
    // A failed line without a status (a stopped capture's) is a first failure, never the end by itself.
    const bare = failedRuns(async () => failedFileText(new Date('2026-12-06T10:00:00.000Z'), 'tcpdump exited unexpectedly (signal SIGKILL)'), KEEPER_RESTARTER);
    expect(await bare.check()).toEqual({ retry: true });
  });

  it('the failed file: its first line is what status says, its exit line is read apart', () => {
    const text = failedFileText(new Date('2026-12-06T10:00:00.000Z'), 'tcpdump is not installed\n (looked in /usr/bin/tcpdump)', 1);
    expect(text).toBe('2026-12-06T10:00:00.000Z tcpdump is not installed (looked in /usr/bin/tcpdump)\nexit=1\n');
    expect(parseFailedFile(text)).toEqual({ at: '2026-12-06T10:00:00.000Z', why: 'tcpdump is not installed (looked in /usr/bin/tcpdump)', exit: 1 });
    // A stopped capture's or a failed start's line (no exit line), and an empty file.
    expect(parseFailedFile(failedFileText(new Date('2026-12-06T10:00:12.000Z'), 'the capture did not start: x'))).toEqual({ at: '2026-12-06T10:00:12.000Z', why: 'the capture did not start: x', exit: null });
    expect(parseFailedFile('')).toBeNull();
  });
});

describe('waitReady', () => {
  let dir = '';
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('ends at the ready file, at a failure (a new run asked for, or its why thrown), or after its limit with the last words', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'capture-wait-'));
    const ready = path.join(dir, 'capture.ready');
    const failed = path.join(dir, 'capture.failed');
    const read = (f: string) => readFile(f, 'utf8').catch(() => null);
    const checks = {
      isReady: async () => (await read(ready)) !== null,
      failed: async (): Promise<FailedRun> => {
        const t = await read(failed);
        return t === null ? null : t === 'retry\n' ? { retry: true } : { retry: false, why: 'it failed', exit: 78 };
      },
      lastWords: async () => 'its last words',
    };
    const a = waitReady(dir, checks, undefined, 20_000);
    await writeFile(ready, '1\n');
    expect(await a).toBe('ready');
    await rm(ready);
    const b = waitReady(dir, checks, undefined, 20_000);
    await writeFile(failed, 'retry\n');
    expect(await b).toBe('retry');
    await rm(failed);
    const c = waitReady(dir, checks, undefined, 20_000);
    await writeFile(failed, 'x\n');
    const err = await c.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompanionFailed);
    expect(err).toMatchObject({ message: 'it failed', exit: 78 });
    await rm(failed);
    await expect(waitReady(dir, checks, undefined, 50)).rejects.toThrow(/^the capture did not open within 0.05 s: its last words$/);
    await expect(waitReady(dir, { ...checks, lastWords: async () => '' }, undefined, 50)).rejects.toThrow(/: its companion said nothing yet$/);
    await expect(waitReady(dir, checks, AbortSignal.abort(), 20_000)).rejects.toThrow(/given up \(start is rolling back\)/);
  });
});
