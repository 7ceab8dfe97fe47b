/**
 * The keeper of the exact query log's companion on hosts without systemd: what
 * `Restart=on-failure` is for its unit (shared/capture-unit.ts). A small POSIX sh loop, the
 * process recorded in the companion's pidfile (host/capture-companion.ts), that runs the companion
 * (`node entry capture-watch --held`, capture/capture-main.ts) as its child, so it has the
 * privileges (root), environment and flags start gave it:
 *  1. its first run reads its go line (capture-args.ts heldGoLine) from the keeper's stdin — start's
 *     pipe (pidfile-process.ts prepare/startHeld), so the companion's Node start-up still runs
 *     while start checks the host; every restart reads the same line from CAPTURE_GO_FILE, which
 *     start wrote before it let the keeper go;
 *  2. restarts a companion that exits with a failure (killed: kill -9, the OOM killer; exit 1:
 *     tcpdump or the parser ended) with the proxy watchdog's policy (shared/watchdog-backoff.ts: 1, 2, 4
 *     … 30 s; gives up after MAX_RESTARTS quick failures in a row; a run of ≥ 60 s resets the
 *     count), each restart said on its stdout (the companion's log) and in CAPTURE_KEEPER_STATE;
 *     but not one that exited with a status of shared/capture-exit.ts (78, EX_CONFIG: its go line
 *     is bad, and every restart reads the same one), as the unit's RestartPreventExitStatus= does
 *     not: said, state `exited` with that `last-exit`, and the keeper ends;
 *  3. restarts only while the pidfile names it ($$): one prepared but never let go (its child
 *     exits at stdin's end) or one stop is ending does not start another companion;
 *  4. before every restart checks that the directories root writes are still root's alone
 *     (shared/root-dir-check.ts, as the proxy watchdog does), else stops (state `refused`);
 *  5. on SIGTERM/SIGINT stops the companion (SIGTERM: it drains its parser) and exits — also one
 *     that came while no companion ran (during the restart's backoff or checks) or as it was
 *     spawned: no companion is started after it, and one just spawned is sent SIGTERM (else the
 *     keeper waited on an unsignalled companion until stop's SIGKILL, which left that companion,
 *     its tcpdump and its parser running under PID 1, named by no file stop reads);
 *  6. writes the companion's failed file for a status it exits with before it runs, writing none
 *     itself (shared/capture-exit.ts CAPTURE_SILENT_STATUSES: its command line refused, not root):
 *     `exit=N` and its last words, so start's wait ends at it (capture-wait.ts) as at the companion's own;
 *  7. before every restart sets its session's autogroup back to nice 0 (proc(5) /proc/PID/autogroup),
 *     only when it leads that session (start runs it detached): a companion that ended without its
 *     stop (killed, or tcpdump ended) left it at capture/go-idle.ts's 19, and its successor's Node
 *     start-up would wait behind every other session on a busy host, missing queries meanwhile;
 *  8. after every end of the companion, before anything else, SIGKILLs the tcpdump and parser it
 *     recorded (capture/children-file.ts) that still run as those processes (same start time, and
 *     the same argv: `cksum` of /proc/PID/cmdline is the recorded one, so never another process;
 *     the record read only as a regular file, not through a link, its first 4 KiB):
 *     one killed (kill -9, the OOM killer) left them to PID 1, where they would capture on beside
 *     its restart's pair (tcpdump ends on SIGPIPE only at its next packet, the parser at its next
 *     row), and no stop finds them by their parent any more. Said in its log, one line each, naming the companion that recorded it.
 * Every argument is a positional parameter ("$@"), never spliced into the script.
 */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { DIRS_OK_SH } from '../../../shared/root-dir-check';
import { clockTime } from '../../../shared/clock';
import { WATCHDOG_BACKOFF_S } from '../../../shared/watchdog-backoff';
import { exitStatusWords } from '../../../shared/exit-status';
import { CAPTURE_NO_RESTART_STATUSES, CAPTURE_SILENT_STATUSES, isNoRestartStatus } from '../../../shared/capture-exit';
import { MAX_RESTARTS, parseWatchdogState, type WatchdogState } from './supervisor-script';
import { isKeeperArgv, KEEPER_NAME } from './keeper-name';
import { CHILDREN_FILE_MAX_BYTES } from '../capture/children-file';

