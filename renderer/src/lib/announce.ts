/**
 * What the live region says (status changes and results announced through one
 * `role=status` / `aria-live=polite` element). Pure: each function turns a store value into one
 * sentence; the LiveRegion component picks the newest.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { countFindings } from '../../../shared/doctor';
import type { ResultEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';
import { windowTimes } from './last-known';
import { firstSentence } from './first-sentence';

/**
 * "K2s DNS is running." / "… is stopped." / "… is degraded.", and after drift what happened to
 * /etc/resolv.conf: "another program rewrote" it, or that it was deleted (HostDnsStatus.driftGone,
 * the drift banner's words: walk 7 L5).
 */
export function announceStatus(s: HostDnsStatus): string {
  const drift = s.resolverOwner !== 'foreign' ? '' : s.driftGone ? `; /etc/resolv.conf was ${s.driftGone}` : '; another program rewrote /etc/resolv.conf';
  return `K2s DNS is ${s.state}${drift}.`;
}

/**
 * Whether the live region says `next` (announceStatus) after `prev`: when its words change (state,
 * owner, or the drift's fact: deleted → another program rewrote it) or, while another program owns
 * /etc/resolv.conf, the file changed again (HostDnsStatus.resolverStamp, which the drift banner
 * re-reads on). Walk 8 M4: only state and owner were compared, so "/etc/resolv.conf was deleted."
 * stayed after a NUL file replaced the deleted one.
 */
export function statusNewsChanged(prev: HostDnsStatus | null | undefined, next: HostDnsStatus): boolean {
  if (!prev) return true;
  if (announceStatus(prev) !== announceStatus(next)) return true;
  return next.resolverOwner === 'foreign' && prev.resolverOwner === 'foreign' && prev.resolverStamp != null && next.resolverStamp != null && prev.resolverStamp !== next.resolverStamp;
}

/**
 * What the live region last said of the host's status (`said`), and `cover`: the status object read
 * when an operation's result was announced; the first other status read after it repeats that
 * result, so it counts as said without words.
 */
export interface StatusVoice {
  said: HostDnsStatus | null;
  cover: HostDnsStatus | null | undefined;
}

/** The voice before anything was said. */
export const SILENT: StatusVoice = { said: null, cover: undefined };

/** The voice once an operation's result is announced while the store holds `status`. */
export function afterResult(v: StatusVoice, status: HostDnsStatus | null): StatusVoice {
  return { said: v.said, cover: status };
}

/**
 * The live region's status words for a store update: the new voice and the sentence to say, or
 * null. Nothing while an operation runs (`busy`) or while its result is held (`fresh`, beyond the
 * status read that repeats it); compared with what was last SAID, not with the store's previous
 * status, so a change in those quiet times is said once they end. Walk 13 L1: the health verdict
 * folded running into degraded (CoreDNS down) a moment after, and the region kept "K2s DNS is
 * running." next to a degraded badge.
 */
export function statusWords(v: StatusVoice, status: HostDnsStatus | null, busy: boolean, fresh: boolean): { voice: StatusVoice; text: string | null } {
  if (busy || !status) return { voice: v, text: null };
  if (fresh) return v.cover !== undefined && status !== v.cover ? { voice: { said: status, cover: undefined }, text: null } : { voice: v, text: null };
  if (!statusNewsChanged(v.said, status)) return { voice: { said: v.said, cover: undefined }, text: null };
  return { voice: { said: status, cover: undefined }, text: announceStatus(status) };
}

/**
 * "Start done: <message>" / "Stop failed: <message>", its times in the window's one format
 * (windowTimes: "saved at 22:22:47", as the timeline says it, not the backend's ISO time).
 */
export function announceResult(r: ResultEvent): string {
  const message = r.message.replace(/`/g, '');
  // A long result is announced by its first sentence: the timeline shows it in full, and the
  // region's text is in the page too (walk 11 L5: a kept file's fix stood there a third time).
  const { first, more } = firstSentence(message);
  const said = more && message.length > ANNOUNCE_MAX ? `${first} The timeline in Host DNS says more.` : message;
  return `${r.op.charAt(0).toUpperCase()}${r.op.slice(1)} ${r.ok ? 'done' : 'failed'}: ${windowTimes(said)}`;
}

/** A result message longer than this (characters) is announced by its first sentence. */
export const ANNOUNCE_MAX = 200;

/** "kubernetes.default.svc.cluster.local A: NOERROR, 1 answer, 3 ms." */
export function announceQuery(r: QueryResult): string {
  const n = r.answers.length;
  return `${r.name} ${r.type}: ${r.rcode}, ${n} answer${n === 1 ? '' : 's'}, ${r.latencyMs} ms.`;
}

/** "Checks done: 1 error, 2 warnings." */
export function announceFindings(f: readonly DoctorFinding[]): string {
  const c = countFindings(f);
  return `Checks done: ${c.error} error${c.error === 1 ? '' : 's'}, ${c.warn} warning${c.warn === 1 ? '' : 's'}.`;
}

/** Diagnostics summary badge words per severity: singular and plural. */
const SEVERITY_WORDS: Record<DoctorFinding['severity'], [string, string]> = { error: ['error', 'errors'], warn: ['warning', 'warnings'], info: ['info', 'info'], ok: ['ok', 'ok'] };

/** A Diagnostics summary badge: `1 error`, `2 warnings`, `3 info`, `5 ok`. */
export function severityCountText(severity: DoctorFinding['severity'], n: number): string {
  const [one, many] = SEVERITY_WORDS[severity];
  return `${n} ${n === 1 ? one : many}`;
}
