/**
 * The capture pipeline: tcpdump as the privileged reader (it opens the capture as root and drops
 * to `user` right after, tcpdump-argv.ts) writing into the pipe the parser process (rows-main.ts)
 * reads as its stdin; the parser is started as that user's uid/gid, so nothing that parses
 * packets runs as root or inside the Electron main process. Rows arrive as JSON lines
 * (CapturedQuery) and are handed on as the bytes the parser wrote, after a framing check per
 * line (parserLineKind): no parse, no re-encoding.
 * Spawning is injected.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { CapturedQuery } from './pairing';
import type { CaptureCounts } from './pcap-rows';
import { BLOCK_TIMEOUT_MS, tcpdumpArgv, type CaptureTarget } from './tcpdump-argv';
import { tcpdumpStatsLine, type TcpdumpStats } from './tcpdump-stats';
import type { BlockFill } from './block-fill';
import { LIFT_FD, LIFT_FD_ENV } from './budget-lift';

/** What the pipeline needs from the OS. */
export interface PipelineDeps {
  spawn(file: string, args: readonly string[], opts: SpawnOptions): ChildProcess;
}

/** Options of startCapturePipeline. */
export interface PipelineOptions extends CaptureTarget {
  /** uid/gid of `user` (the parser process runs with them). */
  uid: number;
  gid: number;
  /** The parser process: program and argv (node and the bundled rows-main). */
  parser: { file: string; args: readonly string[] };
  /** The proxy's listeners (`127.0.0.1:53`). */
  listeners: readonly string[];
  /** tcpdump's path (default `tcpdump` on PATH). */
  tcpdump?: string;
  /**
   * The block-fill socket (block-fill.ts): its port is added to tcpdump's filter and told to
   * the parser; a stop with packets still in an open ring block fills it once.
   */
  fill?: Pick<BlockFill, 'port' | 'fill'>;
  /** The parser's CPU budget as a share of one core (K2S_CAPTURE_CPU_SHARE, cpu-budget.ts); none: its default. */
  cpuShare?: number;
  /**
   * The real path of the resolver file whose search list the parser records in each row
   * (host-search.ts; K2S_CAPTURE_RESOLV_CONF); none: rows carry no `search`.
   */
  resolvConf?: string;
  /**
   * Stops the start while tcpdump has not yet opened the capture (the companion's SIGTERM or
   * SIGINT, capture-main.ts): both children are ended as after a failed open and the start
   * rejects with StoppedBeforeOpen; already aborted, nothing is spawned. Once the capture is
   * open it is not looked at (stop() ends the capture).
   */
  signal?: AbortSignal;
  /**
   * Told tcpdump's and the parser's pids as soon as both are spawned (before the capture opens),
   * so they can be recorded for whoever outlives a companion killed meanwhile (children-file.ts).
   */
  onSpawn?(children: { pid: number; role: 'tcpdump' | 'parser' }[]): void;
  /**
   * Takes rows as the parser wrote them: `rows` whole JSON lines (CapturedQuery, each ending
   * with a newline) that passed parserLineKind; a view into the parser's output, kept as is.
   */
  onRows(lines: Uint8Array, rows: number): void;
}

