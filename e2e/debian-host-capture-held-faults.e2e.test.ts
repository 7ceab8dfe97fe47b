/**
 * Faults and bad input against the held capture companion (k2s-dnsproxy-capture.service runs
 * `capture-watch --flags-file /etc/k2s/capture.flags`, held by /run/k2s/capture.hold while a start
 * checks the host; capture-companion.ts systemdCapture, capture/hold-wait.ts) on a booted Debian 13
 * host (e2e/bed/debian-host.ts): the flags or hold file replaced by something it must not follow,
 * a hand restart of the unit, a hold naming a reused PID, the held companion killed before its
 * go, tcpdump gone while held, a companion that hangs before its capture opens, a second start, a
 * stop or an uninstall while one is held, and uninstall's removal of both files.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostResolver, hostStartArgs, isActive, mainPid } from './bed/debian-host-cli';
import type { Testbed } from './bed/testbed';
import { until } from './support/until';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: held capture faults on a booted Debian 13 host (${why})`);

const CAPTURE = 'k2s-dnsproxy-capture.service';
const FLAGS = '/etc/k2s/capture.flags';
const HOLD = '/run/k2s/capture.hold';
const ENGINE = 'dnsmasq';
/** The packet parser's bundle the companion reads at its start (capture-main.ts readParserBundle: next to its own bundle). */
const PARSER_BUNDLE = '/opt/k2s-dns-src/dist/k2s-dns-capture-rows.cjs';

