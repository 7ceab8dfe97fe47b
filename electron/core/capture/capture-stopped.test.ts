import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureStopped, captureStopWords, deadCompanionPid } from './capture-stopped';
import { exactQueryLog } from './exact-log';

/** A fake /proc under `dir` with the given pids' cmdlines (NUL-separated argv); pid 1 always there. */
async function fakeProc(dir: string, procs: Record<number, string[]>): Promise<string> {
  const proc = path.join(dir, 'proc');
  for (const [pid, argv] of Object.entries({ 1: ['/sbin/init'], ...procs })) {
    await mkdir(path.join(proc, pid), { recursive: true });
    await writeFile(path.join(proc, pid, 'cmdline'), `${argv.join('\0')}\0`);
  }
  return proc;
}

const COMPANION = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'capture-watch', '--held'];

describe('captureStopped: a companion killed without a word counts as the exact log stopped (breaker10 M2)', () => {
  let dir = '';
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('ready naming a live companion: running; gone, or its pid reused by another program: dead', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'capture-stopped-'));
    const ready = path.join(dir, 'capture.ready');
    const proc = await fakeProc(dir, { 4242: COMPANION, 5151: ['/usr/bin/sleep', '100'] });
    expect(await deadCompanionPid(ready, proc)).toBeNull(); // no ready file: nothing ran
    await writeFile(ready, '4242\n');
    expect(await deadCompanionPid(ready, proc)).toBeNull();
    await writeFile(ready, '5151\n');
    expect(await deadCompanionPid(ready, proc)).toBe(5151);
    await writeFile(ready, '6161\n');
    expect(await deadCompanionPid(ready, proc)).toBe(6161);
    await writeFile(ready, 'garbage\n');
    expect(await deadCompanionPid(ready, proc)).toBeNull();
  });

  it('processes of others hidden (hidepid: /proc/1 not visible either): not judged', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'capture-stopped-'));
    const ready = path.join(dir, 'capture.ready');
    const proc = path.join(dir, 'proc');
    await mkdir(proc);
    await writeFile(ready, '4242\n');
    expect(await deadCompanionPid(ready, proc)).toBeNull();
  });

  it('the failed line wins; a dead companion is said with the time found and its last row; a live one is no stop', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'capture-stopped-'));
    const files = { failed: path.join(dir, 'capture.failed'), ready: path.join(dir, 'capture.ready'), rows: path.join(dir, 'queries.jsonl') };
    const proc = await fakeProc(dir, { 4242: COMPANION });
    const now = () => new Date('2026-12-05T01:40:00.000Z');
    await writeFile(files.ready, '4242\n');
    await writeFile(files.rows, '{}\n');
    await utimes(files.rows, new Date('2026-12-05T01:32:59.000Z'), new Date('2026-12-05T01:32:59.000Z'));
    expect(await captureStopped(files, proc, now)).toBeNull();
    await writeFile(files.ready, '4343\n');
    const dead = await captureStopped(files, proc, now);
    expect(dead).toEqual({ at: null, why: 'its companion (capture-watch, PID 4343) was found dead at 2026-12-05T01:40:00.000Z, ended without a word (killed: kill -9, the OOM killer); its last row was written at 2026-12-05T01:32:59.000Z' });
    expect(captureStopWords(dead!)).toBe(`stopped: ${dead!.why}`);
    await writeFile(files.failed, '2026-12-01T23:20:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n');
    const failed = await captureStopped(files, proc, now);
    expect(failed).toEqual({ at: '2026-12-01T23:20:00.000Z', why: 'tcpdump exited unexpectedly (signal SIGKILL)' });
    expect(captureStopWords(failed!)).toBe('stopped at 2026-12-01T23:20:00.000Z: tcpdump exited unexpectedly (signal SIGKILL)');
    // The companion's exit status on its own line (failed-file.ts, for start's wait) is kept apart, not in the words.
    await writeFile(files.failed, '2026-12-01T23:20:00.000Z tcpdump is not installed (looked in /usr/bin/tcpdump)\nexit=69\n');
    const withExit = await captureStopped(files, proc, now);
    expect(withExit).toEqual({ at: '2026-12-01T23:20:00.000Z', why: 'tcpdump is not installed (looked in /usr/bin/tcpdump)', exit: 69 });
    expect(captureStopWords(withExit!)).toBe('stopped at 2026-12-01T23:20:00.000Z: tcpdump is not installed (looked in /usr/bin/tcpdump)');
  });

  it('exactQueryLog: a ready file naming a dead pid hides the old rows and says the log stopped', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'capture-stopped-'));
    const files = { failed: path.join(dir, 'capture.failed'), ready: path.join(dir, 'capture.ready'), rows: path.join(dir, 'queries.jsonl') };
    const row = { proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'old.test', type: 'A', queryUs: 1_764_000_000_000_000, rcode: 'NOERROR', answers: [], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };
    await writeFile(files.rows, `${JSON.stringify(row)}\n`);
    // This test's own pid is alive but no companion; a pid above pid_max is no process at all.
    for (const pid of [process.pid, 4_194_305]) {
      await writeFile(files.ready, `${pid}\n`);
      const got = await exactQueryLog(files.rows, 10, 'adguard', async () => '/usr/bin/tcpdump', files);
      expect(got.available).toBe(false);
      expect(got.rows).toEqual([]);
      expect(got.reason).toMatch(new RegExp(`^The exact query log stopped: its companion \\(capture-watch, PID ${pid}\\) was found dead at \\S+Z, ended without a word \\(killed: kill -9, the OOM killer\\); its last row was written at \\S+Z\\. Its companion is restarted when it fails by systemd, or without systemd by its keeper \\(up to 6 quick failures in a row\\), and by starting K2s DNS again\\.`));
    }
  });
});
