/**
 * Relative names as glibc expands them (resolv.conf(5) `search`, `domain`, `options ndots:n`
 * and `no-tld-query`; glibc 2.41 resolv/res_query.c __res_context_search), so the Query tester
 * and `k2s-dns query` can say why a name like `kubernetes.default` gets NXDOMAIN:
 * - a name with a trailing dot is asked as it is, and only so;
 * - a name with at least ndots dots is asked as it is first; if that gives no answer, the
 *   search domains follow in order, then (if not asked yet) the name as it is;
 * - the search loop goes on after NXDOMAIN, NODATA and SERVFAIL, and stops at any other failure
 *   (a timeout, REFUSED); an answer ends the whole search;
 * - `no-tld-query`: a name without dots is never asked as it is once the search list was tried.
 * ndots is read with atoi and cut to RES_MAXNDOTS 15 (res_init.c res_setoptions). Since glibc
 * 2.26 the search list has no length limit. A `search .` entry (the root) is left out, as
 * shared/resolv-conf.ts parses it; glibc would ask the name as it is at that position instead
 * of at the end.
 * A candidate glibc cannot put into a query (an empty label from `search corp..example`, a label
 * over 63 octets, a name over 255 octets on the wire) is never sent: res_mkquery's name
 * compression fails, __res_context_query sets h_errno NO_RECOVERY, and the search loop treats
 * that as "anything else" — it ends the search list there, then asks the name as it is (when not
 * asked yet). Measured with glibc 2.36 getaddrinfo: `search a.example corp..example b.example`
 * asks `web.a.example`, then `web`; b.example is never tried.
 * Non-ASCII search domains are sent as their UTF-8 bytes, unchanged (glibc does no IDNA in the
 * resolver; measured: `search bé.example` puts the octets 62 c3 a9 on the wire). Pure logic.
 */
import { parseResolvConf } from './resolv-conf';
import { glibcAtoi } from './upstream-policy';

/** The search list, ndots and no-tld-query of one resolv.conf text. */
export interface SearchConfig {
  search: string[];
  ndots: number;
  /** `options no-tld-query` (glibc RES_NOTLDQUERY). */
  noTldQuery?: boolean;
  /** True when an `options ndots:` line set `ndots`; absent or false: glibc's default 1 (resolv.conf(5)). */
  ndotsSet?: boolean;
}

/** How `ndots` came about in words: `ndots:5 in /etc/resolv.conf`, or `glibc's default ndots:1` when no options line sets it. */
export function ndotsWords(cfg: Pick<SearchConfig, 'ndots' | 'ndotsSet'>): string {
  return cfg.ndotsSet ? `ndots:${cfg.ndots} in /etc/resolv.conf` : `glibc's default ndots:${cfg.ndots} (no ndots option in /etc/resolv.conf)`;
}

/** glibc's cap on ndots (resolv.h RES_MAXNDOTS). */
export const RES_MAXNDOTS = 15;

/** Reads `search`/`domain` (the last wins) and `options ndots:`/`no-tld-query` (prefix match, as glibc) from resolv.conf text. */
export function parseSearchConfig(text: string): SearchConfig {
  const conf = parseResolvConf(text);
  let ndots = 1;
  let noTldQuery = false;
  let ndotsSet = false;
  for (const o of conf.options) {
    if (o.startsWith('ndots:')) {
      ndotsSet = true;
      const n = glibcAtoi(o.slice('ndots:'.length));
      // res_init.c: `if (i <= RES_MAXNDOTS) ndots = i; else ndots = RES_MAXNDOTS` into a 4-bit
      // field, so a negative value wraps (ndots:-1 is 15).
      ndots = n > RES_MAXNDOTS ? RES_MAXNDOTS : n & 0xf;
    } else if (o.startsWith('no-tld-query') || o.startsWith('no_tld_query')) noTldQuery = true;
  }
  // res_query.c drops one leading dot of each domain before it appends it (`if (dname[0] == '.')
  // dname++`, meant for the root "."), so `search .corp.example` searches corp.example.
  return { search: conf.search.map((d) => d.replace(/^\./, '').replace(/\.$/, '')).filter((d) => d !== ''), ndots, ...(noTldQuery ? { noTldQuery } : {}), ...(ndotsSet ? { ndotsSet } : {}) };
}