/** A running capture. */
export interface CapturePipeline {
  /**
   * Ends the capture once every packet the kernel had taken when stop() was called has been
   * written to the parser: tcpdump's counts (SIGUSR1, tcpdump-stats.ts) say how many are still
   * in the ring, and the stop waits for the block holding them to be handed over (at most
   * DRAIN_MAX_MS), so a stop with nothing in flight ends at once; with a fill socket
   * (options.fill) it fills that block once, so the kernel hands it over at once
   * (block-fill.ts). Without counts (a tcpdump that
   * does not answer SIGUSR1 within STATS_WAIT_MS) it waits as before: until the parser has
   * written nothing for DRAIN_QUIET_MS, at most DRAIN_MAX_MS. Then tcpdump is stopped and the
   * parser reads to the end of the pipe. Resolves with the parser's counts, tcpdump's kernel
   * drops, the copies the kernel filter passed (received: tcpdump's "packets received by
   * filter"; equal to the parser's frames when no copy was dropped or discarded in user space)
   * and the parser's lines that were no row (badLines); `forced`: the children (`tcpdump`, `the
   * packet parser`) that did not end within TERM_GRACE_MS of being asked and were killed;
   * `filled`: the fill datagrams sent (0 when none was needed; counted in `received`, and those
   * that reached the parser in counts.frames and counts.fill); `leftInRing`: the packets the
   * kernel had taken before stop() was called that tcpdump had still not written when the drain
   * ended (its limit reached: a parser far behind under load): never in the log (null without
   * tcpdump's counts). `onDrain` is called once, when the drain has what it waits for (tcpdump's
   * first counts read, or none within STATS_WAIT_MS) and before it waits; with nothing to wait for,
   * right after tcpdump was asked to end (SIGINT): the caller's own work (capture-main.ts: its
   * children's priority back to normal, three spawns that hold this process's event loop) then
   * no longer holds up the counts' read or the SIGINT.
   */
  stop(opts?: { onDrain?: () => void }): Promise<{ counts: CaptureCounts | null; dropped: number | null; received: number | null; badLines: number; forced: string[]; filled: number; leftInRing: number | null }>;
  /**
   * Settles when tcpdump or the parser exits on its own (a crash, a kill, tcpdump losing its
   * interface) before stop() was called: with why, e.g. `tcpdump exited (signal SIGKILL): …`.
   * Settles once both have exited (a dead parser's tcpdump is ended; a dead tcpdump's parser
   * reads the pipe to its end), so nothing keeps capturing for no one. Never settles
   * once stop() has begun.
   */
  ended: Promise<string>;
  /**
   * tcpdump's running counts (SIGUSR1, tcpdump-stats.ts): the kernel's drops while it runs
   * (capture-missed.ts). Null once stop() has begun, when tcpdump has exited, or when it does not
   * answer within STATS_WAIT_MS.
   */
  stats(): Promise<TcpdumpStats | null>;
  /** Calls `cb` whenever the parser writes (a chunk of rows, not each row): rows flow. */
  onOutput(cb: () => void): void;
  /** The PIDs of tcpdump and the parser (capture/go-idle.ts switches them to idle priority). */
  pids: readonly number[];
}

/**
 * Why each child could not be started: the code of the 'error' node's ChildProcess emits when
 * exec fails (ENOENT, EACCES: exitCode is then −errno and 'exit' never comes).
 */
const notStarted = new WeakMap<ChildProcess, string>();

/** Records a child's failed start (notStarted); other errors (a failed kill) are ignored: its 'exit' still comes. */
function watchSpawnError(p: ChildProcess): void {
  p.on('error', (e: NodeJS.ErrnoException) => {
    if (p.pid === undefined || (p.exitCode !== null && p.exitCode < 0)) {
      notStarted.set(p, e.code ?? e.message);
      p.emit('k2s-not-started');
    }
  });
}

/** Whether `p` has ended: exited, killed, or never started (notStarted). */
function hasEnded(p: ChildProcess): boolean {
  return p.exitCode !== null || p.signalCode !== null || notStarted.has(p);
}

/** Resolves once `p` has ended (hasEnded): on 'exit', or on a failed start, which has no 'exit'. */
function exited(p: ChildProcess): Promise<void> {
  if (hasEnded(p)) return Promise.resolve();
  return new Promise<void>((r) => {
    const done = () => {
      p.off('exit', done);
      p.off('k2s-not-started', done);
      r();
    };
    p.once('exit', done);
    p.once('k2s-not-started', done);
  });
}

