/**
 * Host paths and markers that K2s itself uses on native Linux (docs/host-facts.md "K2s
 * values"), so that this app and the `k2s` CLI can stop what the other started. All paths are
 * absolute host paths; code that touches them goes through a HostFs, which may prefix a root.
 */
export const K2S_PATHS = {
  resolvConf: '/etc/resolv.conf',
  unit: '/etc/systemd/system/k2s-dnsproxy.service',
  /** systemd, AdGuard engine: the KubeSwitch listener that waits for its address (shared/systemd-unit.ts). */
  lateUnit: '/etc/systemd/system/k2s-dnsproxy-kubeswitch.service',
  /** systemd-resolved hosts: re-applies the routing-only link whenever the KubeSwitch address (re)appears (shared/resolved-route-unit.ts). */
  routeUnit: '/etc/systemd/system/k2s-dnsproxy-resolved.service',
  /** systemd-resolved hosts: the route that unit applies (link, address, ~zones); written by start, removed by stop. */
  routeFile: '/var/lib/k2s/dns-resolved-route.conf',
  proxyConfig: '/etc/k2s/dnsproxy.yaml',
  dnsmasqConfig: '/etc/k2s/dnsmasq.conf',
  logDir: '/var/log/dnsproxy',
  log: '/var/log/dnsproxy/dnsproxy.log',
  /** The exact query log from packets (electron/core/capture/rows-file.ts): one JSON row per line, `.1` the rotated copy. */
  queryRows: '/var/log/dnsproxy/queries.jsonl',
  /** systemd: the exact query log's companion (shared/capture-unit.ts). */
  captureUnit: '/etc/systemd/system/k2s-dnsproxy-capture.service',
  /** systemd: that companion's flags (its unit runs `capture-watch --flags-file` this file; electron/core/capture/capture-args.ts). */
  captureFlags: '/etc/k2s/capture.flags',
  stateDir: '/var/lib/k2s',
  stateFile: '/var/lib/k2s/dns-resolver-state.json',
  /** The file in place at Start, kept once a follow replaced the saved original (`stop --restore start`; electron/core/host/start-copy.ts). */
  startCopy: '/var/lib/k2s/dns-resolver-start.json',
  journal: '/var/lib/k2s/dns-lifecycle-journal.json',
  lock: '/var/lib/k2s/dns-lifecycle.lock',
  resolvedDropIn: '/etc/systemd/resolved.conf.d/20-k2s-dns.conf',
  runDir: '/run/k2s',
  pidFile: '/run/k2s/dnsproxy.pid',
} as const;

/**
 * First line of the K2s-owned /etc/resolv.conf; K2s's own CLI writes the same line, and it is
 * how both recognise the file (electron/core/host/resolver-state.ts isManagedResolvConf), so it
 * stays exactly K2s's words even though it names K2s's `k2s stop`.
 */
export const MANAGED_HEADER =
  '# Managed by K2s native Linux installation; restored by k2s stop or uninstall';

/**
 * Second line of the file K2s DNS writes: who wrote it and the commands that put the original
 * back (`k2s-dns stop`, `k2s-dns uninstall`), and that the first line (MANAGED_HEADER, which names
 * K2s's own `k2s stop`) is K2s's marker: K2s's CLI restores the file only when it starts with
 * that line exactly (its restoreResolverState, a prefix match), and isManagedResolvConf matches it
 * exactly too, so its words stay K2s's. A comment: glibc ignores lines starting with `#`
 * (resolv.conf(5)).
 */
export const MANAGED_NOTE = `# Written by K2s DNS while it runs: "k2s-dns stop" or "k2s-dns uninstall" (or Stop in its window) puts back your original, saved in ${K2S_PATHS.stateFile}; the line above is K2s's own marker, kept because K2s matches it`;

/** Name of the proxy service (systemd unit name without `.service`). */
export const SERVICE_NAME = 'k2s-dnsproxy';

/** K2s network defaults (K2s cfg/config.json). Used only when discovery finds nothing better. */
export const K2S_DEFAULTS = {
  kubeSwitchAddress: '172.19.1.1',
  kubeSwitchInterface: 'k2s-proxy0',
  podCidr: '172.20.0.0/16',
  serviceCidr: '172.21.0.0/16',
  kubeDnsIp: '172.21.0.10',
  /** Default install dir of K2s on Linux; the pinned dnsproxy is `<dir>/bin/dnsproxy`. */
  installDir: '/opt/k2s',
} as const;

/** AdGuard dnsproxy versions K2s pins (docs/host-facts.md "K2s values"); others are reported by `doctor`. */
export const PINNED_DNSPROXY_VERSIONS = ['0.83', '0.84'] as const;
