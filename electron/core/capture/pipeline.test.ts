import fc from 'fast-check';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countsLine, parserLine, parserLineKind, startCapturePipeline, stderrReason, StoppedBeforeOpen } from './pipeline';
import type { CapturedQuery } from './pairing';

/**
 * A child process double: stdio streams, kill() ends it with the signal — except SIGUSR1, which
 * tcpdump answers with its counts: `onUsr1` (when set) writes them, else it is ignored.
 */
function fakeChild(onUsr1?: (c: { stderr: PassThrough }) => void, ignores: string[] = []): ChildProcess & { stdout: PassThrough; stderr: PassThrough; stdin: PassThrough; lift: PassThrough; signals: string[] } {
  const c = new EventEmitter() as ChildProcess & { stdout: PassThrough; stderr: PassThrough; stdin: PassThrough; lift: PassThrough; signals: string[] };
  Object.assign(c, { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), lift: new PassThrough(), exitCode: null, signalCode: null, signals: [] });
  // stdio[3]: the parser's budget lift pipe (budget-lift.ts).
  Object.assign(c, { stdio: [c.stdin, c.stdout, c.stderr, c.lift] });
  c.kill = ((sig: NodeJS.Signals = 'SIGTERM') => {
    c.signals.push(sig);
    if (sig === 'SIGUSR1') {
      onUsr1?.(c);
      return true;
    }
    if (ignores.includes(sig)) return true; // e.g. a stopped (SIGSTOP) process: only SIGKILL acts
    Object.assign(c, { signalCode: sig });
    queueMicrotask(() => c.emit('exit', null, sig));
    return true;
  }) as ChildProcess['kill'];
  return c;
}

const ROW: CapturedQuery = { proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'web.demo.svc.cluster.local', type: 'A', queryUs: 1_764_000_000_000_000, rcode: 'NOERROR', answers: ['172.21.14.7'], latencyMs: 0.41, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.2, retries: 0 };

