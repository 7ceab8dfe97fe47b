import { DRIFT_CHOICE } from '../../shared/fix';
import { KUBECONFIG_ORDER_TEXT } from '../../shared/kubeconfig-order';
import { ENGINE_NAMES } from '../../shared/engines/table';
import { EXIT } from '../../shared/lifecycle-events';
import { internalHelp, internalVerbHelp } from '../core/internal-help';

/** `text` wrapped at `width` columns on spaces (terminal help). */
function wrap(text: string, width = 88): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The commands `k2s-dns --help` lists, in its order (the internal companions are not among them). */
export const HELP_VERBS = ['start', 'stop', 'uninstall', 'status', 'recover', 'zones', 'query', 'diff', 'queries', 'doctor', 'ui', 'app'] as const;
export type HelpVerb = (typeof HELP_VERBS)[number];

/** Each command's synopsis lines, as the Usage block of `k2s-dns --help` shows them. */
const SYNOPSIS: Record<HelpVerb, string> = {
  start: `  k2s-dns start [--kubeconfig PATH] [--engine ${ENGINE_NAMES.join('|')}] [--dnsproxy PATH]
                [--kubeswitch ADDR|none] [--upstream IP[:PORT]]... [--verify-name NAME]
                [--no-log-queries] [--allow-zone ZONE]... [--on-network-change follow|keep] [--json]`,
  stop: '  k2s-dns stop [--on-drift keep|restore] [--restore newest|start] [--json]',
  uninstall: '  k2s-dns uninstall [--on-drift keep|restore] [--restore newest|start] [--json]',
  status: '  k2s-dns status [--json]',
  recover: `  k2s-dns recover [--force] [--json]  finish or roll back an operation that was killed;
                                 --force: also tear down what is left without a journal`,
  zones: '  k2s-dns zones [--kubeconfig PATH] [--allow-zone ZONE]... [--json]',
  query: `  k2s-dns query NAME [--type A|AAAA|PTR|SRV|TXT|CNAME|MX|NS|SOA]
                [--server system|proxy|coredns|IP[:PORT]] [--tcp] [--json]`,
  diff: '  k2s-dns diff [--json]',
  queries: `  k2s-dns queries [--lines N] [--probes] [--no-wait] [--json]
                the newest rows of the exact query log (packets; root or group adm); k2s-dns's
                own health checks hidden and counted unless --probes (--json: all, with "probe")`,
  doctor: '  k2s-dns doctor [--kubeconfig PATH] [--dnsproxy PATH] [--json]   read-only checks; exit 1 when any finding is an error',
  ui: '  k2s-dns ui [--port N] [--kubeconfig PATH]   the app in a browser (web mode, 127.0.0.1 only)',
  app: '  k2s-dns app [--port N] [--kubeconfig PATH]  the desktop window where Electron runs, else web mode',
};

