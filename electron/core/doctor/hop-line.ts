/**
 * One health hop as a line of text, for doctor's `health` check and the CLI's status (print.ts).
 * Its own module, apart from doctor/health.ts: print.ts is loaded by every command, `stop`
 * included, and doctor/health.ts brings the health probes, status and their modules with it.
 */
import { hopGot, hopTitle, resolverOwnerWords, ROOTLESS_WORDS, rootlessNxdomain, type HealthHop } from '../../../shared/health';
import { DOES_NOT_ANSWER, REFUSED_OR_SILENT, silenceDetail } from '../../../shared/probe-failure';

/** Where recheckWords's clause begins in a hop's reason (shared/health.ts), kept after a silent hop's line. */
const RECHECK_LEAD = '; the first reply (in ';

/** One hop as text (a resolver file start refuses: `/etc/resolv.conf: host's own (nameservers 192.0.2.53) — not text (it holds NUL bytes): start refuses it`): `CoreDNS (kube-dns 172.21.0.10:53): does not answer (no reply in 1500 ms; refused or no reply varies run to run: the kernel rate-limits ICMP)`, `k2s-dnsproxy on 127.0.0.1:53: does not answer (refused: port unreachable)`, `upstream 192.0.2.53:53: REFUSED in 3 ms — …`. */
export function hopLine(h: HealthHop): string {
  // A file start refuses (NOT_RESOLVER_FILE) says why on its ✗ line, briefly (walk 11 L9: the ✗ said nothing);
  // a file a user could write says so on its ! line (walk 11 L8).
  if (h.kind === 'resolver') return `${hopTitle(h)}: ${resolverOwnerWords(h)}${h.answers.length ? ` (nameservers ${h.answers.join(', ')})` : ''}${h.writable ? `, ${h.writable}` : ''}${h.startRefusal ? ` — ${h.startRefusal.replace(/^the new file (is )?/, '')}: start refuses it` : ''}`;
  if (h.outcome === 'idle' || h.outcome === 'skipped') return `${hopTitle(h)}: ${h.reason ?? h.outcome}`;
  // A DNS server refused (ICMP port unreachable) or silent till the deadline is one fact, said as the
  // verdict says it (shared/probe-failure.ts DOES_NOT_ANSWER, silenceDetail): back-to-back probes of
  // one closed port read either way (the kernel rate-limits ICMP), so status and doctor moments
  // apart name the same cause, only the detail differs (new user, session 30: `refused` vs `TIMEOUT in 1501 ms`).
  const silent = h.kind !== 'system' && !h.ok ? silenceDetail(h) : null;
  if (silent) {
    const recheck = h.reason?.indexOf(RECHECK_LEAD) ?? -1;
    // CoreDNS's outage is the one read twice in a row (status, then doctor): say in the line that the detail may differ.
    const varies = h.kind === 'kube-dns' ? `; ${REFUSED_OR_SILENT}` : '';
    return `${hopTitle(h)}: ${DOES_NOT_ANSWER} (${silent}${varies})${recheck >= 0 ? ` — ${h.reason!.slice(recheck + 2)}` : ''}`;
  }
  // A closed port, or getaddrinfo's TIMEOUT in 10 ms, was a refusal (shared/health.ts hopGot), not a timeout.
  const got = hopGot(h);
  // An upstream answering but not NOERROR: say what it was asked, as Topology does — the root
  // zone's NS (`. NS`), never the cluster name. NXDOMAIN for the root is reachable (✓, shared/health.ts
  // rootlessNxdomain); any other rcode is hopMark's `warn` (`!`).
  const asked = h.kind === 'upstream' && h.ok && h.rcode !== 'NOERROR' ? ` for ${h.name === '.' ? '. (the root zone)' : h.name} ${h.type}` : '';
  const meaning = !asked ? '' : rootlessNxdomain(h) ? `: it answers; ${ROOTLESS_WORDS}` : ': it answers, but a working recursive resolver answers that NOERROR (RFC 1034 §4.3.1), so it may not resolve Internet names';
  const reason = !h.ok && h.reason ? unrepeated(h.reason, got) : '';
  return `${hopTitle(h)}: ${got}${asked}${h.latencyMs !== null ? ` in ${Math.round(h.latencyMs)} ms` : ''}${meaning}${reason ? ` — ${reason}` : ''}`;
}

/**
 * A hop's reason without the words the line already said before it: a quick refusal's reason
 * begins `getaddrinfo was refused in 9 ms (ERROR)` (shared/health.ts, a sentence of its own where
 * it stands alone), after `refused in 9 ms` on this line — so only ERROR and what follows it are
 * kept (walk 12 L3: "refused in 9 ms — getaddrinfo was refused in 9 ms (…)").
 */
function unrepeated(reason: string, got: string): string {
  const lead = got === 'refused' ? /^\S+ was refused in \d+ ms/.exec(reason) : null;
  if (!lead) return reason;
  const rest = reason.slice(lead[0].length);
  if (!rest.startsWith(' (')) return rest.replace(/^;\s*/, '');
  // The parenthesis that closes the one opened after the lead (the error holds parentheses too).
  let depth = 0;
  for (let i = 1; i < rest.length; i++) {
    if (rest[i] === '(') depth++;
    else if (rest[i] === ')' && --depth === 0) return `${rest.slice(2, i)}${rest.slice(i + 1)}`;
  }
  return reason;
}
