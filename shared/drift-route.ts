/**
 * Where host apps' queries go with a resolver file another program wrote while K2s DNS runs:
 * what glibc will actually do with it, so the drift banner, the verdict, status and the network
 * follower classify it alike. Rules (resolv.conf(5), glibc resolv/res_init.c):
 * - no `nameserver` line: glibc asks the name server on the local machine, 127.0.0.1:53;
 * - otherwise the first MAXNS (3) nameservers, in order; glibc moves to the next one only when one
 *   times out or answers SERVFAIL/REFUSED, so the FIRST one decides where a name is answered;
 * - with `options rotate` glibc starts each query at the next nameserver (round robin), so every
 *   listed one answers some names: only a file whose nameservers are ALL the proxy's goes
 *   through K2s DNS.
 * A nameserver is the proxy's when a query to it reaches one of its listeners as the kernel routes
 * it (shared/listener-reach.ts: `::ffff:127.0.0.1`, `0.0.0.0` and `::` reach 127.0.0.1).
 * A file whose first nameserver is a k2s-dnsproxy listener (127.0.0.1, the KubeSwitch address)
 * still goes through K2s DNS. Pure module: no Node or DOM imports.
 */
import { GLIBC_MAXNS, parseResolvConf } from './resolv-conf';
import { reachesListenerAddress } from './listener-reach';
import type { DriftRoute } from './types';

export type { DriftRoute } from './types';

/** glibc's nameserver when the file names none (resolv.conf(5): "the name server on the local machine"). */
export const GLIBC_DEFAULT_NAMESERVER = '127.0.0.1';

/**
 * The text glibc parses from a resolv.conf's `bytes`: each line cut at its first NUL byte.
 * glibc resolv/res_init.c (res_vinit_1) reads each line with __getline into parser->buffer and
 * parses it with C string functions (MATCH's strncmp, strpbrk, __inet_aton_exact), so a line ends
 * for it at a NUL: `nameserver 192.0.2.53\0\n` names 192.0.2.53. For the route only (driftRoute);
 * the bytes themselves are saved and compared as they are.
 */
export function glibcResolverText(bytes: Uint8Array): string {
  // A BOM is kept: glibc reads it as bytes of the first line (its keyword then does not MATCH).
  return new TextDecoder('utf-8', { ignoreBOM: true })
    .decode(bytes)
    .split('\n')
    .map((line) => {
      const nul = line.indexOf('\0');
      return nul === -1 ? line : line.slice(0, nul);
    })
    .join('\n');
}

/**
 * The route of `text` (a resolv.conf's bytes as UTF-8, glibcResolverText) given the proxy's listener addresses
 * (`listenerAddresses`, bare IPs, e.g. ['127.0.0.1', '172.19.1.1']).
 */
export function driftRoute(text: string, listenerAddresses: readonly string[]): DriftRoute {
  const conf = parseResolvConf(text);
  const listed = conf.nameservers.slice(0, GLIBC_MAXNS);
  const implicit = listed.length === 0;
  const nameservers = implicit ? [GLIBC_DEFAULT_NAMESERVER] : listed;
  const isOwn = (ns: string) => listenerAddresses.some((l) => reachesListenerAddress(ns, l));
  const allOwn = nameservers.every(isOwn);
  // `options rotate` (resolv.conf(5)): each query starts at the next nameserver.
  const rotate = conf.options.includes('rotate');
  return { nameservers, implicit, viaK2s: rotate ? allOwn : isOwn(nameservers[0]!), keepLeavesNone: allOwn };
}

/**
 * Why the route still reaches k2s-dnsproxy, one clause: "it has no nameserver line, so glibc asks
 * 127.0.0.1:53 (resolv.conf(5)), k2s-dnsproxy's listener" or "its nameserver 127.0.0.1 is
 * k2s-dnsproxy's listener". Only meaningful when `viaK2s`.
 */
export function viaK2sWords(r: Pick<DriftRoute, 'implicit' | 'nameservers'>): string {
  if (r.implicit) return `it has no nameserver line, so glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5)), k2s-dnsproxy's listener`;
  return `its ${r.nameservers.length > 1 ? 'first ' : ''}nameserver ${r.nameservers[0]} is k2s-dnsproxy's listener`;
}

/**
 * What "Keep their file" would leave, one sentence (the banner's warning, stop's result):
 * "… nothing answers on 127.0.0.1:53 then: no name resolves on this host". Only when `keepLeavesNone`.
 */
export function keepLeavesNoneWords(r: Pick<DriftRoute, 'nameservers'>): string {
  return `Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at ${r.nameservers.map((n) => `${n}:53`).join(' and ')}, where nothing answers then: no name would resolve on this host.`;
}
