/**
 * dnsmasq.conf and argv for Debian's dnsmasq as the alternative proxy engine (dnsmasq(8),
 * version 2.90). Same plan, same strict validation as the dnsproxy renderer.
 */
import { checkListeners, checkPlan, commentSafe, type UpstreamAddress } from './proxy-upstream';
import type { ProxyPlan } from './types';

/** dnsmasq server address: `IP` or `IP#port` (dnsmasq(8) --server), IPv6 unbracketed. */
function serverText(u: UpstreamAddress): string {
  return u.port === 53 ? u.ip : `${u.ip}#${u.port}`;
}

/**
 * Longest line written, in UTF-8 bytes. dnsmasq reads its config with fgets(buf, MAXDNAME=1025):
 * a longer line is cut after 1024 bytes and the rest is read as a line of its own, so the tail
 * of a long comment or value became an option (`dnsmasq --test` on 2.90 accepts
 * `# xxx…xxxlog-queries` with `log-queries` past byte 1024; found by a property test).
 */
export const DNSMASQ_MAX_LINE_BYTES = 1000;
/** Longest accepted path: keeps `log-facility=<path>` far below the line limit. */
const MAX_PATH_LENGTH = 512;

/** Absolute plain path (no spaces, quotes, newlines) of at most MAX_PATH_LENGTH characters; throws otherwise. */
function checkPath(path: string, what: string, example: string): string {
  if (!/^\/[A-Za-z0-9._/-]+$/.test(path) || path.length > MAX_PATH_LENGTH) {
    throw new Error(`${what} "${path.slice(0, 80)}" must be an absolute plain path (letters, digits, . _ - /) of at most ${MAX_PATH_LENGTH} characters; use ${example}.`);
  }
  return path;
}

