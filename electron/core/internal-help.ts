/**
 * `k2s-dns capture-watch --help` and `k2s-dns follow-watch --help`: the internal verbs, which
 * `k2s-dns start` runs as root next to the proxy, say that they are internal, what runs them and
 * what they do, instead of parsing `--help` as one of their flags (capture-watch said "--help
 * needs a value"; follow-watch printed the whole help, which does not list it). One text for the
 * CLI (cli/usage.ts helpAnswer) and the companion's own bundle (capture/capture-watch-entry.ts).
 * Pure text, no imports: the companion's bundle stays small (its start-up is on start's path).
 * The verbs and unit names are spelled here; internal-help.test.ts holds them equal to
 * capture/capture-args.ts CAPTURE_VERB, host/follower.ts FOLLOW_VERB and the units' names.
 */

/** The internal verbs, each with its help (every line ends with a newline). */
const HELP: Record<string, string> = {
  'capture-watch': `k2s-dns capture-watch is internal: the exact query log's packet capture, which k2s-dns start
runs as root next to the proxy (unless --no-log-queries; the systemd unit k2s-dnsproxy-capture,
else a keeper process with a pidfile in /run/k2s) and stop ends. It is not for running by hand:
k2s-dns queries prints the rows it writes.
Flags (start passes them): --held (then they come on stdin) | --listen ADDRESS:PORT... --port PORT...
Exit status: 0 stopped (SIGTERM, SIGINT, or --held and stdin ended); 1 tcpdump is missing, the
capture did not open, or tcpdump or the parser ended (the reason is logged); 2 bad flags;
3 not root.
Every command: k2s-dns --help
`,
  'follow-watch': `k2s-dns follow-watch is internal: the network follower, which k2s-dns start runs as root next
to the proxy under --on-network-change follow (the default; the systemd unit k2s-dnsproxy-follow,
else a process with a pidfile in /run/k2s) and stop ends. When NetworkManager, resolvconf, a VPN
client or systemd-resolved writes a new resolver file, it makes that file's nameservers the
proxy's upstreams. It is not for running by hand; it takes no flags.
Exit status: 0 stopped (SIGTERM or SIGINT); 2 any argument; 3 not root.
Every command: k2s-dns --help
`,
};

/** The internal verbs' names (the CLI's usage lists none of them). */
export const INTERNAL_VERBS: readonly string[] = Object.keys(HELP);

/**
 * The help of internal verb `verb` when `args` (what follows it) hold `--help` or `-h` (no
 * value of either verb's flags is spelled so), else null.
 */
export function internalHelp(verb: string, args: readonly string[]): string | null {
  const text = Object.hasOwn(HELP, verb) ? HELP[verb]! : null;
  return text !== null && args.some((a) => a === '--help' || a === '-h') ? text : null;
}

/** The help of internal verb `verb` (for `k2s-dns help VERB`), or null when it is not one. */
export function internalVerbHelp(verb: string): string | null {
  return Object.hasOwn(HELP, verb) ? HELP[verb]! : null;
}
