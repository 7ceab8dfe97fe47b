/**
 * The watchdog that owns the proxy on hosts without systemd (supervised mode): a small POSIX sh
 * loop, started detached, that
 *  1. starts the proxy through `sh -c 'echo $$ >PIDFILE; exec PROXY…'`, so the proxy's pid is on
 *     disk before the proxy exists (the shell writes its own pid, then exec(2) keeps that pid):
 *     no kill of the CLI at any point can leave a proxy whose pid nobody recorded;
 *  2. restarts a proxy that exits with a failure, with bounded exponential backoff
 *     (shared/watchdog-backoff.ts: 1, 2, 4 … 30 s; gives up after MAX_RESTARTS quick failures in a row; a run of ≥ 60 s
 *     resets the count) — the same policy as the unit's `Restart=on-failure` under systemd;
 *  3. reports every restart on its stdout (the proxy log), each line `YYYY/MM/DD HH:MM:SS k2s-dns
 *     watchdog: …` (local time, as dnsproxy's own lines; shared/log-line.ts reads them as the
 *     watchdog's), and in a small key=value state file; when it gives up, its line names the
 *     command line that starts K2s DNS again (given at start: watchdogArgv `startLine`);
 *  4. on SIGTERM/SIGINT stops the proxy (SIGTERM) and exits without restarting it.
 * A clean exit (status 0) is not restarted, as with systemd's on-failure. Before every start and
 * restart the directories root writes must still be root's alone (k2s_dirs_ok), else it stops.
 * Every argument is passed as a positional parameter ("$@"), never spliced into the script.
 */
import { DIRS_OK_SH } from '../../../shared/root-dir-check';
import { cliCommand } from '../../../shared/fix';
import { WATCHDOG_BACKOFF_S } from '../../../shared/watchdog-backoff';

/** argv[0] the watchdog shell runs under (shows in ps; recognised by stop). */
export const WATCHDOG_NAME = 'k2s-dnsproxy-watchdog';

/** Restarts in a row (each after a run shorter than 60 s) before the watchdog gives up. */
export const MAX_RESTARTS = 6;

/** What every line the watchdog writes to the proxy log starts with, after its time. */
export const WATCHDOG_LOG_PREFIX = 'k2s-dns watchdog:';

/**
 * POSIX sh; $1 proxy pidfile, $2 watchdog state file, $3 the directories that must be root's
 * alone before every (re)start (colon-separated real paths, may be empty), $4 the command line
 * its give-up line names (printed as data with printf %s, never run or re-read by the shell),
 * $5… the proxy argv.
 */
export const WATCHDOG_SCRIPT = `
${DIRS_OK_SH}
pidfile=$1; state=$2; dirs=$3; startline=$4; shift 4
# One proxy log line, with the local time as dnsproxy writes its own (shared/log-line.ts).
say() { printf '%s ${WATCHDOG_LOG_PREFIX} %s\n' "$(date '+%Y/%m/%d %H:%M:%S')" "$1"; }
dirs_guard() { ifs0=$IFS; IFS=:; set -f; k2s_dirs_ok $dirs; r0=$?; IFS=$ifs0; set +f; return $r0; }
stop=; child=; nap=; restarts=0; delay=${WATCHDOG_BACKOFF_S.first}; total=0
# The state file, replaced whole (write a sibling, then rename(2)): a reader never sees half of it.
# restarts: every restart so far; in-a-row: those since the last run of 60 s or more (the give-up
# count); with \$2 = last, the proxy that ended last.
put() {
  { printf 'restarts=%s\\nin-a-row=%s\\nstate=%s\\n' "$total" "$restarts" "$1"
    if [ "$2" = last ]; then printf 'last-exit=%s\\nlast-exit-at=%s\\nlast-pid=%s\\n' "$rc" "$ended" "$dead"; fi
  } >"$state.new" && mv -f "$state.new" "$state"
}
trap 'stop=1; kill -TERM $child $nap 2>/dev/null' TERM INT
first=1
while :; do
  # Before every (re)start: a directory that became another user's is not started from.
  if [ -n "$dirs" ] && ! dirs_guard; then put refused; break; fi
  sh -c 'printf "%s\\n" "$$" >"$0" || exit 111; exec "$@"' "$pidfile" "$@" &
  child=$!
  # After the proxy's start, not before: each is a process (date, mv) the start would wait for.
  began=$(date +%s)
  [ -n "$first" ] && { first=; put running; }
  # 2>/dev/null: sh reports a signalled job ("Killed") on stderr, which is the proxy log.
  rc=0; wait "$child" 2>/dev/null || rc=$?
  # wait returns early when a trapped signal arrives: wait again for the proxy to exit.
  while kill -0 "$child" 2>/dev/null; do wait "$child" 2>/dev/null; rc=$?; done
  dead=$child; child=
  # A stop ends here, before the clock is read: date is a process each stop would wait for.
  [ -n "$stop" ] && break
  # When and which proxy ended: the window's timeline names the time, the status and the dead PID.
  ended=$(date +%s)
  # A clean exit (dnsproxy and dnsmasq exit 0 on SIGTERM: someone ended it) is not restarted;
  # recorded with the proxy that ended, so status can say when and why nothing restarts it.
  [ "$rc" -eq 0 ] && { put exited last; break; }
  if [ $(( ended - began )) -ge 60 ]; then restarts=0; delay=${WATCHDOG_BACKOFF_S.first}; fi
  restarts=$((restarts + 1)); total=$((total + 1))
  if [ "$restarts" -gt ${MAX_RESTARTS} ]; then
    # $restarts runs failed in a row: the one before the first restart, then ${MAX_RESTARTS} restarted ones.
    say "the proxy failed $restarts times in a row, the last ${MAX_RESTARTS} each within 60 s of its restart (last exit status $rc); not restarting it. Fix that cause, then start K2s DNS again (Start in the window, or $startline): it keeps your saved original."
    put gave-up last
    break
  fi
  say "the proxy exited with status $rc; restart $restarts of ${MAX_RESTARTS} in \${delay}s."
  put restarting last
  sleep "$delay" & nap=$!; wait "$nap" 2>/dev/null; nap=
  [ -n "$stop" ] && break
  delay=$((delay * 2)); [ "$delay" -gt ${WATCHDOG_BACKOFF_S.max} ] && delay=${WATCHDOG_BACKOFF_S.max}
  put running last
done
rm -f "$pidfile"
`;

