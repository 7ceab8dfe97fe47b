import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exactQueryLog } from './exact-log';
import { setCliName } from '../../../shared/fix';

describe('exactQueryLog: a stopped capture is said, not shown as current', () => {
  let dir = '';
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('the companion\'s failed line wins over old rows; without it the rows are shown', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    const failed = path.join(dir, 'capture.failed');
    const row = { proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_000_000_000_000, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.41, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.2, retries: 0 };
    await writeFile(rows, `${JSON.stringify(row)}\n`);
    const tcpdump = async () => '/usr/bin/tcpdump';
    const live = await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed });
    expect(live.available).toBe(true);
    expect(live.rows.map((r) => r.name)).toEqual(['web.demo.svc.cluster.local']);
    await writeFile(failed, '2026-12-01T23:20:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n');
    expect(await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed })).toEqual({
      available: false,
      reason: "The exact query log stopped at 2026-12-01T23:20:00.000Z: tcpdump exited unexpectedly (signal SIGKILL). Its companion is restarted when it fails by systemd, or without systemd by its keeper (up to 6 quick failures in a row), and by starting K2s DNS again. Shown: the engine's own query log.",
      rows: [],
    });
  });

  it('a companion ended with status 78 (bad flags) is said as not restarted by systemd or its keeper, only by a new start; another status as restarted', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    const failed = path.join(dir, 'capture.failed');
    const tcpdump = async () => '/usr/bin/tcpdump';
    await writeFile(failed, '2026-12-06T10:00:00.000Z the capture did not start: its companion exited with status 78, which its keeper does not restart it for: not a go line: "x"\nexit=78\n');
    expect((await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed })).reason).toBe(
      'The exact query log stopped at 2026-12-06T10:00:00.000Z: the capture did not start: its companion exited with status 78, which its keeper does not restart it for: not a go line: "x". Its companion exited with status 78 (its flags are bad), which neither systemd nor its keeper restarts it for: starting K2s DNS again writes its flags and starts it. Shown: the engine\'s own query log.',
    );
    await writeFile(failed, '2026-12-06T10:00:00.000Z tcpdump is not installed (looked in /usr/bin/tcpdump)\nexit=1\n');
    expect((await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed })).reason).toBe(
      'The exact query log stopped at 2026-12-06T10:00:00.000Z: tcpdump is not installed (looked in /usr/bin/tcpdump). Its companion is restarted when it fails by systemd, or without systemd by its keeper (up to 6 quick failures in a row), and by starting K2s DNS again. Shown: the engine\'s own query log.',
    );
  });

  it('rows the companion could not write are said next to the rows (unwritten), absent when none', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    const lost = path.join(dir, 'capture.unwritten');
    await writeFile(rows, `${JSON.stringify({ proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 1, name: 'a.test', type: 'A', queryUs: 1, rcode: 'NOERROR', answers: [], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 })}\n`);
    const tcpdump = async () => '/usr/bin/tcpdump';
    expect((await exactQueryLog(rows, 10, 'adguard', tcpdump, undefined, undefined, lost)).unwritten).toBeUndefined();
    await writeFile(lost, '12 rows not written (no space left on /var/log/dnsproxy)\n');
    expect(await exactQueryLog(rows, 10, 'adguard', tcpdump, undefined, undefined, lost)).toMatchObject({ available: true, unwritten: '12 rows not written (no space left on /var/log/dnsproxy)' });
  });

  it('packets the kernel dropped while it ran are said next to the rows (missed), absent when none recorded', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    const failed = path.join(dir, 'capture.failed');
    const missed = path.join(dir, 'capture.missed');
    await writeFile(rows, `${JSON.stringify({ proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 1, name: 'a.test', type: 'A', queryUs: 1, rcode: 'NOERROR', answers: [], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 })}\n`);
    const tcpdump = async () => '/usr/bin/tcpdump';
    expect(await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed, missed })).not.toHaveProperty('missed');
    await writeFile(missed, 'dropped=1200\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n');
    expect(await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed, missed })).toMatchObject({ available: true, missed: 'missed 1200 packets since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS)' });
    // A stopped capture is said instead (its reason), not its drops.
    await writeFile(failed, '2026-12-05T07:41:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n');
    expect(await exactQueryLog(rows, 10, 'adguard', tcpdump, { failed, missed })).not.toHaveProperty('missed');
  });

  it('a FIFO, a directory or a link to a device at the log: said as that, not as a log this user cannot read (brk30)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    const tcp = async () => '/usr/bin/tcpdump';
    execFileSync('mkfifo', [rows]);
    expect(await exactQueryLog(rows, 10, 'adguard', tcp)).toEqual({ available: false, reason: `The exact query log ${rows} is a FIFO (named pipe), not a file: remove it (${rows} holds only K2s DNS's rows; its next start writes a new one). Shown: the engine's own query log.`, rows: [] });
    await rm(rows);
    await mkdir(rows);
    expect((await exactQueryLog(rows, 10, 'adguard', tcp)).reason).toBe(`The exact query log ${rows} is a directory, not a file: remove it (${rows} holds only K2s DNS's rows; its next start writes a new one). Shown: the engine's own query log.`);
    await rm(rows, { recursive: true });
    await symlink('/dev/zero', rows);
    expect((await exactQueryLog(rows, 10, 'adguard', tcp)).reason).toMatch(/^The exact query log \S+ is not a regular file: remove it/);
  });

  it('a log this user cannot read: the adm group and root, each through sudo or `su -c` (new-user walk: sudo only)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exact-log-'));
    const rows = path.join(dir, 'queries.jsonl');
    // There (lstat finds it) but not openable, as a root:adm 0640 file is for another user: a link to nothing.
    await symlink(path.join(dir, 'gone'), rows);
    const r = await exactQueryLog(rows, 10, 'adguard', async () => '/usr/bin/tcpdump');
    expect(r).toEqual({
      available: false,
      reason: `The exact query log ${rows} is not readable by this user (root and the adm group read it, like the proxy log): be in the group adm (\`sudo usermod -aG adm $USER\`, or \`su -c "usermod -aG adm $USER"\` where sudo is not installed, then log out and in again), or run it as root: \`sudo npx k2s-dns queries\`, or \`su -c 'npx k2s-dns queries'\` where sudo is not installed. Shown: the engine's own query log.`,
      unreadable: rows,
      rows: [],
    });
    // The installed package's CLI, the same ways.
    setCliName('k2s-dns');
    try {
      expect((await exactQueryLog(rows, 10, 'adguard', async () => '/usr/bin/tcpdump')).reason).toContain("or run it as root: `sudo k2s-dns queries`, or `su -c 'k2s-dns queries'` where sudo is not installed.");
    } finally {
      setCliName('npx k2s-dns');
    }
  });
});
