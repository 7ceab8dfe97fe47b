/**
 * `capture-watch`: the exact query log's companion process (host/capture-companion.ts starts it
 * as root next to the proxy). Runs the capture pipeline (pipeline.ts: tcpdump opens the capture
 * and drops to CAPTURE_USER, the parser runs as CAPTURE_USER) and appends its rows to
 * K2S_PATHS.queryRows (rows-file.ts), until SIGTERM/SIGINT: then it drains, stops tcpdump and
 * prints the counts (a SIGTERM/SIGINT before the capture opened ends tcpdump and the parser
 * at once and exits 0). Exits 1 when tcpdump is missing, the capture cannot open, or tcpdump or the
 * parser exits on its own later (then CAPTURE_FAILED_FILE says why): Restart=on-failure retries;
 * CAPTURE_EXIT_CONFIG for a bad flags file or go line, which neither the unit nor the keeper
 * restarts it for (shared/capture-exit.ts). A failure before its capture opened is said there too, with its exit
 * status (failed-file.ts), for start's wait for the capture (host/capture-wait.ts).
 * Once its capture is open it runs at idle priority with tcpdump and the parser (go-idle.ts); while rows flow it
 * records the kernel's drops in CAPTURE_MISSED_FILE (capture-missed.ts).
 */
import { promises as fsp } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { HostFs } from '../host/host-fs';
import { readAdmGid } from '../host/query-log';
import { latestOnly } from './latest-write';
import { parserProgram } from './parser-program';
import { argsOfGoLine, CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_FLAGS_FILE_FLAG, CAPTURE_HELD_FLAG, CAPTURE_HOLD_FILE, CAPTURE_MISSED_FILE, CAPTURE_READY_FILE, CAPTURE_UNWRITTEN_FILE, PARSER_BUNDLE, PARSER_RUN_PATH, parseCaptureArgs } from './capture-args';
import { startCapturePipeline, StoppedBeforeOpen } from './pipeline';
import { openRowsFile } from './rows-file';
import { findTcpdump, TCPDUMP_PATHS } from './tcpdump-path';
import { openBlockFill } from './block-fill';
import { stopLine } from './stop-line';
import { missedFileText, watchMissed } from './capture-missed';
import { runsIdle } from './sched-policy';
import { goIdle, goNormal, treeLeaders } from './go-idle';
import { budgetShare } from './cpu-budget';
import { awaitHold, HOLD_MAX_MS, HOLD_POLL_MS } from './hold-wait';
import { readSmallFile } from './small-file';
import { failedFileText, parseFailedFile } from './failed-file';
import { CAPTURE_EXIT_CONFIG } from '../../../shared/capture-exit';
import { forgetChildren, recordChildren } from './children-file';

/** Longest flags file the companion reads, bytes: a go line for a few listeners and ports is well under 1 KiB. */
export const FLAGS_MAX_BYTES = 64 * 1024;

/**
 * ms after a stop began by which its tree's priority is being set back to normal (go-idle.ts
 * goNormal), whether or not tcpdump's counts were read (pipeline.ts stop onDrain) by then.
 */
export const NORMAL_LATEST_MS = 20;

/** The unprivileged account tcpdump drops to and the parser runs as (Debian's nobody). */
export const CAPTURE_USER = 'nobody';

/**
 * The parser bundle's bytes: dist/ next to the bundle running this code (the CLI's chunks are in
 * dist/, the helper's one file sits above dist/ in /usr/lib/k2s-dns), or next to `entry`.
 */
async function readParserBundle(entry: string): Promise<Buffer | null> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, path.join(here, 'dist'), path.dirname(entry), path.join(path.dirname(entry), '..', 'dist')]) {
    const b = await fsp.readFile(path.join(dir, PARSER_BUNDLE)).catch(() => null);
    if (b) return b;
  }
  return null;
}

/** uid and gid of `user` in an /etc/passwd text (passwd(5)), else null. */
export function accountFrom(passwdText: string, user: string): { uid: number; gid: number } | null {
  for (const line of passwdText.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name === user && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '')) return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