export { isKeeperArgv, KEEPER_NAME };

/** Host path of the keeper's state file (key=value, as the proxy watchdog's, plus `pid=` of the companion it restarted). */
export const CAPTURE_KEEPER_STATE = `${K2S_PATHS.runDir}/capture-keeper.state`;

/** Host path of the companion's go line for the keeper's restarts (root's, 0600). */
export const CAPTURE_GO_FILE = `${K2S_PATHS.runDir}/capture.go`;

/** Host path of the companion's log, which the keeper writes to (capture-companion.ts CAPTURE_LOG). */
const CAPTURE_LOG_PATH = `${K2S_PATHS.runDir}/capture.log`;

/** What every line the keeper writes to the companion's log starts with, after its time. */
export const KEEPER_LOG_PREFIX = 'k2s-dns capture keeper:';

/**
 * POSIX sh; $1 the pidfile that must name this shell for a restart, $2 the state file, $3 the go
 * file, $4 the directories that must be root's alone before every restart (colon-separated real
 * paths, may be empty; the proxy watchdog's check, shared/root-dir-check.ts), $5 the companion's
 * failed file (capture/failed-file.ts; empty: none written), $6 the companion's record of its
 * children (capture/children-file.ts; empty: none read), $7… the companion's argv (held: it
 * waits for its go line on stdin).
 */
