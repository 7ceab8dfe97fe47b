import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_FAILED_FILE, CAPTURE_HOLD_FILE, CAPTURE_READY_FILE } from '../capture/capture-args';
import { awaitHold } from '../capture/hold-wait';
import { failedFileText } from '../capture/failed-file';
import { systemdCapture } from './capture-companion';
import { READY_TIMEOUT_MS } from './capture-wait';
import { companionRuns, companionUp, fakeSystemctl, SYSTEMD_ARGV, systemdRoot } from './capture-companion.fixture';
import type { HostFs } from './host-fs';

const RESTART = 'systemctl restart --job-mode=ignore-requirements k2s-dnsproxy-capture.service';
const BAD_FLAGS = '/etc/k2s/capture.flags holds no go line: "go [not json\\n"';
const TCPDUMP_GONE = 'tcpdump is not installed (looked in /usr/bin/tcpdump, /usr/sbin/tcpdump, /bin/tcpdump, /sbin/tcpdump); install it (apt-get install tcpdump) for the exact query log.';
/** A line the companion before this start's left in the unit's journal (its stop line). */
const STALE = '2026-12-06T09:00:00.000Z k2s-dns capture-watch: 41 packets, 41 passed the kernel filter; 20 rows written (stop)';
const INVOCATION = '0123456789abcdef0123456789abcdef';

describe('systemd capture: start stops waiting once the companion has failed, and says why in its own words', () => {
  let root = '';
  afterEach(async () => root && rm(root, { recursive: true, force: true }));

  it('a companion whose flags file is bad (status 78, which its unit does not restart) ends the wait at once, not after 12 s, with its own reason; no journal read', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    let pid = 6000;
    // The unit's companion runs (Type=simple), then finds its flags file bad: its failed file, then it exits.
    const { exec, calls, journals } = fakeSystemctl(fs, async () => {
      const me = pid++;
      await companionRuns(procDir, me);
      setImmediate(() => void fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), BAD_FLAGS, 78), { mode: 0o644 }).then(() => rm(path.join(procDir, String(me)), { recursive: true })));
    });
    const t0 = Date.now();
    const err = await systemdCapture(fs, exec, procDir).start(SYSTEMD_ARGV).then(() => null, (e: Error) => e);
    const ms = Date.now() - t0;
    expect(err?.message).toBe(`its companion exited with status 78, which systemd does not restart it for: ${BAD_FLAGS}`);
    expect(ms).toBeLessThan(READY_TIMEOUT_MS / 2);
    expect(calls.filter((c) => c === RESTART)).toEqual([RESTART]);
    expect(journals).toEqual([]);
    // What status says until the next start: the companion's reason (capture-companion.ts rememberStartFailure),
    // and its status, which nothing restarts it for (the exact log's readers say so: exact-log.ts).
    const [first, second] = (await readFile(fs.real(CAPTURE_FAILED_FILE), 'utf8')).split('\n');
    expect(first).toMatch(/^\S+ the capture did not start: its companion exited with status 78, which systemd does not restart it for: \/etc\/k2s\/capture\.flags holds no go line/);
    expect(second).toBe('exit=78');
  }, 30_000);

  it('held: tcpdump gone after the go (status 1): start starts it again once at once, and that run\'s failure ends the wait, not 12 s later', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    const base = SYSTEMD_ARGV.slice(0, 3);
    let pid = 7000;
    let mainPid = 0;
    let tcpdumpGone = false;
    const { exec, calls, journals } = fakeSystemctl(fs, async () => {
      const me = pid++;
      await companionRuns(procDir, me);
      mainPid = me;
      void (async () => {
        // As capture-main.ts: held until its go, then it opens its capture, or finds no tcpdump, says so and exits 1.
        if ((await awaitHold(fs.real(CAPTURE_HOLD_FILE), '/proc', 20, 30_000)) === 'drop') return;
        if (!tcpdumpGone) return fs.writeFileAtomic(CAPTURE_READY_FILE, `${me}\n`, { mode: 0o644 });
        await fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), `${TCPDUMP_GONE} (PID ${me})`, 1), { mode: 0o644 });
        if (mainPid === me) mainPid = 0;
        await rm(path.join(procDir, String(me)), { recursive: true, force: true });
      })();
    }, () => mainPid);
    await systemdCapture(fs, exec, procDir).start(SYSTEMD_ARGV); // the unit file as start writes it: the next start holds
    await systemdCapture(fs, exec, procDir).stop();
    calls.length = 0;
    tcpdumpGone = true;
    const cap = systemdCapture(fs, exec, procDir);
    const held = await cap.prepare!(base);
    const t0 = Date.now();
    const err = await cap.start(SYSTEMD_ARGV, held).then(() => null, (e: Error) => e);
    // Whether start found the held one dead or saw its failure while it waited: its failure was the first run's.
    expect(err?.message).toBe(`its companion failed 2 times in a row (started again at once after the first), the last exited with status 1: ${TCPDUMP_GONE} (PID 7002)`);
    expect(Date.now() - t0).toBeLessThan(READY_TIMEOUT_MS / 2);
    // prepare's restart and start's own, no more.
    expect(calls.filter((c) => c === RESTART)).toEqual([RESTART, RESTART]);
    expect(journals).toEqual([]);
  }, 30_000);

  it('a first failed run (status 1: tcpdump before the proxy runs) is started again at once by start, whose restart opens the capture', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    let pid = 8000;
    const { exec, calls } = fakeSystemctl(fs, async () => {
      const me = pid++;
      if (me > 8000) return companionUp(fs, procDir, me);
      await companionRuns(procDir, me);
      await fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), 'tcpdump exited (exited with status 1): tcpdump: any: transient failure', 1), { mode: 0o644 });
    });
    const t0 = Date.now();
    await systemdCapture(fs, exec, procDir).start(SYSTEMD_ARGV);
    expect(Date.now() - t0).toBeLessThan(READY_TIMEOUT_MS / 2);
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe('8001');
    expect(calls.filter((c) => c === RESTART)).toEqual([RESTART, RESTART]);
    // The first run's failure is not left for status: the capture runs.
    expect(await fs.lstat(CAPTURE_FAILED_FILE)).toBeNull();
  }, 30_000);

  it('two failed runs in a row end the wait with the last one\'s words', async () => {
    const r = await systemdRoot();
    root = r.root;
    let run = 0;
    const { exec, calls } = fakeSystemctl(r.fs, async () => {
      await companionRuns(r.procDir, 9000 + run);
      await r.fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), `tcpdump exited (exited with status 1): run ${++run}`, 1), { mode: 0o644 });
    });
    const t0 = Date.now();
    const err = await systemdCapture(r.fs, exec, r.procDir).start(SYSTEMD_ARGV).then(() => null, (e: Error) => e);
    expect(err?.message).toBe('its companion failed 2 times in a row (started again at once after the first), the last exited with status 1: tcpdump exited (exited with status 1): run 2');
    expect(Date.now() - t0).toBeLessThan(READY_TIMEOUT_MS / 2);
    expect(calls.filter((c) => c === RESTART)).toEqual([RESTART, RESTART]);
  }, 30_000);
});