/** Longest go line a held companion reads, bytes (the flags of a few listeners and ports are ~100). */
const GO_LINE_MAX = 64 * 1024;

/**
 * The first line of `input` (without its newline), or null when it ends (or passes GO_LINE_MAX)
 * first; then stops reading it, so it keeps nothing open.
 */
export function firstLine(input: NodeJS.ReadableStream & { destroy?: () => void }): Promise<string | null> {
  return new Promise((resolve) => {
    let text = '';
    const done = (line: string | null) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onEnd);
      input.removeListener('close', onEnd);
      input.destroy?.();
      resolve(line);
    };
    const onData = (d: Buffer | string) => {
      text += d.toString();
      const nl = text.indexOf('\n');
      if (nl >= 0) done(text.slice(0, nl));
      else if (text.length > GO_LINE_MAX) done(null);
    };
    const onEnd = () => done(null);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onEnd);
    input.once('close', onEnd);
  });
}

/**
 * Runs the companion with the flags after the verb; resolves the exit status (3 when not root,
 * 2 for bad flags). Started held (CAPTURE_HELD_FLAG alone, host/capture-companion.ts prepare), it
 * first waits for its go line on `input` and takes its flags from it; `input` ending first (its
 * starter dropped it or died) ends it with 0, nothing done; a bad go line or bad flags in it end
 * it with CAPTURE_EXIT_CONFIG (its keeper's restarts read the same line: host/capture-keeper.ts
 * does not restart it for that status), said on stderr and, as root, in CAPTURE_FAILED_FILE. With `--flags-file PATH` (the systemd
 * unit, CAPTURE_FLAGS_FILE_FLAG) it waits while start holds it (hold-wait.ts; a drop ends it with
 * 0), then reads its flags, a go line, from PATH: CAPTURE_EXIT_CONFIG when PATH is missing, a link
 * or FIFO (not read: small-file.ts), more than FLAGS_MAX_BYTES, or no go line of good flags; 1
 * when another error kept it from reading. Each such end says why on stderr (the journal), and
 * as root in CAPTURE_FAILED_FILE too, as every failure before the capture opened does.
 */
