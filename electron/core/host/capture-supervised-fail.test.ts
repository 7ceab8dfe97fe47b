/**
 * supervisedCapture (hosts without systemd) over its real keeper (capture-keeper.ts) and a
 * stand-in companion (a sh that reads its go line, writes the failed file as capture-main.ts does
 * — `ISO-TIME why` and `exit=N`, replaced whole — and exits N): start's wait ends at the failure
 * (capture-wait.ts), not after its ready timeout, and quotes the companion. Status 1: the keeper's
 * restart 1 s later is waited for, and its failure ends the wait; status 78: at once, and the
 * keeper restarts nothing. Statuses 2 and 3 (its command line refused, not root), for which the
 * companion writes no failed file: the keeper writes it (its last words, exit=N), so the wait ends
 * at the restart's failure there too. And a rollback's abort ends the wait at once.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_FAILED_FILE, CAPTURE_VERB } from '../capture/capture-args';
import { exactQueryLog } from '../capture/exact-log';
import { CAPTURE_PID_FILE, supervisedCapture } from './capture-companion';
import { CAPTURE_KEEPER_STATE, parseKeeperState } from './capture-keeper';
import { CompanionFailed } from './capture-wait';
import { createHostFs } from './host-fs-node';

/** A ready timeout no failure path here comes near: a wait that ends sooner ended at the failure. */
const READY_MS = 30_000;

/** The stand-in companion's program (up to CAPTURE_VERB): each run counted in `runs`, then its failed file and exit `status`. */
const standIn = (failed: string, runs: string, status: number) => [
  '/bin/sh',
  '-c',
  `IFS= read -r go || exit 0; n=$(( $(cat '${runs}' 2>/dev/null || echo 0) + 1 )); echo "$n" >'${runs}'
printf '%s tcpdump exited (exited with status 1): stand-in refused (run %s)\\nexit=${status}\\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)" "$n" >'${failed}.new' && mv -f '${failed}.new' '${failed}'
exit ${status}`,
  CAPTURE_VERB,
];

/** A stand-in that ends before it runs as the CLI's usage error (2) or refusal (3) does: one line on stderr (its log), no failed file. */
const silent = (runs: string, status: number) => [
  '/bin/sh',
  '-c',
  `IFS= read -r go || exit 0; n=$(( $(cat '${runs}' 2>/dev/null || echo 0) + 1 )); echo "$n" >'${runs}'
echo "k2s-dns: stand-in refusal (run $n)" >&2
exit ${status}`,
  CAPTURE_VERB,
];

/** A stand-in that never opens its capture (no ready file, no failure). */
const hanging = () => ['/bin/sh', '-c', 'IFS= read -r go || exit 0; exec sleep 600', CAPTURE_VERB];

