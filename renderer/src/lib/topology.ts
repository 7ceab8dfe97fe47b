/**
 * The resolution path as the Topology panel draws it: host apps → /etc/resolv.conf →
 * k2s-dnsproxy listeners → CoreDNS / upstreams, one box per hop of the health model
 * (shared/health.ts), each with its reason inline.
 */
import { hopGot, hopMark, kubeDnsDefaultWords, resolverOwnerWords, ROOTLESS_WORDS, rootlessNxdomain, type HealthHop, type HealthReport, type HopMark } from '../../../shared/health';

/**
 * One box. `ok` null: not probed yet. `idle`: not on the path right now (K2s DNS is stopped),
 * drawn grey, never red. `error` is the hop's reason, shown inline; `cause` marks the hop the
 * verdict names.
 */
export interface Hop {
  id: string;
  column: 'apps' | 'resolver' | 'proxy' | 'backend';
  label: string;
  detail: string;
  ok: boolean | null;
  error: string | null;
  idle?: boolean;
  cause?: boolean;
  /** Round-trip time in ms, when the hop is a query. */
  latencyMs?: number | null;
  /** How it is drawn (shared/health.ts hopMark): `warn` is amber, e.g. an upstream answering NXDOMAIN. */
  mark?: HopMark;
}

/** What a hop off the path says. */
export const NOT_IN_USE = 'not in use: K2s DNS is stopped';

const COLUMN: Record<HealthHop['kind'], Hop['column']> = { system: 'apps', resolver: 'resolver', listener: 'proxy', 'kube-dns': 'backend', upstream: 'backend' };
const LABEL: Record<HealthHop['kind'], string> = { system: 'Host apps', resolver: '/etc/resolv.conf', listener: 'k2s-dnsproxy', 'kube-dns': 'CoreDNS', upstream: 'Upstream' };

/** The boxes before the first check: every hop unknown. */
export const UNPROBED: Hop[] = [
  { id: 'system', column: 'apps', label: 'Host apps', detail: 'getaddrinfo', ok: null, error: null },
  { id: 'resolver', column: 'resolver', label: '/etc/resolv.conf', detail: 'owner unknown', ok: null, error: null },
  { id: 'listener:127.0.0.1:53', column: 'proxy', label: 'k2s-dnsproxy', detail: '127.0.0.1:53', ok: null, error: null },
  { id: 'kube-dns', column: 'backend', label: 'CoreDNS', detail: 'kube-dns', ok: null, error: null },
];

/** Text under a box: what was asked and what came back. */
function detailOf(h: HealthHop): string {
  if (h.kind === 'resolver') return `owner: ${resolverOwnerWords(h)}${h.answers.length ? ` · nameserver ${h.answers.join(', ')}` : ''}`;
  // K2s's default kube-dns address, not one discovered from a cluster, says so (the CLI's hop title does too).
  const fallback = kubeDnsDefaultWords(h);
  const target = fallback ? `${h.target} (${fallback})` : h.target;
  if (h.outcome === 'idle' || h.outcome === 'skipped') return target;
  // The CLI's `status` line's word (shared/health.ts hopGot): `refused` for a closed port, never TIMEOUT or ERROR.
  const got = hopGot(h);
  return `${target} · ${got}${h.latencyMs !== null ? ` · ${Math.round(h.latencyMs)} ms` : ''}`;
}

/**
 * Boxes from a health report. While K2s DNS is stopped (verdict `off`), host apps → your own
 * resolv.conf → your nameservers is the whole path: a cluster name's NXDOMAIN there is expected,
 * so host apps' box is neutral (mark `idle`, ok null) with that reason, not red and not green.
 */
export function topologyFromHealth(report: HealthReport): Hop[] {
  const off = report.verdict.level === 'off';
  return report.hops.map((h) => {
    const idle = h.outcome === 'idle';
    const mark = hopMark(h, report.verdict);
    // Stopped: your own resolv.conf (✓), and host apps getting your nameservers' NXDOMAIN for the
    // cluster name (neutral: expected, yet no answer) are the normal stopped path.
    const reachedOwn = off && !h.ok && !idle && (mark === 'ok' || (mark === 'idle' && h.kind === 'system'));
    const ok = mark === 'idle' ? null : mark === 'ok';
    // ✓ with why an NXDOMAIN is fine here (shared/health.ts rootlessNxdomain), the words status prints.
    const rootless = rootlessNxdomain(h) ? `answers NXDOMAIN for . NS: ${ROOTLESS_WORDS}` : null;
    const warn = mark === 'warn' ? `answers, but ${h.rcode} for ${h.name} ${h.type}: it may not resolve Internet names` : null;
    return {
      id: h.id,
      column: COLUMN[h.kind],
      label: h.outcome === 'skipped' ? 'skipped listener' : LABEL[h.kind],
      detail: detailOf(h),
      ok,
      error: idle ? null : warn ?? rootless ?? (ok && !reachedOwn ? null : reachedOwn ? (h.kind === 'system' ? `your nameservers answered ${h.rcode}: cluster names need K2s DNS` : 'your own resolver, as expected while stopped') : h.reason),
      ...(idle ? { idle: true } : {}),
      ...(report.verdict.hopId === h.id && !off ? { cause: true } : {}),
      latencyMs: h.latencyMs,
      mark,
    };
  });
}