/** UTF-8 length of one code point, bytes (RFC 3629 §3). */
function utf8Bytes(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/**
 * Cuts `line` to at most `max` UTF-8 bytes on a code point boundary, marking the cut with `…`.
 * Counted by hand, not with a TextEncoder: its first use in a process cost ~5 ms of start's
 * config step (measured with --cpu-prof), for a handful of comment lines.
 */
function fitLine(line: string, max: number): string {
  let total = 0;
  for (const ch of line) total += utf8Bytes(ch.codePointAt(0)!);
  if (total <= max) return line;
  let out = '';
  let bytes = 3; // room for the `…` marker (3 bytes in UTF-8)
  for (const ch of line) {
    const n = utf8Bytes(ch.codePointAt(0)!);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return `${out}…`;
}

/**
 * The account dnsmasq drops to after binding: Debian's dnsmasq-base creates this system user
 * (its postinst: `useradd --system --gid nogroup … dnsmasq`), used by no other daemon (other
 * dnsmasq instances may run as it, e.g. the `dnsmasq` package's own service). systemd's
 * DynamicUser= (the AdGuard unit's) is not used for dnsmasq: started as a transient uid it cannot
 * open its root:adm 0640 log-facility file and exits ("cannot open log …: Permission denied",
 * e2e/debian-host-dnsmasq-user.e2e.test.ts), and hosts without systemd need `--user` anyway.
 */
export const DNSMASQ_OWN_USER = 'dnsmasq';
/**
 * The account used when the host has no DNSMASQ_OWN_USER (a dnsmasq not from dnsmasq-base):
 * Debian's `nobody`, which every Debian/Ubuntu host has and dnsmasq's own compiled-in default
 * (config.h CHUSER). It is shared with other daemons, so start says so (dnsmasqDropFrom).
 */
export const DNSMASQ_FALLBACK_USER = 'nobody';
/** Group dnsmasq drops to: Debian's `nogroup`, the primary group dnsmasq-base gives its user. */
export const DNSMASQ_GROUP = 'nogroup';

/** The account dnsmasq drops to, and the warning start gives when it is the shared fallback. */
export interface DnsmasqDrop {
  user: string;
  group: string;
  /** null for the own account; else one sentence: why the shared account, and the fix. */
  warning: string | null;
}

/**
 * The account dnsmasq should drop to on a host whose /etc/passwd reads `passwdText`
 * (passwd(5): name:password:uid:gid:…): DNSMASQ_OWN_USER when it is there with a uid other than
 * 0 (a uid-0 account would leave dnsmasq root), else DNSMASQ_FALLBACK_USER with a warning. Only the file is read, not NSS: a `dnsmasq`
 * account from LDAP alone gets the fallback, never a name dnsmasq could not find.
 */
export function dnsmasqDropFrom(passwdText: string): DnsmasqDrop {
  for (const line of passwdText.split('\n')) {
    const [name, , uid] = line.split(':');
    if (name === DNSMASQ_OWN_USER && uid !== undefined && /^\d+$/.test(uid) && Number(uid) !== 0) {
      return { user: DNSMASQ_OWN_USER, group: DNSMASQ_GROUP, warning: null };
    }
  }
  return {
    user: DNSMASQ_FALLBACK_USER,
    group: DNSMASQ_GROUP,
    warning: `dnsmasq runs as the shared account ${DNSMASQ_FALLBACK_USER} (this host has no ${DNSMASQ_OWN_USER} system user), which then also owns the proxy log: other programs running as ${DNSMASQ_FALLBACK_USER} can read and change it; install dnsmasq-base (its package creates the ${DNSMASQ_OWN_USER} user) and start again.`,
  };
}

/** Default dnsmasq cache entries (its own default is 150, small for a whole host). */
export const DNSMASQ_CACHE_SIZE = 1000;

/**
 * Renders /etc/k2s/dnsmasq.conf for a plan. Choices, each stated in the file for its reader:
 * `no-resolv` (upstreams come only from `server=`, never from the resolv.conf we replace),
 * `no-hosts` (glibc already reads /etc/hosts; the original nameservers never answered from it),
 * `bind-interfaces` (bind only the listed addresses, so it coexists with systemd-resolved on
 * 127.0.0.53 and fails loudly when an address is missing) — the addresses themselves are not in
 * the file but on each process's command line (renderDnsmasqArgs), so that on systemd the
 * loopback listeners and the KubeSwitch listener can run as two dnsmasq processes from this one
 * file (`--listen-address` flags add to the file's, dnsmasq(8)), `no-dhcp-interface=` (DNS only),
 * one `server=/zone/ip` per zone with its reason, one `server=ip` per default upstream,
 * `strict-order` unless plan.order is `rotate` (glibc asks the nameservers in order
 * and the next only when one fails; without it dnsmasq sends a query to every server now and
 * then and keeps whichever answered first, NXDOMAIN included — dnsmasq(8) --strict-order,
 * --all-servers; dnsmasq 2.90 forward.c forward_query moves to the next server in strict order
 * on REFUSED and on a client's retry), no `bogus-priv` (it would answer the cluster's private PTRs
 * with NXDOMAIN), no `rev-server` (reverse zones are plain zones here). timeoutMs is not used:
 * dnsmasq 2.90 has no upstream timeout option. A link-local upstream's `%zone` must name an
 * interface that exists when dnsmasq starts ("bad interface name" otherwise, measured with
 * `dnsmasq --test`). Throws like renderDnsproxyConfig on invalid plans.
 */
export function renderDnsmasqConfig(plan: ProxyPlan): string {
  const checked = checkPlan(plan);
  const logFile = checkPath(plan.logFile, 'Log file', '/var/log/dnsproxy/dnsproxy.log');
  const lines = [
    '# Written by k2s-dns (K2s host DNS) from the cluster it discovered; rewritten on every start,',
    '# so edit the cluster (Corefile, CIDRs) or the original resolv.conf instead of this file.',
    '',
    '# Upstreams come only from the server= lines below, never from a resolv.conf.',
    'no-resolv',
    '# glibc reads /etc/hosts itself; the original nameservers never answered from it either.',
    'no-hosts',
    '# Bind only the listed addresses: coexists with other DNS servers and fails when one is missing.',
    '# The addresses are --listen-address= on the command line: all in k2s-dnsproxy, or on systemd',
    '# the loopback ones there and the others in k2s-dnsproxy-kubeswitch (once they are assigned).',
    'bind-interfaces',
    `port=${checked.port}`,
    '# DNS only, never DHCP.',
    'no-dhcp-interface=',
    '# Cluster zones go to kube-dns (most specific zone wins; reverse zones are plain zones here).',
  ];
  const seen = new Set<string>();
  for (const z of checked.zones) {
    if (seen.has(z.zone)) continue;
    seen.add(z.zone);
    lines.push(fitLine(`# ${z.zone}: ${commentSafe(z.route.reason)}`, DNSMASQ_MAX_LINE_BYTES), `server=/${z.zone}/${serverText(z.upstream)}`);
  }
  lines.push('# Everything else goes to the nameservers of the resolv.conf saved at start.');
  if ((plan.order ?? 'ordered') === 'ordered') {
    lines.push('# In their order, the next one only when one fails, as glibc asked them (no "options rotate").', 'strict-order');
  }
  for (const s of [...new Set(checked.upstreams.map(serverText))]) lines.push(`server=${s}`);
  lines.push(`cache-size=${DNSMASQ_CACHE_SIZE}`, `log-facility=${logFile}`);
  // `extra` prefixes each line with the query's serial and the client's address/port (dnsmasq(8)
  // --log-queries): forwarded/reply lines carry no client, and TCP queries are answered by
  // forked children, so only the serial ties a reply to its query in the query log.
  if (plan.verbose) lines.push('# One log line per query, forward and reply, each with the query serial (verbose).', 'log-queries=extra');
  return `${lines.join('\n')}\n`;
}

/** dnsmasq(8) option naming one address to listen on (renderDnsmasqArgs); it adds to the config file's. */
export const DNSMASQ_LISTEN_FLAG = '--listen-address=';

/** Plain account names only (useradd's NAME_REGEX): never an option or a second word on argv. */
const ACCOUNT_NAME = /^[a-z_][a-z0-9_-]{0,31}$/;

/**
 * argv for dnsmasq after the binary: `--keep-in-foreground` (the service manager supervises
 * it), `--conf-file=<path>` (which also stops it reading /etc/dnsmasq.conf), `--pid-file=`
 * (empty: no pid file, the service manager tracks the PID; so two processes from one config do
 * not collide), one `--listen-address=ADDR` per address in `listenAddresses` (the plan's
 * listener addresses; the port is the file's `port=`), `--user=<user> --group=nogroup`
 * (the proxy faces pods on the KubeSwitch address, so it must not stay root; dnsmasq binds its
 * sockets and opens the log as root, then drops to that account, dnsmasq(8) -u/-g; `user` is
 * dnsmasqDropFrom's choice, DNSMASQ_FALLBACK_USER when not given). dnsmasq then also chowns the
 * log file's owner to that user (log.c log_start, for its SIGUSR2 reopen); the group (adm) and
 * mode 0640 stay (measured: e2e/debian-host-dnsmasq-user.e2e.test.ts). Throws when the path is not a plain absolute path, when there is no address or
 * one is not an IP address, or when `user` is not a plain account name.
 */
export function renderDnsmasqArgs(configPath: string, listenAddresses: readonly string[], user: string = DNSMASQ_FALLBACK_USER): string[] {
  checkPath(configPath, 'Config path', '/etc/k2s/dnsmasq.conf');
  if (!ACCOUNT_NAME.test(user)) throw new Error(`The dnsmasq account "${user.slice(0, 40)}" is not a plain user name; use e.g. ${DNSMASQ_OWN_USER}.`);
  const { addresses } = checkListeners(listenAddresses.map((address) => ({ address, port: 53 })));
  return ['--keep-in-foreground', `--conf-file=${configPath}`, '--pid-file=', ...addresses.map((a) => `${DNSMASQ_LISTEN_FLAG}${a}`), `--user=${user}`, `--group=${DNSMASQ_GROUP}`];
}
