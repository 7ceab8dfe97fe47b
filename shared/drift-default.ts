/**
 * Which drift choice the banner offers first. "Keep their file" is the default (the program
 * that wrote it usually knows the network better than the saved copy), except when keeping it
 * leaves the host worse than restoring:
 * - `not-resolver`: their file is no resolver file at all (over 64 KiB, not text, not UTF-8, a
 *   line that is no resolv.conf(5) directive, a link to a directory or FIFO): the follower
 *   refused it for that (shared/network-writer.ts notResolverFileRefusal, status's
 *   driftFileRefusal), and start refuses to save such a file as the original; checked first, so
 *   the banner gives the follower's reason even when the file also names no nameserver;
 *   When glibc would also read it as naming no nameserver but the proxy's (its driftRoute's
 *   keepLeavesNone: NUL bytes, no nameserver line, only lines glibc cannot use), the warning says
 *   so too (`leavesNone`), with the same words as `no-nameserver`;
 * - `no-nameserver`: their file names only the proxy's listeners, or none (glibc then asks
 *   127.0.0.1, resolv.conf(5)); with K2s DNS stopped nothing answers there (drift-route.ts);
 * - `dead`: no nameserver of their file would answer once K2s DNS is stopped (silentAfterStop, the
 *   one rule a plain stop applies too: teardown.ts): K2s DNS's own listeners count as silent, the
 *   others are asked (`. NS`, HealthReport.theirNameservers of a check made FOR THIS FILE: its
 *   forResolver equals the status's resolverStamp). An NXDOMAIN or SERVFAIL is a reply, so that
 *   nameserver answers. A report without them (made before they were asked): the host apps' hop
 *   timed out, was refused or failed at the socket (ENETUNREACH…), as before;
 * - `refused`: the network follower did not follow their file because a user owns it or may
 *   write it (shared/network-writer.ts resolverOwnerRefusal): keeping it hands the host's DNS to
 *   that user.
 * - `gone`: /etc/resolv.conf was deleted or left a dangling link (status.driftGone): there is no
 *   file of theirs to keep, and stop puts the saved original back whatever the choice; checked
 *   before all others, since the rest judge a file.
 * Pure module: no Node or DOM imports.
 */
import type { DriftRoute, HostDnsStatus } from './types';
import type { AfterStopAnswer, HealthReport } from './health-report';
import { keepLeavesNoneWords } from './drift-route';

export type { AfterStopAnswer } from './health-report';

/** Why Keep their file is not the default; null when it is. */
export type KeepRisk =
  | { kind: 'gone'; what: string }
  | { kind: 'not-resolver'; reason: string; leavesNone?: boolean }
  | { kind: 'no-nameserver' }
  | { kind: 'dead'; nameservers: string[]; why: string; afterStop?: boolean }
  | { kind: 'refused'; reason: string };

/** Host apps' hop outcomes that mean "no reply came back" (shared/health-report.ts HopOutcome). */
const SILENT = new Set(['timeout', 'unreachable', 'error']);

/**
 * The one rule for the drift default (docs/drift.md): when no nameserver of their file would
 * answer once K2s DNS is stopped, "Restore my original" is the default of a plain stop, of the
 * banner and of status's fix. Returns why, one clause, e.g. "127.0.0.1 is K2s DNS's own
 * listener; 192.0.2.77 did not answer"; null when one of them answers or was not asked, or when
 * `answers` is empty. Pure.
 */
export function silentAfterStop(answers: readonly AfterStopAnswer[]): string | null {
  if (answers.length === 0 || answers.some((a) => !a.own && a.answered !== false)) return null;
  return answers.map((a) => (a.own ? `${a.nameserver} is K2s DNS's own listener` : `${a.nameserver} did not answer`)).join('; ');
}

/** A plain stop's result when it restored by silentAfterStop's rule, one sentence for its `why`. */
export function restoredSilentWords(why: string): string {
  return `Restored your original: their file's nameservers would not answer once K2s DNS stopped (${why}); --on-drift keep would have kept theirs.`;
}

/**
 * The risk of keeping the other program's file now. `status`: the window's status (driftFileRefusal,
 * driftRoute, driftOwnerRefusal, resolverStamp); `report`: the newest health report, used only when it was
 * made for the same file (its forResolver is the status's non-null resolverStamp).
 */
