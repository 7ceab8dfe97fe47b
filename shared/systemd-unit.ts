/**
 * Renders the k2s-dnsproxy systemd unit (pure). Quoting follows systemd.syntax(7) and
 * systemd.service(5) "Command lines": each argv word in double quotes when it has anything
 * beyond a safe set, `\` and `"` backslash-escaped, `%` doubled (systemd.unit(5) specifiers),
 * `$` doubled (environment substitution in ExecStart=).
 */
import { dirsCheckArgv } from './root-dir-check';

/** What the service manager runs: argv (argv[0] absolute), log file (absolute), description. */
export interface ServiceSpec {
  argv: string[];
  logFile: string;
  description: string;
  /**
   * Run the proxy as this user/group, keeping only CAP_NET_BIND_SERVICE (port 53) — for engines
   * that cannot drop root themselves (AdGuard dnsproxy has no user option, docs/engines.md "dnsproxy privileges").
   * systemd: `DynamicUser=yes` (a transient uid instead) + `AmbientCapabilities=`; supervised:
   * util-linux setpriv(1) to this user/group.
   */
  runAs?: { user: string; group: string };
  /**
   * Real paths of the directories that must be root's alone before every (re)start
   * (root-dir-check.ts): systemd runs the check as ExecStartPre=, on each Restart= too.
   */
  guardDirs?: string[];
}

/** Unprivileged account the AdGuard dnsproxy runs as (Debian's nobody/nogroup). */
export const DNSPROXY_RUN_AS = { user: 'nobody', group: 'nogroup' } as const;

/** Plain user/group names only (useradd's NAME_REGEX plus upper case). */
const ACCOUNT = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;

const CONTROL = /[\u0000-\u001f\u007f]/;
/** Words made only of these need no quotes (no specifier, variable, quote or separator chars). */
const SAFE_WORD = /^[A-Za-z0-9_@+=:,./-]+$/;

function checkText(what: string, value: string): void {
  if (CONTROL.test(value)) {
    throw new Error(`${what} ${JSON.stringify(value)} contains a newline or control character, which a systemd unit cannot hold; remove it.`);
  }
}

/**
 * Checks a whole `Key=value` value (Description=, StandardOutput=append:…): systemd strips
 * spaces and tabs around values, and a line ending in an odd run of backslashes continues on the
 * next line (systemd.syntax(7)), which would swallow the following setting (found by a property test).
 */
function checkValue(what: string, value: string): void {
  checkText(what, value);
  if (/^[ \t]|[ \t]$/.test(value)) {
    throw new Error(`${what} ${JSON.stringify(value)} starts or ends with a space or tab, which systemd strips; remove it.`);
  }
  if (/(^|[^\\])(\\\\)*\\$/.test(value)) {
    throw new Error(`${what} ${JSON.stringify(value)} ends with a backslash, which systemd reads as a line continuation; remove it.`);
  }
}

/** Escapes `%` specifiers (systemd.unit(5)): `%` → `%%`. */
export function escapeSpecifiers(value: string): string {
  return value.replace(/%/g, '%%');
}

/** Quotes one ExecStart= word per systemd.syntax(7); throws for control characters. */
export function quoteExecWord(word: string): string {
  checkText('Command argument', word);
  const escaped = escapeSpecifiers(word).replace(/\$/g, '$$$$');
  if (word !== '' && SAFE_WORD.test(word)) return escaped;
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Renders /etc/systemd/system/k2s-dnsproxy.service for `spec`: Type=simple, output appended to
 * the log (StandardOutput=/StandardError=append:, as K2s does), Restart=on-failure. Throws when
 * argv[0] or the log path is not absolute or any value has control characters.
 */
export function renderUnit(spec: ServiceSpec): string {
  const [exe] = spec.argv;
  if (exe === undefined || !exe.startsWith('/')) {
    throw new Error(`The proxy binary "${exe ?? ''}" is not an absolute path; pass the full path (e.g. /opt/k2s/bin/dnsproxy).`);
  }
  if (!spec.logFile.startsWith('/')) {
    throw new Error(`The log file "${spec.logFile}" is not an absolute path; pass the full path (e.g. /var/log/dnsproxy/dnsproxy.log).`);
  }
  checkValue('Log file', spec.logFile);
  checkValue('Description', spec.description);
  const log = escapeSpecifiers(spec.logFile);
  if (spec.runAs && (!ACCOUNT.test(spec.runAs.user) || !ACCOUNT.test(spec.runAs.group))) {
    throw new Error(`The service account "${spec.runAs.user}:${spec.runAs.group}" is not a plain user and group name; use e.g. nobody:nogroup.`);
  }
  // Not root on the pod-facing address: bind port 53 with the one capability it needs.
  // DynamicUser= rather than User=nobody: systemd-analyze verify warns that the shared nobody
  // account "is not safe" (other daemons run as it); a transient uid is private to this unit.
  const drop = spec.runAs
    ? ['DynamicUser=yes', 'AmbientCapabilities=CAP_NET_BIND_SERVICE', 'CapabilityBoundingSet=CAP_NET_BIND_SERVICE', 'NoNewPrivileges=yes']
    : [];
  return [
    '# Managed by k2s-dns: written on start, removed on uninstall (same unit name as the k2s CLI).',
    '[Unit]',
    `Description=${escapeSpecifiers(spec.description)}`,
    'Wants=network-online.target',
    'After=network-online.target kubelet.service',
    '',
    '[Service]',
    'Type=simple',
    // A failing ExecStartPre= fails the start (systemd.service(5)): no proxy from a weak dir.
    ...(spec.guardDirs?.length ? [`ExecStartPre=${dirsCheckArgv(spec.guardDirs).map(quoteExecWord).join(' ')}`] : []),
    `ExecStart=${spec.argv.map(quoteExecWord).join(' ')}`,
    `StandardOutput=append:${log}`,
    `StandardError=append:${log}`,
    ...drop,
    // Files systemd creates for append: get 0640, not 0644 (the query log is private).
    'UMask=0027',
    'Restart=on-failure',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
