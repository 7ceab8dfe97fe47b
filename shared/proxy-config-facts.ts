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

/** What a config names: its listeners (address, port) and default upstreams (`IP`, or `IP:PORT` off port 53), in file order. */
export interface ProxyConfigFacts {
  listeners: Listener[];
  upstreams: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** `IP:PORT` / `[v6]:PORT` of a dnsproxy upstream entry as routeAddress writes it; null for anything else (a `[/zone/]` route, a URL). */
function dnsproxyUpstream(entry: string): string | null {
  const m = /^(?:\[([^\]\s/]+)\]|([^:\s[\]/]+)):(\d{1,5})$/.exec(entry.trim());
  return m ? routeAddress(m[1] ?? m[2]!, m[3]) : null;
}

/**
 * The facts of a dnsproxy YAML config (dnsproxy config.yaml.dist: every `listen-addrs` address
 * on every `listen-ports` port; the default upstreams are the entries of `upstream` and `fallback`
 * without a `[/zone/]` prefix, each once). Null when the text is no YAML mapping (a cut or edited file).
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
  const listeners = strings(d['listen-addrs']).flatMap((address) => ports.map((port) => ({ address, port })));
  const upstreams = [...new Set([...strings(d.upstream), ...strings(d.fallback)].map(dnsproxyUpstream).filter((u): u is string => u !== null))];
  return { listeners, upstreams };
}

/**
 * The facts of a dnsmasq config (dnsmasq(8) `server=IP[#PORT]` without a `/domain/`): its
 * default upstreams; no listeners (see above). Lines are whole lines: the caller drops a cut last line.
 */
export function dnsmasqConfigFacts(text: string): ProxyConfigFacts {
  const listeners: Listener[] = [];
  const upstreams = [...new Set([...text.matchAll(/^server=([^/#\s]+)(?:#(\d{1,5}))?$/gm)].map((m) => routeAddress(m[1]!, m[2])).filter((u): u is string => u !== null))];
  return { listeners, upstreams };
}
