/**
 * The systemd-resolved route kept alive (pure): the routing-only link K2s gives resolved
 * (resolved-link.ts) is runtime state of the KubeSwitch link `k2s-proxy0`, so it is gone when
 * that link is deleted and created again (K2s's network service restarted) and after every
 * reboot (resolved keeps runtime link settings in /run/systemd/resolve/netif/, a tmpfs, and
 * drops them for a link that disappears). The unit rendered here re-applies it from the route
 * file start writes, each time the KubeSwitch address is assigned.
 *
 * Why a unit of its own, not k2s-dnsproxy-kubeswitch: that unit's main process is the listener
 * itself (Restart= must watch it), and for AdGuard it runs as a DynamicUser= without privileges,
 * while resolved's SetLinkDNS/SetLinkDomains/SetLinkDefaultRoute need root (polkit action
 * org.freedesktop.resolve1.set-dns-servers, auth_admin_keep; root passes without asking).
 * ExecStartPost=+… would run as root but only once per start, not when the link comes back.
 */
import { renderCompanionUnit } from './companion-unit';
import { routingDomains, type ResolvedRoute } from './resolved-link';

/** Unit name (without .service): K2s's unit name plus `-resolved`. */
export const ROUTE_UNIT_NAME = 'k2s-dnsproxy-resolved';
const SERVICE = 'k2s-dnsproxy';

/** Interface names the kernel takes (IFNAMSIZ 16 with the NUL; no `/`, space or `:` here). */
const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;
const ADDRESS = /^[0-9A-Fa-f.:]+$/;

/**
 * The route file (K2S_PATHS.routeFile, root 0600 in the 0700 /var/lib/k2s): one `key value`
 * per line — `link`, `address`, then one `domain ~zone` line per routing domain. Throws for a
 * link, address or zone the unit's script would refuse (so start fails, not the unit later).
 */
export function renderRouteFile(route: ResolvedRoute): string {
  if (!IFNAME.test(route.link)) throw new Error(`Interface name "${route.link}" is not a plain interface name.`);
  if (!ADDRESS.test(route.address)) throw new Error(`Address "${route.address}" is not a plain IPv4 or IPv6 address.`);
  const domains = routingDomains(route.domains.map((d) => d.replace(/^~/, '')));
  if (domains.length === 0) throw new Error('A systemd-resolved route needs at least one ~zone.');
  return ['# Managed by k2s-dns: the systemd-resolved route k2s-dnsproxy-resolved.service re-applies; removed by stop.', `link ${route.link}`, `address ${route.address}`, ...domains.map((d) => `domain ${d}`), ''].join('\n');
}

/** Parses renderRouteFile's text back (null when a line is missing or not plain), as the unit's script reads it. */
export function parseRouteFile(text: string): ResolvedRoute | null {
  let link = '';
  let address = '';
  const domains: string[] = [];
  for (const raw of text.split('\n')) {
    const m = /^(link|address|domain) (\S+)$/.exec(raw);
    if (!m) continue;
    if (m[1] === 'link') link = m[2] as string;
    else if (m[1] === 'address') address = m[2] as string;
    else domains.push(m[2] as string);
  }
  if (!IFNAME.test(link) || !ADDRESS.test(address) || domains.length === 0 || !domains.every((d) => /^~[a-z0-9_.-]+$/.test(d))) return null;
  return { link, address, domains };
}

/**
 * bash(1) text of the unit (argv after it: the route file). Subscribes to netlink address
 * events first (`ip -o monitor address`, ip-monitor(8)), then applies once, then again on every
 * event that is not a deletion — no polling. `apply` does nothing without the file (stop removed
 * it: never a route K2s no longer wants), when the file is not a regular root-owned file, when
 * the link does not hold the address yet (`ip -o addr show dev LINK to ADDR`), or when resolved
 * already has exactly that route (`resolvectl dns|domain|default-route LINK`); else it runs the
 * three resolvectl(1) calls of applyRouteArgs, up to 5 times 1 s apart (a link created a moment
 * ago may not be known to resolved yet: "Link … not known"). Every 60 s without an event it
 * checks once more (an address added while the monitor was subscribing, or a route someone
 * reverted: three reads, no change when it is there). Lines go to the journal. A monitor that
 * ends fails the unit, which Restart= retries.
 */
export const ROUTE_WATCH_SCRIPT = [
  'f=$1',
  'cur() { local o a; o=$(resolvectl "$1" "$link" 2>/dev/null) || return 1; read -r -a a <<< "${o#*): }"; printf %s "${a[*]}"; }',
  'apply() { local k v n; link=; addr=; doms=()',
  '[ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %u "$f")" = 0 ] || return 0',
  'while read -r k v; do case $k in link) link=$v;; address) addr=$v;; domain) doms+=("$v");; esac; done < "$f"',
  'if ! [[ $link =~ ^[A-Za-z0-9_.-]{1,15}$ && $addr =~ ^[0-9A-Fa-f.:]+$ && ${#doms[@]} -gt 0 ]]; then echo "k2s-dns: $f is not a route file; ignored" >&2; return 0; fi',
  '[ -n "$(ip -o addr show dev "$link" to "$addr" 2>/dev/null)" ] || return 0',
  '[ "$(cur dns)" = "$addr" ] && [ "$(cur domain)" = "${doms[*]}" ] && [ "$(cur default-route)" = no ] && return 0',
  'for n in 1 2 3 4 5; do if resolvectl dns "$link" "$addr" && resolvectl domain "$link" "${doms[@]}" && resolvectl default-route "$link" no; then echo "k2s-dns: systemd-resolved sends ${doms[*]} to $addr on $link (routing-only link re-applied)"; return 0; fi; sleep 1; done',
  'echo "k2s-dns: could not give systemd-resolved the route ${doms[*]} on $link; see systemctl status systemd-resolved" >&2; }',
  'exec 3< <(exec ip -o monitor address)',
  'apply',
  'while :; do read -r -t 60 -u 3 line; s=$?; if [ "$s" -gt 128 ]; then apply; elif [ "$s" -gt 0 ]; then exit 1; else case $line in Deleted*) ;; *) apply;; esac; fi; done',
].join('; ');

/**
 * Renders /etc/systemd/system/k2s-dnsproxy-resolved.service: root (resolvectl's set calls need
 * it), Type=simple running ROUTE_WATCH_SCRIPT on `routeFile` (a real, absolute path), output to
 * the journal (not the proxy's query log). Tied to the main unit like the KubeSwitch unit
 * (COMPANION_TIE): started with it, stopped with it, never alone. Throws for a relative path or
 * one with control characters.
 */
export function renderRouteUnit(routeFile: string): string {
  if (!routeFile.startsWith('/')) throw new Error(`The route file "${routeFile}" is not an absolute path.`);
  return renderCompanionUnit({
    header: ['Managed by k2s-dns: written on start, removed on uninstall. Re-applies the systemd-resolved route', `of ${SERVICE}.service (cluster zones → KubeSwitch listener) each time the KubeSwitch address is assigned.`],
    description: 'K2s DNS: systemd-resolved route for the cluster zones on the KubeSwitch link',
    documentation: 'man:resolvectl(1)',
    unitExtra: ['After=systemd-resolved.service'],
    argv: ['/bin/bash', '-c', ROUTE_WATCH_SCRIPT, ROUTE_UNIT_NAME, routeFile],
    service: ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'ProtectHome=yes', 'PrivateTmp=yes', 'RestrictAddressFamilies=AF_UNIX AF_NETLINK'],
  });
}
