/**
 * The capture companion's command line (`k2s-dns capture-watch --listen A:P … --port P …`):
 * built by start from the proxy plan, parsed back by the companion (capture-main.ts), which runs
 * as root, so the parse takes only plain listeners and ports.
 */

import { K2S_PATHS } from '../../../shared/k2s-paths';

/** File name of the bundled packet parser in dist/ (scripts/build.mjs). */
export const PARSER_BUNDLE = 'k2s-dns-capture-rows.cjs';
/**
 * File name of the companion's own bundle in dist/ (scripts/build.mjs, from capture-watch-entry.ts):
 * only capture-main.ts and what it imports (~40 KB of CommonJS), so the companion's Node start-up,
 * which start waits for, skips the CLI's entry and its whole script (capture-program.ts).
 */
export const CAPTURE_BUNDLE = 'k2s-dns-capture-watch.cjs';
/** Host path the parser bundle is copied to: root's 0755 run dir, readable by the parser's user wherever the entry lives. */
export const PARSER_RUN_PATH = `${K2S_PATHS.runDir}/capture-rows.cjs`;
/**
 * The internal verb that runs the packet parser (PARSER_RUN_PATH) from the CLI's startup snapshot
 * (electron/cli/snapshot-run.ts): `node --snapshot-blob BLOB -- capture-rows`, no other word.
 */
export const PARSER_VERB = 'capture-rows';

/** Host path the companion writes its pid to once tcpdump has the capture open (start waits for it: no query before it is missed). */
export const CAPTURE_READY_FILE = `${K2S_PATHS.runDir}/capture.ready`;

/**
 * Host path the companion writes one line to when tcpdump or the parser ended on its own
 * (`2026-12-01T23:20:00.000Z tcpdump exited unexpectedly (signal SIGKILL)`), before it exits 1;
 * removed when a capture opens again and on stop. The exact log's readers (exact-log.ts) report it.
 */
export const CAPTURE_FAILED_FILE = `${K2S_PATHS.runDir}/capture.failed`;

/**
 * Host path of the companion's count of rows it could not write to the rows file (rows-file.ts),
 * one line rewritten on every failed write: `12 rows not written (no space left on /var/log/dnsproxy)`.
 * On tmpfs (/run), so a full log disk does not stop it. Removed when a capture opens, on stop
 * (host/capture-companion.ts, as CAPTURE_MISSED_FILE) and on uninstall.
 */
export const CAPTURE_UNWRITTEN_FILE = `${K2S_PATHS.runDir}/capture.unwritten`;

/**
 * Host path of the packets the running capture missed: the kernel's drops while the companion,
 * at idle priority, could not keep up (capture-missed.ts: `dropped=`, `since=`, `at=`, `idle=`
 * lines), rewritten when they grow; on tmpfs. Removed when a capture opens, on stop and on uninstall.
 */
export const CAPTURE_MISSED_FILE = `${K2S_PATHS.runDir}/capture.missed`;

/** The verb the companion runs under (the CLI and the helper entry both take it). */
export const CAPTURE_VERB = 'capture-watch';

/**
 * True when /proc/PID/cmdline is a capture companion: CAPTURE_VERB as argv[1]–argv[3] (after
 * node's entry, after a node flag and the entry, or after /usr/bin/k2s-dns while its shell
 * runs), or node from the CLI's startup snapshot, `node --snapshot-blob BLOB -- CAPTURE_VERB …`
 * (what /usr/bin/k2s-dns execs, resources/packaging/k2s-dns).
 */
export function isCaptureArgv(argv: readonly string[]): boolean {
  if (argv.slice(1, 4).includes(CAPTURE_VERB)) return true;
  return argv[1] === '--snapshot-blob' && argv[3] === '--' && argv[4] === CAPTURE_VERB;
}

/**
 * The one flag of a companion started ahead of its flags (host/capture-companion.ts prepare):
 * it waits for its go line (heldGoLine) on stdin before it does anything, and exits at EOF.
 */
export const CAPTURE_HELD_FLAG = '--held';

/** The line that lets a held companion go with `args` (the flags after CAPTURE_VERB): `go ["--listen",…]`. Throws like parseCaptureArgs. */
export function heldGoLine(args: readonly string[]): string {
  parseCaptureArgs(args);
  return `go ${JSON.stringify(args)}`;
}

/** The flags of a go line (heldGoLine), or null for any other text. */
export function argsOfGoLine(line: string): string[] | null {
  const m = /^go (\[.*\])$/.exec(line);
  if (!m) return null;
  try {
    const v: unknown = JSON.parse(m[1]!);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  } catch {
    return null;
  }
}