/** Number of dots in `name`, a trailing one included (glibc counts every dot). */
export function dotCount(name: string): number {
  return (name.match(/\./g) ?? []).length;
}

/** True when glibc applies the search list before asking `name` as it is (fewer than ndots dots, no trailing dot). */
export function isShortName(name: string, cfg: SearchConfig): boolean {
  return !name.endsWith('.') && dotCount(name) < cfg.ndots;
}

/** True when `name` is relative (no trailing dot), so the search list applies to it at all. */
export function isRelativeName(name: string): boolean {
  return name !== '' && !name.endsWith('.');
}

/**
 * The candidates in the order glibc's search list lists them (absolute, without the trailing
 * dot), sendable or not: the as-is name first or last by ndots, each search domain appended.
 */
export function listedCandidates(name: string, cfg: SearchConfig): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = dotCount(name);
  const asIsFirst = dots >= cfg.ndots;
  const suffixed = cfg.search.map((d) => `${name}.${d}`);
  const asIsLast = !asIsFirst && !(cfg.noTldQuery && dots === 0 && suffixed.length > 0);
  return [...(asIsFirst ? [name] : []), ...suffixed, ...(asIsLast ? [name] : [])];
}

/**
 * The names glibc sends for `name` when none of them answers, in order (absolute, without the
 * trailing dot): the walk where every candidate gets NXDOMAIN, so a candidate glibc cannot send
 * ends the search list as it does there (candidateRefusal). Duplicates in the search list are
 * asked twice, as glibc does.
 */
export function searchCandidates(name: string, cfg: SearchConfig): string[] {
  return searchWalk(name, cfg, () => 'nxdomain').asked.filter((s) => s.outcome !== 'unsendable').map((s) => s.name);
}

/** What one candidate got, in the terms glibc's search loop acts on; `unsendable`: glibc could not build its query (candidateRefusal). */
export type SearchOutcome = 'answer' | 'nodata' | 'nxdomain' | 'servfail' | 'other' | 'unsendable';

/** Most octets of one label (RFC 1035 §2.3.4; glibc ns_name_pton refuses more with EMSGSIZE). */
const MAX_LABEL_OCTETS = 63;
/** Most octets of a name on the wire, length bytes and the root included (RFC 1035 §2.3.4, glibc NS_MAXCDNAME). */
const MAX_WIRE_OCTETS = 255;

/**
 * Why glibc cannot send `fqdn` (absolute, without the trailing dot) as a query, or null when it
 * can: an empty label (`web.corp..example`), a label over 63 octets, or a name over 255 octets
 * on the wire (resolv/ns_name.c ns_name_pton, called by res_mkquery's dn_comp). Octets are the
 * name's UTF-8 bytes, as glibc sends them.
 */
export function candidateRefusal(fqdn: string): string | null {
  const labels = fqdn.split('.');
  if (labels.some((l) => l === '')) return 'it has an empty label (two dots in a row)';
  const long = labels.find((l) => new TextEncoder().encode(l).length > MAX_LABEL_OCTETS);
  if (long !== undefined) return `its label "${long.slice(0, 20)}…" is longer than ${MAX_LABEL_OCTETS} octets`;
  const wire = labels.reduce((n, l) => n + 1 + new TextEncoder().encode(l).length, 1);
  if (wire > MAX_WIRE_OCTETS) return `it is ${wire} octets on the wire, more than ${MAX_WIRE_OCTETS}`;
  return null;
}

/** The outcome of a DNS rcode and answer count: NOERROR with data is an answer, without data NODATA; TIMEOUT, REFUSED and the rest are `other`. */
export function searchOutcomeOf(rcode: string, answers: number): SearchOutcome {
  if (rcode === 'NOERROR') return answers > 0 ? 'answer' : 'nodata';
  if (rcode === 'NXDOMAIN') return 'nxdomain';
  if (rcode === 'SERVFAIL') return 'servfail';
  return 'other';
}