export async function runCapture(fs: HostFs, uid: number, givenArgs: readonly string[], entry: string, input: NodeJS.ReadableStream = process.stdin, procDir = '/proc'): Promise<number> {
  let args = givenArgs;
  // Why it failed before its capture opened, for start's wait and for status (failed-file.ts):
  // root's run dir, so as root only. The line of a capture that stopped (no exit status: below)
  // stays until a capture opens again, as status says it: systemd's restarts after it do not replace it.
  const failed = async (why: string, exit: number): Promise<number> => {
    if (uid !== 0) return exit;
    try {
      const before = parseFailedFile((await fs.readFile(CAPTURE_FAILED_FILE).catch(() => Buffer.from(''))).toString('utf8'));
      if (before !== null && before.exit === null) return exit;
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      await fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), why, exit), { mode: 0o644 });
    } catch {
      // Best effort: its stderr or stdout (the journal) says it too.
    }
    return exit;
  };
  const fromFile = args.length === 2 && args[0] === CAPTURE_FLAGS_FILE_FLAG;
  const held = args.length === 1 && args[0] === CAPTURE_HELD_FLAG;
  // What it reads needs no flag: begun now, so a held companion has it read before its go.
  const reading = Promise.all([findTcpdump(), fsp.readFile(fs.real('/etc/passwd'), 'utf8').catch(() => ''), readParserBundle(entry), readAdmGid(fs.real('/etc/group'))]);
  void reading.catch(() => undefined); // awaited below; a companion that ends before must not crash on it
  // Its stderr: the journal under systemd, the companion's log under its keeper.
  const note = (line: string) => process.stderr.write(`k2s-dns capture-watch: ${line}\n`);
  // Only K2s's own flags file: the helper is also what pkexec runs for a caller, and root
  // read any file the caller named here and printed its first line, on stderr and in the
  // world-readable failed file ("/etc/shadow holds no go line: \"root:$y$…\"", brk31).
  if (fromFile && args[1] !== fs.real(CAPTURE_FLAGS_FILE)) {
    note(`reads its flags only from ${fs.real(CAPTURE_FLAGS_FILE)}, not ${JSON.stringify(args[1]!.slice(0, 200))}.`);
    return 2;
  }
  if (fromFile) {
    // systemd: held while start checks the host (hold-wait.ts), then the flags start wrote.
    if ((await awaitHold(fs.real(CAPTURE_HOLD_FILE), procDir, HOLD_POLL_MS, HOLD_MAX_MS, note)) === 'drop') return 0;
    // Root reads it: no link followed, no FIFO waited on, no more than FLAGS_MAX_BYTES (small-file.ts).
    const read = await readSmallFile(args[1]!, args[1]!, FLAGS_MAX_BYTES);
    if ('code' in read) {
      const why = `cannot read its flags: ${read.why}; the next start of K2s DNS writes them (a regular file of one go line).`;
      note(why);
      // Missing, a link, not a regular file (small-file.ts EINVAL), too big: no restart reads it better.
      return failed(why, ['ENOENT', 'ELOOP', 'EINVAL', 'EFBIG'].includes(read.code) ? CAPTURE_EXIT_CONFIG : 1);
    }
    const text = read.text;
    const flags = argsOfGoLine(text.split('\n')[0]!);
    if (flags === null) {
      const why = `${args[1]!} holds no go line: ${JSON.stringify(text.slice(0, 200))}`;
      note(why);
      return failed(why, CAPTURE_EXIT_CONFIG);
    }
    args = flags;
  } else if (held) {
    const line = await firstLine(input);
    if (line === null) return 0;
    const flags = argsOfGoLine(line);
    if (flags === null) {
      const why = `not a go line: ${JSON.stringify(line.slice(0, 200))}`;
      note(why);
      // Its configuration: its keeper's every restart reads the same line (its go file).
      return failed(why, CAPTURE_EXIT_CONFIG);
    }
    args = flags;
  }
  const say = (line: string) => process.stdout.write(`${new Date().toISOString()} k2s-dns capture-watch: ${line}\n`);
  if (uid !== 0) {
    process.stderr.write('k2s-dns capture-watch opens a packet capture: it runs as root, started by k2s-dns start.\n');
    return 3;
  }
  let spec;
  try {
    spec = parseCaptureArgs(args);
  } catch (err) {
    process.stderr.write(`k2s-dns capture-watch: ${(err as Error).message}\n`);
    // Flags from the flags file or the go line are its configuration (a restart reads the same); on its command line, a usage error.
    if (fromFile) return failed(`bad flags in ${givenArgs[1]!}: ${(err as Error).message}`, CAPTURE_EXIT_CONFIG);
    return held ? failed(`bad flags in its go line: ${(err as Error).message}`, CAPTURE_EXIT_CONFIG) : 2;
  }
  // What it reads, side by side: start waits for this companion's capture to open.
  const [tcpdump, passwd, bundle, admGid] = await reading;
  /** Says why it cannot run and resolves its status, 1: systemd's restart finds it again once it is there. */
  const unavailable = (why: string) => {
    say(why);
    return failed(why, 1);
  };
  if (tcpdump === null) return unavailable(`tcpdump is not installed (looked in ${TCPDUMP_PATHS.join(', ')}); install it (apt-get install tcpdump) for the exact query log.`);
  const account = accountFrom(passwd, CAPTURE_USER);
  if (account === null) return unavailable(`no ${CAPTURE_USER} account in /etc/passwd to run the packet parser as.`);
  if (bundle === null) return unavailable(`the packet parser ${PARSER_BUNDLE} is not next to ${entry} (run npm run build).`);
  // The loss for status and the Logs view (CAPTURE_UNWRITTEN_FILE, on tmpfs): best effort, the
  // newest running total only (a slow disk drops a batch per turn: no queue of writes, latest-write.ts).
  const loss = latestOnly((line) => fs.writeFileAtomic(CAPTURE_UNWRITTEN_FILE, `${line}\n`, { mode: 0o644 }));
  const onLoss = (line: string) => loss.put(line);
  // What it writes and opens, side by side too. The parser's copy in root's 0755 run dir, 0644:
  // the parser's user must read it, and an entry under a 0700 home (a checkout) would not be
  // readable by nobody. The stop's block fill (block-fill.ts): a stop right after the last
  // queries hands their ring block over at once.
  const [, rows, fill] = await Promise.all([
    fs.mkdirp(K2S_PATHS.runDir, 0o755).then(() => fs.writeFileAtomic(PARSER_RUN_PATH, bundle, { mode: 0o644 })),
    (async () => {
      await fs.mkdirp(K2S_PATHS.logDir, 0o755);
      await Promise.all([fs.remove(CAPTURE_UNWRITTEN_FILE), fs.remove(CAPTURE_MISSED_FILE)]);
      return openRowsFile(fs.real(K2S_PATHS.queryRows), admGid, undefined, say, onLoss);
    })(),
    openBlockFill(),
  ]);
  // A stop may come while tcpdump has not opened the capture yet (hung, stopped, slow): the
  // pipeline's start then ends its children at once (pipeline.ts StoppedBeforeOpen), not at its 10 s limit.
  const stopSignal = new AbortController();
  // Every SIGTERM/SIGINT after the first is ignored (`on`, not `once`): a second one (an impatient
  // `kill`, systemd's stop of a unit already stopping) would otherwise end the companion by the
  // default action mid-drain, losing the last rows. Its stoppers end it by SIGKILL past their own
  // limit (the keeper's stop wait, the unit's TimeoutStopSec=).
  const stopping = new Promise<void>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const)
      process.on(sig, () => {
        stopSignal.abort();
        resolve();
      });
  });
  const closeAll = async () => {
    fill?.close();
    await rows.close();
    // Its last loss on file before the companion exits (a failed one keeps it for status).
    await loss.settled();
  };
  // The record's write (never rejects): awaited before the record is removed at the stop.
  let recording: Promise<void> = Promise.resolve();
  let pipeline;
  try {
    pipeline = await startCapturePipeline({ spawn: (file, a, o) => spawn(file, [...a], o) }, { iface: 'any', ports: spec.ports, user: CAPTURE_USER, ...account, parser: parserProgram(process.execPath, process.execArgv, fs.real(PARSER_RUN_PATH)), listeners: spec.listeners, tcpdump, ...(fill ? { fill } : {}),
      // Each row records the search list host apps used then (an expansion is judged by it,
      // host-search.ts): the parser reads the file and writes it into the row (row-line.ts).
      resolvConf: fs.real('/etc/resolv.conf'),
      // The parser's CPU budget: its default unless the companion's own environment sets one
      // (the bench measures shares that way; any value is only a limit on the parser).
      ...(process.env.K2S_CAPTURE_CPU_SHARE !== undefined ? { cpuShare: budgetShare(process.env.K2S_CAPTURE_CPU_SHARE) } : {}),
      onRows: (lines, n) => rows.writeLines(lines, n),
      // Its children on record at once: killed (kill -9) from now on, it leaves them to its keeper and to stop (children-file.ts).
      onSpawn: (children) => void (recording = recordChildren(fs, children, procDir, fs.real(PARSER_RUN_PATH))),
      signal: stopSignal.signal,
    });
  } catch (err) {
    // Stopped before the capture opened: a stop, no failure (exit 0: neither Restart=on-failure
    // nor the keeper restarts it); it was never ready, and no capture-failed line is written.
    const stopped = err instanceof StoppedBeforeOpen;
    say(stopped ? `${err.message}; exiting 0.` : (err as Error).message);
    fill?.close();
    await rows.close();
    return stopped ? 0 : failed((err as Error).message, 1);
  }
  // Its children on record before it says ready (begun at their spawn, done by now but on a busy
  // host): a kill -9 right after the ready file leaves them to its keeper and to stop, who find them by it.
  await Promise.all([fs.remove(CAPTURE_FAILED_FILE), recording]);
  await fs.writeFileAtomic(CAPTURE_READY_FILE, `${process.pid}\n`, { mode: 0o644 });
  // Open (start has stopped waiting): companion, tcpdump and parser yield the CPU to DNS from now on.
  // Its autogroup too, when this companion or its keeper's shell leads the session (go-idle.ts treeLeaders).
  const leaders = await treeLeaders(process.pid, process.ppid);
  const priority = await goIdle([process.pid, ...pipeline.pids], undefined, undefined, leaders);
  if (priority.why !== null) say(priority.why);
  // The kernel's drops while it runs, for status and the Logs view (capture-missed.ts).
  const idle = await runsIdle();
  const missed = watchMissed({
    stats: pipeline.stats,
    write: (r) => fs.writeFileAtomic(CAPTURE_MISSED_FILE, missedFileText(r), { mode: 0o644 }),
    later: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    now: () => new Date(),
    idle,
  }, new Date());
  pipeline.onOutput(missed.output);
  say(`(PID ${process.pid}, ${idle ? 'idle priority: it yields the CPU to DNS' : 'normal priority'}) ${tcpdump} reads ports ${spec.ports.join(', ')} of ${spec.listeners.join(', ')} into ${K2S_PATHS.queryRows}.`);
  const crashed = await Promise.race([stopping.then(() => null), pipeline.ended]);
  missed.stop();
  if (crashed !== null) {
    // Capturing nothing while looking up would hide the loss: say why, leave the reason for
    // status and the Logs panel, and exit 1 so systemd's Restart=on-failure starts a new capture.
    await fs.remove(CAPTURE_READY_FILE);
    await fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(new Date(), crashed), { mode: 0o644 });
    await closeAll();
    say(`the exact query log stopped: ${crashed}; exiting 1.`);
    return 1;
  }
  // The stop's drain at normal priority (go-idle.ts): the last rows are handed over within its
  // limit on a busy host too. Also after a failed chrt: the autogroup was set apart from it.
  // Begun once tcpdump's counts are read (the drain's onDrain), before the drain waits for any
  // packet, and after the SIGINT when it waits for none: goNormal's chrt spawns hold this
  // process's event loop (~8 ms for three on an idle 2-core host, ~24 ms at load 6–7 on the
  // booted Debian 13 host), which held the counts' read and so the SIGINT back (issue #21). At the
  // latest NORMAL_LATEST_MS after the stop began: a tcpdump slow to answer (its counts come within
  // STATS_WAIT_MS or not at all) does not keep the tree idle for that long. The ready file goes
  // alongside: the capture is open until the SIGINT.
  let normal: Promise<void> | null = null;
  const toNormal = () => void (normal ??= goNormal([process.pid, ...pipeline.pids], undefined, undefined, leaders));
  const latest = setTimeout(toNormal, NORMAL_LATEST_MS);
  const stopped = pipeline.stop({ onDrain: toNormal });
  await fs.remove(CAPTURE_READY_FILE);
  const end = await stopped;
  clearTimeout(latest);
  toNormal();
  // Both children have exited and been reaped (pipeline.ts stop waits for them): the record goes.
  await recording;
  await Promise.all([normal, forgetChildren(fs)]);
  await closeAll();
  // Its drops and its unwritten rows belong to this run, which ends here: a stop no longer waits
  // for this drain on systemd (host/capture-companion.ts endLeft), so they go now, after its last write.
  await Promise.all([fs.remove(CAPTURE_MISSED_FILE), fs.remove(CAPTURE_UNWRITTEN_FILE)]);
  say(stopLine(end, rows));
  return 0;
}
