import type { LifecycleEvent, StepEvent } from '../../shared/lifecycle-events';
import type { ClusterDiscovery, DriftRoute, HostDnsStatus, QueryResult } from '../../shared/types';
import { HOP_SYMBOL, hopMark, recheckWords, verdictLine } from '../../shared/health';
import { hopLine } from '../core/doctor/hop-line';
import { isFastTemporaryFailure } from '../core/probes/gai-lookup';
import { stepWarns } from '../../shared/step-warn';
import { withoutCarriedWarnings } from '../../shared/result-warnings';
import { proxyExitSentence } from '../../shared/proxy-exit';
import { terminalSafe } from './terminal-safe';
import { cliTimes, cliTimeText } from '../../shared/clock';
import { driftRestoreLabel } from '../../shared/saved-copy';
import { missingResolverWords } from '../../shared/resolver-missing';
import { answerCaseNote } from '../../shared/answer-case';
import { fromConfigMark } from '../../shared/state-unreadable-note';

// Every value from the cluster, a DNS answer or the host goes through t() (terminal-safe.ts).
const t = terminalSafe;
/** A backend message for people: t() with its times as the CLI prints times (shared/clock.ts cliTimes: `17:12:03 UTC` today, the date before it on another day, with the zone; --json keeps the ISO times). */
const msg = (s: string): string => cliTimes(terminalSafe(s));

/**
 * The step lines one run has printed (printEvent fills it), so its result line refers to a step
 * instead of printing the step's text again: "one message per fact" (docs/drift.md, issue #20; walk 10
 * L1: a refused start's `✗ preflight` text again as `REFUSED:`, `stop --on-drift keep`'s ~700
 * characters twice).
 */
export interface PrintedSteps {
  steps: { step: string; message: string; status?: StepEvent['status'] }[];
}

/** Shorter step texts than this are repeated as they are: "K2s DNS is stopped." says the outcome. */
const REFER_MIN_CHARS = 60;

/**
 * The result's text with each longer step text it carries (a step's message verbatim) replaced by
 * a reference to that step; the whole message when it repeats none. printEvent puts the result's
 * code in its head either way (`REFUSED [CODE]: …`): the step line never says it, and a script or
 * a reader of a refusal printed in full looks it up by it (shared/error-codes.ts).
 * With a warning whose text is the whole message, it points at the warning line below; with other
 * warnings, a reference to a step names them too (they are printed below the result line).
 * Examples: `see the preflight step above.`, `K2s DNS is stopped. See the restore step above and the warning below.`
 */
export function resultText(e: { message: string; code?: string; warnings?: { message: string }[] }, printed: PrintedSteps): string {
  if (e.warnings?.some((w) => w.message === e.message)) return 'see the warning below.';
  // A warning the message carries (start's "… Warning: <text>"): printed once, on its own
  // `warning [CODE]:` line below (walk 11 L5: RESOLV_CONF_WRITABLE's paragraph twice).
  let text = withoutCarriedWarnings(e.message, e.warnings);
  let last: string | null = null;
  for (const s of printed.steps) {
    if (s.message.length < REFER_MIN_CHARS || !text.includes(s.message)) continue;
    last = `${s.step} step above.`;
    text = text === s.message ? `see the ${last}` : text.replace(s.message, `See the ${last}`);
  }
  // The warning lines follow the result line, not the step: the reference says so (a new user's
  // finding: "OK, WITH WARNINGS: … See the restore step above." over a `✓ restore` line).
  const n = e.warnings?.length ?? 0;
  if (last !== null && n > 0) {
    const at = text.lastIndexOf(last);
    text = `${text.slice(0, at)}${last.slice(0, -1)} and the ${n === 1 ? 'warning' : `${n} warnings`} below.${text.slice(at + last.length)}`;
  }
  return text;
}

/**
 * The failed step line of this run that already said `message` (an error's text, whole or inside
 * its step's text: recover's `Recovering the interrupted stop failed: …`), so the command's last
 * line refers to it instead of printing it again (one message per fact, as resultText); null
 * when none did, or when `message` is shorter than REFER_MIN_CHARS (repeated as it is).
 */