describe('capture pipeline: the parser output is untrusted text', () => {
  it('parserLine: a row, the counts, and null for garbage, other JSON and rows without their fields', () => {
    expect(parserLine(JSON.stringify(ROW))).toEqual(ROW);
    expect(parserLine('{"counts":{"frames":3,"notSegment":0,"notDns":1,"messages":2,"rows":1}}')).toEqual({ counts: { frames: 3, notSegment: 0, notDns: 1, messages: 2, rows: 1 } });
    for (const bad of ['{"proto":"udp"', 'null', '[1]', '42', '"row"', '{"proto":"sctp","client":"x","listener":"y","name":"n","type":"A","queryUs":1,"answers":[]}', JSON.stringify({ ...ROW, answers: 'x' }), JSON.stringify({ ...ROW, answers: [7] }), JSON.stringify({ ...ROW, rcode: 5 }), JSON.stringify({ ...ROW, upstream: {} }), JSON.stringify({ ...ROW, upstreamRcode: [] }), JSON.stringify({ ...ROW, latencyMs: '1' }), JSON.stringify({ ...ROW, upstreamLatencyMs: true }), JSON.stringify({ ...ROW, id: '1' }), JSON.stringify({ ...ROW, retries: null }), 'Error: boom\n    at parse']) {
      expect(parserLine(bad)).toBeNull();
    }
  });

  it('parserLineKind: rows and the counts by their framing; cut, garbled and foreign lines are bad', () => {
    const kind = (l: string) => {
      const b = Buffer.from(`xx${l}\nyy`);
      return parserLineKind(b, 2, 2 + Buffer.byteLength(l));
    };
    expect(kind(JSON.stringify(ROW))).toBe('row');
    expect(kind(JSON.stringify({ ...ROW, proto: 'tcp', search: ['svc.cluster.local'] }))).toBe('row');
    expect(kind('{"counts":{"frames":3,"notSegment":0,"notDns":1,"messages":2,"rows":1}}')).toBe('counts');
    expect(countsLine('{"counts":{"frames":3,"notSegment":0,"notDns":1,"messages":2,"rows":1}}')).toEqual({ frames: 3, notSegment: 0, notDns: 1, messages: 2, rows: 1 });
    expect(countsLine('{"counts":{"frames":3')).toBeNull();
    expect(kind('')).toBe('empty');
    for (const bad of ['{"proto":"udp"', JSON.stringify(ROW).slice(0, -1), JSON.stringify(ROW).slice(1), 'null', '[1]', '{"proto":"sctp","client":"x"}', '{"a":1}', 'Error: boom', '    at parse (x.js:1:1)}']) expect(kind(bad)).toBe('bad');
  });

  it('a bad line from the parser is counted and skipped; the rows around it arrive', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    const spawned: { file: string; args: readonly string[]; env?: NodeJS.ProcessEnv }[] = [];
    const rows: CapturedQuery[] = [];
    let bytes = '';
    let counted = 0;
    const deps = { spawn: (file: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv }) => (spawned.push({ file, args, env: opts.env }), spawned.length === 1 ? td : parser) };
    const onRows = (lines: Uint8Array, n: number) => {
      const text = Buffer.from(lines).toString();
      bytes += text;
      counted += n;
      for (const l of text.split('\n').filter(Boolean)) rows.push(JSON.parse(l) as CapturedQuery);
    };
    const opening = startCapturePipeline(deps, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', resolvConf: '/etc/resolv.conf', onRows });
    td.stderr.write('tcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 4200 bytes\n');
    const cap = await opening;
    // Split mid-line, a garbled line, then a row and the counts.
    const text = `${JSON.stringify(ROW)}\n{"proto":"udp","cli\n${JSON.stringify({ ...ROW, id: 7 })}\n{"counts":{"frames":4,"notSegment":0,"notDns":0,"messages":4,"rows":2}}\n`;
    parser.stdout.write(text.slice(0, 30));
    parser.stdout.write(text.slice(30));
    const stopping = cap.stop();
    // tcpdump's statistics on SIGINT, then the parser ends with its input.
    td.stderr.write('4 packets captured\n5 packets received by filter\n0 packets dropped by kernel\n');
    queueMicrotask(() => parser.emit('exit', 0, null));
    const end = await stopping;
    expect(spawned.map((s) => s.file)).toEqual(['/usr/bin/tcpdump', '/usr/bin/node']);
    expect(rows.map((r) => r.id)).toEqual([4101, 7]);
    // Handed on as the parser wrote them, byte for byte, and counted; the parser is told the resolver file.
    expect(bytes).toBe(`${JSON.stringify(ROW)}\n${JSON.stringify({ ...ROW, id: 7 })}\n`);
    expect(counted).toBe(2);
    // K2S_CAPTURE_LIFT_FD: its fd 3 is the lift pipe (budget-lift.ts), said so it never takes an fd 3 it merely inherited for one.
    expect((spawned[1] as { env?: NodeJS.ProcessEnv }).env).toEqual({ K2S_CAPTURE_LISTENERS: '127.0.0.1:53', K2S_CAPTURE_RESOLV_CONF: '/etc/resolv.conf', K2S_CAPTURE_LIFT_FD: '3' });
    expect(end).toEqual({ counts: { frames: 4, notSegment: 0, notDns: 0, messages: 4, rows: 2 }, dropped: 0, received: 5, badLines: 1, forced: [], filled: 0, leftInRing: null });
  });

  it('a parser line past 16 MiB (framed as a row) is dropped and counted once, whatever chunks carry it; long rows below it and the rows after arrive whole', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    let n = 0;
    const got: { bytes: number; rows: number; head: string }[] = [];
    const onRows = (lines: Uint8Array, rows: number) => got.push({ bytes: lines.length, rows, head: Buffer.from(lines.subarray(0, 40)).toString() });
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', onRows });
    td.stderr.write('tcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 4200 bytes\n');
    const cap = await opening;
    // A runaway line: row-framed, 17 MiB, in 64 KiB chunks (a pipe's), the last holding its end and the next row.
    const huge = Buffer.from(`{"proto":"udp","client":"${'x'.repeat(17 * 1024 * 1024)}"}\n${JSON.stringify({ ...ROW, id: 1 })}\n`);
    for (let at = 0; at < huge.length; at += 65536) parser.stdout.write(huge.subarray(at, at + 65536));
    // A long row under the limit (8 MiB: above the 7.2 MB a message can make) still passes, cut anywhere.
    const long = Buffer.from(`${JSON.stringify({ ...ROW, id: 2, answers: ['a'.repeat(8 * 1024 * 1024)] })}\n`);
    for (let at = 0; at < long.length; at += 65536) parser.stdout.write(long.subarray(at, at + 65536));
    const stopping = cap.stop();
    td.stderr.write('3 packets captured\n3 packets received by filter\n0 packets dropped by kernel\n');
    queueMicrotask(() => parser.emit('exit', 0, null));
    const end = await stopping;
    expect(got.map((g) => [g.rows, g.head.slice(0, 25)])).toEqual([
      [1, '{"proto":"udp","client":"'],
      [1, '{"proto":"udp","client":"'],
    ]);
    expect(got[0]!.bytes).toBe(JSON.stringify({ ...ROW, id: 1 }).length + 1);
    expect(got[1]!.bytes).toBe(long.length);
    expect(end.badLines).toBe(1);
  });

  /** A pipeline over two fake children, open (tcpdump said "listening on"); `onUsr1`: tcpdump's answer to SIGUSR1. */
  async function openPipeline(onUsr1?: (c: { stderr: PassThrough }) => void, ignores: { td?: string[]; parser?: string[] } = {}, fill?: { port: number; fill(): Promise<number> }) {
    const td = fakeChild(onUsr1, ignores.td);
    const parser = fakeChild(undefined, ignores.parser);
    let n = 0;
    const deps = { spawn: () => (n++ === 0 ? td : parser) };
    const opening = startCapturePipeline(deps, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', ...(fill ? { fill } : {}), onRows: () => {} });
    td.stderr.write('tcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 4200 bytes\n');
    return { td, parser, cap: await opening };
  }
  const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);

  it('tcpdump killed: ended says so with its last stderr line, once the parser has read the pipe to its end', async () => {
    const { td, parser, cap } = await openPipeline();
    td.stderr.write('tcpdump: pcap_loop: The interface disappeared\n');
    td.kill('SIGKILL');
    // The parser is not killed: it still has rows in the pipe. ended waits for it.
    expect(await settled(cap.ended)).toBe(false);
    expect(parser.signalCode).toBeNull();
    Object.assign(parser, { exitCode: 0 });
    parser.emit('exit', 0, null);
    expect(await cap.ended).toBe('tcpdump exited unexpectedly (signal SIGKILL): tcpdump: pcap_loop: The interface disappeared');
  });

  it('the parser crashed: tcpdump is ended (SIGTERM) and ended names the parser and its exit status', async () => {
    const { td, parser, cap } = await openPipeline();
    Object.assign(parser, { exitCode: 134 });
    parser.emit('exit', 134, null);
    expect(await cap.ended).toBe('the packet parser exited unexpectedly (exit 134)');
    expect(td.signalCode).toBe('SIGTERM');
  });

  it("the parser reads tcpdump's pipe itself: tcpdump's stdout is the parser's stdin, and this process's end is closed", async () => {
    const td = fakeChild();
    const parser = fakeChild();
    const stdios: unknown[][] = [];
    const envs: (NodeJS.ProcessEnv | undefined)[] = [];
    let n = 0;
    const opening = startCapturePipeline({ spawn: (_f, _a, o) => (stdios.push(o.stdio as unknown[]), envs.push(o.env), n++ === 0 ? td : parser) }, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', cpuShare: 0.02, onRows: () => {} });
    td.stderr.write('tcpdump: listening on any\n');
    await opening;
    expect(stdios[0]).toEqual(['ignore', 'pipe', 'pipe']);
    expect(stdios[1]![0]).toBe(td.stdout);
    // fd 3: the lift pipe (budget-lift.ts).
    expect(stdios[1]!.slice(1)).toEqual(['pipe', 'inherit', 'pipe']);
    expect(td.stdout.destroyed).toBe(true);
    // A share given (the bench's K2S_CAPTURE_CPU_SHARE) is the parser's budget.
    expect(envs[1]?.K2S_CAPTURE_CPU_SHARE).toBe('0.02');
  });

  /** tcpdump's SIGUSR1 line (as tcpdump 4.99.3 printed it here). */
  const statsLine = (captured: number, received: number, dropped = 0) => `tcpdump: ${captured} packets captured, ${received} packets received by filter, ${dropped} packets dropped by kernel\n`;

  it('stop with nothing in the ring: one ask for the counts, then SIGINT, no drain wait (no timer needed)', async () => {
    vi.useFakeTimers();
    try {
      const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(7, 7)));
      parser.stdout.write(`${JSON.stringify(ROW)}\n`); // a row just now: the old quiet wait would have waited 1.2 s
      const stopping = cap.stop();
      await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { interval: 1 });
      // The parser's CPU budget is lifted for the drain, first, by ending its lift pipe
      // (budget-lift.ts), not by a signal: SIGUSR2 before node installed its handler killed it.
      expect(parser.lift.writableEnded).toBe(true);
      expect(parser.signals).toEqual([]);
      queueMicrotask(() => parser.emit('exit', 0, null));
      await stopping;
    } finally {
      vi.useRealTimers();
    }
  });

  it("onDrain: with nothing in the ring, told once, after tcpdump's counts were read and SIGINT was sent (its caller's spawns no longer hold them back)", async () => {
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(7, 7)));
    const told: string[][] = [];
    const stopping = cap.stop({ onDrain: () => told.push([...td.signals]) });
    // Not at the call: the counts are not read yet.
    expect(told).toEqual([]);
    await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { timeout: 1000, interval: 1 });
    expect(told).toEqual([['SIGUSR1', 'SIGINT']]);
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
    expect(told).toHaveLength(1);
  });

  it('onDrain: with packets still in the ring, told once before the drain waits for them (before the second ask), not at its end', async () => {
    const answers = [statsLine(2, 5), statsLine(4, 5), statsLine(5, 5)];
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(answers.shift() ?? statsLine(5, 5)));
    const told: string[][] = [];
    const stopping = cap.stop({ onDrain: () => told.push([...td.signals]) });
    await vi.waitFor(() => expect(td.signals.at(-1)).toBe('SIGINT'), { timeout: 2000, interval: 5 });
    expect(told).toEqual([['SIGUSR1']]);
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
  });

  it('stop with packets still in the ring: asks again until tcpdump has written those taken before the stop, then SIGINT', async () => {
    // 5 received, 2 captured: 3 wait in an unfinished block; 2 more arrive after the request (not waited for).
    const answers = [statsLine(2, 5), statsLine(2, 6), statsLine(4, 7), statsLine(5, 7)];
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(answers.shift() ?? statsLine(5, 7)));
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals.at(-1)).toBe('SIGINT'), { timeout: 2000, interval: 5 });
    expect(td.signals).toEqual(['SIGUSR1', 'SIGUSR1', 'SIGUSR1', 'SIGUSR1', 'SIGINT']);
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
  });

  it('stop with packets in an open ring block and a fill socket: fills it once, then asks at once, no 50 ms pauses nor the 1 s block timeout', async () => {
    // 5 received, 2 captured until the fill; the block is handed over as soon as it is filled.
    let filledAt = -1;
    const { td, parser, cap } = await openPipeline(
      (c) => c.stderr.write(filledAt < 0 ? statsLine(2, 5) : statsLine(5 + 65, 5 + 65)),
      {},
      {
        port: 40555,
        fill: async () => {
          filledAt = td.signals.length;
          return 65;
        },
      },
    );
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals.at(-1)).toBe('SIGINT'), { timeout: 2000, interval: 1 });
    // One ask, the fill, one ask that sees the block written, SIGINT.
    expect(td.signals).toEqual(['SIGUSR1', 'SIGUSR1', 'SIGINT']);
    expect(filledAt).toBe(1);
    queueMicrotask(() => parser.emit('exit', 0, null));
    expect((await stopping).filled).toBe(65);
  });

  it('a drain that reaches its limit with packets of its own still in the ring says how many (they never reach the log)', async () => {
    vi.useFakeTimers();
    try {
      // 50 taken before the stop, tcpdump stuck at 2 written (a parser far behind under load).
      const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(2, 50)));
      const stopping = cap.stop();
      await vi.advanceTimersByTimeAsync(1_300);
      expect(td.signals.at(-1)).toBe('SIGINT');
      // tcpdump's final statistics: 3 written in all (the first 3 of the 50), 60 received (10 after the stop's ask).
      td.stderr.write('3 packets captured\n60 packets received by filter\n0 packets dropped by kernel\n');
      queueMicrotask(() => parser.emit('exit', 0, null));
      await vi.advanceTimersByTimeAsync(0);
      const end = await stopping;
      expect([end.leftInRing, end.received, end.dropped]).toEqual([47, 60, 0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a drain that got all its packets out: none left in the ring (later packets are not counted)', async () => {
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(5, 5)));
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { timeout: 1000, interval: 1 });
    td.stderr.write('7 packets captured\n9 packets received by filter\n0 packets dropped by kernel\n');
    queueMicrotask(() => parser.emit('exit', 0, null));
    expect((await stopping).leftInRing).toBe(0);
  });

  it('stop with nothing in an open block: no fill', async () => {
    let fills = 0;
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(5, 5)), {}, { port: 40555, fill: async () => (fills++, 65) });
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { timeout: 1000, interval: 1 });
    queueMicrotask(() => parser.emit('exit', 0, null));
    expect((await stopping).filled).toBe(0);
    expect(fills).toBe(0);
  });

  it('counts for the dropped packets are not waited for: received − dropped is what the ring can still hand over', async () => {
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(4, 10, 6)));
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { timeout: 1000, interval: 5 });
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
  });

  it("the counts returned are tcpdump's final statistics, not the drain's SIGUSR1 answer", async () => {
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(3, 3)));
    const stopping = cap.stop();
    await vi.waitFor(() => expect(td.signals).toEqual(['SIGUSR1', 'SIGINT']), { timeout: 1000, interval: 5 });
    td.stderr.write('9 packets captured\n11 packets received by filter\n2 packets dropped by kernel\n');
    queueMicrotask(() => parser.emit('exit', 0, null));
    const end = await stopping;
    expect([end.received, end.dropped, end.forced]).toEqual([11, 2, []]);
  });

  it('a stopped tcpdump (SIGINT has no effect) and a hung parser are killed after the grace, not waited for without end', async () => {
    const { td, parser, cap } = await openPipeline(undefined, { td: ['SIGINT'], parser: ['SIGTERM'] });
    const end = await cap.stop();
    expect(td.signals.filter((x) => x !== 'SIGUSR1')).toEqual(['SIGINT', 'SIGKILL']);
    expect(parser.signals).toEqual(['SIGKILL']);
    expect(end.forced).toEqual(['tcpdump', 'the packet parser']);
  }, 15_000);

  it('a stop is no crash: ended never settles', async () => {
    const { td, parser, cap } = await openPipeline();
    const stopping = cap.stop();
    td.stderr.write('0 packets dropped by kernel\n');
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
    expect(td.signalCode).toBe('SIGINT');
    expect(await settled(cap.ended)).toBe(false);
  });

  it("tcpdump's banners are no reason: the line before them is shown, '' when there is none", () => {
    expect(stderrReason('tcpdump: pcap_loop: The interface disappeared\ntcpdump: data link type LINUX_SLL2\n')).toBe('tcpdump: pcap_loop: The interface disappeared');
    expect(stderrReason('tcpdump: data link type LINUX_SLL2\ntcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 4200 bytes\n')).toBe('');
  });

  it("tcpdump's SIGUSR1 answers are no reason either: a tcpdump killed after one shows the line before it", () => {
    expect(stderrReason(`tcpdump: pcap_loop: The interface disappeared\n${statsLine(3, 5, 2)}`)).toBe('tcpdump: pcap_loop: The interface disappeared');
    expect(stderrReason(statsLine(3, 5, 2))).toBe('');
  });

  it("stats() while it runs: one SIGUSR1, tcpdump's running counts; null once stop has begun (no further SIGUSR1)", async () => {
    const { td, parser, cap } = await openPipeline((c) => c.stderr.write(statsLine(40, 100, 60)));
    expect(await cap.stats()).toEqual({ captured: 40, received: 100, dropped: 60 });
    expect(td.signals).toEqual(['SIGUSR1']);
    const stopping = cap.stop();
    expect(await cap.stats()).toBeNull();
    await vi.waitFor(() => expect(td.signals.at(-1)).toBe('SIGINT'), { timeout: 1000, interval: 5 });
    expect(td.signals.filter((x) => x === 'SIGUSR1')).toHaveLength(2);
    queueMicrotask(() => parser.emit('exit', 0, null));
    await stopping;
  });

  it('onOutput: called per chunk the parser writes, not per row', async () => {
    const { parser, cap } = await openPipeline();
    let chunks = 0;
    cap.onOutput(() => chunks++);
    parser.stdout.write(`${JSON.stringify(ROW)}\n${JSON.stringify(ROW)}\n`);
    parser.stdout.write(`${JSON.stringify(ROW)}\n`);
    await vi.waitFor(() => expect(chunks).toBe(2), { timeout: 1000, interval: 5 });
  });

  it('tcpdump killed after its banners: ended shows the line before "data link type", not the banner', async () => {
    const { td, parser, cap } = await openPipeline();
    td.stderr.write('tcpdump: pcap_loop: The interface disappeared\ntcpdump: data link type LINUX_SLL2\n');
    td.kill('SIGKILL');
    await new Promise((r) => setImmediate(r));
    Object.assign(parser, { exitCode: 0 });
    parser.emit('exit', 0, null);
    expect(await cap.ended).toBe('tcpdump exited unexpectedly (signal SIGKILL): tcpdump: pcap_loop: The interface disappeared');
  });
});

