/**
 * A query's answer that spells the name asked with other capitals (`KUBERNETES.DEFAULT.svc…`
 * for `kubernetes.default.svc…`) is the same name: DNS compares names case-insensitively
 * (RFC 4343 §3). Where such capitals come from: a cache keeps an answer with the spelling it was
 * first asked in and gives it to later askers (measured: AdGuard dnsproxy v0.83.1 with --cache,
 * after `dig KUBERNETES.DEFAULT.svc.cluster.local` through it, answered a lowercase question
 * with the capitals; its cache key is lowercased, dnsproxy proxy/cache.go), and k2s-dns's own
 * health check asks that spelling (shared/health-probe.ts); some resolvers ask in random
 * capitals (draft-vixie-dnsext-dns0x20, "DNS 0x20"). `k2s-dns query` says so once, under the answers.
 * Pure module: no Node or DOM imports.
 */
import { healthProbeName } from './health-probe';

/** `name` without a trailing dot (the root `.` stays). */
const bare = (name: string) => (name.length > 1 && name.endsWith('.') ? name.slice(0, -1) : name);

/**
 * The note for `answers` to the question `asked` when one of them names it with other capitals
 * (a first such answer's spelling quoted), else null: answers under another name (a CNAME's
 * target, a PTR's) and exact spellings need none.
 */
export function answerCaseNote(asked: string, answers: readonly { name: string }[]): string | null {
  const q = bare(asked);
  const other = answers.map((a) => bare(a.name)).find((n) => n !== q && n.toLowerCase() === q.toLowerCase());
  if (other === undefined) return null;
  // Their spelling only when they change the name (an unmarkable name stays as it is: a lower-case
  // answer to a question in capitals is no check's).
  const lower = q.toLowerCase();
  const why = other !== lower && other === healthProbeName(lower)
    ? ", in the spelling of k2s-dns's health check: a cache answers with the spelling a name was first asked in"
    : ': a cache answers with the spelling a name was first asked in, and some resolvers ask in random capitals (DNS 0x20)';
  return `${other} is the name asked (DNS names ignore case, RFC 4343)${why}.`;
}