/** One step of the walk: a candidate glibc asked and what it got. */
export interface SearchStep {
  name: string;
  outcome: SearchOutcome;
}

/**
 * glibc's search over `name` given each candidate's outcome (`outcomeOf`, absolute names): the
 * candidates it really asks, in order, and where it stops (an `unsendable` step was never sent,
 * and ends the search list as NO_RECOVERY does). `answered` is the candidate whose
 * answer glibc returns, or null; `result` is then `answer`, else `nodata` when some candidate had
 * NODATA, else the last step's outcome.
 */
export function searchWalk(name: string, cfg: SearchConfig, outcomeOf: (fqdn: string) => SearchOutcome): { asked: SearchStep[]; answered: string | null; result: SearchOutcome } {
  const asked: SearchStep[] = [];
  const ask = (fqdn: string): boolean => {
    // glibc never sends a name it cannot encode: res_mkquery fails (NO_RECOVERY), no query leaves.
    const outcome = candidateRefusal(fqdn) === null ? outcomeOf(fqdn) : 'unsendable';
    asked.push({ name: fqdn, outcome });
    return outcome === 'answer';
  };
  const done = (fqdn: string) => ({ asked, answered: fqdn, result: 'answer' as const });
  const failed = () => ({ asked, answered: null, result: asked.some((s) => s.outcome === 'nodata') ? ('nodata' as const) : (asked[asked.length - 1]?.outcome ?? 'nxdomain') });
  if (name.endsWith('.')) {
    const abs = name.slice(0, -1);
    return ask(abs) ? done(abs) : failed();
  }
  const dots = dotCount(name);
  let triedAsIs = false;
  if (dots >= cfg.ndots) {
    if (ask(name)) return done(name);
    triedAsIs = true;
  }
  let searched = false;
  for (const d of cfg.search) {
    searched = true;
    const fqdn = `${name}.${d}`;
    if (ask(fqdn)) return done(fqdn);
    const o = asked[asked.length - 1]!.outcome;
    // NODATA, NXDOMAIN and SERVFAIL go on to the next domain; anything else ends the loop
    // (an unsendable candidate too: res_query.c's `default: done++` for NO_RECOVERY).
    if (o !== 'nodata' && o !== 'nxdomain' && o !== 'servfail') break;
  }
  if ((dots > 0 || !searched || !cfg.noTldQuery) && !triedAsIs) {
    if (ask(name)) return done(name);
  }
  return failed();
}

/**
 * For a name ending in `.svc` (a `<service>.<namespace>.svc` form, as telepresence and pod
 * search lists write it): the cluster zone is `svc.<cluster domain>`, so `…svc` itself is no
 * zone anywhere; it resolves only when the search list carries the cluster domain. Null for
 * other names.
 */
export function svcHint(name: string, cfg: SearchConfig, clusterDomain: string | null): string | null {
  const bare = name.replace(/\.$/, '');
  if (!/(^|\.)svc$/i.test(bare)) return null;
  const cd = clusterDomain ?? 'cluster.local';
  const full = `${bare}.${cd}`;
  if (name.endsWith('.')) return `${name} is absolute and ends in .svc, but the cluster zone is svc.${cd}, so it asks for a top-level domain "svc" that the cluster does not serve — ask ${full}.`;
  const has = cfg.search.some((d) => d.toLowerCase() === cd.toLowerCase());
  return has
    ? `${bare} ends in .svc; the cluster zone is svc.${cd}, and the search list has ${cd}, so glibc also asks ${full}.`
    : `${bare} ends in .svc, but the cluster zone is svc.${cd}: the name resolves only through a search list with ${cd} (pods get "search <namespace>.svc.${cd} svc.${cd} ${cd}" from kubelet), and this host's search list ${cfg.search.length ? `(${cfg.search.join(' ')})` : '(empty)'} has not — ask ${full}, or add ${cd} to the search list.`;
}