/**
 * argv that runs `proxyArgv` under the watchdog (real paths on this machine); `guardDirs` are
 * checked before every (re)start (shared/root-dir-check.ts); `startLine` is the command line its
 * give-up line names (shared/fix.ts cliStartCommand of the start; default: this runtime's
 * `start`). Throws for a dir with a colon.
 */
export function watchdogArgv(pidFile: string, stateFile: string, proxyArgv: readonly string[], guardDirs: readonly string[] = [], startLine: string = cliCommand('start', true)): string[] {
  const bad = guardDirs.find((d) => d.includes(':') || !d.startsWith('/'));
  if (bad !== undefined) throw new Error(`The directory ${JSON.stringify(bad)} cannot be checked by the watchdog (not absolute, or has a colon); use a root without colons.`);
  return ['/bin/sh', '-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, pidFile, stateFile, guardDirs.join(':'), startLine, ...proxyArgv];
}

/** True when `argv` (from /proc/PID/cmdline) is the watchdog shell rather than the proxy. */
export function isWatchdogArgv(argv: readonly string[]): boolean {
  return argv[1] === '-c' && argv[3] === WATCHDOG_NAME;
}

/** What the watchdog state file says: restarts so far and its state word. */
export interface WatchdogState {
  /** Every restart so far (`restarts=`). */
  restarts: number;
  /**
   * Restarts since the last run of 60 s or more (`in-a-row=`): the count the watchdog gives up
   * at (MAX_RESTARTS), so the one to say as "restart N of 6"; null in a file from before the key.
   */
  inARow: number | null;
  /** refused: a directory in guardDirs was not root's alone, so the proxy was not (re)started. */
  state: 'running' | 'restarting' | 'gave-up' | 'exited' | 'refused' | 'unknown';
  /** The proxy's exit status as sh's `wait` gives it (128 + N: killed by signal N). */
  lastExit: number | null;
  /** When that proxy ended, ms since the epoch (the watchdog's `date +%s`, whole seconds). */
  lastExitAt: number | null;
  /** The PID of the proxy that ended. */
  lastPid: number | null;
}

/** Parses the key=value state file; unknown for empty or foreign text. */
export function parseWatchdogState(text: string): WatchdogState {
  const kv = new Map(text.split('\n').map((l) => l.split('=', 2) as [string, string]).filter((p) => p.length === 2));
  const st = kv.get('state');
  const known = ['running', 'restarting', 'gave-up', 'exited', 'refused'] as const;
  const last = kv.get('last-exit');
  const int = (t: string | undefined): number | null => (t !== undefined && /^\d+$/.test(t) ? Number(t) : null);
  return {
    restarts: Number.parseInt(kv.get('restarts') ?? '0', 10) || 0,
    inARow: int(kv.get('in-a-row')),
    state: (known as readonly string[]).includes(st ?? '') ? (st as WatchdogState['state']) : 'unknown',
    lastExit: int(last),
    lastExitAt: int(kv.get('last-exit-at')) === null ? null : int(kv.get('last-exit-at'))! * 1000,
    lastPid: int(kv.get('last-pid')),
  };
}
