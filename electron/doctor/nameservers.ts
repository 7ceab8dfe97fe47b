/**
 * Doctor checks on the original nameservers, the ones the proxy forwards to: a nameserver that is
 * one of our own listeners (loop) and more than glibc's MAXNS = 3 (resolv.conf(5)).
 */
import type { DoctorFinding } from '../../shared/doctor';
import { parseResolvConf } from '../../shared/resolv-conf';
import type { DoctorContext } from './context';

/** glibc reads at most this many nameservers (resolv.conf(5): MAXNS). */
export const MAXNS = 3;

/** Address part of a nameserver: brackets and an IPv6 `%zone` stripped, lower-case. */
function bare(server: string): string {
  return server.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
}

/** Addresses the proxy listens on: 127.0.0.1 always, the KubeSwitch address unless `none`. */
export function ownListenerAddresses(kubeSwitch: string): string[] {
  return kubeSwitch === 'none' ? ['127.0.0.1'] : ['127.0.0.1', kubeSwitch];
}

/**
 * `nameserver-loop`: error when an original nameserver is 127.0.0.1 or the assigned KubeSwitch
 * address (start refuses UPSTREAM_LOOP) or when there is none at all (resolv.conf(5): the local
 * machine; start refuses NO_UPSTREAM); warn when it is the KubeSwitch address not assigned yet.
 */
export async function checkNameserverLoop(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'nameserver-loop', title: 'Original nameservers do not point at the proxy' };
  if (ctx.originalText === null) {
    return { ...base, severity: 'info', title: 'No original resolver to check for loops', meaning: 'There is no readable original resolv.conf to check (absent, dangling link, or K2s-owned without a saved original).', fix: null };
  }
  const listed = parseResolvConf(ctx.originalText).nameservers;
  const own = ownListenerAddresses(ctx.kubeSwitch);
  const fix = 'Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or start with `k2s-dns start --upstream IP`.';
  if (listed.length === 0) {
    return {
      ...base,
      severity: 'error',
      title: 'Original resolver has no nameserver line',
      meaning: 'The original resolv.conf has no nameserver line, which means 127.0.0.1 (resolv.conf(5)), the proxy itself, so start refuses with NO_UPSTREAM.',
      fix,
      detail: { nameservers: listed, loops: ['127.0.0.1'], listeners: own },
    };
  }
  const loops = listed.filter((ns) => own.includes(bare(ns)));
  const detail = { nameservers: listed, loops, listeners: own };
  if (loops.length === 0) {
    return { ...base, severity: 'ok', meaning: `The original nameservers (${listed.join(', ')}) are not K2s DNS listeners.`, fix: null, detail };
  }
  const assigned = await ctx.deps.hostAddresses();
  // Start only listens on the KubeSwitch address when it is assigned (preflight planListeners).
  const active = loops.filter((ns) => bare(ns) === '127.0.0.1' || assigned.includes(bare(ns)));
  if (active.length > 0) {
    return {
      ...base,
      severity: 'error',
      title: 'Original nameservers point at the proxy (loop)',
      meaning: `The original resolver lists ${active.join(', ')}, where the K2s DNS proxy itself listens: forwarding there would loop, so start refuses with UPSTREAM_LOOP.`,
      fix,
      detail,
    };
  }
  return {
    ...base,
    severity: 'warn',
    title: 'Original nameservers include the KubeSwitch address',
    meaning: `The original resolver lists the KubeSwitch address ${loops.join(', ')}: once K2s assigns it, the proxy listens there and forwarding to it would loop.`,
    fix,
    detail,
  };
}

/** `nameserver-count`: warn when the original lists more than MAXNS nameservers. */
export function checkNameserverCount(ctx: DoctorContext): DoctorFinding {
  const base = { id: 'nameserver-count', title: 'At most 3 nameservers' };
  const nameservers = ctx.originalText === null ? [] : parseResolvConf(ctx.originalText).nameservers;
  if (nameservers.length <= MAXNS) {
    return { ...base, severity: 'ok', meaning: `The original lists ${nameservers.length} nameserver(s); glibc uses up to ${MAXNS}.`, fix: null, detail: { nameservers } };
  }
  const ignored = nameservers.slice(MAXNS);
  return {
    ...base,
    severity: 'warn',
    title: `${nameservers.length} nameservers: more than glibc's 3`,
    meaning: `The original lists ${nameservers.length} nameservers but glibc only ever asked the first ${MAXNS} (resolv.conf(5) MAXNS), so ${ignored.join(', ')} never got queries before and now become proxy upstreams too.`,
    fix: 'Keep at most 3 nameserver lines in the original, or pin the upstreams with `k2s-dns start --upstream IP`.',
    detail: { nameservers, ignoredByGlibc: ignored },
  };
}