describe.skipIf(why !== null)('held capture companion: faults and bad input (Debian 13 host)', { retry: 0 }, () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;

  beforeAll(async () => {
    ({ tb, h, original } = await bootPlainHost());
  }, 180_000);
  // Each case begins stopped, whatever the one before left (a failed one must not fail the next).
  beforeEach(async () => {
    await h.run(['touch', '/root/gate.open']);
    await h.run(['umount', '/usr/bin/systemctl']);
    await h.run(['umount', '/usr/bin/tcpdump']);
    await h.run(['umount', PARSER_BUNDLE]);
    await hostCli(h, ['stop', '--json']);
  }, 120_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  const start = async () => {
    const r = await hostCli(h, hostStartArgs(ENGINE));
    expect(r.result, r.stdout + r.stderr).toMatchObject({ ok: true });
    return r;
  };
  const stop = async () => {
    const r = await hostCli(h, ['stop', '--json']);
    expect(r.result, r.stdout + r.stderr).toMatchObject({ ok: true });
    expect(await hostResolver(h)).toBe(original);
  };
  /** The capture unit's journal after the mark (markJournal). */
  const journalSince = async (cursorFile: string) => (await h.sh(`journalctl --no-pager -o cat -u ${CAPTURE} --after-cursor "$(cat ${cursorFile})"`)).stdout;
  /** Remembers the journal's newest entry in `cursorFile` (journalctl --show-cursor). */
  const markJournal = async (cursorFile: string) => {
    await h.sh(`journalctl --no-pager -n 1 -o cat --show-cursor | sed -n 's/^-- cursor: //p' > ${cursorFile}`);
  };
  const unitState = async () => (await h.run(['systemctl', 'show', '-p', 'ActiveState', '-p', 'Result', '-p', 'ExecMainStatus', '-p', 'NRestarts', CAPTURE])).stdout.replace(/\n/g, ' ').trim();
  /** Waits until the capture unit's companion (MainPID) is the one named by the ready file. */
  const readyAgain = (ms: number) =>
    until('the capture companion ready again', ms, async () => {
      const main = await mainPid(h, CAPTURE);
      return main > 0 && (await h.run(['cat', '/run/k2s/capture.ready'])).stdout.trim() === String(main);
    });
  it('/run/k2s is on tmpfs (a hold file cannot outlive a boot)', async () => {
    await h.run(['mkdir', '-p', '/run/k2s']);
    expect((await h.run(['findmnt', '-n', '-o', 'FSTYPE', '--target', '/run/k2s'])).stdout.trim()).toBe('tmpfs');
  });

  it('a hand `systemctl restart` of the capture unit while K2s DNS runs: it comes back with the flags file and its capture opens', async () => {
    await start();
    const before = await mainPid(h, CAPTURE);
    const flags = (await h.run(['cat', FLAGS])).stdout;
    expect((await h.run(['systemctl', 'restart', CAPTURE])).code).toBe(0);
    const ms = await readyAgain(15_000);
    console.log(`hand restart: ready again after ${ms} ms; ${await unitState()}`);
    expect(await mainPid(h, CAPTURE)).not.toBe(before);
    expect((await h.run(['cat', FLAGS])).stdout).toBe(flags);
    await stop();
  }, 120_000);

  /**
   * A start (from a host whose unit file start already wrote, so it holds) whose preflight waits
   * on `gate` (whether systemd-resolved runs — askUnits' one `systemctl show … systemd-resolved.service`,
   * or `systemctl is-active systemd-resolved.service` where that show failed — blocks until /root/gate.open
   * exists): resolves its pid once its held companion runs, and its run (ended once `open()` ran).
   */
  const heldStart = async () => {
    await start();
    await stop(); // the unit file as start writes it: the next start holds
    await h.run(['rm', '-f', '/root/gate.open']);
    await h.run(['cp', '/usr/bin/systemctl', '/root/systemctl.real']);
    const gate = '#!/bin/sh\ncase "$*" in "is-active systemd-resolved.service"|show*systemd-resolved.service) while [ ! -e /root/gate.open ]; do sleep 0.05; done;; esac\nexec /root/systemctl.real "$@"\n';
    await h.run(['sh', '-c', 'cat > /root/systemctl.gate && chmod 755 /root/systemctl.gate'], { input: gate });
    expect((await h.run(['mount', '--bind', '/root/systemctl.gate', '/usr/bin/systemctl'])).code).toBe(0);
    const open = async () => {
      await h.run(['touch', '/root/gate.open']);
      await h.run(['umount', '/usr/bin/systemctl']);
    };
    try {
      const run = hostCli(h, hostStartArgs(ENGINE));
      let pid = 0;
      await until('the start holds its running capture companion', 30_000, async () => {
        const m = /^hold (\d+) \d+\n$/.exec((await h.run(['cat', HOLD])).stdout);
        pid = m ? Number(m[1]) : 0;
        const main = await mainPid(h, CAPTURE);
        return pid > 0 && main > 0 && (await h.run(['grep', '-q', 'capture-watch', `/proc/${main}/cmdline`])).code === 0;
      });
      return { pid, run, open };
    } catch (err) {
      await open();
      throw err;
    }
  };

  it('the held companion killed -9 before its go (the restart by systemd then fails on Requisite=): start restarts it after the go and opens the capture, not 12 s later with CAPTURE_NOT_STARTED', async () => {
    const s = await heldStart();
    const victim = await mainPid(h, CAPTURE);
    expect((await h.run(['kill', '-9', String(victim)])).code).toBe(0);
    // systemd restarts it 1 s later (Restart=on-failure) — while the proxy is not running yet (Requisite=).
    await until('systemd acted on the killed companion', 20_000, async () => !(await unitState()).includes('NRestarts=0') || (await isActive(h, CAPTURE)) === 'failed');
    await until('the restart settled', 20_000, async () => !['deactivating'].includes(await isActive(h, CAPTURE)));
    const after = `${await unitState()} MainPID=${await mainPid(h, CAPTURE)} hold=${JSON.stringify((await h.run(['cat', HOLD])).stdout)}`;
    const t0 = Date.now();
    await s.open();
    const r = await s.run;
    const ms = Date.now() - t0;
    const steps = r.events.map((e) => `${(e as { step?: string }).step}:${(e as { status?: string }).status}@${e.at - r.events[0]!.at}`).join(' ');
    console.log(`held companion killed: then ${after}; start after the gate opened ${ms} ms; result ${JSON.stringify(r.result)}; steps ${steps}; now ${await unitState()}; journal: ${(await h.run(['journalctl', '--no-pager', '-o', 'cat', '-n', '8', '-u', CAPTURE])).stdout}`);
    expect(r.result, r.stdout + r.stderr).toMatchObject({ ok: true });
    expect(r.stdout).not.toContain('CAPTURE_');
    expect(await isActive(h, CAPTURE)).toBe('active');
    expect(ms).toBeLessThan(10_000);
    await stop();
  }, 120_000);

  it('a second start, a stop and an uninstall while one start is held are BUSY and change nothing; the held one completes with its capture', async () => {
    const s = await heldStart();
    const b = await hostCli(h, hostStartArgs(ENGINE));
    const st = await hostCli(h, ['stop', '--json']);
    const un = await hostCli(h, ['uninstall', '--json']);
    const hold = (await h.run(['cat', HOLD])).stdout;
    await s.open();
    const a = await s.run;
    console.log(`second start: ${JSON.stringify(b.result)}; stop: ${JSON.stringify(st.result)}; uninstall: ${JSON.stringify(un.result)}; hold then ${JSON.stringify(hold)}`);
    expect(b.result).toMatchObject({ ok: false, code: 'BUSY' });
    expect(st.result).toMatchObject({ ok: false, code: 'BUSY' });
    expect(un.result).toMatchObject({ ok: false, code: 'BUSY' });
    expect(hold).toBe(`hold ${s.pid} ${/^hold \d+ (\d+)/.exec(hold)?.[1]}\n`);
    expect(a.result, a.stdout + a.stderr).toMatchObject({ ok: true });
    expect(await isActive(h, CAPTURE)).toBe('active');
    expect((await h.run(['cat', HOLD])).stdout).toBe('go\n');
    await stop();
  }, 120_000);

  it('a hold naming a live process with another start time (a reused PID: PID 1) does not hold the companion', async () => {
    await start();
    await h.sh(`echo 'hold 1 99999999' > ${HOLD}`);
    await markJournal('/root/j.cursor');
    await h.run(['systemctl', 'restart', '--no-block', CAPTURE]);
    // The new companion's own line, then its end: the unit alone also reads `inactive` for a moment
    // between the old companion's stop and the new one's start (a CI run caught that moment and
    // read the journal before the new companion had said anything).
    const said = /capture-watch: the start that held it \(PID 1, /;
    await until('the new companion said why and ended', 20_000, async () => said.test(await journalSince('/root/j.cursor')) && ['inactive', 'failed'].includes(await isActive(h, CAPTURE)));
    const j = await journalSince('/root/j.cursor');
    console.log(`hold naming PID 1 with another start time: ${await unitState()}; journal: ${j}`);
    expect(j).toMatch(/capture-watch: the start that held it \(PID 1, start time 99999999 in \/run\/k2s\/capture\.hold\) is no longer running/);
    expect(await unitState()).toContain('ExecMainStatus=0');
    await stop();
  }, 120_000);

  for (const [what, setup, said] of [
    ['a symlink to /dev/zero', `ln -sf /dev/zero ${FLAGS}`, /capture-watch: cannot read its flags: \/etc\/k2s\/capture\.flags is a symbolic link \(not followed\)/],
    ['a FIFO', `rm -f ${FLAGS}; mkfifo -m 600 ${FLAGS}`, /capture-watch: cannot read its flags: \/etc\/k2s\/capture\.flags is a FIFO/],
    ['missing', `rm -f ${FLAGS}`, /capture-watch: cannot read its flags: \/etc\/k2s\/capture\.flags does not exist/],
    ['garbage', `printf 'go [not json\\n' > ${FLAGS}`, /capture-watch: \/etc\/k2s\/capture\.flags holds no go line: "go \[not json\\n"/],
    ['8 MiB of one line', `head -c 8388608 /dev/zero | tr '\\0' x > ${FLAGS}`, /capture-watch: cannot read its flags: \/etc\/k2s\/capture\.flags is 8388608 bytes, more than the 65536/],
  ] as const) {
    it(`the flags file ${what}, then a hand restart of the unit: the companion ends at once, says what is wrong in the journal, and the next start writes good flags`, async () => {
      await start();
      await h.sh(setup);
      await markJournal('/root/j.cursor');
      const t0 = Date.now();
      await h.run(['systemctl', 'restart', '--no-block', CAPTURE]);
      await until('the journal says what is wrong', 20_000, async () => said.test(await journalSince('/root/j.cursor'))).catch(() => undefined);
      const ms = Date.now() - t0;
      const j = await journalSince('/root/j.cursor');
      const main = await mainPid(h, CAPTURE);
      const mem = main > 0 ? (await h.run(['ps', '-o', 'rss=,wchan=', '-p', String(main)])).stdout.trim() : 'no process';
      // Status 78 (EX_CONFIG), which the unit's RestartPreventExitStatus= names: failed, not
      // restarted (each restart read the same file, until the start limit gave up).
      await until('the unit settled', 30_000, async () => ['failed', 'inactive'].includes(await isActive(h, CAPTURE))).catch(() => undefined);
      const settled = await unitState();
      console.log(`flags ${what}: ${ms} ms; ${settled}; main ${main} rss,wchan ${mem}; journal: ${j.slice(0, 600)}`);
      expect(j).toMatch(said);
      expect(ms).toBeLessThan(10_000);
      for (const kv of ['ActiveState=failed', 'Result=exit-code', 'ExecMainStatus=78', 'NRestarts=0']) expect(settled.split(' ')).toContain(kv);
      expect((await h.run(['cat', '/run/k2s/capture.failed'])).stdout).toMatch(new RegExp(`^\\S+Z ${said.source.replace(/^capture-watch: /, '')}.*\nexit=78\n$`));
      await h.run(['systemctl', 'stop', CAPTURE]);
      await stop();
      await h.run(['rm', '-f', FLAGS]);
      await start();
      expect((await h.run(['cat', FLAGS])).stdout).toMatch(/^go \["--listen"/);
      await stop();
    }, 120_000);
  }

  it('tcpdump gone while the start is held (its path then not executable): start ends with CAPTURE_NOT_STARTED in the companion\'s words as soon as its second run failed too, not after the 12 s wait', async () => {
    const s = await heldStart();
    await h.sh(': > /root/tcpdump.gone && chmod 644 /root/tcpdump.gone');
    expect((await h.run(['mount', '--bind', '/root/tcpdump.gone', '/usr/bin/tcpdump'])).code).toBe(0);
    const t0 = Date.now();
    await s.open();
    const r = await s.run;
    const ms = Date.now() - t0;
    await h.run(['umount', '/usr/bin/tcpdump']);
    const steps = r.events.map((e) => `${(e as { step?: string }).step}:${(e as { status?: string }).status}@${e.at - r.events[0]!.at}`).join(' ');
    console.log(`tcpdump gone while held: start after the gate ${ms} ms; ${JSON.stringify(r.result)}; ${await unitState()}; steps ${steps}`);
    expect(r.result, r.stdout + r.stderr).toMatchObject({ ok: true, warnings: [expect.objectContaining({ code: 'CAPTURE_NOT_STARTED' })] });
    const warning = (r.result as { warnings: { message: string }[] }).warnings[0]!.message;
    expect(warning).toMatch(/^The exact query log did not start \(its companion failed 2 times in a row \(started again at once after the first\), the last exited with status 1: tcpdump is not installed \(looked in \/usr\/bin\/tcpdump/);
    expect(ms).toBeLessThan(10_000);
    await stop();
  }, 120_000);

  it('a companion that hangs before its capture opens (its parser bundle a FIFO): the 12 s wait\'s warning quotes nothing of the companion before it nor systemd\'s lines', async () => {
    await start();
    await stop(); // the companion before: its lines (its start and stop lines) are in the unit's journal
    const before = (await h.run(['journalctl', '--no-pager', '-o', 'cat', '-n', '3', '-u', CAPTURE])).stdout;
    // A FIFO where the companion reads its parser: that read waits for a writer that never comes.
    await h.sh('rm -f /root/parser.fifo && mkfifo -m 644 /root/parser.fifo');
    expect((await h.run(['mount', '--bind', '/root/parser.fifo', PARSER_BUNDLE])).code).toBe(0);
    const t0 = Date.now();
    const r = await hostCli(h, hostStartArgs(ENGINE));
    const ms = Date.now() - t0;
    const after = (await h.run(['journalctl', '--no-pager', '-o', 'cat', '-n', '3', '-u', CAPTURE])).stdout;
    await h.run(['systemctl', 'stop', CAPTURE]);
    await h.run(['umount', PARSER_BUNDLE]);
    console.log(`hung companion: start ${ms} ms; ${JSON.stringify(r.result)}; unit journal before: ${JSON.stringify(before)} after: ${JSON.stringify(after)}`);
    expect(r.result, r.stdout + r.stderr).toMatchObject({ ok: true, warnings: [expect.objectContaining({ code: 'CAPTURE_NOT_STARTED' })] });
    const warning = (r.result as { warnings: { message: string }[] }).warnings[0]!.message;
    expect(warning).toMatch(/^The exact query log did not start \(the capture did not open within 12 s: its companion said nothing yet\); /);
    await stop();
  }, 120_000);

  it('uninstall removes the flags and hold files', async () => {
    await start();
    const un = await hostCli(h, ['uninstall', '--json']);
    expect(un.result, un.stdout + un.stderr).toMatchObject({ ok: true });
    expect((await h.sh(`ls ${FLAGS} ${HOLD} 2>/dev/null; true`)).stdout.trim()).toBe('');
    expect(await hostResolver(h)).toBe(original);
  }, 120_000);
});
