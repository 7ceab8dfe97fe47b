/**
 * AdGuard dnsproxy YAML config and argv (dnsproxy README "Usage" and config.yaml.dist;
 * docs/engines.md "Private PTR"). Serialized with the `yaml` package, never by concatenation.
 */
import { Document, Scalar, YAMLSeq } from 'yaml';
import { hasValidTldLabel } from './cidr-policy';
import { isDnsproxyPrivateReverseZone } from './dnsproxy-private';
import { checkPlan, commentSafe, type UpstreamAddress } from './proxy-upstream';
import type { ProxyPlan, ZoneRoute } from './types';

export { renderDnsproxyArgs } from './dnsproxy-args';

/** dnsproxy upstream text: `IPv4:port` or `[IPv6%zone]:port` (a bare IPv6 would read as host:port). */
function upstreamText(u: UpstreamAddress): string {
  return u.family === 6 ? `[${u.ip}]:${u.port}` : `${u.ip}:${u.port}`;
}

/** Shortest dnsproxy `timeout` written, ms (unless the plan's own timeout is shorter). */
export const DNSPROXY_MIN_TIMEOUT_MS = 1000;

/** Go duration text for a timeout in ms ('10s', '1500ms'); throws when not a positive integer. */
export function goDuration(ms: number): string {
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new Error(`Upstream timeout ${ms} ms is not a positive whole number of milliseconds; use e.g. 10000.`);
  }
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** `[/zone1/zone2/]upstream` lines, one per upstream, zones in plan order; each with its reasons. */
function routeLines(zones: { zone: string; upstream: UpstreamAddress; route: ZoneRoute }[]): Scalar[] {
  const groups = new Map<string, { zones: string[]; reasons: string[] }>();
  for (const z of zones) {
    const key = upstreamText(z.upstream);
    const g = groups.get(key) ?? { zones: [], reasons: [] };
    if (!g.zones.includes(z.zone)) {
      g.zones.push(z.zone);
      g.reasons.push(` ${z.zone}: ${commentSafe(z.route.reason)}`);
    }
    groups.set(key, g);
  }
  return [...groups].map(([up, g]) => {
    const s = new Scalar(`[/${g.zones.join('/')}/]${up}`);
    s.commentBefore = g.reasons.join('\n');
    return s;
  });
}

const HEADER = [
  ' Written by k2s-dns (K2s host DNS) from the cluster it discovered; rewritten on every start,',
  ' so edit the cluster (Corefile, CIDRs) or the original resolv.conf instead of this file.',
  '',
  ' listen-addrs/listen-ports: dnsproxy binds every address on every port (UDP and TCP), so all',
  '   listeners share one port.',
  ' upstream: cluster zones go to kube-dns as [/zone/]upstream (the most specific zone wins);',
  '   the plain entries are the nameservers of the resolv.conf saved at start.',
  ' use-private-rdns/private-rdns-upstream: since v0.68 dnsproxy never sends PTR queries for',
  '   private (RFC 6303 locally served) addresses to "upstream"; the cluster reverse zones of',
  '   such addresses go to kube-dns here, everything else to the original nameservers, so LAN',
  '   PTR lookups work as before. Reverse zones of other addresses (100.64/10, an allowed public',
  '   range) are only in "upstream": dnsproxy refuses them here and never asks this list for them.',
  ' private-subnets is not set: its default (RFC 6303 locally served: 10/8, 172.16/12,',
  '   192.168/16, 127/8, 169.254/16, fd00::/8, fe80::/10, ...) covers the clients that ask here',
  '   (loopback, the KubeSwitch network); setting it would replace that client set too.',
  ' upstream/fallback (glibc order): the host asked its nameservers in order and the next one',
  '   only when one failed; load_balance over all of them would send names only the first',
  '   knows to the others (NXDOMAIN). So "upstream" holds the first nameserver only and',
  '   "fallback" the rest, which dnsproxy asks (together) only when the first gives no answer',
  '   within "timeout" (dnsproxy v0.83.1 proxy/proxy.go replyFromUpstream; an answer with any',
  '   rcode, SERVFAIL included, is final there). The cluster zones are in "fallback" too, routed',
  '   to kube-dns again: answering cluster names from the LAN nameservers when CoreDNS is down',
  '   would turn SERVFAIL into cached NXDOMAIN and hide the outage. With `options rotate` all',
  '   nameservers are in "upstream" (load_balance spreads the queries, as rotate does).',
  ' timeout: half of resolv.conf\'s `options timeout:` (default 5 s), at least 1 s: dnsproxy asks',
  '   a silent nameserver twice, so the first one costs what glibc waited before asking the next.',
  ' dnssec: false, so requests go upstream as the client sent them: dnsproxy would otherwise add',
  '   a DO bit (and an OPT record) to every request and send clients without EDNS UDP answers',
  '   over 512 bytes without the TC bit.',
  ' hosts-file-enabled: false, because glibc already reads /etc/hosts and the original',
  '   nameservers never answered from it; dig through the proxy sees what it saw before.',
].join('\n');

