/**
 * The exact query log under systemd, on a booted Debian 13 host (e2e/bed/debian-host.ts; tcpdump
 * is in its root file system, scripts/build-debian-host.sh), both engines: `k2s-dns start` runs
 * the capture companion as k2s-dnsproxy-capture.service (no pidfile process), tcpdump drops to
 * nobody and the parser runs as nobody, and /var/log/dnsproxy/queries.jsonl gets one row per
 * client socket's query (client address:port and DNS id paired, the real rcode, answers and the
 * upstream that answered); `k2s-dns stop` stops and disables the unit. A tcpdump killed under
 * the unit shows in status as the capture's failure (/run/k2s/capture.failed) while systemd's
 * restarts cannot open a capture, and once they can, systemd's own restart brings the log back.
 * The host shares the bed's network namespace: the test's sockets on 127.0.0.1 are the host's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parserLine } from '../electron/core/capture/pipeline';
import type { CapturedQuery } from '../electron/core/capture/pairing';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostResolver, hostStartArgs, isActive, mainPid } from './bed/debian-host-cli';
import { engineMissing, PROXY_ENGINES } from './bed/engines';
import { tcpQuery, udpQuery } from './bed/fixed-port-query';
import type { Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: exact query log under systemd on a booted Debian 13 host (${why})`);
const dnsproxyMissing = why ? null : await engineMissing('dnsproxy');

const UNIT = 'k2s-dnsproxy-capture.service';
const ROWS = '/var/log/dnsproxy/queries.jsonl';
const TCPDUMP = '/usr/bin/tcpdump';

describe.skipIf(why !== null)('exact query log as k2s-dnsproxy-capture.service (Debian 13 host)', () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  /** Set when the cached root file system predates tcpdump in it. */
  let noTcpdump: string | null = null;

  /** A file inside the host, or null when it is not there. */
  const hostFile = async (path: string): Promise<string | null> => {
    const r = await h.run(['cat', path]);
    return r.code === 0 ? r.stdout : null;
  };
  /** Waits (bounded, polls every 100 ms) until `check` is true; `what` names it in the failure. Returns the ms it took. */
  const until = async (what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<number> => {
    const t0 = Date.now();
    while (!(await check())) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms; journal: ${(await h.run(['journalctl', '-u', UNIT, '-o', 'cat', '--no-pager', '-n', '20'])).stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return Date.now() - t0;
  };
  /** The log's client rows on 127.0.0.1:53 with DNS ids in [lo, hi], once `want` are answered (20 s bound). */
  const exactRows = async (want: number, lo: number, hi: number): Promise<CapturedQuery[]> => {
    let rows: CapturedQuery[] = [];
    await until(`${want} answered rows in ${ROWS}`, 20_000, async () => {
      rows = ((await hostFile(ROWS)) ?? '')
        .split('\n')
        .map(parserLine)
        .filter((v): v is CapturedQuery => v !== null && !('counts' in v) && v.listener === '127.0.0.1:53' && v.client.startsWith('127.0.0.1:') && v.id >= lo && v.id <= hi && v.rcode !== null);
      return rows.length >= want;
    });
    return rows;
  };
  /** The companion's children (tcpdump and the parser) as `argv0 user` lines, inside the host. */
  const companionChildren = async (companion: number): Promise<{ pid: number; argv0: string; user: string }[]> => {
    const r = await h.sh(`for p in $(cat /proc/${companion}/task/${companion}/children); do printf '%s %s %s\\n' $p "$(tr '\\0' '\\n' < /proc/$p/cmdline | head -n 1)" "$(stat -c %U /proc/$p)"; done`);
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' '))
      .map(([pid, argv0, user]) => ({ pid: Number(pid), argv0: argv0!, user: user! }));
  };

  beforeAll(async () => {
    ({ tb, h, original } = await bootPlainHost());
    if ((await h.run(['test', '-x', TCPDUMP])).code !== 0) {
      noTcpdump = `no ${TCPDUMP} in the cached root file system (rebuild it: bash scripts/build-debian-host.sh --force)`;
      console.warn(`skipped: ${noTcpdump}`);
    }
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  for (const engine of PROXY_ENGINES) {
    it(`${engine}: start runs ${UNIT}; every row is one client socket's query and answer; stop stops and disables the unit`, async (ctx) => {
      if (noTcpdump) return ctx.skip(`skipped: ${noTcpdump}`);
      if (engine === 'adguard' && dnsproxyMissing) return ctx.skip(`skipped: ${dnsproxyMissing}`);
      await h.run(['rm', '-f', ROWS, `${ROWS}.1`]);
      // systemd's own lines about the unit (PID 1 logs to the journal from now on, not only to its console: debian-host.sh).
      expect((await h.run(['systemd-analyze', 'set-log-target', 'journal'])).code).toBe(0);
      const managerLines = async () => (await h.run(['journalctl', '_PID=1', `UNIT=${UNIT}`, '-o', 'cat', '--no-pager'])).stdout.split('\n').filter((l) => /^(Started|Stopping) /.test(l)).map((l) => l.replace(/ - .*$/, ''));
      const linesBefore = (await managerLines()).length;
      const start = await hostCli(h, hostStartArgs(engine));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(start.result?.warnings ?? []).toEqual([]);
      // The unit started once: by the capture's own start, right after save (the proxy's start,
      // in the job mode that ignores requirements, neither pulls it in again nor restarts it).
      expect((await managerLines()).slice(linesBefore)).toEqual([`Started ${UNIT}`]);
      // The manager's view, not only the links on disk: the proxy wants the unit, boot wants the
      // proxy and the follower — read by the reload start asked for at its end, not waited for
      // (systemd-reload.ts settle), so polled; and nothing left for a reload to change.
      const wants = async (unit: string) => (await h.run(['systemctl', 'list-dependencies', '--plain', '--no-pager', unit])).stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('k2s-'));
      const k2sUnits = ['k2s-dnsproxy.service', UNIT, 'k2s-dnsproxy-follow.service'];
      const needReload = async () => (await h.run(['systemctl', 'show', '-p', 'NeedDaemonReload', '--value', ...k2sUnits])).stdout.split('\n').filter(Boolean);
      await until('the manager has the links start made', 20_000, async () => (await wants('multi-user.target')).includes('k2s-dnsproxy-follow.service'));
      expect(await wants('k2s-dnsproxy.service')).toEqual(expect.arrayContaining(['k2s-dnsproxy.service', UNIT]));
      expect(await wants('multi-user.target')).toEqual(expect.arrayContaining(['k2s-dnsproxy.service', 'k2s-dnsproxy-follow.service']));
      expect(await needReload()).toEqual(['no', 'no', 'no']);
      // The systemd path: the unit runs the companion, tied to the proxy's unit; no pidfile process.
      expect(await isActive(h, UNIT)).toBe('active');
      expect((await h.run(['systemctl', 'is-enabled', UNIT])).stdout.trim()).toBe('enabled');
      expect((await h.run(['test', '-e', '/run/k2s/capture.pid'])).code).toBe(1);
      const companion = await mainPid(h, UNIT);
      expect((await hostFile(`/proc/${companion}/cmdline`))?.split('\0')).toContain('capture-watch');
      expect((await hostFile('/run/k2s/capture.ready'))?.trim()).toBe(String(companion));
      // Once its capture is open the companion switches itself, tcpdump and the parser (every
      // thread) to SCHED_IDLE (5 in /proc/PID/task/TID/sched, linux/sched.h; capture/go-idle.ts),
      // so the log yields the CPU to DNS; its start line, in the journal, comes after that. Waited
      // for before its children are listed: the switch runs chrt(1) as short-lived children.
      await until('the companion\'s start line', 20_000, async () => (await h.run(['journalctl', '-u', UNIT, '-o', 'cat', '--no-pager'])).stdout.includes(`capture-watch: (PID ${companion}, idle priority: it yields the CPU to DNS)`));
      // tcpdump opened the capture as root and dropped to nobody (-Z); the parser runs as nobody.
      const children = await companionChildren(companion);
      expect(children.map((c) => [c.argv0.endsWith('tcpdump') ? 'tcpdump' : c.argv0.endsWith('node') ? 'node' : c.argv0, c.user]).sort()).toEqual([
        ['node', 'nobody'],
        ['tcpdump', 'nobody'],
      ]);
      for (const pid of [companion, ...children.map((c) => c.pid)]) {
        const policies = (await h.sh(`grep -h '^policy' /proc/${pid}/task/*/sched`)).stdout.split('\n').filter(Boolean).map((l) => Number(l.split(':')[1]));
        expect(policies.length, `PID ${pid}`).toBeGreaterThan(0);
        expect(new Set(policies), `PID ${pid}`).toEqual(new Set([5]));
      }
      // SCHED_IDLE only yields within a scheduling group, and the unit is a session (autogroup) of
      // its own beside the proxy's: the tree's autogroup goes to nice 19 (go-idle.ts), the proxy's stays 0.
      const groups = (await h.sh(`cat /proc/${companion}/autogroup /proc/$(systemctl show -P MainPID k2s-dnsproxy.service)/autogroup`)).stdout.trim().split('\n');
      expect(groups[0]).toMatch(/^\/autogroup-\d+ nice 19$/);
      expect(groups[1]).toMatch(/^\/autogroup-\d+ nice 0$/);

      // Two clients with the same DNS id at once, both upstreams, NXDOMAIN, TCP, then the cache.
      const rcodes = await Promise.all([
        udpQuery(42001, 4201, 'web.demo.svc.cluster.local'),
        udpQuery(42002, 4201, 'nothere.default.svc.cluster.local'),
        udpQuery(42003, 4202, 'mirror.example.test'),
        udpQuery(42004, 4203, 'nx.example.test'),
      ]);
      expect(rcodes).toEqual(['NOERROR', 'NXDOMAIN', 'NOERROR', 'NXDOMAIN']);
      const tcp = await tcpQuery(4204, 'kube-dns.kube-system.svc.cluster.local');
      expect(await udpQuery(42006, 4205, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      const rows = await exactRows(6, 4201, 4205);
      const kubeDns = `${tb.addresses.kubeDns}:53`;
      const upstream = `${tb.addresses.upstream}:53`;
      const byClient = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
      expect(rows.map((r) => [r.proto, r.client, r.id, r.name, r.rcode, r.answers.join(','), r.upstream]).sort(byClient)).toEqual(
        [
          ['udp', '127.0.0.1:42001', 4201, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', kubeDns],
          ['udp', '127.0.0.1:42002', 4201, 'nothere.default.svc.cluster.local', 'NXDOMAIN', '', kubeDns],
          ['udp', '127.0.0.1:42003', 4202, 'mirror.example.test', 'NOERROR', '198.51.100.8', upstream],
          ['udp', '127.0.0.1:42004', 4203, 'nx.example.test', 'NXDOMAIN', '', upstream],
          ['udp', '127.0.0.1:42006', 4205, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', null],
          ['tcp', `127.0.0.1:${tcp.port}`, 4204, 'kube-dns.kube-system.svc.cluster.local', 'NOERROR', '172.21.0.10', kubeDns],
        ].sort(byClient),
      );
      for (const r of rows.filter((x) => x.upstream !== null)) expect(r.upstreamLatencyMs!).toBeLessThanOrEqual(r.latencyMs!);
      // The engine's own query log is off while the exact one runs.
      expect(await hostFile('/var/log/dnsproxy/dnsproxy.log')).not.toContain('mirror.example.test');

      // One more query right before the stop: the stop does not wait for the companion's drain
      // (host/capture-companion.ts endLeft), `k2s-dns queries` right after it does (queries-wait.ts
      // captureDrained), so its row is there.
      expect(await udpQuery(42007, 4206, 'mirror.example.test')).toBe('NOERROR');
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(await isActive(h, 'k2s-dnsproxy.service')).not.toBe('active');
      const after = await hostCli(h, ['queries', '--json', '--lines', '50']);
      expect((JSON.parse(after.stdout) as { rows: { client: string | null; name: string }[] }).rows.filter((r) => r.client === '127.0.0.1:42007').map((r) => r.name), after.stdout).toEqual(['mirror.example.test']);
      await until('the companion has drained and ended', 20_000, async () => (await isActive(h, UNIT)) === 'inactive');
      expect((await h.run(['systemctl', 'is-enabled', UNIT])).stdout.trim()).not.toBe('enabled');
      // The reload stop asked for at its end: the manager no longer has the proxy or the follower
      // wanted at boot, nor the unit by the proxy.
      await until('the manager has the links stop removed', 20_000, async () => (await wants('multi-user.target')).length === 0);
      expect(await wants('multi-user.target')).toEqual([]);
      expect(await needReload()).toEqual(['no', 'no', 'no']);
      expect(await wants('k2s-dnsproxy.service')).toEqual(['k2s-dnsproxy.service']);
      const unitFiles = (await h.sh('cd /etc/systemd/system && ls k2s-*.service')).stdout.trim().split('\n');
      expect(unitFiles).toEqual(expect.arrayContaining(['k2s-dnsproxy.service', UNIT, 'k2s-dnsproxy-follow.service']));
      expect((await h.run(['systemctl', 'is-enabled', ...unitFiles])).stdout.trim().split('\n')).toEqual(unitFiles.map(() => 'disabled'));
      // SIGTERM from systemd: the companion drained the parser and printed its counts to the journal.
      const journal = (await h.run(['journalctl', '-u', UNIT, '-o', 'cat', '--no-pager'])).stdout;
      const stopped = /capture-watch: stopped: \d+ rows, (\d+) packets, (\d+) passed the kernel filter, 0 dropped by the kernel, 0 parser lines skipped/.exec(journal.split('\n').findLast((l) => l.includes('capture-watch: stopped:')) ?? '');
      expect(stopped, journal).not.toBeNull();
      // One kernel copy per packet read (tcpdump-argv.ts's loopback clause), as in the sandbox.
      expect(Number(stopped![2])).toBe(Number(stopped![1]));
      expect(await hostResolver(h)).toBe(original);
    }, 180_000);
  }

  it(`tcpdump killed under ${UNIT}: status and k2s-dns queries report the capture's failure while restarts fail; systemd's restart brings the log back`, async (ctx) => {
    if (noTcpdump) return ctx.skip(`skipped: ${noTcpdump}`);
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    try {
      const companion = await mainPid(h, UNIT);
      const tcpdumps = (await companionChildren(companion)).filter((c) => c.argv0.endsWith('tcpdump'));
      expect(tcpdumps).toHaveLength(1);
      // Without a tcpdump to run, systemd's restarts (Restart=on-failure, RestartSec=1s) exit at
      // once and leave the failure in place for status to read; mode 000 hides it from root's X_OK.
      expect((await h.run(['chmod', '000', TCPDUMP])).code).toBe(0);
      expect((await h.run(['kill', '-9', String(tcpdumps[0]!.pid)])).code).toBe(0);
      await until('capture.failed written', 15_000, async () => /tcpdump exited unexpectedly \(signal SIGKILL\)/.test((await hostFile('/run/k2s/capture.failed')) ?? ''));
      expect(await hostFile('/run/k2s/capture.failed')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z tcpdump exited unexpectedly \(signal SIGKILL\)/);
      expect(await hostFile('/run/k2s/capture.ready')).toBeNull();
      const status = JSON.parse((await hostCli(h, ['status', '--json'])).stdout) as { state: string; messages: string[] };
      expect(status.state).toBe('running');
      expect(status.messages.filter((m) => m.startsWith('The exact query log stopped at'))).toEqual([expect.stringMatching(/tcpdump exited unexpectedly \(signal SIGKILL\).*; systemd restarts its unit by itself\.$/)]);
      const queries = await hostCli(h, ['queries', '--lines', '50', '--json']);
      expect(queries.code).toBe(1);
      expect(JSON.parse(queries.stdout)).toMatchObject({ available: false, rows: [], reason: expect.stringMatching(/^The exact query log stopped at \S+Z: tcpdump exited unexpectedly \(signal SIGKILL\)/) });
      // systemd did try again (the unit's own restart, not a start of ours).
      await until('a restart that found no tcpdump', 15_000, async () => (await h.run(['journalctl', '-u', UNIT, '-o', 'cat', '--no-pager'])).stdout.includes('tcpdump is not installed'));

      expect((await h.run(['chmod', '755', TCPDUMP])).code).toBe(0);
      const backMs = await until('a new capture opened by systemd', 20_000, async () => {
        const ready = (await hostFile('/run/k2s/capture.ready'))?.trim();
        return ready !== undefined && ready !== String(companion) && (await isActive(h, UNIT)) === 'active';
      });
      console.log(`debian-host-capture (${engine}): tcpdump back → systemd's restart had the capture open in ${backMs} ms (NRestarts=${(await h.run(['systemctl', 'show', '-P', 'NRestarts', UNIT])).stdout.trim()})`);
      expect(Number((await h.run(['systemctl', 'show', '-P', 'NRestarts', UNIT])).stdout.trim())).toBeGreaterThanOrEqual(2);
      expect(await hostFile('/run/k2s/capture.failed')).toBeNull();
      expect(await udpQuery(42011, 4211, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1, 4211, 4211)).map((r) => [r.client, r.rcode, r.answers])).toEqual([['127.0.0.1:42011', 'NOERROR', ['172.21.14.7']]]);
      const after = JSON.parse((await hostCli(h, ['status', '--json'])).stdout) as { messages: string[] };
      expect(after.messages.filter((m) => m.startsWith('The exact query log stopped at'))).toEqual([]);
    } finally {
      await h.run(['chmod', '755', TCPDUMP]);
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
    }
    expect(await hostFile('/run/k2s/capture.failed')).toBeNull();
    expect(await isActive(h, UNIT)).not.toBe('active');
  }, 180_000);

  it(`a companion hung on SIGTERM after stop (${UNIT} deactivating), then one killed mid-drain (failed, Result=signal): status and queries say so, start says what it waits for and resets it, uninstall leaves no failed unit`, async (ctx) => {
    if (noTcpdump) return ctx.skip(`skipped: ${noTcpdump}`);
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    type Status = { state: string; messages: string[]; captureUnit?: { activeState: string; subState: string; result: string; lastExit: string | null } };
    const unitLines = (messages: string[]) => messages.filter((m) => m.includes(UNIT));
    // Hung: stopped again and again (systemd sends SIGCONT after its SIGTERM, systemd.kill(5)), so
    // it never drains; the loop ends with the process.
    const hang = async (pid: number) => expect((await h.sh(`setsid -f sh -c 'while kill -STOP ${pid} 2>/dev/null; do sleep 0.005; done' </dev/null >/dev/null 2>&1`, 10_000)).code).toBe(0);
    /** The companion of the running capture, hung, then `k2s-dns stop` (which does not wait for its drain). */
    const stopHung = async (): Promise<number> => {
      const pid = await mainPid(h, UNIT);
      await hang(pid);
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true });
      return pid;
    };
    /**
     * stopHung, then its kill -9 mid-drain, once the unit's queued stop runs (deactivating): the
     * unit failed (Result=signal). A kill before that job runs is an exit systemd restarts
     * (Restart=on-failure), which the queued stop then ends as inactive.
     */
    const stopKilled = async () => {
      const pid = await stopHung();
      await until(`${UNIT} deactivating before the kill`, 15_000, async () => (await isActive(h, UNIT)) === 'deactivating');
      expect((await h.run(['kill', '-KILL', String(pid)])).code).toBe(0);
      await until(`${UNIT} failed`, 15_000, async () => (await isActive(h, UNIT)) === 'failed');
    };
    const first = await hostCli(h, hostStartArgs(engine));
    expect(first.result, first.stdout + first.stderr).toMatchObject({ ok: true });
    // Hung before stop's SIGTERM: it cannot drain, and the unit waits for TimeoutStopSec=.
    await stopHung();
    await until(`${UNIT} deactivating`, 15_000, async () => (await isActive(h, UNIT)) === 'deactivating');
    const hung = JSON.parse((await hostCli(h, ['status', '--json'])).stdout) as Status;
    expect(hung.captureUnit).toMatchObject({ activeState: 'deactivating' });
    expect(unitLines(hung.messages)).toEqual([expect.stringMatching(/^The exact query log's companion is still writing its last rows \(k2s-dnsproxy-capture\.service deactivating, stop-sigterm\); a start waits for it to end/)]);
    // The next start waits for systemd's SIGKILL of it, and says so.
    const second = await hostCli(h, hostStartArgs(engine));
    expect(second.result, second.stdout + second.stderr).toMatchObject({ ok: true });
    expect(second.stdout).toContain("waiting for the exact query log's companion of the last run to end (k2s-dnsproxy-capture.service deactivating");
    expect(await isActive(h, UNIT)).toBe('active');

    // Killed (kill -9) after stop's SIGTERM, before its drain ended: failed, Result=signal.
    await stopKilled();
    const killed = JSON.parse((await hostCli(h, ['status', '--json'])).stdout) as Status;
    expect(killed.captureUnit).toMatchObject({ activeState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' });
    expect(unitLines(killed.messages)).toEqual(['The exact query log may miss rows of its last run: its companion ended before it wrote them all (k2s-dnsproxy-capture.service failed, Result=signal: killed by signal KILL); the next start resets it, as uninstall does.']);
    const queries = await hostCli(h, ['queries', '--lines', '5']);
    expect(queries.stderr).toContain('The exact query log may miss rows of its last run: its companion ended before it wrote them all (k2s-dnsproxy-capture.service failed, Result=signal: killed by signal KILL)');
    // A start runs it again from failed; uninstall then leaves no failed unit behind.
    const third = await hostCli(h, hostStartArgs(engine));
    expect(third.result, third.stdout + third.stderr).toMatchObject({ ok: true });
    expect(await isActive(h, UNIT)).toBe('active');
    await stopKilled();
    const uninstall = await hostCli(h, ['uninstall', '--json']);
    expect(uninstall.result, uninstall.stdout + uninstall.stderr).toMatchObject({ ok: true });
    expect((await h.run(['systemctl', 'list-units', '--failed', '--no-legend', '--plain', UNIT])).stdout.trim()).toBe('');
    expect(await hostResolver(h)).toBe(original);
  }, 240_000);
});
