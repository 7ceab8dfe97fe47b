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
 * `nameserver-loop`: error when every original nameserver is one of our listeners (start refuses
 * NO_UPSTREAM; no nameserver line at all means 127.0.0.1, resolv.conf(5)), warn when some are.
 */
export function checkNameserverLoop(ctx: DoctorContext): DoctorFinding {
  const base = { id: 'nameserver-loop', title: 'Original nameservers do not point at the proxy' };
  if (ctx.originalText === null) {
    return { ...base, severity: 'info', meaning: 'There is no readable original resolv.conf to check (absent, dangling link, or K2s-owned without a saved original).', fix: null };
  }
  const listed = parseResolvConf(ctx.originalText).nameservers;
  // resolv.conf(5): without nameserver lines the resolver uses the name server on the local machine.
  const nameservers = listed.length > 0 ? listed : ['127.0.0.1'];
  const own = ownListenerAddresses(ctx.kubeSwitch);
  const loops = nameservers.filter((ns) => own.includes(bare(ns)));
  const detail = { nameservers: listed, loops, listeners: own };
  if (loops.length === 0) {
    return { ...base, severity: 'ok', meaning: `The original nameservers (${nameservers.join(', ')}) are not K2s DNS listeners.`, fix: null, detail };
  }
  const implicit = listed.length === 0 ? ' (no nameserver line means 127.0.0.1)' : '';
  if (loops.length === nameservers.length) {
    return {
      ...base,
      severity: 'error',
      meaning: `Every original nameserver${implicit} is a K2s DNS listener (${loops.join(', ')}): forwarding there would loop, so start refuses with NO_UPSTREAM.`,
      fix: 'Give the real upstream with `k2s-dns start --upstream IP` (e.g. your router or company DNS), or fix /etc/resolv.conf to name it first.',
      detail,
    };
  }
  return {
    ...base,
    severity: 'warn',
    meaning: `The original nameservers ${loops.join(', ')} are K2s DNS listeners: the proxy drops them as upstreams (loop) and forwards only to the others.`,
    fix: 'Remove those nameserver lines from the original resolv.conf if they are left over from an earlier proxy.',
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
    meaning: `The original lists ${nameservers.length} nameservers but glibc only ever asked the first ${MAXNS} (resolv.conf(5) MAXNS), so ${ignored.join(', ')} never got queries before and now become proxy upstreams too.`,
    fix: 'Keep at most 3 nameserver lines in the original, or pin the upstreams with `k2s-dns start --upstream IP`.',
    detail: { nameservers, ignoredByGlibc: ignored },
  };
}