export function failedStepOf(message: string, printed: PrintedSteps): string | null {
  if (message.length < REFER_MIN_CHARS) return null;
  return printed.steps.find((s) => s.status === 'failed' && s.message.includes(message))?.step ?? null;
}

/**
 * Prints one lifecycle event: a JSON line with `json`, else one readable line. `printed` carries
 * one run's step lines to its result (resultText); without it every result is printed whole.
 * `err` (stderr) gets a step's progress while it waits (a `running` event with detail.waiting).
 */
export function printEvent(e: LifecycleEvent, json: boolean, out: (s: string) => void, printed: PrintedSteps = { steps: [] }, err?: (s: string) => void): void {
  if (json) return out(JSON.stringify(e));
  if (e.type === 'result') {
    const text = resultText(e, printed);
    const head = e.ok ? (e.warnings?.length ? 'OK, WITH WARNINGS' : 'OK') : e.exitCode === 3 ? 'REFUSED' : 'FAILED';
    // The code whether the text refers to a step or is printed in full (`REFUSED [NOT_ROOT]: …`).
    out(`${head}${e.code ? ` [${t(e.code)}]` : ''}: ${msg(text)}`);
    for (const w of e.warnings ?? []) out(`warning [${t(w.code)}]: ${msg(w.message)}`);
    return;
  }
  // A step's progress while it waits (verify asking again until its deadline: detail.waiting)
  // goes to stderr, `verify: …`; a step's first `running` is not printed (its done line follows).
  if (e.status === 'running') {
    if (e.detail?.waiting === true && err) err(`${e.step}: ${msg(e.message)}`);
    return;
  }
  // Skipped steps with the text the step before them said (a running start's "already running:
  // nothing to do" for save … verify) are one fact: said once (walk 14: six identical lines).
  const last = printed.steps.at(-1);
  if (e.status === 'skipped' && last?.status === 'skipped' && last.message === e.message) {
    printed.steps.push({ step: e.step, message: e.message, status: e.status });
    return;
  }
  // A verify that passed on an NXDOMAIN external check, or a restore that left no name resolving, gets the warning mark (shared/step-warn.ts).
  const mark = stepWarns(e.step, e.status, e.message) ? '!' : { done: '✓', failed: '✗', skipped: '–', running: '…' }[e.status];
  out(`${mark} ${e.step.padEnd(12)} ${msg(e.message)}`);
  printed.steps.push({ step: e.step, message: e.message, status: e.status });
}

/** Zones for people: see print-zones.ts (bounded, escaped, with refused zones). */
export { formatZones } from './print-zones';