/** Resolves once `check` holds (polled every 20 ms; a 15 s deadline for a busy machine). */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('supervised capture: start stops waiting once the companion failed, in its own words', () => {
  let root = '';
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** Starts the stand-in under a real keeper in a temp root; resolves the error start threw, its time, and the files. */
  async function failingStart(status: number, program: (failed: string, runs: string) => string[] = (failed, runs) => standIn(failed, runs, status), abort?: AbortSignal) {
    root = await mkdtemp(path.join(tmpdir(), 'capture-supervised-'));
    const fs = createHostFs(root);
    const runs = path.join(root, 'runs');
    const capture = supervisedCapture(fs, '/proc', 8000, READY_MS);
    cleanup = () => capture.stop();
    const t0 = Date.now();
    const err = await capture.start([...program(fs.real(CAPTURE_FAILED_FILE), runs), '--listen', '127.0.0.1:53', '--port', '53'], null, abort).then(() => null, (e: unknown) => e);
    const ms = Date.now() - t0;
    const keeper = Number(readFileSync(fs.real(CAPTURE_PID_FILE), 'utf8').trim());
    return { fs, err, ms, keeper, runs: () => Number(readFileSync(runs, 'utf8').trim()) };
  }

  it('status 1 twice (tcpdump failing at once): the keeper\'s restart 1 s later is waited for, and its failure ends the wait with its words', async () => {
    const { fs, err, ms, runs } = await failingStart(1);
    expect(err).toBeInstanceOf(CompanionFailed);
    expect((err as Error).message).toMatch(/^its companion failed 2 times in a row \(restarted by its keeper 1 s after the first\), the last exited with status 1: tcpdump exited \(exited with status 1\): stand-in refused \(run 2\)$/);
    expect(runs()).toBe(2);
    // Its keeper's restart (1 s) and two runs, far from the ready timeout on a busy machine too.
    expect(ms).toBeLessThan(READY_MS / 3);
    // What status and the Logs view say until the next start: restarted (status 1), so no exit line.
    expect(readFileSync(fs.real(CAPTURE_FAILED_FILE), 'utf8')).toMatch(/^\S+Z the capture did not start: its companion failed 2 times in a row [^\n]*\(run 2\)\n$/);
  }, 40_000);

  it('status 78 (bad flags): the wait ends at the first failure, the keeper does not restart it, and the exact log says so', async () => {
    const { fs, err, ms, keeper, runs } = await failingStart(78);
    expect(err).toBeInstanceOf(CompanionFailed);
    expect(err).toMatchObject({ exit: 78, message: expect.stringMatching(/^its companion exited with status 78, which its keeper does not restart it for: tcpdump exited \(exited with status 1\): stand-in refused \(run 1\)$/) });
    // No keeper restart waited for (that one alone is 1 s later).
    expect(ms).toBeLessThan(READY_MS / 3);
    // The keeper ends by itself, having run the companion once.
    await until('the keeper ended', () => !existsSync(`/proc/${keeper}`) || readFileSync(`/proc/${keeper}/stat`, 'utf8').split(' ')[2] === 'Z');
    expect(runs()).toBe(1);
    expect(parseKeeperState(readFileSync(fs.real(CAPTURE_KEEPER_STATE), 'utf8'))).toMatchObject({ state: 'exited', lastExit: 78, restarts: 0 });
    // The failed file keeps the status (nothing restarts it), so the exact log does not promise a restart.
    expect(readFileSync(fs.real(CAPTURE_FAILED_FILE), 'utf8')).toMatch(/^\S+Z the capture did not start: its companion exited with status 78, [^\n]*\nexit=78\n$/);
    const log = await exactQueryLog(path.join(root, 'none.jsonl'), 10, 'adguard', async () => '/usr/bin/tcpdump', { failed: fs.real(CAPTURE_FAILED_FILE) });
    expect(log.reason).toMatch(/\. Its companion exited with status 78 \(its flags are bad\), which neither systemd nor its keeper restarts it for: starting K2s DNS again writes its flags and starts it\. Shown: the engine's own query log\.$/);
  }, 40_000);

  for (const status of [2, 3]) {
    it(`status ${status} before it runs (no failed file of its own): its keeper writes it with exit=${status} and its last words, and the restart's failure ends the wait, not 30 s later`, async () => {
      const { fs, err, ms, runs } = await failingStart(status, (_failed, runs) => silent(runs, status));
      expect(err).toBeInstanceOf(CompanionFailed);
      expect(err).toMatchObject({ exit: status, message: expect.stringMatching(new RegExp(`^its companion failed 2 times in a row \\(restarted by its keeper 1 s after the first\\), the last exited with status ${status}: the companion \\(PID \\d+\\) exited with status ${status} before its capture opened; its last words: k2s-dns: stand-in refusal \\(run 2\\)$`)) });
      expect(runs()).toBe(2);
      expect(ms).toBeLessThan(READY_MS / 3);
      // Restarted (not a status of CAPTURE_NO_RESTART_STATUSES): the file start leaves keeps no exit line.
      expect(readFileSync(fs.real(CAPTURE_FAILED_FILE), 'utf8')).toMatch(/^\S+Z the capture did not start: its companion failed 2 times in a row [^\n]*\(run 2\)\n$/);
    }, 40_000);
  }

  it('the keeper\'s failed line as written: time, the companion\'s PID, status and last words, then exit=N; 0644', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-supervised-'));
    const fs = createHostFs(root);
    const runs = path.join(root, 'runs');
    const capture = supervisedCapture(fs, '/proc', 8000, READY_MS);
    cleanup = () => capture.stop();
    const started = capture.start([...silent(runs, 2), '--listen', '127.0.0.1:53', '--port', '53']).catch(() => undefined);
    await until('the keeper wrote the failed file', () => existsSync(fs.real(CAPTURE_FAILED_FILE)));
    const text = readFileSync(fs.real(CAPTURE_FAILED_FILE), 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ the companion \(PID \d+\) exited with status 2 before its capture opened; its last words: k2s-dns: stand-in refusal \(run 1\)\nexit=2\n$/);
    expect(statSync(fs.real(CAPTURE_FAILED_FILE)).mode & 0o777).toBe(0o644);
    await started;
  }, 40_000);

  it('a rollback\'s abort ends the wait for a capture that never opens at once, not at the ready timeout', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 500);
    const { err, ms } = await failingStart(0, () => hanging(), ac.signal);
    expect((err as Error).message).toBe('the wait for the capture to open was given up (start is rolling back)');
    expect(ms).toBeLessThan(READY_MS / 3);
  }, 40_000);
});