describe('systemd capture: the timeout quotes only this companion\'s own words', () => {
  let root = '';
  afterEach(async () => root && rm(root, { recursive: true, force: true }));

  /** A start whose companion runs but never opens its capture (its first run may `fail` first), with the unit's journal as `journal` answers. */
  const hungStart = async (journal: (args: readonly string[]) => string, fail?: (fs: HostFs) => Promise<void>) => {
    const r = await systemdRoot();
    root = r.root;
    let runs = 0;
    const { exec, journals } = fakeSystemctl(r.fs, async () => {
      await companionRuns(r.procDir, 4000);
      if (runs++ === 0) await fail?.(r.fs);
    }, () => 4000, { invocationId: () => INVOCATION, journal });
    const err = await systemdCapture(r.fs, exec, r.procDir, undefined, 300).start(SYSTEMD_ARGV).then(() => null, (e: Error) => e);
    return { message: err?.message, journals };
  };
  /** The unit's journal: the companion before it wrote STALE; this one (INVOCATION) wrote `own`. */
  const unitJournal = (own: string) => (args: readonly string[]) => (args.includes(`_SYSTEMD_INVOCATION_ID=${INVOCATION}`) ? own : args.includes('-u') ? `${STALE}\n` : '');

  it('a companion that wrote nothing yet: said so, not the stop line its predecessor left in the unit\'s journal', async () => {
    const { message, journals } = await hungStart(unitJournal(''));
    expect(message).toBe('the capture did not open within 0.3 s: its companion said nothing yet');
    expect(journals).toEqual([`--no-pager -o cat -n 1 _SYSTEMD_INVOCATION_ID=${INVOCATION}`]);
  }, 30_000);

  it('its own last line, read by its InvocationID', async () => {
    const { message } = await hungStart(unitJournal('2026-12-06T09:01:00.000Z k2s-dns capture-watch: still reading\n2026-12-06T09:01:01.000Z k2s-dns capture-watch: its own last line\n'));
    expect(message).toBe('the capture did not open within 0.3 s: 2026-12-06T09:01:01.000Z k2s-dns capture-watch: its own last line');
  }, 30_000);

  it('a first run that failed (status 1), then the run start began again hangs: the first run\'s failure is quoted, no journal read', async () => {
    const why = 'tcpdump did not open the capture within 10 s: tcpdump printed nothing';
    const { message, journals } = await hungStart(unitJournal(''), (fs) => fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), why, 1), { mode: 0o644 }));
    expect(message).toBe(`the capture did not open within 0.3 s: ${why}`);
    expect(journals).toEqual([]);
  }, 30_000);
});