export function keepRisk(status: Pick<HostDnsStatus, 'driftRoute' | 'driftOwnerRefusal' | 'driftFileRefusal' | 'driftGone' | 'resolverStamp'> | null, report: Pick<HealthReport, 'hops' | 'forResolver' | 'theirNameservers'> | null): KeepRisk | null {
  const gone = status?.driftGone ?? null;
  if (gone) return { kind: 'gone', what: gone };
  const notResolver = status?.driftFileRefusal ?? null;
  const route = status?.driftRoute ?? null;
  // One rule for "keeping it leaves no nameserver": glibc's reading of the file (drift-route.ts
  // keepLeavesNone), also for a file that is no resolver file (NUL bytes: glibc finds no
  // nameserver line in it and asks 127.0.0.1, where nothing answers once K2s DNS stops).
  if (notResolver) return { kind: 'not-resolver', reason: notResolver, leavesNone: route?.keepLeavesNone === true };
  if (route?.keepLeavesNone) return { kind: 'no-nameserver' };
  const stamp = status?.resolverStamp ?? null;
  const forThisFile = report !== null && stamp !== null && report.forResolver === stamp;
  // The one rule (silentAfterStop), when the check asked their nameservers.
  const asked = forThisFile && route ? (report.theirNameservers ?? []) : [];
  const silent = asked.length > 0 ? silentAfterStop(asked) : null;
  if (route && silent) return { kind: 'dead', nameservers: route.nameservers, why: silent, afterStop: true };
  const system = forThisFile && asked.length === 0 ? report.hops.find((h) => h.kind === 'system') : undefined;
  // Past the proxy (bypass): getaddrinfo asked their nameservers, so its silence is theirs.
  if (route && !route.viaK2s && system && SILENT.has(system.outcome)) {
    return { kind: 'dead', nameservers: route.nameservers, why: system.reason ?? `getaddrinfo: ${system.rcode ?? system.outcome}` };
  }
  const refusal = status?.driftOwnerRefusal ?? null;
  if (refusal) return { kind: 'refused', reason: refusal };
  return null;
}

/**
 * The banner's warning for `risk`, one or two sentences ending in a full stop, e.g. "Keeping their
 * file stops K2s DNS and leaves /etc/resolv.conf pointing at 198.51.100.77:53, which does not
 * answer now (getaddrinfo: …): no name would resolve on this host."
 */
export function keepRiskWords(risk: KeepRisk, route: Pick<DriftRoute, 'nameservers'> | null): string {
  switch (risk.kind) {
    case 'gone':
      return `/etc/resolv.conf was ${risk.what} while K2s DNS ran, so there is no file of theirs to keep: stopping K2s DNS puts your saved original back, byte for byte.`;
    case 'not-resolver':
      return `K2s DNS did not follow their file because ${risk.reason.replace(/^the new file/, 'it')}; keeping it leaves that file as this host's resolver.${risk.leavesNone ? ` ${keepLeavesNoneWords(route ?? { nameservers: ['127.0.0.1'] })}` : ''}`;
    case 'no-nameserver':
      return keepLeavesNoneWords(route ?? { nameservers: ['127.0.0.1'] });
    case 'dead': {
      const at = risk.nameservers.map((n) => `${n}:53`).join(' and ');
      if (risk.afterStop) return `Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at ${at}, where nothing would answer then (${risk.why}): no name would resolve on this host.`;
      return `Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at ${at}, which does not answer now (${risk.why}): no name would resolve on this host.`;
    }
    case 'refused':
      return `K2s DNS did not follow their file: ${risk.reason.replace(/^the new file/, 'it')}. Keeping it lets whoever can write it choose this host's DNS.`;
  }
}

/**
 * What Keep their file leaves, without why K2s DNS did not follow the file (keepRiskWords says
 * both): the Keep dialog's warning, and status's note when the follower's note already gives the
 * reason (issue #20: one message per fact). E.g. "Keeping their file stops K2s DNS and leaves
 * /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on
 * this host."
 */
export function keepRiskOutcome(risk: KeepRisk, route: Pick<DriftRoute, 'nameservers'> | null): string {
  switch (risk.kind) {
    case 'not-resolver':
      return risk.leavesNone ? keepLeavesNoneWords(route ?? { nameservers: ['127.0.0.1'] }) : "Keeping their file leaves a file that is no resolver file as this host's resolver.";
    case 'refused':
      return "Keeping their file lets whoever can write it choose this host's DNS.";
    default:
      return keepRiskWords(risk, route);
  }
}

/**
 * What Keep their file would do, in one short clause for the verdict line and status's health
 * line, which point to where the long explanation is (the banner, status's note): e.g. "no name
 * would resolve on this host after it" (walk 9 M3: the long sentence was in five places).
 */
export function keepRiskShort(risk: KeepRisk): string {
  switch (risk.kind) {
    case 'gone':
      return 'stopping puts your saved original back';
    case 'not-resolver':
      return risk.leavesNone ? 'no name would resolve on this host after it' : 'it leaves a file that is no resolver file as this host\'s resolver';
    case 'no-nameserver':
    case 'dead':
      return 'no name would resolve on this host after it';
    case 'refused':
      return 'it lets whoever can write their file choose this host\'s DNS';
  }
}

/**
 * What the health report says of the saved copy's nameservers (its upstream hops, probed by
 * every check while K2s DNS runs): 'answer' when one replied (any rcode), the reasons when all
 * were silent (timeout, refused, a socket error), null when the report has no upstream hop or
 * was made for another file than the status's.
 */