/** The paragraphs under the synopsis of `k2s-dns --help`, each a command's or a flag's. */
const PARAGRAPH = {
  start: `start    saves /etc/resolv.conf, runs k2s-dnsproxy on 127.0.0.1:53 (and the KubeSwitch
         address), points the host at it and verifies; any failure rolls everything back.`,
  stop: 'stop     restores the saved resolver first, then stops the proxy.',
  uninstall: 'uninstall  stop, then remove only K2s-owned DNS files.',
  zones: `zones    discovery only: the zones CoreDNS serves, their upstream and why, and the zones the
         zone policy keeps on the host's upstreams (public suffixes/TLDs, Internet names,
         reverse zones outside the cluster CIDRs, cluster CIDRs outside private space, the
         host's search domains) with why (no root needed).`,
  allowZone: `--allow-zone ZONE  forward a refused zone marked allowable anyway; start remembers it in the
         state file while K2s DNS runs; stop forgets it on purpose (an allow is about the
         cluster data you saw), so give it again on the next start.`,
  kubeswitch: `--kubeswitch ADDR  a private IPv4 address of this host (10/8, 172.16/12, 192.168/16,
         100.64/10; K2s uses 172.19.1.1) or none.`,
  engine: `--engine  adguard (AdGuard dnsproxy: /opt/k2s/bin/dnsproxy or --dnsproxy) or dnsmasq
         (Debian's dnsmasq-base); without it adguard where its binary exists, else dnsmasq.`,
  dnsproxy: '--dnsproxy PATH  the AdGuard dnsproxy binary to use instead of /opt/k2s/bin/dnsproxy.',
  upstream: `--upstream IP[:PORT]  a nameserver to forward to instead of the saved resolver's (repeat for
         more, up to 32; PORT 1–65535, default 53; IPv6 with a port as [ADDR]:PORT); one that
         does not answer rolls start back (VERIFY_UPSTREAM).`,
  verifyName: `--verify-name NAME  the external name start checks through the proxy and an upstream
         (default kubernetes.io); a DNS name, not an address.`,
  noLogQueries: '--no-log-queries  log no queries (the query log in /var/log/dnsproxy is on by default).',
  json: `--json   start, stop, uninstall: a JSON progress event per line, then the "result" event
         (every command takes --json: the others print one JSON value). A check verify still
         asks again ~2 s in is said once: without --json on stderr ("verify: …"), with it a
         second "running" event of the step with "detail":{"waiting":true}.`,
  networkChange: `--on-network-change  when NetworkManager, resolvconf, a VPN client or systemd-resolved writes
         a new resolver file while K2s DNS runs: follow (the default) = its nameservers become
         the upstreams and it becomes the saved original that stop restores; keep = leave it
         as drift (as --on-drift decides at stop). Not followed either way: a file that is not
         a resolver's, lists no nameserver, or loops back to the proxy.`,
  onDrift: `--on-drift  when another program rewrote /etc/resolv.conf while K2s DNS ran:
         keep = "${DRIFT_CHOICE.keep.label}" (the default), restore = "${DRIFT_CHOICE.restore.label}".
         Not given and their file names no nameserver but the proxy's (so keeping it would
         leave no DNS): stop restores the original and says so.`,
  restore: `--restore  which saved copy stop puts back: newest (the default) = the saved original, after
         a followed network change the file the network wrote last; start = the file that
         was in place when K2s DNS started (kept once a follow replaced the saved original;
         also put back over a file another program wrote, unless --on-drift keep).`,
};

const KUBECONFIG_ORDER = wrap(`Kubeconfig order: ${KUBECONFIG_ORDER_TEXT}.`);

const EXIT_COMMON = `Exit status: 0 done; 1 failed and rolled back (host as before); 2 usage;
3 refused by a precondition, nothing changed.`;
const EXIT_STATUS = `  status: 0 running or stopped; 1 degraded (an operation interrupted, k2s-dnsproxy not
  running, resolver changed by someone else, corrupt state, CoreDNS not answering even while
  the proxy's cache still does, no upstream answering, or cluster names do not resolve: the
  output says where and the fix); 4 starting or stopping (another operation runs; ask again);
  5 stopped, but no name resolves with this host's own /etc/resolv.conf (its nameservers do
  not answer). An upstream that answers, NXDOMAIN included, changes no exit status.`;
// zones: main.ts's `case 'zones'`; a cluster error thrown there is exit 1 ("k2s-dns zones failed: …").
const EXIT_ZONES = `  zones: 0 the zones printed; 1 the cluster could not be read (API server unreachable,
  credentials rejected, or an answer that is not the expected object); 2 usage; 3 no kubeconfig
  that can be used (none found, missing, not readable by this user, not a file, not valid YAML…).`;
const EXIT_QUERY = `  query: 0 a server answered (NXDOMAIN and SERVFAIL are answers); 1 nothing answered; 2 usage
  (also a --type the system resolver cannot ask: it answers A, AAAA and PTR for an IP).`;
const EXIT_QUERIES = `  queries: 0 rows printed, or none logged yet (stderr says so), also after a stop (the earlier
  runs' rows; stderr's last line says K2s DNS is stopped: no new row comes until a start); 1 the
  exact query log is unavailable (the reason is printed: none yet before K2s DNS ran with tcpdump
  installed, tcpdump missing, not readable, or its capture stopped while K2s DNS runs); 2 usage.`;