/**
 * The companion's one flag on systemd hosts (shared/capture-unit.ts): `--flags-file PATH`, its
 * flags read from PATH (CAPTURE_FLAGS_FILE, a go line: heldGoLine) when it starts. The unit's
 * command line then stays the same from start to start, so a start with other ports rewrites a
 * small file, not the unit (no daemon-reload), and a companion can begin before its flags are
 * known (CAPTURE_HOLD_FILE).
 */
export const CAPTURE_FLAGS_FILE_FLAG = '--flags-file';

/** Host path of the systemd companion's flags (a go line), written by start; root's dir, kept across reboots (boot starts the unit from it). */
export const CAPTURE_FLAGS_FILE = K2S_PATHS.captureFlags;

/**
 * Host path of the hold file (tmpfs: none after a boot). A `--flags-file` companion that finds
 * `hold PID STARTTIME` in it waits before it reads its flags, until start writes `go` (read the
 * flags file now) or `drop` (exit 0, nothing done), or until that process (PID, with STARTTIME
 * from /proc/PID/stat, so a reused PID is not it) has ended. Start writes the hold before it
 * restarts the unit (host/capture-companion.ts systemdCapture prepare), so the companion's Node
 * start-up runs while start checks the host; no hold file, or `go`: it reads the flags at once.
 */
export const CAPTURE_HOLD_FILE = `${K2S_PATHS.runDir}/capture.hold`;

/** What CAPTURE_HOLD_FILE says (holdFileText, parseHoldFile). */
export type CaptureHold = { kind: 'hold'; pid: number; startTime: string } | { kind: 'go' } | { kind: 'drop' };

/** The hold file's text for `h`, one line. */
export function holdFileText(h: CaptureHold): string {
  return h.kind === 'hold' ? `hold ${h.pid} ${h.startTime}\n` : `${h.kind}\n`;
}

/** The hold file's meaning, or null for any other text (read as no hold: a companion then goes). */
export function parseHoldFile(text: string): CaptureHold | null {
  const line = text.split('\n')[0]!.trim();
  if (line === 'go' || line === 'drop') return { kind: line };
  const m = /^hold ([1-9]\d{0,9}) (\d{1,20})$/.exec(line);
  return m ? { kind: 'hold', pid: Number(m[1]), startTime: m[2]! } : null;
}

/** What the companion captures: the proxy's listeners and every port it listens and forwards on. */
export interface CaptureSpec {
  /** `127.0.0.1:53`, `[::1]:53`. */
  listeners: string[];
  /** Listener and upstream ports, 1–65535. */
  ports: number[];
}

const LISTENER = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/;

/** The flags after CAPTURE_VERB for `spec` (throws like parseCaptureArgs on a value that is not plain). */
export function captureArgs(spec: CaptureSpec): string[] {
  const args = [...spec.listeners.flatMap((l) => ['--listen', l]), ...[...new Set(spec.ports)].flatMap((p) => ['--port', String(p)])];
  parseCaptureArgs(args);
  return args;
}

/** Parses the flags after CAPTURE_VERB; throws with the bad word. */
export function parseCaptureArgs(args: readonly string[]): CaptureSpec {
  const spec: CaptureSpec = { listeners: [], ports: [] };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    const port = (p: string) => {
      const n = /^\d{1,5}$/.test(p) ? Number(p) : NaN;
      if (!(n >= 1 && n <= 65535)) throw new Error(`port ${JSON.stringify(p)}: need 1–65535`);
      return n;
    };
    if (flag === '--listen') {
      const m = LISTENER.exec(value);
      if (!m) throw new Error(`listener ${JSON.stringify(value)} is not ADDRESS:PORT`);
      port(m[1]!);
      spec.listeners.push(value);
    } else if (flag === '--port') spec.ports.push(port(value));
    else throw new Error(`unknown flag ${JSON.stringify(flag)}`);
  }
  if (spec.listeners.length === 0 || spec.ports.length === 0) throw new Error('need at least one --listen and one --port');
  return spec;
}

/** The ports to capture for a proxy plan: its listeners' and its upstreams' (`IP`, `IP:PORT`, `[v6]:PORT`; 53 when none is given). */
export function capturePorts(listenerPorts: readonly number[], upstreams: readonly string[]): number[] {
  const up = upstreams.map((u) => /\]:(\d+)$|^[^:[\]]+:(\d+)$/.exec(u)).map((m) => (m ? Number(m[1] ?? m[2]) : 53));
  return [...new Set([...listenerPorts, ...up])].sort((a, b) => a - b);
}