/** Host DNS status for people. */
export function formatStatus(s: HostDnsStatus): string {
  const lines = [`K2s DNS: ${s.state}`];
  // The restore choice named as the banner names it (after a follow: the saved file's writer and time, walk 9 L1),
  // its time as every CLI time (with the zone), as the notes that name it print it.
  const verdict = s.health ? verdictLine(s.health.verdict, 'cli', driftRestoreLabel(s, [], false, cliTimeText)) : null;
  if (s.health && verdict) {
    lines.push(`health:     ${t(verdict)}`);
    for (const h of s.health.hops) lines.push(`  ${HOP_SYMBOL[hopMark(h, s.health.verdict)]} ${t(hopLine(h))}`);
  }
  if (s.engine) lines.push(`engine:     ${s.engine}${s.pid ? ` (PID ${s.pid})` : ''}`);
  // A crash or kill since this start and the restart that followed (the watchdog's or systemd's record).
  const exit = proxyExitSentence(s, 0, cliTimeText);
  if (exit) lines.push(`proxy exit: ${t(exit)}`);
  // A user who cannot read root's state: the running proxy's config names them (configFacts), marked so.
  const facts = s.configFacts;
  if (s.listeners.length) lines.push(`listeners:  ${s.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  else if (facts?.listeners.length) lines.push(`listeners:  ${t(facts.listeners.map((l) => `${l.address}:${l.port}`).join(', '))}${t(fromConfigMark(facts.file))}`);
  for (const k of s.skippedListeners) lines.push(`skipped:    ${t(k.address)}: ${t(k.reason)}`);
  const owned = s.resolvedRoute ? `K2s-owned; systemd-resolved sends ${s.resolvedRoute.domains.join(' ')} to ${s.resolvedRoute.address} on ${s.resolvedRoute.link}` : 'K2s-owned (nameserver 127.0.0.1)';
  // A file that resolves to nothing is said as missing, never as a file (walk 10 M5, L4).
  const gone = s.resolverMissing && s.resolverOwner !== 'k2s' ? `/etc/resolv.conf ${missingResolverWords(s.resolverMissing)}${s.resolverOwner === 'foreign' ? ` (${s.resolverMissing.kind === 'absent' ? 'deleted' : 'replaced'} while K2s DNS ran)` : ''}` : null;
  // K2s's file edited in place (header kept): what it names now, never K2s's own nameserver (breaker 10 M4).
  const edited = s.resolverOwner === 'k2s' && s.resolverEdited ? `K2s's file, edited by another program (${editedNames(s.driftRoute ?? null)})` : null;
  lines.push(`resolver:   ${gone ? t(gone) : edited ? t(edited) : { original: "this host's own (not K2s-owned)", k2s: owned, foreign: 'changed by someone else since start' }[s.resolverOwner]}`);
  if (s.upstreams.length) lines.push(`upstreams:  ${t(s.upstreams.join(', '))}`);
  else if (facts?.upstreams.length) lines.push(`upstreams:  ${t(facts.upstreams.join(', '))}${t(fromConfigMark(facts.file))}`);
  if (s.clusterDomain) lines.push(`cluster:    ${t(s.clusterDomain)} → CoreDNS ${t(String(s.kubeDnsIp))}`);
  // Who wrote the copy stop restores (a followed file by its writer, never "by k2s-dns").
  if (s.savedAt) lines.push(`saved:      ${msg(s.savedOriginal ?? `${s.savedAt} by ${String(s.savedBy)}`)}`);
  // applyHealth puts the verdict first in `messages` with the plain restore label: the health line said it (breaker 10 M4).
  const plain = s.health ? verdictLine(s.health.verdict, 'cli') : null;
  for (const m of s.messages) if (m !== verdict && m !== plain) lines.push(`note: ${msg(m)}`);
  return lines.join('\n');
}

/** The nameservers of an edited K2s file for the resolver line: "nameserver 192.0.2.53", "nameservers 127.0.0.1, 192.0.2.9", or "no nameserver line". */
function editedNames(route: Pick<DriftRoute, 'nameservers' | 'implicit'> | null): string {
  if (!route) return 'unreadable';
  if (route.implicit) return 'no nameserver line';
  return `nameserver${route.nameservers.length > 1 ? 's' : ''} ${route.nameservers.join(', ')}`;
}

/**
 * A query result, dig-like. A getaddrinfo EAI_AGAIN that came back sooner than any resolver
 * timeout (electron/core/probes/gai-lookup.ts isFastTemporaryFailure) is headed "temporary
 * failure (EAI_AGAIN)", not TIMEOUT; --json keeps the rcode (walk 18 M4).
 */
export function formatQuery(r: QueryResult): string {
  const rcode = isFastTemporaryFailure(r) ? 'temporary failure (EAI_AGAIN)' : t(r.rcode);
  const lines = [`;; ${t(r.name)} ${r.type} via ${t(r.server)} (${r.transport}): ${rcode} in ${r.latencyMs} ms`];
  if (r.error) lines.push(`;; error: ${t(r.error)}`);
  if (r.recheck) lines.push(`;; note: ${t(recheckWords(r) ?? '')}`);
  // getaddrinfo gives no TTL (AnswerRecord.ttl null): `—`, as the window's answer table, never 0.
  for (const a of r.answers) lines.push(`${t(a.name)}\t${a.ttl === null ? '—' : a.ttl}\tIN\t${t(a.type)}\t${t(a.data)}`);
  // The answer's own spelling stays (as dig prints it; --json too); once, why its capitals differ.
  const caseNote = answerCaseNote(r.name, r.answers);
  if (caseNote !== null) lines.push(`;; note: ${t(caseNote)}`);
  return lines.join('\n');
}