/** How a child ended, for the companion's log: `exit 1`, `signal SIGKILL`, `not started: EACCES`. */
function howEnded(p: ChildProcess): string {
  const failed = notStarted.get(p);
  if (failed !== undefined) return `not started: ${failed}`;
  return p.signalCode !== null ? `signal ${p.signalCode}` : `exit ${p.exitCode ?? '?'}`;
}

/** The start of every row line the parser writes (JSON.stringify of a CapturedQuery: `proto` first, then `client`). */
const ROW_HEADS = ['{"proto":"udp","client":"', '{"proto":"tcp","client":"'].map((h) => Buffer.from(h));
/** The start of the parser's last line, its counts (rows-main.ts). */
const COUNTS_HEAD = Buffer.from('{"counts":{');

/** Whether b[at, end) starts with `head`. */
function startsWith(b: Uint8Array, at: number, end: number, head: Buffer): boolean {
  if (end - at < head.length) return false;
  for (let i = 0; i < head.length; i++) if (b[at + i] !== head[i]) return false;
  return true;
}

/**
 * What the parser's output line b[at, end) (without its newline) is, by its framing only: `row`
 * (a whole JSON object that begins as the parser's rows begin and ends with `}`), `counts` (the
 * final `{"counts":{…}}` line), `empty`, or `bad` (anything else: a cut or garbled line, a trace).
 * The parser is ours but reads untrusted packets; its rows come from JSON.stringify, so a line
 * that starts and ends as one does is one (a torn write ends elsewhere or runs into the next).
 */
export function parserLineKind(b: Uint8Array, at: number, end: number): 'row' | 'counts' | 'empty' | 'bad' {
  if (end === at) return 'empty';
  if (b[end - 1] !== 0x7d) return 'bad';
  if (startsWith(b, at, end, ROW_HEADS[0]!) || startsWith(b, at, end, ROW_HEADS[1]!)) return 'row';
  return startsWith(b, at, end, COUNTS_HEAD) ? 'counts' : 'bad';
}

/** One line of the parser's output or the log parsed and checked: a row, the final counts, or null for anything else (the log's readers, rows-index.ts, skip those). */
export function parserLine(line: string): CapturedQuery | { counts: CaptureCounts } | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.counts === 'object' && o.counts !== null) return { counts: o.counts as CaptureCounts };
  // The fields every consumer reads (to-query-row.ts); a line without them is not a row.
  const ok = (o.proto === 'udp' || o.proto === 'tcp') && typeof o.client === 'string' && typeof o.listener === 'string' && typeof o.name === 'string' && typeof o.type === 'string' && typeof o.queryUs === 'number' && Array.isArray(o.answers);
  // The others, when present, of their own types: the readers call string methods on them
  // (shared/query-log/exact.ts exactRowMatches lower-cases rcode, upstream and each answer; a
  // throw there ended the search of the whole file at that line).
  const typed = ok && (o.answers as unknown[]).every((a) => typeof a === 'string') && [o.rcode, o.upstream, o.upstreamRcode].every((v) => v === undefined || v === null || typeof v === 'string') && [o.latencyMs, o.upstreamLatencyMs].every((v) => v === undefined || v === null || typeof v === 'number') && [o.id, o.retries].every((v) => v === undefined || typeof v === 'number');
  return typed ? (o as unknown as CapturedQuery) : null;
}

/** The counts of the parser's `{"counts":…}` line, or null when it does not parse as one. */
export function countsLine(line: string): CaptureCounts | null {
  try {
    const v = JSON.parse(line) as { counts?: unknown };
    return typeof v.counts === 'object' && v.counts !== null && !Array.isArray(v.counts) ? (v.counts as CaptureCounts) : null;
  } catch {
    return null;
  }
}