export const KEEPER_SCRIPT = `
${DIRS_OK_SH}
pidfile=$1; state=$2; gofile=$3; dirs=$4; failed=$5; children=$6; shift 6
dirs_guard() { ifs0=$IFS; IFS=:; set -f; k2s_dirs_ok $dirs; r0=$?; IFS=$ifs0; set +f; return $r0; }
# Field 6 of /proc/$$/stat is the session (proc(5); comm is sh's, without spaces): only its leader's group.
autogroup_normal() { set -- $(cat /proc/$$/stat 2>/dev/null); [ "$6" = "$$" ] || return 0; { echo 0 >/proc/$$/autogroup; } 2>/dev/null; return 0; }
# The first run's stdin is start's pipe (fd 3): sh gives a background job /dev/null otherwise.
exec 3<&0 </dev/null
say() { printf '%s ${KEEPER_LOG_PREFIX} %s\\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$1"; }
# For a status the companion writes no failed file for (shared/capture-exit.ts CAPTURE_SILENT_STATUSES):
# its time, why (its last line in its log, this shell's stdout, when that is a file) and exit=N,
# replaced whole. A capture that stopped after it opened (a first line alone) keeps its line, as the companion's own does.
failed_line() {
  [ -n "$failed" ] || return 0
  [ -s "$failed" ] && [ -z "$(sed -n 2p "$failed" 2>/dev/null)" ] && return 0
  words=; [ -f /proc/$$/fd/1 ] && words=$(tail -n 20 /proc/$$/fd/1 2>/dev/null | grep -v '${KEEPER_LOG_PREFIX}' | tail -n 1 | tr -s '\t\r' '  ' | cut -c1-300)
  printf '%s the companion (PID %s) exited with status %s before its capture opened; %s\nexit=%s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$dead" "$1" "\${words:+its last words: }\${words:-it said nothing}" "$1" >"$failed.keeper" && chmod 644 "$failed.keeper" && mv -f "$failed.keeper" "$failed"
}
# The companion's recorded children (capture/children-file.ts, \`PID STARTTIME ROLE COMPANION CRC LENGTH\`) still running as
# those processes: /proc/PID/stat's fields after the command name, field 3 (state; Z: ended) and field 22 (start time, proc(5)),
# and still with the argv the companion spawned (cksum of /proc/PID/cmdline, its record's CRC LENGTH): never another process.
# The record only when a regular file, not a link, and at most ${CHILDREN_FILE_MAX_BYTES} bytes of it (a cut last line is no line).
end_children() {
  [ -n "$children" ] && [ -f "$children" ] && [ ! -L "$children" ] || return 0
  head -c ${CHILDREN_FILE_MAX_BYTES} "$children" 2>/dev/null | while read -r cpid ctime crole cowner ccrc clen cmore; do
    for f in "$cpid" "$ctime" "$cowner" "$ccrc" "$clen"; do case "$f" in ''|*[!0-9]*) continue 2;; esac; done
    case "$crole:$cmore:$cpid:$clen" in tcpdump::[1-9]*:[1-9]*|parser::[1-9]*:[1-9]*) ;; *) continue;; esac
    cstat=$(cat "/proc/$cpid/stat" 2>/dev/null) || continue
    set -- \${cstat##*)}
    [ "$1" != Z ] && [ "\${20}" = "$ctime" ] || continue
    [ "$(cksum <"/proc/$cpid/cmdline" 2>/dev/null)" = "$ccrc $clen" ] || continue
    [ "$crole" = parser ] && crole='packet parser'
    kill -KILL "$cpid" 2>/dev/null && say "the companion (PID $cowner) left its $crole (PID $cpid) running; ended it (SIGKILL)."
  done
  rm -f "$children"
}
record() { printf 'restarts=%s\\nstate=%s\\nlast-exit=%s\\nlast-exit-at=%s\\nlast-pid=%s\\npid=%s\\n' "$total" "$1" "$rc" "$ended" "$dead" "$2" >"$state"; }
stop=; child=; nap=; restarts=0; delay=${WATCHDOG_BACKOFF_S.first}; total=0; first=1; rc=; ended=; dead=
trap 'stop=1; kill -TERM $child $nap 2>/dev/null' TERM INT
while :; do
  began=$(date +%s)
  # A stop whose trap ran while no companion ran (the backoff's checks, the date above) ends it here:
  # its trap had no child to signal, and a companion spawned now would outlive the keeper's SIGKILL.
  [ -n "$stop" ] && break
  if [ -n "$first" ]; then "$@" <&3 3<&- & child=$!; exec 3<&-; first=
  else "$@" <"$gofile" 3<&- & child=$!; record running "$child"; fi
  # Or one that ran between the spawn and \`child=$!\`: the companion was not signalled yet.
  [ -n "$stop" ] && kill -TERM "$child" 2>/dev/null
  # 2>/dev/null: sh reports a signalled job ("Killed") on stderr, which is the companion's log.
  rc=0; wait "$child" 2>/dev/null || rc=$?
  # wait returns early when a trapped signal arrives: wait again for the companion to exit.
  while kill -0 "$child" 2>/dev/null; do wait "$child" 2>/dev/null; rc=$?; done
  dead=$child; child=
  end_children
  # A stop ends here, before the clock is read: date is a process each stop would wait for.
  [ -n "$stop" ] && break
  ended=$(date +%s)
  # Only the keeper start let go (the pidfile names it) restarts.
  [ "$(cat "$pidfile" 2>/dev/null)" = "$$" ] || break
  [ "$rc" -eq 0 ] && { record exited ""; break; }
  case "$rc" in ${CAPTURE_SILENT_STATUSES.join('|')}) failed_line "$rc";; esac
  # What no restart mends (shared/capture-exit.ts; the unit's RestartPreventExitStatus=): it reads the same go line.
  case "$rc" in ${CAPTURE_NO_RESTART_STATUSES.join('|')}) say "the companion (PID $dead) ended with status $rc (its flags are bad, and a restart reads the same go line); not restarting it."; record exited ""; break;; esac
  if [ $(( ended - began )) -ge 60 ]; then restarts=0; delay=${WATCHDOG_BACKOFF_S.first}; fi
  restarts=$((restarts + 1)); total=$((total + 1))
  if [ "$restarts" -gt ${MAX_RESTARTS} ]; then
    say "the companion (PID $dead) failed $restarts times in a row, the last ${MAX_RESTARTS} each within 60 s of its restart (last exit status $rc); not restarting it."
    record gave-up ""
    break
  fi
  say "the companion (PID $dead) ended with status $rc; restart $restarts of ${MAX_RESTARTS} in \${delay}s."
  record restarting ""
  sleep "$delay" & nap=$!; wait "$nap" 2>/dev/null; nap=
  [ -n "$stop" ] && break
  delay=$((delay * 2)); [ "$delay" -gt ${WATCHDOG_BACKOFF_S.max} ] && delay=${WATCHDOG_BACKOFF_S.max}
  # Before every restart: a directory it writes that became another user's is not written from root.
  if [ -n "$dirs" ] && ! dirs_guard; then say "not restarting the companion: a directory it writes is not root's alone (the line above)."; record refused ""; break; fi
  autogroup_normal
done
`;