const EXIT_DOCTOR = '  doctor: 0 no finding is an error; 1 a finding is an error; 2 usage.';
// diff, ui and app: main.ts's `case` of each; a thrown error is exit 1 there ("k2s-dns VERB failed: …"),
// diff's root-only copy (savedRootOnly) exit 1 with its sentence alone.
const EXIT_DIFF = `  diff: 0 the diff printed (the same, changed, or nothing saved: unlike diff(1), a change is
  not exit 1); 1 no diff could be shown: as a user while K2s DNS runs the saved copy is root's
  (STATE_UNREADABLE; the message names the sudo and su -c lines; --json prints the diff with
  savedRootOnly), or another error (printed); 2 usage.`;
const EXIT_UI = `  ui: 0 stopped by Ctrl-C (SIGINT or SIGTERM); 1 the web server could not listen (a --port in
  use) or the UI could not be built; 2 usage.`;
const EXIT_APP = `  app: in web mode as ui; with the Electron window the window's own: 0 closed, 1 it could not
  start (a dialog said why); 127 the Electron binary could not be run.`;
/** A command's own line of the whole help's exit statuses (`  status: 0 …`) as its own help's `Exit status: 0 …`. */
const ownExit = (line: string): string => line.replace(/^ {2}/gm, '').replace(/^[a-z]+:/, 'Exit status:');
/**
 * stop's exit 5 as electron/core/lifecycle/stop.ts gives it: teardown's noDns (a kept file, or the
 * saved copy put back, that restoredLeavesNone / keepLeavesNone finds resolving nothing) or, for a
 * file start did not check, resolver-down-check.ts's probe right after (README "exit status").
 */
const EXIT_STOP = `  stop, uninstall: 5 stopped as asked, but the file left at /etc/resolv.conf leaves no name
  resolving (a warning RESOLVER_DOWN; status right after exits 5 too): the file --on-drift keep
  kept, or the saved copy put back, is no file, a link to nothing, has no nameserver line or
  names only addresses the stopped proxy listened on (127.0.0.1); or a kept file or a followed
  network's copy put back has nameservers that do not answer (stop asks them, as status does).
  The original start checked is put back unasked: 0 even if its nameservers went away since.`;

/** `k2s-dns --help` text. Exit codes follow shared/lifecycle-events.ts EXIT; the kubeconfig order is shared/kubeconfig-order.ts. */
export const USAGE = `k2s-dns — Kubernetes DNS for a native Linux K2s host

Usage:
${HELP_VERBS.map((v) => SYNOPSIS[v]).join('\n')}
  k2s-dns --version [--json]                  the version (k2s-dns 0.1.0)

${[PARAGRAPH.start, PARAGRAPH.stop, PARAGRAPH.uninstall, PARAGRAPH.zones, PARAGRAPH.allowZone, PARAGRAPH.kubeswitch].join('\n')}
${[PARAGRAPH.engine, PARAGRAPH.dnsproxy, PARAGRAPH.upstream, PARAGRAPH.verifyName, PARAGRAPH.noLogQueries, PARAGRAPH.json].join('\n')}

${[PARAGRAPH.networkChange, PARAGRAPH.onDrift, PARAGRAPH.restore].join('\n')}

${KUBECONFIG_ORDER}

${EXIT_COMMON}
${EXIT_STATUS}
${EXIT_STOP}
${EXIT_ZONES}
${EXIT_QUERY}
${EXIT_QUERIES}
${EXIT_DOCTOR}
${EXIT_DIFF}
${EXIT_UI}
${EXIT_APP}
`;

/**
 * What each command changes on this machine, for `k2s-dns VERB --help` (the full help says it
 * in the paragraphs above for start, stop and uninstall; the sources are the commands in main.ts).
 */
