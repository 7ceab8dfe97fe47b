import { afterEach, describe, expect, it } from 'vitest';
import { capturedQueryRow } from '../core/capture/to-query-row';
import { afterRowsText, beforeRowsText, exactRowLines, formatExactRow, QUERIES_HEADER, queriesTextLines, stoppedText, hiddenProbesText, noRowsFollow, notLoggingText, queriesEngine, queriesJson, queriesUnavailableText, unwrittenText, withoutProbes } from './print-queries';
import type { QueryRow } from '../../shared/query-log/row';
import { EXACT_LOG_NOT_YET } from '../core/capture/exact-log';

describe('k2s-dns queries', () => {
  it('prints the client port, the upstream that answered and the latency; cache when none', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.412, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };
    const line = formatExactRow(capturedQueryRow(c, 'dnsmasq', 'k', ['cluster.local']));
    expect(line.replace(/^\S+ /, '')).toBe('127.0.0.1:41001 udp A web.demo.svc.cluster.local NOERROR via 172.21.0.10:53 0.41 ms 172.21.14.7');
    expect(formatExactRow(capturedQueryRow({ ...c, upstream: null }, 'dnsmasq', 'k', []))).toContain(' NOERROR cache 0.41 ms');
  });

  it("a SERVFAIL the proxy made itself (no upstream answered) says so, as --json's route \"proxy\" and the window's Logs do — not cache (walk 18 M2)", () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4102, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'SERVFAIL', answers: [], latencyMs: 0.412, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };
    const row = capturedQueryRow(c, 'adguard', 'k', []);
    expect(row.route).toBe('proxy');
    expect(formatExactRow(row).replace(/^\S+ /, '')).toBe('127.0.0.1:41001 udp A web.demo.svc.cluster.local SERVFAIL the proxy itself 0.41 ms');
  });

  it("names the saved state's engine; without one, engine null and why in its own field — never a sentence where a script reads the engine's name (new-user walk)", async () => {
    expect(await queriesEngine(async () => ({ engine: 'dnsmasq' }))).toEqual({ engine: 'dnsmasq', unknown: null });
    // Stopped (no saved state) is the normal state: never called unreadable.
    const stopped = await queriesEngine(async () => null);
    expect(stopped).toEqual({ engine: null, unknown: 'K2s DNS is not running (stopped): these rows are from when it ran; with no saved state, which engine answered them is not known.', stopped: true });
    expect(await queriesEngine(async () => ({ engine: null }))).toEqual({ engine: null, unknown: 'The saved state names no engine: which engine answered these rows is not known.' });
    const eacces = Object.assign(new Error("EACCES: permission denied, lstat '/var/lib/k2s'"), { code: 'EACCES' });
    const notRoot = await queriesEngine(async () => Promise.reject(eacces));
    expect(notRoot).toEqual({ engine: null, unknown: 'The saved state is unreadable (permission denied: root reads it): which engine answered these rows is not known.' });
    expect((await queriesEngine(async () => Promise.reject(new Error('the resolver state is not JSON')))).unknown).toBe('The saved state is unreadable (the resolver state is not JSON): which engine answered these rows is not known.');
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'kubernetes.io', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['192.0.2.7'], latencyMs: 1.5, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };
    // The row is assembled with a stand-in engine; what is printed names none, and says why once, beside the rows.
    const log = { available: true, reason: null, rows: [capturedQueryRow(c, 'adguard', 'k', []), capturedQueryRow({ ...c, id: 4102 }, 'adguard', 'k', [])] };
    const printed = JSON.parse(JSON.stringify(queriesJson(log, stopped))) as { available: boolean; engineUnknown: string | null; rows: { engine: string | null; name: string }[] };
    expect(printed.rows.map((r) => [r.engine, r.name])).toEqual([[null, 'kubernetes.io'], [null, 'kubernetes.io']]);
    expect(printed.engineUnknown).toBe(stopped.unknown);
    expect(printed.available).toBe(true);
    const known = queriesJson(log, { engine: 'dnsmasq', unknown: null });
    expect(known.rows.map((r) => r.engine)).toEqual(['dnsmasq', 'dnsmasq']);
    expect(known.engineUnknown).toBeNull();
  });

  it('without the exact log, claims no engine log is shown (the CLI prints none); before the first start, says its file does not exist, why, and how start runs as root (sudo or su -c)', () => {
    expect(EXACT_LOG_NOT_YET).toBe("No exact query log yet: it starts with K2s DNS (tcpdump is installed). Shown: the engine's own query log.");
    expect(queriesUnavailableText(EXACT_LOG_NOT_YET)).toBe(
      "No exact query log to read: /var/log/dnsproxy/queries.jsonl does not exist: no start of K2s DNS has run its capture on this host (a start with --no-log-queries runs none), or uninstall removed it. A start writes it from then on (tcpdump is installed); run it as root: `sudo npx k2s-dns start`, or `su -c 'npx k2s-dns start'` where sudo is not installed.",
    );
    // Told apart from an existing file with no row (noRowsText, exit 0) by their first words.
    expect(queriesUnavailableText(EXACT_LOG_NOT_YET)).not.toMatch(/^No queries logged yet/);
    expect(queriesUnavailableText("The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump, then start K2s DNS again). Shown: the engine's own query log.")).toBe('The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump, then start K2s DNS again).');
    expect(queriesUnavailableText(null)).toBe('No exact query log.');
  });

  describe('while the running K2s DNS was started with --no-log-queries (finding: queries said to run start, or showed old rows as current)', () => {
    const state = { engine: 'dnsmasq' as const, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [], allowedZones: [], onNetworkChange: 'follow' as const, startedWith: { engine: 'dnsmasq' as const, logQueries: false, verifyName: 'www.example.test' } };
    const way = 'sudo npx k2s-dns stop && sudo npx k2s-dns start --engine dnsmasq --verify-name www.example.test';
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'kubernetes.io', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['192.0.2.7'], latencyMs: 1.5, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };

    it('queriesEngine says so, with the stop && start that starts it again without --no-log-queries (its other options kept); not for a start with the log, nor a state of an earlier version', async () => {
      expect(await queriesEngine(async () => state)).toEqual({ engine: 'dnsmasq', unknown: null, notLogging: { restart: way } });
      expect(await queriesEngine(async () => ({ ...state, startedWith: { engine: 'dnsmasq' as const } }))).toEqual({ engine: 'dnsmasq', unknown: null });
      const { startedWith: _w, ...older } = state;
      expect(await queriesEngine(async () => older)).toEqual({ engine: 'dnsmasq', unknown: null });
    });

    it('no rows file: says the running K2s DNS logs nothing and the stop && start way, not "a start writes it from then on"', async () => {
      const { notLogging } = await queriesEngine(async () => state);
      expect(queriesUnavailableText(EXACT_LOG_NOT_YET, notLogging)).toBe(`No exact query log to read: /var/log/dnsproxy/queries.jsonl does not exist. The running K2s DNS was started with --no-log-queries: it logs no query. To log queries, stop it, then start it without --no-log-queries: \`${way}\`.`);
      expect(queriesUnavailableText(EXACT_LOG_NOT_YET, notLogging)).not.toContain('A start writes it');
      // Another reason keeps its words after the sentence.
      expect(queriesUnavailableText("The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump, then start K2s DNS again). Shown: the engine's own query log.", notLogging)).toBe(`The running K2s DNS was started with --no-log-queries: it logs no query. To log queries, stop it, then start it without --no-log-queries: \`${way}\`. The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump, then start K2s DNS again).`);
    });

    it('rows of an earlier run: said to be from an earlier run (text and --json); no rows: never "ask a name, then run queries again"', async () => {
      const who = await queriesEngine(async () => state);
      expect(notLoggingText(who.notLogging!, true)).toBe(`The running K2s DNS was started with --no-log-queries: it logs no query; the rows shown are from an earlier run. To log queries, stop it, then start it without --no-log-queries: \`${way}\`.`);
      const log = { available: true, reason: null, rows: [capturedQueryRow(c, 'adguard', 'k', [])] };
      expect(queriesJson(log, who).notLogging).toBe(notLoggingText(who.notLogging!, true));
      expect(queriesJson({ ...log, rows: [] }, who).notLogging).toBe(notLoggingText(who.notLogging!, false));
      expect(queriesJson(log, { engine: 'dnsmasq', unknown: null }).notLogging).toBeNull();
      expect(afterRowsText({ rows: [], hidden: 0 }, 0, who.notLogging)).toBeNull();
      expect(afterRowsText({ rows: [], hidden: 2 }, 0, who.notLogging)).toBeNull();
      expect(beforeRowsText({ hidden: 2 })).toBe(hiddenProbesText(2));
      expect(afterRowsText({ rows: [], hidden: 0 }, 0)).toMatch(/^No queries logged yet/);
    });
  });

  describe('health checks of k2s-dns in the text output (walk: 46 of 51 rows were probes)', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.412, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };
    /** A row asked as `name` (the probes' capitals make it one) at `n` ms after c's time. */
    const row = (name: string, n: number): QueryRow => capturedQueryRow({ ...c, name, id: 4101 + n, queryUs: c.queryUs + n * 1000 }, 'dnsmasq', `k${n}`, ['cluster.local']);
    const probe = (n: number) => row('KUBERNETES.DEFAULT.svc.cluster.local', n);

    it("a probe row prints the name as the packet spelled it (queries.jsonl's), and ends with a mark that says what it is", () => {
      const p = probe(0);
      expect(p.probe).toBe(true);
      expect(formatExactRow(p).replace(/^\S+ /, '')).toBe('127.0.0.1:41001 udp A KUBERNETES.DEFAULT.svc.cluster.local NOERROR cache 0.41 ms 172.21.14.7 [health check of k2s-dns]');
      expect(formatExactRow(row('kubernetes.default.svc.cluster.local', 1))).not.toContain('[health check');
    });

    it('keeps the newest N rows that are no probe and counts the probes between them', () => {
      // Oldest first: user 0, probes 1–3, user 4, probe 5, user 6, probes 7–8.
      const rows = [row('a.example.test', 0), probe(1), probe(2), probe(3), row('b.example.test', 4), probe(5), row('c.example.test', 6), probe(7), probe(8)];
      const two = withoutProbes(rows, 2);
      expect(two.rows.map((r) => r.name)).toEqual(['b.example.test', 'c.example.test']);
      expect(two.hidden).toBe(3);
      // Fewer user rows than asked: all of them, and every probe read.
      const ten = withoutProbes(rows, 10);
      expect(ten.rows.map((r) => r.name)).toEqual(['a.example.test', 'b.example.test', 'c.example.test']);
      expect(ten.hidden).toBe(6);
      expect(withoutProbes([probe(1)], 50)).toEqual({ rows: [], hidden: 1, startChecks: 0 });
    });

    it("left28 #2: start's verify rows (a name start recorded, asked inside its window) are hidden as k2s-dns's own, counted apart, and marked as start's check with --probes", () => {
      // Start asked www.example.test and the cluster name from 2 to 3 ms after c's time.
      const checks = { names: ['kubernetes.default.svc.cluster.local', 'www.example.test'], fromMs: c.queryUs / 1000 + 2, toMs: c.queryUs / 1000 + 3 };
      const at = (name: string, n: number): QueryRow => capturedQueryRow({ ...c, name, id: 4101 + n, queryUs: c.queryUs + n * 1000 }, 'dnsmasq', `k${n}`, ['cluster.local'], 0, checks);
      const start = at('www.example.test', 2);
      expect([start.probe, start.startCheck]).toEqual([true, true]);
      expect(probe(1).startCheck).toBeUndefined();
      expect(formatExactRow(start).replace(/^\S+ /, '')).toBe("127.0.0.1:41001 udp A www.example.test NOERROR cache 0.41 ms 172.21.14.7 [k2s-dns start's check]");
      const shown = withoutProbes([at('a.example.test', 0), probe(1), start, at('kubernetes.default.svc.cluster.local', 3), at('www.example.test', 20)], 50);
      expect(shown.rows.map((r) => r.name)).toEqual(['a.example.test', 'www.example.test']);
      expect(shown).toMatchObject({ hidden: 3, startChecks: 2 });
      expect(beforeRowsText(shown)).toBe("3 health-check queries of k2s-dns hidden (the checks its window, status and start run; 2 of them k2s-dns start's checks); --probes shows them, marked.");
    });

    it('says how many it hid and the flag that shows them; nothing when none', () => {
      expect(hiddenProbesText(46)).toBe('46 health-check queries of k2s-dns hidden (the checks its window, status and start run); --probes shows them, marked.');
      expect(hiddenProbesText(1)).toBe('1 health-check query of k2s-dns hidden (the checks its window, status and start run); --probes shows them, marked.');
      expect(hiddenProbesText(0)).toBeNull();
      // left28 #2: how many of them start's verify asked.
      expect(hiddenProbesText(7, 4)).toBe("7 health-check queries of k2s-dns hidden (the checks its window, status and start run; 4 of them k2s-dns start's checks); --probes shows them, marked.");
      expect(hiddenProbesText(4, 4)).toBe("4 health-check queries of k2s-dns hidden (the checks its window, status and start run; all are k2s-dns start's checks); --probes shows them, marked.");
    });

    it('no row at all (right after start, new-user walk 20): a note on stderr, not silence; rows or hidden probes: no such note', () => {
      const none = 'No queries logged yet: /var/log/dnsproxy/queries.jsonl exists but holds no query yet; a row reaches it up to 1 s after its answer (later while the host is busy: the capture runs at idle priority); ask a name, then run npx k2s-dns queries again.';
      expect(afterRowsText(withoutProbes([], 50))).toBe(none);
      expect(afterRowsText({ rows: [], hidden: 0 })).toBe(none);
      // After its wait for a row (queries-wait.ts), it says how long it waited.
      expect(afterRowsText({ rows: [], hidden: 0 }, 1500)).toBe('No queries logged yet: /var/log/dnsproxy/queries.jsonl exists but holds no query yet; none came in the 1.5 s this command waited, and a row reaches it up to 1 s after its answer (later while the host is busy: the capture runs at idle priority); ask a name, then run npx k2s-dns queries again.');
      // Only probes so far: the hidden count already says why nothing is printed, and how to see them.
      expect(afterRowsText(withoutProbes([probe(0), probe(1)], 50))).toBeNull();
      expect(beforeRowsText(withoutProbes([probe(0), probe(1)], 50))).toBe(hiddenProbesText(2));
      expect(afterRowsText(withoutProbes([row('web.demo.svc.cluster.local', 0)], 50))).toBeNull();
    });

    it('a full /var/log/dnsproxy: says to free space on its file system and names it, never to ask a name; another loss keeps the plain line', () => {
      const full = '12 rows not written (no space left on /var/log/dnsproxy)';
      expect(unwrittenText(full)).toBe('The exact query log misses rows: 12 rows not written (no space left on /var/log/dnsproxy); free space on the file system that holds /var/log/dnsproxy (`df -h /var/log/dnsproxy` names it and how full it is): the next rows are written again then.');
      expect(afterRowsText({ rows: [], hidden: 0 }, 1500, undefined, full)).toBe('No queries logged yet: /var/log/dnsproxy/queries.jsonl exists but holds no query: the capture cannot write rows while the file system that holds /var/log/dnsproxy is full (no space left); free space on the file system that holds /var/log/dnsproxy (`df -h /var/log/dnsproxy` names it and how full it is), then run npx k2s-dns queries again.');
      // A loss that is no full disk: the line as it was, and the usual "ask a name".
      expect(unwrittenText('3 rows not written (EIO on /var/log/dnsproxy)')).toBe('The exact query log misses rows: 3 rows not written (EIO on /var/log/dnsproxy).');
      // No row to print: the no-rows note that follows says the way; the loss line says the loss only (the df advice once).
      expect(noRowsFollow({ rows: [], hidden: 0 })).toBe(true);
      expect(noRowsFollow({ rows: [], hidden: 2 })).toBe(false);
      expect(noRowsFollow({ rows: [], hidden: 0 }, { restart: 'x' })).toBe(false);
      expect(unwrittenText(full, true)).toBe('The exact query log misses rows: 12 rows not written (no space left on /var/log/dnsproxy).');
      const both = `${unwrittenText(full, true)}\n${afterRowsText({ rows: [], hidden: 0 }, 0, undefined, full)}`;
      expect(both.split('df -h').length - 1).toBe(1);
      expect(afterRowsText({ rows: [], hidden: 0 }, 0, undefined, '3 rows not written (EIO on /var/log/dnsproxy)')).toMatch(/; ask a name, then run npx k2s-dns queries again\.$/);
    });
  });

  describe('after a stop (new user: old rows with exit 0 and no word that none comes; README said exit 1 "its capture stopped")', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.412, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 };
    it('rows printed: one last line says K2s DNS is stopped and no new row comes until a start, with the start line', () => {
      const shown = { rows: [capturedQueryRow(c, 'adguard', 'k', [])], hidden: 0 };
      expect(afterRowsText(shown, 0, undefined, undefined, true)).toBe('K2s DNS is stopped: the rows above are from its earlier runs (which engine answered them is not known without its saved state), and no new row comes until it starts again; start it as root: `sudo npx k2s-dns start`, or `su -c \'npx k2s-dns start\'` where sudo is not installed.');
      // The hidden count goes before the rows (beforeRowsText); the stopped line stays the last.
      expect(afterRowsText({ ...shown, hidden: 2 }, 0, undefined, undefined, true)).toBe(stoppedText(true));
    });
    it('no row to show: not "ask a name, then run queries again" (none comes)', () => {
      const none = afterRowsText({ rows: [], hidden: 0 }, 0, undefined, undefined, true)!;
      expect(none).toMatch(/^K2s DNS is stopped: \/var\/log\/dnsproxy\/queries\.jsonl holds no query to show, and none comes until it starts again; start it as root: /);
      expect(none).not.toContain('ask a name');
      expect(afterRowsText({ rows: [], hidden: 3 }, 0, undefined, undefined, true)).toContain('holds no other query to show');
    });
  });

  describe('header and time zone (new user: no header over the columns, times without a zone, the hidden count after the rows)', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.412, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };
    const tz = process.env.TZ;
    afterEach(() => {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });

    it('the rows come under a header naming their fields; no row: no header (stdout stays empty)', () => {
      const lines = queriesTextLines([capturedQueryRow(c, 'adguard', 'k', [])]);
      expect(lines[0]).toBe('TIME CLIENT PROTO TYPE NAME RCODE ROUTE LATENCY ANSWERS');
      expect(lines[0]).toBe(QUERIES_HEADER);
      expect(lines).toHaveLength(2);
      expect(queriesTextLines([])).toEqual([]);
    });

    it("a row's time carries its UTC offset, the zone's at that date (DST); --json's time stays as it was", () => {
      process.env.TZ = 'Europe/Berlin';
      const winter = capturedQueryRow(c, 'adguard', 'k', []);
      // 1_764_615_600 s is 2025-12-01T19:00:00Z: 20:00 in Berlin (CET, +01:00).
      expect(formatExactRow(winter).split(' ')[0]).toBe('2025-12-01T20:00:00.123456+01:00');
      expect(queriesJson({ available: true, rows: [winter] }, { engine: 'adguard', unknown: null }).rows[0]!.time).toBe('2025-12-01T20:00:00.123456');
      // Six months earlier (CEST, +02:00).
      const summer = capturedQueryRow({ ...c, queryUs: 1_748_800_800_000_000 }, 'adguard', 'k', []);
      expect(formatExactRow(summer).split(' ')[0]).toBe('2025-06-01T20:00:00.000000+02:00');
      process.env.TZ = 'UTC';
      expect(formatExactRow(capturedQueryRow(c, 'adguard', 'k', [])).split(' ')[0]).toBe('2025-12-01T19:00:00.123456+00:00');
      // The printed time names the same instant as the row's queryUs.
      process.env.TZ = 'America/St_Johns';
      expect(Date.parse(formatExactRow(capturedQueryRow(c, 'adguard', 'k', [])).split(' ')[0]!)).toBe(Math.floor(c.queryUs / 1000));
    });

    it('in the hour a clock turned back repeats, each row names its own instant (the offset at its packet time, not the local time read back)', () => {
      process.env.TZ = 'America/New_York';
      // 2026-11-01 05:30Z and 06:30Z are both 01:30 in New York: EDT (-04:00), then EST (-05:00).
      const first = capturedQueryRow({ ...c, queryUs: Date.parse('2026-11-01T05:30:00Z') * 1000 }, 'adguard', 'k', []);
      const second = capturedQueryRow({ ...c, queryUs: Date.parse('2026-11-01T06:30:00Z') * 1000 }, 'adguard', 'k', []);
      expect(formatExactRow(first).split(' ')[0]).toBe('2026-11-01T01:30:00.000000-04:00');
      expect(formatExactRow(second).split(' ')[0]).toBe('2026-11-01T01:30:00.000000-05:00');
      expect(Date.parse(formatExactRow(second).split(' ')[0]!)).toBe(Date.parse('2026-11-01T06:30:00Z'));
      // St. John's turns back at 02:00 NDT (-02:30) to 01:00 NST (-03:30): 01:30 twice.
      process.env.TZ = 'America/St_Johns';
      const nst = capturedQueryRow({ ...c, queryUs: Date.parse('2026-11-01T05:00:00Z') * 1000 }, 'adguard', 'k', []);
      expect(formatExactRow(nst).split(' ')[0]).toBe('2026-11-01T01:30:00.000000-03:30');
    });

    it('the run boundary line names its UTC offset too', () => {
      process.env.TZ = 'Europe/Berlin';
      expect(exactRowLines([{ ...capturedQueryRow(c, 'adguard', 'k', []), runStartedMs: 1_764_615_500_000 }])[0]).toBe('— K2s DNS started 2025-12-01 19:58:20 +01:00 —');
    });
  });
});
