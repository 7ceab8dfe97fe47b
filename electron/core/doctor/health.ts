/** Doctor check `health`: the end-to-end path verdict (shared/health.ts), so doctor never says "0 errors" while cluster names fail. */
import type { DoctorFinding, DoctorSeverity } from '../../../shared/doctor';
import { verdictFix, hopGot, hopTitle, resolverOwnerWords, type HealthHop, type HealthReport } from '../../../shared/health';
import { checkHealth } from '../health/check-health';
import { healthProbes } from '../health/probes';
import type { DoctorContext } from './context';

const SEVERITY: Record<HealthReport['verdict']['level'], DoctorSeverity> = { ok: 'ok', warn: 'warn', error: 'error', off: 'info' };

/** One hop as text: `CoreDNS (kube-dns 172.21.0.10:53): TIMEOUT in 1500 ms`, `k2s-dnsproxy 127.0.0.1:53: refused in 1 ms — 127.0.0.1:53 nothing answers (port unreachable)`. */
export function hopLine(h: HealthHop): string {
  if (h.kind === 'resolver') return `${hopTitle(h)}: ${resolverOwnerWords(h)}${h.answers.length ? ` (nameservers ${h.answers.join(', ')})` : ''}`;
  if (h.outcome === 'idle' || h.outcome === 'skipped') return `${hopTitle(h)}: ${h.reason ?? h.outcome}`;
  // A closed port, or getaddrinfo's TIMEOUT in 10 ms, was a refusal (shared/health.ts hopGot), not a timeout.
  const got = hopGot(h);
  // An upstream answering but not NOERROR (hopMark `warn`, `!`): say what it was asked, as
  // Topology does — the root zone's NS (`. NS`), which a working recursive resolver answers
  // (RFC 1034 §4.3.1), never the cluster name.
  const asked = h.kind === 'upstream' && h.ok && h.rcode !== 'NOERROR' ? ` for ${h.name === '.' ? '. (the root zone)' : h.name} ${h.type}` : '';
  const meaning = asked ? ': it answers, but a working recursive resolver answers that NOERROR, so it may not resolve Internet names' : '';
  return `${hopTitle(h)}: ${got}${asked}${h.latencyMs !== null ? ` in ${Math.round(h.latencyMs)} ms` : ''}${meaning}${!h.ok && h.reason ? ` — ${h.reason}` : ''}`;
}

/** One path check per doctor run: `health` and `lifecycle-state` report the same facts. */
const reports = new WeakMap<DoctorContext, Promise<HealthReport>>();

/** The run's end-to-end path check (opts.health, else checkHealth on deps), made once per context. */
export function healthOf(ctx: DoctorContext): Promise<HealthReport> {
  let r = reports.get(ctx);
  if (!r) {
    r = ctx.opts.health ? ctx.opts.health() : checkHealth(healthProbes(ctx.deps));
    reports.set(ctx, r);
  }
  return r;
}

/** The `health` check's topic: the title of its finding when the check itself throws (run-doctor.ts); else the finding's title is the verdict's summary, which lifecycle-state points at. */
export const HEALTH_FINDING_TOPIC = 'Cluster names on this host';

/** `health`: error when cluster names do not resolve while K2s DNS should serve them; info while stopped. */
export async function checkHealthPath(ctx: DoctorContext): Promise<DoctorFinding> {
  const report = await healthOf(ctx);
  const v = report.verdict;
  return {
    id: 'health',
    severity: SEVERITY[v.level],
    title: v.summary,
    // What Keep their file would do, said once in full here for the CLI: the fix names it in a clause;
    // the window says it in the drift banner (walk 9 M3).
    meaning: `The path of ${report.name}: ${report.hops.map(hopLine).join('; ')}.${v.keepRisk && !v.keepRisk.gone && (ctx.opts.frontEnd ?? 'cli') === 'cli' ? ` ${v.keepRisk.words}` : ''}`,
    fix: v.level === 'ok' ? null : verdictFix(v, ctx.opts.frontEnd ?? 'cli'),
    detail: { verdict: v, hops: report.hops, checkedAt: report.checkedAt },
  };
}
