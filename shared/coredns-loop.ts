/**
 * The CoreDNS ↔ host proxy loop (coredns#6315, kubernetes#120585): the kubernetes
 * plugin passes the reverse names it has no record for down the chain
 * (`fallthrough in-addr.arpa ip6.arpa`, CoreDNS plugin/kubernetes README), `forward .` sends
 * them on — and when a forward target is one of this host's proxy listeners (the KubeSwitch
 * address, pods reaching external names through the host), the proxy, which routes the
 * cluster's reverse zones to CoreDNS, sends them straight back: one PTR for an unused pod
 * address circles until a client gives up. The same holds for any zone a server block (or a
 * `forward FROM` line) sends to such a listener: `corp.internal:53 { forward . 172.19.1.1 }`
 * made the proxy route corp.internal to kube-dns and CoreDNS send it straight back (measured:
 * dnsmasq timed out after 4 s, CoreDNS saw the query 150 times). Pure logic over the parsed
 * Corefile.
 */
import { isIpAddress, isReverseZone } from './cidr';
import { parseCorefile, type CorefileDirective, type CorefileServerBlock } from './corefile-parser';
import { bareAddress, effectiveAddress, isLoopbackAddress } from './listener-reach';
import { asciiLower, reachesListener } from './proxy-upstream';

/** A loop found in the Corefile: which forward targets are proxy listeners, which reverse zones fall through. */
export interface CorednsLoop {
  /** Forward targets as the Corefile writes them (`172.19.1.1`, `dns://172.19.1.1:53`). */
  targets: string[];
  /** The zones of the `fallthrough` (`in-addr.arpa`, `ip6.arpa`); [] = every zone. */
  fallthrough: string[];
  /** `Corefile line N` of the forward directive. */
  where: string;
}

/** The port the proxy listens on (every listener shares it: proxy-upstream.ts checkListeners). */
const PROXY_PORT = 53;

/**
 * The address a plain-DNS forward target sends to on port 53, canonical (effectiveAddress:
 * `::ffff:172.19.1.1` and `[::ffff:ac13:101]:53` are 172.19.1.1), or null when it goes
 * elsewhere: another port (`:5353`; `:053` is 53), another protocol (`tls://`, `grpc://`), a
 * file (`/etc/resolv.conf`) or a name. Spellings of the forward plugin
 * (coredns.io/plugins/forward): `IP`, `IP:PORT`, `[IPv6]:PORT`, bare IPv6, `dns://` before any.
 */
export function forwardTargetAddress(target: string): string | null {
  let t = target.trim();
  const scheme = /^([a-z0-9]+):\/\//i.exec(t);
  if (scheme) {
    if (asciiLower(scheme[1]!) !== 'dns') return null;
    t = t.slice(scheme[0].length);
  }
  let host = t;
  let port: string | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(t);
  if (bracket) {
    host = bracket[1]!;
    port = bracket[2];
  } else if ((t.match(/:/g) ?? []).length === 1) {
    const i = t.indexOf(':');
    host = t.slice(0, i);
    port = t.slice(i + 1);
    if (!/^\d{1,5}$/.test(port)) return null;
  }
  if (port !== undefined && Number(port) !== PROXY_PORT) return null;
  if (!isIpAddress(bareAddress(host))) return null;
  return effectiveAddress(host);
}

/** True when a forward target reaches one of `listeners` or a loopback address (in a pod: CoreDNS itself) on port 53. */
export function forwardReachesProxy(target: string, listeners: string[]): boolean {
  const addr = forwardTargetAddress(target);
  return addr !== null && (isLoopbackAddress(addr) || reachesListener(addr, listeners));
}

/** Does this reverse name fall under `fallthrough ZONES` (no zones: all)? */
function fallsThrough(zones: string[], reverse: string): boolean {
  if (zones.length === 0) return true;
  return zones.some((z) => {
    const zz = asciiLower(z).replace(/\.$/, '');
    // The zone itself, a zone above it, or a part of it (then some of its names loop).
    return reverse === zz || reverse.endsWith(`.${zz}`) || zz.endsWith(`.${reverse}`);
  });
}

/**
 * The loop when the server block holding `kubernetes` falls through reverse zones and forwards
 * `.` (or the reverse root) to one of `listeners` (host proxy listener IPs); null otherwise
 * (no fallthrough for reverse names, forward to a LAN nameserver or to /etc/resolv.conf — the
 * last is the kubelet resolvConf check's case). `reverseZone` is a zone the proxy would route
 * to CoreDNS (e.g. `20.172.in-addr.arpa`): the loop applies when the fallthrough covers it.
 * Never throws on a Corefile parseCorefile accepts; returns null on one it rejects.
 */
