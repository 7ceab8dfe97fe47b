/**
 * The watchdog that owns the proxy on hosts without systemd (supervised mode): a small POSIX sh
 * loop, started detached, that
 *  1. starts the proxy through `sh -c 'echo $$ >PIDFILE; exec PROXY…'`, so the proxy's pid is on
 *     disk before the proxy exists (the shell writes its own pid, then exec(2) keeps that pid):
 *     no kill of the CLI at any point can leave a proxy whose pid nobody recorded;
 *  2. restarts a proxy that exits with a failure, with bounded exponential backoff
 *     (1, 2, 4 … 30 s; gives up after MAX_RESTARTS quick failures in a row; a run of ≥ 60 s
 *     resets the count) — the same policy as the unit's `Restart=on-failure` under systemd;
 *  3. reports every restart on its stdout (the proxy log) and in a small key=value state file;
 *  4. on SIGTERM/SIGINT stops the proxy (SIGTERM) and exits without restarting it.
 * A clean exit (status 0) is not restarted, as with systemd's on-failure.
 * Every argument is passed as a positional parameter ("$@"), never spliced into the script.
 */

/** argv[0] the watchdog shell runs under (shows in ps; recognised by stop). */
export const WATCHDOG_NAME = 'k2s-dnsproxy-watchdog';

/** Restarts in a row (each after a run shorter than 60 s) before the watchdog gives up. */
export const MAX_RESTARTS = 6;

/** POSIX sh; $1 proxy pidfile, $2 watchdog state file, $3… the proxy argv. */
export const WATCHDOG_SCRIPT = `
pidfile=$1; state=$2; shift 2
stop=; child=; nap=; restarts=0; delay=1; total=0
trap 'stop=1; kill -TERM $child $nap 2>/dev/null' TERM INT
printf 'restarts=0\\nstate=running\\n' >"$state"
while :; do
  began=$(date +%s)
  sh -c 'printf "%s\\n" "$$" >"$0" || exit 111; exec "$@"' "$pidfile" "$@" &
  child=$!
  # 2>/dev/null: sh reports a signalled job ("Killed") on stderr, which is the proxy log.
  rc=0; wait "$child" 2>/dev/null || rc=$?
  # wait returns early when a trapped signal arrives: wait again for the proxy to exit.
  while kill -0 "$child" 2>/dev/null; do wait "$child" 2>/dev/null; rc=$?; done
  child=
  [ -n "$stop" ] && break
  [ "$rc" -eq 0 ] && { printf 'restarts=%s\\nstate=exited\\n' "$total" >"$state"; break; }
  if [ $(( $(date +%s) - began )) -ge 60 ]; then restarts=0; delay=1; fi
  restarts=$((restarts + 1)); total=$((total + 1))
  if [ "$restarts" -gt ${MAX_RESTARTS} ]; then
    echo "k2s-dns watchdog: the proxy failed ${MAX_RESTARTS} times in a row (last exit status $rc); not restarting it. Run k2s-dns stop, then start."
    printf 'restarts=%s\\nstate=gave-up\\nlast-exit=%s\\n' "$total" "$rc" >"$state"
    break
  fi
  echo "k2s-dns watchdog: the proxy exited with status $rc; restart $restarts of ${MAX_RESTARTS} in \${delay}s."
  printf 'restarts=%s\\nstate=restarting\\nlast-exit=%s\\n' "$total" "$rc" >"$state"
  sleep "$delay" & nap=$!; wait "$nap" 2>/dev/null; nap=
  [ -n "$stop" ] && break
  delay=$((delay * 2)); [ "$delay" -gt 30 ] && delay=30
  printf 'restarts=%s\\nstate=running\\nlast-exit=%s\\n' "$total" "$rc" >"$state"
done
rm -f "$pidfile"
`;

/** argv that runs `proxyArgv` under the watchdog (real paths on this machine). */
export function watchdogArgv(pidFile: string, stateFile: string, proxyArgv: readonly string[]): string[] {
  return ['/bin/sh', '-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, pidFile, stateFile, ...proxyArgv];
}

/** True when `argv` (from /proc/PID/cmdline) is the watchdog shell rather than the proxy. */
export function isWatchdogArgv(argv: readonly string[]): boolean {
  return argv[1] === '-c' && argv[3] === WATCHDOG_NAME;
}

/** What the watchdog state file says: restarts so far and its state word. */
export interface WatchdogState {
  restarts: number;
  state: 'running' | 'restarting' | 'gave-up' | 'exited' | 'unknown';
  lastExit: number | null;
}

/** Parses the key=value state file; unknown for empty or foreign text. */
export function parseWatchdogState(text: string): WatchdogState {
  const kv = new Map(text.split('\n').map((l) => l.split('=', 2) as [string, string]).filter((p) => p.length === 2));
  const st = kv.get('state');
  const known = ['running', 'restarting', 'gave-up', 'exited'] as const;
  const last = kv.get('last-exit');
  return {
    restarts: Number.parseInt(kv.get('restarts') ?? '0', 10) || 0,
    state: (known as readonly string[]).includes(st ?? '') ? (st as WatchdogState['state']) : 'unknown',
    lastExit: last !== undefined && /^\d+$/.test(last) ? Number(last) : null,
  };
}
