/**
 * The directories K2s DNS writes as root, and the POSIX sh check the service manager runs
 * before it (re)starts the proxy (the watchdog before every restart, the systemd unit as
 * ExecStartPre=, which systemd repeats on every Restart=). Pure: strings only.
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
 * (NOT_ROOT_OWNED); 0 when all are safe. stat(1) -c is in GNU coreutils and BusyBox;
 * `0$m & 022` is octal arithmetic (POSIX sh, "Arithmetic Expansion").
 */
export const DIRS_OK_SH = [
  'k2s_dirs_ok() { me=$(id -u); for d in "$@"; do why=',
  // Absent is safe (nothing there to redirect; /run/k2s is gone after every reboot): skip it.
  `if [ ! -e "$d" ] && [ ! -L "$d" ]; then continue; fi`,
  `if [ -L "$d" ] || [ ! -d "$d" ]; then why='is not a real directory'`,
  'else o=$(stat -c %u -- "$d"); m=$(stat -c %a -- "$d")',
  `if [ "$o" != 0 ] && [ "$o" != "$me" ]; then why="is owned by uid $o, not root"; elif [ $(( 0$m & 022 )) -ne 0 ]; then why='is writable by group or others'; fi; fi`,
  'if [ -n "$why" ]; then echo "k2s-dns: NOT_ROOT_OWNED: $d $why ($(ls -ld -- "$d" 2>&1)); not starting the proxy from it. Make it owned by root and not writable by group or others (chown root, chmod go-w), then start K2s DNS again." >&2; return 1; fi',
  'done; return 0; }',
].join('; ');

/** argv of a one-shot check of `dirs` (real paths): exit 0 when safe, 1 with the message. */
export function dirsCheckArgv(dirs: readonly string[]): string[] {
  return ['/bin/sh', '-c', `${DIRS_OK_SH}; k2s_dirs_ok "$@"`, 'k2s-dns-dircheck', ...dirs];
}