const CHANGES: Record<HelpVerb, string> = {
  start: 'Changes (root): /etc/resolv.conf (the original saved in /var/lib/k2s first), the engine config in /etc/k2s, the k2s-dnsproxy service (a systemd unit, else a watchdog) on 127.0.0.1:53 and the KubeSwitch address, its log in /var/log/dnsproxy. Every path: "What start writes, and what stop restores" in docs/host-integration.md (installed: /usr/share/doc/k2s-dns/docs/host-integration.md.gz).',
  stop: 'Changes (root): puts the saved /etc/resolv.conf back first, then stops k2s-dnsproxy and its companions and removes the saved state; the config and logs stay (uninstall removes them).',
  uninstall: 'Changes (root): as stop, then removes the K2s-owned DNS files (the engine config in /etc/k2s, the k2s-dnsproxy units, the logs in /var/log/dnsproxy); nothing else.',
  status: "Changes nothing, except as root: then it first finishes or rolls back an operation that was killed (as recover does). As a user, who cannot read root's saved state, it shows the listeners and upstreams the running proxy's config (0644) names, marked as read from it.",
  recover: 'Changes (root): finishes an interrupted stop, or rolls back an interrupted start (/etc/resolv.conf and the proxy as before it).',
  zones: 'Changes nothing (no root needed): it reads the cluster through the kubeconfig.',
  query: 'Changes nothing: one DNS query to the server named (system: getaddrinfo, as host apps ask).',
  diff: 'Changes nothing: the saved original /etc/resolv.conf against the current one.',
  queries: 'Changes nothing: reads /var/log/dnsproxy/queries.jsonl. --lines N (default 50): the newest N query rows that are not health checks of k2s-dns (looked for among the newest 5000; fewer when the log holds fewer); with --probes or --json the newest N rows of all. It counts query rows only: the header line and the run lines below come on top of them. A row reaches the file up to 1 s after its answer (later while the host is busy): while the capture runs, with none to print yet or a newest row older than 1 s, it waits up to 1.5 s for the file to change; --no-wait reads it once. The log keeps earlier runs\' rows: a line `— K2s DNS started 2026-12-07 12:03:04 +01:00 —` (local time and its UTC offset) heads the rows and each run\'s first row shown (`— K2s DNS start … failed and was rolled back —` for a failed start\'s rows; --json: each row\'s runStartedMs and runRolledBack). The rows come under a header line (TIME CLIENT PROTO TYPE NAME RCODE ROUTE LATENCY ANSWERS); TIME is local with its UTC offset (2026-12-07T12:03:04.123456+01:00, the offset at the packet\'s instant; --json\'s time is without it, its utcOffset is that offset). How many health checks it hid is said on stderr before the rows.',
  doctor: 'Changes nothing: read-only checks of this host, the cluster and the proxy, each with what it means and the fix.',
  ui: 'Changes nothing by itself: a web server on 127.0.0.1; its Start and Stop buttons change the machine as the start and stop commands do.',
  app: 'Changes nothing by itself: the desktop window; its Start and Stop buttons change the machine as the start and stop commands do.',
};

/** Which paragraphs and exit lines of the full help belong to each command's own help. */
const OWN: Record<HelpVerb, { paragraphs: (keyof typeof PARAGRAPH)[]; kubeconfig?: true; exit: [string, ...string[]] }> = {
  start: { paragraphs: ['start', 'engine', 'dnsproxy', 'kubeswitch', 'upstream', 'verifyName', 'noLogQueries', 'allowZone', 'networkChange', 'json'], kubeconfig: true, exit: [EXIT_COMMON] },
  stop: { paragraphs: ['stop', 'onDrift', 'restore', 'json'], exit: [EXIT_COMMON, EXIT_STOP] },
  uninstall: { paragraphs: ['uninstall', 'onDrift', 'restore', 'json'], exit: [EXIT_COMMON, EXIT_STOP] },
  status: { paragraphs: [], exit: [ownExit(EXIT_STATUS)] },
  recover: { paragraphs: [], exit: [EXIT_COMMON] },
  zones: { paragraphs: ['zones', 'allowZone'], kubeconfig: true, exit: [ownExit(EXIT_ZONES)] },
  query: { paragraphs: [], exit: [ownExit(EXIT_QUERY)] },
  diff: { paragraphs: [], exit: [ownExit(EXIT_DIFF)] },
  queries: { paragraphs: [], exit: [ownExit(EXIT_QUERIES)] },
  doctor: { paragraphs: [], kubeconfig: true, exit: [ownExit(EXIT_DOCTOR)] },
  ui: { paragraphs: [], kubeconfig: true, exit: [ownExit(EXIT_UI)] },
  app: { paragraphs: [], kubeconfig: true, exit: [ownExit(EXIT_APP)] },
};

