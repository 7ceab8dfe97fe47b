/**
 * Renders the k2s-dnsproxy systemd unit (pure). Quoting follows systemd.syntax(7) and
 * systemd.service(5) "Command lines": each argv word in double quotes when it has anything
 * beyond a safe set, `\` and `"` backslash-escaped, `%` doubled (systemd.unit(5) specifiers),
 * `$` doubled (environment substitution in ExecStart=).
 */
import { guardedArgv } from './root-dir-check';

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
   * (root-dir-check.ts): systemd runs the check in ExecStart= before the proxy's exec
   * (guardedArgv), on each Restart= too.
   */
  guardDirs?: string[];
  /**
   * Supervised only: the command line that starts K2s DNS again as this start did (shared/fix.ts
   * cliStartCommand), which the watchdog's give-up line in the proxy log names
   * (electron/core/host/supervisor-script.ts). Absent: this runtime's bare `start` line.
   */
  startLine?: string;
  /**
   * systemd only: listeners on addresses that may be assigned after boot (K2s adds the
   * KubeSwitch address 172.19.1.1 later), for engines that exit when an address does not exist
   * yet (AdGuard dnsproxy v0.83.1 has no freebind; dnsmasq with bind-interfaces). The main unit then runs `mainArgv` (the
   * loopback listeners only, served from boot on) and LATE_UNIT waits for `addresses`
   * (renderLateListenerUnit) and runs `argv` (only those listeners). Absent: one unit, `argv`.
   */
  lateListeners?: { mainArgv: string[]; addresses: string[]; argv: string[] };
  /**
   * systemd only, on systemd-resolved hosts: the real path of the route file (K2S_PATHS.routeFile)
   * that k2s-dnsproxy-resolved.service re-applies each time the KubeSwitch address is assigned
   * (shared/resolved-route-unit.ts). Absent: no such unit (an old one is removed).
   */
  resolvedRouteFile?: string;
  /**
   * systemd only: this start will run the network follower (--on-network-change follow): its
   * unit, when a file of it is there already (an earlier start wrote it), is linked in the proxy's
   * own links too (unit-links.ts), so the follower's start after verify only restarts it (Follower.start
   * links it itself when it rewrites the file). A failed start's rollback unlinks it with the proxy.
   */
  linkFollower?: boolean;
}