export function corednsForwardLoop(corefile: string, extraFiles: Record<string, string> | undefined, listeners: string[], reverseZone = 'in-addr.arpa'): CorednsLoop | null {
  let blocks;
  try {
    blocks = parseCorefile(corefile, extraFiles).serverBlocks;
  } catch {
    return null;
  }
  for (const b of blocks) {
    const kube = b.directives.find((d) => d.name === 'kubernetes');
    if (!kube) continue;
    const ft = (kube.block ?? []).find((d: CorefileDirective) => d.name === 'fallthrough');
    if (!ft) continue;
    if (!fallsThrough(ft.args, asciiLower(reverseZone))) continue;
    for (const f of b.directives.filter((d) => d.name === 'forward')) {
      const from = asciiLower(f.args[0] ?? '.').replace(/\.$/, '');
      if (!(from === '' || from === '.' || isReverseZone(from))) continue;
      const targets = f.args.slice(1).filter((t) => forwardReachesProxy(t, listeners));
      if (targets.length) return { targets, fallthrough: ft.args, where: `${f.file} line ${f.line}` };
    }
  }
  return null;
}

/**
 * The Corefile line that forwards to other nameservers, in prose: `forward .` followed by `whose`
 * addresses, which are the user's (the LAN's), never a `<nameserver>` placeholder to paste into
 * the Corefile (walk 7 M4). Said by the loop refusals here and the live loop's fix (live-loop.ts).
 */
export function forwardLineWords(whose: 'their IP addresses' | 'its IP address'): string {
  return `\`forward .\` followed by ${whose}`;
}

/** The refusal text for a reverse zone the loop keeps off the host's routes (zone policy `why`). */
export function loopRefusalWhy(loop: CorednsLoop): string {
  const ft = loop.fallthrough.length ? loop.fallthrough.join(' ') : '(every zone)';
  return `CoreDNS falls through it (fallthrough ${ft}) and forwards to ${loop.targets.join(', ')} (${loop.where}), this host's proxy: routing it to CoreDNS would loop; forward CoreDNS to the LAN nameservers (${forwardLineWords('their IP addresses')}) or drop in-addr.arpa ip6.arpa from the fallthrough to route it`;
}

/** A zone a server block forwards to a proxy listener: routing it (or a zone above it) to CoreDNS loops. */
export interface ZoneForwardLoop {
  /** The looping zone: a `forward FROM` zone, or a key zone of a block that forwards `.`. */
  zone: string;
  /** Forward targets as the Corefile writes them. */
  targets: string[];
  /** `Corefile line N` (or the coredns-custom file) of the forward directive. */
  where: string;
}

/** Plugins that answer the names of their zones themselves unless their `fallthrough` covers the name. */
const ANSWERING = new Set(['kubernetes', 'file', 'auto', 'secondary', 'etcd', 'hosts']);

/**
 * True when a plugin before `forward` in the block answers `zone` (CoreDNS runs plugins in its
 * compiled order, and all of these come before forward, plugin.cfg): its zones (arguments, or
 * the block's zones when it names none) cover `zone` and no `fallthrough` in its block does.
 */
function answeredInBlock(block: CorefileServerBlock, blockZones: string[], isRoot: boolean, zone: string): boolean {
  for (const d of block.directives) {
    if (!ANSWERING.has(d.name)) continue;
    const args = (d.name === 'file' || d.name === 'hosts' ? d.args.slice(1) : d.args).filter((a) => !a.startsWith('{') && !a.includes('/'));
    const zones = args.length ? args.map((a) => asciiLower(a).replace(/\.$/, '')) : isRoot ? [''] : blockZones;
    if (!zones.some((z) => z === '' || z === '.' || zone === z || zone.endsWith(`.${z}`))) continue;
    const ft = (d.block ?? []).find((x) => x.name === 'fallthrough');
    if (!ft || !fallsThrough(ft.args, zone)) return true;
  }
  return false;
}

/**
 * The zones one server block forwards to a proxy listener (forwardReachesProxy): the FROM of
 * each `forward FROM TO…` with such a target, and for `forward . TO…` the block's own key zones
 * (`blockZones`, lower case, no trailing dot; the root `.` is the reverse-fallthrough case of
 * corednsForwardLoop). A zone an earlier plugin of the block answers itself (kubernetes, file,
 * hosts… without a fallthrough covering it) is left out: forward never sees it.
 */
export function blockForwardLoops(block: CorefileServerBlock, blockZones: string[], isRoot: boolean, listeners: string[]): ZoneForwardLoop[] {
  const out: ZoneForwardLoop[] = [];
  for (const f of block.directives.filter((d) => d.name === 'forward')) {
    const targets = f.args.slice(1).filter((t) => forwardReachesProxy(t, listeners));
    if (targets.length === 0) continue;
    const from = asciiLower(f.args[0] ?? '.').replace(/\.$/, '');
    const zones = from === '' || from === '.' ? blockZones : from.startsWith('{') || from.includes('/') ? [] : [from];
    for (const zone of zones) {
      if (!answeredInBlock(block, blockZones, isRoot, zone)) out.push({ zone, targets, where: `${f.file} line ${f.line}` });
    }
  }
  return out;
}

/** The refusal text for a zone routed to CoreDNS that CoreDNS forwards back to this host (`zone` is the routed one). */
export function forwardLoopWhy(loop: ZoneForwardLoop, zone: string): string {
  const what = loop.zone === zone ? 'CoreDNS forwards it' : `CoreDNS forwards ${loop.zone}, a part of it,`;
  return `${what} to ${loop.targets.join(', ')} (${loop.where}), this host's proxy: routing it to CoreDNS would loop; forward it in CoreDNS to the nameserver that serves it (${forwardLineWords('its IP address')}), not to this host, to route it`;
}
