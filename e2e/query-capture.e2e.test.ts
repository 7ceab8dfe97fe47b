/**
 * The exact query log from packets, through the product: `k2s-dns start` runs the capture
 * companion next to the proxy (k2s-dns capture-watch, supervised here: the sandbox has no
 * systemd) — tcpdump -i any opens the capture as root and drops to nobody, the parser runs as
 * nobody (electron/core/capture/pipeline.ts) — and its rows land in
 * /var/log/dnsproxy/queries.jsonl. Each row must pair the query and the answer of one client
 * socket: its port, its DNS id, the rcode, the answers and the upstream that answered —
 * including two clients that use the same DNS id at the same moment, TCP, and an answer from
 * the proxy's cache (no upstream). The engine's own query log is off meanwhile; without tcpdump
 * start still succeeds, warns, and the engine logs its queries instead.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parserLine } from '../electron/core/capture/pipeline';
import { FILL_PACKETS } from '../electron/core/capture/block-fill';
import type { CapturedQuery } from '../electron/core/capture/pairing';
import { engineArgs, engineMissing, PROXY_ENGINES } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';
import { runCmd } from './bed/run-cmd';
import { tcpQuery, udpQuery } from './bed/fixed-port-query';
import { k2sDns } from './cli';
import { TCPDUMP_PATHS } from '../electron/core/capture/tcpdump-path';
import { CAPTURE_BUNDLE } from '../electron/core/capture/capture-args';
import { READY_TIMEOUT_MS } from '../electron/core/host/capture-wait';
import { isKeeperArgv } from '../electron/core/host/capture-keeper';
import { ROWS_WAIT_MS } from '../electron/cli/queries-wait';
import { QUERIES_HEADER } from '../electron/cli/print-queries';
import { RELEASE_MARGIN_MS } from '../electron/core/capture/idle-release';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: query-capture e2e runs only inside e2e/bed/sandbox.sh (as root)');
const tcpdump = inSandbox ? await runCmd('sh', ['-c', 'command -v tcpdump || true']).then((s) => s.trim()) : '';
if (inSandbox && tcpdump === '') console.warn('skipped: tcpdump is not installed (apt-get install tcpdump; scripts/setup.sh installs it)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped for adguard: ${dnsproxyMissing}`);

/** The exact log's client rows on 127.0.0.1:53 once `want` of them are answered (polls the file the companion writes; 20 s deadline). */
async function exactRows(want: number): Promise<CapturedQuery[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = await readFile(ROWS, 'utf8').catch(() => '');
    const rows = text.split('\n').map(parserLine).filter((v): v is CapturedQuery => v !== null && !('counts' in v) && v.listener === '127.0.0.1:53' && v.client.startsWith('127.0.0.1:') && v.id >= 4101 && v.id <= 4105 && v.rcode !== null);
    if (rows.length >= want || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ROWS = '/var/log/dnsproxy/queries.jsonl';
/** The line `k2s-dns queries` prints above a K2s DNS run's first row shown (shared/query-log/run-boundary.ts). */
const RUN_LINE = /^— K2s DNS started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d —$/;

/**
 * The scheduling policy of every thread of `pid`, as the kernel reports it in
 * /proc/PID/task/TID/sched (`policy : 5`, 5 being SCHED_IDLE in linux/sched.h).
 */
async function threadPolicies(pid: number): Promise<number[]> {
  const out = await runCmd('sh', ['-c', `grep -h '^policy' /proc/${pid}/task/*/sched`]);
  return out.split('\n').filter(Boolean).map((l) => Number(l.split(':')[1]));
}

/**
 * Waits (polls 50 ms, 20 s bound) for companion `pid`'s start line in its log, which it writes
 * once it has switched itself, tcpdump and the parser to idle priority (capture/go-idle.ts):
 * after its ready file, so after start may have returned.
 */
async function startLine(pid: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const line = (await readFile('/run/k2s/capture.log', 'utf8')).split('\n').find((l) => l.includes(`k2s-dns capture-watch: (PID ${pid}, `));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no start line of companion ${pid} within 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The companion's children as `[name, pid]`: `tcpdump` or `parser` (node as nobody). */
async function companionChildren(companion: number): Promise<[string, number][]> {
  const children = (await readFile(`/proc/${companion}/task/${companion}/children`, 'utf8')).trim().split(/\s+/).map(Number);
  const out: [string, number][] = [];
  for (const pid of children) {
    const argv0 = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')[0] ?? '';
    out.push([/tcpdump$/.test(argv0) ? 'tcpdump' : /node$/.test(argv0) ? 'parser' : argv0, pid]);
  }
  return out.sort();
}

describe.skipIf(!inSandbox || tcpdump === '')('exact query log from packets, run by k2s-dns start (tcpdump reader, non-root parser)', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  /** Starts K2s DNS (AdGuard unless its binary is missing) over an empty exact log; fails the test unless start exits 0. */
  async function startWithEmptyLog(): Promise<void> {
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    await runCmd('rm', ['-f', ROWS, `${ROWS}.1`]);
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
    expect(start.code, start.stderr).toBe(0);
  }

  for (const engine of PROXY_ENGINES) {
    it.skipIf(engine === 'adguard' && dnsproxyMissing !== null)(`${engine}: every row is one client socket's query and answer, with the upstream that answered; the engine logs no query`, async () => {
      await runCmd('rm', ['-f', ROWS, `${ROWS}.1`]);
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
      expect(start.code, start.stderr).toBe(0);
      expect(start.result?.warnings ?? []).toEqual([]);
      // Private like the proxy log: root, group adm when it exists, 0640 (0600 without adm).
      expect([0o640, 0o600]).toContain((await stat(ROWS)).mode & 0o777);
      // Idle priority: once its capture is open the companion switches itself, tcpdump and the
      // parser (every thread of each) to SCHED_IDLE (5, chrt), so the log yields the CPU to DNS.
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      expect(await startLine(companion)).toContain(`(PID ${companion}, idle priority: it yields the CPU to DNS)`);
      const tree = [['companion', companion] as [string, number], ...(await companionChildren(companion))];
      expect(tree.map(([name]) => name)).toEqual(['companion', 'parser', 'tcpdump']);
      for (const [name, pid] of tree) {
        const policies = await threadPolicies(pid);
        expect(policies.length, name).toBeGreaterThan(0);
        expect(new Set(policies), `${name} (PID ${pid})`).toEqual(new Set([5]));
      }
      // SCHED_IDLE only yields within a scheduling group: the tree's session is an autogroup of its
      // own (the keeper's), set to nice 19 (go-idle.ts); this test's own stays as it was.
      expect(await readFile(`/proc/${companion}/autogroup`, 'utf8')).toMatch(/^\/autogroup-\d+ nice 19\n$/);
      expect(await readFile('/proc/self/autogroup', 'utf8')).not.toContain('nice 19');
      // Concurrently: two clients with the same DNS id and different names, three more names
      // (both upstreams, NXDOMAIN); none of them asked by start's own verify queries (cached).
      const rcodes = await Promise.all([
        udpQuery(41001, 4101, 'web.demo.svc.cluster.local'),
        udpQuery(41002, 4101, 'nothere.default.svc.cluster.local'),
        udpQuery(41003, 4102, 'mirror.example.test'),
        udpQuery(41004, 4103, 'nx.example.test'),
      ]);
      expect(rcodes).toEqual(['NOERROR', 'NXDOMAIN', 'NOERROR', 'NXDOMAIN']);
      const tcp = await tcpQuery(4104, 'kube-dns.kube-system.svc.cluster.local');
      // Asked again once answered: the proxy's cache answers (both engines run with a cache).
      expect(await udpQuery(41006, 4105, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      const rows = await exactRows(6);
      const kubeDns = `${tb.addresses.kubeDns}:53`;
      const upstream = `${tb.addresses.upstream}:53`;
      const got = rows.map((r) => [r.proto, r.client, r.id, r.name, r.rcode, r.answers.join(','), r.upstream]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
      expect(got).toEqual(
        [
          ['udp', '127.0.0.1:41001', 4101, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', kubeDns],
          ['udp', '127.0.0.1:41002', 4101, 'nothere.default.svc.cluster.local', 'NXDOMAIN', '', kubeDns],
          ['udp', '127.0.0.1:41003', 4102, 'mirror.example.test', 'NOERROR', '198.51.100.8', upstream],
          ['udp', '127.0.0.1:41004', 4103, 'nx.example.test', 'NXDOMAIN', '', upstream],
          ['udp', '127.0.0.1:41006', 4105, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', null],
          ['tcp', `127.0.0.1:${tcp.port}`, 4104, 'kube-dns.kube-system.svc.cluster.local', 'NOERROR', '172.21.0.10', kubeDns],
        ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      );
      // Each row records the search list host apps used when it was asked (the K2s-managed file keeps the original's): what a +search mark is judged by.
      expect(rows.map((r) => r.search)).toEqual(rows.map(() => ['example.test']));
      // Latencies from the packets' time stamps: the upstream's round trip lies within the client's.
      for (const r of rows.filter((x) => x.upstream !== null)) expect(r.upstreamLatencyMs!).toBeLessThanOrEqual(r.latencyMs!);
      // The CLI prints the same rows (k2s-dns queries): exact, with the upstream that answered.
      const cli = await k2sDns(['queries', '--lines', '500', '--json']);
      const printed = JSON.parse(cli.stdout) as { available: boolean; rows: { client: string; name: string; upstream: string | null; mixed: boolean; engine: string }[] };
      expect(printed.available).toBe(true);
      // The engine from the saved state (root reads it), never a stand-in.
      expect([...new Set(printed.rows.map((r) => r.engine))]).toEqual([engine]);
      expect(printed.rows.filter((r) => r.client === '127.0.0.1:41003').map((r) => [r.name, r.upstream, r.mixed])).toEqual([['mirror.example.test', upstream, false]]);
      // The engine's own query log is off while the exact one runs (its own lines stay).
      expect(await readFile('/var/log/dnsproxy/dnsproxy.log', 'utf8')).not.toContain('mirror.example.test');
      // Packets the kernel dropped while the capture ran (capture-missed.ts: none here, so the
      // companion's own record is stood in for): status and k2s-dns queries say them.
      expect(await stat('/run/k2s/capture.missed').catch(() => null)).toBeNull();
      await writeFile('/run/k2s/capture.missed', 'dropped=1200\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n');
      const missedWords = 'missed 1200 packets since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS)';
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { messages: string[] };
      expect(st.messages).toContain(`The exact query log ${missedWords}.`);
      expect((JSON.parse((await k2sDns(['queries', '--lines', '5', '--json'])).stdout) as { missed?: string }).missed).toBe(missedWords);
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
      expect(stop.result?.warnings ?? []).toEqual([]);
      // Stopped with the proxy: no companion pidfile, and its last line counts what it read.
      await expect(stat('/run/k2s/capture.pid')).rejects.toThrow(/ENOENT/);
      // This stop's line: the log is appended to across starts (and a retry's), so the last one.
      const stopped = [...(await readFile('/run/k2s/capture.log', 'utf8')).matchAll(/capture-watch: stopped: \d+ rows, (\d+) packets, (\d+) passed the kernel filter, 0 dropped by the kernel, 0 parser lines skipped/g)].at(-1);
      expect(stopped, 'the companion\'s stop line').not.toBeNull();
      // Every copy the kernel made reached the parser: one per packet. Without the loopback
      // clause (tcpdump-argv.ts LOOPBACK_FILTER) each packet over lo is copied twice and
      // libpcap drops the outgoing copy in user space, so "passed" would be about twice "packets".
      expect(Number(stopped![2])).toBe(Number(stopped![1]));
    }, 120_000);
  }

  it('a stop right after the last answers keeps their rows: the ring block tcpdump still holds is filled and handed over at once (capture/block-fill.ts), not at its 1 s timeout', async () => {
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    // The kernel's block timer runs on its own phase: a round's queries may meet a block it has
    // just handed over. Rounds until one stop found its queries in an open block (nearly every
    // one does); every round must keep every row.
    const fills: string[] = [];
    for (let round = 0; round < 6 && fills.length === 0; round++) {
      await runCmd('rm', ['-f', ROWS, `${ROWS}.1`]);
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
      expect(start.code, start.stderr).toBe(0);
      // Ten answered queries, then stop at once: their packets are in a ring block the kernel hands
      // over only when it is full or BLOCK_TIMEOUT_MS (1 s) has passed.
      const names = Array.from({ length: 10 }, (_, i) => `last${round}-${i}.example.test`);
      const rcodes = await Promise.all(names.map((n, i) => udpQuery(41020 + i, 4101 + (i % 5), n)));
      expect(rcodes.every((r) => r === 'NOERROR' || r === 'NXDOMAIN')).toBe(true);
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
      // Read once stop has returned: the companion has exited (stop waits for it), its rows written.
      const text = await readFile(ROWS, 'utf8');
      const rows = text.split('\n').map(parserLine).filter((v): v is CapturedQuery => v !== null && !('counts' in v));
      expect(names.filter((n) => !rows.some((r) => r.name === n && r.rcode !== null))).toEqual([]);
      // The fill is no query: every row is the proxy's own (its listener), none names the fill.
      expect(rows.filter((r) => r.listener !== '127.0.0.1:53')).toEqual([]);
      const stopped = [...(await readFile('/run/k2s/capture.log', 'utf8')).matchAll(/capture-watch: stopped: \d+ rows, (\d+) packets, (\d+) passed the kernel filter, 0 dropped by the kernel[^\n]*/g)].at(-1);
      expect(stopped, "the companion's stop line").toBeDefined();
      // The fill's datagrams are left out of both counts: every packet of the proxy's reached the parser.
      expect(Number(stopped![2])).toBe(Number(stopped![1]));
      const filled = /the last ring block filled with (\d+) datagrams to hand it over at once \((\d+) read\)/.exec(stopped![0]);
      if (filled) {
        // One burst, some of it read (the block it closed), none of it a row.
        expect(Number(filled[1])).toBe(FILL_PACKETS);
        expect(Number(filled[2])).toBeGreaterThan(0);
        fills.push(stopped![0]);
      }
    }
    // Their block was handed over by the fill, not by the kernel's timeout.
    expect(fills).toHaveLength(1);
  }, 180_000);

  it('k2s-dns queries hides k2s-dns\'s own health checks in its text (as the window does), counts them on stderr, shows them marked with --probes; --json keeps every row with "probe"', async () => {
    await startWithEmptyLog();
    try {
      // A user's query and one asked as the health probes ask (capitals: shared/health-probe.ts).
      expect(await udpQuery(41011, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect(await udpQuery(41012, 4102, 'KUBERNETES.DEFAULT.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(2)).map((r) => r.client).sort()).toEqual(['127.0.0.1:41011', '127.0.0.1:41012']);
      // left28 #2: a program asking start's external check name after the start, through the proxy.
      const asked = await k2sDns(['query', 'www.example.test', '--server', 'proxy', '--json']);
      expect(asked.code, asked.stderr).toBe(0);
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        const text = await readFile(ROWS, 'utf8').catch(() => '');
        if (text.split('\n').map(parserLine).filter((v) => v !== null && !('counts' in v) && v.name === 'www.example.test' && v.rcode !== null).length >= 2) break;
      }
      const json = await k2sDns(['queries', '--lines', '500', '--json']);
      const all = (JSON.parse(json.stdout) as { rows: { client: string; name: string; type: string; probe: boolean; startCheck?: true }[] }).rows;
      expect(all.filter((r) => r.client === '127.0.0.1:41012').map((r) => [r.name, r.probe])).toEqual([['kubernetes.default.svc.cluster.local', true]]);
      expect(all.filter((r) => r.client === '127.0.0.1:41011').map((r) => r.probe)).toEqual([false]);
      const probes = all.filter((r) => r.probe).length;
      // left28 #2: start's verify (the cluster name through the proxy, getaddrinfo's A and AAAA,
      // the external name through the proxy), asked in the normal spelling, is marked by the names
      // and window start recorded: 4 probe rows, counted as start's.
      const starts = all.filter((r) => r.startCheck);
      expect(starts.every((r) => r.probe)).toBe(true);
      expect(starts.map((r) => `${r.type} ${r.name}`).sort()).toEqual(['A kubernetes.default.svc.cluster.local', 'A kubernetes.default.svc.cluster.local', 'A www.example.test', 'AAAA kubernetes.default.svc.cluster.local']);
      // The program's later query of the same name is no check of start's: shown, as any row.
      expect(all.filter((r) => r.name === 'www.example.test' && !r.startCheck).map((r) => [r.type, r.probe])).toEqual([['A', false]]);
      const text = await k2sDns(['queries']);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(' 127.0.0.1:41011 udp A web.demo.svc.cluster.local NOERROR ');
      expect(text.stdout).not.toContain(' 127.0.0.1:41012 ');
      expect(text.stdout).not.toContain('[health check');
      // Start's own verify lookups are hidden too, and said as start's: of its names only the program's later query is shown.
      expect(text.stdout.split('\n').filter((l) => l.includes(' www.example.test '))).toHaveLength(1);
      // Rows show the name as the packet spelled it (KUBERNETES.DEFAULT.…, asked above): compared in any case.
      expect(text.stdout.toLowerCase()).not.toContain(' kubernetes.default.svc.cluster.local ');
      expect(text.stderr).toContain(`${probes} health-check queries of k2s-dns hidden (the checks its window, status and start run; ${starts.length} of them k2s-dns start's checks); --probes shows them, marked.`);
      const shown = await k2sDns(['queries', '--probes']);
      expect(shown.stdout.split('\n').filter((l) => l.includes(' 127.0.0.1:41012 '))).toEqual([expect.stringMatching(/ KUBERNETES\.DEFAULT\.svc\.cluster\.local NOERROR .* \[health check of k2s-dns\]$/)]);
      expect(shown.stdout.split('\n').filter((l) => l.endsWith(" [k2s-dns start's check]"))).toHaveLength(starts.length);
      expect(shown.stderr).not.toContain('hidden');
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
  }, 120_000);

  it('k2s-dns queries run right after a query, with no row written yet, waits for the ring block that holds it (it printed no row ~1 s after a dig)', async () => {
    await startWithEmptyLog();
    try {
      // A first query whose row just landed: the kernel handed its ring block (and every packet
      // before it: start's own checks) over a moment ago, so the next block is handed over about
      // 1 s later (BLOCK_TIMEOUT_MS). The log is then emptied: as right after a start, no row yet.
      expect(await udpQuery(41031, 4101, 'mirror.example.test')).toBe('NOERROR');
      const deadline = Date.now() + 20_000;
      for (;;) {
        if ((await readFile(ROWS, 'utf8')).includes('"127.0.0.1:41031"')) break;
        if (Date.now() > deadline) throw new Error('the first row was not written within 20 s');
        await new Promise((r) => setTimeout(r, 5));
      }
      await runCmd('truncate', ['-s', '0', ROWS]);
      // Asked now, its row lands with that next block: queries run at once must wait for it.
      expect(await udpQuery(41032, 4102, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      const text = await k2sDns(['queries']);
      expect(text.code, text.stderr).toBe(0);
      // The run's line heads the rows (the log keeps earlier runs' rows: run-boundary.ts).
      expect(text.stdout.split('\n').filter(Boolean)).toEqual([QUERIES_HEADER, expect.stringMatching(RUN_LINE), expect.stringMatching(/ 127\.0\.0\.1:41032 udp A web\.demo\.svc\.cluster\.local NOERROR via 172\.21\.0\.10:53 /)]);
      expect(text.stderr).toBe('');
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
  }, 120_000);

  it('k2s-dns queries run right after a query, with older rows to print (the newest older than the 1 s block timeout), waits for the block that holds it; --no-wait reads once', async () => {
    await startWithEmptyLog();
    try {
      /** Resolves once the row of the query from `port` is in the file (20 s deadline). */
      const landed = async (port: number) => {
        const deadline = Date.now() + 20_000;
        while (!(await readFile(ROWS, 'utf8')).includes(`"127.0.0.1:${port}"`)) {
          if (Date.now() > deadline) throw new Error(`the row of port ${port} was not written within 20 s`);
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      // Twice: where the next ring block handover falls against this command's start-up varies, and
      // without the wait a run that starts before it misses the row (each one a chance to).
      for (const [old, fresh, id] of [[41051, 41052, 4151], [41053, 41054, 4153]] as const) {
        expect(await udpQuery(old, id, 'mirror.example.test')).toBe('NOERROR');
        await landed(old);
        // Its row is now older than the block timeout (no other query meanwhile: no window open).
        await new Promise((r) => setTimeout(r, 1_300));
        expect(await udpQuery(fresh, id + 1, 'web.demo.svc.cluster.local')).toBe('NOERROR');
        const text = await k2sDns(['queries', '--lines', '2']);
        expect(text.code, text.stderr).toBe(0);
        expect(text.stdout.split('\n').filter(Boolean)).toEqual([
          QUERIES_HEADER,
          expect.stringMatching(RUN_LINE),
          expect.stringMatching(new RegExp(` 127\\.0\\.0\\.1:${old} udp A mirror\\.example\\.test NOERROR `)),
          expect.stringMatching(new RegExp(` 127\\.0\\.0\\.1:${fresh} udp A web\\.demo\\.svc\\.cluster\\.local NOERROR `)),
        ]);
      }
      // A quiet log (the newest row older than 1 s, no query since): --no-wait reads it once, the plain
      // command sits out its wait for a row that does not come (ROWS_WAIT_MS); both print the same rows.
      await new Promise((r) => setTimeout(r, 1_300));
      let t0 = performance.now();
      const once = await k2sDns(['queries', '--lines', '1', '--no-wait']);
      const onceMs = performance.now() - t0;
      t0 = performance.now();
      const waited = await k2sDns(['queries', '--lines', '1']);
      const waitedMs = performance.now() - t0;
      console.log(`queries on a quiet log: --no-wait ${Math.round(onceMs)} ms, waiting ${Math.round(waitedMs)} ms`);
      expect(once.code).toBe(0);
      expect(once.stdout).toBe(waited.stdout);
      expect(once.stdout).toMatch(/ 127\.0\.0\.1:41054 udp A web\.demo\.svc\.cluster\.local NOERROR /);
      expect(waitedMs).toBeGreaterThanOrEqual(ROWS_WAIT_MS);
      expect(waitedMs - onceMs).toBeGreaterThan(ROWS_WAIT_MS / 2);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
  }, 120_000);

  it.skipIf(!PROXY_ENGINES.includes('dnsmasq'))(`dnsmasq with the upstream down on an idle host: a query no answer comes for is written as "no answer" ${30 + RELEASE_MARGIN_MS / 1000} s after it, with no later packet, and k2s-dns queries shows it (capture/idle-release.ts)`, async () => {
    await runCmd('rm', ['-f', ROWS, `${ROWS}.1`]);
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test', '--json']);
    expect(start.code, start.stderr).toBe(0);
    try {
      // Nothing listens on the upstream's address: dnsmasq sends the client no answer at all
      // (sandbox-control.ts UPSTREAM_DOWN_UNCACHED), and nothing else is asked after it.
      await tb.stopUpstream();
      const askedAt = Date.now();
      await expect(udpQuery(41040, 4140, 'down.example.test')).rejects.toThrow(/no answer to down\.example\.test/);
      // Reading the file sends no packet. The pairing waits 30 s for an answer, the timer 2 s more;
      // the deadline leaves a busy 2-core machine 30 s beyond that.
      const deadline = askedAt + 30_000 + RELEASE_MARGIN_MS + 30_000;
      let row: CapturedQuery | undefined;
      for (;;) {
        const text = await readFile(ROWS, 'utf8').catch(() => '');
        row = text.split('\n').map(parserLine).find((v): v is CapturedQuery => v !== null && !('counts' in v) && v.client === '127.0.0.1:41040' && v.id === 4140);
        if (row !== undefined) break;
        if (Date.now() > deadline) throw new Error(`no row for the unanswered query within ${(deadline - askedAt) / 1000} s of asking it`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(row).toMatchObject({ proto: 'udp', listener: '127.0.0.1:53', name: 'down.example.test', type: 'A', rcode: null, answers: [], latencyMs: null, upstream: null });
      // Not before the pairing's 30 s: an answer in that time would still have made it an answered row.
      expect(Date.now() - askedAt).toBeGreaterThanOrEqual(30_000);
      const text = await k2sDns(['queries', '--no-wait']);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout.split('\n').filter((l) => l.includes(' 127.0.0.1:41040 '))).toEqual([expect.stringMatching(/ 127\.0\.0\.1:41040 udp A down\.example\.test - no answer$/)]);
    } finally {
      await tb.startUpstream();
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
  }, 150_000);

  it('after a stop, k2s-dns queries prints the earlier runs\' rows, each run under its start line, and says last that K2s DNS is stopped (exit 0, as README says); --no-wait the same', async () => {
    await startWithEmptyLog();
    try {
      expect(await udpQuery(41061, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1)).length).toBeGreaterThanOrEqual(1);
      expect((await k2sDns(['stop', '--on-drift', 'restore', '--json'])).code).toBe(0);
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!), '--verify-name', 'www.example.test', '--json']);
      expect(start.code, start.stderr).toBe(0);
      expect(await udpQuery(41062, 4102, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(2)).length).toBeGreaterThanOrEqual(2);
      expect((await k2sDns(['stop', '--on-drift', 'restore', '--json'])).code).toBe(0);
      for (const args of [['queries', '--lines', '5'], ['queries', '--lines', '5', '--no-wait']]) {
        const text = await k2sDns(args);
        expect(text.code, text.stderr).toBe(0);
        const lines = text.stdout.split('\n').filter(Boolean);
        // Two runs, each under its own start line, the earlier run's first.
        expect(lines).toEqual([QUERIES_HEADER, expect.stringMatching(RUN_LINE), expect.stringMatching(/ 127\.0\.0\.1:41061 udp A web\.demo\.svc\.cluster\.local NOERROR /), expect.stringMatching(RUN_LINE), expect.stringMatching(/ 127\.0\.0\.1:41062 udp A web\.demo\.svc\.cluster\.local NOERROR /)]);
        expect(lines[1]).not.toBe(lines[3]);
        const err = text.stderr.trim().split('\n');
        expect(err.at(-1)).toMatch(/^K2s DNS is stopped: the rows above are from its earlier runs \(which engine answered them is not known without its saved state\), and no new row comes until it starts again; start it as root: `.*k2s-dns.* start.*`/);
        expect(text.stderr).not.toContain('K2s DNS is not running (stopped)');
      }
    } finally {
      await k2sDns(['stop', '--on-drift', 'restore', '--json']);
    }
  }, 120_000);

  it('tcpdump killed: the companion exits 1 and says why, and k2s-dns queries says the exact log stopped instead of showing old rows', async () => {
    await startWithEmptyLog();
    try {
      expect(await udpQuery(41001, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1)).map((r) => r.name)).toEqual(['web.demo.svc.cluster.local']);
      // The tcpdump this start's companion runs: its child whose argv[0] is tcpdump (only that PID).
      // Its keeper (capture.pid) killed first, so the companion's exit 1 is not restarted: what it says then.
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      process.kill(Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim()), 'SIGKILL');
      const children = (await readFile(`/proc/${companion}/task/${companion}/children`, 'utf8')).trim().split(/\s+/).map(Number);
      const argv0 = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')[0] ?? '';
      const tdPids: number[] = [];
      for (const pid of children) if (/tcpdump$/.test(await argv0(pid))) tdPids.push(pid);
      expect(tdPids).toHaveLength(1);
      process.kill(tdPids[0]!, 'SIGKILL');
      // The companion ends (bounded: 10 s on a busy machine), leaving why.
      const deadline = Date.now() + 10_000;
      while ((await stat(`/proc/${companion}`).then(() => true, () => false)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await expect(stat(`/proc/${companion}`)).rejects.toThrow(/ENOENT/);
      expect(await readFile('/run/k2s/capture.failed', 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z tcpdump exited unexpectedly \(signal SIGKILL\)/);
      expect(await readFile('/run/k2s/capture.log', 'utf8')).toMatch(/capture-watch: the exact query log stopped: tcpdump exited unexpectedly \(signal SIGKILL\)[^\n]*; exiting 1\./);
      await expect(stat('/run/k2s/capture.ready')).rejects.toThrow(/ENOENT/);
      // The old row is still in the file, but queries reports the stop, not it (exit 1).
      const cli = await k2sDns(['queries', '--lines', '50', '--json']);
      expect(cli.code).toBe(1);
      const printed = JSON.parse(cli.stdout) as { available: boolean; reason: string; rows: unknown[] };
      expect(printed.available).toBe(false);
      expect(printed.rows).toEqual([]);
      expect(printed.reason).toMatch(/^The exact query log stopped at \S+Z: tcpdump exited unexpectedly \(signal SIGKILL\)/);
      // Status says it too (DNS itself keeps running; pidfile mode: the fix is a new start).
      const status = await k2sDns(['status', '--json']);
      const st = JSON.parse(status.stdout) as { state: string; messages: string[] };
      expect(st.state).toBe('running');
      expect(st.messages.filter((m) => m.startsWith('The exact query log stopped at'))).toEqual([expect.stringMatching(/tcpdump exited unexpectedly \(signal SIGKILL\).*; to restart it, run .*start.*\.$/)]);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
    // Stop clears the reason with the companion.
    await expect(stat('/run/k2s/capture.failed')).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('packets the kernel dropped while the parser could not keep up are recorded while it runs, and status and k2s-dns queries say them', async (ctx) => {
    if (!(await runCmd('sh', ['-c', 'command -v dnsperf || true'])).trim()) return ctx.skip('skipped: dnsperf is not installed (apt-get install dnsperf)');
    await startWithEmptyLog();
    try {
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      const parser = (await companionChildren(companion)).find(([name]) => name === 'parser')![1];
      // The parser stopped (SIGSTOP): tcpdump blocks on its pipe, the ring fills, and the
      // kernel drops what does not fit (2 MiB, tcpdump-argv.ts RING_KIB) of 5 s of queries at full rate.
      process.kill(parser, 'SIGSTOP');
      const file = '/tmp/k2s-dns-drops-queries.txt';
      await writeFile(file, 'www.example.test A\nweb.demo.svc.cluster.local A\n');
      try {
        await runCmd('dnsperf', ['-s', '127.0.0.1', '-d', file, '-l', '5', '-t', '2'], 60_000);
      } finally {
        process.kill(parser, 'SIGCONT');
      }
      // Rows flow again: within MISSED_ASK_MS (5 s) the companion asks tcpdump and records its drops (30 s bound).
      const deadline = Date.now() + 30_000;
      let text = '';
      while (!/^dropped=[1-9]\d*$/m.test((text = await readFile('/run/k2s/capture.missed', 'utf8').catch(() => ''))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const dropped = Number(/^dropped=(\d+)$/m.exec(text)?.[1] ?? 0);
      expect(dropped, text).toBeGreaterThan(0);
      expect(text).toMatch(/^idle=1$/m);
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { messages: string[] };
      expect(st.messages).toContainEqual(expect.stringMatching(new RegExp(`^The exact query log missed ${dropped} packets since \\S+Z while the proxy was busy \\(it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS\\)\\.$`)));
      expect((JSON.parse((await k2sDns(['queries', '--lines', '5', '--json'])).stdout) as { missed?: string }).missed).toMatch(new RegExp(`^missed ${dropped} packets since `));
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
      // What it recorded while running is at most tcpdump's final count in the stop line.
      const stopped = [...(await readFile('/run/k2s/capture.log', 'utf8')).matchAll(/capture-watch: stopped: [^\n]*?, (\d+) dropped by the kernel/g)].at(-1);
      expect(Number(stopped?.[1])).toBeGreaterThanOrEqual(dropped);
      // They belonged to that run: stop removes them.
      await expect(stat('/run/k2s/capture.missed')).rejects.toThrow(/ENOENT/);
    } finally {
      await k2sDns(['stop', '--on-drift', 'restore', '--json']);
    }
  }, 120_000);

  it('rows the companion could not write are said while it runs, and not after stop: a later start without the log does not say them', async () => {
    await startWithEmptyLog();
    try {
      // The companion's record of rows a full log disk refused (rows-file.ts, capture-main.ts
      // onLoss), written here as it writes it: the readers and stop's removal are what is tested.
      const line = '12 rows not written (no space left on /var/log/dnsproxy)';
      // A row in the file first: k2s-dns queries says the loss with the rows it shows.
      expect(await udpQuery(41011, 4101, 'www.example.test')).toBe('NOERROR');
      expect(await exactRows(1)).toHaveLength(1);
      await writeFile('/run/k2s/capture.unwritten', `${line}\n`, { mode: 0o644 });
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { messages: string[] };
      expect(st.messages).toContain(`The exact query log misses rows: ${line}; free space there, the next rows are written again.`);
      expect((JSON.parse((await k2sDns(['queries', '--lines', '5', '--json'])).stdout) as { unwritten?: string }).unwritten).toBe(line);
      // The text output says what to do about a full disk: free space on the file system that holds it, never "ask a name".
      const text = await k2sDns(['queries', '--lines', '5', '--no-wait']);
      expect(text.stderr).toContain(`The exact query log misses rows: ${line}; free space on the file system that holds /var/log/dnsproxy (\`df -h /var/log/dnsproxy\` names it and how full it is): the next rows are written again then.\n`);
      expect(text.stderr).not.toContain('ask a name');
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
      await expect(stat('/run/k2s/capture.unwritten')).rejects.toThrow(/ENOENT/);
      const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
      const again = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--no-log-queries', '--verify-name', 'www.example.test', '--json']);
      expect(again.code, again.stderr).toBe(0);
      const after = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { messages: string[] };
      expect(after.messages.filter((m) => m.includes('misses rows'))).toEqual([]);
    } finally {
      await k2sDns(['stop', '--on-drift', 'restore', '--json']);
    }
  }, 120_000);

  it('`start --no-log-queries` while the query log runs is refused (RUNNING_OTHER_OPTIONS, exit 3) and the log keeps running; started with it, k2s-dns queries says it logs no query and that the rows shown are from an earlier run', async () => {
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    const startArgs = ['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--no-log-queries', '--verify-name', 'www.example.test', '--json'];
    await startWithEmptyLog();
    try {
      expect(await udpQuery(41021, 4101, 'www.example.test')).toBe('NOERROR');
      expect(await exactRows(1)).toHaveLength(1);
      const refused = await k2sDns(startArgs);
      expect(refused.code, refused.stdout).toBe(3);
      expect(refused.result?.code).toBe('RUNNING_OTHER_OPTIONS');
      expect(refused.result?.message).toContain('K2s DNS is already running with other options (query log: off asked, on running); nothing changed.');
      // Refused, not half-applied: the query log still logs.
      expect(await udpQuery(41022, 4102, 'www.example.test')).toBe('NOERROR');
      expect(await exactRows(2)).toHaveLength(2);
      await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      const started = await k2sDns(startArgs);
      expect(started.code, started.stderr).toBe(0);
      // The row of the run before is still in the file: said to be from an earlier run, not current.
      const text = await k2sDns(['queries', '--lines', '5']);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toContain('The running K2s DNS was started with --no-log-queries: it logs no query; the rows shown are from an earlier run. To log queries, stop it, then start it without --no-log-queries: `');
      const json = JSON.parse((await k2sDns(['queries', '--lines', '5', '--json'])).stdout) as { available: boolean; notLogging: string | null; rows: unknown[] };
      expect(json.available).toBe(true);
      expect(json.notLogging).toMatch(/^The running K2s DNS was started with --no-log-queries: it logs no query; the rows shown are from an earlier run\./);
      // No file at all: not "a start writes it from then on" (a start while it runs changes nothing).
      await runCmd('rm', ['-f', ROWS, `${ROWS}.1`]);
      const none = await k2sDns(['queries', '--lines', '5']);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`No exact query log to read: ${ROWS} does not exist. The running K2s DNS was started with --no-log-queries: it logs no query. To log queries`);
      expect(none.stderr).not.toContain('A start writes it');
    } finally {
      await k2sDns(['stop', '--on-drift', 'restore', '--json']);
    }
  }, 120_000);

  it('the companion killed (kill -9): its keeper restarts it, a query after that is in the exact log, status says so, and stop leaves no companion', async () => {
    await startWithEmptyLog();
    const keeper = Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim());
    let restarted = 0;
    try {
      expect(await udpQuery(41001, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1)).map((r) => r.name)).toEqual(['web.demo.svc.cluster.local']);
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      expect(companion).not.toBe(keeper);
      process.kill(companion, 'SIGKILL');
      // Restarted after 1 s (the watchdog's first backoff): its capture open when the ready file names a new PID (20 s on a busy machine).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const now = Number((await readFile('/run/k2s/capture.ready', 'utf8').catch(() => '')).trim());
        if (now > 0 && now !== companion) {
          restarted = now;
          break;
        }
        if (Date.now() > deadline) throw new Error('the companion was not restarted within 20 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await readFile(`/proc/${restarted}/cmdline`, 'utf8')).split('\0')).toContain('capture-watch');
      // Its keeper's restart runs at idle priority too once its capture is open.
      await startLine(restarted);
      expect(new Set(await threadPolicies(restarted))).toEqual(new Set([5]));
      // And in the keeper's session, whose autogroup the new companion set to 19 again (the keeper put it at 0 for its start-up).
      expect(await readFile(`/proc/${restarted}/autogroup`, 'utf8')).toMatch(/^\/autogroup-\d+ nice 19\n$/);
      expect(await readFile(`/proc/${keeper}/autogroup`, 'utf8')).toBe(await readFile(`/proc/${restarted}/autogroup`, 'utf8'));
      expect(await readFile('/run/k2s/capture.log', 'utf8')).toMatch(new RegExp(`k2s-dns capture keeper: the companion \\(PID ${companion}\\) ended with status 137; restart 1 of 6 in 1s\\.`));
      // A query after the restart: a real row of the new companion.
      expect(await udpQuery(41002, 4102, 'www.example.test')).toBe('NOERROR');
      const rows = await exactRows(2);
      expect(rows.filter((r) => r.id === 4102).map((r) => [r.name, r.rcode])).toEqual([['www.example.test', 'NOERROR']]);
      const cli = await k2sDns(['queries', '--lines', '50', '--json']);
      expect(cli.code, cli.stdout).toBe(0);
      expect((JSON.parse(cli.stdout) as { available: boolean }).available).toBe(true);
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string; messages: string[] };
      expect(st.state).toBe('running');
      expect(st.messages).toContainEqual(expect.stringMatching(new RegExp(`^At \\d\\d:\\d\\d:\\d\\d UTC the exact query log's companion \\(PID ${companion}\\) was found dead \\(killed by signal KILL \\(exit status 137\\)\\); its keeper restarted it as PID ${restarted}\\.$`)));
      expect(st.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([]);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
    // Stop ends what start began: the keeper and the companion it restarted (and its tcpdump) are gone.
    for (const pid of [keeper, restarted]) await expect(stat(`/proc/${pid}`)).rejects.toThrow(/ENOENT/);
    const left: string[] = [];
    for (const pid of (await runCmd('ls', ['/proc'])).split(/\s+/).filter((p) => /^\d+$/.test(p))) {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (argv.includes('capture-watch') || argv.includes('k2s-dns-capture-keeper')) left.push(`${pid} ${argv.join(' ')}`);
    }
    expect(left).toEqual([]);
    await expect(stat('/run/k2s/capture.pid')).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('the companion stopped (kill -STOP: it does not end on SIGTERM): stop ends its keeper, it, its tcpdump and its parser (no cgroup does here), and the resolver is back byte-identical', async () => {
    const original = await readFile('/etc/resolv.conf');
    await startWithEmptyLog();
    const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
    const keeper = Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim());
    // Once its chrt runs are over (its start line: idle priority set), its children are tcpdump and the parser alone.
    await startLine(companion);
    const children = await companionChildren(companion);
    expect(children.map(([name]) => name)).toEqual(['parser', 'tcpdump']);
    process.kill(companion, 'SIGSTOP');
    try {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
      expect(stop.result?.warnings ?? []).toEqual([]);
      // Gone, not orphaned under PID 1 (reaped by it: polled, 10 s on a busy machine). Before the fix tcpdump and the parser ran on as nobody.
      const tree = [keeper, companion, ...children.map(([, pid]) => pid)];
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        if ((await Promise.all(tree.map((pid) => stat(`/proc/${pid}`).then(() => 1, () => 0)))).every((n) => n === 0)) break;
      }
      for (const pid of tree) await expect(stat(`/proc/${pid}`), `PID ${pid} left`).rejects.toThrow(/ENOENT/);
      // Nor any other capture process of ours: a companion, a tcpdump writing pcap to stdout, a parser.
      const left: string[] = [];
      for (const pid of (await runCmd('ls', ['/proc'])).split(/\s+/).filter((p) => /^\d+$/.test(p))) {
        const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
        if (argv.includes('capture-watch') || argv.includes('k2s-dns-capture-keeper') || (/tcpdump$/.test(argv[0] ?? '') && argv.includes('-Z')) || argv.some((a) => a.endsWith('capture-rows.cjs'))) left.push(`${pid} ${argv.join(' ')}`);
      }
      expect(left).toEqual([]);
      expect(await readFile('/etc/resolv.conf')).toEqual(original);
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string };
      expect(st.state).toBe('stopped');
    } finally {
      // A companion left stopped by a failed assertion (still that companion): let it go on, so the next stop ends it.
      if ((await readFile(`/proc/${companion}/cmdline`, 'utf8').catch(() => '')).split('\0').includes('capture-watch')) process.kill(companion, 'SIGCONT');
    }
  }, 120_000);

  it('a second SIGTERM during the drain (an impatient kill): the companion ignores it, drains, writes its stop line and exits 0, keeping the last row', async () => {
    await startWithEmptyLog();
    try {
      expect(await udpQuery(41003, 4103, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      await startLine(companion);
      const exited = new Promise<void>((resolve) => {
        const poll = () => void stat(`/proc/${companion}`).then(() => setTimeout(poll, 20), () => resolve());
        poll();
      });
      process.kill(companion, 'SIGTERM');
      // The second once the first was handled (the companion removes its ready file as its stop
      // begins), during its drain: with the default action back, it would die of it there.
      for (const deadline = Date.now() + 10_000; (await stat('/run/k2s/capture.ready').then(() => true, () => false)) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 2));
      process.kill(companion, 'SIGTERM');
      await exited;
      const log = await readFile('/run/k2s/capture.log', 'utf8');
      // Its own stop line (the default action of the second SIGTERM would have ended it without one)…
      expect(log).toMatch(/k2s-dns capture-watch: stopped: \d+ rows, /);
      // …and an exit 0: the keeper does not restart it (status 143 would be a signal death).
      expect(log).not.toMatch(new RegExp(`the companion \\(PID ${companion}\\) ended with status`));
      expect((await exactRows(1)).map((r) => [r.id, r.name, r.rcode])).toEqual([[4103, 'web.demo.svc.cluster.local', 'NOERROR']]);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
  }, 120_000);

  it('the companion killed with its keeper (kill -9 both: they write nothing): status and k2s-dns queries say the exact log stopped, not its old rows (breaker10 M2)', async () => {
    await startWithEmptyLog();
    try {
      expect(await udpQuery(41001, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1)).map((r) => r.name)).toEqual(['web.demo.svc.cluster.local']);
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      // Running: no stop said.
      const before = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { messages: string[] };
      expect(before.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([]);
      process.kill(Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim()), 'SIGKILL');
      process.kill(companion, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while ((await stat(`/proc/${companion}`).then(() => true, () => false)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await expect(stat(`/proc/${companion}`)).rejects.toThrow(/ENOENT/);
      // It left its ready file and no failed line: nothing of its own says it stopped.
      expect((await readFile('/run/k2s/capture.ready', 'utf8')).trim()).toBe(String(companion));
      await expect(stat('/run/k2s/capture.failed')).rejects.toThrow(/ENOENT/);
      const cli = await k2sDns(['queries', '--lines', '50', '--json']);
      expect(cli.code).toBe(1);
      const printed = JSON.parse(cli.stdout) as { available: boolean; reason: string; rows: unknown[] };
      expect(printed).toMatchObject({ available: false, rows: [] });
      expect(printed.reason).toMatch(new RegExp(`^The exact query log stopped: its companion \\(capture-watch, PID ${companion}\\) was found dead at \\S+Z, ended without a word \\(killed: kill -9, the OOM killer\\); its last row was written at \\S+Z\\.`));
      const plain = await k2sDns(['queries', '--lines', '50']);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toContain(`The exact query log stopped: its companion (capture-watch, PID ${companion}) was found dead at`);
      const status = await k2sDns(['status', '--json']);
      expect(status.code).toBe(0);
      const st = JSON.parse(status.stdout) as { state: string; messages: string[] };
      expect(st.state).toBe('running');
      expect(st.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([expect.stringMatching(new RegExp(`^The exact query log stopped: its companion \\(capture-watch, PID ${companion}\\) was found dead at .*; to restart it, run .*start.*\\.$`))]);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
    // Stop clears the ready file the dead companion left.
    await expect(stat('/run/k2s/capture.ready')).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('the companion killed with its keeper (kill -9 both), then `k2s-dns start` with the running options: it restarts the exact log under a new keeper, and a query after it is a row; a start after that changes nothing; stop leaves no companion', async () => {
    const engine = PROXY_ENGINES.find((e) => e !== 'adguard' || dnsproxyMissing === null)!;
    const startArgs = ['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test'];
    await startWithEmptyLog();
    let fresh = 0;
    try {
      expect(await udpQuery(41001, 4101, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(1)).map((r) => r.id)).toEqual([4101]);
      const companion = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      process.kill(Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim()), 'SIGKILL');
      process.kill(companion, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while ((await stat(`/proc/${companion}`).then(() => true, () => false)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await expect(stat(`/proc/${companion}`)).rejects.toThrow(/ENOENT/);
      const again = await k2sDns([...startArgs, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.result?.message).toBe('K2s DNS is already running; the exact query log was restarted.');
      expect(again.result?.warnings ?? []).toEqual([]);
      // A new companion runs, under a new keeper: its ready file names a live capture-watch.
      fresh = Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim());
      expect(fresh).not.toBe(companion);
      expect((await readFile(`/proc/${fresh}/cmdline`, 'utf8')).split('\0')).toContain('capture-watch');
      const st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string; messages: string[] };
      expect(st.state).toBe('running');
      expect(st.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([]);
      // A query after it is a row of the exact log.
      expect(await udpQuery(41002, 4102, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(2)).map((r) => r.id)).toEqual([4101, 4102]);
      // A start after that changes nothing: no second keeper is left to end (a held one, dropped,
      // ended the running companion's tcpdump and parser), and the same companion writes the rows.
      const third = await k2sDns([...startArgs, '--json']);
      expect(third.result?.message).toBe('K2s DNS is already running; nothing changed.');
      const keepers: number[] = [];
      for (const pid of (await readdir('/proc')).filter((d) => /^\d+$/.test(d))) {
        if (isKeeperArgv((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').slice(0, -1))) keepers.push(Number(pid));
      }
      expect(keepers).toEqual([Number((await readFile('/run/k2s/capture.pid', 'utf8')).trim())]);
      expect(await udpQuery(41003, 4103, 'web.demo.svc.cluster.local')).toBe('NOERROR');
      expect((await exactRows(3)).map((r) => r.id)).toEqual([4101, 4102, 4103]);
      expect(Number((await readFile('/run/k2s/capture.ready', 'utf8')).trim())).toBe(fresh);
    } finally {
      const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
      expect(stop.code, stop.stdout).toBe(0);
    }
    // Stop leaves no companion: the new one ended, its ready file removed.
    await expect(stat('/run/k2s/capture.ready')).rejects.toThrow(/ENOENT/);
    // Gone, or a zombie not yet reaped (its cmdline empty): no capture-watch runs.
    if (fresh > 0) expect((await readFile(`/proc/${fresh}/cmdline`, 'utf8').catch(() => '')).split('\0')).not.toContain('capture-watch');
  }, 120_000);

  it('tcpdump failing at once (a stub that exits 1): start stops waiting at the companion\'s second failure, its keeper\'s restart, well before the 12 s ready timeout, and warns in its words', async () => {
    // The stub over every tcpdump the companion may find, inside the sandbox's own mount namespace (as the case below).
    const stub = '/run/k2s-e2e-tcpdump-stub';
    await writeFile(stub, "#!/bin/sh\necho 'tcpdump: any: stand-in refused (e2e stub)' >&2\nexit 1\n", { mode: 0o755 });
    const paths = TCPDUMP_PATHS.filter((p) => existsSync(p));
    for (const p of paths) await runCmd('mount', ['--bind', stub, p]);
    try {
      const t0 = Date.now();
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test', '--json']);
      const ms = Date.now() - t0;
      const at = (step: string, status: string) => start.events.find((e) => e.type === 'step' && e.step === step && e.status === status)?.at ?? NaN;
      console.log(`start with a failing tcpdump: ${ms} ms, service step ${at('service', 'done') - at('service', 'running')} ms; ${JSON.stringify(start.result?.warnings)}`);
      expect(start.code, start.stderr).toBe(0);
      expect(start.result?.warnings?.map((w) => w.code)).toEqual(['CAPTURE_NOT_STARTED']);
      expect(start.result?.warnings?.[0]?.message).toMatch(/^The exact query log did not start \(its companion failed 2 times in a row \(restarted by its keeper 1 s after the first\), the last exited with status 1: tcpdump exited \(exit 1\): tcpdump: any: stand-in refused \(e2e stub\)\)/);
      // The whole start, checks and proxy included, in less than the wait it used to sit out alone.
      expect(ms).toBeLessThan(READY_TIMEOUT_MS);
      // Its keeper restarted the companion once before start gave up waiting: both runs in its log.
      expect((await readFile('/run/k2s/capture.log', 'utf8')).match(/k2s-dns capture keeper: the companion \(PID \d+\) ended with status 1; restart 1 of 6 in 1s\./g)?.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const p of paths) await runCmd('umount', [p]);
      expect((await k2sDns(['stop', '--on-drift', 'restore'])).code).toBe(0);
    }
  }, 120_000);

  it('a companion that ends with status 2 before it runs (its command line refused: no failed file of its own): its keeper writes the failed file, and start stops waiting at the restart\'s failure with its words, not after 12 s', async () => {
    // The companion's own bundle (capture-program.ts: dist/CAPTURE_BUNDLE next to the CLI's) replaced,
    // inside the sandbox's own mount namespace, by one that refuses as the CLI's usage error does.
    const bundle = new URL(`../dist/${CAPTURE_BUNDLE}`, import.meta.url).pathname;
    const stub = '/run/k2s-e2e-capture-usage.cjs';
    await writeFile(stub, "process.stderr.write('k2s-dns: capture-watch: stand-in usage error (e2e stub)\\n'); process.exit(2);\n", { mode: 0o644 });
    await runCmd('mount', ['--bind', stub, bundle]);
    try {
      const t0 = Date.now();
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test', '--json']);
      const ms = Date.now() - t0;
      console.log(`start with a companion exiting 2: ${ms} ms; ${JSON.stringify(start.result?.warnings)}`);
      expect(start.code, start.stderr).toBe(0);
      expect(start.result?.warnings?.map((w) => w.code)).toEqual(['CAPTURE_NOT_STARTED']);
      expect(start.result?.warnings?.[0]?.message).toMatch(/^The exact query log did not start \(its companion failed 2 times in a row \(restarted by its keeper 1 s after the first\), the last exited with status 2: the companion \(PID \d+\) exited with status 2 before its capture opened; its last words: k2s-dns: capture-watch: stand-in usage error \(e2e stub\)\)/);
      expect(ms).toBeLessThan(READY_TIMEOUT_MS);
    } finally {
      await runCmd('umount', [bundle]);
      expect((await k2sDns(['stop', '--on-drift', 'restore'])).code).toBe(0);
    }
  }, 120_000);

  it('without tcpdump: start succeeds with a warning that names the fix, and the engine logs its queries instead', async () => {
    // Hidden inside the sandbox's own mount namespace (e2e/bed/sandbox.sh: unshare -m --propagation private).
    for (const p of ['/usr/bin/tcpdump', '/usr/sbin/tcpdump']) await runCmd('sh', ['-c', `[ -e ${p} ] && mount --bind /dev/null ${p} || true`]);
    try {
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test', '--json']);
      expect(start.code, start.stderr).toBe(0);
      expect(start.result?.warnings?.map((w) => w.code)).toEqual(['CAPTURE_UNAVAILABLE']);
      expect(start.result?.warnings?.[0]?.message).toMatch(/tcpdump is not installed \(apt-get install tcpdump\)/);
      expect(await udpQuery(41011, 4111, 'mirror.example.test')).toBe('NOERROR');
      // dnsmasq's log-queries line for it (the fallback); no companion runs.
      const deadline = Date.now() + 10_000;
      let log = '';
      while (!log.includes('query[A] mirror.example.test from 127.0.0.1') && Date.now() < deadline) {
        log = await readFile('/var/log/dnsproxy/dnsproxy.log', 'utf8');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(log).toContain('query[A] mirror.example.test from 127.0.0.1');
      await expect(stat('/run/k2s/capture.pid')).rejects.toThrow(/ENOENT/);
      expect((await k2sDns(['stop', '--on-drift', 'restore'])).code).toBe(0);
    } finally {
      for (const p of ['/usr/bin/tcpdump', '/usr/sbin/tcpdump']) await runCmd('sh', ['-c', `mountpoint -q ${p} && umount ${p} || true`]);
    }
  }, 120_000);
});