/**
 * The longest drain, and the parser's silence that ends it when tcpdump gives no counts. Longer
 * than the kernel's block timeout (tcpdump-argv.ts): a packet the kernel took before the stop
 * was asked for is in a block handed over within BLOCK_TIMEOUT_MS, so a stop under traffic
 * waits that long and no longer (packets after the request are not this capture's to keep: a
 * restart for new ports starts the next capture at once; a followed network's engine restart
 * does not stop the capture at all). With tcpdump's counts a stop waits only while packets of
 * its own are still in the ring: with none in flight it does not wait at all, and with a fill
 * socket (block-fill.ts) the block holding them is handed over at once, so the limit is only
 * reached when the fill could not be sent.
 */
const DRAIN_QUIET_MS = BLOCK_TIMEOUT_MS + 200;
const DRAIN_MAX_MS = DRAIN_QUIET_MS;
/** How long tcpdump has to print its counts after SIGUSR1 (it prints from the signal handler: measured in ms). */
const STATS_WAIT_MS = 300;
/** Pause between two asks for tcpdump's counts while a block is still in the ring. */
const STATS_POLL_MS = 50;
/** The same once the block was filled (block-fill.ts): the kernel hands it over at once, tcpdump writes it within ms. */
const FILLED_POLL_MS = 5;

/**
 * The longest parser line taken (bytes, newline excluded); a longer one is counted bad and
 * skipped, so a runaway parser cannot grow this root process without bound. Above the longest
 * row a DNS message can make: a 64 KiB TCP message (RFC 1035 §4.2.2) holds at most 4,681 CNAME
 * answers of 14 bytes each (a 2-byte pointer as the owner name and as the data), each pointing
 * at a 254-byte name (RFC 1035 §4.1.4) whose bytes JSON writes as up to 6 (`\u0001`): 7.2 MB.
 */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Why a start rejects when its signal (PipelineOptions.signal) was aborted before tcpdump opened the capture: a stop, no failure. */
export class StoppedBeforeOpen extends Error {
  constructor() {
    super('the capture was stopped before tcpdump opened it');
  }
}

/** How long tcpdump has to print "listening on" before the start fails. */
const OPEN_TIMEOUT_MS = 10_000;
/** How long a child has after SIGTERM before SIGKILL (endChild). */
const TERM_GRACE_MS = 2_000;

/**
 * Ends a child and resolves once it has exited: SIGTERM, then SIGKILL when it is still there
 * TERM_GRACE_MS later. Resolves at once for a child that has already exited.
 */
async function endChild(p: ChildProcess): Promise<void> {
  if (hasEnded(p)) return;
  const gone = exited(p);
  p.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([gone.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), TERM_GRACE_MS)))]);
  clearTimeout(timer);
  if (late) {
    p.kill('SIGKILL');
    await gone;
  }
}

/**
 * Waits up to TERM_GRACE_MS for a child already asked to end (`done`: settles on its exit); kills
 * it (SIGKILL) when it has not and waits for that. Resolves true when it ended by itself.
 */
async function exitsWithin(p: ChildProcess, done: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const byItself = await Promise.race([done.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), TERM_GRACE_MS)))]);
  clearTimeout(timer);
  if (byItself) return true;
  p.kill('SIGKILL');
  await done;
  return false;
}

/**
 * tcpdump's stderr as a reason: its last line that is not one of its banners ("listening on …",
 * "data link type …", printed on every start, tcpdump(1)), '' when nothing else was printed.
 */
export function stderrReason(err: string): string {
  // Its answers to SIGUSR1 (stats, the stop's drain and capture-missed.ts) are no reason either.
  return err.trim().split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/listening on|data link type/.test(l) && tcpdumpStatsLine(l) === null).at(-1) ?? '';
}

/**
 * Starts the pipeline; resolves once tcpdump says the capture is open (throws when it exits or
 * does not within 10 s, and StoppedBeforeOpen when o.signal is aborted first).
 */