/** Whether `verb` has its own help (`k2s-dns VERB --help`). */
export function isHelpVerb(verb: string): verb is HelpVerb {
  return (HELP_VERBS as readonly string[]).includes(verb);
}

/**
 * `k2s-dns VERB --help`: that command's synopsis, what it changes on this machine, the help
 * paragraphs of its flags, its exit statuses, and where the whole help is.
 */
export function commandUsage(verb: HelpVerb): string {
  const own = OWN[verb];
  return [
    `Usage:\n${SYNOPSIS[verb]}`,
    wrap(CHANGES[verb]),
    ...(own.paragraphs.length ? [own.paragraphs.map((p) => PARAGRAPH[p]).join('\n')] : []),
    ...(own.kubeconfig ? [KUBECONFIG_ORDER] : []),
    ...(own.exit.length ? [own.exit.join('\n')] : []),
    'Every command, and the exit statuses of all: k2s-dns --help',
  ].join('\n\n') + '\n';
}

/**
 * A help text as printed: ending with exactly one newline. USAGE and commandUsage end with one
 * already; a second made every help end with an empty line (new-user walk: it read as the next
 * command's output beginning with one).
 */
export function helpOutput(text: string): string {
  return `${text.replace(/\n+$/, '')}\n`;
}

/** What a help request prints (each text ends with a newline) and the exit status it sets. */
export interface HelpAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The answer to `k2s-dns` alone (the whole help, exit 2), `--help`, `-h` or `help` (the whole
 * help), and those followed by a VERB: that command's help (commandUsage); the whole help for
 * `version`, which has none of its own, and for a flag (`--help --help`); an internal verb's
 * own text (core/internal-help.ts) for it, and for `capture-watch`/`follow-watch` with `--help`
 * or `-h` among their arguments; "Unknown command" (exit 2) for anything else, as
 * `k2s-dns VERB --help` says for it. Null for every other command line (main.ts runs it). One rule for entry.ts, which answers before anything else loads, and main.ts.
 */
export function helpAnswer(argv: readonly string[], cli = 'k2s-dns'): HelpAnswer | null {
  const [command, verb] = argv;
  if (command !== undefined && command !== '--help' && command !== '-h' && command !== 'help') {
    const internal = internalHelp(command, argv.slice(1));
    return internal === null ? null : { code: EXIT.ok, stdout: internal, stderr: '' };
  }
  if (command === undefined) return { code: EXIT.usage, stdout: helpOutput(USAGE), stderr: '' };
  if (verb === undefined || verb === 'version' || verb.startsWith('-')) return { code: EXIT.ok, stdout: helpOutput(USAGE), stderr: '' };
  if (isHelpVerb(verb)) return { code: EXIT.ok, stdout: helpOutput(commandUsage(verb)), stderr: '' };
  const internal = internalVerbHelp(verb);
  if (internal !== null) return { code: EXIT.ok, stdout: internal, stderr: '' };
  return { code: EXIT.usage, stdout: '', stderr: `${unknownCommandText(verb, cli)}\n` };
}

/**
 * The refusal of an unknown command, naming the help as a line to paste: `cli` is how this install
 * runs the CLI (electron/core/cli-invocation.ts: `k2s-dns` installed, `npx k2s-dns` in a checkout,
 * the sandbox's wrapper), the name every usage error's "Run … --help" and every fix (shared/fix.ts
 * cliCommand) use, not a bare `k2s-dns` a checkout has not on PATH. Passed in by the entry
 * (entry.ts answers `help VERB` before the runtime has set its name); not imported here: this
 * module is in the startup snapshot's CommonJS bundle, where cli-invocation's import.meta is empty.
 */
export function unknownCommandText(verb: string, cli = 'k2s-dns'): string {
  return `Unknown command "${verb}"; run ${cli} --help for the list.`;
}
