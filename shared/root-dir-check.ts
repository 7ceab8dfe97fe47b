/**
 * The directories K2s DNS writes as root, and the POSIX sh check the service manager runs
 * before it (re)starts the proxy (the watchdog before every restart, the systemd units in their
 * ExecStart= before the proxy's exec, guardedArgv, which systemd repeats on every Restart=).
 * Pure: strings only.
 * Rule (same as electron/host/root-dirs.ts): absent, or a real directory (not a symlink), owned by
 * root (or by the uid the check runs as, for a test root), not writable by group or others. Absent
 * must pass: /run is a tmpfs, so after a reboot /run/k2s does not exist when systemd starts the unit.
 */

/** Host paths of every directory written as root, with the mode k2s-dns creates it with. */
export const ROOT_WRITTEN_DIRS = [
  { path: '/etc/k2s', mode: 0o755 },
  { path: '/run/k2s', mode: 0o755 },
  { path: '/var/log/dnsproxy', mode: 0o755 },
  { path: '/var/lib/k2s', mode: 0o700 },
] as const;

/**
 * sh function `k2s_dirs_ok DIR...` (one line: a systemd unit word holds no newline): returns 1
 * after one line on stderr naming the first bad directory, why, and its `ls -ld` line
 * (NOT_ROOT_OWNED); 0 when all are safe. One stat(1) for all of them (`-c` is in GNU coreutils
 * and BusyBox; it prints one line per path in argument order, `%n` the path as given, which must
 * match, so a line is never taken for another directory's): the watchdog runs the check before
 * it starts the proxy, so each process it forked (two per directory before) was start's time;
 * for the same reason `id -u` runs only for a directory root does not own (a test root's).
 * `0$m & 022` is octal arithmetic (POSIX sh, "Arithmetic Expansion"). The kept directories are
 * rotated through "$@" (POSIX sh has no arrays); IFS is set in the reading subshell, as the
 * watchdog calls this with IFS=: (dirs_guard).
 */
export const DIRS_OK_SH = [
  'k2s_dir_refused() { echo "k2s-dns: NOT_ROOT_OWNED: $1 $2 ($(ls -ld -- "$1" 2>&1)); not starting the proxy from it. Make it owned by root and not writable by group or others (chown root, chmod go-w), then start K2s DNS again." >&2; }',
  'k2s_dirs_ok() { n=$#',
  // Absent is safe (nothing there to redirect; /run/k2s is gone after every reboot): dropped.
  'while [ "$n" -gt 0 ]; do n=$((n - 1)); d=$1; shift; if [ -e "$d" ] || [ -L "$d" ]; then set -- "$@" "$d"; fi; done',
  '[ $# -eq 0 ] && return 0',
  `stat -c '%u %a %n' -- "$@" 2>/dev/null | { IFS=' '; for d in "$@"; do o=; m=; f=; read -r o m f; why=`,
  `if [ -L "$d" ] || [ ! -d "$d" ]; then why='is not a real directory'; elif [ "$f" != "$d" ]; then why='changed while it was checked'`,
  `elif [ "$o" != 0 ] && [ "$o" != "$(id -u)" ]; then why="is owned by uid $o, not root"; elif [ $(( 0$m & 022 )) -ne 0 ]; then why='is writable by group or others'; fi`,
  'if [ -n "$why" ]; then k2s_dir_refused "$d" "$why"; exit 1; fi; done; exit 0; }; }',
].join('; ');

/**
 * sh text that takes "N DIR1…DIRN ARGV…" as its "$@": checks the N directories with k2s_dirs_ok
 * (in a subshell: the directories rotated to the end, then everything before them shifted off;
 * POSIX sh `shift n`, "Special Built-In Utilities") and exits 1 when one is unsafe, else drops
 * them and execs ARGV in this same process.
 */
const GUARDED_EXEC_SH = 'n=$1; shift; (i=0; while [ "$i" -lt "$n" ]; do set -- "$@" "$1"; shift; i=$((i + 1)); done; shift $(($# - n)); k2s_dirs_ok "$@") || exit 1; shift "$n"; exec "$@"';

/**
 * argv that checks `dirs` (real paths) with k2s_dirs_ok (DIRS_OK_SH), then execs `argv` in the same
 * process: exit 1 with the NOT_ROOT_OWNED line on stderr when one is unsafe, and `argv` never
 * runs. The systemd units' ExecStart= (shared/systemd-unit.ts): as a separate ExecStartPre= the
 * check cost each unit's start job one more process set up by systemd (credentials, namespaces
 * of DynamicUser=), ~15–18 ms per unit measured on the booted Debian 13 host (systemd 257), and
 * the KubeSwitch unit's job waited for the main unit's (After=). In ExecStart= the job of a
 * Type=simple unit ends once the process is forked (systemd.service(5)); the check then runs
 * while start waits for the listeners to answer, which a proxy refused by it never does.
 */
export function guardedArgv(dirs: readonly string[], argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', `${DIRS_OK_SH}; ${GUARDED_EXEC_SH}`, 'k2s-dns-dircheck', String(dirs.length), ...dirs, ...argv];
}
