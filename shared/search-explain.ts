/**
 * Why a relative name got NXDOMAIN (or no answer), in words the Query tester and `k2s-dns query`
 * share: the host's search list and ndots, the candidates glibc asks in order with each one's
 * rcode (shared/search-list.ts searchWalk), where glibc stops, and the `.svc` hint. Pure logic.
 */
import { isIpAddress } from './cidr';
import { candidateRefusal, isRelativeName, listedCandidates, searchCandidates, searchOutcomeOf, searchWalk, svcHint, type SearchConfig } from './search-list';

/** What one candidate got when asked as an absolute name. */
export interface CandidateAnswer {
  name: string;
  rcode: string;
  /** Answer records (A/AAAA data), empty when none. */
  answers: string[];
}

/** True when a result for `name` deserves the explanation: a relative DNS name (not an IP) or a name ending in `.svc`, that got NXDOMAIN or no answer. */
export function needsSearchExplain(name: string, rcode: string, answers: number): boolean {
  if (isIpAddress(name) || !(isRelativeName(name) || /(^|\.)svc\.$/i.test(name))) return false;
  return rcode === 'NXDOMAIN' || (rcode === 'NOERROR' && answers === 0);
}

/**
 * needsSearchExplain for one query result: never for a PTR lookup (an address, or its
 * in-addr.arpa/ip6.arpa name), which gethostbyaddr asks once — the search list applies to host
 * names (resolv.conf(5) "search").
 */
export function resultNeedsSearchExplain(r: { name: string; type: string; rcode: string; answers: readonly unknown[] }): boolean {
  return r.type !== 'PTR' && needsSearchExplain(r.name, r.rcode, r.answers.length);
}

/** The candidates to ask for the explanation (absolute, without trailing dot), in glibc's order; never one glibc cannot send. */
export function explainCandidates(name: string, cfg: SearchConfig): string[] {
  return searchCandidates(name, cfg);
}

/** The host's configuration in one phrase: "search corp.example lan, ndots:1". */
export function searchConfigPhrase(cfg: SearchConfig): string {
  return `${cfg.search.length ? `search ${cfg.search.join(' ')}` : 'no search list'}, ${cfg.ndotsSet ? `ndots:${cfg.ndots}` : `glibc's default ndots:${cfg.ndots}`}${cfg.noTldQuery ? ', no-tld-query' : ''}`;
}

/** A full cluster name for a short one: `kubernetes.default` → `kubernetes.default.svc.<cd>`, `web` → `web.default.svc.<cd>`; null for other shapes. */
export function fullClusterName(name: string, clusterDomain: string | null): string | null {
  const cd = clusterDomain ?? 'cluster.local';
  const labels = name.replace(/\.$/, '').split('.');
  if (labels.length === 1) return `${labels[0]}.default.svc.${cd}`;
  if (labels.length === 2) return `${labels.join('.')}.svc.${cd}`;
  return null;
}

/**
 * Each listed candidate in order with what it got and whether glibc asks it; `answered` is the
 * candidate whose answer glibc returns, or null. A candidate glibc cannot send has the rcode
 * `not sent (<why>; glibc ends the search list here)` (shared/search-list.ts candidateRefusal).
 */
export function explainSteps(name: string, cfg: SearchConfig, answers: CandidateAnswer[]): { steps: (CandidateAnswer & { asked: boolean })[]; answered: string | null } {
  const byName = new Map(answers.map((a) => [a.name.toLowerCase(), a]));
  const walk = searchWalk(name, cfg, (n) => {
    const a = byName.get(n.toLowerCase());
    return a ? searchOutcomeOf(a.rcode, a.answers.length) : 'other';
  });
  // The walk's steps are a subsequence of the candidates in order: matched by position, not by
  // name, so a domain listed twice is asked once when glibc stopped at its first copy.
  let next = 0;
  const steps = listedCandidates(name, cfg).map((n) => {
    const asked = walk.asked[next]?.name === n;
    if (asked) next++;
    const refusal = candidateRefusal(n);
    if (refusal !== null) return { name: n, rcode: `not sent (${refusal}; glibc cannot build the query and ends the search list here)`, answers: [], asked };
    return { ...(byName.get(n.toLowerCase()) ?? { name: n, rcode: 'not asked', answers: [] }), name: n, asked };
  });
  return { steps, answered: walk.answered };
}

