/**
 * The CoreDNS ↔ host proxy loop (coredns#6315, kubernetes#120585): the kubernetes
 * plugin passes the reverse names it has no record for down the chain
 * (`fallthrough in-addr.arpa ip6.arpa`, CoreDNS plugin/kubernetes README), `forward .` sends
 * them on — and when a forward target is one of this host's proxy listeners (the KubeSwitch
 * address, pods reaching external names through the host), the proxy, which routes the
 * cluster's reverse zones to CoreDNS, sends them straight back: one PTR for an unused pod
 * address circles until a client gives up. Pure logic over the parsed Corefile.
 */
import { isReverseZone } from './cidr';
import { parseCorefile, type CorefileDirective } from './corefile-parser';
import { asciiLower } from './proxy-upstream';

/** A loop found in the Corefile: which forward targets are proxy listeners, which reverse zones fall through. */
export interface CorednsLoop {
  /** Forward targets as the Corefile writes them (`172.19.1.1`, `dns://172.19.1.1:53`). */
  targets: string[];
  /** The zones of the `fallthrough` (`in-addr.arpa`, `ip6.arpa`); [] = every zone. */
  fallthrough: string[];
  /** `Corefile line N` of the forward directive. */
  where: string;
}

/** The IP of a forward target (`dns://IP:53`, `IP:53`, `[v6]:53`, `IP`) on port 53, or null (a file, another port, TLS). */
function targetIp(target: string): string | null {
  const m = /^(?:dns:\/\/)?(?:\[([^\]]+)\]|([^:/]+|[0-9a-f:]+))(?::(\d+))?$/i.exec(target);
  if (!m) return null;
  if (m[3] !== undefined && m[3] !== '53') return null;
  return asciiLower(m[1] ?? m[2] ?? '');
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
  const own = new Set(listeners.map((l) => asciiLower(l)));
  for (const b of blocks) {
    const kube = b.directives.find((d) => d.name === 'kubernetes');
    if (!kube) continue;
    const ft = (kube.block ?? []).find((d: CorefileDirective) => d.name === 'fallthrough');
    if (!ft) continue;
    if (!fallsThrough(ft.args, asciiLower(reverseZone))) continue;
    for (const f of b.directives.filter((d) => d.name === 'forward')) {
      const from = asciiLower(f.args[0] ?? '.').replace(/\.$/, '');
      if (!(from === '' || from === '.' || isReverseZone(from))) continue;
      const targets = f.args.slice(1).filter((t) => {
        const ip = targetIp(t);
        return ip !== null && own.has(ip);
      });
      if (targets.length) return { targets, fallthrough: ft.args, where: `${f.file} line ${f.line}` };
    }
  }
  return null;
}

/** The refusal text for a reverse zone the loop keeps off the host's routes (zone policy `why`). */
export function loopRefusalWhy(loop: CorednsLoop): string {
  const ft = loop.fallthrough.length ? loop.fallthrough.join(' ') : '(every zone)';
  return `CoreDNS falls through it (fallthrough ${ft}) and forwards to ${loop.targets.join(', ')} (${loop.where}), this host's proxy: routing it to CoreDNS would loop; forward CoreDNS to the LAN nameservers (forward . <nameserver>) or drop in-addr.arpa ip6.arpa from the fallthrough to route it`;
}
