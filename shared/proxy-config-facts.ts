/**
 * The listeners and default upstreams a proxy config written by k2s-dns names, read back from the
 * file (0644 in /etc/k2s): what the window's Host DNS shows a user who cannot read root's 0700
 * saved state while the proxy runs, marked as read from the config. Only the renderers' own
 * fields are read (dnsproxy-config.ts: `listen-addrs`, `listen-ports`, the plain entries of
 * `upstream` and `fallback`; dnsmasq-config.ts: the plain `server=` lines); anything else reads
 * as none. dnsmasq's listeners are in no file: they are `--listen-address=` on its command line,
 * on systemd split between k2s-dnsproxy and k2s-dnsproxy-kubeswitch (renderDnsmasqArgs), so one
 * process's argv could name only some: none are read (the window keeps "not known" for them).
 * Pure module: no Node or DOM imports.
 */
import { parse } from 'yaml';
import type { Listener } from './types';
import { routeAddress } from './zone-server';

/**
 * What a config names: its listeners (address, port), default upstreams (`IP`, or `IP:PORT` off
 * port 53) and the zones it routes with their upstream (kube-dns, as ZoneRoute names it), in file order.
 */
export interface ProxyConfigFacts {
  listeners: Listener[];
  upstreams: string[];
  zones: { zone: string; upstream: string }[];
}

/** Each zone of `routes` (`zones` joined by `/`, upstream) once, the first route naming it kept. */
function zoneList(routes: readonly { zones: string; upstream: string | null }[]): ProxyConfigFacts['zones'] {
  const out = new Map<string, string>();
  for (const r of routes) {
    if (r.upstream === null) continue;
    for (const zone of r.zones.split('/')) if (zone !== '' && !out.has(zone)) out.set(zone, r.upstream);
  }
  return [...out].map(([zone, upstream]) => ({ zone, upstream }));
}

/**
 * Most listeners a config's facts name: k2s-dns writes a few (one address a family, one port);
 * `listen-addrs` × `listen-ports` of a hand-edited file could be millions (30,000 of each fit
 * the 1 MiB read: status as a user ran out of memory building them). More read as none.
 */
export const MAX_CONFIG_LISTENERS = 1024;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** `IP:PORT` / `[v6]:PORT` of a dnsproxy upstream entry as routeAddress writes it; null for anything else (a `[/zone/]` route, a URL). */
function dnsproxyUpstream(entry: string): string | null {
  const m = /^(?:\[([^\]\s/]+)\]|([^:\s[\]/]+)):(\d{1,5})$/.exec(entry.trim());
  return m ? routeAddress(m[1] ?? m[2]!, m[3]) : null;
}

/**
 * The facts of a dnsproxy YAML config (dnsproxy config.yaml.dist: every `listen-addrs` address
 * on every `listen-ports` port, none past MAX_CONFIG_LISTENERS; the default upstreams are the entries of `upstream` and `fallback`
 * without a `[/zone/]` prefix, each once; the zones from `upstream`'s `[/zone/]` entries). Null when the text is no YAML mapping (a cut or edited file).
 */
export function dnsproxyConfigFacts(text: string): ProxyConfigFacts | null {
  let doc: unknown;
  try {
    // k2s-dns writes no aliases: one is refused rather than expanded.
    doc = parse(text, { maxAliasCount: 0 });
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const d = doc as Record<string, unknown>;
  const ports = Array.isArray(d['listen-ports']) ? d['listen-ports'].filter((p): p is number => Number.isInteger(p) && p > 0 && p < 65536) : [];
  const addrs = strings(d['listen-addrs']);
  const listeners = addrs.length * ports.length > MAX_CONFIG_LISTENERS ? [] : addrs.flatMap((address) => ports.map((port) => ({ address, port })));
  const upstreams = [...new Set([...strings(d.upstream), ...strings(d.fallback)].map(dnsproxyUpstream).filter((u): u is string => u !== null))];
  // `[/zone1/zone2/]IP:PORT` (dnsproxy README "Specifying upstreams for domains"); `fallback` repeats them.
  const zones = zoneList(strings(d.upstream).flatMap((e) => {
    const m = /^\[\/((?:[^/\s\]]+\/)+)\](.+)$/.exec(e.trim());
    return m ? [{ zones: m[1]!, upstream: dnsproxyUpstream(m[2]!) }] : [];
  }));
  return { listeners, upstreams, zones };
}

/**
 * The facts of a dnsmasq config (dnsmasq(8) `server=IP[#PORT]` without a `/domain/`: its
 * default upstreams; `server=/zone/IP[#PORT]`: its zones); no listeners (see above). Lines are whole lines: the caller drops a cut last line.
 */
export function dnsmasqConfigFacts(text: string): ProxyConfigFacts {
  const listeners: Listener[] = [];
  const upstreams = [...new Set([...text.matchAll(/^server=([^/#\s]+)(?:#(\d{1,5}))?$/gm)].map((m) => routeAddress(m[1]!, m[2])).filter((u): u is string => u !== null))];
  const zones = zoneList([...text.matchAll(/^server=\/((?:[^/\s]+\/)+)([^/#\s]+)(?:#(\d{1,5}))?$/gm)].map((m) => ({ zones: m[1]!, upstream: routeAddress(m[2]!, m[3]) })));
  return { listeners, upstreams, zones };
}