export async function startCapturePipeline(deps: PipelineDeps, o: PipelineOptions): Promise<CapturePipeline> {
  if (o.signal?.aborted) throw new StoppedBeforeOpen();
  const td = deps.spawn(o.tcpdump ?? 'tcpdump', tcpdumpArgv({ iface: o.iface, ports: o.ports, user: o.user, ...(o.fill ? { fillPort: o.fill.port } : {}) }), { stdio: ['ignore', 'pipe', 'pipe'] });
  watchSpawnError(td);
  // The parser reads tcpdump's pipe itself (its stdin is a duplicate of tcpdump's stdout), so
  // the packets never pass through this process: relaying them cost this root process about as
  // much CPU as tcpdump's own writes (one per packet with -U), taken from the proxy under load.
  // This process's end is closed once the parser has its copy, so the parser sees the end of
  // the pipe when tcpdump exits.
  // Its fd 3 is the lift pipe (budget-lift.ts): ended at the stop, it lifts the parser's CPU budget.
  let parser: ChildProcess;
  try {
    parser = deps.spawn(o.parser.file, o.parser.args, { uid: o.uid, gid: o.gid, stdio: [td.stdout!, 'pipe', 'inherit', 'pipe' /* LIFT_FD */], env: { K2S_CAPTURE_LISTENERS: o.listeners.join(','), ...(o.fill ? { K2S_CAPTURE_FILL_PORT: String(o.fill.port) } : {}), ...(o.resolvConf ? { K2S_CAPTURE_RESOLV_CONF: o.resolvConf } : {}), ...(o.cpuShare !== undefined ? { K2S_CAPTURE_CPU_SHARE: String(o.cpuShare) } : {}), [LIFT_FD_ENV]: String(LIFT_FD) } });
  } catch (e) {
    // A spawn that throws (EPERM, ENOMEM…; ENOENT and EACCES come as 'error', watchSpawnError):
    // tcpdump, root until it opens the capture, is not left behind.
    td.stdout!.destroy();
    await endChild(td);
    throw e;
  }
  watchSpawnError(parser);
  td.stdout!.destroy();
  if (td.pid !== undefined && parser.pid !== undefined) o.onSpawn?.([{ pid: td.pid, role: 'tcpdump' }, { pid: parser.pid, role: 'parser' }]);
  /** This end of the parser's lift pipe (budget-lift.ts); its errors (the parser gone: EPIPE) are no crash. */
  const liftPipe = parser.stdio?.[3] as Writable | null | undefined;
  liftPipe?.on('error', () => undefined);
  let err = '';
  td.stderr!.on('data', (d: Buffer) => (err += d.toString()).length > 65536 && (err = err.slice(-4096)));
  // tcpdump's answers to SIGUSR1, line by line (askStats).
  let errLine = '';
  const statsWaiters = new Set<(s: TcpdumpStats) => void>();
  td.stderr!.on('data', (d: Buffer) => {
    const lines = (errLine + d.toString()).split('\n');
    errLine = lines.pop()!.slice(-4096);
    for (const l of lines) {
      const s = tcpdumpStatsLine(l);
      if (s) for (const w of [...statsWaiters]) w(s);
    }
  });
  /** tcpdump's counts now (SIGUSR1), null when it has exited or does not answer within STATS_WAIT_MS. */
  const askStats = (): Promise<TcpdumpStats | null> => {
    if (td.exitCode !== null || td.signalCode !== null) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (s: TcpdumpStats | null) => {
        clearTimeout(timer);
        statsWaiters.delete(done);
        td.off('exit', gone);
        resolve(s);
      };
      const gone = () => done(null);
      const timer = setTimeout(gone, STATS_WAIT_MS);
      statsWaiters.add(done);
      td.once('exit', gone);
      td.kill('SIGUSR1');
    });
  };
  let counts: CaptureCounts | null = null;
  let badLines = 0;
  /**
   * The parser's last line so far when chunks ended inside it: the pieces (copies), joined once
   * its newline arrives (a join per chunk would copy a long line again for every chunk), and
   * their length. Past MAX_LINE_BYTES the line is dropped and the rest of it skipped.
   */
  let rest: Buffer[] = [];
  let restLen = 0;
  /** Inside a line longer than MAX_LINE_BYTES (counted bad once): bytes are skipped until its newline. */
  let skipping = false;
  let lastOut = Date.now();
  parser.stdout!.on('data', (chunk: Buffer) => {
    lastOut = Date.now();
    let at = 0;
    const first = chunk.indexOf(0x0a);
    if (skipping || rest.length > 0) {
      if (first < 0) {
        if (!skipping) holdPiece(chunk);
        return;
      }
      at = first + 1;
      if (skipping) skipping = false;
      else {
        rest.push(chunk.subarray(0, at));
        const line = Buffer.concat(rest, restLen + at);
        rest = [];
        restLen = 0;
        lines(line);
      }
    }
    lines(chunk, at);
  });
  /** Keeps `piece` (a line's part without its newline) for the next chunk; drops the line past MAX_LINE_BYTES. */
  const holdPiece = (piece: Buffer): void => {
    restLen += piece.length;
    if (restLen > MAX_LINE_BYTES) {
      rest = [];
      restLen = 0;
      skipping = true;
      badLines++;
    } else rest.push(Buffer.from(piece));
  };
  /** Hands on the whole lines of d[from, …) and holds the part after the last newline. */
  const lines = (d: Buffer, from = 0): void => {
    // Runs of row lines are handed on as one view; any other line ends the run.
    let run = from;
    let runRows = 0;
    let at = from;
    for (let nl = d.indexOf(0x0a, at); nl >= 0; nl = d.indexOf(0x0a, at)) {
      const kind = nl - at > MAX_LINE_BYTES ? 'bad' : parserLineKind(d, at, nl);
      if (kind === 'row') runRows++;
      else {
        if (runRows > 0) o.onRows(d.subarray(run, at), runRows);
        runRows = 0;
        run = nl + 1;
        // The parser is ours, but it reads untrusted packets: a line that is no row (cut, garbled,
        // a crash's trace on stdout) is counted and skipped, never thrown in this process.
        const c = kind === 'counts' ? countsLine(d.toString('utf8', at, nl)) : null;
        if (c !== null) counts = c;
        else if (kind !== 'empty') badLines++;
      }
      at = nl + 1;
    }
    if (runRows > 0) o.onRows(d.subarray(run, at), runRows);
    if (at < d.length) holdPiece(d.subarray(at));
  };
  const parserDone = exited(parser);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`tcpdump did not open the capture within ${OPEN_TIMEOUT_MS / 1000} s: ${stderrReason(err) || 'tcpdump printed nothing'}`)), OPEN_TIMEOUT_MS);
      const check = () => /listening on/.test(err) && done();
      const onExit = () => done(new Error(`tcpdump exited (${howEnded(td)}): ${stderrReason(err) || 'tcpdump printed nothing'}`));
      // A stop while tcpdump has not opened (hung, stopped, slow) ends the start now, not at the timeout.
      const onAbort = () => done(new StoppedBeforeOpen());
      const done = (e?: Error) => {
        clearTimeout(timer);
        td.stderr!.off('data', check);
        o.signal?.removeEventListener('abort', onAbort);
        if (e) reject(e);
        else resolve();
      };
      td.stderr!.on('data', check);
      o.signal?.addEventListener('abort', onAbort, { once: true });
      void exited(td).then(onExit);
      check();
    });
  } catch (e) {
    // Not open (or stopped first): neither child may outlive the failed start (tcpdump still
    // runs as root before it has opened the capture, and a hung one would be reparented and left
    // capturing nothing).
    await Promise.all([endChild(td), endChild(parser)]);
    throw e;
  }
  let stopping = false;
  const ended = new Promise<string>((resolve) => {
    const on = (who: 'tcpdump' | 'the packet parser', p: ChildProcess, other: ChildProcess) => () => {
      if (stopping) return;
      stopping = true;
      // tcpdump gone: the parser reads the pipe to its end and exits (its last rows still
      // arrive). Parser gone: tcpdump would capture into a broken pipe, so it is ended.
      if (who === 'the packet parser' && !hasEnded(other)) other.kill('SIGTERM');
      const tail = who === 'tcpdump' ? stderrReason(err) : '';
      const why = `${who} exited unexpectedly (${howEnded(p)})${tail ? `: ${tail}` : ''}`;
      void exited(other).then(() => resolve(why));
    };
    const tdEnd = on('tcpdump', td, parser);
    const parserEnd = on('the packet parser', parser, td);
    void exited(td).then(tdEnd);
    void exited(parser).then(parserEnd);
  });
  return {
    ended,
    stats: () => (stopping ? Promise.resolve(null) : askStats()),
    onOutput: (cb) => void parser.stdout!.on('data', () => cb()),
    pids: [td.pid, parser.pid].filter((p): p is number => p !== undefined),
    async stop(opts) {
      stopping = true;
      let told = false;
      const tell = () => {
        if (told) return;
        told = true;
        opts?.onDrain?.();
      };
      // The drain runs without the parser's CPU budget (cpu-budget.ts: the end of its lift
      // pipe lifts it, budget-lift.ts), so rows it held back under load are handed over within
      // the drain's limit. Not a signal: one sent before the parser's handler is installed kills it.
      liftPipe?.end();
      const t0 = Date.now();
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      let s = await askStats();
      let filled = 0;
      /** The packets the kernel had taken when the stop began (null: no counts). */
      let wanted: number | null = null;
      if (s !== null) {
        // Only the packets taken before this call: later ones are not this capture's to keep
        // (a follow's restart starts the next capture at once).
        wanted = s.received - s.dropped;
        // Some still in an open block: fill it, so the kernel hands it over now, not at its timeout.
        if (s.captured < wanted && o.fill) filled = await o.fill.fill().catch(() => 0);
        while (s !== null && s.captured < wanted && Date.now() - t0 < DRAIN_MAX_MS) {
          tell();
          await pause(filled > 0 ? FILLED_POLL_MS : STATS_POLL_MS);
          s = await askStats();
        }
      } else {
        tell();
        while (Date.now() - lastOut < DRAIN_QUIET_MS && Date.now() - t0 < DRAIN_MAX_MS) await pause(50);
      }
      // SIGINT: tcpdump flushes, prints its statistics and closes the pipe; the parser then ends.
      // Each has TERM_GRACE_MS for that; a stopped (SIGSTOP) or hung one is killed, never waited
      // for without end, and never left behind as an orphan capturing as nobody.
      if (td.exitCode === null && td.signalCode === null) td.kill('SIGINT');
      tell();
      const forced: string[] = [];
      if (!(await exitsWithin(td, exited(td)))) forced.push('tcpdump');
      if (!(await exitsWithin(parser, parserDone))) forced.push('the packet parser');
      // tcpdump's final statistics are its last such lines (the drain's SIGUSR1 answers came first).
      const count = (re: RegExp) => {
        const n = [...err.matchAll(re)].at(-1)?.[1];
        return n === undefined ? null : Number(n);
      };
      // The ring hands packets over in the order the kernel took them, and a later drop is of a
      // later packet: when tcpdump wrote fewer than `wanted` in all, the rest of those were left.
      const captured = count(/(\d+) packets? captured/g);
      const leftInRing = wanted === null || captured === null ? null : Math.max(0, wanted - captured);
      return { counts, dropped: count(/(\d+) packets? dropped by kernel/g), received: count(/(\d+) packets? received by filter/g), badLines, forced, filled, leftInRing };
    },
  };
}