describe('capture pipeline: a start that fails leaves no child behind', () => {
  afterEach(() => void vi.useRealTimers());

  /** A tcpdump double that ignores SIGTERM (hung before opening the capture): only SIGKILL ends it. */
  function hungChild() {
    const c = fakeChild();
    const signals: string[] = [];
    c.kill = ((sig: NodeJS.Signals = 'SIGTERM') => {
      signals.push(sig);
      if (sig === 'SIGKILL') {
        Object.assign(c, { signalCode: sig });
        queueMicrotask(() => c.emit('exit', null, sig));
      }
      return true;
    }) as ChildProcess['kill'];
    return { c, signals };
  }
  const opts = { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', onRows: () => {} };

  it('tcpdump silent for 10 s: SIGTERM, then SIGKILL, both children exited before the start rejects with "tcpdump printed nothing"', async () => {
    vi.useFakeTimers();
    const { c: td, signals } = hungChild();
    const parser = fakeChild();
    let n = 0;
    let failure: unknown = null;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, opts).catch((e: unknown) => (failure = e));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(signals).toEqual(['SIGTERM']);
    expect(failure).toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    await opening;
    expect(signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(td.signalCode).toBe('SIGKILL');
    expect(parser.signalCode).toBe('SIGTERM');
    expect((failure as Error).message).toBe('tcpdump did not open the capture within 10 s: tcpdump printed nothing');
  });

  it('stopped (signal aborted) while a hung tcpdump has not opened: both children ended (SIGTERM, SIGKILL after the 2 s grace) and the start rejects then, not at the 10 s open limit', async () => {
    vi.useFakeTimers();
    const { c: td, signals } = hungChild();
    const parser = fakeChild();
    const stop = new AbortController();
    let n = 0;
    let failure: unknown = null;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { ...opts, signal: stop.signal }).catch((e: unknown) => (failure = e));
    await vi.advanceTimersByTimeAsync(1_000);
    expect([signals, parser.signals, failure]).toEqual([[], [], null]);
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(signals).toEqual(['SIGTERM']);
    expect(parser.signalCode).toBe('SIGTERM');
    expect(failure).toBeNull();
    // 3 s after the start: the grace is over, the open limit (10 s) far off.
    await vi.advanceTimersByTimeAsync(2_000);
    await opening;
    expect(signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(td.signalCode).toBe('SIGKILL');
    expect(failure).toBeInstanceOf(StoppedBeforeOpen);
    expect((failure as Error).message).toBe('the capture was stopped before tcpdump opened it');
  });

  it('stopped before opening, tcpdump ending on SIGTERM: the start rejects at once (no timer runs) with both children exited', async () => {
    vi.useFakeTimers();
    const td = fakeChild();
    const parser = fakeChild();
    const stop = new AbortController();
    let n = 0;
    let failure: unknown = null;
    void startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { ...opts, signal: stop.signal }).catch((e: unknown) => (failure = e));
    td.stderr.write('tcpdump: data link type LINUX_SLL2\n');
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(failure).toBeInstanceOf(StoppedBeforeOpen);
    expect([td.signals, parser.signals]).toEqual([['SIGTERM'], ['SIGTERM']]);
    expect([td.signalCode, parser.signalCode]).toEqual(['SIGTERM', 'SIGTERM']);
  });

  it('a signal already aborted: nothing is spawned, the start rejects with StoppedBeforeOpen', async () => {
    vi.useFakeTimers();
    const spawned: string[] = [];
    let failure: unknown = null;
    void startCapturePipeline({ spawn: (file) => (spawned.push(file), fakeChild()) }, { ...opts, signal: AbortSignal.abort() }).catch((e: unknown) => (failure = e));
    await vi.advanceTimersByTimeAsync(0);
    expect(failure).toBeInstanceOf(StoppedBeforeOpen);
    expect(spawned).toEqual([]);
  });

  it('the signal aborted once the capture is open: nothing is ended (stop() ends the capture)', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    const stop = new AbortController();
    let n = 0;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { ...opts, signal: stop.signal });
    td.stderr.write('tcpdump: listening on any\n');
    const cap = await opening;
    stop.abort();
    await new Promise((r) => setImmediate(r));
    expect([td.signals, parser.signals]).toEqual([[], []]);
  });

  it('tcpdump stuck after a warning: the reason is that line, and tcpdump ends on SIGTERM', async () => {
    vi.useFakeTimers();
    const td = fakeChild();
    const parser = fakeChild();
    let n = 0;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, opts);
    const failed = expect(opening).rejects.toThrow('tcpdump did not open the capture within 10 s: tcpdump: any: That device is not up');
    td.stderr.write('tcpdump: any: That device is not up\n');
    await vi.advanceTimersByTimeAsync(10_000);
    await failed;
    expect(td.signalCode).toBe('SIGTERM');
    expect(parser.signalCode).toBe('SIGTERM');
  });

  it('tcpdump exits before opening: the start rejects with its exit status and stderr, the parser ended', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    let n = 0;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, opts);
    td.stderr.write("tcpdump: eth9: No such device exists\n(SIOCGIFHWADDR: No such device)\n");
    await new Promise((r) => setImmediate(r));
    Object.assign(td, { exitCode: 1 });
    td.emit('exit', 1, null);
    await expect(opening).rejects.toThrow('tcpdump exited (exit 1): (SIOCGIFHWADDR: No such device)');
    expect(parser.signalCode).toBe('SIGTERM');
  });

  /** What node's ChildProcess does when exec fails (ENOENT, EACCES): exitCode −errno, an 'error' event on the next tick, never 'exit'. */
  const failSpawn = (c: ReturnType<typeof fakeChild>, code: string, errno: number) =>
    process.nextTick(() => {
      Object.assign(c, { exitCode: -errno });
      c.emit('error', Object.assign(new Error(`spawn ${code}`), { code }));
    });

  it('the parser cannot be started (EACCES: node not executable by its user): no uncaught error; ended says so and tcpdump is ended', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    let n = 0;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : (failSpawn(parser, 'EACCES', 13), parser)) }, opts);
    td.stderr.write('tcpdump: listening on any\n');
    const cap = await opening;
    expect(await cap.ended).toBe('the packet parser exited unexpectedly (not started: EACCES)');
    expect(td.signals).toEqual(['SIGTERM']);
  });

  it('the parser spawn throws (EPERM, ENOMEM…): tcpdump is ended before the start rejects', async () => {
    const td = fakeChild();
    const opening = startCapturePipeline({ spawn: (file) => {
      if (file === '/usr/bin/node') throw Object.assign(new Error('spawn EPERM'), { code: 'EPERM' });
      return td;
    } }, opts);
    await expect(opening).rejects.toThrow('spawn EPERM');
    expect(td.signals).toEqual(['SIGTERM']);
    expect(td.stdout.destroyed).toBe(true);
  });

  it('tcpdump cannot be started (EACCES): the start rejects at once with why, not after 10 s, and the parser is ended', async () => {
    const td = fakeChild();
    const parser = fakeChild();
    let n = 0;
    const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? (failSpawn(td, 'EACCES', 13), td) : parser) }, opts);
    await expect(opening).rejects.toThrow('tcpdump exited (not started: EACCES): tcpdump printed nothing');
    expect(parser.signalCode).toBe('SIGTERM');
  });
});

