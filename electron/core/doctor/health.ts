/** Doctor check `health`: the end-to-end path verdict (shared/health.ts), so doctor never says "0 errors" while cluster names fail. */
import type { DoctorFinding, DoctorSeverity } from '../../../shared/doctor';
import { briefRecheck, HOP_SYMBOL, hopMark, RECHECK_NOTE, verdictFix, type HealthReport, type HealthVerdict } from '../../../shared/health';
import { checkHealth } from '../health/check-health';
import { healthProbes } from '../health/probes';
import { startFindsKubeconfig } from '../cluster/kubeconfig-default';
import type { DoctorContext } from './context';
import { hopLine } from './hop-line';
import { driftRestoreLabel } from '../../../shared/saved-copy';
import { cliTimeText, timeText } from '../../../shared/clock';
import { NOT_RESOLVER_TITLE, notResolverNow } from './not-resolver';
import { ownerFixClause } from '../../../shared/drift-default';

/** `text` without `clause` (each place), as is when `clause` is null. */
const withoutClause = (text: string, clause: string | null): string => (clause ? text.split(clause).join('') : text);

const SEVERITY: Record<HealthReport['verdict']['level'], DoctorSeverity> = { ok: 'ok', warn: 'warn', error: 'error', off: 'info' };

/** One hop as text (hop-line.ts; re-exported for doctor's callers). */
export { hopLine };

/** One path check per doctor run: `health` and `lifecycle-state` report the same facts. */
const reports = new WeakMap<DoctorContext, Promise<HealthReport>>();

/**
 * The run's end-to-end path check (opts.health, else checkHealth on deps), made once per context.
 * Its kube-dns hop says `no kubeconfig` only when a start would find none: neither this run's
 * kubeconfig nor the one `sudo k2s-dns start` finds by itself (startFindsKubeconfig; a user on a
 * K2s host, whose own lookup skips the root-only admin.conf, as status says it).
 */
export function healthOf(ctx: DoctorContext): Promise<HealthReport> {
  let r = reports.get(ctx);
  if (!r) {
    r = ctx.opts.health ? ctx.opts.health() : startFindsKubeconfig(ctx.opts.kubeconfigPath, ctx.opts.sudoLookup).then((kubeconfigFound) => checkHealth(healthProbes(ctx.deps), { kubeconfigFound }));
    reports.set(ctx, r);
  }
  return r;
}

/** The `health` check's topic: the title of its finding when the check itself throws (run-doctor.ts); else the finding's title is the verdict's summary, which lifecycle-state points at. */
export const HEALTH_FINDING_TOPIC = 'Cluster names on this host';

/**
 * The fix of a finding whose fix the `health` finding (doctor's first, checkHealthPath) already
 * gives for verdict `v`: a pointer to it by the title doctor shows (the verdict's summary), so one
 * finding carries the fix and the other refers to it (issue #20 "one message per fact"; walk 11
 * L5: drift's K2s DNS state and a missing file's loop check repeated it). A `warn` verdict's
 * finding is "the warning", others "the error".
 */
export function healthFixPointer(v: Pick<HealthVerdict, 'level' | 'summary'>): { fix: string; remedy: { action: null; gui: string; cli: string } } {
  return fixPointer(v.level === 'warn' ? 'warning' : 'error', v.summary, 'above');
}

/**
 * The fix of a finding whose fix another finding of the same run gives: "See the error "TITLE"
 * above: its fix is this one's." — `what` and `title` as doctor shows that finding, `where` its
 * place in doctor's list (grouped by severity, errors first; check order within a group).
 */
export function fixPointer(what: 'error' | 'warning', title: string, where: 'above' | 'below'): { fix: string; remedy: { action: null; gui: string; cli: string } } {
  const which = `the ${what} "${title}" ${where}`;
  return { fix: `See ${which}: its fix is this one's.`, remedy: { action: null, gui: `See ${which}: its fix is this one's.`, cli: `see ${which}` } };
}

/**
 * The health finding's meaning, one line each (print-doctor.ts wraps them; the window keeps the
 * breaks): `The path of NAME, hop by hop:`, each hop as status prints it (`✗ CoreDNS (kube-dns
 * 172.21.0.10:53): TIMEOUT in 1500 ms — …`) with the re-ask explanation cut out (briefRecheck),
 * that explanation once as a `details:` line when a hop had it, then `tail` (Keep their file's
 * risk) when given. The hops' full reasons stay in the finding's detail (`--json`).
 */
export function pathMeaning(report: Pick<HealthReport, 'name' | 'hops' | 'verdict'>, tail: string | null): string {
  const hops = report.hops.map((h) => (h.reason ? { ...h, reason: briefRecheck(h.reason) } : h));
  const cut = hops.some((h, i) => h.reason !== report.hops[i]!.reason);
  return [
    `The path of ${report.name}, hop by hop:`,
    // A line break inside a hop's text (an error message) is shown as escapeInvisible shows it, never as a line of its own.
    ...hops.map((h) => `${HOP_SYMBOL[hopMark(h, report.verdict)]} ${hopLine(h).replace(/\r?\n/g, '\\x0a')}`),
    ...(cut ? [`details: ${RECHECK_NOTE} (each hop's full reason is in --json).`] : []),
    ...(tail ? [tail] : []),
  ].join('\n');
}

/** `health`: error when cluster names do not resolve while K2s DNS should serve them; info while stopped. */
export async function checkHealthPath(ctx: DoctorContext): Promise<DoctorFinding> {
  const report = await healthOf(ctx);
  const v = report.verdict;
  // Start's refusal of the file (NOT_RESOLVER_FILE) has its fix in nameserver-loop's error, start's
  // own rule: this finding points there (walk 11 L5). Doctor lists errors first, then check order
  // (health first): an error here is above that one, an info below it.
  const pointer = v.action === 'replace-resolver' && notResolverNow(ctx) !== null ? fixPointer('error', NOT_RESOLVER_TITLE, v.level === 'error' ? 'below' : 'above') : null;
  return {
    id: 'health',
    severity: SEVERITY[v.level],
    title: v.summary,
    // What Keep their file would do, said once in full here for the CLI: the fix names it in a clause;
    // the window says it in the drift banner (walk 9 M3).
    // Without the owner fix when the fix below gives it first (walk 11 M3: one message per fact).
    meaning: pathMeaning(report, v.keepRisk && !v.keepRisk.gone && (ctx.opts.frontEnd ?? 'cli') === 'cli' ? withoutClause(v.keepRisk.words, ownerFixClause(v.keepRisk)) : null),
    // The restore named as the banner's button and status's health line name it (after a follow:
    // the followed file, walk 9 L1), as K2s DNS state's drift fix does (lifecycle-state.ts).
    fix: pointer ? pointer.fix : v.level === 'ok' ? null : verdictFix(v, ctx.opts.frontEnd ?? 'cli', ctx.state ? driftRestoreLabel({ networkChange: ctx.state.lastNetworkChange ?? null, followedChange: ctx.state.followedChange ?? null, savedAt: ctx.state.savedAt }, [], false, (ctx.opts.frontEnd ?? 'cli') === 'cli' ? cliTimeText : timeText) : undefined),
    detail: { verdict: v, hops: report.hops, checkedAt: report.checkedAt, ...(pointer ? { pointsAt: 'nameserver-loop' } : {}) },
  };
}
