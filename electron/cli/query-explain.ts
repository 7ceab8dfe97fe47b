/**
 * `k2s-dns query`'s explanation of an NXDOMAIN for a relative or `.svc` name: reads the search
 * list and ndots of /etc/resolv.conf (while K2s DNS runs, the K2s-owned file keeps the
 * original's), asks each candidate glibc would ask as an absolute name at the same target, and
 * words it with shared/search-explain.ts; while K2s DNS is stopped, a cluster name asked through
 * the host's resolver is said to need it started.
 */
import { MAX_RESOLVER_BYTES, RESOLVER_READ_BYTES } from '../../shared/network-writer';
import type { LifecycleDeps } from '../core/lifecycle/deps';
import type { QueryResult, QueryType } from '../../shared/types';
import { parseSearchConfig } from '../../shared/search-list';
import { explainCandidates, explainLines, type CandidateAnswer } from '../../shared/search-explain';
import { icannSuffixOf } from '../../shared/internet-suffix';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { dnsStatus } from '../core/lifecycle/status';
import { cliCommand } from '../../shared/fix';

/**
 * The explanation (`lines` for people, the facts for `--json`); null when /etc/resolv.conf cannot
 * be read. `asked`: the result the command already printed for `name` at `server`; the candidate
 * that is `name` itself takes it instead of being asked again, so one output shows one rcode for
 * one question (a second ask can differ: a cache entry ending, a proxy merging it with another
 * client's question).
 */
export async function searchExplanation(
  deps: Pick<LifecycleDeps, 'fs' | 'query' | 'systemQuery'> & Parameters<typeof dnsStatus>[0],
  name: string,
  type: QueryType,
  server: string,
  transport: 'udp' | 'tcp',
  asked?: QueryResult,
): Promise<{ search: string[]; ndots: number; candidates: CandidateAnswer[]; lines: string[] } | null> {
  const text = await deps.fs.readFile(K2S_PATHS.resolvConf, { maxBytes: RESOLVER_READ_BYTES }).then((b) => (b.length > MAX_RESOLVER_BYTES ? null : b.toString('utf8')), () => null);
  if (text === null) return null;
  const cfg = parseSearchConfig(text);
  const status = await dnsStatus(deps).catch(() => null);
  const clusterDomain = status?.clusterDomain ?? null;
  // The host's resolver while K2s DNS is stopped: its nameservers serve no cluster zone.
  const stoppedStart = server === 'system' && status?.state === 'stopped' ? cliCommand('start', true) : null;
  // A trailing dot: each candidate is asked as it is, with no second search.
  const candidates = await Promise.all(
    explainCandidates(name, cfg).map(async (n): Promise<CandidateAnswer> => {
      const same = server !== 'system' && asked && asked.type === type && sameName(asked.name, n);
      const r = same ? asked : server === 'system' ? await deps.systemQuery(`${n}.`, type) : await deps.query({ name: `${n}.`, type, server, transport });
      return { name: n, rcode: r.rcode, answers: r.answers.map((a) => a.data) };
    }),
  );
  const lines = explainLines({ name, target: server === 'system' ? 'system' : 'server', cfg, clusterDomain, answers: candidates, internetSuffix: icannSuffixOf(name), stoppedStart });
  return { search: cfg.search, ndots: cfg.ndots, candidates, lines };
}

/** Same DNS name: ASCII case and a trailing dot aside (RFC 4343). */
function sameName(a: string, b: string): boolean {
  const n = (x: string) => x.replace(/\.$/, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
  return n(a) === n(b);
}