/** Unit of the late listeners (ServiceSpec.lateListeners): K2s's unit name plus `-kubeswitch`. */
export const LATE_UNIT_NAME = 'k2s-dnsproxy-kubeswitch';
const SERVICE = 'k2s-dnsproxy';

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
  return [
    '# Managed by k2s-dns: written on start, removed on uninstall (same unit name as the k2s CLI).',
    '[Unit]',
    `Description=${escapeSpecifiers(spec.description)}`,
    ...unitHead(),
    'Wants=network-online.target',
    'After=network-online.target kubelet.service',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${guarded(spec, spec.lateListeners?.mainArgv ?? spec.argv).map(quoteExecWord).join(' ')}`,
    ...serviceTail(spec, log),
  ].join('\n');
}

/** `argv` behind the root-only directory check of spec.guardDirs (guardedArgv: no proxy from a weak dir), or as it is without them. */
function guarded(spec: ServiceSpec, argv: readonly string[]): readonly string[] {
  return spec.guardDirs?.length ? guardedArgv(spec.guardDirs, argv) : argv;
}

/**
 * systemd's restart policy of the proxy units, chosen from measurements on Debian 13
 * (systemd 257, docs/host-integration.md "Restarts"): RestartSec=5 (K2s's value) made each crash a 5.1 s host-wide
 * outage, 1 s makes it 1.2 s (500 ms: 1.0 s, for twice the attempts); RestartSteps= was rejected
 * because NRestarts never resets after a good run, so one crash a day later waited the full
 * RestartMaxDelaySec (15.2 s measured). A cause that persists (port 53 held by another program)
 * gets StartLimitBurst starts within StartLimitIntervalSec (≈12 s of attempts at 1.2 s each),
 * then systemd stops (Result=start-limit-hit) instead of writing an error to the log every second.
 */
export const RESTART_POLICY = { restartSec: '1s', startLimitIntervalSec: '60s', startLimitBurst: 10 } as const;

/**
 * The proxy units' Documentation= (systemd.unit(5): URIs, `systemctl status` shows them as
 * "Docs:"): the CLI's man page and docs/host-integration.md (what the units do, where the proxy's
 * log is), as the packages install them (scripts/package/layout.ts: man1/k2s-dns.1.gz, docFiles).
 * Not the log file (walk 23: "Docs: file:/var/log/dnsproxy/dnsproxy.log" is no documentation).
 */
export const UNIT_DOCUMENTATION = ['man:k2s-dns(1)', 'file:/usr/share/doc/k2s-dns/docs/host-integration.md.gz'] as const;

/** [Unit] lines both units share: their documentation (UNIT_DOCUMENTATION) and the start limit (RESTART_POLICY). */
function unitHead(): string[] {
  return [`Documentation=${UNIT_DOCUMENTATION.join(' ')}`, `StartLimitIntervalSec=${RESTART_POLICY.startLimitIntervalSec}`, `StartLimitBurst=${RESTART_POLICY.startLimitBurst}`];
}

/**
 * The lines after ExecStart= both units share: output appended to the log, the unprivileged
 * account for `runAs`, UMask, Restart=on-failure, [Install].
 */
function serviceTail(spec: ServiceSpec, log: string, wantedBy = 'multi-user.target'): string[] {
  // Not root on the pod-facing address: bind port 53 with the one capability it needs.
  // DynamicUser= rather than User=nobody: systemd-analyze verify warns that the shared nobody
  // account "is not safe" (other daemons run as it); a transient uid is private to this unit.
  const drop = spec.runAs
    ? ['DynamicUser=yes', 'AmbientCapabilities=CAP_NET_BIND_SERVICE', 'CapabilityBoundingSet=CAP_NET_BIND_SERVICE', 'NoNewPrivileges=yes']
    : [];
  return [
    `StandardOutput=append:${log}`,
    `StandardError=append:${log}`,
    ...drop,
    // Files systemd creates for append: get 0640, not 0644 (the query log is private).
    'UMask=0027',
    'Restart=on-failure',
    `RestartSec=${RESTART_POLICY.restartSec}`,
    '',
    '[Install]',
    `WantedBy=${wantedBy}`,
    '',
  ];
}

/**
 * [Unit] lines that tie a companion unit (the KubeSwitch listener, the resolved route) to
 * k2s-dnsproxy.service, with its `[Install] WantedBy=k2s-dnsproxy.service` (enable links it into
 * k2s-dnsproxy.service.wants/, so only the main unit's start pulls it in, at boot too).
 * systemd.unit(5): PartOf= propagates stop and restart of the main unit; Requisite= with After=
 * fails a start while the main unit is not active ("not found" when its file is gone), so the
 * companion never runs alone. Measured on systemd 257 (docs/host-facts.md "Companion units"):
 * after K2s's own CLI removes only k2s-dnsproxy.service (`disable --now`, delete, daemon-reload)
 * every tie stops the companion, but with `WantedBy=multi-user.target` and PartOf= alone it
 * started by itself at the next boot and by hand; with the lines here it did neither ("Unit
 * k2s-dnsproxy.service not found"). systemd's own restart of the main unit (Restart=) restarts
 * the companion too (PartOf=), and it stays active while those restarts fail; BindsTo= was not
 * taken: it left the companion inactive until the main unit ran again. A followed network's
 * restart of the main unit is not propagated: it runs with `--job-mode=ignore-requirements`
 * (host/systemd-service.ts RESTART_JOB_MODE), so the capture keeps running across it.
 */
export const COMPANION_TIE = [`PartOf=${SERVICE}.service`, `Requisite=${SERVICE}.service`, `After=${SERVICE}.service`] as const;
/** `[Install] WantedBy=` of the companion units (COMPANION_TIE). */
export const COMPANION_WANTED_BY = `${SERVICE}.service`;

/**
 * bash(1) text run before the late listeners: returns at once when every address in `$@` (up
 * to `--`) is assigned (`ip -o addr show to ADDR`, ip-address(8)), else reads `ip -o monitor
 * address` (netlink address events, ip-monitor(8)) and checks again on each event — no polling.
 * The 60 s read timeout only covers an address added before the monitor subscribed; a monitor
 * that ends (EOF) fails the unit, which Restart= retries. Then `exec`s the listener argv.
 */
export const WAIT_FOR_ADDRESSES_SCRIPT = [
  'want=(); while [ "$1" != -- ]; do want+=("$1"); shift; done; shift',
  'have() { local a; for a in "${want[@]}"; do [ -n "$(ip -o addr show to "$a")" ] || return 1; done; }',
  'if ! have; then exec 3< <(exec ip -o monitor address); mon=$!',
  'until have; do read -r -t 60 -u 3 _; s=$?; if [ "$s" -gt 0 ] && [ "$s" -le 128 ]; then exit 1; fi; done',
  'kill "$mon" 2>/dev/null; exec 3<&-; fi',
  'exec "$@"',
].join('; ');

/**
 * Renders /etc/systemd/system/k2s-dnsproxy-kubeswitch.service for `spec.lateListeners`: the
 * same account, log and restart policy as the main unit; ExecStart= is `/bin/bash -c
 * WAIT_FOR_ADDRESSES_SCRIPT` with the addresses, `--` and the listener argv. Type=simple, so
 * the wait never holds up boot (is-system-running) or `systemctl start`. Tied to the main unit
 * (COMPANION_TIE): started by it, stopped and restarted with it, never alone. Throws like renderUnit, and
 * when spec has no lateListeners or an address is not a plain IP.
 */
export function renderLateListenerUnit(spec: ServiceSpec): string {
  const late = spec.lateListeners;
  if (!late) throw new Error('renderLateListenerUnit needs spec.lateListeners.');
  renderUnit(spec); // the same checks on argv, log and account
  const { lateListeners: _, ...single } = spec;
  renderUnit({ ...single, argv: late.argv });
  for (const a of late.addresses) if (!/^[0-9A-Fa-f.:]+$/.test(a)) throw new Error(`Listener address "${a}" is not a plain IPv4 or IPv6 address.`);
  const log = escapeSpecifiers(spec.logFile);
  const argv = ['/bin/bash', '-c', WAIT_FOR_ADDRESSES_SCRIPT, LATE_UNIT_NAME, ...late.addresses, '--', ...late.argv];
  return [
    '# Managed by k2s-dns: written on start, removed on uninstall. The KubeSwitch listener of',
    `# ${SERVICE}.service: it waits until ${late.addresses.join(', ')} is assigned (K2s adds it after boot).`,
    '[Unit]',
    `Description=${escapeSpecifiers(spec.description)}, listener on ${late.addresses.join(', ')} once assigned`,
    ...unitHead(),
    ...COMPANION_TIE,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${guarded(spec, argv).map(quoteExecWord).join(' ')}`,
    ...serviceTail(spec, log, COMPANION_WANTED_BY),
  ].join('\n');
}

/** Unit of the network follower (electron/core/host/follower.ts): K2s's unit name plus `-follow`. */
export const FOLLOW_UNIT_NAME = 'k2s-dnsproxy-follow';

/**
 * Renders /etc/systemd/system/k2s-dnsproxy-follow.service: runs `argv` (the follower, as root:
 * it rewrites /etc/resolv.conf and restarts the proxy) for as long as K2s DNS is started.
 * Deliberately no PartOf=/BindsTo= on k2s-dnsproxy.service: following a network restarts that
 * unit, which would then stop or restart the follower in the middle of its own follow.
 * Output goes to the journal (journalctl -u k2s-dnsproxy-follow). Throws for a relative argv[0]
 * or control characters.
 */
export function renderFollowUnit(argv: readonly string[]): string {
  if (!argv[0]?.startsWith('/')) throw new Error(`The follower's program "${argv[0] ?? ''}" is not an absolute path.`);
  return [
    '# Managed by k2s-dns: written on start, removed on uninstall. Follows a new resolver file the',
    `# network writes while K2s DNS runs (NetworkManager, resolvconf, a VPN client, systemd-resolved).`,
    '[Unit]',
    'Description=K2s DNS: follow network resolver changes',
    `After=${SERVICE}.service`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${argv.map(quoteExecWord).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=1s',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