export function savedNameserversNow(status: Pick<HostDnsStatus, 'resolverStamp'> | null, report: Pick<HealthReport, 'hops' | 'forResolver'> | null): 'answer' | { dead: string } | null {
  const stamp = status?.resolverStamp ?? null;
  if (report === null || stamp === null || report.forResolver !== stamp) return null;
  const ups = report.hops.filter((h) => h.kind === 'upstream');
  if (ups.length === 0) return null;
  if (ups.some((h) => !SILENT.has(h.outcome))) return 'answer';
  return { dead: ups.map((h) => h.reason ?? `${h.target}: ${h.outcome}`).join('; ') };
}

/**
 * The drift verdict's keepRisk (shared/health-report.ts HealthVerdict.keepRisk) for the status
 * `status` and the hops of a check made for its file (`hops`): null when Keep their file is the
 * default or the file is not drift (another program's file, or K2s's own edited in place:
 * `resolverEdited`). `stopRestores` is the same rule without the health check
 * (keepRisk(status, null)), which is what a plain stop applies (teardown.ts restoreByDefault),
 * plus silentAfterStop, which stop applies by asking their nameservers itself.
 * `theirNameservers`: their file's nameservers as the check asked them (HealthReport.theirNameservers).
 * `ownerFix`: for a file refused for its owner or mode only (`refused` risk), status's
 * driftOwnerFix, the command after which the follower follows it (walk 11 M3).
 */
export function verdictKeepRisk(status: Pick<HostDnsStatus, 'resolverOwner' | 'driftRoute' | 'driftOwnerRefusal' | 'driftFileRefusal' | 'driftGone' | 'resolverStamp' | 'startRefusal'> & Pick<Partial<HostDnsStatus>, 'resolverEdited' | 'driftOwnerFix'>, hops: HealthReport['hops'], theirNameservers?: AfterStopAnswer[]): { words: string; outcome?: string; short: string; stopRestores: boolean; gone: string | null; refused: string | null; startRefuses?: boolean; ownerFix?: string } | null {
  // K2s's own file edited in place (header kept) is drift too, judged by the same rule (breaker 10 M4:
  // with nameserver 127.0.0.1 kept, "Keep their file" was the default for a file nothing answers once stopped).
  if (status.resolverOwner !== 'foreign' && !(status.resolverOwner === 'k2s' && status.resolverEdited)) return null;
  const risk = keepRisk(status, { hops, forResolver: status.resolverStamp ?? null, ...(theirNameservers ? { theirNameservers } : {}) });
  if (!risk) return null;
  // A start after Keep their file judges that file (preflight NOT_RESOLVER_FILE): the fix says whether it would refuse it.
  // `outcome` only when it leaves something out of `words` (the follower's reason): status's note then.
  const words = keepRiskWords(risk, status.driftRoute ?? null);
  const outcome = keepRiskOutcome(risk, status.driftRoute ?? null);
  // Refused for its owner or mode only: the fix that keeps K2s DNS running comes first (walk 11 M3).
  const ownerFix = risk.kind === 'refused' && status.driftOwnerFix ? status.driftOwnerFix : null;
  return { words, ...(outcome !== words ? { outcome } : {}), short: keepRiskShort(risk), stopRestores: (risk.kind === 'dead' && risk.afterStop === true) || keepRisk(status, null) !== null, gone: risk.kind === 'gone' ? risk.what : null, refused: risk.kind === 'gone' ? null : followerRefusal(status), ...(risk.kind !== 'gone' && status.startRefusal ? { startRefuses: true } : {}), ...(ownerFix ? { ownerFix } : {}) };
}

/**
 * Why the network follower refused the other program's file, whatever keepRisk put first (a 0666
 * file whose nameserver is dead is `dead` there, and still refused): it is no resolver file
 * (status.driftFileRefusal), it names no nameserver but the proxy's (driftRoute.keepLeavesNone),
 * or a user owns it or may write it (status.driftOwnerRefusal); null when none of these holds.
 * After "Keep their file" a start would save that very file as the original (walk 7 M1), or
 * refuse it (NOT_RESOLVER_FILE: verdictKeepRisk's startRefuses), so no printed fix chains one
 * (shared/health.ts verdictFix).
 */
export function followerRefusal(status: Pick<HostDnsStatus, 'driftRoute' | 'driftOwnerRefusal' | 'driftFileRefusal'>): string | null {
  const why = status.driftFileRefusal ?? (status.driftRoute?.keepLeavesNone ? 'it names no nameserver but K2s DNS\'s own listeners' : null) ?? status.driftOwnerRefusal ?? null;
  return why === null ? null : why.replace(/^the new file/, 'it');
}

/**
 * The follower's ` — fix it with CMD` clause of a drift verdict's keepRisk (its `refused` reason,
 * shared/network-writer.ts resolverOwnerRefusal) when verdictFix offers that fix first
 * (`ownerFix`, walk 11 M3), so a note or meaning that carries the reason drops it there: one
 * message per fact. Null without an owner fix.
 */
export function ownerFixClause(risk: { refused?: string | null; ownerFix?: string } | null | undefined): string | null {
  return risk?.ownerFix ? (/ — fix it with .*$/s.exec(risk.refused ?? '')?.[0] ?? null) : null;
}