/**
 * The closing sentence: where glibc stops, or that none resolves and what to ask instead. The
 * cluster form (`e.g. kubernetes.default.svc.cluster.local`) is suggested only where it can
 * apply: not for an Internet name, `internet` (its ICANN public suffix, shared/internet-suffix.ts
 * icannSuffixOf, and the rcode the name got as it is, null when not asked), which is said not to
 * exist instead (walk 18 M3: `example.com` got "e.g. example.com.svc.cluster.local").
 * `stoppedStart`: the line that starts K2s DNS, given when it is not running and the host's
 * resolver was asked; then a name in the cluster zone (`clusterDomain`, default cluster.local) is
 * said to resolve nowhere for that reason, with the line (new-user walk: "the search list has no
 * domain" for kubernetes.default.svc.cluster.local, where the host's nameservers serve no cluster zone).
 */
export function explainSummary(name: string, answered: string | null, answersOfAnswered: string[], clusterDomain: string | null, cfg: SearchConfig, internet: { suffix: string; rcode: string | null } | null = null, stoppedStart: string | null = null): string {
  if (answered) return `glibc stops at ${answered}: it resolves (${answersOfAnswered.join(', ')}), so host apps get that answer for ${name}.`;
  const cd = (clusterDomain ?? 'cluster.local').toLowerCase();
  const bareName = name.replace(/\.$/, '').toLowerCase();
  if (stoppedStart !== null && (bareName === cd || bareName.endsWith(`.${cd}`))) {
    // Worded as `query --server proxy` while stopped (electron/cli/main.ts), for the host's resolver.
    return `None of them resolves: K2s DNS is not running, so nothing answers for ${cd} (the host's nameservers do not serve cluster zones): run ${stoppedStart} first.`;
  }
  const none = `None of them resolves${cfg.search.length > 0 ? `: the search list has no domain under which ${name} exists` : ''}.`;
  if (internet) {
    const bare = name.replace(/\.$/, '');
    return `${none} ${bare} is an Internet name (under the public suffix .${internet.suffix}), not a cluster one${internet.rcode === 'NXDOMAIN' ? ', and the nameserver says it does not exist (NXDOMAIN)' : ''}.`;
  }
  const full = /(^|\.)svc\.?$/i.test(name) ? null : fullClusterName(name, clusterDomain);
  return `${none}${full ? ` Cluster names need their full form here, e.g. ${full}.` : ''}`;
}

/**
 * explainSummary's `internet` for `name`: its ICANN public suffix (`suffix`: shared/internet-suffix.ts
 * icannSuffixOf of `name`, null when none) with the rcode `name` got as it is among the asked
 * `steps` (explainSteps'; null when not asked), or null for a name under no such suffix. One rule
 * for `k2s-dns query` and the window's Query tester (new-user walk: the tester still suggested
 * example.com.svc.cluster.local).
 */
export function internetNameOf(name: string, suffix: string | null, steps: readonly (CandidateAnswer & { asked: boolean })[]): { suffix: string; rcode: string | null } | null {
  if (!suffix) return null;
  const bare = name.replace(/\.$/, '').toLowerCase();
  return { suffix, rcode: steps.find((st) => st.asked && st.name.toLowerCase() === bare)?.rcode ?? null };
}

/**
 * The explanation as text lines (the CLI prints them after `;; `): configuration and who
 * expands the name, one line per candidate (`1. kubernetes.default → NXDOMAIN`, `(not asked)`
 * past glibc's stop), the summary, and the `.svc` hint. `internetSuffix`: the name's ICANN public
 * suffix (shared/internet-suffix.ts icannSuffixOf; absent or null: none), for the summary;
 * `stoppedStart`: explainSummary's (absent or null: K2s DNS runs, or not known).
 */
export function explainLines(input: { name: string; target: 'system' | 'server'; cfg: SearchConfig; clusterDomain: string | null; answers: CandidateAnswer[]; internetSuffix?: string | null; stoppedStart?: string | null }): string[] {
  const { name, cfg } = input;
  const { steps, answered } = explainSteps(name, cfg, input.answers);
  const who = input.target === 'system'
    ? `/etc/resolv.conf has ${searchConfigPhrase(cfg)} (resolv.conf(5)), so glibc asks for ${name}, in order:`
    : `a nameserver asked directly gets ${name} as it is; host apps (glibc, /etc/resolv.conf: ${searchConfigPhrase(cfg)}, resolv.conf(5)) ask, in order:`;
  const lines = [who];
  steps.forEach((s, i) => lines.push(`  ${i + 1}. ${s.name} → ${s.rcode}${s.rcode === 'NOERROR' ? (s.answers.length ? ` ${s.answers.join(', ')}` : ' (no answer)') : ''}${s.asked ? '' : ' (not asked: glibc stopped before it)'}`));
  const hit = steps.find((s) => s.name === answered);
  lines.push(explainSummary(name, answered, hit?.answers ?? [], input.clusterDomain, cfg, internetNameOf(name, input.internetSuffix ?? null, steps), input.stoppedStart ?? null));
  const svc = svcHint(name, cfg, input.clusterDomain);
  if (svc) lines.push(svc);
  return lines;
}