describe('capture pipeline: the parser output cut into any chunks', () => {
  it('hands on the same row bytes, in order, however the output is cut (rows, bad, empty and counts lines; a last line without newline kept back)', async () => {
    const lineArb = fc.oneof(
      fc.integer({ min: 0, max: 65535 }).map((id) => JSON.stringify({ ...ROW, id })),
      fc.constantFrom('', '{"proto":"udp","cli', 'Error: boom', '{"counts":{"frames":1}}', `{"proto":"tcp","client":"x\u2028\u00e9"}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 12 }), fc.string({ maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 8 }), async (lines, tail, cuts) => {
        const out = Buffer.from(`${lines.map((l) => `${l}\n`).join('')}${tail.replace(/\n/g, '')}`);
        const run = async (sizes: number[]) => {
          const td = fakeChild();
          const parser = fakeChild();
          let n = 0;
          let got = '';
          let rows = 0;
          const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: '/usr/bin/node', args: ['/run/k2s/capture/rows.cjs'] }, listeners: ['127.0.0.1:53'], tcpdump: '/usr/bin/tcpdump', onRows: (b, k) => ((got += Buffer.from(b).toString()), (rows += k)) });
          td.stderr.write('tcpdump: listening on any\n');
          await opening;
          for (let at = 0, i = 0; at < out.length; i++) {
            const k = sizes[i % sizes.length]!;
            parser.stdout.write(out.subarray(at, at + k));
            at += k;
          }
          await new Promise((r) => setImmediate(r));
          return { got, rows };
        };
        const want = lines.filter((l) => l.startsWith('{"proto":"') && l.endsWith('}'));
        const whole = await run([out.length || 1]);
        expect(whole).toEqual({ got: want.map((l) => `${l}\n`).join(''), rows: want.length });
        expect(await run(cuts)).toEqual(whole);
      }),
      { numRuns: 150 },
    );
  });
});