/**
 * Renders /etc/k2s/dnsproxy.yaml for a plan. Cluster zones in `upstream` grouped by upstream,
 * then the default upstreams; reverse zones of locally served addresses (the ones dnsproxy
 * v0.83.1 handles as private PTRs) also in `private-rdns-upstream` (plus the default upstreams)
 * with `use-private-rdns: true`; other reverse zones (100.64/10, allowed public ranges) only in
 * `upstream`, where dnsproxy routes their PTRs. Throws on no listener, listeners on different
 * ports, no default upstream, an upstream that is a listener, an invalid zone or upstream, a
 * zone whose top-level label dnsproxy refuses, or a non-positive timeout.
 * Order (plan.order): `ordered` puts the first default upstream in `upstream` and
 * the others in `fallback` (with the cluster zones routed to kube-dns there too); the private
 * PTRs get the first one only (dnsproxy never uses fallback for them, proxy.go:613).
 * `rotate` keeps every default in `upstream` and sets no fallback.
 */
export function renderDnsproxyConfig(plan: ProxyPlan): string {
  const checked = checkPlan(plan);
  // dnsproxy exits 1 at startup on such a route (golibs ValidateTLDLabel); the zone policy never
  // forwards one, so this only catches a plan built elsewhere, with a message instead of a raw error.
  const badTld = checked.zones.find((z) => !hasValidTldLabel(z.zone));
  if (badTld) {
    throw new Error(`Zone "${badTld.zone}" cannot be routed by AdGuard dnsproxy: its last label must be a host name label with a letter (RFC 3696 §2); remove it from the Corefile or start with --engine dnsmasq.`);
  }
  const defaults = checked.upstreams.map(upstreamText);
  const uniqueDefaults = [...new Set(defaults)];
  // Only zones dnsproxy counts as private may sit in private-rdns-upstream (dnsproxy-private.ts).
  const reverse = checked.zones.filter((z) => z.route.reverse && isDnsproxyPrivateReverseZone(z.zone));

  const doc = new Document({});
  doc.commentBefore = HEADER;
  doc.set('listen-addrs', checked.addresses);
  doc.set('listen-ports', [checked.port]);
  const ordered = (plan.order ?? 'ordered') === 'ordered';
  const primary = ordered ? uniqueDefaults.slice(0, 1) : uniqueDefaults;
  const rest = ordered ? uniqueDefaults.slice(1) : [];
  const upstream = new YAMLSeq();
  for (const s of routeLines(checked.zones)) upstream.add(s);
  for (const d of primary) upstream.add(new Scalar(d));
  doc.set('upstream', upstream);
  if (rest.length > 0) {
    const fallback = new YAMLSeq();
    for (const s of routeLines(checked.zones)) fallback.add(s);
    for (const d of rest) fallback.add(new Scalar(d));
    doc.set('fallback', fallback);
  }
  // load_balance (dnsproxy's default, stated so readers need not know it): one answer per query;
  // with one default upstream (ordered) it always asks that one; parallel would double every
  // query to the LAN and take whichever answer comes first.
  doc.set('upstream-mode', 'load_balance');
  doc.set('use-private-rdns', true);
  const rdns = new YAMLSeq();
  for (const s of routeLines(reverse)) rdns.add(s);
  for (const d of primary) rdns.add(new Scalar(d));
  doc.set('private-rdns-upstream', rdns);
  doc.set('cache', true);
  // Half the plan's per-nameserver wait: a silent plain-DNS upstream is asked twice, each time
  // for `timeout` (dnsproxy v0.83.1 upstream/plain.go dialExchange re-dials once on a net error,
  // an i/o timeout included; measured 2.0 s for `timeout: 1s`), so it costs what glibc waits.
  // At least DNSPROXY_MIN_TIMEOUT_MS: the one timeout covers kube-dns too, and a busy CoreDNS
  // must not turn into SERVFAIL because the host's file says `timeout:1`.
  goDuration(plan.timeoutMs); // throws on a non-positive or fractional timeout, with the fix
  doc.set('timeout', goDuration(Math.max(Math.min(DNSPROXY_MIN_TIMEOUT_MS, plan.timeoutMs), Math.round(plan.timeoutMs / 2))));
  doc.set('hosts-file-enabled', false);
  // dnssec (default true) only adds an OPT record with the DO bit to requests that had none
  // (v0.83.1 proxy/proxy.go addDO); scrub() then reads the size from that mutated request, so a
  // client without EDNS got 992-byte UDP answers without TC (measured; RFC 1035 §4.2.1 caps it
  // at 512). Off, requests go upstream as the client sent them (a client's own DO included),
  // as glibc's did before, and oversized answers come back truncated with TC.
  doc.set('dnssec', false);
  return doc.toString({ lineWidth: 0 });
}