/**
 * argv of a keeper (real paths) over the held companion `companionArgv`; `guardDirs` checked before
 * every restart; `failedFile`: the companion's failed file, which the keeper writes for a status of
 * CAPTURE_SILENT_STATUSES ('' for none); `childrenFile`: the companion's record of its children,
 * whose survivors the keeper ends after every end of the companion ('' for none). Throws for a dir with a colon.
 */
export function keeperArgv(pidFile: string, stateFile: string, goFile: string, companionArgv: readonly string[], guardDirs: readonly string[] = [], failedFile = '', childrenFile = ''): string[] {
  const bad = guardDirs.find((d) => d.includes(':') || !d.startsWith('/'));
  if (bad !== undefined) throw new Error(`The directory ${JSON.stringify(bad)} cannot be checked by the capture keeper (not absolute, or has a colon); use a root without colons.`);
  return ['/bin/sh', '-c', KEEPER_SCRIPT, KEEPER_NAME, pidFile, stateFile, goFile, guardDirs.join(':'), failedFile, childrenFile, ...companionArgv];
}

/** The keeper's state file: the watchdog's fields plus the PID of the companion it last started. */
export interface KeeperState extends WatchdogState {
  pid: number | null;
}

/** Parses CAPTURE_KEEPER_STATE's text (state unknown for empty or foreign text). */
export function parseKeeperState(text: string): KeeperState {
  const m = /^pid=(\d+)$/m.exec(text);
  return { ...parseWatchdogState(text), pid: m ? Number(m[1]) : null };
}

/**
 * The keeper's restart in words for status, or null when it restarted nothing (`sinceMs`: the
 * state is this start's, so older ones are not said). `alive` says whether its new companion runs.
 * "At 18:50:12 the exact query log's companion (PID 1234) was found dead (killed by signal KILL
 * (exit status 137)); its keeper restarted it as PID 1240." Gave up: null (the stop message says it, with keeperGaveUpWords).
 */
export function keeperRestartSentence(k: KeeperState | null, alive: boolean, clock: (ms: number) => string = clockTime): string | null {
  if (!k || k.restarts === 0 || k.lastExit === null || k.lastExitAt === null || k.lastPid === null) return null;
  if (k.state !== 'running' && k.state !== 'restarting') return null;
  const how = k.lastExit > 128 ? `was found dead (${exitStatusWords(k.lastExit)})` : exitStatusWords(k.lastExit);
  const now = k.state === 'running' && k.pid !== null && alive ? `its keeper restarted it as PID ${k.pid}` : k.state === 'restarting' ? `its keeper restarts it (restart ${k.restarts} of ${MAX_RESTARTS} in a row)` : 'its keeper restarted it, and that run ended too';
  return `At ${clock(k.lastExitAt)} the exact query log's companion (PID ${k.lastPid}) ${how}; ${now}.`;
}

/**
 * Why a stopped exact log stays stopped once the keeper gave up or ended without a restart (a
 * status of shared/capture-exit.ts) — appended to the stop's words — else ''.
 */
export function keeperGaveUpWords(k: KeeperState | null): string {
  if (k?.state === 'refused') return `; its keeper did not restart it: a directory it writes is not root's alone (${CAPTURE_LOG_PATH} says which)`;
  if (k?.state === 'exited' && isNoRestartStatus(k.lastExit)) return `; its keeper did not restart it: its last run ${exitStatusWords(k.lastExit!)}, its flags being bad (a restart reads the same; the next start of K2s DNS writes them)`;
  if (!k || k.state !== 'gave-up') return '';
  return `; its keeper restarted it ${MAX_RESTARTS} times in a row, each run ending within 60 s, and gave up (the last ${k.lastExit === null ? 'ended' : exitStatusWords(k.lastExit)})`;
}
